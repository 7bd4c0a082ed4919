/* libFuzzer harness: the router's whole node-facing surface.
 *
 * A node is untrusted code that can write anything into its NIC memory at
 * any time and ring its doorbell at will. This harness plays several such
 * nodes from the fuzzer's bytes: link-up, well-formed descriptors with any
 * field values, raw writes anywhere in NIC memory (config, status block,
 * producer index, ring, payload), doorbells, faults, and the engine
 * advancing in between; then builds the run's report, CSVs, summary.json
 * and trace, as the run tool does at the end of every run. Built with
 * ASan and UBSan (make fuzz), any crash, leak, overflow or undefined
 * behaviour is a finding. Errors the router reports are fine: refusing a
 * node is its job.
 *
 * Input format (every field optional: the input may end anywhere):
 *   byte 0   machine: shape (low 2 bits), switching, all-port, trace,
 *            arbitration (top 2 bits)
 *   then records, one opcode byte each (op = byte % 8, node = byte / 8 % nodes):
 *     HELLO    node says hello (hello = 1), engine_node_hello
 *     DESC     a descriptor: op, flags, time step, peer, tag, len, off
 *              (flags choose raw 32/64-bit values and a wrong seq)
 *     WRITE    raw bytes: 16-bit offset, length (<= 64), bytes
 *     POLL     the doorbell: engine_node_poll
 *     FAULT    status block says FAULT; the run tool marks it failed
 *     ADVANCE  engine_advance
 *     SPACE    want_space = 1, then a doorbell
 *     BURST    n doorbells with nothing new
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine/engine.h"
#include "params.h"
#include "out/report.h"
#include "out/results.h"
#include "out/trace.h"

#define MAXN 8
#define NIC_BYTES 65536u

struct in { const uint8_t *p; size_t n; };

static int take(struct in *in, void *out, size_t len)
{
    if (in->n < len) {
        memset(out, 0, len);
        in->n = 0;
        return -1;
    }
    memcpy(out, in->p, len);
    in->p += len;
    in->n -= len;
    return 0;
}
static uint8_t u8(struct in *in) { uint8_t v; take(in, &v, 1); return v; }
static uint16_t u16(struct in *in) { uint16_t v; take(in, &v, 2); return v; }
static uint32_t u32(struct in *in) { uint32_t v; take(in, &v, 4); return v; }
static uint64_t u64(struct in *in) { uint64_t v; take(in, &v, 8); return v; }

static char outdir[256];
static const char *const outputs[] = { "summary.json", "messages.csv", "links.csv", "steps.csv", "records.csv",
                                       "trace.json" };

/* The run directory the harness writes into lives under
 * $WORMSIM_FUZZ_DIR (tests/fuzz/run.sh makes one in /dev/shm and removes
 * it whole), else in /dev/shm (tmpfs: no disk traffic), and goes when the
 * fuzzer exits. */
static void remove_outdir(void)
{
    char path[300];
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", outdir, outputs[i]);
        unlink(path);
    }
    rmdir(outdir);
}
static int notified;
static void on_notify(void *ctx, int rank) { (void)ctx; (void)rank; notified++; }

static const struct { const char *topo, *nodes, *dims; } shapes[4] = {
    { "mesh", "2", NULL }, { "torus", NULL, "2x2" }, { "hypercube", "8", NULL }, { "mesh", NULL, "3x2" },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct in in = { data, size };
    if (!outdir[0]) {
        const char *parent = getenv("WORMSIM_FUZZ_DIR");
        snprintf(outdir, sizeof outdir, "%s/wormsim-fuzz.XXXXXX", parent && *parent ? parent : "/dev/shm");
        if (!mkdtemp(outdir))
            abort();
        atexit(remove_outdir);
    }
    uint8_t mb = u8(&in);
    struct topo_shape m;
    char err[256];
    if (machine_parse(&m, shapes[mb & 3].topo, shapes[mb & 3].nodes, shapes[mb & 3].dims, err, sizeof err))
        abort();
    struct params p;
    enum topo_port pm;
    params_defaults(&p, &pm);
    p.nic_mem = NIC_BYTES;
    p.msg_max = 4096;
    p.held_max = 65536;
    p.net.switching = (enum switching)(mb >> 2 & 3) % 3;
    p.net.alloc = (enum alloc)((mb >> 6 & 3) % ALLOC_COUNT);
    p.net.nic_vcs = 1 + ((mb >> 4 ^ mb >> 6) & 1);  /* both with either port model (the alloc bit) */
    p.eager_max = (mb >> 3 ^ mb >> 5) & 1 ? 64 : 0;  /* rendezvous past 64 bytes, or every message eager */
    m.all_port = mb & 0x10 ? TOPO_ALL_PORT : TOPO_ONE_PORT;
    if (params_check(&p, err, sizeof err))
        abort();
    struct engine r;
    if (engine_init(&r, &m, &p))
        abort();
    r.notify = on_notify;
    if (mb & 0x20) {
        r.timeline = trace_new();
        trace_links(r.timeline, &r);
    }
    int n = m.nodes;
    static uint8_t mem[MAXN][NIC_BYTES];
    uint8_t *shm[MAXN];
    uint64_t t[MAXN] = { 0 };
    for (int i = 0; i < n; i++) {
        shm[i] = mem[i];
        memset(shm[i], 0, NIC_BYTES);
        engine_attach(&r, i, shm[i], NIC_BYTES, "fuzz", "len=16");
    }
    while (in.n) {
        uint8_t code = u8(&in);
        int node = code / 8 % n;
        uint8_t *s = shm[node];
        volatile struct nic_status *st = (volatile struct nic_status *)(s + NIC_STATUS_OFF);
        volatile uint32_t *prod = (volatile uint32_t *)(s + NIC_PROD_OFF);
        switch (code % 8) {
        case 0:
            st->hello = 1;
            engine_node_hello(&r, node);
            break;
        case 1: {
            uint8_t op = u8(&in), fl = u8(&in);
            struct nic_desc d = { .op = fl & 1 ? u32(&in) : op % 8 };
            uint64_t step = fl & 2 ? u64(&in) : u16(&in);
            d.time_ns = fl & 4 ? step : t[node] + step;
            d.peer = fl & 8 ? u32(&in) : u8(&in) % (n + 1);
            d.tag = fl & 16 ? u32(&in) : u8(&in);
            d.len = fl & 32 ? u32(&in) : u16(&in) % 5000;
            d.off = fl & 64 ? u32(&in) : u16(&in);
            d.seq = fl & 128 ? u32(&in) : *prod;
            if (!(fl & 4) && d.time_ns >= t[node])
                t[node] = d.time_ns;
            const struct nic_config *c = (const struct nic_config *)(s + NIC_CONFIG_OFF);
            uint32_t slots = c->ring_slots ? c->ring_slots : 64;
            uint32_t at = c->ring_off + (*prod % slots) * (uint32_t)sizeof d;
            if (at <= NIC_BYTES - sizeof d)            /* the node writes where its config says */
                memcpy(s + at, &d, sizeof d);
            (*prod)++;
            break;
        }
        case 2: {
            uint16_t off = u16(&in);
            uint8_t len = u8(&in) % 65;
            uint8_t b[64];
            take(&in, b, len);
            if ((size_t)off + len <= NIC_BYTES)
                memcpy(s + off, b, len);
            break;
        }
        case 3:
            engine_node_poll(&r, node);
            break;
        case 4:
            st->state = NIC_STATE_FAULT;
            st->fault_kind = u32(&in);
            engine_node_failed(&r, node);
            break;
        case 5:
            engine_advance(&r);
            break;
        case 6:
            st->want_space = 1;
            engine_node_poll(&r, node);
            break;
        case 7:
            for (int k = u8(&in) % 16; k >= 0; k--)
                engine_node_poll(&r, node);
            break;
        }
        if (!engine_bounds_consistent(&r))
            abort();                       /* a state change the bounds' trees missed */
    }
    /* The end of a run: what the run tool reads and writes. */
    engine_deadlocked(&r);
    engine_all_exited(&r);
    struct report rep;
    report_build(&rep, &r);
    unsigned char arch[MAXN] = { 0 };
    struct outcome o = { .ok = !r.error[0], .fault = { -1, NULL, 0, 0 }, .app = "fuzz", .args = "len=16",
                         .run_dir = outdir, .gdb_node = -1, .arch = arch };
    snprintf(o.error, sizeof o.error, "%s", r.error);
    results_write(&r, &rep, &o);
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
        results_print_waiting(&r, devnull, 16);
        fclose(devnull);
    }
    report_free(&rep);
    if (r.timeline) {
        char path[300];
        snprintf(path, sizeof path, "%s/trace.json", outdir);
        trace_write(r.timeline, &r, path);
        trace_free(r.timeline);
        r.timeline = NULL;
    }
    engine_free(&r);
    return 0;
}
