/* The node's simulated clock, in picoseconds internally.
 *
 * Invariant: clock_now_ns() is a pure function of the instructions the node
 * retired outside driver wait loops and of the times the router answered.
 * It rebases on every read, so the 32-bit counter only has to not wrap
 * between two reads (2^32 instructions: seconds of simulated compute). */
#include "kernel.h"
#include "board.h"

static uint64_t base_ps;
static uint32_t base_instr;
static uint32_t ps_per_instr = 1000;
static uint32_t paused;          /* clock_pause() depth: > 0, no instruction counts */

void clock_init(uint32_t ps)
{
    ps_per_instr = ps;
    clock_set_ns(0);
}

uint64_t clock_now_ns(void)
{
    uint32_t now = board_instret();
    if (!paused)
        base_ps += (uint64_t)(uint32_t)(now - base_instr) * ps_per_instr;
    base_instr = now;
    return base_ps / 1000;
}

/* Name lookups in the registries (apps/untimed.h) retire a number of
 * instructions that depends on where the name sits in a table and on how
 * its string is aligned: facts of the image, not of the run. Between
 * pause and resume no instruction counts, so no figure depends on them.
 * Pauses nest; the clock runs again at the outermost resume. */
void clock_pause(void)
{
    if (paused == 0)
        clock_now_ns();              /* count what ran up to here, then stop */
    paused++;
}

void clock_resume(void)
{
    if (paused && --paused == 0)
        base_instr = board_instret();
}

void clock_set_ns(uint64_t t)
{
    base_ps = t * 1000;
    base_instr = board_instret();
}

/* The instructions one run of a fixed loop retires. Not inlined, so every
 * call executes the very same instructions. */
static uint32_t __attribute__((noinline)) loop_cost(uint32_t n)
{
    uint32_t t0 = board_instret();
    for (volatile uint32_t i = 0; i < n; i = i + 1)
        ;
    return board_instret() - t0;
}

/* A pause must drop exactly the instructions between pause and resume:
 * a loop before the pause counts, the same loop inside it does not. The
 * clock then moves by at least one loop (a) and less than two. Runs at
 * boot, before the app's clock starts, and leaves the clock as it found
 * it but for the time it counted. */
static void pause_selfcheck(uint32_t a)
{
    uint64_t t0 = clock_now_ns();
    loop_cost(1000);
    clock_pause();
    loop_cost(1000);
    clock_pause();                   /* nested */
    loop_cost(1000);
    clock_resume();
    clock_resume();
    uint64_t instr = (clock_now_ns() - t0) * 1000 / ps_per_instr;
    if (instr + 1 < a || instr >= 2 * (uint64_t)a)
        panic("clock_pause: a counted %lu-instruction loop and two paused ones moved the clock by %lu "
              "instructions", (unsigned long)a, (unsigned long)instr);
}

/* The node clock is only deterministic if board_instret() counts exactly
 * the instructions retired (QEMU -icount shift=0). Check it on every boot:
 * the same loop must cost the same twice, and each further n iterations
 * the same again. A host-time counter (no -icount) fails this, and so does
 * a counter that stands still. */
void clock_selfcheck(void)
{
    uint32_t a = loop_cost(1000), b = loop_cost(1000), c = loop_cost(2000), d = loop_cost(3000);
    if (a != b || c - a != d - c || c - a < 1000 || a == 0)
        panic("the instruction counter is not exact: the same loops retired %lu, %lu, %lu, %lu "
              "instructions; the node clock needs QEMU -icount shift=0",
              (unsigned long)a, (unsigned long)b, (unsigned long)c, (unsigned long)d);
    pause_selfcheck(a);
}
