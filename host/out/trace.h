/* A run's timeline in Chrome trace-event JSON (opens in Perfetto or
 * chrome://tracing): a track per node (send start-ups, blocked waits) and
 * a track per link (each worm holding it, from its head to its tail). */
#ifndef TRACE_H
#define TRACE_H

#include <stddef.h>
#include <stdint.h>

struct engine;
struct tracebuf;

struct tracebuf *trace_new(void);
void trace_free(struct tracebuf *t);

/* A span on node `node`'s track: name, times in ns, and a detail line. */
void trace_node(struct tracebuf *t, int node, const char *name, uint64_t t0, uint64_t t1,
                const char *detail);

/* Start recording link occupancy from the router's network. */
void trace_links(struct tracebuf *t, struct engine *r);

/* Events kept, and events dropped because memory ran out (the run goes on;
 * the writer of trace.json says how many are missing). */
size_t trace_events(const struct tracebuf *t);
size_t trace_lost(const struct tracebuf *t);

int trace_write(const struct tracebuf *t, const struct engine *r, const char *path);

#endif
