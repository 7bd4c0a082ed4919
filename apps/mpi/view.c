/* The project's collective algorithms on a sub-communicator (docs/mpi.md,
 * "Collectives"). The collective library (apps/coll/req.c, run.c) plans
 * and runs a schedule for the whole machine: node net_rank() of
 * net_nodes(), on net_topology()'s shape, messages tagged with their step.
 * An MPI image is linked with -Wl,--wrap for exactly the node calls that
 * library makes (the Makefile's MPI_WRAP), so that while a communicator
 * is in view (mpii_view) the library sees the communicator instead:
 *   - net_rank and net_nodes: the rank and the size;
 *   - net_topology: a line of the ranks (a one-dimensional mesh of size
 *     nodes), the one shape every communicator has; an algorithm that
 *     needs another (a 2D torus, a hypercube) refuses it, and `auto`
 *     picks among those that take a line;
 *   - net_send_multi and net_recv: ranks become the nodes that hold them
 *     (mpii_comm.world), and a step's tag takes the communicator's
 *     collective context in bits 16..29 (mpii.h): no other communicator's
 *     collective, none of the whole machine's (steps < 2^16) and no MPI
 *     message (bit 30) can match it.
 * Out of view every call goes through unchanged. The images of the
 * project's own apps are linked without the wrapping: their code, and so
 * their figures, are those of the whole machine. */
#include <stdint.h>
#include "mpii.h"
#include "../../netdev/net.h"

int __real_net_rank(void);
int __real_net_nodes(void);
const struct net_topology *__real_net_topology(void);
void __real_net_send_multi(const int *dst, int n, int tag, const void *buf, size_t len);
void __real_net_recv(int src, int tag, void *buf, size_t cap, struct net_status *st);

static const struct mpii_comm *view;
static struct net_topology line;

void mpii_view(const struct mpii_comm *c)
{
    view = c;
    if (!c)
        return;
    line = *__real_net_topology();
    line.kind = TOPO_MESH;
    line.ndims = 1;
    for (int i = 0; i < NET_MAX_DIMS; i++)
        line.dims[i] = i ? 1 : c->size;
}

static int view_tag(int step)
{
    return (int)((view->ctx + 1) << 16 | (uint32_t)step);
}

int __wrap_net_rank(void) { return view ? view->rank : __real_net_rank(); }
int __wrap_net_nodes(void) { return view ? view->size : __real_net_nodes(); }
const struct net_topology *__wrap_net_topology(void) { return view ? &line : __real_net_topology(); }

void __wrap_net_send_multi(const int *dst, int n, int tag, const void *buf, size_t len)
{
    if (!view) {
        __real_net_send_multi(dst, n, tag, buf, len);
        return;
    }
    int node[n > 0 ? n : 1];
    for (int i = 0; i < n; i++)
        node[i] = dst[i] >= 0 && dst[i] < view->size ? view->world[dst[i]] : -1;   /* -1: net_send refuses it */
    __real_net_send_multi(node, n, view_tag(tag), buf, len);
}

void __wrap_net_recv(int src, int tag, void *buf, size_t cap, struct net_status *st)
{
    if (!view) {
        __real_net_recv(src, tag, buf, cap, st);
        return;
    }
    int node = src >= 0 && src < view->size ? view->world[src] : -1;
    __real_net_recv(node, view_tag(tag), buf, cap, st);
}
