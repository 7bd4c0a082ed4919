/* The run tool's run: what outlives a run (struct host), one run's state
 * (struct run), and the parts of the run tool beside host/wormsim.c (a
 * run's main, its report and the tool's main): the options
 * (host/run/options.c), the checks made before any node starts
 * (host/run/checks.c), the start (host/run/start.c), the events and the
 * event loop (host/run/events.c), wormsim-mpi's ranks (host/run/ranks.c),
 * and the modes beside a run, --serve and --replay (host/run/modes.c). */
#ifndef RUN_RUN_H
#define RUN_RUN_H
#include <stdio.h>
#include "../machine.h"
#include "../params.h"
#include "../engine/engine.h"
#include "../launch/arch.h"
#include "../launch/pool.h"
#include "../launch/app_mem.h"
#include "../launch/launch.h"
#include "../out/results.h"
#include "../relay/relay.h"
#include "../relay/node_host.h"
#include "../net/net_model.h"

/* What outlives a run: the event sources and the node pool. */
struct host {
    int epfd, sigfd, timerfd;
    struct pool pool;
    int client;                      /* serve: the run's client connection, or -1 */
    int stop;                        /* serve: a signal asked the server to end */
    int run_nodes;                   /* serve: the last run's nodes, for pool_after_run */
    char last_dir[1024];             /* the last run's directory, "" if it made none */
    int unattended;                  /* replay: no node waits for gdb (--gdb is left out) */
};

/* A paced start (merge_pace_look): node + 1 it is about, the most memory
 * seen available and the fewest nodes booting since `since`, when it last
 * gained either, and ksmd's passes then. */
struct pace_watch {
    int node;
    unsigned long long best;
    double since;
    long long scans;                 /* ksmd's passes at `since` (merge_full_scans) */
    int fewest;
};

struct run {
    struct host *h;
    struct topo_shape m;
    struct params p;
    struct engine r;
    const char *app, *args, *runs_dir, *arch_spec;
    const char *kernel[ARCH_COUNT], *template_path[ARCH_COUNT];
    int kernel_built[ARCH_COUNT];  /* kernel[a] is the project's own image, which make builds */
    unsigned char *arch;          /* per node: enum node_arch */
    int gdb_node;
    int want_trace;                  /* write trace.json (Chrome trace events) */
    enum output_shown output;        /* the nodes' output shown after the summary */
    enum net_jump jump;              /* the network engine's mode (net_model.h) */
    unsigned long long mem_limit_mib;   /* --mem-limit; 0: MemAvailable */
    unsigned long long log_max;         /* --log-max: console bytes a node log keeps */
    int check_only;                     /* --check: every check, then exit before any node starts */
    int merge_pages;                    /* --merge-pages: nodes share their identical pages (launch/merge.h) */
    struct app_need need;               /* what the app's ARGS ask: node memory, messages, spinning */
    unsigned long long held_room;       /* bytes of messages the router may hold (check_memory) */
    unsigned long long mem_kept, mem_limit;   /* this rank's need and its host's limit (check_memory) */
    char mem_hosts[256];                /* wormsim-mpi, rank 0: each host's ranks and their need */
    double timeout_s, hang_s;
    struct template tpl[ARCH_COUNT];
    struct pool_image *image[ARCH_COUNT];   /* each ISA's node image, read once */
    unsigned long long image_extra[ARCH_COUNT];   /* what it adds to a node's memory (count_image) */
    char dir[1024];
    struct pool_node **nd;           /* by rank */
    unsigned char *back;             /* by rank: done with the run (check_back), or its QEMU ended */
    unsigned long long *empty_bells; /* by rank: doorbells since its last descriptor that brought none */
    int warm;                        /* nodes handed over warm by the pool */
    double t0, last_progress;
    uint64_t progress_seen;          /* r.progress when last_progress was taken */
    double all_exited_at;            /* when every node had posted EXIT, or 0 */
    struct outcome out;
    int done;
    /* nodes on other hosts (host/relay/link.h), by rank: the router's mirror of
     * each one's NIC memory; NULL when every node is on this host */
    struct remote *rem;
    struct pace_watch pace;          /* a paced start's progress (merge_pace_look) */
    int hosts_done;                  /* node hosts that answered END */
    struct log_cuts cuts;            /* logs --log-max cut, on every host once each answered END */
};

struct remote {
    uint8_t *mirror;                 /* NULL: the node is on this host */
    struct relay_layout l;
    struct nic_reply shown;          /* the reply as last relayed */
    int host;                        /* its MPI rank */
};

/* What the command line gives beside struct run's own fields. */
struct cli {
    const char *topo, *nodes, *dims, *gdb, *preset;
    /* parameter assignments, applied after the preset in command-line
     * order (a NULL key: a whole --set list); each takes an argument, so
     * argc entries hold them all */
    const char **set_key, **set_val;
    int nset, show_params;
    int gdb_at, gdb_len;     /* argv[gdb_at ..] holds --gdb and its value, gdb_len entries */
};

#define TIMEOUT_MAX_S 86400             /* the longest --timeout and --hang-timeout, s */
/* --log-max: a node log keeps at most this much of its console, so a node
 * printing in a loop cannot fill the host's disk (a node wrote about
 * 0.45 MB/s of console under QEMU, two printing on 2 cores). */
#define LOG_MAX_DEFAULT (1ull << 20)
#define LOG_MAX_MIN 1024ull
#define LOG_MAX_MAX (1ull << 40)

/* What a run takes when its options do not say (the usage names each). */
#define DEFAULT_APP "alltoall_pex"
#define DEFAULT_TOPO TOPO_TORUS
#define DEFAULT_RUNS_DIR "runs"
extern const char *const default_kernel[ARCH_COUNT], *const default_template[ARCH_COUNT];

/* What a start of merged nodes keeps available beyond what they need
 * (wait_for_merging, check_memory). */
#define MERGE_SLACK_MIB 1024

/* epoll kinds beyond the pool's (POOL_EV_*) */
enum { EV_SIG = 16, EV_TIMER, EV_CLIENT, EV_SERVE };

/* A run, and a node host's share of one, ticks every RUN_TICK_NS:
 * link-up kicks, lost doorbells, hangs (on_timer, host/run/events.c). */
#define RUN_TICK_NS 5000000

/* host/wormsim.c. run_main: one run, its exit status; ep_add: watch fd
 * as event kind/id; run_free_inputs: what run_main loaded for the nodes;
 * run_timer: the run's tick every ns nanoseconds, or none (0). */
int run_main(struct host *h, int argc, char **argv);
int ep_add(int ep, int fd, uint32_t kind, uint32_t id);
void run_free_inputs(struct run *rn);
void run_timer(struct host *h, long ns);

/* host/run/start.c. make_run_dir: the run's directory (rn->dir);
 * free_tcp_port: one for the gdbstub; gdb_announce: the gdb file and the
 * lines that tell the user; run_spec_of: the pool's description of ISA
 * a's nodes; node_host_pace: a node host's paced start (node_host.h);
 * run_setup: the router, then a node from the pool for every rank. */
int make_run_dir(struct run *rn);
int free_tcp_port(void);
int gdb_announce(struct run *rn, int port, const char *host);
struct pool_spec run_spec_of(const struct run *rn, int a);
int node_host_pace(void *ctx, int node, const void *owner, char *err, size_t errlen);
int run_setup(struct run *rn);

/* host/run/events.c. run_notify: the engine's interrupt of a node;
 * run_fail: the run fails (its first error kept) and its loop ends;
 * run_fail_exit: for node i's nonzero exit status; stop_nodes: every
 * node back to the pool; end_by_signal: the run ends by signal sig;
 * on_signals: the signals read, the one that ends (or 0); on_pool_event:
 * the events no run has; run_loop: the run's events until it is done. */
void run_notify(void *ctx, int rank);
void run_fail(struct run *rn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void run_fail_exit(struct run *rn, int i);
void stop_nodes(struct run *rn);
void end_by_signal(struct run *rn, int sig, int by_client, const char *when);
int on_signals(struct host *h, struct run *rn);
void on_pool_event(struct host *h, uint32_t kind, uint32_t id);
void run_loop(struct run *rn);

/* host/run/ranks.c (wormsim-mpi). run_agreed: this rank reached
 * link_agree (run_agree); hold_errors: a node host's refusals held;
 * same_as_rank0: 1 if every rank's run is rank 0's; node_host_main: a
 * node host's part of the run. */
extern int run_agreed;
void hold_errors(void);
int run_agree(int ok);
int same_as_rank0(const struct run *rn, int argc, char **argv);
int node_host_main(struct run *rn);

/* host/run/modes.c. serve_pool: wormsim --serve NAME; run_replay:
 * wormsim --replay DIR; split_modes: the mode the command line chooses. */
int serve_pool(struct host *h, const char *name);
int run_replay(struct host *h, const char *dir);
int split_modes(int argc, char **argv, int mpi, const char **serve_name_, const char **pool_name_,
                const char **replay_dir_, char **rest, int *nrest_);

/* host/run/options.c */
int parse_u32(const char *opt, const char *s, uint32_t lo, uint32_t hi, uint32_t *out);
int parse_options(struct run *rn, struct cli *cl, int argc, char **argv);
int apply_params(struct run *rn, struct cli *cl, enum topo_port *port_model);

/* host/run/checks.c */
void list_apps(FILE *f);
int check_app(struct run *rn);
double buffer_work_s(const struct run *rn);
double asked_work_s(const struct run *rn);
double seconds_capped(double s);
double fmin_s(double a, double b);
double spin_s(const struct run *rn, double spin_ns);
unsigned long long mem_available(void);
unsigned long long node_bytes_with(const struct run *rn, int a, unsigned qemu_kib);
int count_image(struct run *rn, int a, unsigned long long ram_end);
unsigned long long node_bytes(const struct run *rn, int a);
unsigned long long memory_need(const struct run *rn, int *own);
unsigned long long memory_limit(const struct run *rn, unsigned long long *idle);
int check_memory(struct run *rn);
int ranks_fit_their_hosts(struct run *rn);
int own_nodes(const struct run *rn);
int files_fit(const struct pool *p, unsigned long long nodes, char *err, size_t errlen);
int check_files(struct run *rn);
void print_accepted(struct run *rn);

#endif
