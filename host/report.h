/* What a run reports beyond summary.json's basics: per message, per link
 * and per step, as CSV files in the run directory, and their summaries. */
#ifndef REPORT_H
#define REPORT_H

#include <jansson.h>
#include "router.h"

/* messages.csv, links.csv, steps.csv into dir. Returns 0 or -1. */
int report_write_csv(const struct router *r, const char *dir);

/* The summaries for summary.json: "links", "steps", "time_split". */
json_t *report_links_json(const struct router *r);
json_t *report_steps_json(const struct router *r);
json_t *report_time_split_json(const struct router *r);

/* Console lines (link contention, steps). */
void report_print(const struct router *r, FILE *f);

#endif
