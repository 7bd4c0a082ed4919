/* A run's messages on the network alone (netsim --replay RUN_DIR).
 *
 * messages.csv (host/out/report.c) records every message a run's nodes
 * posted: its ends, its length, when it was posted and when its head
 * entered the network, reached its destination and its tail arrived. The
 * engine handed each to the network at its post time plus the send
 * start-up (t_send_ns: engine.c, inject), and the network model reads
 * nothing else of the nodes. So the same messages handed to a network of
 * the same machine and parameters, all before the first cycle, cross it
 * with the same times: the model is deterministic, a NIC channel serves
 * its messages in order of readiness (net_inject), and its accelerators
 * keep every time exact. replay_matched says whether they did.
 *
 * What a replay cannot give back: worms a run does not record in
 * messages.csv (fetch-and-increment packets, multidestination worms) and
 * flood relays, which a NIC makes without the send start-up. A run with
 * them replays with other times, and replay_matched names the first. With
 * other network parameters (--set) a replay is an open-loop what-if: the
 * messages enter when the run's nodes posted them, whatever the network
 * does to their arrivals.
 *
 * Invariant: a loaded replay's messages each have 0 <= src, dst < nodes,
 * and are in the file's order; each source's are numbered (seq) by post
 * time, then by line. */
#ifndef MSG_REPLAY_H
#define MSG_REPLAY_H

#include <stdio.h>
#include <stdint.h>
#include "net_model.h"

struct replay_msg {
    struct net_msg nm;                      /* src, dst, len, seq, t_ready_ns: what the model is given */
    uint64_t t_post_ns;
    uint64_t t_inject_ns, t_head_ns, t_arrive_ns;   /* as recorded */
    size_t line;                            /* its line in the file (the header is line 1) */
};

struct replay {
    struct replay_msg *m;
    size_t n;
};

/* The messages of a messages.csv (read by header name: src, dst, len,
 * t_post_ns, t_inject_ns, t_head_ns, t_arrive_ns; other columns are
 * ignored) for a machine of `nodes` nodes whose sends start t_send_ns
 * after their post. name names the file in messages. 0, or -1 with the
 * reason (the line, the column, what is accepted) in err. */
int replay_read(FILE *f, const char *name, int nodes, uint64_t t_send_ns, struct replay *r, char *err,
                size_t errlen);
void replay_free(struct replay *r);

/* Run n until every message has crossed it, handing each to it when the
 * network reaches its post time, as the engine does (the times are the
 * same if they are all handed at once, but the accelerators then keep
 * groups apart for messages far in the future, which costs up to a third
 * more on a complete exchange). 0, or -1 with the reason in err. */
int replay_run(struct net *n, struct replay *r, char *err, size_t errlen);

/* After n delivered them all: how many crossed it at their recorded times
 * (head in, head at the destination, tail in), and in *first the index of
 * the first that did not (r->n if none). */
size_t replay_matched(const struct net *n, const struct replay *r, size_t *first);

#endif
