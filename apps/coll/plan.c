/* Building a node's plan for one step from an algorithm's list of sends
 * (pure C, host and node). The receives are the senders' own lists,
 * filtered to the messages addressed to this node, so sender and receiver
 * always agree on every message's blocks and their order. */
#include "coll.h"

void coll_emit_msg(struct coll_emit *e, int to)
{
    struct coll_plan *pl = e->plan;
    e->cur = NULL;
    if (e->only_to >= 0 && to != e->only_to)
        return;
    int recv = e->recv_from >= 0;
    int *n = recv ? &pl->nrecv : &pl->nsend;
    if (*n == COLL_MAX_MSGS) {
        pl->overflow = 1;
        return;
    }
    e->cur = (recv ? pl->recv : pl->send) + (*n)++;
    *e->cur = (struct coll_msg){ recv ? e->recv_from : to, 0, pl->nlab, COLL_DEFAULT };
}

/* coll_plan_worms: where coll_emit_worm records the sender's lists. */
static struct coll_worms *capture;

void coll_emit_worm(struct coll_emit *e, int kind, const int *dst, int n)
{
    if (e->only_to >= 0) {                 /* a receiver's view: a copy if listed */
        int listed = 0;
        for (int i = 0; i < n; i++)
            listed |= dst[i] == e->only_to;
        coll_emit_msg(e, listed ? e->only_to : -1);
        return;
    }
    coll_emit_msg(e, n > 0 ? dst[0] : -1);
    if (!e->cur)
        return;
    e->cur->mode = COLL_WORM | kind;
    struct coll_worms *w = capture;
    if (!w)
        return;
    if (w->n == COLL_MAX_MSGS || w->used + n > w->cap) {
        w->overflow = 1;
        return;
    }
    w->kind[w->n] = kind;
    w->ndst[w->n] = n;
    w->off[w->n] = w->used;
    for (int i = 0; i < n; i++)
        w->dst[w->used++] = dst[i];
    w->n++;
}

int coll_plan_worms(const struct coll_algo *a, const struct app_shape *sh, int node, int step,
                    struct coll_plan *plan, struct coll_worms *w)
{
    w->n = w->used = w->overflow = 0;
    capture = w;
    int rc = coll_plan_step(a, sh, node, step, plan);
    capture = NULL;
    return rc || w->overflow ? -1 : 0;
}

void coll_emit_mode(struct coll_emit *e, enum coll_mode mode)
{
    if (e->cur)
        e->cur->mode = (int)mode;
}

void coll_emit_blk(struct coll_emit *e, int label)
{
    struct coll_plan *pl = e->plan;
    if (!e->cur)
        return;
    if (pl->nlab == pl->cap) {
        pl->overflow = 1;
        return;
    }
    pl->lab[pl->nlab++] = label;
    e->cur->nblk++;
}

/* Drop the messages without blocks (a barrier's token is a block of no
 * bytes, so its messages stay) and give each the operation's mode where
 * the algorithm named none. */
static int tidy(struct coll_msg *m, int n, enum coll_mode def)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (m[i].nblk > 0) {
            m[k] = m[i];
            if (m[k].mode == COLL_DEFAULT)
                m[k].mode = (int)def;
            k++;
        }
    return k;
}

int coll_plan_step(const struct coll_algo *a, const struct app_shape *sh, int me, int step,
                   struct coll_plan *pl)
{
    pl->nsend = pl->nrecv = pl->nlab = pl->overflow = 0;
    struct coll_emit e = { pl, -1, -1, NULL };
    a->sends(sh, me, step, &e);
    if (a->senders) {
        int from[COLL_MAX_MSGS];
        int n = a->senders(sh, me, step, from);
        for (int i = 0; i < n; i++) {
            struct coll_emit r = { pl, from[i], me, NULL };
            a->sends(sh, from[i], step, &r);
        }
    } else {
        for (int from = 0; from < sh->nodes; from++)     /* no senders(): ask everyone */
            if (from != me) {
                struct coll_emit r = { pl, from, me, NULL };
                a->sends(sh, from, step, &r);
            }
    }
    enum coll_mode def = coll_default_mode(a->op);
    pl->nsend = tidy(pl->send, pl->nsend, def);
    pl->nrecv = tidy(pl->recv, pl->nrecv, def);
    return pl->overflow ? -1 : 0;
}

/* One message of the blocks (s, d) with s = s_base | (any subset of
 * s_free) and d = d_base | (any subset of d_free), s then d ascending: the
 * block sets of the exchanges on power-of-two machines, where what a node
 * holds is fixed on some rank bits and free on others. */
void coll_emit_masked(struct coll_emit *e, int to, int p, int s_base, int s_free,
                      int d_base, int d_free)
{
    coll_emit_msg(e, to);
    if (!e->cur)
        return;
    for (int sub = 0;; sub = (sub - s_free) & s_free) {
        int s = s_base | sub;
        for (int x = 0;; x = (x - d_free) & d_free) {
            coll_emit_blk(e, coll_lab(s, d_base | x, p));
            if (x == d_free)
                break;
        }
        if (sub == s_free)
            break;
    }
}

/* One message of the blocks (s, d) of an N x N machine (rank = column +
 * N * row) with s in the rectangle of rows sr0..sr0+srows-1 and columns
 * sc0..sc0+scols-1, and d in the rows congruent to rho modulo m and the
 * columns dc0..dc0+dcols-1; s then d in rank order. */
void coll_emit_grid(struct coll_emit *e, int to, int n, int sr0, int srows, int sc0, int scols,
                    int rho, int m, int dc0, int dcols)
{
    coll_emit_msg(e, to);
    if (!e->cur)
        return;
    for (int si = sr0; si < sr0 + srows; si++)
        for (int sj = sc0; sj < sc0 + scols; sj++)
            for (int di = rho % m; di < n; di += m)
                for (int dj = dc0; dj < dc0 + dcols; dj++)
                    coll_emit_blk(e, coll_lab(sj + n * si, dj + n * di, n * n));
}
