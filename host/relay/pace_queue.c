/* A node host's held-back CONFIGs (pace_queue.h). */
#include <stdlib.h>
#include "pace_queue.h"

int pace_queue_init(struct pace_queue *q, int cap)
{
    *q = (struct pace_queue){ calloc((size_t)cap, sizeof(int)), calloc((size_t)cap, sizeof(uint8_t *)), 0, 0, cap, 0,
                              0 };
    if (q->node && q->page)
        return 0;
    pace_queue_free(q);
    return -1;
}

int pace_queue_add(struct pace_queue *q, int node, uint8_t *page)
{
    if (q->stalled || q->first + q->n >= q->cap)
        return -1;
    q->node[q->first + q->n] = node;
    q->page[q->first + q->n++] = page;
    return 0;
}

void pace_queue_run(struct pace_queue *q, double now, double look_s, const struct pace_calls *c)
{
    char err[600];
    while (q->n && !q->stalled) {
        if (q->looked && now - q->looked < look_s)
            return;
        int node = q->node[q->first], r = c->pace(c->ctx, node, err, sizeof err);
        if (r > 0) {
            q->looked = now;
            return;
        }
        q->looked = 0;
        if (r < 0) {
            q->stalled = 1;
            c->stalled(c->ctx, err);
            return;
        }
        c->start(c->ctx, node, q->page[q->first]);
        free(q->page[q->first]);
        q->page[q->first] = NULL;
        q->first++;
        q->n--;
    }
}

void pace_queue_free(struct pace_queue *q)
{
    for (int k = q->first; q->page && k < q->first + q->n; k++)
        free(q->page[k]);
    free(q->node);
    free(q->page);
    q->node = NULL;
    q->page = NULL;
    q->n = 0;
}
