/* Fault reporting: a node fault ends the node with its id, the fault kind
 * and the PC, on the console and in the NIC status block for the router.
 * The board's trap vector reads its ISA's fault registers and calls
 * fault_report(); nothing here depends on the ISA. */
#include <stdio.h>
#include <stdarg.h>
#include "kernel.h"
#include "board.h"
#include "../netdev/nic_shm.h"
#include "../netdev/nic.h"

int kernel_rank = -1;

#define NIC_FAULT_NAME_(name, value, text) [value] = text,
static const char *const kind_name[NIC_FAULT_COUNT] = { NIC_FAULT_KINDS(NIC_FAULT_NAME_) };
#undef NIC_FAULT_NAME_

void fault_report(uint32_t kind, uintptr_t pc, uintptr_t addr, uint32_t status)
{
    /* Console first: the router ends the run as soon as the NIC reports. */
    printf("\nnode %d: %s at pc 0x%08lx (address 0x%08lx, status 0x%lx)\n",
           kernel_rank, kind < NIC_FAULT_COUNT ? kind_name[kind] : "fault",
           (unsigned long)pc, (unsigned long)addr, (unsigned long)status);
    fflush(stdout);
    nic_fault(kind, (uint32_t)pc, (uint32_t)addr, status);
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
