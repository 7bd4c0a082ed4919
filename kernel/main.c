/* Node boot: board, C runtime, NIC link-up, then the app named by the
 * router, with the node's identity already known. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <picotls.h>
#include "kernel.h"
#include "board.h"
#include "../netdev/nic.h"
#include "../apps/apps.h"

/* picolibc's thread-local data (errno ...): one block for the one thread.
 * The linker script checks the template fits. */
static char tls_block[64] __attribute__((aligned(8)));

/* --- An in-place restart's check of the image ----------------------------
 *
 * A pool's node restarts in place (board_restart) only if its code,
 * read-only data, .data image and TLS template are as QEMU loaded them:
 * an app that wrote over its own image gets the board's reset, which
 * loads it again. The reference sum is taken at the first start after a
 * load and kept in the image region's last 8 bytes (linker scripts: past
 * the heap, never loaded, so zero on QEMU's start). The sum's
 * instructions come before the clock starts or after EXIT: no run's
 * time includes them. */
extern const uint8_t __image_start[], __data_start[], __data_end[], __data_load[],
    __tls_base[], __tdata_end[];
extern uint32_t __restart_keep[2];
#define KEEP_MAGIC 0x4b454550u                       /* "KEEP" */

/* FNV-1a over [a, b): aligned words where it can (a quarter of the
 * steps), bytes at the ends (ARM's MMU may be off: no unaligned loads). */
static uint32_t sum_range(uint32_t h, const uint8_t *a, const uint8_t *b)
{
    for (; a < b && ((uintptr_t)a & 3); a++)
        h = (h ^ *a) * 16777619u;
    for (; b - a >= 4; a += 4)
        h = (h ^ *(const uint32_t *)a) * 16777619u;
    for (; a < b; a++)
        h = (h ^ *a) * 16777619u;
    return h;
}

static uint32_t image_sum(void)
{
    uint32_t h = 2166136261u;
    h = sum_range(h, __image_start, __data_start);
    h = sum_range(h, __data_load, __data_load + (__data_end - __data_start));
    return sum_range(h, __tls_base, __tdata_end);
}

static volatile uint32_t *keep(void) { return __restart_keep; }

void kernel_main(void)
{
    if (keep()[0] != KEEP_MAGIC) {                   /* the image was just loaded */
        keep()[1] = image_sum();
        keep()[0] = KEEP_MAGIC;
    }
    board_init();
    _init_tls(tls_block);
    _set_tls(tls_block);
    const struct nic_config *cfg = nic_init();
    /* After link-up, so a failure is reported with the node's rank; the
     * check's instructions are not part of the app's time. */
    clock_selfcheck();
    /* The app is found before the clock starts: the search's cost depends
     * on the app's place in apps/apps.def, which no figure may (docs/design.md,
     * "How simulated time arises"). Time 0 is the app's first instruction. */
    const struct app *a = app_table;
    while (a->name && strcmp(a->name, (const char *)cfg->app))
        a++;
    if (!a->name)
        panic("unknown app '%s'", (const char *)cfg->app);
    clock_set_ns(0);
    exit(a->main());
}

/* After EXIT: in place when the pool keeps the node and the image is
 * intact, else by the board's reset. Out of line, so _exit's own
 * instructions up to the EXIT descriptor's time stay the same. */
static void __attribute__((noinline, noreturn)) restart(void)
{
    if (nic_restart_in_place() && keep()[0] == KEEP_MAGIC && keep()[1] == image_sum())
        board_restart();
    keep()[0] = 0;                   /* the reset loads the image again: sum it then */
    board_reset();
}

/* picolibc's exit() ends here: tell the router, then restart, to wait
 * for the next run of a node pool (in place when the pool keeps the node
 * and its image is intact, else by the board's reset); a node of one run
 * only ends at the reset (QEMU's -no-reboot). The status went with the
 * EXIT descriptor. */
void _exit(int status)
{
    fflush(stdout);
    if (nic_exit(status))
        board_exit(status);          /* no link: the router knows nothing of it */
    restart();
}
