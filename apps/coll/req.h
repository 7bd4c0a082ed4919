/* The node's collective request: planned by req.c, run by run.c
 * (and run_worm.c), private to the library's node side. */
#ifndef COLL_REQ_H
#define COLL_REQ_H

#include "coll.h"

struct coll_req {
    const struct coll_algo *a;
    struct app_shape sh;
    struct coll_ctx cx;           /* the call (sh.cx points here); set in setbuf */
    int *setbuf;
    int me, p, steps;
    size_t len;                   /* bytes of one block */
    size_t total;                 /* the caller's bytes (bcast, mcast, reductions: the whole message) */
    int R, member;                /* blocks of the receive (work) buffer; this node is in the target */
    unsigned char *work;          /* a padded work buffer when total != R * len, else NULL */
    int padded;                   /* work stands for the caller's buffer (else only off the target) */
    struct coll_plan *plans;      /* [1..steps]; labels in pool */
    int *pool;
    int *fin;                     /* per label of pool: its block's index in recv if it ends here, else -1 */
    unsigned char *stage;         /* one message */
    /* the store: where each held block is, as a place number (below) */
    int cap;                      /* slots */
    unsigned char *data;          /* cap * len */
    int *free_slots, nfree;
    int *direct, nlabels;         /* label -> place, -1 = not held (small machines) */
    int mask, *key, *val;         /* else the hash map: key -1 = empty */
    int count;                    /* blocks held */
    int dirty;                    /* a run failed: the map must be cleared */
    const unsigned char *send;    /* the running call's buffers */
    unsigned char *recv;
};
/* Its size is part of every node's simulated time (calloc clears it in
 * coll_init): what only some algorithms need lives elsewhere (run_worm.c). */

/* Empty the label -> place map and free every slot of the store (run.c). */
void map_clear(struct coll_req *r);

#endif
