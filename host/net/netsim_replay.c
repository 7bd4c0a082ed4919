/* netsim --replay (netsim.c): the messages a wormsim run recorded, each
 * handed to the network at its post time on the run's machine and
 * parameters, and whether they kept their recorded times and the links
 * counted what links.csv holds. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <jansson.h>
#include "machine.h"
#include "host_clock.h"
#include "out/msg_replay.h"
#include "out/results.h"
#include "out/report.h"
#include "show.h"
#include "files.h"
#include "netsim.h"

/* The machine a run ran on (its summary.json's topology and dims); -1
 * with the reason if it has none, or if the run sent fetch-and-increment
 * packets or rendezvous control worms, which messages.csv does not hold
 * (msg_replay.h). */
static int run_machine(const char *dir, struct topo_shape *m, char *err, size_t errlen)
{
    json_t *s = results_load(dir, err, errlen);
    if (!s)
        return -1;
    const char *topo = json_string_value(json_object_get(s, "topology"));
    const char *dims = json_string_value(json_object_get(s, "dims"));
    char b[SHOW_LEN], why[600];
    int bad = !topo || !dims;
    if (bad)
        snprintf(err, errlen, "%s/summary.json names no \"topology\" and \"dims\" (strings)", show(b, dir, 0));
    else if ((bad = machine_parse(m, topo, NULL, dims, why, sizeof why) != 0))
        snprintf(err, errlen, "%s/summary.json: %s", show(b, dir, 0), why);
    json_int_t fi = json_integer_value(json_object_get(s, "fetch_inc_packets"));
    if (!bad && (bad = fi > 0))
        snprintf(err, errlen, "the run sent %lld fetch-and-increment packets (summary.json), which messages.csv "
                 "does not hold, so it does not replay", (long long)fi);
    json_int_t rv = json_integer_value(json_object_get(s, "rendezvous_packets"));
    if (!bad && (bad = rv > 0))
        snprintf(err, errlen, "the run sent %lld rendezvous requests and clears (summary.json, eager_max = %lld), "
                 "which messages.csv does not hold, so it does not replay", (long long)rv,
                 (long long)json_integer_value(json_object_get(json_object_get(s, "network"), "eager_max")));
    json_decref(s);
    return bad ? -1 : 0;
}

/* A run that failed (summary.json's ok false) recorded the messages it
 * had sent until it ended: the replay takes those, and says so first, so
 * that a short replay is not read as the run's whole traffic. */
static void say_if_failed(const char *dir)
{
    char err[600], b[SHOW_LEN], e[SHOW_LEN];
    json_t *s = results_load(dir, err, sizeof err);
    if (s && json_is_false(json_object_get(s, "ok"))) {
        const char *why = json_string_value(json_object_get(s, "error"));
        fprintf(stderr, "netsim: --replay %s: the run failed (%s); its messages.csv holds what it sent before it "
                "ended, and only that replays\n", show(b, dir, 0), why ? show(e, why, 0) : "summary.json: ok false");
    }
    json_decref(s);
}

/* The run's links.csv against the links network n counted (as
 * report_links_csv writes them): 0 if the same, else the first line that
 * differs; -1 with the reason in err if it cannot be read. */
static long links_differ(const struct net *n, const struct topo_shape *m, const char *dir, char *err, size_t errlen)
{
    char path[4200], *mine = NULL, *run = NULL;
    size_t nmine = 0, cap = 0;
    snprintf(path, sizeof path, "%s/links.csv", dir);
    FILE *f = file_fopen_regular(path, "run's links", 1ll << 30, err, errlen);
    if (!f)
        return -1;
    FILE *g = open_memstream(&mine, &nmine);
    if (g) {
        report_links_csv(g, n, m);
        fclose(g);
    }
    long line = 0, at = -1;
    char *p = mine;
    for (ssize_t k; at < 0 && mine && (k = getline(&run, &cap, f)) >= 0;) {
        line++;
        size_t len = strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
        if ((size_t)k != len || memcmp(run, p, len))
            at = line;
        p += len;
    }
    if (at < 0 && mine)
        at = *p ? line + 1 : 0;          /* the replay's table goes on past the run's */
    int bad = !mine || ferror(f);
    if (bad)
        snprintf(err, errlen, "%.700s: could not be read, or no memory to compare it", path);
    fclose(f);
    free(run);
    free(mine);
    return bad ? -1 : at;
}

/* --replay: the run's messages, each handed over at its post time; one
 * JSON object or table row, and whether every message kept its recorded
 * times and every link its counters (links.csv). 0, 1 if not and nothing
 * was set (the network is the run's), -1 on an error (in err). */
static int run_replay(const struct cfg *c, const char *dir, int what_if, char *err, size_t errlen)
{
    char path[4200], b[SHOW_LEN];
    snprintf(path, sizeof path, "%s/messages.csv", dir);
    FILE *f = file_fopen_regular(path, "run's messages", 1ll << 40, err, errlen);
    if (!f)
        return -1;
    struct msg_replay r;
    int bad = msg_replay_read(f, path, c->m.nodes, &r, err, errlen);
    fclose(f);
    if (bad)
        return -1;
    struct net *n = new_net(c, err, errlen);
    double w0 = now_s(), c0 = own_cpu_s();
    int rc = !n || msg_replay_run(n, &r, err, errlen) ? -1 : 0;
    double wall = now_s() - w0, cpu = own_cpu_s() - c0;
    size_t first = 0, same = 0;
    long link_line = 0;
    if (rc == 0) {
        uint64_t h = DIGEST_START;
        for (size_t i = 0; i < r.n; i++)
            h = fold_msg(h, &r.m[i].nm);
        same = msg_replay_matched(n, &r, &first);
        print_engine_run(c, n, h, "messages", r.n, "as_recorded", same, wall, cpu);
        link_line = links_differ(n, &c->m, dir, err, errlen);
        rc = link_line < 0 ? -1 : (same < r.n || link_line) && !what_if;
    }
    if (rc == 1 && link_line) {
        fflush(stdout);
        fprintf(stderr, "netsim: the links the replay's network counted differ from %s/links.csv from line %ld\n",
                show(b, dir, 0), link_line);
    }
    if (rc == 1 && same < r.n) {
        const struct msg_replay_msg *m = &r.m[first];
        fflush(stdout);
        fprintf(stderr, "netsim: %zu of the %zu messages of %s crossed the network at other times than in the run; "
                "the first, line %zu (%d -> %d, %u bytes): in, head, arrived at %llu, %llu, %llu ns in the run, "
                "%llu, %llu, %llu here. A run whose messages.csv has no kind column (made before it had one) "
                "may hold multidestination worms or have sent fetch-and-increment packets, which do not replay\n",
                r.n - same, r.n, show(b, path, 0), m->line, m->nm.src, m->nm.dst, m->nm.len,
                (unsigned long long)m->t_inject_ns, (unsigned long long)m->t_head_ns,
                (unsigned long long)m->t_arrive_ns, (unsigned long long)net_cycle_to_ns(n, m->nm.c_inject),
                (unsigned long long)net_cycle_to_ns(n, m->nm.c_head),
                (unsigned long long)net_cycle_to_ns(n, m->nm.c_arrive));
    }
    msg_replay_free(&r);
    net_free(n);
    return rc;
}

/* The files of a run directory that --replay reads (wormsim writes them all). */
static const char *const run_files[] = { "summary.json", "params.conf", "messages.csv", "links.csv" };

/* dir is a run directory: a directory holding every one of run_files.
 * 0, or -1 with what it is instead said. */
static int check_run_dir(const char *dir)
{
    char b[SHOW_LEN], path[4200], lacks[128] = "";
    struct stat st;
    if (stat(dir, &st)) {
        fprintf(stderr, "netsim: --replay: no run directory %s: %m\n", show(b, dir, 1));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "netsim: --replay: %s is not a run directory: it is not a directory\n", show(b, dir, 1));
        return -1;
    }
    size_t o = 0;
    for (size_t i = 0; i < sizeof run_files / sizeof *run_files; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, run_files[i]);
        if (stat(path, &st) && (errno == ENOENT || errno == ENOTDIR))
            o += (size_t)snprintf(lacks + o, sizeof lacks - o, "%s%s", o ? ", " : "", run_files[i]);
    }
    if (o)
        fprintf(stderr, "netsim: --replay: %s is not a run directory (wormsim's runs/latest, for one): "
                "it has no %s\n", show(b, dir, 1), lacks);
    return o ? -1 : 0;
}

/* netsim --replay RUN_DIR [--set ..]: the run's machine and parameters,
 * then its messages (run_replay). */
int replay_main(struct cfg *c, const char *dir, const char *traffic_opt, const char *const *sets, int nsets)
{
    char err[1400], conf[4200], b[SHOW_LEN];
    enum topo_port pm;
    params_defaults(&c->p, &pm);
    if (traffic_opt) {
        fprintf(stderr, "netsim: --replay takes the run's machine, parameters and messages; %s does not go with "
                "it (--set, --no-jump, --check-jump and --json do)\n", traffic_opt);
        return 2;
    }
    if (!*dir) {
        fprintf(stderr, "netsim: --replay needs a run directory (wormsim's runs/latest, for one)\n");
        return 2;
    }
    if (check_run_dir(dir))
        return 2;
    snprintf(conf, sizeof conf, "%s/params.conf", dir);
    if (params_load(&c->p, &pm, conf, err, sizeof err) || run_machine(dir, &c->m, err, sizeof err)) {
        fprintf(stderr, "netsim: --replay %s: %s\n", show(b, dir, 0), err);
        return 2;
    }
    struct params run = c->p;
    if (apply_sets(&c->p, &pm, sets, nsets))
        return 2;
    if (refuse_node_change(&run, &c->p, "--replay --set", "a replay hands the network each message at its "
                           "recorded time"))            /* so a node's key would change nothing */
        return 2;
    c->m.all_port = pm;
    if (params_check_net(&c->p, &c->m, NULL, nsets, err, sizeof err)) {
        fprintf(stderr, "netsim: --replay %s: %s\n", show(b, dir, 0), err);
        return 2;
    }
    say_if_failed(dir);
    int r = run_replay(c, dir, nsets > 0, err, sizeof err);
    if (r < 0)
        fprintf(stderr, "netsim: --replay %s: %s\n", show(b, dir, 0), err);
    return r < 0 ? 2 : r;
}
