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

void clock_init(uint32_t ps)
{
    ps_per_instr = ps;
    clock_set_ns(0);
}

uint64_t clock_now_ns(void)
{
    uint32_t now = board_instret();
    base_ps += (uint64_t)(uint32_t)(now - base_instr) * ps_per_instr;
    base_instr = now;
    return base_ps / 1000;
}

void clock_set_ns(uint64_t t)
{
    base_ps = t * 1000;
    base_instr = board_instret();
}
