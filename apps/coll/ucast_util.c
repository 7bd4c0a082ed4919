/* The chain algorithm and the dimension-ordered chains of U-cube, U-mesh
 * and U-torus (McKinley, Tsai and Robinson 1994, section 5; apps/coll/ucast.h). */
#include "ucast.h"

int ucast_clog2(long x)
{
    int k = 0;
    while ((1L << k) < x)
        k++;
    return k;
}

static int chain[COLL_MAX_SET + 1];

/* In-place heapsort of a[0..n) ascending (no libc on the node side needed). */
static void sift(int *a, int i, int n)
{
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            return;
        if (c + 1 < n && a[c + 1] > a[c])
            c++;
        if (a[i] >= a[c])
            return;
        int t = a[i];
        a[i] = a[c];
        a[c] = t;
        i = c;
    }
}

static void heapsort_int(int *a, int n)
{
    for (int i = n / 2 - 1; i >= 0; i--)
        sift(a, i, n);
    for (int end = n - 1; end > 0; end--) {
        int t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift(a, 0, end);
    }
}

int ucast_chain(const struct app_shape *sh, enum ucast_order o, const int **ch, int *src)
{
    const struct coll_ctx *cx = sh->cx;
    int s = cx->root, m = cx->nset, L = m + 1, k = 0;
    *ch = chain;
    switch (o) {
    case UCAST_CUBE:
        /* d_0 = s, then the destinations by d XOR s ascending: the
         * s-relative dimension-ordered chain (e-cube resolves bit 0 first,
         * so the highest bit is the most significant of the order). */
        for (int i = 0; i < m; i++)
            chain[i] = cx->set[i] ^ s;
        heapsort_int(chain, m);
        for (int i = m; i > 0; i--)
            chain[i] = chain[i - 1] ^ s;
        chain[0] = s;
        *src = 0;
        break;
    case UCAST_MESH:
        /* The set is ascending by rank, and rank order is dimension order
         * (dimension 0, routed first, varies fastest). */
        for (int i = 0; i < m; i++) {
            if (k == i && cx->set[i] > s)
                chain[k++] = s, *src = i;
            chain[k++] = cx->set[i];
        }
        if (k == m)
            chain[k++] = s, *src = m;
        break;
    case UCAST_RCHAIN:
        /* The dimension-ordered chain rotated so that the source is first:
         * the destinations above it, then those below it. */
        chain[k++] = s;
        for (int i = 0; i < m; i++)
            if (cx->set[i] > s)
                chain[k++] = cx->set[i];
        for (int i = 0; i < m; i++)
            if (cx->set[i] < s)
                chain[k++] = cx->set[i];
        *src = 0;
        break;
    }
    return L;
}

int ucast_step(int L, int src, int me, int step, int *peer)
{
    int lo = 0, hi = L - 1, h = src;
    for (int t = 1; lo < hi; t++) {
        int mid = lo + (hi - lo + 2) / 2, to = h < mid ? mid : mid - 1;
        if (t == step) {
            if (me == h) {
                *peer = to;
                return 1;
            }
            if (me == to) {
                *peer = h;
                return -1;
            }
            return 0;
        }
        /* Descend into me's half; its holder is h or the node h sent to. */
        int me_low = me < mid, h_low = h < mid;
        if (me_low != h_low)
            h = to;
        if (me_low)
            hi = mid - 1;
        else
            lo = mid;
    }
    return 0;
}

static int index_of(const int *ch, int L, int node)
{
    for (int i = 0; i < L; i++)
        if (ch[i] == node)
            return i;
    return -1;                     /* not in the multicast: never sends or receives */
}

int ucast_nsteps(const struct app_shape *sh) { return ucast_clog2((long)sh->cx->nset + 1); }

void ucast_sends(const struct app_shape *sh, enum ucast_order o, int node, int step, struct coll_emit *e)
{
    const int *ch;
    int src, L = ucast_chain(sh, o, &ch, &src), me = index_of(ch, L, node), peer;
    if (me >= 0 && ucast_step(L, src, me, step, &peer) > 0) {
        coll_emit_msg(e, ch[peer]);
        coll_emit_blk(e, 0);
    }
}

int ucast_senders(const struct app_shape *sh, enum ucast_order o, int node, int step, int from[COLL_MAX_MSGS])
{
    const int *ch;
    int src, L = ucast_chain(sh, o, &ch, &src), me = index_of(ch, L, node), peer;
    if (me >= 0 && ucast_step(L, src, me, step, &peer) < 0) {
        from[0] = ch[peer];
        return 1;
    }
    return 0;
}

long ucast_one(const struct app_shape *sh)
{
    (void)sh;
    return 1;
}
