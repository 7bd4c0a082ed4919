/* A collective app's call from its words (coll.h: coll_ctx_from_args):
 * root, segments, reduction operator and type, multicast set. Pure C, the
 * same on the run tool (before any node starts) and on every node, so both
 * refuse the same words with the same message and every node plans the
 * same call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "coll.h"

/* A whole number from a word; -1 with a message if it is not one. */
static int word_long(const char *key, const char *w, long *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long v = strtol(w, &end, 0);
    if (errno || end == w || *end) {
        snprintf(err, errlen, "%s=%s is not a whole number", key, w);
        return -1;
    }
    *out = v;
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* A fixed generator (xorshift64*): the same set on every node and host. */
static unsigned long long next_rand(unsigned long long *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static int parse_set(const char *w, int p, int root, int *out, int *n, char *err, size_t errlen)
{
    *n = 0;
    if (!strcmp(w, "all")) {
        for (int v = 0; v < p; v++)
            if (v != root)
                out[(*n)++] = v;
        return 0;
    }
    for (const char *q = w; *q;) {
        char *end;
        errno = 0;
        long v = strtol(q, &end, 10);
        if (errno || end == q || (*end && (*end != ',' || !end[1]))) {   /* (a trailing comma: "1,") */
            snprintf(err, errlen, "set=%s: not a list of ranks such as set=1,5,9 (or set=all)", w);
            return -1;
        }
        if (v < 0 || v >= p) {
            snprintf(err, errlen, "set=%s: rank %ld is not a node (0..%d)", w, v, p - 1);
            return -1;
        }
        if (v == root) {
            snprintf(err, errlen, "set=%s: rank %ld is the root; the set lists the destinations only", w, v);
            return -1;
        }
        if (*n == COLL_MAX_SET) {
            snprintf(err, errlen, "set=%s: more than %d ranks", w, COLL_MAX_SET);
            return -1;
        }
        out[(*n)++] = (int)v;
        q = *end ? end + 1 : end;
    }
    if (*n == 0) {
        snprintf(err, errlen, "set= is empty: name at least one destination (set=1,5,9, set=all, or m= seed=)");
        return -1;
    }
    qsort(out, (size_t)*n, sizeof *out, cmp_int);
    for (int i = 1; i < *n; i++)
        if (out[i] == out[i - 1]) {
            snprintf(err, errlen, "set=%s: rank %d is named twice", w, out[i]);
            return -1;
        }
    return 0;
}

static int pick(const char *key, const char *w, const char *const *names, int n, int *out, char *err,
                size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(w, names[i])) {
            *out = i;
            return 0;
        }
    int o = snprintf(err, errlen, "%s=%s is not known; accepted:", key, w);
    for (int i = 0; i < n && o >= 0 && (size_t)o < errlen; i++)
        o += snprintf(err + o, errlen - (size_t)o, " %s", names[i]);
    return -1;
}

int coll_ctx_from_args(enum coll_op op, const char *(*arg)(const char *key, void *u), void *u, int p,
                       struct coll_ctx *cx, int *setbuf, char *err, size_t errlen)
{
    memset(cx, 0, sizeof *cx);
    const char *w;
    long v;
    /* Only the keys of op (COLL_ARGS in algos.def): a word another
     * operation takes is never looked at. */
    int rooted = op == COLL_BCAST || op == COLL_MCAST || op == COLL_SCATTER || op == COLL_GATHER ||
                 op == COLL_REDUCE;
    int segmented = op == COLL_BCAST || op == COLL_ALLREDUCE;
    int reducing = op == COLL_REDUCE || op == COLL_ALLREDUCE || op == COLL_SCAN;
    if (rooted && (w = arg("root", u))) {
        if (word_long("root", w, &v, err, errlen))
            return -1;
        if (v < 0 || v >= p) {
            snprintf(err, errlen, "root=%ld is not a node; accepted: root=0..%d", v, p - 1);
            return -1;
        }
        cx->root = (int)v;
    }
    if (segmented && (w = arg("segs", u))) {
        if (word_long("segs", w, &v, err, errlen))
            return -1;
        if (v < 1 || v > 65536) {
            snprintf(err, errlen, "segs=%ld is not a segment count; accepted: segs=1..65536", v);
            return -1;
        }
        cx->segs = (int)v;
    }
    int x;
    if (reducing && (w = arg("op", u))) {
        if (pick("op", w, coll_rop_names, COLL_NROPS, &x, err, errlen))
            return -1;
        cx->rop = (enum coll_rop)x;
    }
    if (reducing && (w = arg("type", u))) {
        if (pick("type", w, coll_dtype_names, COLL_NDTYPES, &x, err, errlen))
            return -1;
        cx->dtype = (enum coll_dtype)x;
    }
    if (cx->dtype == COLL_DOUBLE && cx->rop >= COLL_BAND) {
        snprintf(err, errlen, "op=%s takes integers only (type=int or long); type=double takes op=sum, max or min",
                 coll_rop_names[cx->rop]);
        return -1;
    }
    if (op != COLL_MCAST)
        return 0;
    cx->set = setbuf;
    if ((w = arg("set", u)))
        return parse_set(w, p, cx->root, setbuf, &cx->nset, err, errlen);
    long m = p - 1, seed = 1;
    if ((w = arg("m", u)) && word_long("m", w, &m, err, errlen))
        return -1;
    if ((w = arg("seed", u)) && word_long("seed", w, &seed, err, errlen))
        return -1;
    if (m < 1 || m > p - 1 || m > COLL_MAX_SET) {
        if (p < 2)
            snprintf(err, errlen, "a multicast needs at least two nodes, a root and a destination");
        else
            snprintf(err, errlen, "m=%ld is not a number of destinations; accepted: m=1..%d", m,
                     p - 1 < COLL_MAX_SET ? p - 1 : COLL_MAX_SET);
        return -1;
    }
    /* m distinct ranks other than the root: a partial Fisher-Yates over the
     * other p - 1 ranks, then ascending. */
    int *all = malloc((size_t)p * sizeof *all);
    if (!all) {
        snprintf(err, errlen, "out of memory for the multicast set");
        return -1;
    }
    int n = 0;
    for (int r = 0; r < p; r++)
        if (r != cx->root)
            all[n++] = r;
    unsigned long long st = 0x9e3779b97f4a7c15ull ^ (unsigned long long)seed * 0xbf58476d1ce4e5b9ull;
    if (!st)
        st = 1;
    for (int i = 0; i < m; i++) {
        int j = i + (int)(next_rand(&st) % (unsigned long long)(n - i));
        int t = all[i];
        all[i] = all[j];
        all[j] = t;
    }
    memcpy(setbuf, all, (size_t)m * sizeof *all);
    free(all);
    cx->nset = (int)m;
    qsort(setbuf, (size_t)m, sizeof *setbuf, cmp_int);
    return 0;
}

long coll_block_len(const struct coll_algo *a, const struct app_shape *sh, long len)
{
    int segs = sh->cx && sh->cx->segs > 0 ? sh->cx->segs : 1;
    switch (coll_ops[a->op].unit) {
    case COLL_U_NONE:
        return 0;
    case COLL_U_SEGMENT:
        return (len + segs - 1) / segs;
    case COLL_U_ELEMENTS: {
        long es = coll_dtype_size[sh->cx ? sh->cx->dtype : COLL_INT32], n = len / es;
        return (n + segs - 1) / segs * es;
    }
    default:
        return len;
    }
}
