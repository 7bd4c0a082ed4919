/* A node host: an MPI rank other than 0 of wormsim-mpi (host/relay/link.h). It
 * starts the QEMUs of its block of the nodes as the router's CONFIG
 * messages arrive (merged nodes paced, as wormsim paces them on one host), relays what they post (BELL, DIED) and what the router
 * answers (NOTIFY), and stops them all at END. Each node's console goes to
 * run_dir/node-NNN.log on this host.
 */
#ifndef NODE_HOST_H
#define NODE_HOST_H

#include <stdint.h>
#include "launch/pool.h"

struct node_host_job {
    struct pool *pool;               /* a run-once pool (keep = 0) */
    int epfd, sigfd, timerfd;        /* the caller's event sources, registered with ev_sig, ev_timer */
    uint32_t ev_sig, ev_timer;
    const struct pool_spec *spec;    /* by enum node_arch */
    const unsigned char *arch;       /* by node */
    int nodes;
    int gdb_node;                    /* -1: none */
    int gdb_port;                    /* the port its gdbstub listens on, if this host has it */
    const char *dir;                 /* the run directory */
    /* Merged nodes (--merge-pages): whether node `node` may start now,
     * the nodes started being the pool's that `owner` holds (pool_node's
     * run). 0: it may; 1: not yet (CONFIGs wait, in order, and it is
     * asked again); -1: the start stalled, said in err. NULL: each node
     * starts at its CONFIG. */
    int (*pace)(void *ctx, int node, const void *owner, char *err, size_t errlen);
    void *pace_ctx;
};

/* An error of this host, to the router, which ends the run with it
 * ("host NAME: ..."). */
void node_host_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Serve until the router says END (returns 0), or until a signal ends
 * this rank (returns 128 + the signal). */
int node_host_run(const struct node_host_job *j);

#endif
