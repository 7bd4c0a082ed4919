/* The library's table of algorithms, generated from algos.def (pure C). */
#include <string.h>
#include "coll.h"
#include "../untimed.h"

#define COLL_ALGO(op, name, restr, desc) extern const struct coll_algo coll_##op##_##name;
#define COLL_WORM_ALGO COLL_ALGO
#include "algos.def"
#include "worms.def"
#undef COLL_WORM_ALGO
#undef COLL_ALGO

const struct coll_algo *const coll_algos[] = {
#define COLL_ALGO(op, name, restr, desc) &coll_##op##_##name,
#define COLL_WORM_ALGO COLL_ALGO
#include "algos.def"
#include "worms.def"
#undef COLL_WORM_ALGO
#undef COLL_ALGO
    NULL,
};

/* One row per enum coll_op (coll.h). */
const struct coll_op_info coll_ops[COLL_NOPS] = {
    /*                name         mode            labels       unit             p  seg fixed */
    [COLL_ALLTOALL]  = { "alltoall",  COLL_MOVE,      COLL_N_P2,   COLL_U_BLOCK,    2, 0, 0 },
    [COLL_ALLGATHER] = { "allgather", COLL_COPY,      COLL_N_P,    COLL_U_BLOCK,    1, 0, 1 },
    [COLL_BCAST]     = { "bcast",     COLL_COPY,      COLL_N_SEGS, COLL_U_SEGMENT,  0, 2, 0 }, /* + a padded copy */
    [COLL_MCAST]     = { "mcast",     COLL_COPY,      COLL_N_SEGS, COLL_U_SEGMENT,  0, 2, 0 },
    [COLL_SCATTER]   = { "scatter",   COLL_MOVE,      COLL_N_P,    COLL_U_BLOCK,    1, 0, 1 },
    [COLL_GATHER]    = { "gather",    COLL_MOVE,      COLL_N_P,    COLL_U_BLOCK,    1, 0, 1 },
    [COLL_REDUCE]    = { "reduce",    COLL_COMBINE,   COLL_N_SEGS, COLL_U_ELEMENTS, 0, 3, 0 }, /* send, recv, padded work */
    [COLL_ALLREDUCE] = { "allreduce", COLL_COMBINE,   COLL_N_SEGS, COLL_U_ELEMENTS, 0, 3, 0 },
    [COLL_SCAN]      = { "scan",      COLL_SCAN_RULE, COLL_N_TWO,  COLL_U_ELEMENTS, 0, 0, 3 },
    [COLL_BARRIER]   = { "barrier",   COLL_COMBINE,   COLL_N_ONE,  COLL_U_NONE,     0, 0, 0 },
};
const char *const coll_rop_names[COLL_NROPS] = { "sum", "max", "min", "band", "bor", "bxor" };
const char *const coll_dtype_names[COLL_NDTYPES] = { "int", "long", "double" };
const int coll_dtype_size[COLL_NDTYPES] = { 4, 8, 8 };

/* The two lookups by name are untimed on the node (apps/untimed.h): their
 * cost depends on the name's place in the table. */
const struct coll_algo *coll_find_app(const char *app)
{
    const struct coll_algo *a = NULL;
    UNTIMED_BEGIN();
    for (int i = 0; coll_algos[i] && !a; i++)
        if (!strcmp(coll_algos[i]->app, app))
            a = coll_algos[i];
    UNTIMED_END();
    return a;
}

const struct coll_algo *coll_find(enum coll_op op, const char *name)
{
    const struct coll_algo *a = NULL;
    UNTIMED_BEGIN();
    for (int i = 0; coll_algos[i] && !a; i++)
        if (coll_algos[i]->op == op && !strcmp(coll_algos[i]->name, name))
            a = coll_algos[i];
    UNTIMED_END();
    return a;
}

/* A node's whole schedule: at most nsteps plans, each with at most one
 * send and one receive of max_msg_blocks labels for a complete exchange,
 * up to eight messages per step for the all-to-all broadcasts, and for
 * the other operations one message a port each way (all-port: two ports a
 * dimension). tests/unit/sched_sim.h checks the bound on every shape. */
long coll_plan_labels_bound(const struct coll_algo *a, const struct app_shape *sh)
{
    long per = a->op == COLL_ALLTOALL ? 1 : a->op == COLL_ALLGATHER ? 4 : sh->all_port ? 2 * sh->ndims : 1;
    if (per > COLL_MAX_MSGS)
        per = COLL_MAX_MSGS;
    return (long)a->nsteps(sh) * 2 * a->max_msg_blocks(sh) * per;
}

int coll_nlabels(enum coll_op op, int p, int segs)
{
    switch (coll_ops[op].labels) {
    case COLL_N_P2: return p * p;
    case COLL_N_P: return p;
    case COLL_N_SEGS: return segs;
    case COLL_N_TWO: return 2;
    default: return 1;
    }
}

/* Blocks of the caller's buffers and the library's work buffer: */
static unsigned long user_blocks(const struct coll_algo *a, const struct app_shape *sh)
{
    const struct coll_op_info *o = &coll_ops[a->op];
    unsigned long p = (unsigned long)sh->nodes, segs = sh->cx && sh->cx->segs > 0 ? (unsigned long)sh->cx->segs : 1;
    return o->per_p * p + o->per_seg * segs + o->fixed;
}

/* The caller's buffers and the library's work buffer (user_blocks); the
 * library's slots for blocks in transit and a staging buffer for one
 * message; the label map (open addressing, at most 4 x hold entries of
 * two ints), the free-slot list (hold ints), or the plain label table on
 * small machines, the step's scratch plan (4 x hold + 2 x msg ints) and
 * the whole schedule (run.c). len is the block length. */
unsigned long coll_mem_need(const struct coll_algo *a, const struct app_shape *sh, long len)
{
    unsigned long hold = (unsigned long)a->max_hold(sh), msg = (unsigned long)a->max_msg_blocks(sh);
    unsigned long sched = (unsigned long)coll_plan_labels_bound(a, sh) * 2 * sizeof(int) +
                          (unsigned long)(a->nsteps(sh) + 1) * sizeof(struct coll_plan);
    int segs = sh->cx && sh->cx->segs > 0 ? sh->cx->segs : 1;
    unsigned long labels = (unsigned long)coll_nlabels(a->op, sh->nodes, segs);
    unsigned long direct = labels <= COLL_DIRECT_MAP ? labels * sizeof(int) : 0;
    return (user_blocks(a, sh) + hold + msg) * (unsigned long)len + (13 * hold + 2 * msg) * sizeof(int) + direct +
           sched + 4096;
}

#ifndef WORMSIM_NODE
const char *coll_missing_hook(const struct coll_algo *a)
{
    if (!strcmp(a->name, "auto"))
        return NULL;
    if (!a->nsteps)
        return "nsteps";
    if (!a->sends)
        return "sends";
    if (!a->senders && (a->op == COLL_ALLTOALL || a->op == COLL_ALLGATHER))
        return "senders";
    if (!a->max_msg_blocks)
        return "max_msg_blocks";
    return a->max_hold ? NULL : "max_hold";
}
#endif
