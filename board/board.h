/* The board contract: everything kernel/ and netdev/ need from a board port.
 *
 * A port lives in board/<name>/ (a start.S and a board.c) with a linker
 * script linker/<name>.ld, and implements exactly these functions; the
 * rest of the node (kernel, NIC driver, apps) is board-independent. See
 * docs/boards.md. Ports: board/arm-virt (ARMv7), board/riscv-virt (RV64).
 *
 * What a port's start.S must do in turn: enter kernel_main() on a stack
 * with .bss cleared and interrupts masked at the CPU (CPSR.I on ARM,
 * mstatus.MIE on RISC-V) for the node's whole life, so no handler ever
 * runs; and route every synchronous exception to kernel.h's
 * fault_report(kind, pc, addr, status), kinds from netdev/nic_shm.h.
 */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>

/* Early set-up: memory protection (ARM: MMU identity map; RISC-V: PMP),
 * console, interrupt controller and the retired-instruction counter.
 * Called first thing at every start (a load or a reset), with interrupts
 * masked; they stay masked for the node's life.
 * The first MiB must fault on any access (null pointers). */
void board_init(void);

/* Console output of one byte (polled, never blocks for long). */
void board_putc(char c);

/* End the emulator process with this exit status (a fault's last act). */
void board_exit(int status) __attribute__((noreturn));

/* Ask QEMU to reset the board: it loads the node image again and boots
 * it, keeping the process, its NIC memory and doorbells. A QEMU started
 * with -no-reboot (a node of one run) ends instead, with status 0. A node
 * of one run's last act after a clean EXIT. */
void board_reset(void) __attribute__((noreturn));

/* Instructions retired, modulo 2^32. Exact under QEMU -icount shift=0 (so
 * deterministic; kernel/clock.c checks it at boot); callers widen it to 64
 * bits. It may jump while the core sleeps in board_wait_irq(): the NIC
 * driver never counts that time. */
uint32_t board_instret(void);

/* PCI configuration space of bus 0 through ECAM, and the windows the
 * kernel's PCI code may place BARs in. */
struct board_pci {
    uintptr_t ecam;          /* ECAM base: bus 0, device d, function 0 at ecam + (d << 15) */
    uintptr_t mmio_base;     /* window for small register BARs (device memory) */
    uintptr_t mmio_size;
    uintptr_t mem_base;      /* window for the NIC's shared-memory BAR (normal memory) */
    uintptr_t mem_size;
};
const struct board_pci *board_pci(void);

/* The MSI a device must write to wake the core: address and data for one
 * MSI-X table entry. The board enables the interrupt it maps to. */
void board_msi_route(uint64_t *addr, uint32_t *data);

/* Sleep until the NIC's interrupt is pending, then acknowledge it. Returns
 * at once if it was already pending. Spurious returns are allowed: callers
 * re-check their condition. */
void board_wait_irq(void);

/* Full memory barrier between the node and the host sharing NIC memory. */
static inline void board_mb(void) { __sync_synchronize(); }

#endif
