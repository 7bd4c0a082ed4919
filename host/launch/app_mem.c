/* The node memory of an app's buffers (app_mem.h): the same call the
 * node will plan (apps/coll/run.c: its algorithm, or what auto picks;
 * the rooted operations' root, set and segments), and the registry's
 * coll_mem_need for it. */
#include <string.h>
#include "app_mem.h"
#include "../../apps/coll/coll.h"

static const char *given_word(const char *key, void *u)
{
    return app_arg_word(u, key);
}

/* The algorithm a collective app runs with these ARGS (what auto picks for
 * an auto app), its parsed ARGS in aa and its shape in *shape (cx the
 * context it points to); NULL for another app or for refused ARGS. */
static const struct coll_algo *app_algo(const char *app, int restr, const struct app_shape *sh, const char *args,
                                        unsigned long msg_max, struct app_args *aa, struct coll_ctx *cx,
                                        struct app_shape *shape)
{
    char err[512];
    const struct coll_algo *a = coll_find_app(app);
    if (!a || app_check_args(app, restr, sh, args, msg_max, err, sizeof err))
        return NULL;
    if (app_args_parse(app, args, sh->nodes, msg_max, aa, err, sizeof err))
        return NULL;
    static int set[COLL_MAX_SET];
    *cx = (struct coll_ctx){ 0 };
    if (a->op != COLL_ALLTOALL && a->op != COLL_ALLGATHER &&
        coll_ctx_from_args(a->op, given_word, aa, sh->nodes, cx, set, err, sizeof err))
        return NULL;
    *shape = *sh;
    shape->cx = cx;
    if (!a->sends && !(a = coll_auto(a->op, shape, app_arg(aa, "len"), msg_max, err, sizeof err)))
        return NULL;
    cx->segs = a->segments ? a->segments(shape) : 1;
    return a;
}

unsigned long app_heap_need(const char *app, int restr, const struct app_shape *sh, const char *args,
                            unsigned long msg_max)
{
    struct app_args aa;
    struct coll_ctx cx;
    struct app_shape shape;
    const struct coll_algo *a = app_algo(app, restr, sh, args, msg_max, &aa, &cx, &shape);
    return a ? coll_mem_need(a, &shape, coll_block_len(a, &shape, app_arg(&aa, "len"))) : 0;
}

struct app_work app_work_need(const char *app, int restr, const struct app_shape *sh, const char *args,
                              unsigned long msg_max)
{
    struct app_work w = { 0, 0, 0 };
    struct app_args aa;
    struct coll_ctx cx;
    struct app_shape shape;
    char err[512];
    const struct coll_algo *a = app_algo(app, restr, sh, args, msg_max, &aa, &cx, &shape);
    if (a) {            /* runs= repeats; sync= adds a barrier a run, about as many messages again */
        double runs = (double)app_arg(&aa, "runs") * (app_arg(&aa, "sync") ? 2 : 1);
        w.msgs = (double)sh->nodes * a->nsteps(&shape) * runs;
        return w;
    }
    if (app_check_args(app, restr, sh, args, msg_max, err, sizeof err) ||
        app_args_parse(app, args, sh->nodes, msg_max, &aa, err, sizeof err))
        return w;
    double runs = (double)app_arg(&aa, "runs"), p = (double)sh->nodes, len = (double)app_arg(&aa, "len");
    if (!strcmp(app, "bcast_hw")) {    /* apps/hw_ctrl.c: every node, one operation per 8 bytes, a run */
        w.msgs = runs * p * ((len + 7) / 8);
    } else if (!strcmp(app, "allreduce_hw") || !strcmp(app, "scan_hw")) {   /* one per element, 4 bytes at least */
        w.msgs = runs * p * (len / 4);
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
