/* The link between the router and the node hosts of a machine spread over
 * several hosts (wormsim-mpi under mpirun; docs/scale.md).
 *
 * MPI rank 0 runs the router, the network model and the clock; every
 * other rank is a node host: it starts and serves a block of the nodes
 * (their QEMUs, NIC memory and doorbells stay on its host) and relays what
 * they post and what the router answers. One run is one MPI job.
 *
 * The router keeps a mirror of each remote node's NIC memory, so its
 * logic is the same for every node (host/engine/engine.c reads and writes NIC
 * memory). What crosses the link, per node (netdev/nic_shm.h):
 *   router -> host  CONFIG  the first page (configuration), before the node starts
 *                   NOTIFY  link_up, cons, the reply and its payload, then the interrupt
 *                   END     the run is over: stop every node and answer DONE
 *   host -> router  BELL    the status block, prod, and the descriptors posted
 *                           since the last BELL with the payload of each SEND
 *                   DIED    the node's QEMU ended (its wait status)
 *                   GDB     the node with the gdbstub waits on this host and port
 *                   ERROR   the host could not serve its nodes (text)
 *                   DONE    every node of the host is stopped; value: how many wrote
 *                           more console than their log keeps (--log-max), node: the first
 * Messages between two ranks arrive in the order sent (MPI's
 * non-overtaking rule: one communicator, one tag), so a CONFIG is applied
 * before the NOTIFY that brings the link up.
 *
 * wormsim (without MPI) links link_none.c: one host, no link.
 */
#ifndef LINK_H
#define LINK_H

#include <stddef.h>
#include <stdint.h>

enum link_type {
    LINK_CONFIG = 1, LINK_NOTIFY, LINK_END,
    LINK_BELL, LINK_DIED, LINK_GDB, LINK_ERROR, LINK_DONE,
};

struct link_hdr {
    uint32_t type;        /* enum link_type */
    uint32_t node;        /* the node's rank in the machine */
    int32_t  value;       /* DIED: the wait status; GDB: the port; BELL: the node's
                             rings it stands for that brought nothing, counted
                             from its eventfd (0 when it brings something);
                             DONE: the host's nodes whose logs were cut */
    uint32_t len;         /* bytes of body after the header */
};

/* Start the link (MPI_Init). Returns 1 if this process is one rank of
 * an MPI job (then link_rank and link_size say which), 0 for wormsim
 * without MPI. */
int  link_init(int *argc, char ***argv);
int  link_rank(void);
int  link_size(void);
/* The host that serves node `node` of `nodes`: rank 0 alone serves all;
 * with H > 1 ranks, ranks 1..H-1 serve contiguous blocks. */
int  link_owner(int node, int nodes);
/* The name of the host this rank, or rank `rank`, runs on. */
const char *link_host(void);
const char *link_host_of(int rank);
/* Every rank: 1 if every rank says ok; *root_ok says if rank 0 did. */
int  link_agree(int ok, int *root_ok);
/* Rank 0's buf (len bytes) to every rank. */
void link_bcast(void *buf, size_t len);
/* Every rank's mine (len bytes) to every rank: all holds link_size()
 * of them in rank order. */
void link_allgather(const void *mine, void *all, size_t len);
/* Queue a message of a header and a body of len bytes (may be empty);
 * the body is copied. Returns -1 if out of memory. */
int  link_send(int to, uint32_t type, uint32_t node, int32_t value, const void *body, size_t len);
/* The next message that has arrived, if any: returns 1 with *body malloc'd
 * (free it), 0 if none. */
int  link_recv(int *from, struct link_hdr *h, uint8_t **body);
/* Complete what can be completed of the queued sends; 1 if some remain. */
int  link_progress(void);
/* End the job: link_finalize after a run, link_abort when a rank cannot
 * go on (every rank of the job ends). */
void link_finalize(void);
void link_abort(int code);
/* Before link_finalize on a rank ended by a signal: mpirun is ending the
 * job and may kill the rank (SIGKILL, odls_base_sigkill_timeout after its
 * SIGTERM) inside MPI_Finalize, which would leave the shared-memory
 * transport's files in /dev/shm. Unlink those this rank maps (its own and
 * its peers'; the mappings stay valid), so none outlives the job. */
void link_drop_shm_files(void);

#endif
