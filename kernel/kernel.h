/* The node's tiny runtime: what the kernel offers the NIC driver and apps. */
#ifndef KERNEL_H
#define KERNEL_H

#include <stdint.h>
#include <stddef.h>

/* Simulated clock (kernel/clock.c). now = base + instructions since base x
 * CPU speed. Only the driver moves the base: to jump over blocked time, and
 * to drop the instructions its wait loops retire, whose count depends on
 * host timing. */
void     clock_init(uint32_t ps_per_instr);
uint64_t clock_now_ns(void);
void     clock_set_ns(uint64_t t);
void     clock_selfcheck(void);   /* panics unless the board's counter is exact */
void     clock_pause(void);       /* stop counting instructions (nests) */
void     clock_resume(void);      /* count again at the outermost resume */

/* Print "node R: <message>" and end the node with a failure. */
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* The node's rank, or -1 before the NIC configuration was read. */
extern int kernel_rank;

/* Called by a board's trap vector: kind is an enum nic_fault, pc the
 * faulting instruction, addr and status the ISA's fault registers (see
 * netdev/nic_shm.h). Prints, tells the router, ends the node. */
void fault_report(uint32_t kind, uintptr_t pc, uintptr_t addr, uint32_t status)
    __attribute__((noreturn));

/* PCI on bus 0 (kernel/pci.c). */
struct pci_dev {
    uintptr_t cfg;                 /* this function's ECAM configuration space */
    uintptr_t bar[6];              /* assigned CPU addresses; 0 if unused */
    uint64_t  bar_size[6];
};
int  pci_find(uint16_t vendor, uint16_t device, struct pci_dev *d);
void pci_enable(struct pci_dev *d);                 /* assign BARs, memory + bus master on */
int  pci_msix_route(struct pci_dev *d, unsigned vector, uint64_t addr, uint32_t data);

#endif
