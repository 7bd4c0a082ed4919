/* The run tool's options: its usage, the command line read into struct
 * run and struct cli, and the parameters (the preset, then each --set). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include "run.h"
#include "../show.h"
#include "../files.h"
#include "../out/results.h"

/* The files a run reads unless told otherwise, from the project's tree
 * (file_in_tree: found from another directory too). */
const char *const default_kernel[ARCH_COUNT] = { [ARCH_ARM] = "build/arm/node.elf",
                                                        [ARCH_RISCV] = "build/riscv/node.elf" };
const char *const default_template[ARCH_COUNT] = { [ARCH_ARM] = "qemu-scripts/arm-virt.args",
                                                          [ARCH_RISCV] = "qemu-scripts/riscv-virt.args" };

static void usage(FILE *f)
{
    char topos[256], port_models[64], port_model[32], outputs[64];
    machine_topo_list(topos, sizeof topos, " | ");
    params_accepted("port_model", port_models, sizeof port_models, " | ");
    params_default("port_model", port_model, sizeof port_model);
    show_names(outputs, sizeof outputs, output_shown_names, OUTPUT_SHOWN_COUNT, " | ");
    fprintf(f,
"usage: wormsim [options]\n"
"  -a, --app NAME         node program (default %s); --list-apps lists them\n"
"  -n, --nodes N          node count (default %d, a dragonfly %d; or the product of --dims)\n"
"  -t, --topo KIND        %s (default %s)\n"
"  -d, --dims AxB[xC..]   sizes per dimension, dimension 0 first (default: near-square 2D)\n"
"      --port-model M     %s (default %s; --set port_model=)\n"
"  -A, --args 'k=v ..'    arguments for the node program (for example 'len=4096')\n"
"                         (for --app mpi, the program's argv: any words, and the MPI\n"
"                         library's settings MPIR_CVAR_<OP>_INTRA_ALGORITHM=name)\n"
"  -g, --gdb NODE         start NODE halted with a gdbstub; attach with make gdb NODE=...\n"
"                         (no wall-clock limit then: not with --timeout, --hang-timeout)\n"
"      --runs-dir DIR     where run directories go (default %s)\n"
"      --arch A           the nodes' ISA: arm (default), riscv, mixed (even ranks arm,\n"
"                         odd ranks riscv), or a list such as arm,riscv,riscv that\n"
"                         node i reads at i mod its length\n"
"      --kernel ELF       ARM node image (default %s)\n"
"                         an MPI program's image: build/bin/wormsim-mpicc -o ELF prog.c,\n"
"                         run with --app mpi; make run MPI='prog.c ..' does both (docs/mpi.md)\n"
"      --kernel-riscv ELF RISC-V node image (default %s)\n"
"      --qemu-template F  ARM QEMU command template (default %s)\n"
"      --qemu-template-riscv F  RISC-V template (default %s)\n"
"      --timeout S        wall-clock limit of the whole run (default 60 + nodes/2 s, the\n"
"                         time the nodes may take on the app's buffers, below, and what\n"
"                         the app's ARGS ask (runs=, iters=, items=, len= of the\n"
"                         control-network apps): 1 ms of a host core a message or\n"
"                         operation, and fetchinc's work= at 50 M instructions a\n"
"                         second a core; at most %d s. An MPI program takes the\n"
"                         default: the host cannot know its length)\n"
"      --hang-timeout S   end the run when nothing moved for S seconds (default 15 s,\n"
"                         nodes x the app's buffer bytes at 8 MiB/s a host core, and\n"
"                         every node spinning a work= at once; at most the --timeout)\n"
"      --mem-limit MIB    host memory the run may use (default: what the host has\n"
"                         available); a machine estimated to need more is refused\n"
"      --merge-pages      nodes share their identical pages through the kernel's samepage\n"
"                         merging (KSM, Linux 6.7 or later; it must run: /sys/kernel/mm/ksm/run\n"
"                         = 1, and pages_to_scan 2000 keeps up with starts), and their QEMUs\n"
"                         run without address randomisation; about 4 MiB a node instead of\n"
"                         17; past what the host could hold unmerged, starts are paced\n"
"                         while ksmd merges (each node host of wormsim-mpi its own;\n"
"                         docs/scale.md)\n"
"      --preset NAME      network and node parameters from presets/NAME.conf (or a file path)\n"
"      --set 'k=v ...'    set parameters (applied after the preset, in order); keys in docs/network.md\n"
"                         (routing=NAME and selection=NAME: unicast routing, below)\n"
"      --t-send NS, --t-recv NS, --cpu-ps PS, --msg-max BYTES, --nic-mem BYTES\n"
"                         shorthands for --set t_send_ns=, t_recv_ns=, cpu_ps=, msg_max=, nic_mem=\n"
"      --output WHICH     the nodes' output shown after the summary: %s\n"
"                         (default %s); at most %d lines, the rest in the run's node-*.log\n"
"      --log-max BYTES    the most of a node's console its node-*.log keeps (default\n"
"                         %llu, at least %llu); what comes later is counted, not kept\n"
"      --replay RUN_DIR   run RUN_DIR's command again (its summary.json's \"invocation\"),\n"
"                         from the directory it ran in, and say whether every figure\n"
"                         matches; exit 0 same, 1 different (alone: no other option)\n"
"      --trace            also write trace.json: a timeline per node and per link (Perfetto)\n"
"      --no-jump          step the network model every cycle instead of jumping over\n"
"                         periodic stretches (slower; the results are the same)\n"
"      --check-jump       run a second network model stepped every cycle in every router\n"
"                         (no shortcut) beside the jumping one, and fail the run at the\n"
"                         first difference\n"
"      --serve NAME       keep a pool of node emulators and run what wormsim --pool\n"
"                         NAME hands it, one run at a time, until interrupted\n"
"      --pool NAME        run on the pool NAME (warm nodes: no QEMU start), as if\n"
"                         run here: same options, output, files and exit status\n"
"      --check            check everything a run would (options, preset, machine, app and\n"
"                         ARGS, memory, node images, QEMU), say so and exit: 0 accepted,\n"
"                         2 refused with the reason; no node starts\n"
"      --list-apps        print the node programs and exit\n"
"      --list-params      print every --set/preset key, its accepted values and default, and exit\n"
"      --params           print every parameter as a run of these options would take it\n"
"                         (--preset, then --set and the shorthands, in order), in\n"
"                         params.conf's form, and exit\n",
            DEFAULT_APP, machine_default_nodes(DEFAULT_TOPO), machine_default_nodes(TOPO_DRAGONFLY), topos,
            topo_names[DEFAULT_TOPO], port_models, port_model, DEFAULT_RUNS_DIR, default_kernel[ARCH_ARM],
            default_kernel[ARCH_RISCV], default_template[ARCH_ARM], default_template[ARCH_RISCV], TIMEOUT_MAX_S, outputs, output_shown_names[OUTPUT_NODE0], OUTPUT_LINES,
            LOG_MAX_DEFAULT, LOG_MAX_MIN);
    net_alloc_list(f);
    net_route_list(f);
}

/* Option opt's value s, a whole number of `unit` ("" or " of bytes")
 * from lo to hi, in *out; -1, said, if it is not one. */
static int parse_whole(const char *opt, const char *unit, const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    uint64_t v;
    int rc = params_number(s, &v);
    if (rc || v < lo || v > hi) {
        char b[SHOW_LEN];
        fprintf(stderr, "wormsim: %s %s is not a whole number%s from %llu to %llu%s\n", opt, show(b, s, 1), unit,
                (unsigned long long)lo, (unsigned long long)hi, rc == NUMBER_OCTAL ? NUMBER_FORM : "");
        return -1;
    }
    *out = v;
    return 0;
}

int parse_u32(const char *opt, const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    uint64_t v;
    if (parse_whole(opt, "", s, lo, hi, &v))
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int parse_seconds(const char *opt, const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v > 0) || v > TIMEOUT_MAX_S) {
        fprintf(stderr, "wormsim: %s '%s' is not a number of seconds above 0 and at most %d\n", opt, s,
                TIMEOUT_MAX_S);
        return -1;
    }
    *out = v;
    return 0;
}

/* Each default file the options left in place, found in the tree. */
static void find_default_files(struct run *rn)
{
    static char kernel[ARCH_COUNT][4096], tpl[ARCH_COUNT][4096];
    for (int a = 0; a < ARCH_COUNT; a++) {
        if (rn->kernel[a] == default_kernel[a]) {
            rn->kernel[a] = file_in_tree(default_kernel[a], kernel[a], sizeof kernel[a]);
            rn->kernel_built[a] = 1;
        }
        if (rn->template_path[a] == default_template[a])
            rn->template_path[a] = file_in_tree(default_template[a], tpl[a], sizeof tpl[a]);
    }
}

/* Read the options into rn and cl. Returns -1 when the run goes on, else
 * the exit status: 0 after --help, --list-apps or --list-params, 2 (said)
 * for a bad option. */
int parse_options(struct run *rn, struct cli *cl, int argc, char **argv)
{
    enum { O_PORT = 256, O_RUNS, O_ARCH, O_KERNEL, O_KERNEL_RV, O_TPL, O_TPL_RV, O_TIMEOUT, O_HANG,
           O_TSEND, O_TRECV, O_CPU, O_MSGMAX, O_NICMEM, O_LIST, O_LISTP, O_PRESET, O_SET, O_TRACE, O_NOJUMP, O_CHECKJUMP, O_MEMLIMIT,
           O_CHECK, O_OUTPUT, O_MERGE, O_LOGMAX, O_PARAMS };
    static const struct option opts[] = {
        { "app", 1, 0, 'a' }, { "nodes", 1, 0, 'n' }, { "topo", 1, 0, 't' }, { "dims", 1, 0, 'd' },
        { "args", 1, 0, 'A' }, { "gdb", 1, 0, 'g' }, { "port-model", 1, 0, O_PORT },
        { "runs-dir", 1, 0, O_RUNS }, { "arch", 1, 0, O_ARCH },
        { "kernel", 1, 0, O_KERNEL }, { "kernel-riscv", 1, 0, O_KERNEL_RV },
        { "qemu-template", 1, 0, O_TPL }, { "qemu-template-riscv", 1, 0, O_TPL_RV },
        { "timeout", 1, 0, O_TIMEOUT }, { "hang-timeout", 1, 0, O_HANG },
        { "t-send", 1, 0, O_TSEND }, { "t-recv", 1, 0, O_TRECV },
        { "cpu-ps", 1, 0, O_CPU }, { "msg-max", 1, 0, O_MSGMAX },
        { "nic-mem", 1, 0, O_NICMEM }, { "list-apps", 0, 0, O_LIST }, { "list-params", 0, 0, O_LISTP }, { "help", 0, 0, 'h' },
        { "preset", 1, 0, O_PRESET }, { "set", 1, 0, O_SET }, { "trace", 0, 0, O_TRACE }, { "no-jump", 0, 0, O_NOJUMP }, { "check-jump", 0, 0, O_CHECKJUMP }, { "mem-limit", 1, 0, O_MEMLIMIT },
        { "check", 0, 0, O_CHECK }, { "output", 1, 0, O_OUTPUT }, { "merge-pages", 0, 0, O_MERGE },
        { "log-max", 1, 0, O_LOGMAX }, { "params", 0, 0, O_PARAMS }, { 0, 0, 0, 0 },
    };
    static const struct { int opt; const char *key; } shorthand[] = {
        { O_PORT, "port_model" }, { O_TSEND, "t_send_ns" }, { O_TRECV, "t_recv_ns" },
        { O_CPU, "cpu_ps" }, { O_MSGMAX, "msg_max" }, { O_NICMEM, "nic_mem" },
    };
    int c, bad = 0;
    optind = 0;                      /* a server parses a run's options afresh each time */
    for (int at = 1; (c = getopt_long(argc, argv, "a:n:t:d:A:g:h", opts, NULL)) != -1; at = optind) {
        int done = 0;
        for (size_t k = 0; k < sizeof shorthand / sizeof shorthand[0]; k++)
            if (c == shorthand[k].opt) {
                cl->set_key[cl->nset] = shorthand[k].key;
                cl->set_val[cl->nset++] = optarg;
                done = 1;
            }
        if (done)
            continue;
        switch (c) {
        case 'a': rn->app = optarg; break;
        case 'n': cl->nodes = *optarg ? optarg : NULL; break;
        case 't': cl->topo = optarg; break;
        case 'd': cl->dims = *optarg ? optarg : NULL; break;
        case 'A': rn->args = optarg; break;
        case 'g':
            cl->gdb = *optarg ? optarg : NULL;
            cl->gdb_at = at;
            cl->gdb_len = optind - at;
            break;
        case O_RUNS: rn->runs_dir = optarg; break;
        case O_ARCH: rn->arch_spec = optarg; break;
        case O_KERNEL: rn->kernel[ARCH_ARM] = optarg; break;
        case O_KERNEL_RV: rn->kernel[ARCH_RISCV] = optarg; break;
        case O_TPL: rn->template_path[ARCH_ARM] = optarg; break;
        case O_TPL_RV: rn->template_path[ARCH_RISCV] = optarg; break;
        case O_TIMEOUT: bad |= parse_seconds("--timeout", optarg, &rn->timeout_s); break;
        case O_HANG: bad |= parse_seconds("--hang-timeout", optarg, &rn->hang_s); break;
        case O_PRESET: cl->preset = *optarg ? optarg : NULL; break;
        case O_TRACE: rn->want_trace = 1; break;
        case O_NOJUMP: rn->jump = NET_JUMP_OFF; break;
        case O_CHECKJUMP: rn->jump = NET_JUMP_CHECK; break;
        case O_MEMLIMIT: {
            uint32_t v = 0;
            bad |= parse_u32("--mem-limit", optarg, 1, 1u << 30, &v);
            rn->mem_limit_mib = v;
            break;
        }
        case O_SET:
            cl->set_key[cl->nset] = NULL;                   /* a whole list */
            cl->set_val[cl->nset++] = optarg;
            break;
        case O_LIST: list_apps(stdout); return 0;
        case O_LISTP: params_list(stdout); return 0;
        case O_CHECK: rn->check_only = 1; break;
        case O_PARAMS: cl->show_params = 1; break;
        case O_MERGE: rn->merge_pages = 1; break;
        case O_LOGMAX: {
            uint64_t v;
            if (parse_whole("--log-max", " of bytes", optarg, LOG_MAX_MIN, LOG_MAX_MAX, &v))
                bad = 1;
            else
                rn->log_max = v;
            break;
        }
        case O_OUTPUT: {
            int w = 0;
            while (w < OUTPUT_SHOWN_COUNT && strcmp(optarg, output_shown_names[w]))
                w++;
            if (w < OUTPUT_SHOWN_COUNT) {
                rn->output = (enum output_shown)w;
            } else {
                char b[SHOW_LEN], accepted[64];
                show_names(accepted, sizeof accepted, output_shown_names, OUTPUT_SHOWN_COUNT, ", ");
                fprintf(stderr, "wormsim: --output %s: accepted: %s\n", show(b, optarg, 1), accepted);
                bad = 1;
            }
            break;
        }
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "wormsim: unexpected argument '%s'\n", argv[optind]);
        usage(stderr);
        return 2;
    }
    find_default_files(rn);
    if (!*rn->runs_dir) {            /* "/<date>-..." would land in the root directory */
        fprintf(stderr, "wormsim: --runs-dir is empty; give a directory (default " DEFAULT_RUNS_DIR ")\n");
        bad = 1;
    }
    return bad ? 2 : -1;
}

/* The run's parameters: the preset's, then each assignment in order,
 * checked together. Returns 0, or 2 with the reason said. */
int apply_params(struct run *rn, struct cli *cl, enum topo_port *port_model)
{
    char perr[1024];
    if (cl->preset && params_load(&rn->p, port_model, cl->preset, perr, sizeof perr)) {
        fprintf(stderr, "wormsim: %s\n", perr);
        return 2;
    }
    for (int k = 0; k < cl->nset; k++) {
        int rc = cl->set_key[k] ? params_set(&rn->p, port_model, cl->set_key[k], cl->set_val[k], perr, sizeof perr)
                                : params_set_list(&rn->p, port_model, cl->set_val[k], perr, sizeof perr);
        if (rc) {
            fprintf(stderr, "wormsim: %s\n", perr);
            return 2;
        }
    }
    if (params_check(&rn->p, perr, sizeof perr)) {
        fprintf(stderr, "wormsim: %s\n", perr);
        return 2;
    }
    free(cl->set_key);
    free(cl->set_val);
    return 0;
}
