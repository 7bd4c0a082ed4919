/* A run's messages on the network alone: reading messages.csv, handing
 * its messages to a network, and comparing their times (msg_replay.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "msg_replay.h"

enum { C_SRC, C_DST, C_LEN, C_POST, C_INJECT, C_HEAD, C_ARRIVE, NCOLS };
static const char *const col_names[NCOLS] = { "src", "dst", "len", "t_post_ns", "t_inject_ns", "t_head_ns",
                                              "t_arrive_ns" };
#define MAX_FIELDS 64

/* Split line (its newline dropped) at commas, in place; the field count,
 * or MAX_FIELDS + 1 if there are more. */
static int split(char *line, char **field)
{
    line[strcspn(line, "\r\n")] = 0;
    int k = 0;
    for (char *s = line;; s++) {
        if (k == MAX_FIELDS)
            return MAX_FIELDS + 1;
        field[k++] = s;
        s += strcspn(s, ",");
        if (!*s)
            return k;
        *s = 0;
    }
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *e;
    errno = 0;
    unsigned long long x = strtoull(s, &e, 10);
    if (errno || e == s || *e || *s < '0' || *s > '9')
        return -1;
    *v = x;
    return 0;
}

/* Where each needed column is in the header; -1 with the missing one named. */
static int find_columns(char *header, int *at, int *nfields, const char *name, char *err, size_t errlen)
{
    char *field[MAX_FIELDS];
    int nf = split(header, field);
    if (nf > MAX_FIELDS) {
        snprintf(err, errlen, "%s: its header has more than %d columns; a messages.csv of a run has 15", name,
                 MAX_FIELDS);
        return -1;
    }
    for (int c = 0; c < NCOLS; c++) {
        at[c] = -1;
        for (int i = 0; i < nf; i++)
            if (!strcmp(field[i], col_names[c]))
                at[c] = i;
        if (at[c] < 0) {
            snprintf(err, errlen, "%s: no column '%s' in its header (a run's messages.csv has src, dst, len, "
                     "t_post_ns, t_inject_ns, t_head_ns and t_arrive_ns)", name, col_names[c]);
            return -1;
        }
    }
    *nfields = nf;
    return 0;
}

/* One line's message; -1 with the line and the field named. */
static int read_message(char *line, size_t lineno, const int *at, int nfields, int nodes, uint64_t t_send_ns,
                        struct replay_msg *m, const char *name, char *err, size_t errlen)
{
    char *field[MAX_FIELDS];
    int nf = split(line, field);
    if (nf != nfields) {
        snprintf(err, errlen, "%s line %zu: %d fields where the header has %d", name, lineno,
                 nf > MAX_FIELDS ? MAX_FIELDS + 1 : nf, nfields);
        return -1;
    }
    uint64_t v[NCOLS];
    for (int c = 0; c < NCOLS; c++)
        if (parse_u64(field[at[c]], &v[c])) {
            snprintf(err, errlen, "%s line %zu: %s '%s' is not a whole number of 0 or more", name, lineno,
                     col_names[c], field[at[c]]);
            return -1;
        }
    for (int c = C_SRC; c <= C_DST; c++)
        if (v[c] >= (uint64_t)nodes) {
            snprintf(err, errlen, "%s line %zu: %s %llu is not a node of this machine (0 to %d)", name, lineno,
                     col_names[c], (unsigned long long)v[c], nodes - 1);
            return -1;
        }
    if (v[C_SRC] == v[C_DST] || v[C_LEN] > UINT32_MAX || v[C_POST] > UINT64_MAX - t_send_ns ||
        v[C_INJECT] < v[C_POST] || v[C_HEAD] < v[C_INJECT] || v[C_ARRIVE] < v[C_HEAD]) {
        snprintf(err, errlen, "%s line %zu: not a message of a run (one from a node to another, of at most "
                 "%u bytes, posted, then in, at its destination and arrived in that order)", name, lineno,
                 UINT32_MAX);
        return -1;
    }
    memset(m, 0, sizeof *m);
    m->nm.src = (int)v[C_SRC];
    m->nm.dst = (int)v[C_DST];
    m->nm.len = (uint32_t)v[C_LEN];
    m->nm.t_ready_ns = v[C_POST] + t_send_ns;
    m->t_post_ns = v[C_POST];
    m->t_inject_ns = v[C_INJECT];
    m->t_head_ns = v[C_HEAD];
    m->t_arrive_ns = v[C_ARRIVE];
    m->line = lineno;
    return 0;
}

/* Each source's messages by post time, then line: the order they were posted. */
static int by_post(const void *a, const void *b)
{
    const struct replay_msg *x = *(const struct replay_msg *const *)a, *y = *(const struct replay_msg *const *)b;
    if (x->nm.src != y->nm.src)
        return x->nm.src < y->nm.src ? -1 : 1;
    if (x->t_post_ns != y->t_post_ns)
        return x->t_post_ns < y->t_post_ns ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static struct replay_msg **posted_order(const struct replay *r)
{
    struct replay_msg **o = malloc((r->n ? r->n : 1) * sizeof *o);
    for (size_t i = 0; o && i < r->n; i++)
        o[i] = &r->m[i];
    if (o)
        qsort(o, r->n, sizeof *o, by_post);
    return o;
}

int replay_read(FILE *f, const char *name, int nodes, uint64_t t_send_ns, struct replay *r, char *err,
                size_t errlen)
{
    memset(r, 0, sizeof *r);
    char *line = NULL;
    size_t cap = 0, mcap = 0, lineno = 1;
    int at[NCOLS], nfields = 0, bad = 0;
    if (getline(&line, &cap, f) < 0) {
        snprintf(err, errlen, "%s: empty; a run's messages.csv starts with its header", name);
        bad = 1;
    } else
        bad = find_columns(line, at, &nfields, name, err, errlen) != 0;
    while (!bad && getline(&line, &cap, f) >= 0) {
        lineno++;
        if (r->n == mcap) {
            mcap = mcap ? 2 * mcap : 1024;
            struct replay_msg *m = realloc(r->m, mcap * sizeof *m);
            if (!m) {
                snprintf(err, errlen, "%s: no memory for %zu messages", name, mcap);
                bad = 1;
                break;
            }
            r->m = m;
        }
        bad = read_message(line, lineno, at, nfields, nodes, t_send_ns, &r->m[r->n], name, err, errlen) != 0;
        r->n += !bad;
    }
    free(line);
    if (!bad && ferror(f)) {
        snprintf(err, errlen, "%s: could not be read after line %zu", name, lineno);
        bad = 1;
    }
    struct replay_msg **o = bad ? NULL : posted_order(r);
    if (!bad && !o) {
        snprintf(err, errlen, "%s: no memory to order %zu messages", name, r->n);
        bad = 1;
    }
    for (size_t i = 0; o && i < r->n; i++)     /* each source's numbers, in its order */
        o[i]->nm.seq = i && o[i - 1]->nm.src == o[i]->nm.src ? o[i - 1]->nm.seq + 1 : 0;
    free(o);
    if (bad)
        replay_free(r);
    return bad ? -1 : 0;
}

void replay_free(struct replay *r)
{
    free(r->m);
    r->m = NULL;
    r->n = 0;
}

/* All messages by post time; those of one source in their post order. */
static int by_time(const void *a, const void *b)
{
    const struct replay_msg *x = *(const struct replay_msg *const *)a, *y = *(const struct replay_msg *const *)b;
    if (x->t_post_ns != y->t_post_ns)
        return x->t_post_ns < y->t_post_ns ? -1 : 1;
    return by_post(a, b);
}

/* Simulate n up to (not into) cycle end, or until it runs dry (end
 * UINT64_MAX: until it does). */
static int run_until(struct net *n, uint64_t end, char *err, size_t errlen)
{
    struct net_msg *arr, *left;
    while (net_busy(n) && net_now(n) < end)
        if (net_run(n, end, &arr, &left) < 0) {
            snprintf(err, errlen, "%s at cycle %llu", net_run_error(n), (unsigned long long)net_now(n));
            return -1;
        }
    return 0;
}

int replay_run(struct net *n, struct replay *r, char *err, size_t errlen)
{
    struct replay_msg **o = posted_order(r);
    if (!o) {
        snprintf(err, errlen, "no memory to order %zu messages", r->n);
        return -1;
    }
    qsort(o, r->n, sizeof *o, by_time);
    int bad = 0;
    for (size_t i = 0; i < r->n && !bad; i++) {
        /* the cycle of its post, never after the one it may enter */
        bad = run_until(n, net_ns_to_cycle_ceil(n, o[i]->t_post_ns), err, errlen);
        o[i]->nm.owner = o[i];
        net_inject(n, &o[i]->nm);
    }
    free(o);
    return bad ? -1 : run_until(n, UINT64_MAX, err, errlen);
}

size_t replay_matched(const struct net *n, const struct replay *r, size_t *first)
{
    size_t k = 0;
    *first = r->n;
    for (size_t i = 0; i < r->n; i++) {
        const struct replay_msg *m = &r->m[i];
        int same = net_cycle_to_ns(n, m->nm.c_inject) == m->t_inject_ns &&
                   net_cycle_to_ns(n, m->nm.c_head) == m->t_head_ns &&
                   net_cycle_to_ns(n, m->nm.c_arrive) == m->t_arrive_ns;
        k += (size_t)same;
        if (!same && *first == r->n)
            *first = i;
    }
    return k;
}
