/* The start messages a node host holds back while merged nodes start
 * paced (node_host.c; the rule is run/start.c's merge_pace_look): each
 * node's CONFIG, in the order they came, started from the front when the
 * rule lets it. Kept apart from the node host's events so that the queue's
 * own rules are tested alone (tests/unit/test_pace_queue.c).
 */
#ifndef PACE_QUEUE_H
#define PACE_QUEUE_H

#include <stddef.h>
#include <stdint.h>

struct pace_queue {
    int *node;
    uint8_t **page;
    int first, n, cap;
    double looked;                   /* when the rule last said not yet, or 0 */
    int stalled;                     /* the rule said the start stalled: nothing more starts */
};

/* What the queue asks and does, for the node host: the rule (0 start, 1
 * not yet, -1 stalled and why in err), a node's start, and the error of a
 * stalled start. */
struct pace_calls {
    int (*pace)(void *ctx, int node, char *err, size_t errlen);
    void (*start)(void *ctx, int node, const uint8_t *page);
    void (*stalled)(void *ctx, const char *err);
    void *ctx;
};

/* Room for cap CONFIGs; -1 without memory. */
int pace_queue_init(struct pace_queue *q, int cap);

/* Node `node`'s CONFIG page, held (the queue owns it from here). -1 if the
 * queue is full or stalled: the caller keeps the page. */
int pace_queue_add(struct pace_queue *q, int node, uint8_t *page);

/* Start the front nodes while the rule lets them, at time now (seconds);
 * after a "not yet", the rule is asked again only look_s later. */
void pace_queue_run(struct pace_queue *q, double now, double look_s, const struct pace_calls *c);

/* The pages still held, and the arrays. */
void pace_queue_free(struct pace_queue *q);

#endif
