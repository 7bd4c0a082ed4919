/* Fault-injection apps for the test suite: each makes one node misbehave
 * in one way and lets the others run normally. */
#include <stdio.h>
#include <string.h>
#include "apps.h"
#include "../netdev/net.h"
#include "../netdev/nic.h"
#include "../kernel/kernel.h"

static int chosen(void) { return net_rank() == (int)net_arg_int("node", 0); }

/* The others wait for a message from the chosen node that never comes. */
static int others_wait(void)
{
    char c;
    net_recv((int)net_arg_int("node", 0), 0, &c, 1, NULL);
    return 0;
}

int app_crash(void)
{
    if (!chosen())
        return others_wait();
    const char *kind = net_arg("kind");
    /* Every board keeps the first MiB inaccessible, so these fault on
     * either ISA: a load from or a store to addr, a jump to 0x100. */
    volatile int *bad = (volatile int *)(uintptr_t)net_arg_int("addr", 16);
    if (!kind || !strncmp(kind, "dabort", 6))
        return *bad;
    if (!strncmp(kind, "store", 5))
        *bad = 1;
    if (!strncmp(kind, "undef", 5)) {
#if defined(__riscv)
        __asm__ volatile(".4byte 0");     /* all zeros: defined illegal (RISC-V unprivileged spec 1.5) */
#else
        __asm__ volatile(".word 0xe7f000f0");           /* permanently undefined (UDF) */
#endif
    }
    if (!strncmp(kind, "pabort", 6))
        ((void (*)(void))0x100)();
    if (!strncmp(kind, "panic", 5))
        panic("crash test asked for a panic");
    printf("crash: kind must be dabort, store, undef, pabort or panic\n");
    return 2;
}

int app_hang(void)
{
    if (!chosen())
        return others_wait();
    for (volatile unsigned i = 0;; i++)
        ;
}

int app_deadlock(void)
{
    char c;
    net_recv((net_rank() + 1) % net_nodes(), 7, &c, 1, NULL);
    return 0;
}

int app_baddesc(void)
{
    if (!chosen())
        return others_wait();
    const char *what = net_arg("what");
    if (!what || !strncmp(what, "dst", 3))
        nic_test_post_raw(NIC_OP_SEND, (uint32_t)net_nodes() + 5, 0, 4, 0);
    else if (!strncmp(what, "len", 3))
        nic_test_post_raw(NIC_OP_SEND, 0, 0, 0x7fffffffu, 0);
    else if (!strncmp(what, "off", 3))
        nic_test_post_raw(NIC_OP_SEND, 0, 0, 64, 0xfffffff0u);
    else if (!strncmp(what, "op", 2))
        nic_test_post_raw(0x99, 0, 0, 0, 0);
    else if (!strncmp(what, "ring", 4))
        nic_test_set_prod(0x12345678u);
    /* Stop here, as a wedged driver would: posting more would overwrite
     * what the router must see. */
    for (;;)
        __asm__ volatile("wfi");
}
