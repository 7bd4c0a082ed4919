#ifndef RESULTS_H
#define RESULTS_H

#include "engine/engine.h"
#include "report.h"

struct node_fault {
    int node;
    const char *kind;
    uint32_t pc, addr;
};

struct outcome {
    int ok;
    char error[1024];          /* empty when ok */
    struct node_fault fault;   /* node = -1 if none */
    int interrupted;           /* the signal that ended the run, or 0 */
    double wall_s;
    double router_cpu_s;       /* the router's own CPU time (user + system) during the run */
    /* The host's wake-ups: doorbells the nodes rang (their eventfds'
     * counts; a node of another host counts one per BELL relayed) and
     * interrupts the router raised. */
    unsigned long long doorbells, interrupts;
    const char *app, *args;
    const char *run_dir;
    int gdb_node;
    const unsigned char *arch;  /* per node: enum node_arch */
    /* wormsim-mpi over several ranks (host/relay/link.h): per node the rank
     * that hosted it, per rank its host's name; NULL on one host */
    const int *node_rank;
    const char *const *rank_host;
    int ranks;
    json_t *invocation;         /* what made the run (host/out/replay.h), or NULL */
    int trace_written;          /* trace.json is in run_dir */
};

/* Write run_dir/summary.json. Returns 0 or -1. */
int results_write(const struct engine *r, const struct report *rep, const struct outcome *o);

/* Read dir/summary.json back (a run directory's, at most RESULTS_SUMMARY_MAX
 * bytes): its object, or NULL with the reason, naming dir, in err. */
#define RESULTS_SUMMARY_MAX (256ll << 20)   /* per node a few hundred bytes, and the records */
json_t *results_load(const char *dir, char *err, size_t errlen);

/* The console summary. */
void results_print(const struct engine *r, const struct report *rep, const struct outcome *o);

/* The nodes' output (their logs' lines) shown after the summary: node 0's,
 * every node's (each line after its node's number), or none. */
enum output_shown { OUTPUT_NODE0, OUTPUT_ALL, OUTPUT_NONE, OUTPUT_SHOWN_COUNT };
extern const char *const output_shown_names[OUTPUT_SHOWN_COUNT];   /* --output's words: "node0", ... */
#define OUTPUT_LINES 20          /* lines shown at most; the rest stay in the logs */

/* Print the output chosen from run_dir's node logs of nodes nodes to f:
 * at most OUTPUT_LINES lines, each without control bytes (C0, DEL, C1 in
 * UTF-8: show_bytes) and cut at 200 bytes (a node's text is not trusted),
 * then how many lines more and where. */
void results_print_output(const char *run_dir, int nodes, enum output_shown which, FILE *f);

/* "node 3 waits in RECV(src=4, tag=7) since 1200 ns" for each waiting node. */
void results_print_waiting(const struct engine *r, FILE *f, int max_lines);

#endif
