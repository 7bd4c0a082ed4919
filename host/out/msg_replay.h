/* A run's messages on the network alone (netsim --replay RUN_DIR).
 *
 * messages.csv (report.c) records every worm a run's NICs sent but the
 * two kinds below: its ends, its length, its source's number for it
 * (seq, in post order; a worm the NIC made itself, a flood relay, from
 * NIC_SEQ_BASE), when it could enter the network (t_ready_ns), and when
 * its head entered, reached its destination and its tail arrived. The
 * network model reads nothing else of the nodes (engine_int.h, inject_worm).
 * So the same worms handed to a network of the same machine and
 * parameters, each when the network reaches its post time, as the engine
 * hands them, cross it with the same times: the model is deterministic, a
 * NIC channel serves its worms by readiness (net_inject), and its
 * accelerators keep every time exact. msg_replay_matched says whether
 * they did.
 *
 * Two kinds of worm do not replay: a multidestination worm, which
 * messages.csv holds as one line a destination (kind mdw; the replay
 * would send each as a worm of its own), and a fetch-and-increment
 * packet, which it does not hold (summary.json's fetch_inc_packets
 * counts them). msg_replay_read refuses a line of kind mdw, and netsim
 * a run that sent fetch-and-increment packets, before anything runs; a
 * messages.csv without the kind column (older runs) is read as it is,
 * and msg_replay_matched names the first worm whose times differ. With
 * other network parameters a replay is an open-loop what-if: the worms
 * enter when the run's nodes made them, whatever the network does to
 * their arrivals.
 *
 * Invariant: a loaded replay's messages each have 0 <= src != dst < nodes,
 * t_post <= t_ready <= t_inject <= t_head <= t_arrive <= 2 SIM_TIME_MAX_NS,
 * and are in the file's order. */
#ifndef MSG_REPLAY_H
#define MSG_REPLAY_H

#include <stdio.h>
#include <stdint.h>
#include "net/net_model.h"

struct msg_replay_msg {
    struct net_msg nm;                      /* src, dst, len, seq, t_ready_ns, nic_made: the model's input */
    uint64_t t_post_ns;                     /* when it was handed over in the run */
    uint64_t t_inject_ns, t_head_ns, t_arrive_ns;   /* as recorded */
    size_t line;                            /* its line in the file (the header is line 1) */
};

struct msg_replay {
    struct msg_replay_msg *m;
    size_t n;
};

/* The messages of a messages.csv, read by header name (the columns of
 * msg_replay_columns; others are ignored), for a machine of `nodes`
 * nodes. name names the file in messages. 0, or -1 with the reason (the
 * line, the column, what is accepted) in err. */
int msg_replay_read(FILE *f, const char *name, int nodes, struct msg_replay *r, char *err, size_t errlen);
void msg_replay_free(struct msg_replay *r);
/* The columns msg_replay_read needs, comma-separated (for messages). */
extern const char msg_replay_columns[];

/* Run n until every message has crossed it, handing each to it when the
 * network reaches its post time, as the engine does (handing them all
 * before the first cycle gives the same times, but a worm queued long
 * before it is ready bounds how far the groups of its NIC's ports may be
 * frozen, which costs up to a third more on a complete exchange). 0, or
 * -1 with the reason in err. */
int msg_replay_run(struct net *n, struct msg_replay *r, char *err, size_t errlen);

/* After msg_replay_run: how many messages crossed at their recorded times
 * (head in, head at the destination, tail in), and in *first the index of
 * the first that did not (r->n if none). */
size_t msg_replay_matched(const struct net *n, const struct msg_replay *r, size_t *first);

#endif
