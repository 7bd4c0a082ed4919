/* app_check: is this app allowed on this machine, with these ARGS? One
 * function for the run tool (before any node starts) and for the node
 * (apps/coll/run.c; ARGS: app_args_parse at boot, netdev/nic.c), so both
 * refuse the same runs with the same words. Pure C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "restrict.h"
#include "mpi_app.h"
#include "../netdev/nic_mdw.h"
#include "number.h"
#include "untimed.h"
#include "coll/coll.h"

static const char *const topo_word[] = { TOPO_NAMES };
_Static_assert(sizeof topo_word / sizeof topo_word[0] == TOPO_COUNT, "a name for each topology");

void app_shape_str(const struct app_shape *sh, char *buf, size_t len)
{
    size_t o = (size_t)snprintf(buf, len, "%s ", sh->topo >= 0 && sh->topo < TOPO_COUNT ? topo_word[sh->topo] : "?");
    /* A banyan prints as its one dimension ("banyan 16") and a fat tree
     * as its digits ("fattree 4x4x4"), through the loop below: the test
     * here stays the single one it was, so the node's instruction count
     * before a collective, and with it every simulated time, is the same
     * on the other machines. */
    if (sh->topo == TOPO_HYPERCUBE) {
        snprintf(buf + o, o < len ? len - o : 0, "of %d nodes", sh->nodes);
        return;
    }
    for (int i = 0; i < sh->ndims && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, i ? "x%d" : "%d", sh->dims[i]);
}

static int is2d_square(const struct app_shape *sh)
{
    return sh->ndims == 2 && sh->dims[0] == sh->dims[1];
}

#ifndef WORMSIM_NODE
/* The refusals' fuller texts, on the host only. The node's copy of this
 * file keeps the texts it had (#ifdef WORMSIM_NODE above and below): its
 * checks run before every run's timed region, so any change to their code
 * moves the stored figures, and the host refuses every such value before a
 * node starts, so no node prints them. */
int app_check(const char *app, int restr, const struct app_shape *sh, long len, unsigned long msg_max,
              char *err, size_t errlen);

/* len outside what the operation could take at all: what this algorithm
 * takes on this machine, as the checks give it for the longest length the
 * operation could take, or else that range. */
static void len_refused(const char *app, int restr, const struct app_shape *sh, long len, int es, const char *ename,
                        unsigned long msg_max, const char *shape_s, char *err, size_t errlen)
{
    const struct coll_algo *a = coll_find_app(app);
    int whole = a->op == COLL_BCAST || a->op == COLL_MCAST;
    const char *what = es > 1 ? "vector length" : whole ? "message length" : "block length";
    unsigned long most = whole || es > 1 ? APP_NODE_HEAP_BYTES : msg_max;
    char tight[512];
    const char *acc;
    char elems[96] = "";                 /* a vector's: len is also a whole number of elements */
    if (es > 1)
        snprintf(elems, sizeof elems, ", a multiple of %d (%s elements)", es, ename);
    if (app_check(app, restr, sh, (long)most, msg_max, tight, sizeof tight) &&
        (acc = strstr(tight, "; accepted: len=")))
        snprintf(err, errlen, "app %s: len=%ld is not a %s it takes on %s%s%s", app, len, what, shape_s, acc, elems);
    else
        snprintf(err, errlen, "app %s: len=%ld is not a %s from %d to %lu bytes%s%s", app, len, what, es, most,
                 es > 1 || whole ? " (node memory)" : " (the largest message, --msg-max)", elems);
}

/* A word where a number goes: what the key takes. */
static void not_a_number(const struct app_key *k, const char *w, int rc, int p, char *err, size_t errlen);
#endif

/* 0 if sh satisfies restr; else the accepted machines in `need`. */
static int shape_ok(int restr, const struct app_shape *sh, const char **need)
{
    int n = sh->nodes, N = sh->dims[0];
    switch (restr) {
    case APP_ANY:
        return 0;
    case APP_POW2:
        *need = "a power-of-two node count";
        return is_pow2(n) ? 0 : -1;
    case APP_TWO:
        *need = "at least two nodes";
        return n >= 2 ? 0 : -1;
    case APP_HYPERCUBE:
        *need = "a hypercube (TOPO=hypercube NODES=2^n)";
        return sh->topo == TOPO_HYPERCUBE ? 0 : -1;
    case APP_HYPERCUBE_OR_MESH2D_POW2:
        *need = "a hypercube, or a 2D mesh of 2^k nodes (TOPO=mesh DIMS=4x4, 8x4 ...)";
        return sh->topo == TOPO_HYPERCUBE || (sh->topo == TOPO_MESH && sh->ndims == 2 && is_pow2(n))
               ? 0 : -1;
    case APP_MESH2D_SQUARE_POW2:
        *need = "a 2D mesh of 2^d x 2^d nodes (TOPO=mesh DIMS=2x2, 4x4, 8x8 ...)";
        return sh->topo == TOPO_MESH && is2d_square(sh) && is_pow2(N) && N >= 2 ? 0 : -1;
    case APP_TORUS2D_SQUARE_POW2_MIN4:
        *need = "a 2D N x N torus with N = 2^n >= 4 (TOPO=torus DIMS=4x4, 8x8 ...)";
        return sh->topo == TOPO_TORUS && is2d_square(sh) && is_pow2(N) && N >= 4 ? 0 : -1;
    case APP_TORUS2D_SQUARE_POW2_MIN8:
        *need = "a 2D N x N torus with N = 2^n >= 8 (TOPO=torus DIMS=8x8, 16x16 ...)";
        return sh->topo == TOPO_TORUS && is2d_square(sh) && is_pow2(N) && N >= 8 ? 0 : -1;
    case APP_ALLPORT_SQUARE2D_FLOOD:
        *need = "the all-port model (PORT_MODEL=all-port) on an n x n mesh, or on an n x n torus "
                "with n odd (DIMS=3x3, 5x5, 7x7 ...)";
        return sh->all_port && is2d_square(sh) && N >= 2 &&
               (sh->topo == TOPO_MESH || (sh->topo == TOPO_TORUS && N % 2 == 1)) ? 0 : -1;
    case APP_TORUS2D:
        *need = "a 2D torus (TOPO=torus DIMS=AxB)";
        return sh->topo == TOPO_TORUS && sh->ndims == 2 ? 0 : -1;
    case APP_MESH_OR_TORUS:
        *need = "a mesh or a torus (TOPO=mesh or torus)";
        return sh->topo == TOPO_MESH || sh->topo == TOPO_TORUS ? 0 : -1;
    case APP_MESH:
        *need = "a mesh (TOPO=mesh)";
        return sh->topo == TOPO_MESH ? 0 : -1;
    case APP_TORUS:
        *need = "a torus (TOPO=torus)";
        return sh->topo == TOPO_TORUS ? 0 : -1;
    case APP_MESH2D:
        *need = "a 2D mesh (TOPO=mesh DIMS=AxB)";
        return sh->topo == TOPO_MESH && sh->ndims == 2 ? 0 : -1;
    case APP_ALLPORT_HYPERCUBE:
        *need = "the all-port model (PORT_MODEL=all-port) on a hypercube (TOPO=hypercube NODES=2^n)";
        return sh->all_port && sh->topo == TOPO_HYPERCUBE ? 0 : -1;
    case APP_ALLPORT_MESH2D_SQUARE_POW2:
        *need = "the all-port model (PORT_MODEL=all-port) on a 2D mesh of 2^k x 2^k nodes "
                "(TOPO=mesh DIMS=2x2, 4x4, 8x8 ...)";
        return sh->all_port && sh->topo == TOPO_MESH && is2d_square(sh) && is_pow2(N) && N >= 2 ? 0 : -1;
    case APP_ALLPORT_TORUS2D_SQUARE:
        *need = "the all-port model (PORT_MODEL=all-port) on a 2D n x n torus (TOPO=torus DIMS=5x5, 7x7 ...)";
        return sh->all_port && sh->topo == TOPO_TORUS && is2d_square(sh) && N >= 2 ? 0 : -1;
    case APP_ALLPORT_TORUS3D_CUBE:
        *need = "the all-port model (PORT_MODEL=all-port) on a 3D n x n x n torus (TOPO=torus DIMS=3x3x3 ...)";
        return sh->all_port && sh->topo == TOPO_TORUS && sh->ndims == 3 && N >= 2 &&
               sh->dims[1] == N && sh->dims[2] == N ? 0 : -1;
    case APP_ALLPORT_TORUS_CUBE: {
        *need = "the all-port model (PORT_MODEL=all-port) on a torus with every side equal (TOPO=torus "
                "DIMS=5x5, 3x3x3, 3x3x3x3 ...)";
        int eq = sh->topo == TOPO_TORUS && N >= 2;
        for (int i = 1; i < sh->ndims; i++)
            eq = eq && sh->dims[i] == N;
        return sh->all_port && eq ? 0 : -1;
    }
    case APP_BANYAN:
        *need = "a banyan (TOPO=banyan NODES=2^m)";
        return sh->topo == TOPO_BANYAN ? 0 : -1;
    }
    *need = "a known restriction (apps/restrict.h)";
    return -1;
}

int app_check(const char *app, int restr, const struct app_shape *sh, long len,
              unsigned long msg_max, char *err, size_t errlen)
{
    const char *need = "";
    char shape_s[96];
    app_shape_str(sh, shape_s, sizeof shape_s);
    if (shape_ok(restr, sh, &need)) {
        if (restr == APP_POW2)
            snprintf(err, errlen, "app %s needs a power-of-two node count, not %d", app, sh->nodes);
        else if (restr == APP_TWO)
            snprintf(err, errlen, "app %s needs at least two nodes", app);
        else
            snprintf(err, errlen, "app %s needs %s, not %s%s", app, need, shape_s,
                     !sh->all_port && strstr(need, "all-port") ? " (one-port)" : "");
        return -1;
    }
    const struct coll_algo *a = coll_find_app(app);
    if (!a)
        return 0;                                  /* not a collective: no len= */
#ifndef WORMSIM_NODE
    const char *hook = coll_missing_hook(a);
    if (hook) {                                    /* a NULL hook would crash the checks below */
        snprintf(err, errlen, "app %s: its struct coll_algo (coll_%s, apps/coll/) gives no .%s; every algorithm "
                 "gives nsteps, sends, max_msg_blocks and max_hold, an all-to-all or all-gather senders too "
                 "(docs/collectives.md)", app, app, hook);
        return -1;
    }
#endif
    /* The rooted operations: the call (root, segments ...) as the library
     * will plan it, on a copy of the shape. */
    struct coll_ctx cx = { 0 };
    if (sh->cx)
        cx = *sh->cx;
    struct app_shape shape = *sh;
    shape.cx = &cx;
    sh = &shape;
    if (cx.root < 0 || cx.root >= sh->nodes) {
        snprintf(err, errlen, "app %s: root=%d is not a node; accepted: root=0..%d", app, cx.root, sh->nodes - 1);
        return -1;
    }
    if (a->op == COLL_MCAST && cx.nset < 1) {
        snprintf(err, errlen, "app %s: the multicast set is empty; name one (set=1,5,9, set=all, or m= seed=)", app);
        return -1;
    }
    int es = a->op == COLL_REDUCE || a->op == COLL_ALLREDUCE || a->op == COLL_SCAN ? coll_dtype_size[cx.dtype] : 1;
    if (a->op != COLL_BARRIER && (len < es || (unsigned long)len > (a->op == COLL_BCAST || a->op == COLL_MCAST ||
                                                                     es > 1 ? APP_NODE_HEAP_BYTES : msg_max))) {
#ifdef WORMSIM_NODE
        snprintf(err, errlen, "app %s: len=%ld is not a %s from %d to %lu bytes%s", app, len,
                 es > 1 ? "vector length" : a->op == COLL_BCAST || a->op == COLL_MCAST ? "message length"
                 : "block length", es, a->op == COLL_BCAST || a->op == COLL_MCAST || es > 1
                 ? APP_NODE_HEAP_BYTES : msg_max, es > 1 || a->op == COLL_BCAST || a->op == COLL_MCAST
                 ? " (node memory)" : " (the largest message, --msg-max)");
#else
        len_refused(app, restr, sh, len, es, coll_dtype_names[cx.dtype], msg_max, shape_s, err, errlen);
#endif
        return -1;
    }
    if (es > 1 && len % es) {
#ifdef WORMSIM_NODE
        snprintf(err, errlen, "app %s: len=%ld is not a whole number of %s elements (%d bytes each)", app, len,
                 coll_dtype_names[cx.dtype], es);
#else
        snprintf(err, errlen, "app %s: len=%ld is not a whole number of %s elements (%d bytes each); accepted: "
                 "a multiple of %d, such as len=%ld", app, len, coll_dtype_names[cx.dtype], es, es,
                 len > es ? len / es * es : (long)es);
#endif
        return -1;
    }
    char why[128];
    if (!a->sends) {                               /* auto: check what it picks */
        a = coll_auto(a->op, sh, len, msg_max, why, sizeof why);
        if (!a) {
            snprintf(err, errlen, "app %s: no algorithm fits len=%ld on %s", app, len, shape_s);
            return -1;
        }
    }
    cx.segs = a->segments ? a->segments(sh) : 1;
    if (a->check && a->check(sh, why, sizeof why)) {
        snprintf(err, errlen, "app %s: %s", app, why);
        return -1;
    }
    long blk = coll_block_len(a, sh, len);
    unsigned long blocks = (unsigned long)a->max_msg_blocks(sh);
    if (blocks * (unsigned long)blk > msg_max) {
        unsigned long ok_blk = msg_max / blocks, ok_len = blk == len ? ok_blk : ok_blk * (unsigned long)cx.segs;
#ifdef WORMSIM_NODE
        snprintf(err, errlen, "app %s: len=%ld makes messages of %lu blocks%s = %lu bytes, more than the "
                 "largest message, %lu bytes (--msg-max); accepted: len=1..%lu", app, len, blocks,
                 blk == len ? "" : " of len/segs", blocks * (unsigned long)blk, msg_max, ok_len);
#else
        snprintf(err, errlen, "app %s: len=%ld makes messages of %lu blocks%s = %lu bytes, more than the "
                 "largest message, %lu bytes (--msg-max); accepted: len=%d..%lu", app, len, blocks,
                 blk == len ? "" : " of len/segs", blocks * (unsigned long)blk, msg_max, es,
                 ok_len / (unsigned long)es * (unsigned long)es);
#endif
        return -1;
    }
    unsigned long need_b = coll_mem_need(a, sh, blk);
    if (need_b > APP_NODE_HEAP_BYTES) {
        unsigned long fixed = coll_mem_need(a, sh, 0), per = coll_mem_need(a, sh, 1) - fixed;
        unsigned long max_len = fixed < APP_NODE_HEAP_BYTES ? (APP_NODE_HEAP_BYTES - fixed) / per : 0;
#ifdef WORMSIM_NODE
        snprintf(err, errlen, "app %s: len=%ld needs %lu KiB of node memory (%ld blocks held at once), "
                 "more than the %lu KiB a node has; accepted: len=1..%lu", app, len, need_b >> 10,
                 a->max_hold(sh), (unsigned long)APP_NODE_HEAP_BYTES >> 10,
                 max_len * (unsigned long)(len / (blk ? blk : 1)));
#else
        snprintf(err, errlen, "app %s: len=%ld needs %lu KiB of node memory (%ld blocks held at once), "
                 "more than the %lu KiB a node has; accepted: len=%d..%lu", app, len, need_b >> 10,
                 a->max_hold(sh), (unsigned long)APP_NODE_HEAP_BYTES >> 10, es,
                 max_len * (unsigned long)(len / (blk ? blk : 1)) / (unsigned long)es * (unsigned long)es);
#endif
        return -1;
    }
    return 0;
}

/* --- ARGS (restrict.h) ------------------------------------------------------- */

/* The key lists of the registry: app_keys_<app>, coll_keys_<op>. */
#define APP(name, restr, desc)
#define COLL_ALGO(op, name, restr, desc)
#define APP_ARGS(name, keys) static const struct app_key app_keys_##name[] = { keys { 0 } };
#define COLL_ARGS(op, keys) static const struct app_key coll_keys_##op[] = { keys { 0 } };
#include "apps.def"
#undef APP
#undef COLL_ALGO
#undef APP_ARGS
#undef COLL_ARGS

/* Every app with its list, in the order of apps.def. An app without an
 * APP_ARGS line, or an operation without a COLL_ARGS line, does not
 * compile. */
static const struct { const char *app; const struct app_key *keys; } key_table[] = {
#define APP(name, restr, desc) { #name, app_keys_##name },
#define COLL_ALGO(op, name, restr, desc) { #op "_" #name, coll_keys_##op },
#include "apps.def"
#undef APP
#undef COLL_ALGO
};

const struct app_key *app_keys(const char *app)
{
    const struct app_key *keys = NULL;
    UNTIMED_BEGIN();
    for (size_t i = 0; i < sizeof key_table / sizeof key_table[0] && !keys; i++)
        if (!strcmp(key_table[i].app, app))
            keys = key_table[i].keys;
    UNTIMED_END();
    return keys;
}

/* A whole number of the ARGS syntax (number.h), within 32 bits: a
 * node's long on ARM. */
static int parse_num(const char *s, long *out)
{
    long long v;
    int rc = number_parse(s, 1, 2147483648ull, &v);
    if (rc)
        return rc;
    if (v > 2147483647LL)
        return NUMBER_BIG;
    *out = (long)v;
    return NUMBER_OK;
}

/* "len, sync, runs", or "none". */
static void key_names(const struct app_key *k, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; k[i].name && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, i ? ", %s" : "%s", k[i].name);
    if (!k[0].name)
        snprintf(buf, len, "none");
}

static long resolve(long v, int p) { return v == APP_KEY_LAST ? p - 1 : v; }

#ifndef WORMSIM_NODE
static void not_a_number(const struct app_key *k, const char *w, int rc, int p, char *err, size_t errlen)
{
    char acc[64];
    if (k->kind == APP_KIND_BYTES)
        snprintf(acc, sizeof acc, "a length in bytes, such as %s=1024", k->name);
    else if (k->kind == APP_KIND_INT)
        snprintf(acc, sizeof acc, "%s=%ld..%ld", k->name, k->lo, resolve(k->hi, p));
    else
        snprintf(acc, sizeof acc, "%s=0..%d", k->name, p - 1);
    snprintf(err, errlen, "%s=%s is not a whole number%s; accepted: %s", k->name, w,
             rc == NUMBER_OCTAL ? NUMBER_FORM : "", acc);
}
#endif

/* The value w of key k: its number or word index in *out; 0, or -1 and
 * the reason in err. */
static int key_value(const struct app_key *k, const char *w, int p, long *out, char *err, size_t errlen)
{
    int rc;
    switch (k->kind) {
    case APP_KIND_WORD: {
        for (int i = 0; i < k->nwords; i++)
            if (!strcmp(w, k->words[i])) {
                *out = i;
                return 0;
            }
        int o = snprintf(err, errlen, "%s=%s is not known; accepted:", k->name, w);
        for (int i = 0; i < k->nwords && o >= 0 && (size_t)o < errlen; i++)
            o += snprintf(err + o, errlen - (size_t)o, " %s", k->words[i]);
        return -1;
    }
    case APP_KIND_RANKS:
        *out = APP_KEY_NONE;
        return 0;
    default:
        break;
    }
#ifdef WORMSIM_NODE
    if ((rc = parse_num(w, out)) == NUMBER_BIG && k->kind == APP_KIND_BYTES) {
        snprintf(err, errlen, "%s=%s is not a length in bytes; accepted: up to 2147483647", k->name, w);
        return -1;
    }
    if (rc && rc != NUMBER_BIG) {
        snprintf(err, errlen, "%s=%s is not a whole number%s", k->name, w,
                 rc == NUMBER_OCTAL ? NUMBER_FORM : "");
        return -1;
    }
#else
    if ((rc = parse_num(w, out)) == NUMBER_BIG && k->kind == APP_KIND_BYTES) {
        snprintf(err, errlen, "%s=%s is more bytes than a message holds; accepted: a length up to the largest "
                 "message (--msg-max)", k->name, w);
        return -1;
    }
    if (rc && rc != NUMBER_BIG) {
        not_a_number(k, w, rc, p, err, errlen);
        return -1;
    }
#endif
    long lo = k->kind == APP_KIND_INT ? k->lo : 0, hi = k->kind == APP_KIND_INT ? resolve(k->hi, p) : p - 1;
    if (!rc && (k->kind == APP_KIND_BYTES || (*out >= lo && *out <= hi)))
        return 0;
    if (lo == hi)
        snprintf(err, errlen, "%s=%s is not %s; accepted: %s=%ld", k->name, w, k->what, k->name, lo);
    else if (lo > hi)
        snprintf(err, errlen, "%s=%s is not %s; no value fits %d node%s", k->name, w, k->what, p, p == 1 ? "" : "s");
    else
        snprintf(err, errlen, "%s=%s is not %s; accepted: %s=%ld..%ld", k->name, w, k->what, k->name, lo, hi);
    return -1;
}

/* The rules across an app's keys. */
static int app_rules(const char *app, const struct app_args *a, unsigned long msg_max, char *err, size_t errlen)
{
    const struct coll_algo *c = coll_find_app(app);
    if (!strcmp(app, "pingpong")) {
        long x = app_arg(a, "a"), y = app_arg(a, "b"), len = app_arg(a, "len");
        if (x == y) {
            snprintf(err, errlen, "a=%ld and b=%ld are the same node; accepted: two different nodes", x, y);
            return -1;
        }
        if (len < 1 || (unsigned long)len > msg_max) {
            snprintf(err, errlen, "len=%ld is not a message length from 1 to %lu bytes (the largest message, "
                     "--msg-max)", len, msg_max);
            return -1;
        }
    }
    if (c && c->op == COLL_MCAST && app_arg_word(a, "set") && (app_arg_word(a, "m") || app_arg_word(a, "seed"))) {
        snprintf(err, errlen, "set= and m= seed= both choose the multicast set; give one of them");
        return -1;
    }
    return 0;
}

int app_args_parse(const char *app, const char *args, int p, unsigned long msg_max, struct app_args *a,
                   char *err, size_t errlen)
{
    char names[256];
    memset(a, 0, sizeof *a);
    a->keys = app_keys(app);
    if (!a->keys) {
        snprintf(err, errlen, "unknown app '%s'", app);
        return -1;
    }
    while (a->keys[a->nkeys].name)
        a->nkeys++;
    if (a->nkeys > APP_MAX_KEYS) {
        snprintf(err, errlen, "declares %d keys, more than %d (APP_MAX_KEYS)", a->nkeys, APP_MAX_KEYS);
        return -1;
    }
    if (strlen(args) > APP_ARGS_MAX) {
        snprintf(err, errlen, "ARGS is longer than %d characters", APP_ARGS_MAX);
        return -1;
    }
    memcpy(a->buf, args, strlen(args) + 1);
    if (a->nkeys == 1 && a->keys[0].kind == APP_KIND_ARGV) {
        a->word[0] = a->buf;           /* argv: any words, the program reads them */
        a->val[0] = APP_KEY_NONE;
        return 0;
    }
    key_names(a->keys, names, sizeof names);
    for (char *w = a->buf; *w;) {
        if (*w == ' ') {
            w++;
            continue;
        }
        size_t wlen = strcspn(w, " ");
        char *next = w[wlen] ? w + wlen + 1 : w + wlen;
        w[wlen] = 0;
        char *eq = strchr(w, '=');
        if (!eq || eq == w) {
            snprintf(err, errlen, "'%s' is not a key=value word; accepted keys: %s", w, names);
            return -1;
        }
        *eq = 0;
        int i = app_arg_index(a, w);
        if (i < 0) {
            snprintf(err, errlen, "unknown key '%s'; accepted keys: %s", w, names);
            return -1;
        }
        if (a->word[i]) {
            snprintf(err, errlen, "%s is given twice (%s=%s and %s=%s); give it once", w, w, a->word[i], w, eq + 1);
            return -1;
        }
        a->word[i] = eq + 1;
        if (key_value(&a->keys[i], a->word[i], p, &a->val[i], err, errlen))
            return -1;
        w = next;
    }
    for (int i = 0; i < a->nkeys; i++)
        if (!a->word[i])
            a->val[i] = a->keys[i].kind == APP_KIND_WORD ? 0 : resolve(a->keys[i].dflt, p);
    return app_rules(app, a, msg_max, err, errlen);
}

int app_arg_index(const struct app_args *a, const char *key)
{
    int found = -1;
    UNTIMED_BEGIN();
    for (int i = 0; i < a->nkeys && found < 0; i++)
        if (!strcmp(a->keys[i].name, key))
            found = i;
    UNTIMED_END();
    return found;
}

long app_arg(const struct app_args *a, const char *key)
{
    int i = app_arg_index(a, key);
    return i < 0 ? 0 : a->val[i];
}

const char *app_arg_word(const struct app_args *a, const char *key)
{
    int i = app_arg_index(a, key);
    return i < 0 ? NULL : a->word[i];
}

void app_keys_str(const char *app, char *buf, size_t len)
{
    const struct app_key *k = app_keys(app);
    size_t o = 0;
    buf[0] = 0;
    if (k && k[0].name && k[0].kind == APP_KIND_ARGV) {
        snprintf(buf, len, "any words: the program's argv");
        return;
    }
    for (int i = 0; k && k[i].name && o < len; i++) {
        const struct app_key *x = &k[i];
        o += (size_t)snprintf(buf + o, len - o, "%s%s=", i ? ", " : "", x->name);
        for (int j = 0; x->kind == APP_KIND_WORD && j < x->nwords && o < len; j++)
            o += (size_t)snprintf(buf + o, len - o, j ? "|%s" : "%s", x->words[j]);
        if (o >= len)
            break;
        if (x->kind == APP_KIND_INT && x->lo == x->hi)
            o += (size_t)snprintf(buf + o, len - o, "%ld", x->lo);
        else if (x->kind == APP_KIND_INT && x->hi == APP_KEY_LAST)
            o += (size_t)snprintf(buf + o, len - o, "%ld..p-1", x->lo);
        else if (x->kind == APP_KIND_INT)
            o += (size_t)snprintf(buf + o, len - o, "%ld..%ld", x->lo, x->hi);
        else if (x->kind != APP_KIND_WORD)
            o += (size_t)snprintf(buf + o, len - o, "%s", x->kind == APP_KIND_RANK ? "<node>"
                                  : x->kind == APP_KIND_BYTES ? "<bytes>" : "<ranks>|all");
        if (o >= len)
            break;
        if (x->kind == APP_KIND_WORD && x->nwords > 1)
            o += (size_t)snprintf(buf + o, len - o, " [%s]", x->words[0]);
        else if (x->dflt == APP_KEY_LAST)
            o += (size_t)snprintf(buf + o, len - o, " [p-1]");
        else if (x->kind != APP_KIND_WORD && x->dflt != APP_KEY_NONE && !(x->kind == APP_KIND_INT && x->lo == x->hi))
            o += (size_t)snprintf(buf + o, len - o, " [%ld]", x->dflt);
    }
}

/* A given word, in the form coll_ctx_from_args reads them. */
static const char *given_word(const char *key, void *u)
{
    return app_arg_word(u, key);
}

/* --- The apps' own checks (APP_CHECK in apps.def) -------------------------- */

typedef int (*app_check_fn)(const char *app, const struct app_args *a, const struct app_shape *sh,
                            unsigned long msg_max, char *err, size_t errlen);

/* The control network's reductions (apps/hw_ctrl.c) take whole elements of
 * type= int or long; the node checks it again. */
static int app_check_elements(const char *app, const struct app_args *a, const struct app_shape *sh,
                              unsigned long msg_max, char *err, size_t errlen)
{
    long len = app_arg(a, "len"), es = app_arg(a, "type") ? 8 : 4;
    (void)sh;
    (void)msg_max;
    if (len % es == 0)
        return 0;
    snprintf(err, errlen, "app %s: len=%ld is not a whole number of %s elements (%ld bytes each); accepted: "
             "a multiple of %ld, such as len=%ld", app, len, es == 8 ? "long" : "int", es, es,
             len > es ? len / es * es : es);
    return -1;
}

/* A NIC flood delivers every node's block into one receive area. */
static int app_check_flood_room(const char *app, const struct app_args *a, const struct app_shape *sh,
                                unsigned long msg_max, char *err, size_t errlen)
{
    long len = app_arg(a, "len");
    if ((unsigned long)len * (unsigned long)sh->nodes <= msg_max)
        return 0;
    snprintf(err, errlen, "app %s: len=%ld from each of %d nodes is %lu bytes, more than the largest message, "
             "%lu bytes (--msg-max); accepted: len=1..%lu", app, len, sh->nodes,
             (unsigned long)len * (unsigned long)sh->nodes, msg_max, msg_max / (unsigned long)sh->nodes);
    return -1;
}

/* A worm's list word ("1,3,5"), as the routers would take it
 * (netdev/nic_mdw.h, the router's own check). */
static int worm_list(const char *app, const char *key, int kind, int src, const char *w, const struct app_shape *sh,
                     char *err, size_t errlen)
{
    static int dst[COLL_MAX_SET];
    int n = 0;
    char tmp[256];
    const char *list = w && !strcmp(w, "all") ? NULL : w;
    for (int v = 0; !list && v < sh->nodes && n < COLL_MAX_SET; v++)
        if (v != src)
            dst[n++] = v;                       /* absent or all: every other node, in rank order (apps/mdw.c) */
    for (const char *q = list; q && *q;) {
        char *end;
        long v = strtol(q, &end, 10);
        if (end == q || (*end && (*end != ',' || !end[1])) || n == COLL_MAX_SET) {   /* (and "1,") */
            snprintf(err, errlen, "app %s: %s=%s is not a list of ranks such as %s=1,3", app, key, w, key);
            return -1;
        }
        dst[n++] = (int)v;
        q = *end ? end + 1 : end;
    }
    if (nic_mdw_check(kind, sh->topo, sh->ndims, sh->dims, sh->nodes, src, dst, n, tmp, sizeof tmp)) {
        snprintf(err, errlen, "app %s: %s=%s: %s", app, key, w ? w : "(every other node)", tmp);
        return -1;
    }
    return 0;
}

static int app_check_worm_lists(const char *app, const struct app_args *a, const struct app_shape *sh,
                                 unsigned long msg_max, char *err, size_t errlen)
{
    int kind = NIC_MDW_PATH + (int)app_arg(a, "kind");
    (void)msg_max;
    if (worm_list(app, "dst", kind, (int)app_arg(a, "src"), app_arg_word(a, "dst"), sh, err, errlen))
        return -1;
    if (app_arg(a, "src2") == APP_KEY_NONE) {
        if (!app_arg_word(a, "dst2"))
            return 0;
        snprintf(err, errlen, "app %s: dst2= without src2=: name the second worm's source", app);
        return -1;
    }
    return worm_list(app, "dst2", kind, (int)app_arg(a, "src2"), app_arg_word(a, "dst2"), sh, err, errlen);
}

/* An MPI program's ARGS: the MPI library's settings among its words
 * (apps/mpi_settings.c; the node's library reads them with the same). */
static int app_check_mpi_settings(const char *app, const struct app_args *a, const struct app_shape *sh,
                                  unsigned long msg_max, char *err, size_t errlen)
{
    char values[1][MPI_SETTING_MAX], why[400];
    (void)sh;
    (void)msg_max;
    if (!mpi_settings(app_arg_word(a, "argv"), values, 0, why, sizeof why))
        return 0;
    snprintf(err, errlen, "app %s: %s", app, why);
    return -1;
}

static const struct { const char *app; app_check_fn fn; } app_checks[] = {
#define APP(name, restr, desc)
#define COLL_ALGO(op, name, restr, desc)
#define APP_CHECK(name, fn) { #name, fn },
#include "apps.def"
#undef APP
#undef COLL_ALGO
#undef APP_CHECK
};

/* A length key (APP_KIND_BYTES) given to an app whose own checks do not
 * bound it (not a collective, whose len app_check bounds) fits one
 * message: 0..msg_max bytes, the bound restrict.h promises. Host-only: the
 * nodes never call app_check_args. */
static int lengths_fit(const char *app, const struct app_args *a, unsigned long msg_max, char *err, size_t errlen)
{
    for (int i = 0; i < a->nkeys; i++) {
        const struct app_key *k = &a->keys[i];
        if (k->kind != APP_KIND_BYTES || !a->word[i] || (a->val[i] >= 0 && (unsigned long)a->val[i] <= msg_max))
            continue;
        snprintf(err, errlen, "app %s: %s=%s is not a length from 0 to %lu bytes (the largest message, --msg-max)",
                 app, k->name, a->word[i], msg_max);
        return -1;
    }
    return 0;
}

int app_check_args(const char *app, int restr, const struct app_shape *sh, const char *args,
                   unsigned long msg_max, char *err, size_t errlen)
{
    const char *need;
    if (shape_ok(restr, sh, &need))
        return app_check(app, restr, sh, 0, msg_max, err, errlen);
    struct app_args a;
    char tmp[512];
    if (app_args_parse(app, args, sh->nodes, msg_max, &a, tmp, sizeof tmp)) {
        snprintf(err, errlen, "app %s: %s", app, tmp);
        return -1;
    }
    const struct coll_algo *c = coll_find_app(app);
    long len = app_arg(&a, "len");
    for (size_t i = 0; i < sizeof app_checks / sizeof app_checks[0]; i++)
        if (!strcmp(app, app_checks[i].app) && app_checks[i].fn(app, &a, sh, msg_max, err, errlen))
            return -1;
    if (!c && lengths_fit(app, &a, msg_max, err, errlen))
        return -1;
    if (!c || c->op == COLL_ALLTOALL || c->op == COLL_ALLGATHER)
        return app_check(app, restr, sh, len, msg_max, err, errlen);
    if (c->sends && !c->segments && app_arg_word(&a, "segs")) {   /* it would be ignored */
        int o = snprintf(err, errlen, "app %s sends its message whole, without segs=; accepted: segs= with", app);
        for (int i = 0; coll_algos[i] && o > 0 && (size_t)o < errlen; i++)
            if (coll_algos[i]->segments && coll_algos[i]->op == c->op)
                o += snprintf(err + o, errlen - (size_t)o, " %s", coll_algos[i]->app);
        return -1;
    }
    static int set[COLL_MAX_SET];
    struct coll_ctx cx;
    if (coll_ctx_from_args(c->op, given_word, &a, sh->nodes, &cx, set, tmp, sizeof tmp)) {
        snprintf(err, errlen, "app %s: %s", app, tmp);
        return -1;
    }
    struct app_shape shape = *sh;
    shape.cx = &cx;
    return app_check(app, restr, &shape, len, msg_max, err, errlen);
}
