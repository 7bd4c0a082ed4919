/* Node boot: board, C runtime, NIC link-up, then the app named by the
 * router, with the node's identity already known. */
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

void kernel_main(void)
{
    board_init();
    _init_tls(tls_block);
    _set_tls(tls_block);
    const struct nic_config *cfg = nic_init();
    /* After link-up, so a failure is reported with the node's rank; the
     * check's instructions are not part of the app's time. */
    clock_selfcheck();
    clock_set_ns(0);
    for (const struct app *a = app_table; a->name; a++)
        if (!strcmp(a->name, (const char *)cfg->app))
            exit(a->main());
    panic("unknown app '%s'", (const char *)cfg->app);
}

/* picolibc's exit() ends here: tell the router, then restart, to wait
 * for the next run of a node pool; a node of one run only ends there
 * (QEMU's -no-reboot). The status went with the EXIT descriptor. */
void _exit(int status)
{
    fflush(stdout);
    if (nic_exit(status))
        board_exit(status);          /* no link: the router knows nothing of it */
    board_reset();
}
