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

/* picolibc's thread-local data (errno, and in MPI programs rand's and
 * getopt's state, strtok's ...: 280 bytes on RISC-V): one block for the
 * one thread. The linker scripts check the template fits (512 there too). */
static char tls_block[512] __attribute__((aligned(8)));

void kernel_main(void)
{
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

/* After EXIT, the end of the node's life for this run. A node of one run
 * resets its board, and QEMU's -no-reboot ends it. A node its pool keeps
 * waits, interrupts masked, until the pool stops and resets its QEMU from
 * outside (host/launch/pool.c): QEMU loads the image again from its own copy, so
 * nothing this run wrote reaches the next. Out of line, so _exit's own
 * instructions up to the EXIT descriptor's time do not depend on it. */
static void __attribute__((noinline, noreturn)) after_exit(void)
{
    if (!nic_waits_after_exit())
        board_reset();
    for (;;)
        board_wait_irq();
}

/* picolibc's exit() ends here: tell the router, then after_exit(). A node
 * whose link never came up ends its QEMU: the router knows nothing of it.
 * The status went with the EXIT descriptor. */
void _exit(int status)
{
    fflush(stdout);
    if (nic_exit(status))
        board_exit(status);
    after_exit();
}
