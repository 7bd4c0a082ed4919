/* summary.json (through jansson) and the console summary. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <jansson.h>
#include "results.h"
#include "params.h"
#include "report.h"
#include "launch/arch.h"
#include "show.h"
#include "files.h"

json_t *results_load(const char *dir, char *err, size_t errlen)
{
    char path[4200], b[SHOW_LEN];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    json_error_t je;
    FILE *f = file_fopen_regular(path, "summary.json", RESULTS_SUMMARY_MAX, je.text, sizeof je.text);
    json_t *s = f ? json_loadf(f, 0, &je) : NULL;
    if (f)
        fclose(f);
    if (!s)
        snprintf(err, errlen, "%s is not a run directory: no readable summary.json (%s)", show(b, dir, 1), je.text);
    else if (!json_is_object(s)) {
        snprintf(err, errlen, "%s/summary.json is not a JSON object", show(b, dir, 0));
        json_decref(s);
        s = NULL;
    }
    return s;
}

static const char *state_name(enum node_state s)
{
    static const char *const n[] = { "boot", "running", "blocked", "exited", "failed" };
    return n[s];
}

/* A source or tag of a waiting node: the number, or "any". */
static json_t *id_json(uint32_t v) { return v == NIC_ANY ? json_string("any") : json_integer(v); }

static json_t *waiting_json(const struct engine *r)
{
    json_t *a = json_array();
    for (int i = 0; i < r->n; i++) {
        const struct node *n = &r->nodes[i];
        if (n->state != NODE_BLOCKED)
            continue;
        json_t *w = json_pack("{s:i, s:s, s:I}", "node", i, "op", engine_op_name(n->blk.op),
                              "since_ns", (json_int_t)n->blk.time_ns);
        int any = n->blk.op == NIC_OP_PROBE_ANY;   /* its first pattern's, then every one */
        uint32_t src = any ? n->pats[0].src : n->blk.peer, tag = any ? n->pats[0].tag : n->blk.tag;
        json_object_set_new(w, "src", id_json(src));
        json_object_set_new(w, "tag", id_json(tag));
        if (any) {
            json_t *pl = json_array();
            for (uint32_t k = 0; k < n->npats; k++)
                json_array_append_new(pl, json_pack("{s:o, s:o, s:I}", "src", id_json(n->pats[k].src), "tag",
                                                    id_json(n->pats[k].tag), "mask", (json_int_t)n->pats[k].mask));
            json_object_set_new(w, "patterns", pl);
        }
        json_array_append_new(a, w);
    }
    return a;
}

int results_write(const struct engine *r, const struct report *rep, const struct outcome *o)
{
    int csv_bad = report_write_csv(r, rep, o->run_dir);
    if (csv_bad)
        fprintf(stderr, "wormsim: cannot write the CSV reports in %s\n", o->run_dir);
    char dims[64];
    machine_dims_str(&r->m, dims, sizeof dims);
    json_t *codes = json_array(), *finish = json_array(), *states = json_array();
    json_t *per_node = json_array(), *arch = json_array();
    for (int i = 0; i < r->n; i++) {
        json_array_append_new(arch, json_string(arch_names[o->arch[i]]));
        const struct node *n = &r->nodes[i];
        json_array_append_new(codes, n->state == NODE_EXITED ? json_integer(n->exit_code) : json_null());
        json_array_append_new(finish, n->state == NODE_EXITED ? json_integer((json_int_t)n->finish_ns) : json_null());
        json_array_append_new(states, json_string(state_name(n->state)));
        json_array_append_new(per_node, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}",
            "sends", (json_int_t)n->sends, "recvs", (json_int_t)n->recvs,
            "startups", (json_int_t)(n->sends + n->recvs),
            "bytes_sent", (json_int_t)n->bytes_sent, "bytes_recv", (json_int_t)n->bytes_recv,
            "wait_ns", (json_int_t)n->wait_ns));
    }
    json_t *net = json_object();
    for (int i = 0; i < params_count(); i++) {
        char v[64];
        int num;
        params_value(&r->p, r->m.all_port, i, v, sizeof v, &num);
        json_object_set_new(net, params_key(i), num ? json_integer(strtoll(v, NULL, 10)) : json_string(v));
    }
    json_object_set_new(net, "cycle_ps", json_integer((json_int_t)net_cycle_ps(r->net)));
    json_t *s = json_pack("{s:b, s:s, s:s, s:s, s:s, s:i, s:o, s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:o, s:o}",
        "ok", o->ok, "app", o->app, "args", o->args ? o->args : "",
        "topology", topo_names[r->m.topo], "dims", dims, "nodes", r->n, "arch", arch,
        "exit_codes", codes, "finish_ns", finish, "node_states", states,
        "sim_time_ns", (json_int_t)r->sim_end,
        "messages", (json_int_t)r->messages, "bytes", (json_int_t)r->bytes,
        "unreceived_messages", (json_int_t)r->unreceived, "reordered_messages", (json_int_t)r->reordered,
        "fetch_inc_packets", (json_int_t)r->fi_packets,
        "rendezvous_messages", (json_int_t)r->rdv_messages, "rendezvous_packets", (json_int_t)r->rdv_packets,
        "wall_s", o->wall_s, "network", net, "per_node", per_node);
    uint64_t stepped, jumped, jumps, moves, moves_jumped;
    net_engine_stats(r->net, &stepped, &jumped, &jumps);
    net_engine_moves(r->net, &moves, &moves_jumped);
    json_object_set_new(s, "engine", json_pack("{s:I, s:I, s:I, s:I, s:I, s:f, s:I, s:I}", "cycles_stepped", (json_int_t)stepped,
        "cycles_jumped", (json_int_t)jumped, "jumps", (json_int_t)jumps, "flit_moves", (json_int_t)moves,
        "flit_moves_jumped", (json_int_t)moves_jumped, "router_cpu_s", o->router_cpu_s,
        "doorbells", (json_int_t)o->doorbells, "interrupts", (json_int_t)o->interrupts));
    json_object_set_new(s, "error", o->error[0] ? json_string(o->error) : json_null());
    if (o->fault.node >= 0)
        json_object_set_new(s, "fault", json_pack("{s:i, s:s, s:I, s:I}", "node", o->fault.node,
            "kind", o->fault.kind, "pc", (json_int_t)o->fault.pc, "addr", (json_int_t)o->fault.addr));
    else
        json_object_set_new(s, "fault", json_null());
    json_object_set_new(s, "waiting", waiting_json(r));
    json_object_set(s, "links", rep->links);
    json_object_set(s, "steps", rep->steps);
    json_object_set(s, "message_time", rep->message_time);
    json_object_set_new(s, "records", report_records_json(r));
    if (o->node_rank) {
        json_t *nr = json_array(), *hosts = json_array();
        for (int i = 0; i < r->n; i++)
            json_array_append_new(nr, json_integer(o->node_rank[i]));
        for (int k = 0; k < o->ranks; k++)
            json_array_append_new(hosts, json_string(o->rank_host[k]));
        json_object_set_new(s, "placement", json_pack("{s:i, s:o, s:o}", "ranks", o->ranks, "rank_host", hosts,
                                                      "node_rank", nr));
    }
    if (o->invocation)
        json_object_set(s, "invocation", o->invocation);
    json_object_set_new(s, "interrupted_by_signal", o->interrupted ? json_integer(o->interrupted) : json_null());
    char path[4096];
    snprintf(path, sizeof path, "%s/summary.json", o->run_dir);
    int rc = json_dump_file(s, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(s);
    if (rc)
        fprintf(stderr, "wormsim: cannot write %s\n", path);
    return rc || csv_bad ? -1 : 0;
}

void results_print_waiting(const struct engine *r, FILE *f, int max_lines)
{
    int shown = 0, total = 0;
    for (int i = 0; i < r->n; i++) {
        const struct node *n = &r->nodes[i];
        if (n->state != NODE_BLOCKED && n->state != NODE_RUNNING && n->state != NODE_BOOT)
            continue;
        total++;
        if (shown >= max_lines)
            continue;
        shown++;
        if (n->state == NODE_BLOCKED) {
            char src[16], tag[16], more[40] = "";
            int any = n->blk.op == NIC_OP_PROBE_ANY;   /* its first pattern's */
            uint32_t s = any ? n->pats[0].src : n->blk.peer, t = any ? n->pats[0].tag : n->blk.tag;
            snprintf(src, sizeof src, s == NIC_ANY ? "any" : "%u", s);
            snprintf(tag, sizeof tag, t == NIC_ANY ? "any" : "%u", t);
            if (any && n->npats > 1)
                snprintf(more, sizeof more, " or %u more patterns", n->npats - 1);
            fprintf(f, "  node %d waits in %s(src=%s, tag=%s%s) since %llu ns\n", i,
                    engine_op_name(n->blk.op), src, tag, more, (unsigned long long)n->blk.time_ns);
        } else if (n->state == NODE_RUNNING) {
            fprintf(f, "  node %d is running; last heard of at %llu ns\n", i, (unsigned long long)n->lb);
        } else {
            fprintf(f, "  node %d never brought its NIC up\n", i);
        }
    }
    if (total > shown)
        fprintf(f, "  ... and %d more (summary.json lists them all)\n", total - shown);
}

void results_print(const struct engine *r, const struct report *rep, const struct outcome *o)
{
    char dims[64];
    machine_dims_str(&r->m, dims, sizeof dims);
    FILE *f = o->ok ? stdout : stderr;
    char isa[64];
    arch_describe(o->arch, r->n, isa, sizeof isa);
    fprintf(f, "wormsim: %s on %s %s (%d nodes): %s\n", o->app, topo_names[r->m.topo], dims, r->n,
            o->ok ? "ok" : "FAILED");
    if (!o->ok)
        fprintf(f, "  %s\n", o->error);
    fprintf(f, "  node ISA        %s\n", isa);
    uint64_t reached = engine_time_reached(r);
    if (!o->ok && reached > r->sim_end)
        fprintf(f, "  simulated time  %llu ns (the last exit); the nodes had reached %llu ns when the run "
                "stopped\n", (unsigned long long)r->sim_end, (unsigned long long)reached);
    else
        fprintf(f, "  simulated time  %llu ns\n", (unsigned long long)r->sim_end);
    fprintf(f, "  messages        %llu (%llu bytes)\n", (unsigned long long)r->messages,
            (unsigned long long)r->bytes);
    if (r->unreceived)
        fprintf(f, "  unreceived      %llu messages were never received\n", (unsigned long long)r->unreceived);
    if (r->p.eager_max)
        fprintf(f, "  rendezvous      %llu messages longer than eager_max = %u bytes waited for their receive "
                "(%llu requests-to-send and clears-to-send)\n", (unsigned long long)r->rdv_messages, r->p.eager_max,
                (unsigned long long)r->rdv_packets);
    if (r->reordered)
        fprintf(f, "  reordered       %llu messages overtook an earlier one of their pair in the network; their NIC "
                "held them until it came\n", (unsigned long long)r->reordered);
    report_print(rep, r->nlog > 0, f);
    uint64_t stepped, jumped, jumps, moves, moves_jumped;
    net_engine_stats(r->net, &stepped, &jumped, &jumps);
    net_engine_moves(r->net, &moves, &moves_jumped);
    fprintf(f, "  wall time       %.2f s (router CPU %.2f s, %llu doorbells, %llu interrupts; network: %llu cycles "
            "stepped, %llu jumped over; %.0f%% of flit moves jumped in %llu periodic stretches)\n", o->wall_s,
            o->router_cpu_s, o->doorbells, o->interrupts, (unsigned long long)stepped, (unsigned long long)jumped,
            moves ? 100.0 * (double)moves_jumped / (double)moves : 0.0, (unsigned long long)jumps);
    fprintf(f, "  results         %s/: summary.json, command, params.conf, links.csv, messages.csv, steps.csv, "
            "records.csv, node-*.log%s\n", o->run_dir, o->trace_written ? ", trace.json (open it in ui.perfetto.dev)" : "");
}

#define LINE_SHOWN 200   /* bytes of a log line shown at most */

/* The next line of log, NULs included: at most LINE_SHOWN bytes into buf
 * (the rest up to its newline skipped, *cut then set), its line end (LF,
 * or the serial console's CR LF) left out. Returns the bytes kept, or -1
 * at the end of the file. */
static long read_line(FILE *log, char buf[LINE_SHOWN], int *cut)
{
    long n = 0;
    int c = EOF;
    *cut = 0;
    while ((c = getc(log)) != EOF && c != '\n') {
        if (n < LINE_SHOWN)
            buf[n++] = (char)c;
        else
            *cut = 1;
    }
    if (c == EOF && n == 0 && !*cut)
        return -1;
    if (!*cut && n && buf[n - 1] == '\r')
        n--;
    return n;
}

const char *const output_shown_names[OUTPUT_SHOWN_COUNT] = {
    [OUTPUT_NODE0] = "node0", [OUTPUT_ALL] = "all", [OUTPUT_NONE] = "none",
};

void results_print_output(const char *run_dir, int nodes, enum output_shown which, FILE *f)
{
    if (which == OUTPUT_NONE)
        return;
    int last = which == OUTPUT_ALL ? nodes : 1, shown = 0, more = 0, cut;
    char line[LINE_SHOWN], out[LINE_SHOWN];
    for (int i = 0; i < last; i++) {
        char path[1100], prefix[32];
        snprintf(path, sizeof path, "%s/node-%03d.log", run_dir, i);
        FILE *log = fopen(path, "r");
        if (!log)
            continue;
        snprintf(prefix, sizeof prefix, which == OUTPUT_ALL ? "    %3d| " : "    ", i);
        long len;
        while ((len = read_line(log, line, &cut)) >= 0) {
            if (!shown && !more)
                fprintf(f, which == OUTPUT_ALL ? "  output of every node:\n" : "  output of node 0:\n");
            if (shown++ >= OUTPUT_LINES) {
                more++;
                continue;
            }
            fputs(prefix, f);                   /* control bytes as '?' (show_bytes) */
            fwrite(out, 1, show_bytes(out, line, (size_t)len, 1), f);
            fputs(cut ? " ...\n" : "\n", f);
        }
        fclose(log);
    }
    if (more)
        fprintf(f, "    ... %d more lines in %s/node-%s.log\n", more, run_dir, which == OUTPUT_ALL ? "*" : "000");
}
