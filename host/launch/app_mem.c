/* What an app's ARGS ask of the host (app_mem.h). A collective app's:
 * the same call the node will plan (apps/coll/run.c: its algorithm, or
 * what auto picks; the rooted operations' root, set and segments), the
 * registry's coll_mem_need and its steps. Another app's: its keys. */
#include <string.h>
#include "app_mem.h"
#include "../../apps/coll/coll.h"

static const char *given_word(const char *key, void *u)
{
    return app_arg_word(u, key);
}

/* A collective app's buffers and messages, its ARGS parsed in aa. */
static struct app_need coll_need(const struct coll_algo *a, const struct app_shape *sh, struct app_args *aa,
                                 unsigned long msg_max)
{
    struct app_need w = { 0, 0, 0, 0 };
    char err[512];
    long len = app_arg(aa, "len");
    static int set[COLL_MAX_SET];
    struct coll_ctx cx = { 0 };
    if (a->op != COLL_ALLTOALL && a->op != COLL_ALLGATHER &&
        coll_ctx_from_args(a->op, given_word, aa, sh->nodes, &cx, set, err, sizeof err))
        return w;
    struct app_shape shape = *sh;
    shape.cx = &cx;
    if (!a->sends && !(a = coll_auto(a->op, &shape, len, msg_max, err, sizeof err)))
        return w;
    cx.segs = a->segments ? a->segments(&shape) : 1;
    w.heap = coll_mem_need(a, &shape, coll_block_len(a, &shape, len));
    /* runs= repeats; sync= adds a barrier a run, about as many messages again */
    double runs = (double)app_arg(aa, "runs") * (app_arg(aa, "sync") ? 2 : 1);
    w.msgs = (double)sh->nodes * a->nsteps(&shape) * runs;
    return w;
}

struct app_need app_need(const char *app, int restr, const struct app_shape *sh, const char *args,
                         unsigned long msg_max)
{
    struct app_need w = { 0, 0, 0, 0 };
    struct app_args aa;
    char err[512];
    if (app_check_args(app, restr, sh, args, msg_max, err, sizeof err) ||
        app_args_parse(app, args, sh->nodes, msg_max, &aa, err, sizeof err))
        return w;
    const struct coll_algo *a = coll_find_app(app);
    if (a)
        return coll_need(a, sh, &aa, msg_max);
    double runs = (double)app_arg(&aa, "runs"), p = (double)sh->nodes;
    long len = app_arg(&aa, "len");
    if (!strcmp(app, "bcast_hw")) {    /* apps/hw_ctrl.c: every node, one operation per 8 bytes, a run */
        w.msgs = runs * p * (double)((len + 7) / 8);
    } else if (!strcmp(app, "allreduce_hw") || !strcmp(app, "scan_hw")) {   /* one per element, 4 bytes at least */
        w.msgs = runs * p * (double)(len / 4);
    } else if (!strcmp(app, "barrier_hw")) {
        w.msgs = runs * p;
    } else if (!strcmp(app, "allgather_flood_nic")) {   /* every node's block to every node, a run */
        w.msgs = runs * p * p;
    } else if (!strcmp(app, "pingpong")) {     /* apps/pingpong.c: a message and its echo an iteration */
        w.msgs = 2.0 * (double)app_arg(&aa, "iters");
    } else if (!strcmp(app, "fetchinc")) {  /* apps/hw_fetchinc.c: a request and a reply, work= ns, an item */
        w.msgs = 2.0 * (double)app_arg(&aa, "items");
        w.spin_ns = (double)app_arg(&aa, "items") * (double)app_arg(&aa, "work");
        w.spin_gap_ns = (double)app_arg(&aa, "work");
    }
    return w;
}
