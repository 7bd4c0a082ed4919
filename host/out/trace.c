#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"
#include "files.h"
#include "engine/engine.h"

struct ev {
    int pid, tid;                  /* pid 1: nodes, 2: links */
    uint64_t t0, t1;               /* ns */
    char name[24], detail[40];
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

int trace_write(const struct tracebuf *t, const struct engine *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"nodes\"}},\n");
    fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"args\":{\"name\":\"links\"}},\n");
    for (int i = 0; i < r->n; i++)
        fprintf(f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"node %d\"}},\n", i, i);
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
        fprintf(f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2,\"tid\":%d,\"args\":{\"name\":\"%s\"}},\n", i, name);
    }
    for (size_t k = 0; k < t->n; k++) {
        const struct ev *e = &t->ev[k];
        fprintf(f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"ts\":%.3f,\"dur\":%.3f,"
                   "\"args\":{\"detail\":\"%s\"}}%s\n", e->pid, e->tid, e->name, (double)e->t0 / 1000.0,
                (double)(e->t1 - e->t0) / 1000.0, e->detail, k + 1 < t->n ? "," : "");
    }
    fprintf(f, "]}\n");
    return file_close_written(f);
}
