/* wormsim: run a program on an emulated wormhole-routed multicomputer.
 *
 * Takes one QEMU per node from a node pool (host/launch/pool.c), serves each
 * node's NIC (ivshmem-doorbell) as the router, and writes the run's
 * results into its own run directory. Alone, the pool is the run's own
 * and its nodes end with it; with --serve NAME the pool outlives runs,
 * which wormsim --pool NAME hands it (host/launch/serve.h).
 *
 * This file holds a run's main (run_main), its report and the tool's
 * main; the options, the checks, the start, the events, wormsim-mpi's
 * ranks and the modes beside a run are in host/run/ (run.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/resource.h>
#include "show.h"
#include "host_clock.h"
#include "out/trace.h"
#include "launch/serve.h"
#include "relay/link.h"
#include "out/replay.h"
#include "run/run.h"

int ep_add(int ep, int fd, uint32_t kind, uint32_t id)
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

/* What run_main loaded for the nodes: the QEMU templates, the node images
 * and the ISAs. */
void run_free_inputs(struct run *rn)
{
    for (int a = 0; a < ARCH_COUNT; a++) {
        if (rn->tpl[a].argc)
            template_free(&rn->tpl[a]);
        pool_image_unref(rn->image[a]);
        rn->image[a] = NULL;
    }
    free(rn->arch);
}

/* The run's tick every ns nanoseconds, or none (0): RUN_TICK_NS (run.h). */
void run_timer(struct host *h, long ns)
{
    struct itimerspec its = { .it_interval = { 0, ns }, .it_value = { 0, ns } };
    timerfd_settime(h->timerfd, 0, &its, NULL);
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
int run_main(struct host *h, int argc, char **argv)
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
        if (count_image(&rn, a, rn.image[a]->im.ram_end))
            return 2;
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
    if (!run_agree(1) || (link_size() > 1 && (!same_as_rank0(&rn, argc, argv) || !ranks_fit_their_hosts(&rn))))
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
    if (run_setup(&rn))
        run_fail(&rn, "the router could not start");
    else
        run_loop(&rn);
    if (rn.out.ok)
        for (int i = 0; i < rn.m.nodes; i++)
            if (rn.r.nodes[i].exit_code != 0) {
                run_fail_exit(&rn, i);
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
            run_agree(0);
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
        rc = serve_name ? serve_pool(&h, serve_name) : replay_dir ? run_replay(&h, replay_dir) : run_main(&h, nrest, rest);
    if (mpi && !run_agreed)
        run_agree(rc == 0);
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

