/* wormsim: run a program on an emulated wormhole-routed multicomputer.
 *
 * Takes one QEMU per node from a node pool (host/launch/pool.c), serves each
 * node's NIC (ivshmem-doorbell) as the router, and writes the run's
 * results into its own run directory. Alone, the pool is the run's own
 * and its nodes end with it; with --serve NAME the pool outlives runs,
 * which wormsim --pool NAME hands it (host/launch/serve.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stdarg.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include "machine.h"
#include "show.h"
#include "host_clock.h"
#include "engine/engine.h"
#include "launch/ivshmem.h"
#include "launch/launch.h"
#include "launch/merge.h"
#include "out/results.h"
#include "params.h"
#include "launch/arch.h"
#include "out/trace.h"
#include "launch/pool.h"
#include "launch/serve.h"
#include "relay/link.h"
#include "relay/relay.h"
#include "relay/node_host.h"
#include "relay/same_run.h"
#include "launch/app_mem.h"
#include "out/replay.h"
#include "files.h"
#include "run/run.h"

/* epoll kinds beyond the pool's (POOL_EV_*) */
enum { EV_SIG = 16, EV_TIMER, EV_CLIENT, EV_SERVE };

#define EXIT_GRACE_S 10.0

/* Every rank of an MPI job reaches link_agree once (run_main's options
 * checked, or main's if run_main returned before). */
static int agreed;
static int agree(int ok);
static int gdb_announce(struct run *rn, int port, const char *host);
static int node_host_main(struct run *rn);

/* runs/<date>-<time>-<app>-<topo><dims>, never reusing a name. */
static int make_run_dir(struct run *rn)
{
    char dims[64], stamp[32];
    machine_dims_str(&rn->m, dims, sizeof dims);
    time_t t = time(NULL);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime(&t));
    mkdir(rn->runs_dir, 0755);
    for (int k = 1; k < 1000; k++) {
        if (k == 1)
            snprintf(rn->dir, sizeof rn->dir, "%s/%s-%s-%s%s", rn->runs_dir, stamp, rn->app,
                     topo_names[rn->m.topo], dims);
        else
            snprintf(rn->dir, sizeof rn->dir, "%s/%s-%s-%s%s-%d", rn->runs_dir, stamp, rn->app,
                     topo_names[rn->m.topo], dims, k);
        if (mkdir(rn->dir, 0755) == 0) {
            char tmp[1100], link[1100];
            snprintf(tmp, sizeof tmp, "%s/.latest-%d", rn->runs_dir, (int)getpid());
            snprintf(link, sizeof link, "%s/latest", rn->runs_dir);
            unlink(tmp);
            if (symlink(strrchr(rn->dir, '/') + 1, tmp) == 0)
                rename(tmp, link);
            return 0;
        }
        if (errno != EEXIST)
            break;
    }
    fprintf(stderr, "wormsim: cannot create a run directory under %s: %m\n", rn->runs_dir);
    return -1;
}

static void notify(void *ctx, int rank)
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

static int free_tcp_port(void)
{
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t l = sizeof a;
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) || getsockname(s, (struct sockaddr *)&a, &l)) {
        if (s >= 0) close(s);
        return -1;
    }
    close(s);
    return ntohs(a.sin_port);
}

static void fail(struct run *rn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct run *rn, const char *fmt, ...)
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
static void fail_exit(struct run *rn, int i)
{
    char word[SHOW_MAX + 4];
    mpi_last_word(rn, i, word, sizeof word);
    fail(rn, "node %d exited with status %d%s%s; see node-%03d.log", i, rn->r.nodes[i].exit_code,
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
    fail(rn, "node %d: %s%s at pc 0x%08x (address 0x%08x); see node-%03d.log",
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
        fail(rn, "%s", rn->r.error);
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
        notify(rn, rank);
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
        fail(rn, "%s", rn->r.error);
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
        fail(rn, "node %d: its QEMU%s exited with status %d before the node finished%s; see node-%03d.log",
             rank, on, WEXITSTATUS(status), gdb, rank);
    else
        fail(rn, "node %d: its QEMU%s was killed by signal %d before the node finished%s; see node-%03d.log",
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
                fail(rn, "host rank %d relayed node %u, which it does not serve", from, h.node);
            else if (relay_apply_bell(x->mirror, &x->l, body, h.len, err, sizeof err))
                fail(rn, "node %u on host rank %d: %s", h.node, from, err);
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
            fail(rn, "%.*s", (int)h.len, (const char *)body);
            break;
        case LINK_DONE:
            rn->hosts_done++;
            if (h.node < (uint32_t)rn->m.nodes)
                log_cuts_add(&rn->cuts, (int)h.node, h.value);
            break;
        case LINK_GDB:
            if (h.node != (uint32_t)rn->gdb_node || gdb_announce(rn, h.value, link_host_of(from)))
                fail(rn, "host rank %d: a gdbstub for node %u that the run did not ask for", from, h.node);
            break;
        default:
            fail(rn, "host rank %d sent a message of unknown type %u", from, h.type);
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
                notify(rn, i);
        } else {
            take_descriptors(rn, i);
        }
    }
    if (rn->gdb_node >= 0)
        return;                      /* a person is at the controls */
    double t = now_s();
    if (t - rn->t0 > rn->timeout_s) {
        fail(rn, "the run exceeded its wall-clock limit of %.0f s (--timeout)", rn->timeout_s);
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
        fail(rn, "node %d rang its doorbell %llu times with nothing posted: a doorbell storm, and no node used "
             "its NIC for %.0f s (--hang-timeout)", storm, rn->empty_bells[storm], rn->hang_s);
    else if (running && !booting && t - rn->last_progress > rn->hang_s)
        fail(rn, "no node used its NIC for %.0f s: the running nodes look hung (--hang-timeout)", rn->hang_s);
    /* EXIT is a node's last act: its QEMU must stop right after. It gets
     * --hang-timeout, and at least EXIT_GRACE_S on a loaded host. */
    if (rn->all_exited_at > 0 && t - rn->all_exited_at > (rn->hang_s > EXIT_GRACE_S ? rn->hang_s : EXIT_GRACE_S))
        for (int i = 0; i < rn->m.nodes && !rn->done; i++)
            if (!rn->back[i])
                fail(rn, "node %d posted EXIT %.0f s ago but its QEMU did not end: a node of one run must "
                     "reset its board after EXIT (--hang-timeout); see node-%03d.log", i, t - rn->all_exited_at, i);
}

/* Every node goes back to the pool: kept warm after a run that went well
 * (it posted EXIT), killed and reaped otherwise. Its rings during the
 * run are counted first. */
static void stop_node_hosts(struct run *rn);
static void stop_nodes(struct run *rn)
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
        fail(rn, "%d of %d node hosts did not stop their nodes within %.0f s", link_size() - 1 - rn->hosts_done,
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

static int ep_add(int ep, int fd, uint32_t kind, uint32_t id)
{
    struct epoll_event e = { .events = EPOLLIN, .data.u64 = POOL_EV(kind, id) };
    return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
}

/* The signals the event loop reads (signalfd). main() blocks them first
 * thing, so one that comes while the run is being set up waits for the
 * loop and ends the run with its summary, instead of killing it without
 * one or, when a shell started the run in the background with SIGINT
 * ignored, being discarded: a blocked signal is kept whatever its
 * disposition. */
static sigset_t run_signals(void)
{
    sigset_t ss;
    sigemptyset(&ss);
    sigaddset(&ss, SIGINT);
    sigaddset(&ss, SIGTERM);
    sigaddset(&ss, SIGHUP);
    sigaddset(&ss, SIGCHLD);
    return ss;
}

/* The gdb file of the run (tests/gdb-attach.sh reads it) and the lines
 * that tell the user: the node with the gdbstub listens on port of this
 * host, or of host `host` (a node host's, host/relay/link.h). */
static int gdb_announce(struct run *rn, int port, const char *host)
{
    char path[1100], tmp[1100];
    snprintf(path, sizeof path, "%s/gdb", rn->dir);
    snprintf(tmp, sizeof tmp, "%s/gdb.new", rn->dir);       /* renamed when whole: make gdb may wait for it */
    FILE *f = fopen(tmp, "w");
    int a = rn->arch[rn->gdb_node];
    char *kernel = realpath(rn->kernel[a], NULL);
    if (!f || !kernel) {
        fprintf(stderr, "wormsim: cannot set up the gdbstub: %m\n");
        if (f)
            fclose(f);
        free(kernel);
        return -1;
    }
    fprintf(f, "node %d\nport %d\nkernel %s\narch %s\n", rn->gdb_node, port, kernel, arch_names[a]);
    if (host)
        fprintf(f, "host %s\n", host);
    free(kernel);
    if (file_close_written(f) || rename(tmp, path)) {
        fprintf(stderr, "wormsim: cannot write %s: %m\n", path);
        unlink(tmp);
        return -1;
    }
    printf("wormsim: node %d is halted with its gdbstub on %s%s%s127.0.0.1:%d\n"
           "wormsim: attach with: make gdb NODE=%d RUN=%s   (the rest of the machine waits for it)\n",
           rn->gdb_node, host ? "host " : "", host ? host : "", host ? ", " : "", port, rn->gdb_node, rn->dir);
    fflush(stdout);
    return 0;
}

/* The pool's description of the run's nodes of ISA a (its key by
 * pool_spec_key, once the ISA is known to be wanted). */
static struct pool_spec spec_of(const struct run *rn, int a)
{
    return (struct pool_spec){ &rn->tpl[a], rn->kernel[a], a, rn->p.nic_mem, rn->p.ram_mib, 0, NULL, rn->image[a],
                               rn->merge_pages, rn->log_max };
}

/* What run_main loaded for the nodes: the QEMU templates, the node images
 * and the ISAs. */
static void run_free_inputs(struct run *rn)
{
    for (int a = 0; a < ARCH_COUNT; a++) {
        if (rn->tpl[a].argc)
            template_free(&rn->tpl[a]);
        pool_image_unref(rn->image[a]);
        rn->image[a] = NULL;
    }
    free(rn->arch);
}

static int on_signals(struct host *h, struct run *rn);

/* The run ends by signal sig: one of the run tool's own, which ends a
 * server too, or one a pool's client passed on (by_client). `when` ends
 * the message. */
static void end_by_signal(struct run *rn, int sig, int by_client, const char *when)
{
    rn->out.interrupted = sig;
    if (!by_client)
        rn->h->stop = sig;
    fail(rn, "interrupted by signal %d (%s)%s", sig, strsignal(sig), when);
}

/* A signal to the run tool, or from a pool's client, while the nodes are
 * being started: the run ends (its summary says so) before any more start. */
static int stopped_while_starting(struct run *rn)
{
    struct host *h = rn->h;
    struct pollfd p[2] = { { h->sigfd, POLLIN, 0 }, { h->client, POLLIN, 0 } };
    if (poll(p, h->client >= 0 ? 2 : 1, 0) <= 0)
        return 0;
    int sig = p[0].revents ? on_signals(h, rn) : 0, by_client = 0;
    unsigned char passed;
    if (!sig && h->client >= 0 && p[1].revents && recv(h->client, &passed, 1, MSG_DONTWAIT) == 1)
        sig = passed, by_client = 1;
    if (sig)
        end_by_signal(rn, sig, by_client, " while its nodes were starting");
    return sig != 0;
}

/* With --merge-pages nodes start at full speed while the host could hold
 * every node still to start and every one booting whole (unmerged:
 * arch_node_kib) and MERGE_SLACK_MIB. Past that, a node starts only while
 * fewer than MERGE_BOOTING nodes are booting and the host has available
 * what the nodes still to start need once merged (node_bytes), what each
 * node booting and this one hold beyond that until ksmd has merged them
 * (arch_node_kib less arch_merged_kib), what each node started still
 * takes when the run runs (its app's buffers, the merged pages it writes
 * again and the kernel's record of its scanned pages: MERGE_GROWTH_KIB,
 * about 0.45 and 0.25 MiB measured), and MERGE_SLACK_MIB, which the memory
 * check also keeps (check_memory). ksmd merges a QEMU's pages seconds
 * after they were written: nodes started faster than it merges would
 * hold their pages whole and exhaust the host; the wait ends in an
 * error, saying which of the two it waited for, once neither the
 * available memory grew nor a node finished booting for MERGE_WAIT_S
 * seconds and MERGE_PASSES passes of ksmd (a pass over 4,096 nodes' pages
 * takes longer than MERGE_WAIT_S), or for MERGE_WAIT_MAX_S seconds
 * whatever ksmd did (it may have stopped). wait_for_merging returns 1 if the run
 * ended while it waited (a signal, a node that failed), -1 if it failed
 * so, else 0; a node host asks merge_pace_look between its events. */
#define MERGE_BOOTING 16
#define MERGE_GROWTH_KIB 1024
#define MERGE_WAIT_S 30
#define MERGE_PASSES 2
#define MERGE_WAIT_MAX_S 300
#define MERGE_POLL_MS 20
static unsigned long long whole_bytes(const struct run *rn, int a)   /* unmerged */
{
    return node_bytes_with(rn, arch_node_kib[a]);
}

/* One look at the host for node i's paced start, the run's nodes being
 * the pool's nodes that `owner` holds (pool_node's run). 0: it may
 * start; 1: not yet; -1: the start stalled, said in err. rn->pace keeps
 * when it last gained. */
static int merge_pace_look(struct run *rn, int i, const void *owner, char *err, size_t errlen)
{
    struct pace_watch *w = &rn->pace;
    struct merge_pace pc = { .slack = (unsigned long long)MERGE_SLACK_MIB << 20, .booting_max = MERGE_BOOTING };
    if (w->node != i + 1)
        *w = (struct pace_watch){ .node = i + 1, .since = now_s(), .scans = merge_full_scans(),
                                  .fewest = rn->m.nodes };
    for (int j = 0; j < rn->m.nodes; j++) {
        if (link_owner(j, rn->m.nodes) != link_rank())
            continue;
        if (j < i) {
            pc.later += rn->need.heap + (MERGE_GROWTH_KIB << 10);
        } else {
            pc.rest_whole += whole_bytes(rn, rn->arch[j]);
            pc.rest_merged += node_bytes(rn, rn->arch[j]);
        }
    }
    pc.rest_merged += whole_bytes(rn, rn->arch[i]) - node_bytes(rn, rn->arch[i]);   /* this one, whole */
    pc.available = mem_available();
    for (int k = 0; k < rn->h->pool.n; k++) {
        const struct pool_node *nd = rn->h->pool.node[k];
        if (nd && nd->run == owner && nd->pid > 0 && !pool_node_booted(nd)) {
            pc.booting++;
            pc.booting_extra += whole_bytes(rn, rn->arch[nd->rank]) - node_bytes(rn, rn->arch[nd->rank]);
        }
    }
    unsigned long long want = 0;
    if (merge_may_start(&pc, &want))
        return 0;
    if (pc.available > w->best + (16ull << 20) || pc.booting < w->fewest) {
        w->best = pc.available > w->best ? pc.available : w->best;
        w->fewest = pc.booting;
        w->since = now_s();
        w->scans = merge_full_scans();
        return 1;
    }
    long long scans = merge_full_scans(), passes = w->scans >= 0 && scans >= 0 ? scans - w->scans : -1;
    double waited = now_s() - w->since;
    if (waited < MERGE_WAIT_S || (waited < MERGE_WAIT_MAX_S && passes >= 0 && passes < MERGE_PASSES))
        return 1;
    if (pc.available >= want)
        snprintf(err, errlen, "node %d: %d nodes started before it were still booting after %.0f s", i, pc.booting,
                 waited);
    else
        snprintf(err, errlen, "node %d: the host kept %llu MiB available for %.0f s and %lld passes of ksmd, less "
                 "than the %llu MiB the nodes still to start and those started need; the kernel's samepage merging "
                 "frees too little (docs/scale.md, Memory per host)", i, pc.available >> 20, waited,
                 passes > 0 ? passes : 0, want >> 20);
    return -1;
}

static int wait_for_merging(struct run *rn, int i)
{
    char err[600];
    for (;;) {
        int r = merge_pace_look(rn, i, rn, err, sizeof err);
        if (r == 0)
            return 0;
        if (r < 0) {
            fail(rn, "%s", err);
            fprintf(stderr, "wormsim: %s\n", rn->out.error);
            return -1;
        }
        poll(NULL, 0, MERGE_POLL_MS);
        pool_on_accept(&rn->h->pool);
        if (stopped_while_starting(rn) || rn->done)
            return 1;
    }
}

/* A node host's pacing (node_host.h): the same look, over the nodes its
 * job holds. */
static int node_host_pace(void *ctx, int node, const void *owner, char *err, size_t errlen)
{
    return merge_pace_look(ctx, node, owner, err, errlen);
}

/* The router, then a node from the pool for every rank: an idle one is
 * configured and let through link-up at once, a new one when it boots. */
static int setup(struct run *rn)
{
    struct host *h = rn->h;
    int n = rn->m.nodes;
    rn->nd = calloc((size_t)n, sizeof *rn->nd);
    rn->back = calloc((size_t)n, 1);
    rn->empty_bells = calloc((size_t)n, sizeof *rn->empty_bells);
    if (link_size() > 1)
        rn->rem = calloc((size_t)n, sizeof *rn->rem);
    if (!rn->nd || !rn->back || !rn->empty_bells || (link_size() > 1 && !rn->rem) ||
        engine_init(&rn->r, &rn->m, &rn->p)) {
        fprintf(stderr, "wormsim: %s\n", rn->nd && rn->back && rn->empty_bells ? rn->r.error : "out of memory");
        return -1;
    }
    rn->r.notify = notify;
    engine_set_held_limit(&rn->r, rn->held_room);
    if (net_set_jump(rn->r.net, rn->jump)) {
        fprintf(stderr, "wormsim: no memory for --check-jump's second network model\n");
        return -1;
    }
    if (rn->want_trace) {
        rn->r.timeline = trace_new();
        trace_links(rn->r.timeline, &rn->r);
    }
    if (getenv("WORMSIM_DESC_LOG") && *getenv("WORMSIM_DESC_LOG") == '1')
        rn->r.desc_log = stderr;
    rn->r.ctx = rn;
    int port = 0;
    if (rn->gdb_node >= 0 && link_owner(rn->gdb_node, n) == link_rank()) {
        port = free_tcp_port();
        if (port <= 0 || gdb_announce(rn, port, NULL))
            return -1;
    }
    /* What each ISA's nodes must be (their key, once), and how many the
     * pool cannot serve warm. Idle nodes are kept until a run needs their
     * memory: those this run cannot use go when the nodes it must start
     * do not fit. */
    struct pool_spec specs[ARCH_COUNT], used[ARCH_COUNT];
    int nused = 0, rc = -1;
    unsigned long long fresh = 0;
    int reused = 0;                          /* idle nodes of the pool this run takes */
    char err[512];
    for (int a = 0; a < ARCH_COUNT; a++) {
        specs[a] = spec_of(rn, a);
        int want = 0;
        for (int i = 0; i < n; i++)
            want += rn->arch[i] == a;
        if (!want)
            continue;
        if (pool_spec_key(&specs[a], err, sizeof err)) {
            fprintf(stderr, "wormsim: %s\n", err);
            goto out;
        }
        used[nused++] = specs[a];
        int idle = pool_idle_like(&h->pool, &specs[a]);
        if (want > idle)
            fresh += (unsigned long long)(want - idle) * node_bytes(rn, a);
        reused += want < idle ? want : idle;
    }
    int own = own_nodes(rn);
    /* the idle nodes this run does not take keep their files open too */
    int others = pool_idle(&h->pool) - reused;
    if ((!rn->mem_limit_mib && fresh > mem_available()) ||
        (own && files_fit(&h->pool, (unsigned long long)own + (unsigned long long)others, err, sizeof err)))
        pool_trim_unlike(&h->pool, used, nused);     /* (this run's own nodes fit: check_files) */
    for (int i = 0; i < n; i++) {
        if (link_owner(i, n) != link_rank()) {
            /* a node of another host: the router works on its mirror */
            struct remote *x = &rn->rem[i];
            x->host = link_owner(i, n);
            x->mirror = calloc(1, rn->p.nic_mem);
            if (!x->mirror) {
                fprintf(stderr, "wormsim: no memory for the mirror of node %d\n", i);
                goto out;
            }
            engine_attach(&rn->r, i, x->mirror, rn->p.nic_mem, rn->app, rn->args);
            if (relay_layout_of(x->mirror, rn->p.nic_mem, &x->l) ||
                link_send(x->host, LINK_CONFIG, (uint32_t)i, 0, x->mirror, NIC_RING_OFF)) {
                fprintf(stderr, "wormsim: cannot configure node %d on host rank %d\n", i, x->host);
                goto out;
            }
            continue;
        }
        /* A signal ends the run now, not after every node has started. */
        if (stopped_while_starting(rn)) {
            rc = 0;
            goto out;
        }
        char log[1100];
        snprintf(log, sizeof log, "%s/node-%03d.log", rn->dir, i);
        struct pool_spec spec = specs[rn->arch[i]];
        int paced = rn->merge_pages && !pool_idle_like(&h->pool, &spec) ? wait_for_merging(rn, i) : 0;
        if (paced) {
            rc = paced < 0 ? -1 : 0;
            goto out;
        }
        spec.gdb_port = i == rn->gdb_node ? port : 0;
        unsigned long long reused = h->pool.reused;
        struct pool_node *nd = pool_take(&h->pool, &spec, log, err, sizeof err);
        if (!nd) {
            fprintf(stderr, "wormsim: node %d: %s\n", i, err);
            goto out;
        }
        nd->run = rn;
        nd->rank = i;
        rn->nd[i] = nd;
        (void)nic_mem_rings(&nd->mem); /* a warm node's rings before this run */
        engine_attach(&rn->r, i, nd->mem.map, nd->mem.size, rn->app, rn->args);
        if (nd->reusable)
            engine_node_waits_after_exit(&rn->r, i);
        if (h->pool.reused != reused) {
            rn->warm++;
            if (engine_node_hello(&rn->r, i))
                notify(rn, i);
        }
    }
    rc = 0;
out:
    for (int a = 0; a < ARCH_COUNT; a++)
        pool_spec_free(&specs[a]);
    return rc;
}

/* A signal for the event loop: SIGCHLD reaps, the others end the run (and
 * a server). Returns the signal that ends, or 0. */
static int on_signals(struct host *h, struct run *rn)
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
static void on_pool_event(struct host *h, uint32_t kind, uint32_t id)
{
    struct pool_node *nd = (int)id < h->pool.n ? h->pool.node[id] : NULL;
    switch (kind) {
    case POOL_EV_LISTEN: pool_on_accept(&h->pool); break;
    case POOL_EV_BELL: if (nd) pool_on_idle_bell(&h->pool, nd); break;
    case POOL_EV_CONSOLE: if (nd) pool_on_console(&h->pool, nd); break;
    }
}

static void loop(struct run *rn)
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
            fail(rn, "router: epoll: %s", strerror(errno));
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
                    fail(rn, "the client of this run went away (wormsim --pool)");
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
                    fail_exit(rn, i);
            engine_wait_detail(&rn->r, why, sizeof why);
            if (why[0])
                fail(rn, "deadlock: every unfinished node waits and nothing is in flight: %s", why);
            else
                fail(rn, "deadlock: every unfinished node waits for a message and none is in flight");
        }
    }
}

/* The run's tick every ns nanoseconds, or none (0). A run, and a node
 * host's share of one, ticks every RUN_TICK_NS: link-up kicks, lost
 * doorbells, hangs (on_timer). */
#define RUN_TICK_NS 5000000
static void run_timer(struct host *h, long ns)
{
    struct itimerspec its = { .it_interval = { 0, ns }, .it_value = { 0, ns } };
    timerfd_settime(h->timerfd, 0, &its, NULL);
}

/* Under MPI, a node host's checks of the options and of its own host go
 * to a buffer (run_main's messages are the router's, and rank 0 prints
 * them), and are printed only if rank 0 found nothing wrong. Every rank
 * calls agree() once: from run_main when all is checked, or from main. */
static char *held_err;
static size_t held_len;
static FILE *held_stream, *real_stderr;

static void hold_errors(void)
{
    if (link_rank() == 0)
        return;
    if (!freopen("/dev/null", "w", stdout))     /* --help and the like: rank 0 prints them */
        perror("wormsim");
    if (!(held_stream = open_memstream(&held_err, &held_len)))
        return;
    real_stderr = stderr;
    stderr = held_stream;
}

static int agree(int ok)
{
    int root_ok;
    agreed = 1;
    int all = link_agree(ok, &root_ok);
    if (held_stream) {
        fclose(held_stream);
        stderr = real_stderr;
        held_stream = NULL;
        if (!ok && root_ok && held_len)
            fprintf(stderr, "wormsim: on host %s (rank %d):\n%s", link_host(), link_rank(), held_err);
        free(held_err);
    }
    return all;
}

/* This rank's run, summed up (relay/same_run.h): options, parameters,
 * and each wanted ISA's node image and QEMU template. */
static void same_note(const struct run *rn, int argc, char **argv, struct same_run *s)
{
    memset(s, 0, sizeof *s);
    same_words(s, SAME_OPTIONS, argv + 1, argc - 1);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        params_write(f, &rn->p, rn->m.all_port);
        fclose(f);
    }
    s->sum[SAME_PARAMS] = fnv1a(FNV_START, text ? text : "", len);
    free(text);
    for (int a = 0; a < ARCH_COUNT; a++) {
        if (!rn->image[a])
            continue;
        const struct node_image *im = &rn->image[a]->im;
        uint64_t h = fnv1a(FNV_START, &im->entry, sizeof im->entry);
        for (int k = 0; k < im->nseg; k++) {
            h = fnv1a(h, &im->seg[k].off, sizeof im->seg[k].off);
            h = fnv1a(h, im->seg[k].bytes, im->seg[k].len);
        }
        s->sum[SAME_IMAGE_ARM + a] = h;
        same_words(s, SAME_TEMPLATE_ARM + a, rn->tpl[a].argv, rn->tpl[a].argc);
    }
}

/* Under MPI, after every rank accepted its options: 1 if every rank's
 * run is rank 0's; else each rank that differs says what, and 0 (on every
 * rank), before any node starts. */
static int same_as_rank0(const struct run *rn, int argc, char **argv)
{
    struct same_run mine, root;
    same_note(rn, argc, argv, &mine);
    root = mine;
    link_bcast(&root, sizeof root);
    int d = same_first_diff(&mine, &root), root_ok;
    if (d == SAME_OPTIONS)
        fprintf(stderr, "wormsim: on host %s (rank %d): its options (%s) differ from rank 0's (%s); every rank "
                "takes the same: mpirun -np K wormsim-mpi OPTIONS\n", link_host(), link_rank(), mine.options,
                root.options);
    else if (d >= 0)
        fprintf(stderr, "wormsim: on host %s (rank %d): its %s differs from rank 0's on host %s; every host "
                "needs the same checkout and build at the same path\n", link_host(), link_rank(),
                same_item_name(d), link_host_of(0));
    return link_agree(d < 0, &root_ok);
}

/* A node host's part of the run (rank > 0 of wormsim-mpi, host/relay/link.h). */
static int node_host_main(struct run *rn)
{
    struct host *h = rn->h;
    struct pool_spec specs[ARCH_COUNT];
    char err[512];
    int rc = 1, port = 0;
    for (int a = 0; a < ARCH_COUNT; a++)
        specs[a] = spec_of(rn, a);
    for (int a = 0; a < ARCH_COUNT; a++)
        if (memchr(rn->arch, a, (size_t)rn->m.nodes) && pool_spec_key(&specs[a], err, sizeof err)) {
            node_host_error("%s", err);
            goto out;
        }
    if (rn->gdb_node >= 0 && link_owner(rn->gdb_node, rn->m.nodes) == link_rank()) {
        if ((port = free_tcp_port()) <= 0) {
            node_host_error("no free TCP port for the gdbstub of node %d", rn->gdb_node);
            goto out;
        }
        link_send(0, LINK_GDB, (uint32_t)rn->gdb_node, port, NULL, 0);
    }
    struct node_host_job j = { &h->pool, h->epfd, h->sigfd, h->timerfd, EV_SIG, EV_TIMER, specs, rn->arch,
                               rn->m.nodes, rn->gdb_node, port, rn->dir,
                               rn->merge_pages ? node_host_pace : NULL, rn };
    run_timer(h, RUN_TICK_NS);
    rc = node_host_run(&j);
    run_timer(h, 0);
out:
    for (int a = 0; a < ARCH_COUNT; a++)
        pool_spec_free(&specs[a]);
    run_free_inputs(rn);
    return rc;
}


/* The run's invocation (host/out/replay.h): its options less the len
 * entries at argv[at], a --gdb a replay left out, so that the command
 * recorded is the one that ran. */
static json_t *invocation(struct run *rn, int argc, char **argv, int at, int len)
{
    int used[ARCH_COUNT];                  /* an image was read for every ISA a node runs */
    for (int a = 0; a < ARCH_COUNT; a++)
        used[a] = rn->image[a] != NULL;
    char **kept = calloc((size_t)argc + 1, sizeof *kept);
    if (!kept)
        return NULL;
    int n = 0;
    for (int i = 0; i < argc; i++)
        if (!len || i < at || i >= at + len)
            kept[n++] = argv[i];
    json_t *inv = replay_invocation(n, kept, rn->kernel, used, ARCH_COUNT, arch_names);
    free(kept);
    return inv;
}


/* A run that has ended: its results, trace and summary written and
 * printed, its nodes' output shown, and all it holds freed. Returns the
 * run tool's exit status. */
static int report_run(struct run *rn)
{
    rn->out.app = rn->app;
    rn->out.args = rn->args;
    rn->out.run_dir = rn->dir;
    rn->out.gdb_node = rn->gdb_node;
    rn->out.arch = rn->arch;
    int *node_rank = NULL;
    const char **rank_host = NULL;
    if (link_size() > 1 && (node_rank = calloc((size_t)rn->m.nodes, sizeof *node_rank)) &&
        (rank_host = calloc((size_t)link_size(), sizeof *rank_host))) {
        for (int i = 0; i < rn->m.nodes; i++)
            node_rank[i] = link_owner(i, rn->m.nodes);
        for (int k = 0; k < link_size(); k++)
            rank_host[k] = link_host_of(k);
        rn->out.node_rank = node_rank;
        rn->out.rank_host = rank_host;
        rn->out.ranks = link_size();
    }
    struct report rep;
    report_build(&rep, &rn->r);
    /* A run whose results are not all written has failed, whatever its
     * nodes did: what the files would have said is printed below. */
    int unwritten = results_write(&rn->r, &rep, &rn->out) != 0;
    if (rn->r.timeline) {
        char tp[1100];
        snprintf(tp, sizeof tp, "%s/trace.json", rn->dir);
        rn->out.trace_written = !trace_write(rn->r.timeline, &rn->r, tp);
        if (!rn->out.trace_written) {
            fprintf(stderr, "wormsim: cannot write %s\n", tp);
            unwritten = 1;
        } else if (trace_lost(rn->r.timeline)) {
            fprintf(stderr, "wormsim: %s lacks %zu events: no memory to keep them\n", tp,
                    trace_lost(rn->r.timeline));
        }
        trace_free(rn->r.timeline);
        rn->r.timeline = NULL;
    }
    if (unwritten && rn->out.ok) {
        rn->out.ok = 0;
        snprintf(rn->out.error, sizeof rn->out.error, "its results could not all be written in %s (a full disk?)",
                 rn->dir);
    }
    results_print(&rn->r, &rep, &rn->out);
    results_print_output(rn->dir, rn->m.nodes, rn->output, rn->out.ok ? stdout : stderr);
    json_decref(rn->out.invocation);
    free(node_rank);
    free(rank_host);
    report_free(&rep);
    if (!rn->out.ok)
        results_print_waiting(&rn->r, stderr, 16);
    if (rn->h->pool.keep)
        printf("node pool       %d of %d nodes warm\n", rn->warm, rn->m.nodes);
    free(rn->nd);
    free(rn->back);
    free(rn->empty_bells);
    engine_free(&rn->r);
    run_free_inputs(rn);
    if (rn->out.interrupted)
        return 128 + rn->out.interrupted;
    return rn->out.ok ? 0 : 1;
}

/* One run: its options, everything that can be checked before a node
 * starts, the run, its report. Returns the exit status. */
static int run_main(struct host *h, int argc, char **argv)
{
    struct run rn = {
        .h = h,
        .app = DEFAULT_APP, .args = "", .runs_dir = DEFAULT_RUNS_DIR, .arch_spec = "arm",
        .kernel = { [ARCH_ARM] = default_kernel[ARCH_ARM], [ARCH_RISCV] = default_kernel[ARCH_RISCV] },
        .template_path = { [ARCH_ARM] = default_template[ARCH_ARM], [ARCH_RISCV] = default_template[ARCH_RISCV] },
        .gdb_node = -1, .jump = NET_JUMP_ON, .log_max = LOG_MAX_DEFAULT,
    };
    enum topo_port port_model;
    params_defaults(&rn.p, &port_model);
    struct cli cl = { .topo = topo_names[DEFAULT_TOPO] };
    cl.set_key = calloc((size_t)argc, sizeof *cl.set_key);
    cl.set_val = calloc((size_t)argc, sizeof *cl.set_val);
    if (!cl.set_key || !cl.set_val) {
        perror("wormsim");
        return 1;
    }
    int rc = parse_options(&rn, &cl, argc, argv);
    if (rc >= 0 || (rc = apply_params(&rn, &cl, &port_model)))
        return rc;
    if (cl.show_params) {            /* what a run of these options would take, as its params.conf */
        params_write(stdout, &rn.p, port_model);
        return 0;
    }
    char err[512];
    if (machine_parse(&rn.m, cl.topo, cl.nodes, cl.dims, err, sizeof err)) {
        fprintf(stderr, "wormsim: %s\n", err);
        return 2;
    }
    rn.m.all_port = port_model;
    if (params_check_net(&rn.p, &rn.m, cl.preset, cl.nset, err, sizeof err)) {   /* before any node starts */
        fprintf(stderr, "wormsim: %s\n", err);
        return 2;
    }
    rn.arch = calloc((size_t)rn.m.nodes, 1);
    if (!rn.arch || arch_parse(rn.arch_spec, rn.m.nodes, rn.arch, err, sizeof err)) {
        fprintf(stderr, "wormsim: %s\n", err);
        return 2;
    }
    if (check_app(&rn) || check_memory(&rn) || check_files(&rn))
        return 2;
    if (cl.gdb && h->unattended) {
        char b[SHOW_LEN];
        printf("replay: the run had node %s under gdb (--gdb); the replay runs it unattended, as no figure "
               "depends on it\n", show(b, cl.gdb, 0));
        cl.gdb = NULL;
    }
    if (cl.gdb) {
        uint32_t g;
        if (parse_u32("GDB (node to debug)", cl.gdb, 0, (uint32_t)rn.m.nodes - 1, &g))
            return 2;
        rn.gdb_node = (int)g;
        /* Under gdb the run has no wall-clock limit (a person is at the
         * controls): a limit given with it would be ignored, so it is refused. */
        if (rn.timeout_s || rn.hang_s) {
            fprintf(stderr, "wormsim: %s with GDB (--gdb): a run with a node under gdb has no wall-clock limit "
                    "(it waits for the node; Ctrl-C ends it); give one or the other\n",
                    rn.timeout_s ? "TIMEOUT (--timeout)" : "--hang-timeout");
            return 2;
        }
    }
    if (strlen(rn.args) >= sizeof ((struct nic_config *)0)->args) {
        fprintf(stderr, "wormsim: ARGS is longer than %zu characters\n", sizeof ((struct nic_config *)0)->args - 1);
        return 2;
    }
    double work = buffer_work_s(&rn);
    if (!rn.timeout_s)
        rn.timeout_s = seconds_capped(60 + rn.m.nodes / 2.0 + work + asked_work_s(&rn));
    if (!rn.hang_s)              /* and every node spinning at once between two NIC uses */
        rn.hang_s = seconds_capped(fmin_s(15 + work + spin_s(&rn, rn.need.spin_gap_ns * rn.m.nodes),
                                          rn.timeout_s));
    for (int a = 0; a < ARCH_COUNT; a++) {
        if (!memchr(rn.arch, a, (size_t)rn.m.nodes))
            continue;                /* no node runs this ISA */
        if (!(rn.image[a] = pool_image_read(a, rn.kernel[a], (size_t)rn.p.ram_mib << 20, err, sizeof err))) {
            /* make builds the project's own images only, not one named by --kernel */
            fprintf(stderr, "wormsim: %s%s\n", err, rn.kernel_built[a] ? "; build it with: make" : "");
            return 2;
        }
        if (!strcmp(rn.app, "mpi") && rn.image[a]->im.has_main == 0) {   /* (a stripped image: its node says) */
            fprintf(stderr, "wormsim: app mpi: the image %s holds no MPI program; build and run one with make run "
                    "MPI='prog.c ...', or build/bin/wormsim-mpicc -o ELF prog.c and --kernel ELF (docs/mpi.md)\n",
                    rn.kernel[a]);
            return 2;
        }
        if (template_load(&rn.tpl[a], rn.template_path[a], err, sizeof err)) {
            fprintf(stderr, "wormsim: %s\n", err);
            return 2;
        }
        if (template_check_program(&rn.tpl[a], err, sizeof err)) {
            char q[SHOW_LEN];
            fprintf(stderr, "wormsim: QEMU template %s: %s\n", show(q, rn.template_path[a], 0), err);
            return 2;
        }
    }
    if (!agree(1) || (link_size() > 1 && (!same_as_rank0(&rn, argc, argv) || !ranks_fit_their_hosts(&rn))))
        return 2;
    if (rn.check_only) {            /* everything above passed; no run directory, no node */
        print_accepted(&rn);
        run_free_inputs(&rn);
        return 0;
    }
    /* rank 0 names the run directory; a node host writes its cl.nodes' logs there */
    int dir_ok = link_rank() != 0 || !make_run_dir(&rn);
    if (!dir_ok)
        rn.dir[0] = 0;
    link_bcast(rn.dir, sizeof rn.dir);
    if (!dir_ok || !rn.dir[0])
        return 2;
    if (link_rank() > 0)
        return node_host_main(&rn);
    snprintf(h->last_dir, sizeof h->last_dir, "%s", rn.dir);
    rn.out.invocation = invocation(&rn, argc, argv, cl.gdb_at, rn.gdb_node < 0 ? cl.gdb_len : 0);
    if (!rn.out.invocation || replay_write_command(rn.dir, rn.out.invocation))
        fprintf(stderr, "wormsim: cannot write %s/command\n", rn.dir);
    {
        char path[1100];
        snprintf(path, sizeof path, "%s/params.conf", rn.dir);
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "# The parameters of this run: wormsim --preset %s reproduces them.\n", path);
            params_write(f, &rn.p, rn.m.all_port);
            fclose(f);
        }
    }

    rn.out.fault.node = -1;
    rn.out.ok = 1;
    rn.t0 = rn.last_progress = now_s();
    double cpu0 = own_cpu_s();
    run_timer(h, RUN_TICK_NS);       /* a run's only */
    if (setup(&rn))
        fail(&rn, "the router could not start");
    else
        loop(&rn);
    if (rn.out.ok)
        for (int i = 0; i < rn.m.nodes; i++)
            if (rn.r.nodes[i].exit_code != 0) {
                fail_exit(&rn, i);
                break;
            }
    if (rn.nd)
        stop_nodes(&rn);
    run_timer(h, 0);                 /* an idle pool sleeps */
    /* A server resets its cl.nodes once the client has its answer. */
    h->run_nodes = rn.m.nodes;
    if (h->client < 0)
        pool_after_run(&h->pool, rn.m.nodes);
    rn.out.wall_s = now_s() - rn.t0;
    rn.out.router_cpu_s = own_cpu_s() - cpu0;
    return report_run(&rn);
}

/* The event sources and the pool; keep: nodes are reset and stay. */
static int host_init(struct host *h, int keep)
{
    memset(h, 0, sizeof *h);
    h->client = -1;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    h->epfd = epoll_create1(EPOLL_CLOEXEC);
    sigset_t ss = run_signals();
    h->sigfd = signalfd(-1, &ss, SFD_CLOEXEC | SFD_NONBLOCK);
    h->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    char err[256];
    if (h->epfd < 0 || h->sigfd < 0 || h->timerfd < 0 ||
        ep_add(h->epfd, h->sigfd, EV_SIG, 0) || ep_add(h->epfd, h->timerfd, EV_TIMER, 0)) {
        fprintf(stderr, "wormsim: cannot set up the router: %m\n");
        return -1;
    }
    if (pool_init(&h->pool, keep, h->epfd, err, sizeof err)) {
        fprintf(stderr, "wormsim: %s\n", err);
        return -1;
    }
    return 0;
}

static void host_free(struct host *h)
{
    pool_free(&h->pool);
    close(h->epfd);
    close(h->sigfd);
    close(h->timerfd);
}

/* One request of a client: its run, with its directory and its output.
 * Returns 0 if there was none to take (serve_recv). */
static int serve_one(struct host *h, int conn, const int home[3])
{
    int argc, fds[3];
    char **argv;
    if (serve_recv(conn, &argc, &argv, fds))
        return 0;
    fflush(stdout);
    fflush(stderr);
    int rc = 2;
    if (dup2(fds[1], 1) < 0 || dup2(fds[2], 2) < 0 || fchdir(fds[0]))
        fprintf(stderr, "wormsim: the node pool cannot take the client's directory or output: %m\n");
    else {
        /* the client's environment where the run reads it */
        static const char *const vars[] = { "PATH", "WORMSIM_DESC_LOG" };
        char *mine[2];
        for (int i = 0; i < 2; i++) {
            mine[i] = getenv(vars[i]) ? strdup(getenv(vars[i])) : NULL;
            char *theirs = serve_peer_getenv(conn, vars[i]);
            theirs ? setenv(vars[i], theirs, 1) : unsetenv(vars[i]);
            free(theirs);
        }
        h->client = conn;
        ep_add(h->epfd, conn, EV_CLIENT, 0);
        rc = run_main(h, argc, argv);
        epoll_ctl(h->epfd, EPOLL_CTL_DEL, conn, NULL);
        h->client = -1;
        for (int i = 0; i < 2; i++) {
            mine[i] ? setenv(vars[i], mine[i], 1) : unsetenv(vars[i]);
            free(mine[i]);
        }
    }
    fflush(stdout);
    fflush(stderr);
    dup2(home[1], 1);
    dup2(home[2], 2);
    if (fchdir(home[0]))
        perror("wormsim: back to the pool's directory");
    for (int i = 0; i < 3; i++)
        close(fds[i]);
    free(argv);
    serve_reply(conn, rc);
    pool_after_run(&h->pool, h->run_nodes);
    return 1;
}

/* wormsim --serve NAME: the pool and its socket, until a signal. */
static int serve(struct host *h, const char *name)
{
    int ls = serve_listen(name);
    if (ls < 0) {
        fprintf(stderr, "wormsim: cannot serve a node pool named '%s': %m (is one served under that name?)\n", name);
        return 2;
    }
    int home[3] = { open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), fcntl(1, F_DUPFD_CLOEXEC, 3),
                    fcntl(2, F_DUPFD_CLOEXEC, 3) };
    /* A run writes to its client's output, which may be a pipe whose
     * reader is gone (wormsim --pool ... | head): that write fails with
     * EPIPE, and the SIGPIPE, blocked, never ends the pool and its nodes.
     * (A node's QEMU starts with no signal blocked and none pending.) */
    sigset_t pipe_sig;
    sigemptyset(&pipe_sig);
    sigaddset(&pipe_sig, SIGPIPE);
    sigprocmask(SIG_BLOCK, &pipe_sig, NULL);
    ep_add(h->epfd, ls, EV_SERVE, 0);
    printf("wormsim: serving node pool '%s'; run on it with: wormsim --pool %s [options]\n", name, name);
    fflush(stdout);
    unsigned long long runs = 0;
    while (!h->stop) {
        struct epoll_event ev[64];
        int k = epoll_wait(h->epfd, ev, 64, -1);
        for (int i = 0; i < k && !h->stop; i++) {
            uint32_t kind = (uint32_t)(ev[i].data.u64 >> 32), id = (uint32_t)ev[i].data.u64;
            if (kind == EV_SIG) {
                h->stop = on_signals(h, NULL);
            } else if (kind == EV_TIMER) {
                uint64_t v;
                if (read(h->timerfd, &v, sizeof v) < 0)
                    continue;
            } else if (kind == EV_SERVE) {
                int c = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
                if (c >= 0) {
                    /* the next clients wait, unwatched, till this run ends */
                    epoll_ctl(h->epfd, EPOLL_CTL_DEL, ls, NULL);
                    runs += (unsigned long long)serve_one(h, c, home);
                    ep_add(h->epfd, ls, EV_SERVE, 0);
                    close(c);
                }
            } else if (kind != EV_CLIENT) {
                on_pool_event(h, kind, id);
            }
        }
    }
    printf("wormsim: node pool '%s' stopped by signal %d: %llu runs served, %llu nodes started, "
           "%llu handed over warm\n", name, h->stop, runs, h->pool.started, h->pool.reused);
    close(ls);
    for (int i = 0; i < 3; i++)
        close(home[i]);
    return 0;
}

/* wormsim --replay DIR: DIR's command again, from the directory it ran
 * in, then its figures against DIR's (host/out/replay.h). */
static int replay(struct host *h, const char *dir)
{
    char err[1024], cwd[4096], b[SHOW_LEN];
    int argc = 0;
    char **argv = NULL, *from = realpath(dir, NULL);
    if (!from || replay_load(from, &argc, &argv, cwd, sizeof cwd, err, sizeof err)) {
        if (from)
            fprintf(stderr, "wormsim: --replay: %s\n", err);
        else
            fprintf(stderr, "wormsim: --replay: no run directory %s: %m\n", show(b, dir, 1));
        free(from);
        return 2;
    }
    int rc = 2;
    if (chdir(cwd)) {
        fprintf(stderr, "wormsim: --replay: the run's directory %s is gone: %m\n", show(b, cwd, 1));
        goto out;
    }
    /* the run's path, resolved before the run: runs/latest will name the new one */
    size_t k = strlen(cwd);
    const char *name = !strncmp(from, cwd, k) && from[k] == '/' ? from + k + 1 : from;
    char b2[SHOW_LEN];
    printf("wormsim: replaying %s: in %s, wormsim", show(b, name, 0), show(b2, cwd, 1));
    for (int i = 1; i < argc; i++)              /* what will run, before it runs */
        printf(" %s", show(b, argv[i], 1));
    printf("\n");
    replay_note_build(from, stdout);
    fflush(stdout);
    h->unattended = 1;
    rc = run_main(h, argc, argv);
    h->unattended = 0;
    if (rc >= 128)                               /* ended by a signal: nothing to compare */
        goto out;
    if (!h->last_dir[0]) {
        fprintf(stderr, "wormsim: --replay: the command made no run, so there is nothing to compare\n");
        rc = rc ? rc : 2;
        goto out;
    }
    printf("replay: comparing with %s\n", show(b, name, 0));
    int differ = replay_compare(from, h->last_dir, stdout);
    if (differ < 0)
        rc = 2;
    else {
        printf("replay: %s\n", differ ? "the figures differ (above)" : "every figure matches: summary.json, the CSVs "
               "and the node logs");
        rc = differ;
    }
out:
    replay_free_argv(argc, argv);
    free(from);
    return rc;
}

/* --serve NAME, --pool NAME and --replay DIR choose the mode; the rest
 * (argv[0] first) is the run's, in rest. Returns 0, or 2 said: a mode
 * given wrong, or two that do not go together. */
static int split_modes(int argc, char **argv, int mpi, const char **serve_name_, const char **pool_name_,
                       const char **replay_dir_, char **rest, int *nrest_)
{
    const char *serve_name = NULL, *pool_name = NULL, *replay_dir = NULL;
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        const char **to = !strcmp(argv[i], "--serve") ? &serve_name : !strcmp(argv[i], "--pool") ? &pool_name :
                          !strcmp(argv[i], "--replay") ? &replay_dir : NULL;
        if (to && i + 1 < argc && i > 0) {
            *to = argv[++i];
        } else if (i > 0 && (!strncmp(argv[i], "--serve=", 8) || !strncmp(argv[i], "--pool=", 7) ||
                             !strncmp(argv[i], "--replay=", 9))) {
            *(argv[i][2] == 's' ? &serve_name : argv[i][2] == 'p' ? &pool_name : &replay_dir) = strchr(argv[i], '=') + 1;
        } else if (to) {
            fprintf(stderr, "wormsim: %s needs %s\n", argv[i], to == &replay_dir ? "a run directory" : "a pool name");
            return 2;
        } else {
            rest[nrest++] = argv[i];
        }
        if (i > 0 && !strcmp(argv[i], "--")) {
            while (++i < argc)
                rest[nrest++] = argv[i];
        }
    }
    for (const char *nm = serve_name ? serve_name : pool_name; nm; nm = NULL)
        if (!*nm || strspn(nm, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != strlen(nm)) {
            fprintf(stderr, "wormsim: pool name '%s' is not letters, digits, '_', '.' or '-'\n", nm);
            return 2;
        } else if (strlen(nm) > SERVE_NAME_MAX) {
            fprintf(stderr, "wormsim: pool name '%.20s...' is %zu characters; accepted: at most %d\n", nm,
                    strlen(nm), SERVE_NAME_MAX);
            return 2;
        }
    if (serve_name && pool_name) {
        fprintf(stderr, "wormsim: --serve and --pool do not go together\n");
        return 2;
    }
    if (serve_name && nrest > 1) {
        fprintf(stderr, "wormsim: --serve takes no run options (each run brings its own): '%s'\n", rest[1]);
        return 2;
    }
    if (replay_dir && (serve_name || pool_name || nrest > 1)) {
        char b[SHOW_LEN];
        fprintf(stderr, "wormsim: --replay takes no other option (the run's own come from its summary.json): %s\n",
                show(b, serve_name ? "--serve" : pool_name ? "--pool" : rest[1], 1));
        return 2;
    }
    if (mpi && (serve_name || pool_name || replay_dir)) {
        fprintf(stderr, "wormsim: --serve, --pool and --replay are not for a run under mpirun\n");
        return 2;
    }
    *serve_name_ = serve_name;
    *pool_name_ = pool_name;
    *replay_dir_ = replay_dir;
    *nrest_ = nrest;
    return 0;
}

int main(int argc, char **argv)
{
    show_guard_stderr();
    sigset_t blocked = run_signals();
    sigprocmask(SIG_BLOCK, &blocked, NULL);
    int mpi = link_init(&argc, &argv);
    if (mpi)
        hold_errors();               /* (a refusal is said once, by rank 0) */
    const char *serve_name, *pool_name, *replay_dir;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    int nrest = 0;
    if (!rest || split_modes(argc, argv, mpi, &serve_name, &pool_name, &replay_dir, rest, &nrest)) {
        if (mpi) {
            agree(0);
            link_finalize();
        }
        free(rest);
        return 2;
    }
    if (pool_name)
        return serve_client(pool_name, nrest - 1, rest + 1);
    struct host h;
    int rc = 2;
    if (!host_init(&h, serve_name != NULL))
        rc = serve_name ? serve(&h, serve_name) : replay_dir ? replay(&h, replay_dir) : run_main(&h, nrest, rest);
    if (mpi && !agreed)
        agree(rc == 0);
    host_free(&h);
    free(rest);
    if (mpi && rc > 128) {           /* ended by a signal: mpirun is ending the job */
        fflush(NULL);
        link_drop_shm_files();
        _exit(rc);                   /* no MPI_Finalize: it may wait on mpirun's ending job */
    }
    if (mpi)
        link_finalize();
    return rc;
}
