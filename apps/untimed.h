/* Registry lookups cost no simulated time.
 *
 * Rule (docs/design.md, "How simulated time arises"): a run's figures
 * depend only on the code the run executes, its parameters and the
 * network model. Finding a name in a registry (apps/apps.def,
 * apps/coll/algos.def) retires instructions that depend on the name's
 * position in the table and on the alignment of the strings compared,
 * which any other app's entry moves. Every such lookup on the node runs
 * between UNTIMED_BEGIN() and UNTIMED_END(), which pause the node's clock
 * (kernel/clock.c); on the host (the run tool's checks, the unit tests)
 * they do nothing. Pairs nest. */
#ifndef UNTIMED_H
#define UNTIMED_H

#ifdef WORMSIM_NODE
void clock_pause(void);
void clock_resume(void);
#define UNTIMED_BEGIN() clock_pause()
#define UNTIMED_END()   clock_resume()
#else
#define UNTIMED_BEGIN() ((void)0)
#define UNTIMED_END()   ((void)0)
#endif

#endif
