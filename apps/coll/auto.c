/* alltoall_auto, allgather_auto: pick an algorithm by topology, size and
 * block length. The first row that applies wins; a choice whose messages
 * would exceed --msg-max or whose buffers would not fit node memory gives
 * way to the row's fallback, and the last resort (GEN, ring) always fits
 * when len itself does.
 *
 * Complete exchange (alltoall_auto):
 *   | machine                                  | len    | algorithm         | why
 *   | hypercube                                | <= 128 | std_exchange      | log2 N start-ups (McKinley 7)
 *   | hypercube                                | > 128  | direct            | no rearrangement (McKinley 7)
 *   | N x N torus, N = 2^n >= 8                | <= 32  | a1                | N/4+5 start-ups (torus paper 000, 3.2)
 *   | 2^d x 2^d mesh                           | <= 128 | quadrant_exchange | 3(sqrt N - 1) contention-free steps
 *   | p a power of two, p < 64                 | < 1024 | gen               | Thakur 5: GEN best for small p, blocks
 *   | p a power of two                         | any    | pex               | Thakur 5: PEX for larger p or blocks
 *   | other p, q - p >= q/4 (q = 2^ceil(lg p)) | any    | gen               | Thakur 5: GEN when q - p is large
 *   | other p                                  | any    | pex_gen_shift     | Thakur 5: better than PEX-GEN
 *   fallback of every row: gen.
 * The len thresholds of the first rows are the crossovers measured on
 * this emulator with its defaults (t_send = t_recv = 500 ns, 10 ns a
 * hop, 1 byte/ns, 1 ns an instruction, word-wise memcpy), slowest node:
 * standard exchange beats direct up to len 256 on 16 nodes (34.4 / 34.8
 * us) and 128 on 64 nodes (110.6 / 144.0; 175.3 / 146.7 at 256);
 * quadrant exchange beats PEX up to len 256 on 4 x 4 (32.0 / 34.8) and
 * 128 on 8 x 8 (105.7 / 144.2; 168.8 / 152.4 at 256); A1 beats PEX up to
 * len 32 (125.6 / 142.0) and loses from 64 (156.3 / 142.6) on the 8 x 8
 * torus. Each row takes the smaller of its machines' thresholds. Under
 * the contention-free network GEN and PEX take the same time, so the
 * GEN / PEX rows follow the paper's measurements on the Delta.
 * All-to-all broadcast (allgather_auto):
 *   | hypercube                                | std_exchange | n steps, N-1 blocks in (McKinley 7)
 *   | all-port n x n mesh, all-port odd n x n torus | flood   | optimal transmission (slides 004)
 *   | mesh, len p <= 4096; torus, len p <= 2048 | bruck       | ceil(lg p) start-ups (Bruck et al. 1997)
 *   | 2D torus                                 | rowcol       | both ways round the rings (slides 004)
 *   | mesh or torus                            | ring         | one ring per dimension (McKinley 7)
 *   Bruck's row is where it beat ring and rowcol with the defaults, slowest
 *   node, us (bruck / ring / rowcol): mesh 4x4 12 / 16 at len 16, 16.3 /
 *   18.6 at 128, 22.2 / 22.4 at 256, 59 / 48 at 1024; 8x8 41.7 / 48.5 at
 *   64, 95 / 76 at 256; 16x16 120.3 / 128.3 at 32, 175 / 146 at 64; 4x4x4
 *   36.6 / 39.6 at 64, 49.4 / 49.2 at 128; 3x5 16.0 / 18.7 at 128, 33.4 /
 *   30.3 at 512. Torus 4x4 14.6 / 17.0 / 15.4 at 64, 26.0 / 22.4 / 19.5
 *   at 256; 8x8 36.6 / 44.9 / 41.6 at 32, 49.3 / 48.4 / 44.9 at 64;
 *   16x16 109.7 / 120.6 / 114.0 at 16, 152.3 / 128.2 / 121.4 at 32; ring
 *   of 16 29.5 / 33.3 at 128, 50.1 / 34.1 at 256; 4x4x4 32.3 / 35.2 at
 *   32, 40.5 / 39.5 at 64; 3x7 19.6 / 23.1 / 20.8 at 64, 25.4 / 25.6 /
 *   22.8 at 128. Its messages grow to p/2 blocks, which contend on a
 *   mesh's links and a torus's rings, so the crossover falls as p grows.
 * Scatter, gather, reduce (scatter_auto ...):
 *   | mesh or torus                            | rd           | a dimension at a time, contention-free
 *   | otherwise (hypercube)                    | binomial     | the SBT
 * All-reduce (allreduce_auto):
 *   | p = 2^k, len <= 2048, or a hypercube     | std_exchange | lg p start-ups
 *   | mesh or torus, len >= 4096               | ring         | 2(p-1)/p of the vector per node
 *   | otherwise                                | tree         | 2 ceil(lg p) steps, any p
 *   (8x8 torus, int sum: std_exchange 14.2 / 129.9 / 932.0 us, ring 84.5 /
 *   104.9 / 284.2 us at len 64 / 4096 / 32768.)
 * Scan: std_exchange when p = 2^k (Kumar), else chain (meshes, tori).
 * Barrier: dissemination (ceil(lg p) rounds against the tree's 2 ceil(lg p)).
 * Broadcast (bcast_auto), first row that applies:
 *   | hypercube, all-port, len >= 8192          | edst            | n trees, l/n each
 *   | hypercube                                 | sbt             | n steps
 *   | all-port ring or n x n torus, len >= 1024 | tsengkd/tseng2d | the fewest steps
 *   | all-port torus, equal sides, 3 or more    | tseng3d/kd      | the fewest steps
 *   |   dimensions, len >= 8192                 |                 |
 *   | all-port 2^k x 2^k mesh, len >= 4096      | edn             | at most k+2 steps
 *   | 2D mesh, even sides, len >= 16384         | edsf            | two fences, pipelined
 *   | mesh or torus, len >= 65536               | scatter_collect | l(2 - 2/p) per node
 *   | mesh or torus                             | rd              | sum ceil(lg w_i) steps
 *   Measured here (defaults, word-wise memcpy, slowest node, us):
 *   7x7 all-port torus, tseng2d / rd: 13.0 / 11.6 at len 256 (four
 *   start-ups a step stagger the fan-out, the survey's "staggering due to
 *   sending latency"), 15.1 / 15.8 at 1024, 29.6 / 32.1 at 4096; 16-node
 *   all-port ring, tsengkd / rd: 7.9 / 8.1 at 256, 11.3 / 12.5 at 1024;
 *   4x4x4 all-port torus, tseng3d / rd: 37.6 / 37.2 at 4096, 61.7 / 61.8
 *   at 8192 (four and more dimensions take this row unmeasured);
 *   32-node all-port hypercube, edst / sbt: 34.8 / 31.0 at 4096,
 *   49.0 / 51.6 at 8192; 8x8 all-port mesh, edn / rd: 25.0 / 24.9 at 2048,
 *   35.0 / 37.2 at 4096; 8x8 one-port mesh, edsf / scatter_collect / rd:
 *   73.0 / 102.2 / 61.8 at 8192, 84.7 / 142.4 / 111.1 at 16384 (the row
 *   keeps 8x8's threshold: on 4x8 edsf loses at 16384, 97.9 / 92.6, and
 *   wins from 32768, 151.8 / 174.6); scatter_collect / rd: 222.5 /
 *   209.5 at 32768 and 383.1 / 406.3 at 65536 on the 8x8 mesh, 386.8 /
 *   401.5 at 65536 on the 7x7 torus.
 * Multicast (mcast_auto): ucube, umesh or utorus by topology.
 * The algorithms on multidestination worms (apps/coll/worms.def) are never
 * chosen: they need routers that copy worms to their nodes, which only
 * some machines had, and run by their own executor; name them to use
 * them (docs/results.md section 9 shows where they win).
 */
#include <stdio.h>
#include "coll.h"

/* The `auto` entries: no schedule of their own (sends == NULL). */
#define AUTO(o, OP) const struct coll_algo coll_##o##_auto = { .op = OP, .name = "auto", .app = #o "_auto" };
AUTO(alltoall, COLL_ALLTOALL)
AUTO(allgather, COLL_ALLGATHER)
AUTO(bcast, COLL_BCAST)
AUTO(mcast, COLL_MCAST)
AUTO(scatter, COLL_SCATTER)
AUTO(gather, COLL_GATHER)
AUTO(reduce, COLL_REDUCE)
AUTO(allreduce, COLL_ALLREDUCE)
AUTO(scan, COLL_SCAN)
AUTO(barrier, COLL_BARRIER)
#undef AUTO

static int square2d(const struct app_shape *sh)
{
    return sh->ndims == 2 && sh->dims[0] == sh->dims[1];
}

/* The algorithm fits: the call's own check, its messages and its buffers
 * (len is the caller's: a block, or the whole message or vector). */
static int fits(const struct coll_algo *a, const struct app_shape *sh0, long len, unsigned long msg_max)
{
    struct coll_ctx cx = { 0 };
    if (sh0->cx)
        cx = *sh0->cx;
    struct app_shape shape = *sh0, *sh = &shape;
    sh->cx = &cx;
    char err[160];
    cx.segs = a->segments ? a->segments(sh) : 1;
    if (a->check && a->check(sh, err, sizeof err))
        return 0;
    long blk = coll_block_len(a, sh, len);
    return (unsigned long)a->max_msg_blocks(sh) * (unsigned long)blk <= msg_max &&
           coll_mem_need(a, sh, blk) <= APP_NODE_HEAP_BYTES;
}

static const struct coll_algo *pick(enum coll_op op, const char *name, const char *reason,
                                    const struct app_shape *sh, long len, unsigned long msg_max,
                                    char *why, size_t whylen)
{
    const struct coll_algo *a = coll_find(op, name);
    if (!fits(a, sh, len, msg_max))
        return NULL;
    snprintf(why, whylen, "%s", reason);
    return a;
}

static const struct coll_algo *auto_rooted(enum coll_op op, const struct app_shape *sh, long len,
                                           unsigned long msg_max, char *why, size_t whylen);

const struct coll_algo *coll_auto(enum coll_op op, const struct app_shape *sh, long len,
                                  unsigned long msg_max, char *why, size_t whylen)
{
    const struct coll_algo *a = NULL;
    int p = sh->nodes, N = sh->dims[0];
    if (op != COLL_ALLTOALL && op != COLL_ALLGATHER)
        return auto_rooted(op, sh, len, msg_max, why, whylen);
    if (op == COLL_ALLGATHER) {
        if (sh->topo == TOPO_HYPERCUBE)
            a = pick(op, "std_exchange", "hypercube", sh, len, msg_max, why, whylen);
        else if (sh->all_port && square2d(sh) && (sh->topo == TOPO_MESH || N % 2 == 1))
            a = pick(op, "flood", "all-port square 2D mesh or odd torus", sh, len, msg_max, why, whylen);
        if (!a && sh->topo == TOPO_MESH && len * p <= 4096)
            a = pick(op, "bruck", "mesh, len p <= 4096: ceil(lg p) start-ups", sh, len, msg_max, why, whylen);
        else if (!a && sh->topo == TOPO_TORUS && len * p <= 2048)
            a = pick(op, "bruck", "torus, len p <= 2048: ceil(lg p) start-ups", sh, len, msg_max, why, whylen);
        if (!a && sh->topo == TOPO_TORUS && sh->ndims == 2)
            a = pick(op, "rowcol", "2D torus", sh, len, msg_max, why, whylen);
        return a ? a : pick(op, "ring", "mesh or torus (or the others do not fit)", sh, len, msg_max,
                            why, whylen);
    }
    if (sh->topo == TOPO_HYPERCUBE)
        a = len <= 128 ? pick(op, "std_exchange", "hypercube, len <= 128", sh, len, msg_max, why, whylen)
                       : pick(op, "direct", "hypercube, len > 128", sh, len, msg_max, why, whylen);
    else if (sh->topo == TOPO_TORUS && square2d(sh) && is_pow2(N) && N >= 8 && len <= 32)
        a = pick(op, "a1", "N x N torus, N = 2^n >= 8, len <= 32", sh, len, msg_max, why, whylen);
    else if (sh->topo == TOPO_MESH && square2d(sh) && is_pow2(N) && N >= 2 && len <= 128)
        a = pick(op, "quadrant_exchange", "2^d x 2^d mesh, len <= 128", sh, len, msg_max, why, whylen);
    else if (is_pow2(p))
        a = p < 64 && len < 1024 ? pick(op, "gen", "p = 2^k < 64, len < 1024", sh, len, msg_max, why, whylen)
                                 : pick(op, "pex", "p = 2^k, p >= 64 or len >= 1024", sh, len, msg_max, why, whylen);
    else if (next_pow2(p) - p >= next_pow2(p) / 4)
        a = pick(op, "gen", "p not a power of two, q - p >= q/4", sh, len, msg_max, why, whylen);
    else
        a = pick(op, "pex_gen_shift", "p not a power of two, q - p < q/4", sh, len, msg_max, why, whylen);
    return a ? a : pick(op, "gen", "fallback: the table's choice does not fit", sh, len, msg_max, why, whylen);
}

/* The other operations (see the table at the top). */
static int mesh_or_torus(const struct app_shape *sh) { return sh->topo == TOPO_MESH || sh->topo == TOPO_TORUS; }

static const struct coll_algo *auto_rooted(enum coll_op op, const struct app_shape *sh, long len,
                                           unsigned long msg_max, char *why, size_t whylen)
{
    const struct coll_algo *a = NULL;
    int p = sh->nodes;
#define PICK(name, reason) pick(op, name, reason, sh, len, msg_max, why, whylen)
    switch (op) {
    case COLL_SCATTER: case COLL_GATHER: case COLL_REDUCE:
        if (mesh_or_torus(sh))
            a = PICK("rd", "mesh or torus: one dimension at a time, contention-free");
        return a ? a : PICK("binomial", "binomial tree (SBT on a hypercube)");
    case COLL_ALLREDUCE:
        if (is_pow2(p) && (len <= 2048 || !mesh_or_torus(sh)))
            a = PICK("std_exchange", "p = 2^k and len <= 2048 (or a hypercube): lg p steps");
        else if (mesh_or_torus(sh) && len >= 4096)
            a = PICK("ring", "mesh or torus, len >= 4096: 2(p-1)/p of the vector per node");
        return a ? a : PICK("tree", "reduce and broadcast on the binomial tree");
    case COLL_SCAN:
        if (is_pow2(p))
            a = PICK("std_exchange", "p = 2^k: Kumar's lg p steps");
        return a ? a : PICK("chain", "mesh or torus: chains per dimension");
    case COLL_BARRIER:
        return PICK("dissemination", "ceil(lg p) rounds, half the tree's");
    case COLL_BCAST: {
        int N = sh->dims[0], cube = sh->topo == TOPO_TORUS && N >= 2;
        for (int i = 1; i < sh->ndims; i++)
            cube = cube && sh->dims[i] == N;
        if (sh->topo == TOPO_HYPERCUBE)
            a = sh->all_port && len >= 8192 ? PICK("edst", "all-port hypercube, len >= 8192: n trees in parallel")
                                            : PICK("sbt", "hypercube: the binomial tree");
        else if (sh->all_port && cube && sh->ndims <= 2 && len >= 1024)
            a = sh->ndims == 2 ? PICK("tseng2d", "all-port n x n torus, len >= 1024")
                               : PICK("tsengkd", "all-port ring, len >= 1024");
        else if (sh->all_port && cube && len >= 8192)
            a = sh->ndims == 3 ? PICK("tseng3d", "all-port n x n x n torus, len >= 8192")
                               : PICK("tsengkd", "all-port torus with equal sides, len >= 8192");
        else if (sh->all_port && sh->topo == TOPO_MESH && square2d(sh) && is_pow2(N) && len >= 4096)
            a = PICK("edn", "all-port 2^k x 2^k mesh, len >= 4096");
        else if (sh->topo == TOPO_MESH && sh->ndims == 2 && N % 2 == 0 && sh->dims[1] % 2 == 0 && len >= 16384)
            a = PICK("edsf", "2D mesh with even sides, len >= 16384: two fences, pipelined");
        else if (mesh_or_torus(sh) && len >= 65536)
            a = PICK("scatter_collect", "mesh or torus, len >= 65536: scatter, then collect");
        return a ? a : PICK("rd", "mesh or torus: recursive doubling a dimension at a time");
    }
    case COLL_MCAST:
        return sh->topo == TOPO_HYPERCUBE ? PICK("ucube", "hypercube")
             : sh->topo == TOPO_MESH ? PICK("umesh", "mesh") : PICK("utorus", "torus");
    default:
        return NULL;
    }
#undef PICK
}
