/* The trees and rings shared by the scatter, gather, reduction, scan and
 * barrier schedules (apps/coll/reduce_util.c; McKinley, Tsai and Robinson,
 * sections 2, 4, 5, 7). Pure C, host and node.
 *
 * A rooted tree is given in its scatter orientation: at step g = 1..T a
 * node sends to its child at g the blocks of that child's subtree at g.
 * The gathering operations (gather, reduce, barrier's first half) run the
 * same edges backwards, step g' = T + 1 - g, child to parent.
 *
 *   RED_BINOMIAL  the spanning binomial tree by recursive halving over
 *                 ranks relative to the root (section 4, Fig. 10): T =
 *                 ceil(lg p); at step g (m = 2^(T-g)) relative rank r with
 *                 r mod 2m = 0 and r + m < p sends to r + m, whose subtree
 *                 is the relative ranks r+m .. min(r+2m, p)-1. Relative
 *                 rank is node XOR root when p is a power of two (the SBT
 *                 of a hypercube: every edge joins neighbours), else
 *                 (node - root) mod p.
 *   RED_DIMS      the same halving within each dimension in turn, 0 first
 *                 (section 5, Barnett et al., Fig. 11 and 12): T = sum
 *                 ceil(lg w_i); in dimension i the nodes whose coordinates
 *                 above i equal the root's halve their line, relative
 *                 coordinate (c_i - root_i) mod w_i; a child's subtree is
 *                 its coordinates below i, its half-line in i, anything
 *                 above i.
 */
#ifndef COLL_REDUCE_H
#define COLL_REDUCE_H

#include "coll.h"

enum red_tree { RED_BINOMIAL, RED_DIMS };

int  red_ceil_lg(long x);                            /* ceil(log2 x), x >= 1 */
int  red_root(const struct app_shape *sh);           /* cx->root, 0 without a context */
int  red_tree_steps(enum red_tree k, const struct app_shape *sh);
/* The child `node` sends to at scatter step g, or -1. */
int  red_tree_child(enum red_tree k, const struct app_shape *sh, int root, int node, int g);
/* The parent that sends to `node` at scatter step g, or -1. */
int  red_tree_parent(enum red_tree k, const struct app_shape *sh, int root, int node, int g);
/* Append the labels (ranks) of child's subtree at step g to the message. */
void red_tree_subtree(enum red_tree k, const struct app_shape *sh, int root, int child, int g,
                      struct coll_emit *e);
/* The largest subtree sent at one step (the scatter's biggest message). */
long red_tree_max_subtree(enum red_tree k, const struct app_shape *sh);

/* The tree's edges with one block of `label` per message: up (child to
 * parent, the gathering direction, at step t = T+1-g, the default mode)
 * and down (parent to child at step t = g, with `mode`). `root` is the
 * tree's root. */
void red_up_sends(enum red_tree k, const struct app_shape *sh, int root, int node, int t, int label,
                  struct coll_emit *e);
int  red_up_senders(enum red_tree k, const struct app_shape *sh, int root, int node, int t,
                    int from[COLL_MAX_MSGS]);
void red_down_sends(enum red_tree k, const struct app_shape *sh, int root, int node, int t, int label,
                    enum coll_mode mode, struct coll_emit *e);
int  red_down_senders(enum red_tree k, const struct app_shape *sh, int root, int node, int t,
                      int from[COLL_MAX_MSGS]);

/* The hooks of struct coll_algo on each tree (T = ceil(lg p) or sum
 * ceil(lg w_i) steps), from the call's root: scatter (each child gets its
 * subtree's blocks), gather (the same edges backwards), reduce (one
 * segment up each edge), the largest subtree a message carries, and p. */
#define RED_TREE_HOOK_DECLS(t)                                                                     \
    int  red_##t##_steps(const struct app_shape *sh);                                              \
    void red_##t##_scatter_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e); \
    int  red_##t##_scatter_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]); \
    void red_##t##_gather_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e); \
    int  red_##t##_gather_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]); \
    void red_##t##_reduce_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e); \
    int  red_##t##_reduce_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]); \
    long red_##t##_max_subtree(const struct app_shape *sh);
RED_TREE_HOOK_DECLS(binomial)
RED_TREE_HOOK_DECLS(dims)
#undef RED_TREE_HOOK_DECLS
long red_nodes(const struct app_shape *sh);          /* p */

/* Up the binomial tree to node 0, then the result back down it (REPLACE):
 * the schedule of allreduce_tree and barrier_tree (2 ceil(lg p) steps,
 * one block of label 0 a message). */
int  red_updown_nsteps(const struct app_shape *sh);
void red_updown_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e);
int  red_updown_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]);
long red_one(const struct app_shape *sh);            /* 1 */

/* Append the ranks of a box of coordinates: in dimension j the n[j]
 * coordinates lo[j], lo[j]+1, ... (mod w_j); each rank r is emitted as
 * the labels r + q p for q = 0..reps-1. */
void red_emit_box(const struct app_shape *sh, const int lo[SHAPE_MAX_DIMS], const int n[SHAPE_MAX_DIMS],
                  int reps, struct coll_emit *e);

#endif
