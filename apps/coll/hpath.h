/* The worms of Lin et al.'s path-based multicast on a 2D mesh (seed 002
 * section 8, Figure 30(b), (c)): the destinations above the source on the
 * Hamiltonian path (netdev/nic_shm.h, nic_hp_label) in rising label order,
 * those below it in falling order; with quadrants, each half split again
 * by column (x >= the source's, x < it). hpath_worms fills dst with the
 * groups one after the other, n[g] nodes in group g (0 high, 1 high
 * left, 2 low, 3 low left; 1 and 3 stay empty without quadrants), and
 * returns the number of nodes. */
#ifndef COLL_HPATH_H
#define COLL_HPATH_H

#include "coll.h"

int hpath_worms(const struct app_shape *sh, int quadrants, int *dst, int n[4]);

/* The multicast's steps, sends and senders for either form (one step: the
 * source sends every non-empty group as one worm). */
int  hpath_nsteps(const struct app_shape *sh);
void hpath_sends(const struct app_shape *sh, int quadrants, int node, int step, struct coll_emit *e);
int  hpath_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]);

#endif
