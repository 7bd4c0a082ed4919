/* Fault reporting: a node fault ends the node with its id, the fault kind
 * and the PC, on the console and in the NIC status block for the router. */
#include <stdio.h>
#include <stdarg.h>
#include "kernel.h"
#include "board.h"
#include "../netdev/nic_shm.h"
#include "../netdev/nic.h"

int kernel_rank = -1;

static const char *const kind_name[] = {
    [NIC_FAULT_UNDEF] = "undefined instruction",
    [NIC_FAULT_PABORT] = "prefetch abort",
    [NIC_FAULT_DABORT] = "data abort",
    [NIC_FAULT_UNEXPECTED] = "unexpected exception",
    [NIC_FAULT_PANIC] = "panic",
};

void fault_report(uint32_t kind, uint32_t pc)
{
    uint32_t addr = 0, status = 0;
    /* ARMv7 fault address and status registers (B4.1.51/52, B4.1.96/97). */
    if (kind == NIC_FAULT_DABORT) {
        __asm__ volatile("mrc p15, 0, %0, c6, c0, 0" : "=r"(addr));   /* DFAR */
        __asm__ volatile("mrc p15, 0, %0, c5, c0, 0" : "=r"(status)); /* DFSR */
    } else if (kind == NIC_FAULT_PABORT) {
        __asm__ volatile("mrc p15, 0, %0, c6, c0, 2" : "=r"(addr));   /* IFAR */
        __asm__ volatile("mrc p15, 0, %0, c5, c0, 1" : "=r"(status)); /* IFSR */
    }
    /* Console first: the router ends the run as soon as the NIC reports. */
    printf("\nnode %d: %s at pc 0x%08lx (address 0x%08lx, status 0x%lx)\n",
           kernel_rank, kind <= NIC_FAULT_PANIC ? kind_name[kind] : "fault",
           (unsigned long)pc, (unsigned long)addr, (unsigned long)status);
    fflush(stdout);
    nic_fault(kind, pc, addr, status);
    board_exit(128 + (int)kind);
}

void panic(const char *fmt, ...)
{
    va_list ap;
    printf("\nnode %d: panic: ", kernel_rank);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    uint32_t pc = (uint32_t)(uintptr_t)__builtin_return_address(0);
    nic_fault(NIC_FAULT_PANIC, pc, 0, 0);
    board_exit(128 + NIC_FAULT_PANIC);
}
