/* The broadcast of Tseng et al. on all-port, dimension-ordered k-D tori
 * (seed 001, "Algebraic foundations and broadcasting algorithms for
 * wormhole-routed all-port tori"), shared by bcast_tseng2d, bcast_tseng3d
 * and bcast_tsengkd (apps/coll/tseng_util.c has the construction and the
 * reading of the paper). Pure C: host and node.
 */
#ifndef TSENG_H
#define TSENG_H

#include "coll.h"

/* Which assignment of distances to routing-matrix rows the last stage
 * uses: TSENG_SEC3 is section 3's 2-D scheme (x moves by 2t, y by t);
 * TSENG_DEF6 is Definitions 6 and 7 (row j carries the distance ~ j t). */
enum tseng_variant { TSENG_DEF6 = 0, TSENG_SEC3 = 1 };

/* ceil(log_(2k+1) n): the distribution levels of one stage. */
int  tseng_levels(int k, int n);
/* k ceil(log_(2k+1) n) + (k - 1): the paper's step count (Theorem 2). */
int  tseng_paper_steps(int k, int n);
/* Steps actually used: the paper's count less the alignment steps that
 * have nothing to move (stage 1 when n <= 3). */
int  tseng_nsteps(const struct app_shape *sh, enum tseng_variant v);
void tseng_sends(const struct app_shape *sh, enum tseng_variant v, int node, int step, struct coll_emit *e);
int  tseng_senders(const struct app_shape *sh, enum tseng_variant v, int node, int step, int from[COLL_MAX_MSGS]);
long tseng_one(const struct app_shape *sh);
/* Refuses more than 8 dimensions (2k messages a step, COLL_MAX_MSGS), and
 * a side n for which the top level finds no layout whose every message
 * takes the intended way round (none is known: the unit tests try every
 * k <= 8 up to large n). */
int  tseng_check(const struct app_shape *sh, enum tseng_variant v, char *err, size_t errlen);

/* The hooks of struct coll_algo for each variant: bcast_tseng2d uses
 * section 3's, bcast_tseng3d and bcast_tsengkd Definitions 6 and 7. */
int  tseng_sec3_nsteps(const struct app_shape *sh);
void tseng_sec3_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e);
int  tseng_sec3_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]);
int  tseng_sec3_check(const struct app_shape *sh, char *err, size_t errlen);
int  tseng_def6_nsteps(const struct app_shape *sh);
void tseng_def6_sends(const struct app_shape *sh, int node, int step, struct coll_emit *e);
int  tseng_def6_senders(const struct app_shape *sh, int node, int step, int from[COLL_MAX_MSGS]);
int  tseng_def6_check(const struct app_shape *sh, char *err, size_t errlen);

#endif
