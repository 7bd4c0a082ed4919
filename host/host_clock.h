/* The host's own clocks, for what a run reports about the host (wall_s,
 * the router's and the engine's CPU time). Simulated time never reads
 * them. */
#ifndef HOST_CLOCK_H
#define HOST_CLOCK_H

#include <time.h>

/* Seconds of wall time since some fixed point. */
static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Seconds of CPU (user and system) this process has used, its children
 * (the node QEMUs) not counted. */
static inline double own_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
