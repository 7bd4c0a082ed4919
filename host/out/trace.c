#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"
#include "files.h"
#include "engine/engine.h"

struct ev {
    int pid, tid;                  /* pid 1: nodes, 2: links */
    uint64_t t0, t1;               /* ns */
    char name[24], detail[48];
};

struct tracebuf {
    struct ev *ev;
    size_t n, cap;
    size_t lost;                   /* events dropped for want of memory */
    const struct engine *r;
};

struct tracebuf *trace_new(void) { return calloc(1, sizeof(struct tracebuf)); }

void trace_free(struct tracebuf *t)
{
    if (t)
        free(t->ev);
    free(t);
}

/* A new event, or NULL when the buffer cannot grow: the event is counted
 * as lost and the run goes on (a timeline is never worth a run). */
static struct ev *add(struct tracebuf *t)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 4096;
        struct ev *ev = realloc(t->ev, cap * sizeof *ev);
        if (!ev) {
            t->lost++;
            return NULL;
        }
        t->ev = ev;
        t->cap = cap;
    }
    return &t->ev[t->n++];
}

size_t trace_events(const struct tracebuf *t) { return t->n; }
size_t trace_lost(const struct tracebuf *t) { return t->lost; }

void trace_node(struct tracebuf *t, int node, const char *name, uint64_t t0, uint64_t t1, const char *detail)
{
    struct ev *e = add(t);
    if (!e)
        return;
    *e = (struct ev){ .pid = 1, .tid = node, .t0 = t0, .t1 = t1 };
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->detail, sizeof e->detail, "%s", detail ? detail : "");
}

static void on_link(void *ctx, int link, const struct net_msg *m, uint64_t c_head, uint64_t c_tail)
{
    struct tracebuf *t = ctx;
    struct ev *e = add(t);
    if (!e)
        return;
    *e = (struct ev){ .pid = 2, .tid = link, .t0 = net_cycle_to_ns(t->r->net, c_head),
                      .t1 = net_cycle_to_ns(t->r->net, c_tail) };
    snprintf(e->name, sizeof e->name, "%d->%d", m->src, m->dst);
    snprintf(e->detail, sizeof e->detail, "%u bytes, %u flits", m->len, m->flits);
}

void trace_links(struct tracebuf *t, struct engine *r)
{
    t->r = r;
    net_set_link_trace(r->net, on_link, t);
}

/* Entries are written one by one, each but the first after a comma: the
 * array is valid JSON whatever is in it, a run without a message (only
 * track names) or one without a link included. */
struct out {
    FILE *f;
    int n;                         /* entries written */
};

static void entry(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void entry(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(o->n++ ? ",\n" : "\n", o->f);
    vfprintf(o->f, fmt, ap);
    va_end(ap);
}

static void write_tracks(struct out *o, const struct engine *r)
{
    entry(o, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"nodes\"}}");
    entry(o, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"args\":{\"name\":\"links\"}}");
    for (int i = 0; i < r->n; i++)
        entry(o, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"node %d\"}}", i, i);
    int nl;
    net_link_stats(r->net, &nl);
    for (int i = 0; i < nl; i++) {
        int from, port, to;
        if (!net_link_ends(r->net, i, &from, &port, &to))
            continue;
        char name[64];
        if (machine_indirect(&r->m)) {
            char rn[32];
            net_router_name(r->net, from, rn, sizeof rn);
            snprintf(name, sizeof name, "%s port %d", rn, port);
        } else {
            snprintf(name, sizeof name, "node %d dim %d %c", from, port / 2, port % 2 ? '-' : '+');
        }
        entry(o, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2,\"tid\":%d,\"args\":{\"name\":\"%s\"}}", i, name);
    }
}

static void write_event(struct out *o, const struct ev *e)
{
    entry(o, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"ts\":%.3f,\"dur\":%.3f,"
             "\"args\":{\"detail\":\"%s\"}}", e->pid, e->tid, e->name, (double)e->t0 / 1000.0,
          (double)(e->t1 - e->t0) / 1000.0, e->detail);
}

/* A wait is traced when its answer comes; a node still waiting when the
 * run stopped (a deadlock, a fault elsewhere, an interrupt) gets its wait
 * up to the time the nodes had reached, so the timeline shows who waited
 * for what at the end. */
static void write_open_waits(struct out *o, const struct engine *r)
{
    uint64_t end = engine_time_reached(r);   /* as the failed run's summary prints it */
    if (end < r->sim_end)
        end = r->sim_end;
    for (int i = 0; i < r->n; i++) {
        const struct node *n = &r->nodes[i];
        if (n->state != NODE_BLOCKED)
            continue;
        struct ev e = { .pid = 1, .tid = i, .t0 = n->blk.time_ns, .t1 = end > n->blk.time_ns ? end : n->blk.time_ns };
        snprintf(e.name, sizeof e.name, "%s", engine_op_name(n->blk.op));
        char src[11], tag[11];          /* a 32-bit number or "any" */
        snprintf(src, sizeof src, n->blk.peer == NIC_ANY ? "any" : "%u", n->blk.peer);
        snprintf(tag, sizeof tag, n->blk.tag == NIC_ANY ? "any" : "%u", n->blk.tag);
        snprintf(e.detail, sizeof e.detail, "unanswered: src=%s tag=%s", src, tag);
        write_event(o, &e);
    }
}

int trace_write(const struct tracebuf *t, const struct engine *r, const char *path)
{
    struct out o = { fopen(path, "w"), 0 };
    if (!o.f)
        return -1;
    fprintf(o.f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
    write_tracks(&o, r);
    for (size_t k = 0; k < t->n; k++)
        write_event(&o, &t->ev[k]);
    write_open_waits(&o, r);
    fprintf(o.f, "\n]}\n");
    return file_close_written(o.f);
}
