/* Memory a hostile node rewrites between any two reads, for tests of
 * time-of-check to time-of-use (x86-64 Linux). The test arms one page of
 * a node's memory: the page becomes inaccessible, so every instruction of
 * the code under test that touches it faults; the handler makes the page
 * accessible, calls the test's change() on it (the node's write) and lets
 * that one instruction run with the trap flag set; the trap after it makes
 * the page inaccessible again. Two reads of one word by the code under
 * test see two different values, whatever the host's scheduling: no
 * racing thread, no luck. Each test runs in its own process (check.h), so
 * the handlers end with it. A test begins with FLIP_PAGE_OR_FAIL(): on a
 * host other than x86-64 it cannot run, and fails saying so (a check not
 * made is not passed).
 */
#ifndef FLIP_PAGE_H
#define FLIP_PAGE_H
#pragma GCC diagnostic ignored "-Wunused-function"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#if !defined(__x86_64__)
/* No trap flag to step one instruction with: a test of a second read
 * cannot run, and fails (the router's host is x86-64, nic_shm.h). */
#define FLIP_PAGE_OR_FAIL() do { check_fail(__FILE__, __LINE__, "not run: flip_page.h steps instructions with x86-64's trap flag only"); return; } while (0)
static unsigned long flip_accesses;
static void flip_arm(uint8_t *page, void (*change)(uint8_t *page)) { (void)page; (void)change; }
static void flip_disarm(void) {}
#else
#ifndef REG_EFL
#error "flip_page.h needs _GNU_SOURCE defined before any include (REG_EFL)"
#endif
#define FLIP_PAGE_OR_FAIL() do { } while (0)
#define FLIP_TRAP_FLAG 0x100ull     /* EFLAGS.TF: a debug trap after the next instruction */

static uint8_t *flip_at;            /* the armed page */
static void (*flip_change)(uint8_t *page);
static unsigned long flip_accesses; /* instructions of the code under test that touched the page */

static void flip_on_segv(int sig, siginfo_t *si, void *ctx)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *a = si->si_addr;
    if (!flip_at || a < flip_at || a >= flip_at + pg) {
        signal(sig, SIG_DFL);       /* a real fault: it faults again, and check.h reports it */
        return;
    }
    mprotect(flip_at, pg, PROT_READ | PROT_WRITE);
    flip_change(flip_at);
    flip_accesses++;
    ((ucontext_t *)ctx)->uc_mcontext.gregs[REG_EFL] |= FLIP_TRAP_FLAG;
}

static void flip_on_trap(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    (void)si;
    ((ucontext_t *)ctx)->uc_mcontext.gregs[REG_EFL] &= ~FLIP_TRAP_FLAG;
    if (flip_at)
        mprotect(flip_at, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE);
}

/* From now on, change(page) runs before every access to page (page-aligned). */
static void flip_arm(uint8_t *page, void (*change)(uint8_t *page))
{
    struct sigaction sa = { .sa_sigaction = flip_on_segv, .sa_flags = SA_SIGINFO };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sa.sa_sigaction = flip_on_trap;
    sigaction(SIGTRAP, &sa, NULL);
    flip_at = page;
    flip_change = change;
    flip_accesses = 0;
    if (mprotect(page, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE))
        abort();
}

static void flip_disarm(void)
{
    uint8_t *page = flip_at;
    flip_at = NULL;
    mprotect(page, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE);
}
#endif

#endif
