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

unsigned long app_heap_need(const char *app, int restr, const struct app_shape *sh, const char *args,
                            unsigned long msg_max)
{
    char err[512];
    const struct coll_algo *a = coll_find_app(app);
    if (!a || app_check_args(app, restr, sh, args, msg_max, err, sizeof err))
        return 0;
    struct app_args aa;
    if (app_args_parse(app, args, sh->nodes, msg_max, &aa, err, sizeof err))
        return 0;
    long len = app_arg(&aa, "len");
    static int set[COLL_MAX_SET];
    struct coll_ctx cx = { 0 };
    if (a->op != COLL_ALLTOALL && a->op != COLL_ALLGATHER &&
        coll_ctx_from_args(a->op, given_word, &aa, sh->nodes, &cx, set, err, sizeof err))
        return 0;
    struct app_shape shape = *sh;
    shape.cx = &cx;
    if (!a->sends && !(a = coll_auto(a->op, &shape, len, msg_max, err, sizeof err)))
        return 0;
    cx.segs = a->segments ? a->segments(&shape) : 1;
    return coll_mem_need(a, &shape, coll_block_len(a, &shape, len));
}
