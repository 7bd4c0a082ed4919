/* A node host (node_host.h): QEMUs of this host, relayed to the router. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "node_host.h"
#include "link.h"
#include "relay.h"
#include "host_clock.h"
#include "pace_queue.h"

struct hosted {
    struct pool_node *nd;            /* NULL before its CONFIG, and once stopped */
    struct relay_layout l;
    uint32_t sent;                   /* its prod as last relayed */
    struct nic_status shown;         /* its status as last relayed */
    uint32_t empty;                  /* its rings since the last BELL relayed that brought nothing */
    int unread;                      /* its eventfd may hold rings that brought something */
};

/* Doorbells that bring nothing are relayed by the thousand, as one BELL
 * carrying their count, so that rank 0 names a doorbell storm as on one
 * host (run/events.c, doorbell_storm) at one message a thousand rings. */
#define RELAY_EMPTY_BELLS 1000

void node_host_error(const char *fmt, ...)
{
    char m[600];
    int o = snprintf(m, sizeof m, "host %s: ", link_host());
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m + o, sizeof m - (size_t)o, fmt, ap);
    va_end(ap);
    link_send(0, LINK_ERROR, 0, 0, m, strlen(m));
}

/* What the node posted since the last BELL, if anything changed (or
 * always). `rung`: the node rang its doorbell. A wake-up that brought
 * nothing is counted by the rings it stands for, read from the eventfd,
 * as the router counts a local node's (run/events.c, empty_rings): a
 * wake-up that brings something leaves the count unread, so the first
 * read after one counts as one ring. The BELL carries the count when it
 * brings nothing either (link.h). */
static void bell(struct hosted *h, int node, int always, int rung)
{
    if (!h->nd)
        return;
    const uint8_t *shm = h->nd->mem.map;
    uint32_t prod = *(volatile uint32_t *)(shm + NIC_PROD_OFF);
    int nothing = prod == h->sent && !memcmp(&h->shown, shm + NIC_STATUS_OFF, sizeof h->shown);
    if (nothing && rung) {
        uint64_t v = nic_mem_rings(&h->nd->mem);
        uint64_t e = h->empty + (h->unread ? 1 : v);
        h->empty = e < INT32_MAX ? (uint32_t)e : INT32_MAX;   /* the BELL carries it as an int32_t */
        h->unread = 0;
    }
    if (!nothing)
        h->unread = 1;
    if (nothing && !always && h->empty < RELAY_EMPTY_BELLS)
        return;
    memcpy(&h->shown, shm + NIC_STATUS_OFF, sizeof h->shown);
    size_t len;
    uint8_t *b = relay_bell(shm, &h->l, &h->sent, &len);
    if (!b || link_send(0, LINK_BELL, (uint32_t)node, nothing ? (int32_t)h->empty : 0, b, len))
        node_host_error("out of memory relaying node %d", node);
    free(b);
    h->empty = 0;
}

/* Ask the pacing rule at most this often while a node waits. */
#define PACE_LOOK_MS 20

static void start(const struct node_host_job *j, struct hosted *hs, int node, const uint8_t *page, size_t len)
{
    struct hosted *h = &hs[node];
    char log[1200], err[512];
    if (len != NIC_RING_OFF || h->nd) {
        node_host_error("a bad CONFIG for node %d (%zu bytes)", node, len);
        return;
    }
    struct pool_spec spec = j->spec[j->arch[node]];
    spec.gdb_port = node == j->gdb_node ? j->gdb_port : 0;
    snprintf(log, sizeof log, "%s/node-%03d.log", j->dir, node);
    struct pool_node *nd = pool_take(j->pool, &spec, log, err, sizeof err);
    if (!nd) {
        node_host_error("node %d: %s", node, err);
        return;
    }
    if (relay_layout_of(page, nd->mem.size, &h->l)) {
        node_host_error("node %d: its configuration does not fit its %zu bytes of NIC memory", node, nd->mem.size);
        pool_give_back(j->pool, nd, 0);
        return;
    }
    nd->run = hs;
    nd->rank = node;
    relay_apply_config(nd->mem.map, page);
    h->nd = nd;
    h->sent = 0;
    h->empty = 0;
    h->unread = 1;                   /* (a warm node's rings before this run) */
    memset(&h->shown, 0, sizeof h->shown);
}

/* The QEMUs that ended: their last descriptors, then DIED. */
static void reap(struct pool *p, struct hosted *hs)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        struct pool_node *nd = pool_on_child(p, pid);
        if (!nd || nd->run != hs)
            continue;
        bell(&hs[nd->rank], nd->rank, 1, 0);
        link_send(0, LINK_DIED, (uint32_t)nd->rank, status, NULL, 0);
    }
}

/* The held-back CONFIGs' calls (pace_queue.h), on this host's nodes. */
struct paced {
    const struct node_host_job *j;
    struct hosted *hs;
};
static int paced_rule(void *ctx, int node, char *err, size_t errlen)
{
    const struct paced *x = ctx;
    return x->j->pace(x->j->pace_ctx, node, x->hs, err, errlen);
}
static void paced_start(void *ctx, int node, const uint8_t *page)
{
    const struct paced *x = ctx;
    start(x->j, x->hs, node, page, NIC_RING_OFF);
}
static void paced_stalled(void *ctx, const char *err)
{
    (void)ctx;
    node_host_error("%s", err);
}

/* Stop every node; returns those whose logs were cut (--log-max). */
static struct log_cuts stop_all(struct pool *p, struct hosted *hs, int nodes)
{
    struct log_cuts cuts = LOG_CUTS_NONE;
    for (int i = 0; i < nodes; i++)
        if (hs[i].nd) {
            log_cuts_add(&cuts, i, pool_give_back(p, hs[i].nd, 0) > 0);
            hs[i].nd = NULL;
        }
    return cuts;
}

int node_host_run(const struct node_host_job *j)
{
    struct hosted *hs = calloc((size_t)j->nodes, sizeof *hs);
    struct pace_queue q;
    int qok = pace_queue_init(&q, j->nodes) == 0;
    struct paced x = { j, hs };
    const struct pace_calls calls = { paced_rule, paced_start, paced_stalled, &x };
    if (!hs || !qok) {
        free(hs);
        if (qok)
            pace_queue_free(&q);
        node_host_error("out of memory for %d nodes", j->nodes);
        return 1;
    }
    char path[1100];
    snprintf(path, sizeof path, "%s", j->dir);   /* the run directory may not exist on this host */
    for (char *s = path + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(path, 0755);
            *s = '/';
        }
    mkdir(path, 0755);
    int rc = -1, quiet = 0;
    while (rc < 0) {
        struct epoll_event ev[64];
        int k = epoll_wait(j->epfd, ev, 64, quiet > 8 ? 1 : 0);
        quiet++;
        for (int i = 0; i < k; i++) {
            uint32_t kind = (uint32_t)(ev[i].data.u64 >> 32), id = (uint32_t)ev[i].data.u64;
            struct pool_node *nd = (int)id < j->pool->n ? j->pool->node[id] : NULL;
            quiet = 0;
            if (kind == POOL_EV_BELL && nd && nd->run == hs) {
                bell(&hs[nd->rank], nd->rank, 0, 1);
            } else if (kind == POOL_EV_CONSOLE && nd) {
                pool_on_console(j->pool, nd);
            } else if (kind == POOL_EV_LISTEN) {
                pool_on_accept(j->pool);
            } else if (kind == j->ev_timer) {
                uint64_t v;
                if (read(j->timerfd, &v, sizeof v) > 0)   /* in case a doorbell was lost */
                    for (int n = 0; n < j->nodes; n++)
                        bell(&hs[n], n, 0, 0);
            } else if (kind == j->ev_sig) {
                struct signalfd_siginfo si;
                while (read(j->sigfd, &si, sizeof si) == sizeof si) {
                    if (si.ssi_signo == SIGCHLD)
                        reap(j->pool, hs);
                    else
                        rc = 128 + (int)si.ssi_signo;
                }
            }
        }
        int from;
        struct link_hdr h;
        uint8_t *body;
        while (rc < 0 && link_recv(&from, &h, &body)) {
            quiet = 0;
            if (h.type != LINK_END && h.node >= (uint32_t)j->nodes) {
                node_host_error("a message for node %u, of %d", h.node, j->nodes);
            } else if (h.type == LINK_CONFIG && (!j->pace || h.len != NIC_RING_OFF)) {
                start(j, hs, (int)h.node, body, h.len);   /* (a bad one said there) */
            } else if (h.type == LINK_CONFIG) {
                if (!pace_queue_add(&q, (int)h.node, body))   /* (a node's second is a bad CONFIG at start) */
                    body = NULL;
                else if (!q.stalled)
                    node_host_error("more CONFIGs than the machine's %d nodes (node %u)", j->nodes, h.node);
            } else if (h.type == LINK_NOTIFY) {
                struct hosted *n = &hs[h.node];
                uint64_t one = 1;
                if (!n->nd)
                    ;                 /* stopped already */
                else if (relay_apply_notify(n->nd->mem.map, &n->l, body, h.len))
                    node_host_error("a bad NOTIFY for node %u (%u bytes)", h.node, h.len);
                else if (write(n->nd->mem.irq_fd, &one, sizeof one) < 0 && errno != EAGAIN)
                    node_host_error("node %u: interrupt: %s", h.node, strerror(errno));
            } else if (h.type == LINK_END) {
                rc = 0;
            }
            free(body);
        }
        if (rc < 0 && j->pace)
            pace_queue_run(&q, now_s(), PACE_LOOK_MS / 1000.0, &calls);
    }
    struct log_cuts cuts = stop_all(j->pool, hs, j->nodes);
    if (rc == 0)
        link_send(0, LINK_DONE, cuts.count ? (uint32_t)cuts.first : 0, cuts.count, NULL, 0);
    pace_queue_free(&q);
    free(hs);
    return rc;
}
