/* Minimal PCI for bus 0 over ECAM (PCIe base spec 7.2.2): find a function,
 * size and place its memory BARs, and program one MSI-X table entry
 * (PCI Local Bus 3.0 6.8.2). No firmware runs before the kernel, so the
 * kernel assigns every address itself. */
#include "kernel.h"
#include "board.h"

#define CFG32(d, off) (*(volatile uint32_t *)((d)->cfg + (off)))
#define CFG16(d, off) (*(volatile uint16_t *)((d)->cfg + (off)))
#define CFG8(d, off)  (*(volatile uint8_t *)((d)->cfg + (off)))

#define PCI_COMMAND      0x04
#define PCI_CMD_MEM      (1u << 1)
#define PCI_CMD_MASTER   (1u << 2)
#define PCI_STATUS_CAPS  (1u << 4)
#define PCI_BAR0         0x10
#define PCI_CAP_PTR      0x34
#define PCI_CAP_MSIX     0x11

int pci_find(uint16_t vendor, uint16_t device, struct pci_dev *d)
{
    const struct board_pci *bp = board_pci();
    for (unsigned dev = 0; dev < 32; dev++) {
        d->cfg = bp->ecam + (dev << 15);
        uint32_t id = CFG32(d, 0);
        if (id == ((uint32_t)device << 16 | vendor))
            return 0;
    }
    return -1;
}

static uintptr_t place(uintptr_t *next, uintptr_t end, uint64_t size)
{
    uintptr_t a = (*next + (uintptr_t)size - 1) & ~((uintptr_t)size - 1);
    if (a + size > end || a + size < a)
        return 0;
    *next = a + (uintptr_t)size;
    return a;
}

void pci_enable(struct pci_dev *d)
{
    const struct board_pci *bp = board_pci();
    uintptr_t mmio = bp->mmio_base, mem = bp->mem_base;
    CFG16(d, PCI_COMMAND) = 0;
    for (int i = 0; i < 6; i++) {
        d->bar[i] = 0;
        d->bar_size[i] = 0;
        uint32_t off = PCI_BAR0 + 4 * i;
        uint32_t orig = CFG32(d, off);
        if (orig & 1)                          /* I/O BAR: unused */
            continue;
        int is64 = ((orig >> 1) & 3) == 2;
        CFG32(d, off) = 0xffffffffu;
        uint64_t mask = CFG32(d, off) & ~0xfull;
        if (is64) {
            CFG32(d, off + 4) = 0xffffffffu;
            mask |= (uint64_t)CFG32(d, off + 4) << 32;
        } else {
            mask |= 0xffffffff00000000ull;
        }
        uint64_t size = ~mask + 1;
        if (mask == 0xffffffff00000000ull || size == 0) {
            CFG32(d, off) = 0;
            if (is64) { CFG32(d, off + 4) = 0; i++; }
            continue;
        }
        /* 64-bit (prefetchable) BARs hold the NIC memory: normal window. */
        uintptr_t a = is64 ? place(&mem, bp->mem_base + bp->mem_size, size)
                           : place(&mmio, bp->mmio_base + bp->mmio_size, size);
        if (!a)
            panic("PCI BAR%d of %llu bytes does not fit the board's window", i,
                  (unsigned long long)size);
        CFG32(d, off) = (uint32_t)a;
        if (is64)
            CFG32(d, off + 4) = 0;
        d->bar[i] = a;
        d->bar_size[i] = size;
        if (is64)
            i++;
    }
    CFG16(d, PCI_COMMAND) = PCI_CMD_MEM | PCI_CMD_MASTER;
}

int pci_msix_route(struct pci_dev *d, unsigned vector, uint64_t addr, uint32_t data)
{
    if (!(CFG16(d, 0x06) & PCI_STATUS_CAPS))
        return -1;
    for (uint8_t cap = CFG8(d, PCI_CAP_PTR) & 0xfc; cap; cap = CFG8(d, cap + 1) & 0xfc) {
        if (CFG8(d, cap) != PCI_CAP_MSIX)
            continue;
        uint16_t ctrl = CFG16(d, cap + 2);
        if (vector > (ctrl & 0x7ffu))
            return -1;
        uint32_t table = CFG32(d, cap + 4);
        uintptr_t base = d->bar[table & 7];
        if (!base)
            return -1;
        volatile uint32_t *e = (volatile uint32_t *)(base + (table & ~7u) + 16 * vector);
        e[0] = (uint32_t)addr;
        e[1] = (uint32_t)(addr >> 32);
        e[2] = data;
        e[3] = 0;                                  /* vector control: unmasked */
        CFG16(d, cap + 2) = (uint16_t)((ctrl | 0x8000u) & ~0x4000u); /* enable, no function mask */
        return 0;
    }
    return -1;
}
