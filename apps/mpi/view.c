/* The project's collective algorithms on a sub-communicator (docs/mpi.md,
 * "Collectives"). The collective library (apps/coll/req.c, run.c) plans
 * and runs a schedule for the whole machine: node net_rank() of
 * net_nodes(), on net_topology()'s shape, messages tagged with their step.
 * An MPI image is linked with -Wl,--wrap for the node calls of that
 * library that depend on the machine (the Makefile's MPI_WRAP), so that
 * while a communicator is in view (mpii_view) the library sees the
 * communicator instead:
 *   - net_rank and net_nodes: the rank and the size;
 *   - net_topology: a line of the ranks (a one-dimensional mesh of size
 *     nodes), the one shape every communicator has; an algorithm that
 *     needs another (a 2D torus, a hypercube) refuses it, and `auto`
 *     picks among those that take a line;
 *   - net_send_multi and net_recv: ranks become the nodes that hold them
 *     (mpii_comm.world), and a step's tag takes the communicator's
 *     collective context in bits 16..28 (mpii.h): no other communicator's
 *     collective, none of the whole machine's (steps < 2^16) and no MPI
 *     message (bit 30) can match it.
 * The library's other node calls go through unchanged: net_msg_max (the
 * machine's), and net_step, which marks the node's steps in steps.csv
 * whichever communicator runs them. In view or not, a receive waits as
 * a blocking MPI receive does (apps/mpi/p2p.c): until its own message has
 * come, it progresses a running nonblocking collective, since a peer may
 * wait for this rank's part of it before sending, and the pending
 * receives take their messages, since a peer may wait in MPI_Ssend. The
 * images of the project's own apps are linked without the wrapping:
 * their code, and so their figures, are those of the whole machine. */
#include <stdint.h>
#include "mpii.h"
#include "../../netdev/net.h"

int __real_net_rank(void);
int __real_net_nodes(void);
const struct topo_shape *__real_net_topology(void);
void __real_net_send_multi(const int *dst, int n, int tag, const void *buf, size_t len);
void __real_net_recv(int src, int tag, void *buf, size_t cap, struct net_status *st);

static const struct mpii_comm *view;
static struct topo_shape line;

void mpii_view(const struct mpii_comm *c)
{
    view = c;
    if (!c)
        return;
    line = *__real_net_topology();
    line.topo = TOPO_MESH;
    line.ndims = 1;
    line.nodes = c->size;
    for (int i = 0; i < NET_MAX_DIMS; i++)
        line.dims[i] = i ? 1 : c->size;
}

static int view_tag(int step)
{
    return (int)((view->ctx + 1) << 16 | (uint32_t)step);
}

int __wrap_net_rank(void) { return view ? view->rank : __real_net_rank(); }
int mpii_node(void) { return __real_net_rank(); }
int __wrap_net_nodes(void) { return view ? view->size : __real_net_nodes(); }
const struct topo_shape *__wrap_net_topology(void) { return view ? &line : __real_net_topology(); }

void __wrap_net_send_multi(const int *dst, int n, int tag, const void *buf, size_t len)
{
    if (!view) {
        __real_net_send_multi(dst, n, tag, buf, len);
        return;
    }
    int node[n > 0 ? n : 1];
    for (int i = 0; i < n; i++)
        node[i] = dst[i] >= 0 && dst[i] < view->size ? view->world[dst[i]] : -2;   /* net_send refuses it */
    __real_net_send_multi(node, n, view_tag(tag), buf, len);
}

/* Out of view, until a message from node with tag has come: the running
 * nonblocking collectives progress and the pending receives take their
 * messages meanwhile (apps/mpi/p2p.c, mpii_await_node). */
static void progress_until(int node, int tag)
{
    const struct mpii_comm *v = view;
    view = NULL;
    mpii_await_node(node, tag);
    view = v;
}

void __wrap_net_recv(int src, int tag, void *buf, size_t cap, struct net_status *st)
{
    int node = src, wire = tag;
    if (view) {
        node = src >= 0 && src < view->size ? view->world[src] : -2;   /* not NET_ANY: net_recv refuses it */
        wire = view_tag(tag);
    }
    progress_until(node, wire);
    __real_net_recv(node, wire, buf, cap, st);
}
