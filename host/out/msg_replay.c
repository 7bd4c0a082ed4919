/* A run's messages on the network alone: reading messages.csv, handing
 * its messages to a network at their post times, and comparing their
 * times (msg_replay.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "msg_replay.h"
#include "engine/engine.h"
#include "show.h"

enum { C_SRC, C_DST, C_LEN, C_SEQ, C_POST, C_READY, C_INJECT, C_HEAD, C_ARRIVE, NCOLS };
static const char *const col_names[NCOLS] = { "src",      "dst",         "len",       "seq",        "t_post_ns",
                                              "t_ready_ns", "t_inject_ns", "t_head_ns", "t_arrive_ns" };
const char msg_replay_columns[] = "src, dst, len, seq, t_post_ns, t_ready_ns, t_inject_ns, t_head_ns, t_arrive_ns";
#define MAX_FIELDS 64
/* No time of a run passes twice the latest a node may stamp (engine.h):
 * its worms' start-ups and crossings come after that, and times under it
 * stay under 2^63 ps in the network's cycle arithmetic. */
#define MAX_NS (2 * SIM_TIME_MAX_NS)

/* Split line (its line end dropped) at commas, in place; the field
 * count, or MAX_FIELDS + 1 if there are more. */
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

/* Where each needed column is in the header, and `kind` (-1 if absent:
 * a run's messages.csv from before it); -1 with what is missing. */
static int find_columns(char *header, int *at, int *kind_at, int *nfields, const char *name, char *err,
                        size_t errlen)
{
    char *field[MAX_FIELDS], b[SHOW_LEN];
    int nf = split(header, field);
    if (nf > MAX_FIELDS) {
        snprintf(err, errlen, "%s: its header has more than %d columns; a run's messages.csv has %s and a few more",
                 show(b, name, 0), MAX_FIELDS, msg_replay_columns);
        return -1;
    }
    for (int c = 0; c < NCOLS; c++) {
        at[c] = -1;
        for (int i = 0; i < nf; i++)
            if (!strcmp(field[i], col_names[c]))
                at[c] = i;
        if (at[c] < 0) {
            snprintf(err, errlen, "%s: no column '%s' in its header; a replay needs %s (a run's messages.csv "
                     "has had them all since netsim --replay exists)", show(b, name, 0), col_names[c],
                     msg_replay_columns);
            return -1;
        }
    }
    *kind_at = -1;
    for (int i = 0; i < nf; i++)
        if (!strcmp(field[i], "kind"))
            *kind_at = i;
    *nfields = nf;
    return 0;
}

/* What is wrong with a line's kind, or NULL: it names a unicast worm. A
 * multidestination worm's copies do not replay (msg_replay.h). */
static const char *kind_fault(const char *kind, char *why, size_t len)
{
    char b[SHOW_LEN];
    for (int k = 0; k < REC_KINDS; k++)
        if (!strcmp(kind, rec_kind_names[k])) {
            if (k != REC_MDW)
                return NULL;
            snprintf(why, len, "a copy of a multidestination worm (kind %s): the replay sends unicast worms, so a "
                     "run with multidestination worms does not replay", kind);
            return why;
        }
    int at = snprintf(why, len, "kind %s is not known; accepted: ", show(b, kind, 1));
    if (at >= 0 && (size_t)at < len)
        show_names(why + at, len - (size_t)at, rec_kind_names, REC_KINDS, ", ");
    return why;
}

/* What is wrong with the numbers v of one line, or NULL: the message
 * goes between nodes of this machine (a node's message to itself too:
 * the router takes any destination, its own rank included, through the
 * node's NIC), is no longer than a message can be,
 * and its times come in order and within any run's. */
static const char *line_fault(const uint64_t *v, int nodes, char *why, size_t len)
{
    for (int c = C_SRC; c <= C_DST; c++)
        if (v[c] >= (uint64_t)nodes) {
            snprintf(why, len, "%s %llu is not a node of this machine (0 to %d)", col_names[c],
                     (unsigned long long)v[c], nodes - 1);
            return why;
        }
    if (v[C_LEN] > UINT32_MAX) {
        snprintf(why, len, "len %llu is longer than any message (at most %u bytes)", (unsigned long long)v[C_LEN],
                 UINT32_MAX);
        return why;
    }
    for (int c = C_POST; c <= C_ARRIVE; c++) {
        if (v[c] > MAX_NS) {
            snprintf(why, len, "%s %llu is past any run's time (%llu ns)", col_names[c], (unsigned long long)v[c],
                     MAX_NS);
            return why;
        }
        if (c > C_POST && v[c] < v[c - 1]) {
            snprintf(why, len, "%s %llu is before %s %llu; a message is posted, ready, in, at its destination "
                     "and arrived in that order", col_names[c], (unsigned long long)v[c], col_names[c - 1],
                     (unsigned long long)v[c - 1]);
            return why;
        }
    }
    return NULL;
}

/* One line's message; -1 with the line and what is wrong. */
static int read_message(char *line, size_t lineno, const int *at, int kind_at, int nfields, int nodes,
                        struct msg_replay_msg *m, const char *name, char *err, size_t errlen)
{
    char *field[MAX_FIELDS], b[SHOW_LEN], b2[SHOW_LEN], why[256];
    int nf = split(line, field);
    if (nf != nfields) {
        snprintf(err, errlen, "%s line %zu: %s%d fields where the header has %d", show(b, name, 0), lineno,
                 nf > MAX_FIELDS ? "more than " : "", nf > MAX_FIELDS ? MAX_FIELDS : nf, nfields);
        return -1;
    }
    uint64_t v[NCOLS];
    for (int c = 0; c < NCOLS; c++)
        if (parse_u64(field[at[c]], &v[c])) {
            snprintf(err, errlen, "%s line %zu: %s %s is not a whole number of 0 or more", show(b, name, 0), lineno,
                     col_names[c], show(b2, field[at[c]], 1));
            return -1;
        }
    if (line_fault(v, nodes, why, sizeof why) || (kind_at >= 0 && kind_fault(field[kind_at], why, sizeof why))) {
        snprintf(err, errlen, "%s line %zu: %s", show(b, name, 0), lineno, why);
        return -1;
    }
    memset(m, 0, sizeof *m);
    m->nm.src = (int)v[C_SRC];
    m->nm.dst = (int)v[C_DST];
    m->nm.len = (uint32_t)v[C_LEN];
    m->nm.seq = v[C_SEQ];
    m->nm.t_ready_ns = v[C_READY];
    m->nm.nic_made = (v[C_SEQ] & NIC_SEQ_BASE) != 0;    /* the NIC's own numbers (engine.c, engine_msg_new) */
    m->t_post_ns = v[C_POST];
    m->t_inject_ns = v[C_INJECT];
    m->t_head_ns = v[C_HEAD];
    m->t_arrive_ns = v[C_ARRIVE];
    m->line = lineno;
    return 0;
}

int msg_replay_read(FILE *f, const char *name, int nodes, struct msg_replay *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    char *line = NULL, b[SHOW_LEN];
    size_t cap = 0, mcap = 0, lineno = 1;
    int at[NCOLS], kind_at = -1, nfields = 0, bad = 0;
    if (getline(&line, &cap, f) < 0) {
        snprintf(err, errlen, "%s: empty; a run's messages.csv starts with its header", show(b, name, 0));
        bad = 1;
    } else
        bad = find_columns(line, at, &kind_at, &nfields, name, err, errlen) != 0;
    while (!bad && getline(&line, &cap, f) >= 0) {
        lineno++;
        if (r->n == mcap) {
            mcap = mcap ? 2 * mcap : 1024;
            struct msg_replay_msg *m = realloc(r->m, mcap * sizeof *m);
            if (!m) {
                snprintf(err, errlen, "%s: no memory for %zu messages", show(b, name, 0), mcap);
                bad = 1;
                break;
            }
            r->m = m;
        }
        bad = read_message(line, lineno, at, kind_at, nfields, nodes, &r->m[r->n], name, err, errlen) != 0;
        r->n += !bad;
    }
    free(line);
    if (!bad && ferror(f)) {
        snprintf(err, errlen, "%s: could not be read after line %zu", show(b, name, 0), lineno);
        bad = 1;
    }
    if (bad)
        msg_replay_free(r);
    return bad ? -1 : 0;
}

void msg_replay_free(struct msg_replay *r)
{
    free(r->m);
    r->m = NULL;
    r->n = 0;
}

/* The order messages are handed over: by post time; one source's at the
 * same time by its numbers (its post order). */
static int by_post(const void *a, const void *b)
{
    const struct msg_replay_msg *x = *(const struct msg_replay_msg *const *)a;
    const struct msg_replay_msg *y = *(const struct msg_replay_msg *const *)b;
    if (x->t_post_ns != y->t_post_ns)
        return x->t_post_ns < y->t_post_ns ? -1 : 1;
    if (x->nm.src != y->nm.src)
        return x->nm.src < y->nm.src ? -1 : 1;
    return x->nm.seq < y->nm.seq ? -1 : x->nm.seq > y->nm.seq;
}

int msg_replay_run(struct net *n, struct msg_replay *r, char *err, size_t errlen)
{
    struct msg_replay_msg **o = malloc((r->n ? r->n : 1) * sizeof *o);
    if (!o) {
        snprintf(err, errlen, "no memory to order %zu messages", r->n);
        return -1;
    }
    for (size_t i = 0; i < r->n; i++)
        o[i] = &r->m[i];
    qsort(o, r->n, sizeof *o, by_post);
    int bad = 0;
    for (size_t i = 0; i < r->n && !bad; i++) {
        /* up to the cycle of its post, never past the one it may enter
         * (t_post <= t_ready), which net_inject asks */
        bad = net_run_until(n, net_ns_to_cycle_ceil(n, o[i]->t_post_ns), err, errlen);
        if (!bad) {
            o[i]->nm.owner = o[i];
            net_inject(n, &o[i]->nm);
        }
    }
    free(o);
    return bad ? -1 : net_run_until(n, UINT64_MAX, err, errlen);
}

size_t msg_replay_matched(const struct net *n, const struct msg_replay *r, size_t *first)
{
    size_t k = 0;
    *first = r->n;
    for (size_t i = 0; i < r->n; i++) {
        const struct msg_replay_msg *m = &r->m[i];
        int same = net_cycle_to_ns(n, m->nm.c_inject) == m->t_inject_ns &&
                   net_cycle_to_ns(n, m->nm.c_head) == m->t_head_ns &&
                   net_cycle_to_ns(n, m->nm.c_arrive) == m->t_arrive_ns;
        k += (size_t)same;
        if (!same && *first == r->n)
            *first = i;
    }
    return k;
}
