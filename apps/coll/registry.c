/* The library's table of algorithms, generated from algos.def (pure C). */
#include <string.h>
#include "coll.h"

#define COLL_ALGO(op, name, restr, desc) extern const struct coll_algo coll_##op##_##name;
#include "algos.def"
#undef COLL_ALGO

const struct coll_algo *const coll_algos[] = {
#define COLL_ALGO(op, name, restr, desc) &coll_##op##_##name,
#include "algos.def"
#undef COLL_ALGO
    NULL,
};

const struct coll_algo *coll_find_app(const char *app)
{
    for (int i = 0; coll_algos[i]; i++)
        if (!strcmp(coll_algos[i]->app, app))
            return coll_algos[i];
    return NULL;
}

const struct coll_algo *coll_find(enum coll_op op, const char *name)
{
    for (int i = 0; coll_algos[i]; i++)
        if (coll_algos[i]->op == op && !strcmp(coll_algos[i]->name, name))
            return coll_algos[i];
    return NULL;
}

/* Blocks held and a staging buffer for one message; the label map (open
 * addressing, at most 4 x hold entries of two ints), the free-slot list
 * (hold ints) and the plan's labels (4 x hold + 2 x msg ints): see run.c. */
unsigned long coll_mem_need(const struct coll_algo *a, const struct app_shape *sh, long len)
{
    unsigned long hold = (unsigned long)a->max_hold(sh), msg = (unsigned long)a->max_msg_blocks(sh);
    return (hold + msg) * (unsigned long)len + (13 * hold + 2 * msg) * sizeof(int) + 4096;
}
