/* alltoall_auto, allgather_auto: pick an algorithm by topology, size and
 * block length. The first row that applies wins; a choice whose messages
 * would exceed --msg-max or whose buffers would not fit node memory gives
 * way to the row's fallback, and the last resort (GEN, ring) always fits
 * when len itself does.
 *
 * Complete exchange (alltoall_auto):
 *   | machine                                  | len    | algorithm         | why
 *   | hypercube                                | <= 64  | std_exchange      | log2 N start-ups (McKinley 7)
 *   | hypercube                                | > 64   | direct            | no rearrangement (McKinley 7)
 *   | N x N torus, N = 2^n >= 8                | <= 16  | a1                | N/4+5 start-ups (torus paper 000, 3.2)
 *   | 2^d x 2^d mesh                           | <= 128 | quadrant_exchange | 3(sqrt N - 1) contention-free steps
 *   | p a power of two, p < 64                 | < 1024 | gen               | Thakur 5: GEN best for small p, blocks
 *   | p a power of two                         | any    | pex               | Thakur 5: PEX for larger p or blocks
 *   | other p, q - p >= q/4 (q = 2^ceil(lg p)) | any    | gen               | Thakur 5: GEN when q - p is large
 *   | other p                                  | any    | pex_gen_shift     | Thakur 5: better than PEX-GEN
 *   fallback of every row: gen.
 * The len thresholds of the first rows are the crossovers measured on
 * this emulator with its defaults (t_send = t_recv = 500 ns, 10 ns a
 * hop, 1 byte/ns, 1 ns an instruction), where every byte a node copies
 * into or out of its NIC costs about 4 ns: standard exchange beats direct
 * up to len 128 on 16 nodes and 32 (not 128) on 64 nodes; quadrant
 * exchange beats PEX up to about len 190 on 4 x 4 and past 128 on 8 x 8;
 * A1 beats PEX up to len 16 and loses from 32 on the 8 x 8 torus. Under
 * the contention-free network GEN and PEX take the same time, so the
 * GEN / PEX rows follow the paper's measurements on the Delta.
 * All-to-all broadcast (allgather_auto):
 *   | hypercube                                | std_exchange | n steps, N-1 blocks in (McKinley 7)
 *   | all-port n x n mesh, all-port odd n x n torus | flood   | optimal transmission (slides 004)
 *   | 2D torus                                 | rowcol       | both ways round the rings (slides 004)
 *   | mesh or torus                            | ring         | one ring per dimension (McKinley 7)
 */
#include <stdio.h>
#include "coll.h"

/* The `auto` entries: no schedule of their own (sends == NULL). */
const struct coll_algo coll_alltoall_auto = { .op = COLL_ALLTOALL, .name = "auto", .app = "alltoall_auto" };
const struct coll_algo coll_allgather_auto = { .op = COLL_ALLGATHER, .name = "auto", .app = "allgather_auto" };

static int square2d(const struct app_shape *sh)
{
    return sh->ndims == 2 && sh->dims[0] == sh->dims[1];
}

/* The algorithm fits: its messages and its buffers. */
static int fits(const struct coll_algo *a, const struct app_shape *sh, long len, unsigned long msg_max)
{
    return (unsigned long)a->max_msg_blocks(sh) * (unsigned long)len <= msg_max &&
           coll_mem_need(a, sh, len) <= APP_NODE_HEAP_BYTES;
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

const struct coll_algo *coll_auto(enum coll_op op, const struct app_shape *sh, long len,
                                  unsigned long msg_max, char *why, size_t whylen)
{
    const struct coll_algo *a = NULL;
    int p = sh->nodes, N = sh->dims[0];
    if (op == COLL_ALLGATHER) {
        if (sh->topo == SHAPE_HYPERCUBE)
            a = pick(op, "std_exchange", "hypercube", sh, len, msg_max, why, whylen);
        else if (sh->all_port && square2d(sh) && (sh->topo == SHAPE_MESH || N % 2 == 1))
            a = pick(op, "flood", "all-port square 2D mesh or odd torus", sh, len, msg_max, why, whylen);
        else if (sh->topo == SHAPE_TORUS && sh->ndims == 2)
            a = pick(op, "rowcol", "2D torus", sh, len, msg_max, why, whylen);
        return a ? a : pick(op, "ring", "mesh or torus (or the others do not fit)", sh, len, msg_max,
                            why, whylen);
    }
    if (sh->topo == SHAPE_HYPERCUBE)
        a = len <= 64 ? pick(op, "std_exchange", "hypercube, len <= 64", sh, len, msg_max, why, whylen)
                      : pick(op, "direct", "hypercube, len > 64", sh, len, msg_max, why, whylen);
    else if (sh->topo == SHAPE_TORUS && square2d(sh) && is_pow2(N) && N >= 8 && len <= 16)
        a = pick(op, "a1", "N x N torus, N = 2^n >= 8, len <= 16", sh, len, msg_max, why, whylen);
    else if (sh->topo == SHAPE_MESH && square2d(sh) && is_pow2(N) && N >= 2 && len <= 128)
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
