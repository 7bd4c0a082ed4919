/* QEMU ARM virt board (-M virt,gic-version=2,highmem=off -cpu cortex-a15).
 *
 * Memory map, read from the board's device tree with highmem=off:
 *   0x08000000 GICv2 distributor      0x08010000 GICv2 CPU interface
 *   0x08020000 GICv2m MSI frame       0x09000000 PL011 UART
 *   0x10000000-0x3effffff PCI MMIO    0x3f000000 PCIe ECAM (buses 0-15)
 *   0x40000000 RAM
 */
#include "board.h"

#define UART0          0x09000000u
#define UART_DR        0x000u
#define UART_FR        0x018u
#define UART_FR_TXFF   (1u << 5)

#define GICD           0x08000000u
#define GICD_CTLR      0x000u
#define GICD_ISENABLER 0x100u
#define GICD_IPRIORITYR 0x400u
#define GICD_ITARGETSR 0x800u
#define GICD_ICFGR     0xc00u
#define GICC           0x08010000u
#define GICC_CTLR      0x000u
#define GICC_PMR       0x004u
#define GICC_IAR       0x00cu
#define GICC_EOIR      0x010u
#define GICC_IAR_SPURIOUS 1023u

#define V2M            0x08020000u
#define V2M_MSI_TYPER  0x008u   /* bits 25:16 first SPI INTID, 9:0 count */
#define V2M_MSI_SETSPI 0x040u   /* MSI_SETSPI_NS: write an INTID to raise it */

/* The PCI window split: register BARs low, the NIC memory BAR at a 256 MiB
 * aligned address so one block of sections maps it as normal memory. */
#define PCI_MMIO_BASE  0x10000000u
#define PCI_MMIO_SIZE  0x10000000u
#define PCI_MEM_BASE   0x20000000u
#define PCI_MEM_SIZE   0x1f000000u
#define PCI_ECAM       0x3f000000u

#define REG32(a) (*(volatile uint32_t *)(uintptr_t)(a))

static uint32_t nic_intid;

/* --- MMU: a flat map of 1 MiB sections (ARMv7 ARM B3.5.1, short
 * descriptors). RAM and the NIC memory BAR are normal memory, so unaligned
 * and multiple accesses behave; device windows are Device and never
 * executable; the first MiB stays unmapped so a null pointer faults. */
#define SECT           0x2u
#define SECT_B         (1u << 2)
#define SECT_C         (1u << 3)
#define SECT_XN        (1u << 4)
#define SECT_AP_RW     (3u << 10)
#define SECT_TEX(x)    ((uint32_t)(x) << 12)
#define SECT_NORMAL_WB (SECT | SECT_AP_RW | SECT_TEX(1) | SECT_C | SECT_B)
#define SECT_NORMAL_NC (SECT | SECT_AP_RW | SECT_TEX(1) | SECT_XN)
#define SECT_DEVICE    (SECT | SECT_AP_RW | SECT_B | SECT_XN)

extern uint32_t __pagetable[4096];

static void map(uint32_t base, uint64_t size, uint32_t attr)
{
    uint32_t first = base >> 20, last = (uint32_t)((base + size - 1) >> 20);
    for (uint32_t mb = first; mb <= last; mb++)
        __pagetable[mb] = (mb << 20) | attr;
}

static void mmu_enable(void)
{
    for (int i = 0; i < 4096; i++)
        __pagetable[i] = 0;                          /* fault */
    map(0x08000000u, 0x08000000u, SECT_DEVICE);      /* GIC, UART, other devices */
    map(PCI_MMIO_BASE, PCI_MMIO_SIZE, SECT_DEVICE);  /* register BARs */
    map(PCI_MEM_BASE, PCI_MEM_SIZE, SECT_NORMAL_NC); /* NIC memory, shared with the host */
    map(PCI_ECAM, 0x01000000u, SECT_DEVICE);
    map(0x40000000u, 0x40000000u, SECT_NORMAL_WB);   /* RAM */
    uint32_t dacr = 1;                               /* domain 0: client, checks AP */
    __asm__ volatile(
        "mcr p15, 0, %0, c2, c0, 2\n"                /* TTBCR = 0: TTBR0 only */
        "mcr p15, 0, %1, c2, c0, 0\n"                /* TTBR0 */
        "mcr p15, 0, %2, c3, c0, 0\n"                /* DACR */
        "mcr p15, 0, %0, c8, c7, 0\n"                /* TLBIALL */
        "dsb\n isb\n"
        :: "r"(0), "r"((uint32_t)(uintptr_t)__pagetable), "r"(dacr) : "memory");
    uint32_t sctlr;
    __asm__ volatile("mrc p15, 0, %0, c1, c0, 0" : "=r"(sctlr));
    sctlr |= (1u << 0) | (1u << 2) | (1u << 12);     /* M, C, I */
    sctlr &= ~(1u << 1);                             /* A: allow unaligned on normal memory */
    __asm__ volatile("mcr p15, 0, %0, c1, c0, 0\n isb" :: "r"(sctlr) : "memory");
}

/* --- PMU: event 0x08 (instructions architecturally executed) on event
 * counter 0 (ARMv7 ARM C12). Under QEMU -icount it is exact. */
static void pmu_enable(void)
{
    __asm__ volatile(
        "mcr p15, 0, %0, c9, c12, 5\n"               /* PMSELR = 0 */
        "mcr p15, 0, %1, c9, c13, 1\n"               /* PMXEVTYPER = 0x08, count at all PLs */
        "mcr p15, 0, %2, c9, c12, 1\n"               /* PMCNTENSET: counter 0 */
        "mcr p15, 0, %3, c9, c12, 0\n"               /* PMCR: E | P (reset event counters) */
        "isb\n"
        :: "r"(0), "r"(0x08), "r"(1), "r"(3) : "memory");
}

uint32_t board_instret(void)
{
    uint32_t v;
    __asm__ volatile("mrc p15, 0, %0, c9, c13, 2" : "=r"(v)); /* PMXEVCNTR (PMSELR = 0) */
    return v;
}

/* --- GICv2 with the GICv2m MSI frame. The NIC's MSI-X vector 0 writes the
 * frame's first SPI to MSI_SETSPI_NS. That SPI must be edge-triggered in
 * GICD_ICFGR, or it never fires. */
static void gic_init(void)
{
    nic_intid = (REG32(V2M + V2M_MSI_TYPER) >> 16) & 0x3ffu;
    uint32_t id = nic_intid;
    REG32(GICD + GICD_CTLR) = 0;
    REG32(GICD + GICD_ICFGR + 4 * (id / 16)) |= 2u << (2 * (id % 16));
    *(volatile uint8_t *)(uintptr_t)(GICD + GICD_IPRIORITYR + id) = 0xa0;
    *(volatile uint8_t *)(uintptr_t)(GICD + GICD_ITARGETSR + id) = 1;
    REG32(GICD + GICD_ISENABLER + 4 * (id / 32)) = 1u << (id % 32);
    REG32(GICD + GICD_CTLR) = 1;
    REG32(GICC + GICC_PMR) = 0xff;
    REG32(GICC + GICC_CTLR) = 1;
}

void board_msi_route(uint64_t *addr, uint32_t *data)
{
    *addr = V2M + V2M_MSI_SETSPI;
    *data = nic_intid;
}

void board_wait_irq(void)
{
    __asm__ volatile("dsb\n wfi" ::: "memory");
    uint32_t iar = REG32(GICC + GICC_IAR);
    if ((iar & 0x3ffu) != GICC_IAR_SPURIOUS)
        REG32(GICC + GICC_EOIR) = iar;
}

static const struct board_pci pci = {
    .ecam = PCI_ECAM,
    .mmio_base = PCI_MMIO_BASE, .mmio_size = PCI_MMIO_SIZE,
    .mem_base = PCI_MEM_BASE, .mem_size = PCI_MEM_SIZE,
};

const struct board_pci *board_pci(void) { return &pci; }

void board_putc(char c)
{
    while (REG32(UART0 + UART_FR) & UART_FR_TXFF)
        ;
    REG32(UART0 + UART_DR) = (uint8_t)c;
}

/* PSCI SYSTEM_OFF (function id 0x84000008, PSCI 1.1 section 5.10) by
 * hvc, the conduit QEMU's virt board names in its device tree when it has
 * no EL2 or EL3 of its own: QEMU ends with exit status 0. The node's own
 * status has already gone to the router through the NIC status block and
 * the EXIT descriptor (nic_exit, nic_fault). There is no semihosting: it
 * would give the node program the host's files and shell. */
void board_exit(int status)
{
    (void)status;
    register uint32_t r0 __asm__("r0") = 0x84000008u;
    __asm__ volatile(".arch_extension virt\n\thvc #0" : "+r"(r0) : : "memory");
    for (;;)
        __asm__ volatile("wfi");
}

/* PSCI SYSTEM_RESET (function id 0x84000009, PSCI 1.1 section 5.11), by
 * the same conduit as SYSTEM_OFF. */
void board_reset(void)
{
    register uint32_t r0 __asm__("r0") = 0x84000009u;
    __asm__ volatile(".arch_extension virt\n\thvc #0" : "+r"(r0) : : "memory");
    for (;;)
        __asm__ volatile("wfi");
}


void board_init(void)
{
    mmu_enable();
    pmu_enable();
    gic_init();
}
