/* What the run tool checks before any node starts: the app and its ARGS,
 * the wall time the run may take, host memory (each rank's, and each
 * host's under wormsim-mpi), open files; and --check's answer. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include "run.h"
#include "../show.h"
#include "../files.h"
#include "../launch/merge.h"
#include "../relay/link.h"

static const struct { const char *name; int restr; const char *desc; } apps[] = {
#define APP(n, r, d) { #n, r, d },
#include "../../apps/apps.def"
#undef APP
};
#define NAPPS ((int)(sizeof apps / sizeof apps[0]))

/* The wall time the nodes may spend on their own buffers between two NIC
 * uses: filling, copying and checking the app's buffers (nodes x need.heap
 * bytes), all nodes sharing the host's cores. GUEST_BYTES_PER_S is a
 * floor on what one core does: an ARM node under QEMU (TCG, icount)
 * worked through about 30 MB/s a core (alltoall_pex on 16x16 at 8 KB:
 * 18 s without a NIC use after boot, on 2 cores); a quarter of that
 * leaves room for a host shared with other runs. Both wall-clock limits
 * grow by it, so a big machine is not taken for a hung one. */
#define GUEST_BYTES_PER_S (8.0 * 1024 * 1024)
static double host_cores(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (double)cores : 1;
}

double buffer_work_s(const struct run *rn)
{
    return (double)rn->m.nodes * (double)rn->need.heap / (GUEST_BYTES_PER_S * host_cores());
}

/* The wall time the whole run may take on what its ARGS ask beyond the
 * buffers (app_need), so that the largest accepted runs=, iters= or
 * len= are not cut short by the default --timeout. HOST_S_PER_MSG: a message
 * costs the host about 150 us of wall time between two nodes (pingpong,
 * 40,000 messages in 6.9 s on 2 cores) and about 390 us of the QEMUs' CPU
 * on a large machine (docs/scale.md); 1 ms of a core leaves room for a
 * shared host. GUEST_INSTR_PER_S: a spinning ARM node ran about 250
 * million instructions a second a core (fetchinc, 8 items of work=1 s at
 * cpu_ps 1000: 17 s on 2 cores); a fifth of that. */
#define HOST_S_PER_MSG 1e-3
#define GUEST_INSTR_PER_S 50e6
double spin_s(const struct run *rn, double spin_ns)
{
    return spin_ns * 1000.0 / rn->p.ps_per_instr / (GUEST_INSTR_PER_S * host_cores());
}

double fmin_s(double a, double b) { return a < b ? a : b; }
double seconds_capped(double s) { return fmin_s(s, TIMEOUT_MAX_S); }

double asked_work_s(const struct run *rn)
{
    return rn->need.msgs * HOST_S_PER_MSG / host_cores() + spin_s(rn, rn->need.spin_ns);
}

void list_apps(FILE *f)
{
    char keys[600];
    for (int i = 0; i < NAPPS; i++) {
        app_keys_str(apps[i].name, keys, sizeof keys);
        fprintf(f, "  %-14s %s%s%s%s\n", apps[i].name, apps[i].desc, *keys ? " (ARGS: " : "", keys, *keys ? ")" : "");
    }
}

/* ARGS with a comma before a key (len=1024,iters=3 or len=1024, iters=3)
 * read as one value; the words as ARGS takes them, one space between
 * keys, in buf; 0 if none. */
static int comma_keys(const char *args, char *buf, size_t len)
{
    int found = 0;
    size_t n = strlen(args), o = 0;
    if (n >= len)
        return 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = i + 1;
        while (args[i] == ',' && args[j] == ' ')
            j++;
        size_t k = strspn(args + j, "abcdefghijklmnopqrstuvwxyz_0123456789");
        if (args[i] == ',' && k && args[j + k] == '=' && !(args[j] >= '0' && args[j] <= '9')) {
            buf[o++] = ' ';          /* the comma and the spaces after it: one space */
            i = j - 1;
            found = 1;
        } else
            buf[o++] = args[i];
    }
    buf[o] = 0;
    return found;
}

int check_app(struct run *rn)
{
    for (int i = 0; i < NAPPS; i++) {
        if (strcmp(apps[i].name, rn->app))
            continue;
        /* The restriction (and a collective's len=) by the apps' own check. */
        struct app_shape sh = { rn->m, NULL };
        char err[512];
        if (app_check_args(rn->app, apps[i].restr, &sh, rn->args, rn->p.msg_max, err, sizeof err)) {
            char spaced[sizeof ((struct nic_config *)0)->args + 1];
            if (comma_keys(rn->args, spaced, sizeof spaced))
                fprintf(stderr, "wormsim: %s (ARGS separates its keys by spaces: ARGS='%s')\n", err, spaced);
            else
                fprintf(stderr, "wormsim: %s\n", err);
            return -1;
        }
        rn->need = app_need(rn->app, apps[i].restr, &sh, rn->args, rn->p.msg_max);
        return 0;
    }
    /* The nearest names (at most three) when some are near, else every
     * accepted name, wrapped; --list-apps describes them. */
    char q[SHOW_LEN], near[256];
    const char *names[NAPPS];
    for (int i = 0; i < NAPPS; i++)
        names[i] = apps[i].name;
    show_nearest(near, sizeof near, rn->app, names, NAPPS);
    if (*near) {
        fprintf(stderr, "wormsim: unknown app %s; did you mean %s? (wormsim --list-apps lists all %d)\n",
                show(q, rn->app, 1), near, NAPPS);
        return -1;
    }
    fprintf(stderr, "wormsim: unknown app %s; accepted:\n ", show(q, rn->app, 1));
    int col = 1;
    for (int i = 0; i < NAPPS; i++) {
        if (col + 1 + (int)strlen(names[i]) > 78) {
            fprintf(stderr, "\n ");
            col = 1;
        }
        col += fprintf(stderr, " %s", names[i]);
    }
    fprintf(stderr, "\n(wormsim --list-apps describes each)\n");
    return -1;
}

/* MemAvailable of /proc/meminfo in bytes, or 0 if it cannot be read. */
unsigned long long mem_available(void)
{
    static const char *const keys[] = { "MemAvailable", NULL };
    return file_proc_kb("/proc/meminfo", keys);
}


/* A QEMU's own pages: arch_node_kib, or arch_merged_kib once merged. */
static unsigned node_kib(const struct run *rn, int a)
{
    return rn->merge_pages ? arch_merged_kib[a] : arch_node_kib[a];
}

/* What a node of ISA a holds of host memory with a QEMU of qemu_kib:
 * that, the app's buffers, its NIC memory and what its image adds. */
unsigned long long node_bytes_with(const struct run *rn, int a, unsigned qemu_kib)
{
    return ((unsigned long long)qemu_kib << 10) + rn->need.heap + rn->p.nic_mem + rn->image_extra[a];
}

/* What one node of ISA a holds: its QEMU's own pages as counted (node_kib). */
unsigned long long node_bytes(const struct run *rn, int a)
{
    return node_bytes_with(rn, a, node_kib(rn, a));
}

/* arch_node_kib was measured with images that span under
 * IMAGE_COUNTED_MIB of RAM (the project's 0.4 MiB; an MPI program's about
 * 2.2, its 1 MiB stack included). A larger image (an MPI program's static
 * arrays) adds the rest: start.S clears its zeros, so the node touches
 * every page of it. */
#define IMAGE_COUNTED_MIB 4

/* ISA a's image, read (host/launch/image.h), spans ram_end bytes of a
 * node's RAM: what that adds to each of its nodes counts from now on,
 * and a machine that no longer fits is refused (check_memory). Returns 0
 * or -1. */
int count_image(struct run *rn, int a, unsigned long long ram_end)
{
    unsigned long long counted = (unsigned long long)IMAGE_COUNTED_MIB << 20;
    rn->image_extra[a] = ram_end > counted ? ram_end - counted : 0;
    return rn->image_extra[a] ? check_memory(rn) : 0;
}

/* The run tool's own memory: RUN_TOOL_MIB, and on the router's host
 * ROUTER_NODE_KIB a node of the machine (its descriptors, mailboxes, the
 * network model's routers). Measured PSS of the router (a pool's, after
 * bcast_rd len=1024): 12 MiB at 64 nodes, 26 at 256, 131 at 1,024. */
#define RUN_TOOL_MIB 8
#define ROUTER_NODE_KIB 128

/* What a run needs of host memory: every node of this host (*own of
 * them), and the run tool's own; whole MiB, rounded up, as it is said. */
unsigned long long memory_need(const struct run *rn, int *own)
{
    unsigned long long need = (unsigned long long)RUN_TOOL_MIB << 20;
    int isa[ARCH_COUNT] = { 0 };
    *own = 0;
    for (int i = 0; i < rn->m.nodes; i++) {
        if (link_owner(i, rn->m.nodes) == link_rank()) {
            need += node_bytes(rn, rn->arch[i]);
            if (!isa[rn->arch[i]]++)
                need += (unsigned long long)arch_shared_mib[rn->arch[i]] << 20;   /* once per ISA */
            ++*own;
        } else if (link_rank() == 0) {
            need += rn->p.nic_mem;   /* the router's mirror of a node on another host */
        }
        if (link_rank() == 0)
            need += ROUTER_NODE_KIB << 10;
    }
    return (need + (1ull << 20) - 1) & ~((1ull << 20) - 1);
}

/* " with its image's N KiB more", or "" for an image count_image adds nothing for. */
static const char *image_words(const struct run *rn, int a)
{
    static char buf[ARCH_COUNT][48];
    buf[a][0] = 0;
    if (rn->image_extra[a])
        snprintf(buf[a], sizeof buf[a], " with its image's %llu KiB more", rn->image_extra[a] >> 10);
    return buf[a];
}

/* The node costs memory_need counted, for the message of check_memory:
 * "K KiB per ARM node and M MiB for all", for each ISA among this host's
 * nodes (an ISA the run does not use costs nothing and is not named). */
static void isa_costs(const struct run *rn, char *buf, size_t n)
{
    static const char *const isa_label[ARCH_COUNT] = { [ARCH_ARM] = "ARM", [ARCH_RISCV] = "RISC-V" };
    int used[ARCH_COUNT] = { 0 };
    size_t at = 0;
    for (int i = 0; i < rn->m.nodes; i++)
        if (link_owner(i, rn->m.nodes) == link_rank())
            used[rn->arch[i]] = 1;
    buf[0] = 0;
    for (int a = 0; a < ARCH_COUNT && at < n; a++)
        if (used[a])
            at += (size_t)snprintf(buf + at, n - at, "%u KiB per %s node%s and %u MiB for all, ", node_kib(rn, a),
                                   isa_label[a], image_words(rn, a), arch_shared_mib[a]);
}

/* What a run may use of host memory: --mem-limit, or the host's available
 * memory and what the pool's idle nodes hold (*idle; this run reuses them,
 * and memory_need counts them again, or ends them). 0: unknown. */
unsigned long long memory_limit(const struct run *rn, unsigned long long *idle)
{
    *idle = rn->mem_limit_mib ? 0 : pool_idle_bytes(&rn->h->pool);
    return rn->mem_limit_mib ? rn->mem_limit_mib << 20 : mem_available() + *idle;
}

/* A machine that would not fit in host memory is refused before any node
 * starts: memory_need() against memory_limit(). One that fits sets what
 * the router may hold of messages (held_room): 32 x held_max (engine.h),
 * or what the limit leaves beside the nodes, if less. */
int check_memory(struct run *rn)
{
    int own;
    char err[512];
    unsigned long long slack = (unsigned long long)MERGE_SLACK_MIB << 20;
    unsigned long long idle, need = memory_need(rn, &own), limit = memory_limit(rn, &idle);
    if (rn->merge_pages && own && merge_check(err, sizeof err)) {   /* a host of nodes (not wormsim-mpi's rank 0) */
        fprintf(stderr, "wormsim: %s\n", err);
        return -1;
    }
    unsigned long long most = (unsigned long long)HELD_TOTAL_FACTOR * rn->p.held_max;
    unsigned long long kept = need + (rn->merge_pages && own ? slack : 0);   /* what must fit */
    rn->held_room = limit && limit - kept < most ? limit - kept : most;
    rn->mem_kept = kept;
    rn->mem_limit = limit;
    if (!limit || kept <= limit)
        return 0;
    char whose[64] = "", merged[160] = "";
    if (!rn->merge_pages) {
        rn->merge_pages = 1;
        unsigned long long m = memory_need(rn, &own);
        rn->merge_pages = 0;
        if (m + slack <= limit)
            snprintf(merged, sizeof merged, "; with the kernel's samepage merging running, --merge-pages would "
                     "need about %llu MiB and keep %d MiB free (docs/scale.md)", m >> 20, MERGE_SLACK_MIB);
    } else {
        snprintf(merged, sizeof merged, " (--merge-pages: the nodes once merged, and %d MiB kept free while "
                 "they start)", MERGE_SLACK_MIB);
    }
    if (own != rn->m.nodes)     /* wormsim-mpi: this host's block, and rank 0's mirrors */
        snprintf(whose, sizeof whose, " (this host's, of %d)", rn->m.nodes);
    char isas[160];
    isa_costs(rn, isas, sizeof isas);
    fprintf(stderr, "wormsim: %d nodes%s need about %llu MiB of host memory (%s%lu KiB each for the app's buffers, "
            "%u KiB of NIC memory each, %d MiB and %d KiB a node for the run tool), more than the %llu MiB %s%s; "
            "run fewer nodes%s or a shorter len, free memory, or set --mem-limit%s\n",
            own, whose, need >> 20, isas, rn->need.heap >> 10,
            (unsigned)(rn->p.nic_mem >> 10), RUN_TOOL_MIB, ROUTER_NODE_KIB, limit >> 20,
            rn->mem_limit_mib ? "of --mem-limit" : "this host has available (MemAvailable in /proc/meminfo",
            rn->mem_limit_mib ? "" : idle ? ", and what the pool's idle nodes hold)" : ")",
            own != rn->m.nodes ? " (or give them more node hosts: mpirun -np, one rank a host)" : "", merged);
    return -1;
}

/* The lowest rank on rank r's host. */
static int host_first_rank(int r)
{
    int f = 0;
    while (strcmp(link_host_of(f), link_host_of(r)))
        f++;
    return f;
}

/* wormsim-mpi: ranks on one host share its memory (--mem-limit is a
 * host's). After each rank's check_memory passed, every rank's need
 * (what must fit) and limit go to every rank; a host whose ranks need
 * more together than its limit (the least they read) refuses the run,
 * said once, by its first rank. Rank 0 keeps for the router's messages
 * only what its host's ranks leave, and says each host's sum (--check).
 * Returns 1 on every rank if every host holds its ranks, else 0. */
int ranks_fit_their_hosts(struct run *rn)
{
    int n = link_size(), me = link_rank(), root_ok;
    unsigned long long mine[2] = { rn->mem_kept, rn->mem_limit };
    unsigned long long *all = calloc((size_t)n * 2, sizeof *all);
    if (!all) {
        fprintf(stderr, "wormsim: no memory for %d ranks' memory figures\n", n);
        link_abort(2);
    }
    link_allgather(mine, all, sizeof mine);
    int ok = 1, at = 0;
    rn->mem_hosts[0] = 0;
    for (int h = 0; h < n; h++) {
        if (host_first_rank(h) != h)
            continue;                /* host h was summed at its first rank */
        int ranks = 0;
        unsigned long long sum = 0, limit = 0;
        for (int r = h; r < n; r++) {
            if (strcmp(link_host_of(r), link_host_of(h)))
                continue;
            sum += all[2 * r];
            limit = all[2 * r + 1] && (!limit || all[2 * r + 1] < limit) ? all[2 * r + 1] : limit;
            ranks++;
        }
        int fits = !limit || sum <= limit;
        if (!fits && me == h)
            fprintf(stderr, "wormsim: the %d ranks on host %s need about %llu MiB of host memory together, more "
                    "than the %llu MiB %s; give each host one rank (mpirun's --map-by node), more node hosts "
                    "(mpirun -np), fewer nodes or a shorter len, or set --mem-limit\n", ranks, link_host_of(h),
                    sum >> 20, limit >> 20, rn->mem_limit_mib ? "of --mem-limit" : "it has available");
        ok &= fits;
        if (h == 0 && me == 0 && fits && limit && limit - sum < rn->held_room)
            rn->held_room = limit - sum;   /* the router's host: its node hosts' share is taken */
        if (at < (int)sizeof rn->mem_hosts)
            at += snprintf(rn->mem_hosts + at, sizeof rn->mem_hosts - (size_t)at, "%s%s (%d rank%s) about %llu MiB",
                           at ? "; " : "", link_host_of(h), ranks, ranks > 1 ? "s" : "", sum >> 20);
    }
    free(all);
    return link_agree(ok, &root_ok);
}

/* The run tool's own open files beside its nodes': its event sources,
 * the pool's socket, the run's result files, the standard streams. */
#define RUN_TOOL_FILES 64

/* 0 if this process may hold `nodes` nodes' files open (POOL_NODE_FILES
 * each, and POOL_KEPT_FILES more on a pool that keeps them): the soft
 * limit raised to what they need, and the hard one too where the process
 * may (CAP_SYS_RESOURCE). Else -1 and why, in err. */
int files_fit(const struct pool *p, unsigned long long nodes, char *err, size_t errlen)
{
    const int each = POOL_NODE_FILES + (p->keep ? POOL_KEPT_FILES : 0);
    unsigned long long need = nodes * (unsigned long long)each + POOL_START_FILES + RUN_TOOL_FILES;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl))
        return 0;                            /* unknown: as before, an error at the node that fails */
    if (rl.rlim_cur != RLIM_INFINITY && need > rl.rlim_cur) {
        struct rlimit up = { need, rl.rlim_max != RLIM_INFINITY && need > rl.rlim_max ? need : rl.rlim_max };
        if (setrlimit(RLIMIT_NOFILE, &up)) {
            snprintf(err, errlen, "%llu nodes need about %llu open files in the run tool (%d a node, %d for the "
                     "run tool), more than the %llu it may open (the hard limit, ulimit -Hn, which only a process "
                     "with CAP_SYS_RESOURCE may raise, to at most /proc/sys/fs/nr_open: %s); raise it, run fewer "
                     "nodes, or spread them over hosts (wormsim-mpi)", nodes, need, each,
                     POOL_START_FILES + RUN_TOOL_FILES, (unsigned long long)rl.rlim_max, strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* The machine's nodes this host runs (all of them but under wormsim-mpi). */
int own_nodes(const struct run *rn)
{
    int own = 0;
    for (int i = 0; i < rn->m.nodes; i++)
        own += link_owner(i, rn->m.nodes) == link_rank();
    return own;
}

/* A machine whose nodes this host's run tool could not hold open is
 * refused before any node starts (files_fit). */
int check_files(struct run *rn)
{
    char err[400];
    int own = own_nodes(rn);
    if (!own || !files_fit(&rn->h->pool, (unsigned long long)own, err, sizeof err))
        return 0;
    fprintf(stderr, "wormsim: %s\n", err);
    return -1;
}

/* --check's answer once every check has passed: the machine, the host
 * memory it needs against what it may use, and the run's time limits. */
void print_accepted(struct run *rn)
{
    int own;
    char dims[64], lim[160];
    unsigned long long idle, limit = memory_limit(rn, &idle);
    int nidle = pool_idle(&rn->h->pool);
    machine_dims_str(&rn->m, dims, sizeof dims);
    if (rn->mem_limit_mib)
        snprintf(lim, sizeof lim, "--mem-limit %llu MiB", rn->mem_limit_mib);
    else if (nidle)
        snprintf(lim, sizeof lim, "%llu MiB available, of which %d idle pool nodes hold %llu MiB",
                 limit >> 20, nidle, idle >> 20);
    else
        snprintf(lim, sizeof lim, "%llu MiB available", limit >> 20);
    char merging[80] = "";
    if (rn->merge_pages)
        snprintf(merging, sizeof merging, " once the nodes' pages are merged, and %d MiB kept free while they "
                 "start", MERGE_SLACK_MIB);
    char mem[sizeof rn->mem_hosts + 320];
    if (link_size() > 1)         /* wormsim-mpi: each host's ranks together */
        snprintf(mem, sizeof mem, "host memory: %s%s (%s each host)", rn->mem_hosts, merging, lim);
    else
        snprintf(mem, sizeof mem, "about %llu MiB of host memory%s (%s)", memory_need(rn, &own) >> 20,
                 merging, lim);
    printf("wormsim: %s on %s %s (%d nodes): accepted; %s, and the router holds at most %llu MiB of "
           "messages; limits %.0f s in all (--timeout), %.0f s with no NIC use (--hang-timeout)\n", rn->app,
           topo_names[rn->m.topo], dims, rn->m.nodes, mem, rn->held_room >> 20, rn->timeout_s, rn->hang_s);
}
