/* Fault-injection apps for the test suite: each makes one node misbehave
 * in one way and lets the others run normally. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "apps.h"
#include "../netdev/net.h"
#include "../netdev/nic.h"
#include "../kernel/kernel.h"
#include "../board/board.h"

static int chosen(void) { return net_rank() == (int)net_arg_num("node"); }

/* One ARM semihosting call (SYS_OPEN 0x01, SYS_SYSTEM 0x12; the RISC-V
 * form is the same calls behind the slli/ebreak/srai marker). Nodes run
 * without semihosting, so the call traps; if it ever returned, a node
 * program could reach the host's files and shell. */
static long semihost(unsigned long op, void *param)
{
#if defined(__riscv)
    register long a0 __asm__("a0") = (long)op;
    register void *a1 __asm__("a1") = param;
    __asm__ volatile(".option push\n\t.option norvc\n\t"
                     "slli zero, zero, 0x1f\n\tebreak\n\tsrai zero, zero, 7\n\t"
                     ".option pop" : "+r"(a0) : "r"(a1) : "memory");
    return a0;
#else
    register long r0 __asm__("r0") = (long)op;
    register void *r1 __asm__("r1") = param;
    __asm__ volatile("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
#endif
}

/* Tries to create a file in QEMU's working directory and to run a host
 * command; returns only if the host answered. */
static int semihost_escape(void)
{
    static const char name[] = "wormsim-semihost-open";
    static const char cmd[] = "touch wormsim-semihost-system";
    unsigned long open_blk[3] = { (unsigned long)(uintptr_t)name, 4 /* "w" */, sizeof name - 1 };
    long h = semihost(0x01, open_blk);
    unsigned long sys_blk[2] = { (unsigned long)(uintptr_t)cmd, sizeof cmd - 1 };
    long rc = semihost(0x12, sys_blk);
    printf("crash: semihosting answered (open %ld, system %ld): the node reached the host\n", h, rc);
    return 3;
}

/* The others wait for a message from the chosen node that never comes. */
static int others_wait(void)
{
    char c;
    net_recv((int)net_arg_num("node"), 0, &c, 1, NULL);
    return 0;
}

/* Read-only data an app writes over (kind=scribble, kind=forge) and a
 * later run checks (kind=mark): a pool's node must not carry a changed
 * image into its next run (host/launch/pool.h: the pool compares the image and
 * resets the node from outside). */
static const char image_mark[16] = "as loaded";     /* in .rodata: const, not volatile */
static char data_mark[16] = "as loaded";            /* in .data */

static int scribble(void)
{
    char c = 0;
    if (chosen()) {
        ((volatile char *)image_mark)[0] = 'X';
        for (int i = 0; i < net_nodes(); i++)
            if (i != net_rank())
                net_send(i, 0, &c, 1);
        return 0;
    }
    return others_wait();
}

static int mark(void)
{
    if (((const volatile char *)image_mark)[0] == 'a' && ((volatile char *)data_mark)[0] == 'a')
        return 0;                                    /* loads, not the initializers */
    printf("crash: node %d runs on an image a run before changed\n", net_rank());
    return 1;
}

/* kind=forge, on every node: what a hostile program does to the next run
 * on its node. It makes pattern_check() find nothing wrong (its first
 * instructions become "return 0"), changes read-only data and .data, and
 * recomputes any sum the image keeps of itself (the symbols below, weak:
 * an image that keeps none has none), as a node-side check would read
 * it: FNV-1a over code and read-only data, .data's load image and the TLS
 * template. Then it exits 0. A pool must not hand the next run this node
 * (host/launch/pool.h: it compares the image itself). */
extern const uint8_t __image_start[] __attribute__((weak)), __data_start[] __attribute__((weak)),
    __data_end[] __attribute__((weak)), __data_load[] __attribute__((weak)),
    __tls_base[] __attribute__((weak)), __tdata_end[] __attribute__((weak));
extern uint32_t __restart_keep[2] __attribute__((weak));

static uint32_t fnv(uint32_t h, const uint8_t *a, const uint8_t *b)
{
    for (; a < b && ((uintptr_t)a & 3); a++)
        h = (h ^ *a) * 16777619u;
    for (; b - a >= 4; a += 4)
        h = (h ^ *(const uint32_t *)a) * 16777619u;
    for (; a < b; a++)
        h = (h ^ *a) * 16777619u;
    return h;
}

/* kind=taint, on every node: changes everything of its node but the
 * loaded image (.data, .bss, the heap, its NIC memory) and, after its EXIT,
 * keeps running instead of waiting: it changes them again and says hello
 * with made-up numbers, as if it had booted. A pool reuses the node (its
 * image is as loaded), and its next run must be a cold run's, bit for bit:
 * the pool stops it, resets it and clears its NIC memory. */
static int taint(void)
{
    static char bss_junk[4096];
    ((volatile char *)data_mark)[0] = 'X';
    char *h = malloc(1 << 20);
    for (int i = 0; h && i < 1 << 20; i += 64)
        h[i] = (char)(i ^ 0x5a);
    for (unsigned i = 0; i < sizeof bss_junk; i++)
        ((volatile char *)bss_junk)[i] = (char)i;
    fflush(stdout);
    nic_exit(0);
    for (uint32_t k = 1;; k++) {
        ((volatile char *)data_mark)[1] = (char)k;
        nic_test_hello(k * 2654435761u);
    }
    return 0;
}

/* kind=peek, on every node: reads, without writing it, the MiB of RAM
 * past its heap's break, where taint's block lay (the same break in every
 * run: the same program and arguments of one length), and fails if any
 * byte is not zero. RAM a program never wrote must be a fresh node's,
 * whatever a pool's node ran before. (Memory malloc hands out may come
 * cleared, so the break, not an allocation, is read.) */
extern char __heap_end[];
static int peek(void)
{
    const volatile char *h = sbrk(0);
    unsigned nonzero = 0;
    for (long i = 0; h != (void *)-1 && i < 1 << 20 && h + i < __heap_end; i++)
        nonzero += h[i] != 0;
    printf("peek: %u bytes of the heap not zero\n", nonzero);
    return nonzero != 0;
}

static int forge(void)
{
    volatile uint16_t *code = (volatile uint16_t *)(uintptr_t)pattern_check;
#if defined(__riscv)
    code[0] = 0x4501;                                /* c.li a0, 0 */
    code[1] = 0x8082;                                /* c.jr ra */
    __asm__ volatile("fence.i" ::: "memory");
#else
    code[0] = 0x0000; code[1] = 0xe3a0;              /* mov r0, #0 */
    code[2] = 0xff1e; code[3] = 0xe12f;              /* bx lr */
#endif
    ((volatile char *)image_mark)[0] = 'X';
    ((volatile char *)data_mark)[0] = 'X';
    if (__data_load)                                 /* a load image of .data apart from .data */
        ((volatile uint8_t *)__data_load)[(uintptr_t)data_mark - (uintptr_t)__data_start] = 'X';
    if (__restart_keep && __image_start && __data_load) {
        uint32_t h = fnv(2166136261u, __image_start, __data_start);
        h = fnv(h, __data_load, __data_load + (__data_end - __data_start));
        ((volatile uint32_t *)__restart_keep)[1] = fnv(h, __tls_base, __tdata_end);
    }
    return 0;
}

/* The NIC's memory as any node program finds it: BAR2 of the ivshmem
 * device (PCI 1af4:1110), which the kernel placed below 4 GiB at boot
 * (kernel/pci.c). */
static volatile uint8_t *nic_memory(void)
{
    struct pci_dev d;
    if (pci_find(0x1af4, 0x1110, &d))
        return NULL;
    return (volatile uint8_t *)(uintptr_t)(*(volatile uint32_t *)(d.cfg + 0x18) & ~0xfu);
}

/* kind=fakefault: reports a fault of a kind the kernel has not (99),
 * rewriting the fault's pc and address in its status block all the while,
 * before and after it says FAULT and rings: the run names the kind, and
 * says one pc and one address in its message and in summary.json. */
static int fake_fault(void)
{
    if (!chosen())
        return others_wait();
    volatile uint8_t *nic = nic_memory();
    if (!nic)
        return 2;
    volatile struct nic_status *st = (volatile struct nic_status *)(nic + NIC_STATUS_OFF);
    st->fault_kind = 99;
    for (uint32_t v = 0x1000;; v++) {
        st->fault_pc = v;
        st->fault_addr = v;
        if (v == 0x1000 + (1u << 16)) {
            st->state = NIC_STATE_FAULT;
            nic_test_doorbell();
        }
    }
}

int app_crash(void)
{
    const char *kind = net_arg("kind");
    if (kind && !strcmp(kind, "scribble"))
        return scribble();
    if (kind && !strcmp(kind, "mark"))
        return mark();
    if (kind && !strcmp(kind, "forge"))
        return forge();
    if (kind && !strcmp(kind, "taint"))
        return taint();
    if (kind && !strcmp(kind, "peek"))
        return peek();
    if (kind && !strcmp(kind, "fakefault"))
        return fake_fault();
    if (!chosen())
        return others_wait();
    /* Every board keeps the first MiB inaccessible, so these fault on
     * either ISA: a load from or a store to addr, a jump to 0x100. */
    volatile int *bad = (volatile int *)(uintptr_t)net_arg_num("addr");
    if (!kind || !strcmp(kind, "dabort"))
        return *bad;
    if (!strcmp(kind, "store"))
        *bad = 1;
    if (!strcmp(kind, "undef")) {
#if defined(__riscv)
        __asm__ volatile(".4byte 0");     /* all zeros: defined illegal (RISC-V unprivileged spec 1.5) */
#else
        __asm__ volatile(".word 0xe7f000f0");           /* permanently undefined (UDF) */
#endif
    }
    if (!strcmp(kind, "pabort"))
        ((void (*)(void))0x100)();
    if (!strcmp(kind, "panic"))
        panic("crash test asked for a panic");
    if (!strcmp(kind, "semihost"))
        return semihost_escape();
    /* Before its EXIT: a node a pool keeps boots again and says hello in
     * the middle of the run; a node of one run (-no-reboot) and one that
     * powers off end their QEMU with status 0, as after a clean exit. */
    if (!strcmp(kind, "reset"))
        board_reset();
    if (!strcmp(kind, "off"))
        board_exit(0);
    printf("crash: kind must be dabort, store, undef, pabort, panic, semihost, scribble, mark, forge, taint, "
           "peek, fakefault, reset or off\n");
    return 2;
}

/* how=spin: loops without touching its NIC; how=doorbell: rings its
 * doorbell in a loop with nothing new posted; how=exit: lets the others
 * finish, posts EXIT, then keeps running instead of stopping QEMU;
 * how=print: writes to its console in a loop (its node log keeps at most
 * the run's --log-max). */
int app_hang(void)
{
    if (!chosen())
        return others_wait();
    const char *how = net_arg("how");
    if (how && !strcmp(how, "doorbell"))
        for (;;)
            nic_test_doorbell();
    if (how && !strcmp(how, "print"))
        for (unsigned i = 0;; i++)
            printf("hang: node %d prints line %u of a loop without end\n", net_rank(), i);
    if (how && !strcmp(how, "exit")) {
        char c = 0;
        for (int i = 0; i < net_nodes(); i++)       /* the others finish */
            if (i != net_rank())
                net_send(i, 0, &c, 1);
        nic_exit(0);
        for (;;)
            __asm__ volatile("wfi");
    }
    for (volatile unsigned i = 0;; i++)
        ;
}

int app_deadlock(void)
{
    char c;
    int next = (net_rank() + 1) % net_nodes();
    const char *wait = net_arg("wait");
    if (wait && !strcmp(wait, "probe_any")) {
        struct net_pattern p[2] = { { next, 7, 0 }, { NET_ANY, 8, 0 } };
        struct net_status st;
        net_probe_any(p, 2, &st);
    } else
        net_recv(next, 7, &c, 1, NULL);
    return 0;
}

/* Step marks are labels: any 32-bit value, huge ones included, must
 * cost the router nothing. The chosen node marks `mark`, sends itself a
 * byte in that step, then lets the others finish. */
static int marked_step(uint32_t mark)
{
    char c = 1;
    int me = net_rank();
    net_step((int)mark);
    net_send(me, 9, &c, 1);
    net_recv(me, 9, &c, 1, NULL);
    for (int i = 0; i < net_nodes(); i++)
        if (i != me)
            net_send(i, 0, &c, 1);
    return 0;
}

int app_baddesc(void)
{
    if (!chosen())
        return others_wait();
    const char *what = net_arg("what");
    int me = net_rank();
    if (!what || !strcmp(what, "dst"))
        nic_test_post_raw(NIC_OP_SEND, (uint32_t)net_nodes() + 5, 0, 4, 0);
    else if (!strcmp(what, "len"))
        nic_test_post_raw(NIC_OP_SEND, 0, 0, 0x7fffffffu, 0);
    else if (!strcmp(what, "off"))
        nic_test_post_raw(NIC_OP_SEND, 0, 0, 64, 0xfffffff0u);
    else if (!strcmp(what, "op"))
        nic_test_post_raw(0x99, 0, 0, 0, 0);
    else if (!strcmp(what, "ring"))
        nic_test_set_prod(0x12345678u);
    else if (!strcmp(what, "record"))        /* a figure under a key there is not */
        nic_test_post_raw(NIC_OP_RECORD, 0, 99, 1, 0);
    else if (!strcmp(what, "steps")) {       /* two huge marks, 0xffffffff among them */
        marked_step(0x7fffffffu);
        return marked_step(0xffffffffu);
    } else if (!strcmp(what, "step"))
        return marked_step(100000000u);
    else if (!strcmp(what, "time"))          /* past the simulated-time limit */
        nic_test_post_at(1ull << 62, NIC_OP_SEND, (uint32_t)me, 0, 4, 0);
    else if (!strcmp(what, "backwards")) {   /* near 2^64, then early */
        nic_test_post_at(~0ull - 10, NIC_OP_SEND, (uint32_t)me, 0, 4, 0);
        nic_test_post_at(1000, NIC_OP_SEND, (uint32_t)me, 0, 4, 0);
    } else if (!strcmp(what, "flood")) {     /* legal sends nobody receives */
        size_t len = net_msg_max();
        unsigned char *buf = calloc(1, len);
        for (;;) {                           /* at half the default NIC's 1 byte a ns, so that
                                                the held bytes, not the NIC's backlog, grow */
            net_send(me, 1, buf, len);
            for (uint64_t t0 = net_time_ns(); net_time_ns() - t0 < 2 * (uint64_t)len;)
                ;
        }
    }
    /* Stop here, as a wedged driver would: posting more would overwrite
     * what the router must see. */
    for (;;)
        __asm__ volatile("wfi");
}
