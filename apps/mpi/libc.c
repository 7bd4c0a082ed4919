/* What the C library of a node lacks and MPI programs call: the time of
 * day and the clocks (the node's simulated time since the run began),
 * the sleeps, sysconf. Linked into MPI programs' images only. */
#define _POSIX_TIMERS 1            /* as MPI programs are built (Makefile, MPI_USER_CFLAGS) */
#define _POSIX_MONOTONIC_CLOCK 200112L
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "../../kernel/kernel.h"
#include "../../netdev/net.h"
#include "mpii.h"

int gettimeofday(struct timeval *tv, void *tz)
{
    (void)tz;
    uint64_t ns = net_time_ns();
    if (tv) {
        tv->tv_sec = (time_t)(ns / 1000000000u);
        tv->tv_usec = (suseconds_t)(ns % 1000000000u / 1000u);
    }
    return 0;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    (void)id;                        /* every clock is the simulated one */
    uint64_t ns = net_time_ns();
    ts->tv_sec = (time_t)(ns / 1000000000u);
    ts->tv_nsec = (long)(ns % 1000000000u);
    return 0;
}

int clock_getres(clockid_t id, struct timespec *ts)
{
    (void)id;
    if (ts)
        *ts = (struct timespec){ .tv_sec = 0, .tv_nsec = 1 };
    return 0;
}

/* A sleep idles the node for the time asked: its simulated clock moves on
 * by that much at once, as an idle processor's time passes, and nothing
 * runs meanwhile (what arrives waits in the NIC). Never interrupted, so
 * nothing is left of it (POSIX: usleep, sleep, nanosleep). */
static void idle_ns(uint64_t ns)
{
    clock_set_ns(clock_now_ns() + ns);
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
    if (!req || req->tv_sec < 0 || req->tv_nsec < 0 || req->tv_nsec > 999999999) {
        errno = EINVAL;              /* POSIX: tv_nsec is 0..999,999,999 */
        return -1;
    }
    idle_ns((uint64_t)req->tv_sec * 1000000000u + (uint64_t)req->tv_nsec);
    if (rem)
        *rem = (struct timespec){ 0 };
    return 0;
}

int usleep(useconds_t us)
{
    idle_ns((uint64_t)us * 1000u);
    return 0;
}

unsigned sleep(unsigned s)
{
    idle_ns((uint64_t)s * 1000000000u);
    return 0;
}

/* One processor a node; pages of 4 KiB (the MMU-less node has none, but
 * programs align buffers to them: sysconf and getpagesize say so). */
long sysconf(int name)
{
    switch (name) {
    case _SC_PAGESIZE: return 4096;
    case _SC_NPROCESSORS_ONLN: case _SC_NPROCESSORS_CONF: return 1;
    case _SC_CLK_TCK: return 1000000000;
    default: errno = EINVAL; return -1;
    }
}

int getpagesize(void)
{
    return 4096;
}

/* abort() raises SIGABRT through kill(getpid(), sig): the node ends,
 * saying which rank and signal, with status 128 + the signal, as a shell
 * reports a process killed by one. */
pid_t getpid(void)
{
    return net_rank() + 1;
}

int kill(pid_t pid, int sig)
{
    if (pid != getpid()) {
        errno = EPERM;
        return -1;
    }
    /* the line the run tool quotes as a node's last word (host/run/events.c) */
    printf("MPI error: rank %d: %s: signal %d\n", net_rank(), sig == SIGABRT ? "abort" : "raise", sig);
    _exit(128 + sig);
}

/* The heap, from the linker's __heap_start to the end of the node's RAM
 * (the run's ram_mib, from __ram_base), and a request it cannot meet said
 * on the node's console, naming the rank and the request, before malloc
 * returns NULL (a program that then uses the NULL faults, and the run
 * names it). */
extern char __heap_start[], __ram_base[];

void *sbrk(ptrdiff_t incr)
{
    static char *brk = __heap_start;
    char *end = __ram_base + ((size_t)net_ram_mib() << 20);
    if (incr > end - brk || incr < __heap_start - brk) {
        printf("MPI: rank %d: out of node memory: a request of %ld bytes; %ld of the heap's %ld bytes are free "
               "(ram_mib=%u)\n", mpii_node(), (long)incr, (long)(end - brk), (long)(end - __heap_start), net_ram_mib());
        errno = ENOMEM;
        return (void *)-1;
    }
    char *old = brk;
    brk += incr;
    return old;
}
