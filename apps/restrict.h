/* Which machines an app runs on. The run tool (host/wormsim.c) checks an
 * app's restriction, and for the collective apps its len= argument, before
 * any node starts; the node checks them again with the same function, so
 * the two can never disagree. Pure C: no node or host headers.
 */
#ifndef APPS_RESTRICT_H
#define APPS_RESTRICT_H

#include <stddef.h>

enum app_restriction {
    APP_ANY = 0,
    APP_POW2 = 1,                    /* node count a power of two */
    APP_TWO = 2,                     /* at least two nodes */
    APP_HYPERCUBE,                   /* a hypercube */
    APP_HYPERCUBE_OR_MESH2D_POW2,    /* a hypercube, or a 2D mesh of 2^k nodes */
    APP_MESH2D_SQUARE_POW2,          /* a 2D mesh of 2^d x 2^d nodes, d >= 1 */
    APP_TORUS2D_SQUARE_POW2_MIN4,    /* a 2D N x N torus, N = 2^n >= 4 */
    APP_TORUS2D_SQUARE_POW2_MIN8,    /* a 2D N x N torus, N = 2^n >= 8 */
    APP_ALLPORT_SQUARE2D_FLOOD,      /* all-port; n x n mesh, or n x n torus with n odd */
    APP_TORUS2D,                     /* a 2D torus */
    APP_MESH_OR_TORUS,               /* a mesh or a torus, any number of dimensions */
    APP_MESH,                        /* a mesh, any number of dimensions */
    APP_TORUS,                       /* a torus, any number of dimensions */
    APP_MESH2D,                      /* a 2D mesh */
    APP_ALLPORT_HYPERCUBE,           /* all-port; a hypercube */
    APP_ALLPORT_MESH2D_SQUARE_POW2,  /* all-port; a 2D mesh of 2^k x 2^k nodes, k >= 1 */
    APP_ALLPORT_TORUS2D_SQUARE,      /* all-port; a 2D n x n torus, n >= 2 */
    APP_ALLPORT_TORUS3D_CUBE,        /* all-port; a 3D n x n x n torus, n >= 2 */
    APP_ALLPORT_TORUS_CUBE,          /* all-port; a k-D torus n x ... x n, k >= 1, n >= 2 */
};

/* The machine, as both the host and the node see it. topo takes the
 * values of enum nic_topo / enum net_topo_kind. */
enum { SHAPE_MESH = 0, SHAPE_TORUS = 1, SHAPE_HYPERCUBE = 2 };
#define SHAPE_MAX_DIMS 12

struct coll_ctx;                     /* apps/coll/coll.h */

struct app_shape {
    int topo;
    int ndims;
    int dims[SHAPE_MAX_DIMS];        /* dims[0] varies fastest in the rank; unused = 1 */
    int nodes;
    int all_port;                    /* 1 under the all-port model */
    /* The collective call a schedule is planned for: root, multicast set,
     * segments (apps/coll/coll.h). NULL outside the rooted collectives;
     * the complete exchanges and all-to-all broadcasts never read it. */
    const struct coll_ctx *cx;
};

/* Node memory an app may use for its buffers (the node has 32 MiB of RAM;
 * the kernel image, stacks and page table take well under 2 MiB). */
#define APP_NODE_HEAP_BYTES (30ul << 20)

/* 0 if app (with restriction restr) may run on sh with block length len
 * (len is used by the collective apps only) and messages of at most
 * msg_max bytes; else -1 and a message naming the accepted values in err. */
int app_check(const char *app, int restr, const struct app_shape *sh, long len,
              unsigned long msg_max, char *err, size_t errlen);

/* The same from the run tool's words: args is ARGS ("len=4096 ..."). */
int app_check_args(const char *app, int restr, const struct app_shape *sh, const char *args,
                   unsigned long msg_max, char *err, size_t errlen);

/* "mesh 4x5", "hypercube 16" ... */
void app_shape_str(const struct app_shape *sh, char *buf, size_t len);

#endif
