/* A run's start: its directory, the gdbstub, and the router, then a node
 * from the pool for every rank (run_setup), paced by the host's memory
 * with --merge-pages (merge_pace_look). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include "run.h"
#include "../host_clock.h"
#include "../files.h"
#include "../launch/merge.h"
#include "../out/trace.h"
#include "../relay/link.h"

/* runs/<date>-<time>-<app>-<topo><dims>, never reusing a name. */
int make_run_dir(struct run *rn)
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

int free_tcp_port(void)
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

/* The gdb file of the run (tests/gdb-attach.sh reads it) and the lines
 * that tell the user: the node with the gdbstub listens on port of this
 * host, or of host `host` (a node host's, host/relay/link.h). */
int gdb_announce(struct run *rn, int port, const char *host)
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
struct pool_spec run_spec_of(const struct run *rn, int a)
{
    return (struct pool_spec){ &rn->tpl[a], rn->kernel[a], a, rn->p.nic_mem, rn->p.ram_mib, 0, NULL, rn->image[a],
                               rn->merge_pages, rn->log_max };
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
    return node_bytes_with(rn, a, arch_node_kib[a]);
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
            run_fail(rn, "%s", err);
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
int node_host_pace(void *ctx, int node, const void *owner, char *err, size_t errlen)
{
    return merge_pace_look(ctx, node, owner, err, errlen);
}

/* The router, then a node from the pool for every rank: an idle one is
 * configured and let through link-up at once, a new one when it boots. */
int run_setup(struct run *rn)
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
    rn->r.notify = run_notify;
    rn->r.isa_period = arch_period(rn->arch, n, &rn->r.isa_bits);   /* each node's NIC tells it every ISA */
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
        specs[a] = run_spec_of(rn, a);
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
                run_notify(rn, i);
        }
    }
    rc = 0;
out:
    for (int a = 0; a < ARCH_COUNT; a++)
        pool_spec_free(&specs[a]);
    return rc;
}
