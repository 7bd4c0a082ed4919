/* The pairwise XOR exchange schedule (coll.h): step i pairs node j with
 * j XOR i, one block each way. Used by alltoall_pex.c and
 * alltoall_direct.c, which cite their own papers and restrictions. */
#include "coll.h"

int coll_xor_nsteps(const struct app_shape *sh) { return sh->nodes - 1; }

void coll_xor_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e)
{
    int partner = node ^ step;
    coll_emit_msg(e, partner);
    coll_emit_blk(e, coll_lab(node, partner, sh->nodes));
}

int coll_xor_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS])
{
    (void)sh;
    from[0] = node ^ step;
    return 1;
}

long coll_xor_msg_blocks(const struct app_shape *sh) { (void)sh; return 1; }
long coll_xor_held_blocks(const struct app_shape *sh) { return sh->nodes; }
