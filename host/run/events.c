/* A run's events, as the router serves its nodes: their doorbells,
 * faults and ends, the node hosts' messages (host/relay/link.h), the tick
 * that finds lost doorbells and hangs, the signals, and the event loop
 * (run_loop) until the run is done; then the nodes go back to the pool
 * (stop_nodes). */
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
#include <sys/socket.h>
#include <sys/wait.h>
#include "run.h"
#include "../show.h"
#include "../host_clock.h"
#include "../relay/link.h"

#define EXIT_GRACE_S 10.0

void run_notify(void *ctx, int rank)
{
    struct run *rn = ctx;
    uint64_t one = 1;
    rn->out.interrupts++;
    if (rn->rem && rn->rem[rank].mirror) {
        struct remote *x = &rn->rem[rank];
        size_t len;
        uint8_t *b = relay_notify(x->mirror, &x->l, &x->shown, &len);
        if (!b || link_send(x->host, LINK_NOTIFY, (uint32_t)rank, 0, b, len))
            fprintf(stderr, "wormsim: out of memory relaying an answer to node %d\n", rank);
        free(b);
        return;
    }
    if (write(rn->nd[rank]->mem.irq_fd, &one, sizeof one) < 0 && errno != EAGAIN)
        perror("wormsim: interrupt");
}

void run_fail(struct run *rn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void run_fail(struct run *rn, const char *fmt, ...)
{
    if (!rn->out.error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rn->out.error, sizeof rn->out.error, fmt, ap);
        va_end(ap);
    }
    rn->out.ok = 0;
    rn->done = 1;
}

/* The last line of node i's log if it is the MPI library's word on why
 * the node ended ("MPI error: rank R: CALL: CLASS: ...", "MPI_Abort: rank
 * R: ..."; apps/mpi/env.c), as a message shows node text; else "". */
static void mpi_last_word(const struct run *rn, int i, char *out, size_t len)
{
    char path[1100], tail[1024];
    out[0] = 0;
    snprintf(path, sizeof path, "%s/node-%03d.log", rn->dir, i);
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    long at = fseek(f, 0, SEEK_END) ? 0 : ftell(f) - (long)(sizeof tail - 1);
    fseek(f, at > 0 ? at : 0, SEEK_SET);
    size_t n = fread(tail, 1, sizeof tail - 1, f);
    fclose(f);
    while (n && (tail[n - 1] == '\n' || tail[n - 1] == '\r'))
        n--;
    tail[n] = 0;
    char *line = strrchr(tail, '\n');
    line = line ? line + 1 : tail;
    if (strncmp(line, "MPI error: ", 11) && strncmp(line, "MPI_Abort: ", 11))
        return;
    size_t k = show_bytes(out, line, strlen(line) < len - 3 ? strlen(line) : len - 3, 0);
    out[k] = 0;
}

/* The run fails for node i's nonzero exit status. */
void run_fail_exit(struct run *rn, int i)
{
    char word[SHOW_MAX + 4];
    mpi_last_word(rn, i, word, sizeof word);
    run_fail(rn, "node %d exited with status %d%s%s; see node-%03d.log", i, rn->r.nodes[i].exit_code,
         word[0] ? ": " : "", word, i);
}

/* A node reported a fault in its status block. The node writes the
 * fault, then its state (netdev/nic.c, nic_fault), and may go on writing:
 * the block is read once, after the state, and the run's message and
 * summary.json's fault say what that read found. */
static int check_fault(struct run *rn, int rank)
{
    uint8_t *map = rn->rem && rn->rem[rank].mirror ? rn->rem[rank].mirror : rn->nd[rank]->mem.map;
    if (((volatile struct nic_status *)(map + NIC_STATUS_OFF))->state != NIC_STATE_FAULT)
        return 0;
    __sync_synchronize();
    struct nic_status st;
    memcpy(&st, map + NIC_STATUS_OFF, sizeof st);
#define KIND_NAME(name, value, text) [value] = text,
    static const char *const kinds[NIC_FAULT_COUNT] = { NIC_FAULT_KINDS(KIND_NAME) };
#undef KIND_NAME
    char unknown[80] = "";
    if (st.fault_kind >= NIC_FAULT_COUNT)
        snprintf(unknown, sizeof unknown, " of unknown kind %u (the kinds are 0..%d)", st.fault_kind,
                 NIC_FAULT_COUNT - 1);
    rn->out.fault = (struct node_fault){ rank, unknown[0] ? "fault" : kinds[st.fault_kind], st.fault_pc,
                                         st.fault_addr };
    engine_node_failed(&rn->r, rank);
    run_fail(rn, "node %d: %s%s at pc 0x%08x (address 0x%08x); see node-%03d.log",
         rank, rn->out.fault.kind, unknown, st.fault_pc, st.fault_addr, rank);
    return 1;
}

/* A node its pool keeps is done with the run once it posted EXIT: it
 * waits for the pool to reset it (host/launch/pool.h). A node of one run is done
 * when its QEMU ends (node_ended). */
static void check_back(struct run *rn, int rank)
{
    if (!rn->back[rank] && rn->nd[rank] && rn->nd[rank]->reusable && rn->r.nodes[rank].state == NODE_EXITED)
        rn->back[rank] = 1;
}

/* The rings a local node's wake-up that brought nothing stands for
 * (on_bell). Its eventfd is read only then: a wake-up that brings
 * descriptors leaves the count unread, so the first read after one holds
 * that wake-up's rings as well and counts as one ring (an undercount,
 * never a storm made up). A descriptor of the node's restarts its count
 * (take_descriptors: empty_bells 0, whether a wake-up or on_timer's look
 * took it), so a count of 0 stands for that first read. Every ring read
 * goes to summary.json's count. */
static unsigned long long empty_rings(struct run *rn, int rank)
{
    uint64_t v = nic_mem_rings(&rn->nd[rank]->mem);
    rn->out.doorbells += v;
    return rn->empty_bells[rank] ? v : 1;
}

/* Node rank's new descriptors, taken; whether there were any (none when
 * the run failed on one). Any restarts its count of empty rings. */
static int take_descriptors(struct run *rn, int rank)
{
    uint32_t cons = rn->r.nodes[rank].cons;
    if (engine_node_poll(&rn->r, rank) < 0) {
        run_fail(rn, "%s", rn->r.error);
        return 0;
    }
    check_back(rn, rank);
    if (rn->r.nodes[rank].cons == cons)
        return 0;
    rn->empty_bells[rank] = 0;
    return 1;
}

/* A doorbell: the node has posted descriptors. The bell's eventfd is
 * watched edge-triggered and not read when the wake-up brings
 * descriptors: the rings say what there is to do, so the count carries
 * nothing the run needs then (stop_nodes reads the rest for
 * summary.json). This saves two system calls a doorbell (the read and
 * the read that finds it empty). One wake-up may stand for many rings
 * (epoll reports the writes since its last wait as one event, fewer of
 * them the busier the host), so a wake-up that brings nothing is counted
 * by its rings, read from the eventfd, and a doorbell storm is named
 * whatever the host's load. `rings`: a remote node's empty rings as its
 * node host counted them (node_host.c; 1 for a relay that brought
 * something). */
static void on_bell(struct run *rn, int rank, unsigned rings)
{
    if (check_fault(rn, rank))
        return;
    if (engine_node_hello(&rn->r, rank)) {
        rn->last_progress = now_s();
        run_notify(rn, rank);
    }
    if (!take_descriptors(rn, rank))
        rn->empty_bells[rank] += rn->nd[rank] ? empty_rings(rn, rank) : rings;
}

/* The node whose doorbells brought nothing most often since its last
 * descriptor, if that is a storm (DOORBELL_STORM of them), else -1. */
#define DOORBELL_STORM 1000
static int doorbell_storm(const struct run *rn)
{
    int w = -1;
    for (int i = 0; i < rn->m.nodes; i++)
        if (rn->empty_bells[i] >= DOORBELL_STORM && (w < 0 || rn->empty_bells[i] > rn->empty_bells[w]))
            w = i;
    return w;
}

/* A node's QEMU ended (wait status `status`), on this host or, with
 * `where` its name, on another. */
static void node_ended(struct run *rn, int rank, int status, const char *where)
{
    rn->back[rank] = 1;
    rn->last_progress = now_s();
    if (check_fault(rn, rank))
        return;
    if (engine_node_poll(&rn->r, rank) < 0) {   /* its last descriptors, EXIT among them */
        run_fail(rn, "%s", rn->r.error);
        return;
    }
    if (rn->r.nodes[rank].state == NODE_EXITED)
        return;
    engine_node_failed(&rn->r, rank);
    char on[300] = "";
    if (where)
        snprintf(on, sizeof on, " on host %s", where);
    /* the node under gdb: its QEMU ends when gdb kills it */
    const char *gdb = rank == rn->gdb_node ? " (gdb's kill ends the QEMU of the node under gdb; detach lets the "
                                             "node run on)" : "";
    if (WIFEXITED(status))
        run_fail(rn, "node %d: its QEMU%s exited with status %d before the node finished%s; see node-%03d.log",
             rank, on, WEXITSTATUS(status), gdb, rank);
    else
        run_fail(rn, "node %d: its QEMU%s was killed by signal %d before the node finished%s; see node-%03d.log",
             rank, on, WTERMSIG(status), gdb, rank);
}

static void on_child(struct run *rn)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        struct pool_node *nd = pool_on_child(&rn->h->pool, pid);
        if (nd && nd->run == rn)
            node_ended(rn, nd->rank, status, NULL);
    }
}

/* The messages of the node hosts (host/relay/link.h). */
static void on_link(struct run *rn)
{
    int from;
    struct link_hdr h;
    uint8_t *body;
    while (link_recv(&from, &h, &body)) {
        struct remote *x = rn->rem && h.node < (uint32_t)rn->m.nodes ? &rn->rem[h.node] : NULL;
        char err[256];
        switch (h.type) {
        case LINK_BELL:
            if (!x || !x->mirror || x->host != from)
                run_fail(rn, "host rank %d relayed node %u, which it does not serve", from, h.node);
            else if (relay_apply_bell(x->mirror, &x->l, body, h.len, err, sizeof err))
                run_fail(rn, "node %u on host rank %d: %s", h.node, from, err);
            else if (!rn->done && !rn->back[h.node]) {
                unsigned rings = h.value > 1 ? (unsigned)h.value : 1;   /* link.h */
                rn->out.doorbells += rings;
                on_bell(rn, (int)h.node, rings);
            }
            break;
        case LINK_DIED:
            if (x && x->mirror && !rn->back[h.node]) {
                char where[300];
                snprintf(where, sizeof where, "%s (rank %d)", link_host_of(from), from);
                node_ended(rn, (int)h.node, h.value, where);
            }
            break;
        case LINK_ERROR:
            run_fail(rn, "%.*s", (int)h.len, (const char *)body);
            break;
        case LINK_DONE:
            rn->hosts_done++;
            if (h.node < (uint32_t)rn->m.nodes)
                log_cuts_add(&rn->cuts, (int)h.node, h.value);
            break;
        case LINK_GDB:
            if (h.node != (uint32_t)rn->gdb_node || gdb_announce(rn, h.value, link_host_of(from)))
                run_fail(rn, "host rank %d: a gdbstub for node %u that the run did not ask for", from, h.node);
            break;
        default:
            run_fail(rn, "host rank %d sent a message of unknown type %u", from, h.type);
        }
        free(body);
    }
}

/* Progress since last looked (r.progress moved): the run is alive at t. */
static void take_progress(struct run *rn, double t)
{
    if (rn->r.progress != rn->progress_seen) {
        rn->progress_seen = rn->r.progress;
        rn->last_progress = t;
    }
}

static void on_timer(struct run *rn)
{
    uint64_t v;
    if (read(rn->h->timerfd, &v, sizeof v) < 0)
        return;
    /* Answer nodes that said hello but whose doorbell QEMU dropped, and
     * read every ring in case a doorbell was lost. */
    for (int i = 0; i < rn->m.nodes && !rn->done; i++) {
        if (rn->r.nodes[i].state == NODE_BOOT) {
            if (engine_node_hello(&rn->r, i))
                run_notify(rn, i);
        } else {
            take_descriptors(rn, i);
        }
    }
    if (rn->gdb_node >= 0)
        return;                      /* a person is at the controls */
    double t = now_s();
    if (t - rn->t0 > rn->timeout_s) {
        run_fail(rn, "the run exceeded its wall-clock limit of %.0f s (--timeout)", rn->timeout_s);
        return;
    }
    int running = 0, booting = 0;
    for (int i = 0; i < rn->m.nodes; i++) {
        running += rn->r.nodes[i].state == NODE_RUNNING;
        booting += rn->r.nodes[i].state == NODE_BOOT;
    }
    /* A doorbell with nothing new is no progress: only descriptors
     * consumed, answers given and network runs (r.progress) are. The
     * router may have just spent longer than hang_s in the network engine
     * (one call, no timer in between): that is the run moving, not the
     * nodes hanging, so the count is read here too. */
    take_progress(rn, t);
    int storm = doorbell_storm(rn);
    if (running && !booting && t - rn->last_progress > rn->hang_s && storm >= 0)
        run_fail(rn, "node %d rang its doorbell %llu times with nothing posted: a doorbell storm, and no node used "
             "its NIC for %.0f s (--hang-timeout)", storm, rn->empty_bells[storm], rn->hang_s);
    else if (running && !booting && t - rn->last_progress > rn->hang_s)
        run_fail(rn, "no node used its NIC for %.0f s: the running nodes look hung (--hang-timeout)", rn->hang_s);
    /* EXIT is a node's last act: its QEMU must stop right after. It gets
     * --hang-timeout, and at least EXIT_GRACE_S on a loaded host. */
    if (rn->all_exited_at > 0 && t - rn->all_exited_at > (rn->hang_s > EXIT_GRACE_S ? rn->hang_s : EXIT_GRACE_S))
        for (int i = 0; i < rn->m.nodes && !rn->done; i++)
            if (!rn->back[i])
                run_fail(rn, "node %d posted EXIT %.0f s ago but its QEMU did not end: a node of one run must "
                     "reset its board after EXIT (--hang-timeout); see node-%03d.log", i, t - rn->all_exited_at, i);
}

/* Every node goes back to the pool: kept warm after a run that went well
 * (it posted EXIT), killed and reaped otherwise. Its rings during the
 * run are counted first. */
static void stop_node_hosts(struct run *rn);
void stop_nodes(struct run *rn)
{
    rn->cuts = LOG_CUTS_NONE;
    for (int i = 0; i < rn->m.nodes; i++)
        if (rn->nd[i]) {
            rn->out.doorbells += nic_mem_rings(&rn->nd[i]->mem);
            log_cuts_add(&rn->cuts, i, pool_give_back(&rn->h->pool, rn->nd[i], rn->out.ok && rn->back[i]) > 0);
            rn->nd[i] = NULL;
        }
    stop_node_hosts(rn);
    if (rn->cuts.count)
        printf("wormsim: %d node%s wrote more than --log-max (%llu bytes) to the console, node %d first; "
               "each log keeps the first bytes and says how many more came (node-%03d.log)\n",
               rn->cuts.count, rn->cuts.count > 1 ? "s" : "", rn->log_max, rn->cuts.first, rn->cuts.first);
}

/* The node hosts stop theirs and answer DONE, with their nodes whose
 * logs were cut; their node logs are complete then. */
static void stop_node_hosts(struct run *rn)
{
    if (!rn->rem)
        return;
    /* The node hosts stop theirs and answer DONE; their node logs are
     * complete then. A host that does not answer is ended with the job. */
    for (int k = 1; k < link_size(); k++)
        link_send(k, LINK_END, 0, 0, NULL, 0);
    double t = now_s();
    /* Interrupted, mpirun is ending the job: a rank may be gone, and the
     * summary must be written before mpirun kills this one. */
    while (!rn->out.interrupted && rn->hosts_done < link_size() - 1 && now_s() - t < EXIT_GRACE_S) {
        on_link(rn);
        usleep(1000);
    }
    if (!rn->out.interrupted && rn->hosts_done < link_size() - 1)
        run_fail(rn, "%d of %d node hosts did not stop their nodes within %.0f s", link_size() - 1 - rn->hosts_done,
             link_size() - 1, EXIT_GRACE_S);
    for (int i = 0; i < rn->m.nodes; i++)
        free(rn->rem[i].mirror);
    free(rn->rem);
    rn->rem = NULL;
}

static int all_back(const struct run *rn)
{
    for (int i = 0; i < rn->m.nodes; i++)
        if (!rn->back[i])
            return 0;
    return 1;
}

/* The run ends by signal sig: one of the run tool's own, which ends a
 * server too, or one a pool's client passed on (by_client). `when` ends
 * the message. */
void end_by_signal(struct run *rn, int sig, int by_client, const char *when)
{
    rn->out.interrupted = sig;
    if (!by_client)
        rn->h->stop = sig;
    run_fail(rn, "interrupted by signal %d (%s)%s", sig, strsignal(sig), when);
}

/* A signal for the event loop: SIGCHLD reaps, the others end the run (and
 * a server). Returns the signal that ends, or 0. */
int on_signals(struct host *h, struct run *rn)
{
    struct signalfd_siginfo si;
    int end = 0;
    while (read(h->sigfd, &si, sizeof si) == sizeof si) {
        if (si.ssi_signo == SIGCHLD) {
            if (rn) {
                on_child(rn);
            } else {
                pid_t pid;
                while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
                    pool_on_child(&h->pool, pid);
            }
        } else {
            end = (int)si.ssi_signo;
        }
    }
    return end;
}

/* The events no run has: the pool's socket, idle nodes, consoles. */
void on_pool_event(struct host *h, uint32_t kind, uint32_t id)
{
    struct pool_node *nd = (int)id < h->pool.n ? h->pool.node[id] : NULL;
    switch (kind) {
    case POOL_EV_LISTEN: pool_on_accept(&h->pool); break;
    case POOL_EV_BELL: if (nd) pool_on_idle_bell(&h->pool, nd); break;
    case POOL_EV_CONSOLE: if (nd) pool_on_console(&h->pool, nd); break;
    }
}

void run_loop(struct run *rn)
{
    struct host *h = rn->h;
    struct epoll_event ev[64];
    int quiet = 0;
    while (!rn->done) {
        /* MPI has no descriptor to wait on: with node hosts, the loop
         * looks at the link after every wait and waits at most 1 ms
         * once it has been quiet for a while. */
        int k = epoll_wait(h->epfd, ev, 64, !rn->rem ? -1 : quiet > 8 ? 1 : 0);
        if (rn->rem) {
            uint64_t before = rn->r.progress;
            on_link(rn);
            quiet = k > 0 || rn->r.progress != before ? 0 : quiet + 1;
        }
        if (k < 0 && errno != EINTR) {
            run_fail(rn, "router: epoll: %s", strerror(errno));
            break;
        }
        for (int i = 0; i < k && !rn->done; i++) {
            uint32_t kind = (uint32_t)(ev[i].data.u64 >> 32), id = (uint32_t)ev[i].data.u64;
            struct pool_node *nd = (int)id < h->pool.n ? h->pool.node[id] : NULL;
            switch (kind) {
            case POOL_EV_BELL:
                if (nd && nd->run == rn)
                    on_bell(rn, nd->rank, 1);
                else
                    on_pool_event(h, kind, id);
                break;
            case EV_TIMER: on_timer(rn); break;
            case EV_CLIENT: {
                unsigned char sig = 0;
                ssize_t got = recv(h->client, &sig, 1, MSG_DONTWAIT);
                if (got == 0 || (got < 0 && errno != EAGAIN)) {
                    rn->out.interrupted = SIGHUP;
                    run_fail(rn, "the client of this run went away (wormsim --pool)");
                } else if (got == 1) {
                    end_by_signal(rn, sig, 1, "");
                }
                break;
            }
            case EV_SIG: {
                int sig = on_signals(h, rn);
                if (sig)
                    end_by_signal(rn, sig, 0, "");
                break;
            }
            default: on_pool_event(h, kind, id); break;
            }
        }
        take_progress(rn, now_s());
        if (rn->done)
            break;
        if (engine_all_exited(&rn->r)) {
            if (all_back(rn))
                break;
            if (!rn->all_exited_at)
                rn->all_exited_at = now_s();
        } else if (engine_deadlocked(&rn->r)) {
            char why[400];
            /* the others wait for a node that ended in failure: that is the news */
            for (int i = 0; i < rn->m.nodes && !rn->done; i++)
                if (rn->r.nodes[i].state == NODE_EXITED && rn->r.nodes[i].exit_code != 0)
                    run_fail_exit(rn, i);
            engine_wait_detail(&rn->r, why, sizeof why);
            if (why[0])
                run_fail(rn, "deadlock: every unfinished node waits and nothing is in flight: %s", why);
            else
                run_fail(rn, "deadlock: every unfinished node waits for a message and none is in flight");
        }
    }
}
