/* Machine shapes: k-ary n-cubes (mesh, torus) with a size per dimension,
 * the binary hypercube (2-ary n-cube), and two indirect networks whose
 * switches are the network model's (host/net/net_topo.c): the banyan (one
 * dimension of `nodes` processors) and the fat tree (a k-ary n-tree: n
 * dimensions of k, a node's coordinates its base-k digits). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "machine.h"
#include "show.h"
#include "../apps/number.h"

const char *const topo_names[] = { TOPO_NAMES };
_Static_assert(sizeof topo_names / sizeof topo_names[0] == TOPO_COUNT, "a name for each topology");
const char *const switching_names[] = { "wormhole", "cut-through", "store-and-forward", NULL };
const char *const alloc_names[] = {
#define ALLOC(id, name, vc, sw, key, doc) name,
#include "net/allocs.def"
#undef ALLOC
    NULL
};
const char *const tie_names[] = { "plus", "source-parity", NULL };
const char *const routing_names[] = {
#define ROUTING(id, name, topos, oblivious, doc) name,
#include "net/routings.def"
#undef ROUTING
    NULL
};
const char *const selection_names[] = { "first", "least_used", "random", NULL };

/* A size from 1 to max in the syntax of every option (apps/number.h):
 * 0, or the number_parse code (NUMBER_BAD when out of range). DIMS takes
 * decimal only: its sizes are joined by 'x'. */
static int parse_pos(const char *s, long max, int hex, long *out)
{
    long long v;
    int rc = hex || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') ? number_parse(s, 0, (unsigned long long)max, &v)
                                                                : NUMBER_BAD;
    if (rc)
        return rc;
    if (v < 1)
        return NUMBER_BAD;
    *out = (long)v;
    return 0;
}

/* Near-square factorisation for a 2D shape: the largest divisor <= sqrt(n)
 * is the number of rows, so 64 -> 8x8, 32 -> 8x4, 12 -> 4x3. */
static void default_2d(int n, int dims[2])
{
    int r = 1;
    for (int d = 1; d * d <= n; d++)
        if (n % d == 0)
            r = d;
    dims[0] = n / r;
    dims[1] = r;
}

/* A dragonfly's DIMS (parsed into dims[0..2]): p nodes a router, a routers
 * a group, and g = a h + 1 groups for h global links a router (every two
 * groups joined by one link); the product is the node count, as for every
 * machine. */
static int dragonfly_dims(const struct topo_shape *m, const char *dims_s, char *err, size_t errlen)
{
    long p = m->dims[0], a = m->dims[1], g = m->dims[2], h = a ? (g - 1) / a : 0;
    if (m->ndims != 3 || h < 1 || a * h + 1 != g || p + a - 1 + h > 2 * NIC_MAX_DIMS) {
        snprintf(err, errlen, "a dragonfly's DIMS are PxAxG: P nodes a router, A routers a group and "
                 "G = A H + 1 groups for H global links a router (P + A - 1 + H at most %d ports), such as "
                 "2x4x9 (72 nodes, H = 2) or 1x2x3; not %s", 2 * NIC_MAX_DIMS, dims_s);
        return -1;
    }
    return 0;
}

/* The node count of the balanced dragonfly of p nodes a router (Kim et
 * al.: a = 2p = 2h): p a routers in each of its a h + 1 groups. */
static long dragonfly_balanced_nodes(int p)
{
    return 2L * p * p * (2L * p * p + 1);
}

/* The balanced dragonfly of `nodes` nodes, or -1 with the node counts
 * there are, up to MACHINE_MAX_NODES, in err. */
static int dragonfly_balanced(struct topo_shape *m, long nodes, char *err, size_t errlen)
{
    int p = 1;
    for (; dragonfly_balanced_nodes(p) <= MACHINE_MAX_NODES; p++)
        if (dragonfly_balanced_nodes(p) == nodes) {
            m->ndims = 3;
            m->dims[0] = p;
            m->dims[1] = 2 * p;
            m->dims[2] = 2 * p * p + 1;
            return 0;
        }
    size_t o = (size_t)snprintf(err, errlen, "a balanced dragonfly (a = 2p = 2h) has NODES =");
    for (int q = 1; q < p && o < errlen; q++)
        o += (size_t)snprintf(err + o, errlen - o, "%s %ld", q == 1 ? "" : q == p - 1 ? " or" : ",",
                              dragonfly_balanced_nodes(q));
    if (o < errlen)
        snprintf(err + o, errlen - o, ", not %ld; or give DIMS=PxAxG (such as 2x4x9)", nodes);
    return -1;
}

int machine_default_nodes(enum topo t)
{
    return t == TOPO_DRAGONFLY ? 72 : 64;   /* 72: the balanced dragonfly 2x4x9 */
}

void machine_topo_list(char *buf, size_t len, const char *sep)
{
    show_names(buf, len, topo_names, TOPO_COUNT, sep);
}

int machine_parse(struct topo_shape *m, const char *topo_s, const char *nodes_s,
                  const char *dims_s, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    int t = -1;
    for (int i = 0; i < TOPO_COUNT; i++)
        if (topo_s && !strcmp(topo_s, topo_names[i]))
            t = i;
    if (t < 0) {
        size_t o = (size_t)snprintf(err, errlen, "unknown topology '%s'; accepted: ", topo_s ? topo_s : "");
        if (o < errlen)
            machine_topo_list(err + o, errlen - o, ", ");
        return -1;
    }
    m->topo = (enum topo)t;
    long nodes = 0;
    int rc = nodes_s ? parse_pos(nodes_s, MACHINE_MAX_NODES, 1, &nodes) : 0;
    if (rc) {
        snprintf(err, errlen, "NODES='%s' is not a whole number from 1 to %d%s", nodes_s, MACHINE_MAX_NODES,
                 rc == NUMBER_OCTAL ? NUMBER_FORM : "");
        return -1;
    }
    if (dims_s && *dims_s) {
        const char *p = dims_s;
        long prod = 1;
        for (;;) {
            char part[16];
            size_t n = strcspn(p, "x");
            if (n == 0 || n >= sizeof part || m->ndims == NIC_MAX_DIMS)
                goto bad_dims;
            memcpy(part, p, n);
            part[n] = 0;
            long v;
            if ((rc = parse_pos(part, MACHINE_MAX_NODES, 0, &v)))
                goto bad_dims;
            m->dims[m->ndims++] = (int)v;
            prod *= v;
            if (prod > MACHINE_MAX_NODES)
                goto bad_dims;
            p += n;
            if (!*p)
                break;
            p++;
        }
        if (m->topo == TOPO_BANYAN) {
            snprintf(err, errlen, "DIMS does not apply to a %s; give NODES (a power of two)", topo_names[m->topo]);
            return -1;
        }
        if (m->topo == TOPO_HYPERCUBE)        /* its shape as runs name it: 2x2x2 is 8 nodes */
            for (int i = 0; i < m->ndims; i++)
                if (m->dims[i] != 2) {
                    snprintf(err, errlen, "a hypercube's DIMS are 2x2x...x2, one 2 per dimension (up to %d), "
                             "or give NODES (a power of two); not %s", NIC_MAX_DIMS, dims_s);
                    return -1;
                }
        if (m->topo == TOPO_FATTREE)
            for (int i = 0; i < m->ndims; i++)
                if (m->dims[i] != m->dims[0] || m->dims[0] < 2 || m->dims[0] > NIC_MAX_DIMS) {
                    /* a switch has 2k ports, and a router at most 2 NIC_MAX_DIMS */
                    snprintf(err, errlen, "a fat tree's DIMS are k x k x ... (a k-ary n-tree, k from 2 to %d: "
                             "4x4x4, 2x2x2x2 ...), not %s", NIC_MAX_DIMS, dims_s);
                    return -1;
                }
        if (m->topo == TOPO_DRAGONFLY && dragonfly_dims(m, dims_s, err, errlen))
            return -1;
        if (nodes && nodes != prod) {
            snprintf(err, errlen, "NODES=%ld does not match DIMS=%s (%ld nodes)", nodes, dims_s, prod);
            return -1;
        }
        nodes = prod;
    } else {
        if (!nodes)
            nodes = machine_default_nodes(m->topo);
        if (m->topo == TOPO_DRAGONFLY) {
            if (dragonfly_balanced(m, nodes, err, errlen))
                return -1;
        } else if (m->topo == TOPO_HYPERCUBE) {
            /* one dimension per address bit, and there are NIC_MAX_DIMS */
            if (nodes < 2 || (nodes & (nodes - 1)) || nodes > 1L << NIC_MAX_DIMS) {
                snprintf(err, errlen, "a hypercube needs NODES a power of two from 2 to %ld, not %ld",
                         1L << NIC_MAX_DIMS, nodes);
                return -1;
            }
            while ((1L << m->ndims) < nodes)
                m->dims[m->ndims++] = 2;
        } else if (m->topo == TOPO_FATTREE) {
            /* a k-ary n-tree of k^n nodes: 4-ary (the CM-5's) when nodes is
             * a power of 4, else binary */
            int k = 0;
            for (int kk = 4; kk >= 2 && !k; kk -= 2) {
                long x = 1;
                while (x < nodes)
                    x *= kk;
                if (x == nodes && nodes >= kk)
                    k = kk;
            }
            if (!k) {
                snprintf(err, errlen, "a fat tree needs NODES = k^n, a power of 4 (a 4-ary tree) or of 2 "
                         "(binary), from 2 to %d, or DIMS=kxkx.. for another k; not %ld", MACHINE_MAX_NODES, nodes);
                return -1;
            }
            for (long x = 1; x < nodes; x *= k)
                m->dims[m->ndims++] = k;
        } else if (m->topo == TOPO_BANYAN) {
            /* log2(nodes) stages of 2x2 switches */
            if (nodes < 2 || (nodes & (nodes - 1))) {
                snprintf(err, errlen, "a banyan needs NODES a power of two from 2 to %d "
                         "(2, 4, 8, 16, ...), not %ld", MACHINE_MAX_NODES, nodes);
                return -1;
            }
            m->ndims = 1;
            m->dims[0] = (int)nodes;
        } else {
            m->ndims = 2;
            default_2d((int)nodes, m->dims);
        }
    }
    for (int i = m->ndims; i < NIC_MAX_DIMS; i++)
        m->dims[i] = 1;
    m->nodes = (int)nodes;
    return 0;
bad_dims:
    snprintf(err, errlen, "DIMS='%s' is malformed; expected 1 to %d sizes joined by 'x' "
             "(for example 8x8 or 4x4x4), at most %d nodes%s", dims_s, NIC_MAX_DIMS, MACHINE_MAX_NODES,
             rc == NUMBER_OCTAL ? "; a size is decimal without a leading 0" : "");
    return -1;
}

void machine_dims_str(const struct topo_shape *m, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < m->ndims && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, i ? "x%d" : "%d", m->dims[i]);
}

int machine_log2(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

int machine_indirect(const struct topo_shape *m)
{
    return m->topo == TOPO_BANYAN || m->topo == TOPO_FATTREE || m->topo == TOPO_DRAGONFLY;
}

int machine_hops(const struct topo_shape *m, int a, int b)
{
    if (m->topo == TOPO_BANYAN)      /* processor, the stages, processor */
        return a == b ? 0 : machine_log2(m->nodes) + 1;
    if (m->topo == TOPO_DRAGONFLY) { /* node, router hops (local, global, local), node */
        int p = m->dims[0], A = m->dims[1], h = df_h(m), ra = a / p, rb = b / p;
        if (a == b)
            return 0;
        if (ra == rb)
            return 2;
        if (ra / A == rb / A)
            return 3;
        int k = df_link_to(m, ra / A, rb / A);
        return 3 + (k / h != ra % A) + (df_link_back(m, k) / h != rb % A);
    }
    if (m->topo == TOPO_FATTREE) {   /* up to the lowest common ancestor and down */
        int h = -1, k = m->dims[0];
        for (int i = 0; a != b; i++, a /= k, b /= k)
            if (a % k != b % k)
                h = i;
        return h < 0 ? 0 : 2 * h + 2;
    }
    int ca[NIC_MAX_DIMS], cb[NIC_MAX_DIMS], h = 0;
    topo_coords(m, a, ca);
    topo_coords(m, b, cb);
    for (int i = 0; i < m->ndims; i++) {
        int d = abs(ca[i] - cb[i]);
        if (m->topo == TOPO_TORUS && m->dims[i] - d < d)
            d = m->dims[i] - d;
        h += d;
    }
    return h;
}
