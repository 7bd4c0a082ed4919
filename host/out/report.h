/* What a run reports beyond summary.json's basics: per message, per link
 * and per step, as CSV files in the run directory, and their summaries. */
#ifndef REPORT_H
#define REPORT_H

#include <jansson.h>
#include "engine/engine.h"

/* A run's summaries, computed once: "links" (max, mean, most contended),
 * "steps" (per step mark: messages, max link sharing, its times) and "message_time"
 * (the time split summed over messages). */
struct report {
    json_t *links, *steps, *message_time;
};
void report_build(struct report *rep, const struct engine *r);
void report_free(struct report *rep);

/* messages.csv, links.csv, steps.csv and records.csv (node, key, value:
 * the figures the nodes reported) into dir. Returns 0 or -1. */
int report_write_csv(const struct engine *r, const struct report *rep, const char *dir);

/* links.csv of network n on machine m (a direct network's links named by
 * node, dimension and direction; an indirect one's by router and port):
 * each link's flits, worms, busy and blocked cycles, one a line. */
void report_links_csv(FILE *f, const struct net *n, const struct topo_shape *m);

/* summary.json's "records": for each key some node reported, how many
 * nodes did, the largest and smallest value and node 0's (null if none). */
json_t *report_records_json(const struct engine *r);

/* Console lines (link contention, time split, steps). */
void report_print(const struct report *rep, int has_messages, FILE *f);

#endif
