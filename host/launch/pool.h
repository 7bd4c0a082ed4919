/* A pool of node emulators: QEMU processes, each with its NIC memory and
 * its console, that a run takes and gives back.
 *
 * A node's RAM is a memfd the pool creates and QEMU maps as its guest RAM
 * (the templates' @RAM@); the pool writes the node image into it before
 * QEMU starts (host/launch/image.h). A node of a run-once pool is started with
 * -no-reboot: when its program ends it resets its board (board_reset) and
 * QEMU ends with it. A node of a kept pool (wormsim --serve) waits after
 * its EXIT, and the pool resets it from outside, through QEMU's own
 * monitor (QMP, host/launch/qmp.h, the templates' @QMP@): stop the processor;
 * compare the image in its RAM with the pool's copy, and kill the node if
 * they differ; clear the RAM but the image's loaded bytes; reset the
 * machine (processor and devices: QEMU's reset does not touch the image's
 * bytes, so the code it translated stays, and writes its own blobs, a
 * RISC-V board's device tree, as at its start); clear the NIC memory;
 * resume. The node then boots from its entry and waits in link-up
 * for its next run (netdev/nic_shm.h). So a warm node runs exactly the
 * code a fresh one runs, from the same bytes; only the QEMU start and the
 * translation are saved.
 *
 * Invariants. Nothing a node wrote decides whether it is reused or what
 * it holds then: a node is reused only after a run that went well, in
 * which every node posted EXIT, only if its image is as the pool wrote it,
 * compared by the pool while the processor is stopped, and only after
 * the reset above, which QEMU performs and reports (its RESET event); a
 * node of a failed run, one whose image changed, or one whose QEMU does
 * not answer, is killed. The pool writes a node's RAM before its QEMU
 * starts (the image), and zeros all of it but the image's loaded bytes
 * while the processor is stopped at each reset: the heap, .bss and the
 * stacks hold nothing of the last run, as on a fresh node (start.S also
 * copies .data from its load image and clears .bss and the stacks).
 * Nodes are matched by key: ISA, node image (path and the file's identity,
 * so a rebuilt image is never served stale), QEMU template, the PATH QEMU
 * is found on, and NIC memory size. Every QEMU dies with the process
 * (PR_SET_PDEATHSIG) and is killed and reaped by pool_free().
 */
#ifndef POOL_H
#define POOL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "ivshmem.h"
#include "launch.h"
#include "qmp.h"
#include "image.h"

/* A node image as the run tool read it, shared by the run and the nodes
 * it starts (each holds a reference). */
struct pool_image {
    int refs;
    struct node_image im;
};

/* Read node image path for ISA arch, to fit ram_bytes of RAM (arch_read_image): a new shared image
 * with one reference, or NULL with err set. */
struct pool_image *pool_image_read(int arch, const char *path, size_t ram_bytes, char *err, size_t errlen);
void pool_image_unref(struct pool_image *im);

enum pool_node_state {
    PN_IDLE,          /* reset: booting, or waiting in link-up for a run */
    PN_BUSY,          /* in a run (a new one boots meanwhile; pid -1 once its QEMU ended) */
    PN_RESET,         /* back from a run that went well: to be reset (pool_after_run) */
};

/* What a node must be to serve a run (see the key above). */
struct pool_spec {
    const struct template *tpl;
    const char *kernel;
    int arch;                /* enum node_arch */
    size_t nic_mem;
    unsigned ram_mib;        /* the node's RAM (params ram_mib) */
    int gdb_port;            /* 0: none; a node with a gdbstub is never reused */
    char *key;               /* pool_spec_key(), once per spec */
    struct pool_image *image;   /* the image, read once for the run (the run's reference) */
    int merge_pages;         /* a node it starts may share pages (wormsim --merge-pages) */
    unsigned long long log_max;   /* the most console bytes its node log keeps (wormsim --log-max) */
};

/* Fill spec->key (see the key above). Returns -1 with err set if the node
 * image cannot be read. */
int  pool_spec_key(struct pool_spec *spec, char *err, size_t errlen);
void pool_spec_free(struct pool_spec *spec);

struct pool_node {
    int id;                  /* its slot in the pool; names its memfd */
    enum pool_node_state state;
    pid_t pid;               /* -1 once reaped */
    int conn;                /* its ivshmem socket, -1 before the handshake */
    struct nic_mem mem;
    int console;             /* read end of the QEMU's stdout and stderr */
    int log;                 /* where console bytes go now: the run's node log, or -1 */
    char *pending;           /* console bytes read while no run had the node */
    size_t npending;
    unsigned long long logged, log_max;   /* console bytes in its log this run, and the cap */
    unsigned long long dropped;           /* console bytes past the cap, read and not kept */
    char *key;
    int reusable;            /* kept for the next run (kept pool, no gdbstub, @QMP@ and @RAM@) */
    uint8_t *ram;            /* its RAM, mapped read-only (@RAM@), or NULL */
    size_t ram_bytes;        /* its size */
    struct pool_image *image;   /* what the pool wrote into it */
    struct qmp qmp;          /* its QEMU's monitor, if reusable */
    int qmp_ready;           /* qmp_capabilities sent: commands may follow */
    int qmp_returns;         /* returns still awaited from it */
    int qmp_reset;           /* 1 once its RESET event came */
    int rank;                /* in the run that has it */
    unsigned long long used; /* when a run last took it, on the pool's clock (takes) */
    void *run;               /* that run, or NULL */
};

struct pool {
    int keep;                /* 1: nodes are reset and kept between runs */
    int epfd;                /* the caller's epoll set: bells, consoles, the socket */
    int listen_fd;           /* the ivshmem socket the QEMUs connect to */
    char sock[108];
    struct pool_node **node; /* by id; NULL in free slots */
    int n;
    unsigned long long started, reused;   /* node starts and warm hand-outs */
    unsigned long long takes;             /* nodes handed to runs: the clock of pool_node.used */
};

/* epoll data of the pool's descriptors: kind << 32 | node id. */
enum { POOL_EV_LISTEN = 1, POOL_EV_BELL, POOL_EV_CONSOLE };
#define POOL_EV(kind, id) ((unsigned long long)(kind) << 32 | (unsigned)(id))

/* What a node holds open in the pool's process while it runs: its log,
 * its NIC memory's two eventfds, its console and its ivshmem connection
 * (until that is accepted, its NIC memory's memfd in its place), and a
 * node kept for reuse its QMP socket too (pool_take; 64 nodes counted in
 * /proc/PID/fd). Starting one holds a few more for a moment (its
 * console's other end, its RAM, QMP's other end). */
#define POOL_NODE_FILES 5
#define POOL_KEPT_FILES 1
#define POOL_START_FILES 4

int  pool_init(struct pool *p, int keep, int epfd, char *err, size_t errlen);
/* Kill and reap every node; close and unmap everything. */
void pool_free(struct pool *p);

/* A node for `spec`: an idle one of the same key, else a new QEMU (its
 * console going to log_path from the start). The node is PN_BUSY on
 * return (a new one boots meanwhile). NULL with err set on failure. */
struct pool_node *pool_take(struct pool *p, const struct pool_spec *spec, const char *log_path,
                            char *err, size_t errlen);

/* Idle nodes that could serve `spec`; and killing the idle nodes that
 * could serve none of specs[0..n-1]. */
int pool_idle_like(const struct pool *p, const struct pool_spec *spec);
int pool_trim_unlike(struct pool *p, const struct pool_spec *specs, int n);

/* After a run a kept pool holds at most this many idle nodes, or as many
 * as that run had if more: a sweep's next run is mostly of the same size,
 * and a big machine's nodes do not stay idle through many small runs.
 * The nodes kept are those used last, so the last run's own nodes stay
 * and nodes no run has asked for in longest go first. */
#define POOL_IDLE_MIN 64
/* After a run: reset the nodes given back from it (PN_RESET; see the top
 * of this file), all at once, then trim the idle ones. A node whose QEMU
 * does not answer within POOL_RESET_S is killed. */
#define POOL_RESET_S 10
void pool_after_run(struct pool *p, int run_nodes);

/* Give a node back at the end of its run, its console drained into its
 * log and the log closed. A reusable node of a run that went well is
 * kept, to be reset by pool_after_run; any other is killed and reaped.
 * A log keeps at most the spec's log_max bytes of the console, and ends
 * with a line saying so if more came: returns the bytes left out. */
unsigned long long pool_give_back(struct pool *p, struct pool_node *nd, int ok);

/* The nodes of a run whose logs were cut (pool_give_back returned more
 * than 0), on one host or summed over the node hosts: how many, and the
 * lowest of them (-1: none). */
struct log_cuts {
    int count, first;
};
#define LOG_CUTS_NONE ((struct log_cuts){ 0, -1 })
/* count more cut logs, the lowest of them node */
static inline void log_cuts_add(struct log_cuts *c, int node, int count)
{
    if (count <= 0)
        return;
    c->count += count;
    if (c->first < 0 || node < c->first)
        c->first = node;
}

/* The socket had a connection: hand each QEMU of ours its NIC. */
void pool_on_accept(struct pool *p);
/* Read a node's console into its log (or pending bytes). */
void pool_on_console(struct pool *p, struct pool_node *nd);
/* A QEMU of ours ended: the node of a run (its pid now -1), or NULL if
 * not ours or in no run (then it is freed). */
struct pool_node *pool_on_child(struct pool *p, pid_t pid);
/* A node no run has rang: one that faulted while it waited for a run is
 * killed. */
void pool_on_idle_bell(struct pool *p, struct pool_node *nd);
/* 1 once the node's QEMU has its NIC and the node has booted (its status's
 * hello is set): what it holds then stays until its run. */
int pool_node_booted(const struct pool_node *nd);
/* Idle nodes, all keys; and the memory they hold that ending them would
 * free: each QEMU's private resident pages (its own heap, RssAnon of
 * /proc/PID/status, less the pages the kernel's samepage merging shares
 * with other processes: ksm_merging_pages) and page tables (VmPTE), and
 * the pages of its RAM
 * and NIC memory in use (memfds the pool shares with the node, so not in
 * RssAnon). */
int pool_idle(const struct pool *p);
unsigned long long pool_idle_bytes(const struct pool *p);

#endif
