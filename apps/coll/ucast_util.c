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

/* Dimension order: addresses compared on dimension 0 first (the dimension
 * routed first is the most significant), then 1, ...: the key of a node
 * is its coordinates read with c_0 as the leading digit. On a hypercube
 * this is the bit-reversed address. */
static int key_of(const struct app_shape *sh, int node)
{
    int c[SHAPE_MAX_DIMS], k = 0;
    shape_coords(sh, node, c);
    for (int i = 0; i < sh->ndims; i++)
        k = k * sh->dims[i] + c[i];
    return k;
}

static int node_of(const struct app_shape *sh, int key)
{
    int c[SHAPE_MAX_DIMS] = { 0 };
    for (int i = sh->ndims - 1; i >= 0; i--) {
        c[i] = key % sh->dims[i];
        key /= sh->dims[i];
    }
    return shape_rank(sh, c);
}

static void reverse(int *a, int n)
{
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Rotate a[0..n) left by k (three reversals). */
static void rotate(int *a, int n, int k)
{
    reverse(a, k);
    reverse(a + k, n - k);
    reverse(a, n);
}

int ucast_chain(const struct app_shape *sh, enum ucast_order o, const int **ch, int *src)
{
    const struct coll_ctx *cx = sh->cx;
    int s = cx->root, m = cx->nset, L = m + 1;
    int x = o == UCAST_CUBE ? s : 0;             /* U-cube: addresses relative to the source */
    *ch = chain;
    for (int i = 0; i < m; i++)
        chain[i] = key_of(sh, cx->set[i] ^ x);
    chain[m] = key_of(sh, s ^ x);
    heapsort_int(chain, L);
    int at = 0;
    for (int i = 0; i < L; i++) {
        chain[i] = node_of(sh, chain[i]) ^ x;
        if (chain[i] == s)
            at = i;
    }
    if (o == UCAST_MESH) {
        *src = at;                                /* the source where it falls */
        return L;
    }
    /* U-cube: the source's relative address 0 is first already. R-chain:
     * rotate the chain so that the source is first. */
    rotate(chain, L, at);
    *src = 0;
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

/* Without a call (a check of the machine alone) the worst case: everyone. */
int ucast_nsteps(const struct app_shape *sh)
{
    return ucast_clog2(sh->cx ? (long)sh->cx->nset + 1 : (long)sh->nodes);
}

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
