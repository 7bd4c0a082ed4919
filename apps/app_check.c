/* app_check: is this app allowed on this machine, with this len=? One
 * function for the run tool (before any node starts) and for the node
 * (apps/coll/run.c), so both refuse the same runs with the same words.
 * Pure C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "restrict.h"
#include "coll/coll.h"

static const char *const topo_word[] = { "mesh", "torus", "hypercube" };

void app_shape_str(const struct app_shape *sh, char *buf, size_t len)
{
    size_t o = (size_t)snprintf(buf, len, "%s ", sh->topo >= 0 && sh->topo <= 2 ? topo_word[sh->topo] : "?");
    if (sh->topo == SHAPE_HYPERCUBE) {
        snprintf(buf + o, o < len ? len - o : 0, "of %d nodes", sh->nodes);
        return;
    }
    for (int i = 0; i < sh->ndims && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, i ? "x%d" : "%d", sh->dims[i]);
}

static int is2d_square(const struct app_shape *sh)
{
    return sh->ndims == 2 && sh->dims[0] == sh->dims[1];
}

/* 0 if sh satisfies restr; else the accepted machines in `need`. */
static int shape_ok(int restr, const struct app_shape *sh, const char **need)
{
    int n = sh->nodes, N = sh->dims[0];
    switch (restr) {
    case APP_ANY:
        return 0;
    case APP_POW2:
        *need = "a power-of-two node count";
        return is_pow2(n) ? 0 : -1;
    case APP_TWO:
        *need = "at least two nodes";
        return n >= 2 ? 0 : -1;
    case APP_HYPERCUBE:
        *need = "a hypercube (TOPO=hypercube NODES=2^n)";
        return sh->topo == SHAPE_HYPERCUBE ? 0 : -1;
    case APP_HYPERCUBE_OR_MESH2D_POW2:
        *need = "a hypercube, or a 2D mesh of 2^k nodes (TOPO=mesh DIMS=4x4, 8x4 ...)";
        return sh->topo == SHAPE_HYPERCUBE || (sh->topo == SHAPE_MESH && sh->ndims == 2 && is_pow2(n))
               ? 0 : -1;
    case APP_MESH2D_SQUARE_POW2:
        *need = "a 2D mesh of 2^d x 2^d nodes (TOPO=mesh DIMS=2x2, 4x4, 8x8 ...)";
        return sh->topo == SHAPE_MESH && is2d_square(sh) && is_pow2(N) && N >= 2 ? 0 : -1;
    case APP_TORUS2D_SQUARE_POW2_MIN4:
        *need = "a 2D N x N torus with N = 2^n >= 4 (TOPO=torus DIMS=4x4, 8x8 ...)";
        return sh->topo == SHAPE_TORUS && is2d_square(sh) && is_pow2(N) && N >= 4 ? 0 : -1;
    case APP_TORUS2D_SQUARE_POW2_MIN8:
        *need = "a 2D N x N torus with N = 2^n >= 8 (TOPO=torus DIMS=8x8, 16x16 ...)";
        return sh->topo == SHAPE_TORUS && is2d_square(sh) && is_pow2(N) && N >= 8 ? 0 : -1;
    case APP_ALLPORT_SQUARE2D_FLOOD:
        *need = "the all-port model (PORT_MODEL=all-port) on an n x n mesh, or on an n x n torus "
                "with n odd (DIMS=3x3, 5x5, 7x7 ...)";
        return sh->all_port && is2d_square(sh) && N >= 2 &&
               (sh->topo == SHAPE_MESH || (sh->topo == SHAPE_TORUS && N % 2 == 1)) ? 0 : -1;
    case APP_TORUS2D:
        *need = "a 2D torus (TOPO=torus DIMS=AxB)";
        return sh->topo == SHAPE_TORUS && sh->ndims == 2 ? 0 : -1;
    case APP_MESH_OR_TORUS:
        *need = "a mesh or a torus (TOPO=mesh or torus)";
        return sh->topo == SHAPE_MESH || sh->topo == SHAPE_TORUS ? 0 : -1;
    case APP_MESH:
        *need = "a mesh (TOPO=mesh)";
        return sh->topo == SHAPE_MESH ? 0 : -1;
    case APP_TORUS:
        *need = "a torus (TOPO=torus)";
        return sh->topo == SHAPE_TORUS ? 0 : -1;
    case APP_MESH2D:
        *need = "a 2D mesh (TOPO=mesh DIMS=AxB)";
        return sh->topo == SHAPE_MESH && sh->ndims == 2 ? 0 : -1;
    case APP_ALLPORT_HYPERCUBE:
        *need = "the all-port model (PORT_MODEL=all-port) on a hypercube (TOPO=hypercube NODES=2^n)";
        return sh->all_port && sh->topo == SHAPE_HYPERCUBE ? 0 : -1;
    case APP_ALLPORT_MESH2D_SQUARE_POW2:
        *need = "the all-port model (PORT_MODEL=all-port) on a 2D mesh of 2^k x 2^k nodes "
                "(TOPO=mesh DIMS=2x2, 4x4, 8x8 ...)";
        return sh->all_port && sh->topo == SHAPE_MESH && is2d_square(sh) && is_pow2(N) && N >= 2 ? 0 : -1;
    case APP_ALLPORT_TORUS2D_SQUARE:
        *need = "the all-port model (PORT_MODEL=all-port) on a 2D n x n torus (TOPO=torus DIMS=5x5, 7x7 ...)";
        return sh->all_port && sh->topo == SHAPE_TORUS && is2d_square(sh) && N >= 2 ? 0 : -1;
    case APP_ALLPORT_TORUS3D_CUBE:
        *need = "the all-port model (PORT_MODEL=all-port) on a 3D n x n x n torus (TOPO=torus DIMS=3x3x3 ...)";
        return sh->all_port && sh->topo == SHAPE_TORUS && sh->ndims == 3 && N >= 2 &&
               sh->dims[1] == N && sh->dims[2] == N ? 0 : -1;
    case APP_ALLPORT_TORUS_CUBE: {
        *need = "the all-port model (PORT_MODEL=all-port) on a torus with every side equal (TOPO=torus "
                "DIMS=5x5, 3x3x3, 3x3x3x3 ...)";
        int eq = sh->topo == SHAPE_TORUS && N >= 2;
        for (int i = 1; i < sh->ndims; i++)
            eq = eq && sh->dims[i] == N;
        return sh->all_port && eq ? 0 : -1;
    }
    }
    *need = "a known restriction (apps/restrict.h)";
    return -1;
}

int app_check(const char *app, int restr, const struct app_shape *sh, long len,
              unsigned long msg_max, char *err, size_t errlen)
{
    const char *need = "";
    char shape_s[96];
    app_shape_str(sh, shape_s, sizeof shape_s);
    if (shape_ok(restr, sh, &need)) {
        if (restr == APP_POW2)
            snprintf(err, errlen, "app %s needs a power-of-two node count, not %d", app, sh->nodes);
        else if (restr == APP_TWO)
            snprintf(err, errlen, "app %s needs at least two nodes", app);
        else
            snprintf(err, errlen, "app %s needs %s, not %s%s", app, need, shape_s,
                     !sh->all_port && strstr(need, "all-port") ? " (one-port)" : "");
        return -1;
    }
    const struct coll_algo *a = coll_find_app(app);
    if (!a)
        return 0;                                  /* not a collective: no len= */
    /* The rooted operations: the call (root, segments ...) as the library
     * will plan it, on a copy of the shape. */
    struct coll_ctx cx = { 0 };
    if (sh->cx)
        cx = *sh->cx;
    struct app_shape shape = *sh;
    shape.cx = &cx;
    sh = &shape;
    if (cx.root < 0 || cx.root >= sh->nodes) {
        snprintf(err, errlen, "app %s: root=%d is not a node; accepted: root=0..%d", app, cx.root, sh->nodes - 1);
        return -1;
    }
    if (a->op == COLL_MCAST && cx.nset < 1) {
        snprintf(err, errlen, "app %s: the multicast set is empty; name one (set=1,5,9, set=all, or m= seed=)", app);
        return -1;
    }
    int es = a->op == COLL_REDUCE || a->op == COLL_ALLREDUCE || a->op == COLL_SCAN ? coll_dtype_size[cx.dtype] : 1;
    if (a->op != COLL_BARRIER && (len < es || (unsigned long)len > (a->op == COLL_BCAST || a->op == COLL_MCAST ||
                                                                     es > 1 ? APP_NODE_HEAP_BYTES : msg_max))) {
        snprintf(err, errlen, "app %s: len=%ld is not a %s from %d to %lu bytes%s", app, len,
                 es > 1 ? "vector length" : a->op == COLL_BCAST || a->op == COLL_MCAST ? "message length"
                 : "block length", es, a->op == COLL_BCAST || a->op == COLL_MCAST || es > 1
                 ? APP_NODE_HEAP_BYTES : msg_max, es > 1 || a->op == COLL_BCAST || a->op == COLL_MCAST
                 ? " (node memory)" : " (the largest message, --msg-max)");
        return -1;
    }
    if (es > 1 && len % es) {
        snprintf(err, errlen, "app %s: len=%ld is not a whole number of %s elements (%d bytes each)", app, len,
                 coll_dtype_names[cx.dtype], es);
        return -1;
    }
    char why[128];
    if (!a->sends) {                               /* auto: check what it picks */
        a = coll_auto(a->op, sh, len, msg_max, why, sizeof why);
        if (!a) {
            snprintf(err, errlen, "app %s: no algorithm fits len=%ld on %s", app, len, shape_s);
            return -1;
        }
    }
    cx.segs = a->segments ? a->segments(sh) : 1;
    if (a->check && a->check(sh, why, sizeof why)) {
        snprintf(err, errlen, "app %s: %s", app, why);
        return -1;
    }
    long blk = coll_block_len(a, sh, len);
    unsigned long blocks = (unsigned long)a->max_msg_blocks(sh);
    if (blocks * (unsigned long)blk > msg_max) {
        unsigned long ok_blk = msg_max / blocks, ok_len = blk == len ? ok_blk : ok_blk * (unsigned long)cx.segs;
        snprintf(err, errlen, "app %s: len=%ld makes messages of %lu blocks%s = %lu bytes, more than the "
                 "largest message, %lu bytes (--msg-max); accepted: len=1..%lu", app, len, blocks,
                 blk == len ? "" : " of len/segs", blocks * (unsigned long)blk, msg_max, ok_len);
        return -1;
    }
    unsigned long need_b = coll_mem_need(a, sh, blk);
    if (need_b > APP_NODE_HEAP_BYTES) {
        unsigned long fixed = coll_mem_need(a, sh, 0), per = coll_mem_need(a, sh, 1) - fixed;
        unsigned long max_len = fixed < APP_NODE_HEAP_BYTES ? (APP_NODE_HEAP_BYTES - fixed) / per : 0;
        snprintf(err, errlen, "app %s: len=%ld needs %lu KiB of node memory (%ld blocks held at once), "
                 "more than the %lu KiB a node has; accepted: len=1..%lu", app, len, need_b >> 10,
                 a->max_hold(sh), (unsigned long)APP_NODE_HEAP_BYTES >> 10,
                 max_len * (unsigned long)(len / (blk ? blk : 1)));
        return -1;
    }
    return 0;
}

/* The value of key in "k=v k2=v2 ...": 1 and *out if present and a whole
 * number, 0 if absent, -1 (and a message) if malformed. */
static int arg_long(const char *args, const char *key, long *out, char *err, size_t errlen)
{
    size_t klen = strlen(key);
    for (const char *p = args; p && *p;) {
        while (*p == ' ')
            p++;
        size_t wlen = strcspn(p, " ");
        if (wlen > klen && !strncmp(p, key, klen) && p[klen] == '=') {
            char *end;
            errno = 0;
            long v = strtol(p + klen + 1, &end, 0);
            if (errno || end == p + klen + 1 || end != p + wlen) {
                snprintf(err, errlen, "%s=%.*s is not a whole number", key, (int)(wlen - klen - 1), p + klen + 1);
                return -1;
            }
            *out = v;
            return 1;
        }
        p += wlen;
    }
    return 0;
}

/* The words of "k=v k2=v2 ..." one at a time, for coll_ctx_from_args. */
struct words {
    const char *args;
    char buf[4][256];
    int next;
};

static const char *word_of(const char *key, void *u)
{
    struct words *w = u;
    size_t klen = strlen(key);
    for (const char *p = w->args; p && *p;) {
        while (*p == ' ')
            p++;
        size_t wlen = strcspn(p, " ");
        if (wlen > klen && !strncmp(p, key, klen) && p[klen] == '=') {
            char *b = w->buf[w->next++ % 4];
            snprintf(b, sizeof w->buf[0], "%.*s", (int)(wlen - klen - 1), p + klen + 1);
            return b;
        }
        p += wlen;
    }
    return NULL;
}

int app_check_args(const char *app, int restr, const struct app_shape *sh, const char *args,
                   unsigned long msg_max, char *err, size_t errlen)
{
    long len = 1024;
    const struct coll_algo *a = coll_find_app(app);
    char tmp[512];
    if (a && arg_long(args, "len", &len, err, errlen) < 0) {
        snprintf(tmp, sizeof tmp, "app %s: %s", app, err);
        snprintf(err, errlen, "%s", tmp);
        return -1;
    }
    if (!a || a->op == COLL_ALLTOALL || a->op == COLL_ALLGATHER)
        return app_check(app, restr, sh, len, msg_max, err, errlen);
    static int set[COLL_MAX_SET];
    struct coll_ctx cx;
    struct words w = { args, { { 0 } }, 0 };
    if (coll_ctx_from_args(a->op, word_of, &w, sh->nodes, &cx, set, tmp, sizeof tmp)) {
        snprintf(err, errlen, "app %s: %s", app, tmp);
        return -1;
    }
    struct app_shape shape = *sh;
    shape.cx = &cx;
    return app_check(app, restr, &shape, len, msg_max, err, errlen);
}
