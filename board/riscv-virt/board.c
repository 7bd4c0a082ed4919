/* QEMU RISC-V virt board, one RV64 hart in M-mode, no firmware:
 *   qemu-system-riscv64 -M virt,aia=aplic-imsic -bios none
 *
 * Memory map, read from the board's device tree (QEMU 7.2 hw/riscv/virt.c,
 * `-M virt,aia=aplic-imsic,dumpdtb=x.dtb`):
 *   0x00100000 sifive_test finisher     0x10000000 NS16550A UART
 *   0x24000000 IMSIC, M-level file      0x28000000 IMSIC, S-level file
 *   0x30000000 PCIe ECAM (buses 0-255)  0x40000000-0x7fffffff PCI MMIO (32-bit)
 *   0x80000000 RAM
 * Nothing decodes the first MiB below the finisher except the boot ROM at
 * 0x1000; a locked PMP entry makes all of it inaccessible, so a null
 * pointer faults (like the unmapped first MiB of the ARM board).
 */
#include "board.h"
#include "kernel.h"
#include "../../netdev/nic_shm.h"

#define UART0          0x10000000u
#define UART_THR       0u
#define UART_LSR       5u
#define UART_LSR_THRE  (1u << 5)      /* transmit holding register empty */

#define FINISHER       0x00100000u    /* sifive_test: QEMU exits on a write */
#define FINISHER_FAIL  0x3333u        /* | status << 16: exit(status) */
#define FINISHER_PASS  0x5555u        /* exit(0) */
#define FINISHER_RESET 0x7777u        /* reset the board */

#define IMSIC_M        0x24000000u    /* hart 0's M-level interrupt file */
#define IMSIC_SETEIPNUM_LE 0x000u     /* AIA spec 3.5: write an identity to make it pending */
#define NIC_EIID       1u             /* the identity the NIC's MSI carries */

/* PCI windows: register BARs low, the NIC memory BAR in the upper half.
 * kernel/pci.c programs 64-bit BARs with a zero upper half, so both stay
 * below 4 GiB (the board's 64-bit window at 0x400000000 is not used). */
#define PCI_ECAM       0x30000000u
#define PCI_MMIO_BASE  0x40000000u
#define PCI_MMIO_SIZE  0x20000000u
#define PCI_MEM_BASE   0x60000000u
#define PCI_MEM_SIZE   0x20000000u

/* AIA CSRs (AIA spec 2.1, 3.1): indirect access to the M-level IMSIC file. */
#define CSR_MISELECT   0x350
#define CSR_MIREG      0x351
#define CSR_MTOPEI     0x35c
#define ISEL_EIDELIVERY 0x70u
#define ISEL_EITHRESHOLD 0x72u
#define ISEL_EIE0      0xc0u          /* RV64: eie0 holds identities 0-63 */
#define MIE_MEIE       (1ul << 11)    /* machine external interrupt enable */

#define REG8(a)  (*(volatile uint8_t *)(uintptr_t)(a))
#define REG32(a) (*(volatile uint32_t *)(uintptr_t)(a))

#define csr_write(csr, v) __asm__ volatile("csrw " #csr ", %0" :: "rK"(v) : "memory")
#define csr_read(csr) ({ unsigned long v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
#define STR_(x) #x
#define STR(x) STR_(x)

static void imsic_write(unsigned long sel, unsigned long v)
{
    __asm__ volatile("csrw " STR(CSR_MISELECT) ", %0\n csrw " STR(CSR_MIREG) ", %1"
                     :: "r"(sel), "r"(v) : "memory");
}

/* PMP entry 0 (privileged spec 3.7): NAPOT [0, 1 MiB), no R/W/X, locked so
 * that it binds M-mode too. pmpaddr holds address >> 2 with the low ones
 * giving the size: 1 MiB >> 3 minus one. A locked entry stays until the
 * hart's reset, and QEMU's reset keeps PMP state: a node whose entries are
 * not exactly this one (pmpcfg0 and pmpcfg2 hold all 16 on RV64) inherited
 * another program's, so it stops here rather than run under them. */
static void null_guard(void)
{
    unsigned long addr = (0x100000ul >> 3) - 1;
    unsigned long cfg = 0x80 /* L */ | 0x18 /* A = NAPOT */;
    csr_write(pmpaddr0, addr);
    csr_write(pmpcfg0, cfg);
    if (csr_read(pmpcfg0) != cfg || csr_read(pmpcfg2) != 0 || csr_read(pmpaddr0) != addr)
        panic("PMP entries an earlier program locked outlived the reset");
}

/* The IMSIC's M-level file (AIA spec 3.8-3.9): delivery on, no priority
 * threshold, only the NIC's identity enabled; mie.MEIE lets a pending one
 * wake WFI. mstatus.MIE stays 0 (start.S), so it is never taken as a trap. */
static void imsic_init(void)
{
    imsic_write(ISEL_EIDELIVERY, 1);
    imsic_write(ISEL_EITHRESHOLD, 0);
    imsic_write(ISEL_EIE0, 1ul << NIC_EIID);
    __asm__ volatile("csrs mie, %0" :: "r"(MIE_MEIE) : "memory");
}

void board_msi_route(uint64_t *addr, uint32_t *data)
{
    *addr = IMSIC_M + IMSIC_SETEIPNUM_LE;
    *data = NIC_EIID;
}

/* WFI returns once mip.MEIP is set (some enabled identity pending in the
 * IMSIC) or spuriously. Writing mtopei claims the highest pending enabled
 * identity and clears its pending bit (AIA spec 3.9), so the next WFI
 * sleeps until the NIC raises it again. */
void board_wait_irq(void)
{
    __asm__ volatile("fence iorw, iorw\n wfi" ::: "memory");
    unsigned long claimed;
    __asm__ volatile("csrrw %0, " STR(CSR_MTOPEI) ", zero" : "=r"(claimed) :: "memory");
    (void)claimed;
}

/* minstret (privileged spec 3.1.11). QEMU 7.2 does not count retired
 * instructions for it: it reads the icount virtual clock, or host ticks
 * without -icount (the boot check in kernel/clock.c then fails). With
 * -icount shift=0 the clock advances exactly one per instruction while the
 * hart runs. It could only jump while the hart sleeps (QEMU warps it to a
 * pending virtual-clock timer, and the node arms none; measured: a wait
 * with one WFI costs 11 instructions more than one without), and the NIC
 * driver discards the count of every wait anyway (netdev/nic.c). */
uint32_t board_instret(void)
{
    unsigned long v;
    __asm__ volatile("csrr %0, minstret" : "=r"(v));
    return (uint32_t)v;
}

static const struct board_pci pci = {
    .ecam = PCI_ECAM,
    .mmio_base = PCI_MMIO_BASE, .mmio_size = PCI_MMIO_SIZE,
    .mem_base = PCI_MEM_BASE, .mem_size = PCI_MEM_SIZE,
};

const struct board_pci *board_pci(void) { return &pci; }

void board_putc(char c)
{
    while (!(REG8(UART0 + UART_LSR) & UART_LSR_THRE))
        ;
    REG8(UART0 + UART_THR) = (uint8_t)c;
}

/* The sifive_test finisher ends QEMU with the status. */
void board_exit(int status)
{
    uint32_t code = (uint32_t)status & 0xffffu;
    REG32(FINISHER) = code ? FINISHER_FAIL | code << 16 : FINISHER_PASS;
    for (;;)
        __asm__ volatile("wfi");
}

/* The sifive_test finisher resets the board. */
void board_reset(void)
{
    REG32(FINISHER) = FINISHER_RESET;
    for (;;)
        __asm__ volatile("wfi");
}

/* Synchronous exceptions, from start.S (mcause codes: privileged spec
 * table 3.6). An interrupt cause cannot happen with mstatus.MIE = 0, so it
 * is reported as unexpected. */
void riscv_trap(unsigned long cause, unsigned long pc, unsigned long tval)
{
    static int nested;
    if (nested++)                    /* the fault path itself faulted: just stop */
        board_exit(128 + NIC_FAULT_UNEXPECTED);
    uint32_t kind;
    switch (cause) {
    case 0: case 4: case 6: kind = NIC_FAULT_MISALIGNED; break;  /* fetch, load, store/AMO */
    case 1: kind = NIC_FAULT_FETCH_ACCESS; break;
    case 2: kind = NIC_FAULT_ILLEGAL; break;
    case 3: kind = NIC_FAULT_BREAKPOINT; break;
    case 5: kind = NIC_FAULT_LOAD_ACCESS; break;
    case 7: kind = NIC_FAULT_STORE_ACCESS; break;
    default: kind = NIC_FAULT_UNEXPECTED; break;
    }
    fault_report(kind, pc, tval, (uint32_t)cause);
}


void board_init(void)
{
    null_guard();
    imsic_init();
}
