/* The board contract: everything kernel/ and netdev/ need from a board port.
 *
 * A port lives in board/<name>/ and implements exactly these functions; the
 * rest of the node (kernel, NIC driver, apps) is board-independent. See
 * docs/boards.md.
 */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>

/* Early set-up: MMU identity map, console, interrupt controller and the
 * retired-instruction counter. Called once, first thing, with interrupts
 * masked; they stay masked for the node's life. */
void board_init(void);

/* Console output of one byte (polled, never blocks for long). */
void board_putc(char c);

/* End the emulator process with this exit status. */
void board_exit(int status) __attribute__((noreturn));

/* Instructions retired since board_init(), modulo 2^32. Exact under QEMU
 * -icount (so deterministic); callers widen it to 64 bits. */
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
