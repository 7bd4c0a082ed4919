/* Exact jumps over periodic stretches of the flit engine, group by group
 * (net_model.h), attached to the cycle model through its hooks
 * (net_state.h, struct net_hooks; net_build.c).
 *
 * When it is exact. The groups below join each input port to the output
 * port every head in it *will* be routed to (net_head_route), so the
 * jump assumes oblivious routing: a head's output depends only on where
 * it is and where it goes. Under an adaptive routing function
 * (net_route.h) it is never on (net_new, net_set_jump), and neither are
 * parked heads nor sleeping routers, which assume one output a head; the
 * run is then stepped, exactly, only slower. It also assumes wormhole
 * switching and input VCs that fit the busy masks (net_parks).
 *
 * Groups. Two worms interact only through a port they share: an input
 * port (its VCs share the switch input, the input round-robin pointer and
 * the credits back up its link), an output port (VC allocation, switch
 * arbitration, credits, an ejection channel's pace), or the link joining
 * an output port to the input port at its far end. The router's phases
 * decide each output port's and each input port's grants from the
 * requests aimed at it alone, so the network's step splits exactly along
 * the connected parts of the graph whose nodes are ports and whose edges
 * are: each link; each input port to the output port its front worm is
 * routed to; each input port to the output port every head flit in it
 * will be routed to. A group is such a part holding flits or a routed VC.
 * Nothing outside a group reads or writes its ports until a new head is
 * routed to one of them (a touch, below).
 *
 * Parked heads (net_state.h) are the exception. A head refused an output
 * VC, every VC of its class there owned, reads the output only to be
 * refused again and changes nothing there until an owner's tail releases
 * a VC; so its input port is not joined to that output, and the worm
 * waiting behind it is a group apart from the worms streaming through
 * the output: each freezes and thaws on its own events. (Under uniform
 * traffic most heads wait so behind a long worm; joined, they made groups
 * of a few dozen ports that an event anywhere thawed whole.) A group in
 * which nothing moves but heads are parked is frozen too, until touched.
 * The link a head waits on counts a blocked cycle every cycle while it
 * waits, whoever else waits there, so that count is kept in closed form
 * (saturation) and by neither group. The tail that releases an owned VC
 * wakes the heads parked on it that may take it, those of its dateline
 * class (the others would only be refused again): they stay parked
 * through that cycle (a
 * group of theirs thawing at the next one steps its last cycles with them
 * refused, as they were) and ask again from the next. A head pushed
 * towards a frozen output where it would park does not thaw the output's
 * group when its parking changes nothing the group counts: the link is
 * saturated already, or the group's period counts a blocked cycle on it in
 * none of its cycles or in all of them (park_counts).
 *
 * Periods. While its worms stream and nothing else happens, a group's
 * state repeats up to two shifts: each worm m has moved d(m) more flits
 * into its destination, and every pending time is P cycles later. The
 * engine treats a flit apart only when it is a head or a tail (routing,
 * VC release, c_inject, c_head, c_leave, c_arrive, traces, link worm
 * counts), and reads absolute time only to see whether a queued message
 * is ready. So from a state S the group makes the same moves as from S
 * shifted, as long as no head or tail moves and no queued message of it
 * becomes ready. The probe records the canonical state of a group at its
 * cycle c0: per run of one worm's consecutive flits in an input VC, the
 * worm (by net_msg.jid: a delivered worm's freed address may come back as
 * another's), the first flit's index less f_out of its worm, the run's
 * length, whether it holds the head or the tail, and how long each of its
 * flits still waits (times relative to c0, clamped at 0; only the nonzero
 * ones, by place); per input VC its route; per injection channel its
 * front worm and how far it has pushed it; per output port its owners,
 * credits and round-robin pointers; per input port its switch pointer.
 * After each cycle stepped it compares each group with its record. Equal
 * at c1 = c0 + P, and still the same set of ports (nothing joined it),
 * means the group is periodic with period P from c0 on (it is
 * deterministic), and its state at c1 + kP is its state at c1 shifted k
 * times, for every k with:
 *   - each worm m with d(m) > 0 pushes no tail: its NIC has pushed nf
 *     flits of its F, and nf + k d(m) <= F - 1;
 *   - each queued message of the group not ready at c1 (ready at rc)
 *     stays so: c1 + kP <= rc;
 *   - every worm that moves is pushed by its NIC as fast as it drains.
 *
 * Freezing. Such a group is frozen at c1, up to kmax periods: the engine
 * stops stepping its ports and keeps its state as it was at c1. It thaws
 * at c1 + kmax P at the latest, or as soon as something outside touches
 * it: a head pushed where it will be routed to one of its ports (it is
 * ready the next cycle at the earliest), a head about to enter the
 * network aimed at one, a message queued on one of its injection
 * channels, a multidestination worm, or a reader of the counters
 * (net_jump_settle). Thawing at cycle t = c1 + kP + j (0 <= j < P) shifts
 * the group k periods, as the bounds allow, adding k times the period's
 * increments to its counters (link flits, blocked cycles and worms, worms'
 * blocked cycles and f_out, flit hops), k d(m) to every flit index and
 * NIC count of each worm m, and kP to every pending time, and then steps
 * its ports alone for the j cycles left; no event falls in them. When
 * every flit in the network is in a frozen group, the clock goes straight
 * to the next thaw, the next injection or the caller's bound.
 *
 * A group that settles only after a while (a head still being routed,
 * VCs still being won) is not periodic from c0. So each group is
 * recorded again, on the same ports, whenever `wait` cycles have passed
 * without a match, and then waits twice as long (Brent's cycle finding):
 * a transient of T cycles and a period P cost O(T + P) cycles stepped,
 * for periods up to JUMP_PMAX. A new record is taken only while the
 * ports are still a whole part (whole()); once they are not, the group
 * is dropped and its part is recorded anew as it is now.
 *
 * Each part has its own record and schedule: record() walks only the
 * parts of seeded ports, those where a part may have begun, split or
 * joined: the ports of a group thawed or of a candidate dropped, a NIC
 * channel starting a worm, a head routed to its ejection channel (home:
 * its part stops growing), a head parking (its input port leaves its
 * output's part), a tail leaving a port no candidate holds. A part that
 * is a candidate's ports exactly keeps its record; one with a head still
 * to cross a link (it grows at each hop: recorded, it would be dropped as
 * not whole) or aimed at a frozen group waits for its next seed. Records
 * come JUMP_REST cycles apart at least, so that a part's events in a
 * burst cost one walk. A candidate that fails (no period by JUMP_PMAX,
 * or too few periods) is tried again after a gap, longer after each
 * failure (up to JUMP_GAP_MAX cycles, back to none at a freeze), so
 * traffic that never settles pays little for it.
 *
 * Short worms. Only a group whose NICs push its moving worms can freeze
 * (periods()), and it thaws before any of them pushes its tail. So while
 * no NIC has more than JUMP_MIN_PUSH flits left of its front worm, a
 * freeze would last a few dozen cycles at most, less than recording the
 * groups and finding their periods costs: no record is taken (the seeds
 * wait) until a message is queued, an event returns to the caller or a
 * group thaws
 * (33-flit worms on a 16x16 torus took 16-25 % more instructions probed
 * than stepped; 65-flit worms break even, longer ones gain).
 *
 * The files. net_jump_probe.c finds the groups and their periods: the
 * parts, the canonical state, the candidates and their records, the
 * periods and their bounds, and the probe's constants (JUMP_*).
 * net_jump.c keeps the frozen groups: their heap, freezing, a thaw's
 * shift and catch-up, the touches that schedule it, and the hooks
 * (net_jump_hooks) the cycle model calls. Their state is net_state.h's
 * (struct jgroup, struct jprobe, struct net_accel); this header holds
 * what the two files share.
 */
#ifndef NET_JUMP_H
#define NET_JUMP_H

#include "net_state.h"

/* Whether port id is an input port (net_in_id), not an output port (net_out_id). */
static inline int is_in(const struct net *n, int id) { return id < n->nr * n->nin; }

/* The link (an index into n->ls) port id drives: an output link port's;
 * -1 for an input port or an ejection channel. A group's link ports, in
 * port order, index its g->ls. */
static inline int link_of(const struct net *n, int id)
{
    if (is_in(n, id))
        return -1;
    int o = net_port_index(n, id);
    return o < n->nlinkp ? net_port_router(n, id) * n->nlinkp + o : -1;
}

/* Port id's part to be looked at by the next record(). Inline: a thaw
 * seeds each port of its group, as the probe's events do theirs. */
static inline void jump_seed(struct net *n, int id)
{
    struct jprobe *p = &n->ac.jp;
    if (!p->seed || p->seeded[id] == p->seedgen)
        return;                          /* (no scratch yet, seed the last of it allocated: the
                                            first record looks at every port) */
    p->seeded[id] = p->seedgen;
    p->seed[p->nseed++] = id;
}

/* net_jump_probe.c, for the frozen groups. jump_drop: candidate g
 * dropped, its ports seeded; jump_drop_candidates: every candidate
 * dropped; jump_group_put: group g done with, to the spare list;
 * jump_group_free: group g's memory freed. */
void jump_drop(struct net *n, struct jgroup *g);
void jump_drop_candidates(struct net *n);
void jump_group_put(struct jprobe *p, struct jgroup *g);
void jump_group_free(struct jgroup *g);

/* net_jump.c, for the probe: candidate g, found periodic with period P,
 * frozen for k periods at most from the current cycle. */
void jump_freeze(struct net *n, struct jgroup *g, uint64_t P, uint64_t k);

#endif
