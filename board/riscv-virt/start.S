/* Reset entry and trap vector for one RV64 hart on QEMU's RISC-V virt
 * board, run with -bios none: QEMU's reset code jumps to _start in M-mode
 * (a0 = hart id, a1 = device tree, both unused).
 *
 * Invariant: the node runs in M-mode with mstatus.MIE = 0 for its whole
 * life, so no interrupt handler ever runs. The NIC's interrupt only wakes
 * the hart from WFI: WFI resumes when any interrupt is pending and enabled
 * in mie, whatever the global enable (RISC-V privileged spec 3.3.3), and
 * execution continues after the WFI. So the retired-instruction count of
 * the app does not depend on when the host delivers an interrupt (the same
 * invariant as board/arm-virt/start.S).
 */
	.section .text.boot, "ax"
	.global _start
_start:
	csrw	mie, zero		/* privileged spec 3.1.9: nothing enabled yet */
	csrci	mstatus, 0x8		/* mstatus.MIE = 0, and it stays 0 */
	la	t0, trap_entry		/* mtvec (3.1.7): direct mode, 4-byte aligned */
	csrw	mtvec, t0
	la	sp, __stack_top
	/* Copy .data from its load image (the linker script's image region). */
	la	t0, __data_start
	la	t1, __data_end
	la	t2, __data_load
5:	bgeu	t0, t1, 6f
	lb	t3, 0(t2)
	sb	t3, 0(t0)
	addi	t0, t0, 1
	addi	t2, t2, 1
	j	5b
6:	/* Clear .bss and the stacks: a reset leaves RAM as the last run
	 * left it (none is in use yet). */
	la	t0, __bss_start
	la	t1, __stack_top
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	call	kernel_main
3:	wfi
	j	3b

/* Every trap is synchronous (interrupts never trap: mstatus.MIE = 0) and
 * ends the node: pass (mcause, mepc, mtval) to riscv_trap() on the trap
 * stack, which calls fault_report() and never returns. mepc is the address
 * of the instruction that took the exception (privileged spec 3.1.14),
 * mtval the faulting address for access faults and misaligned accesses,
 * or the instruction bits for an illegal instruction (3.1.16). */
	.balign	4
trap_entry:
	la	sp, __trap_stack_top
	csrr	a0, mcause
	csrr	a1, mepc
	csrr	a2, mtval
	call	riscv_trap
4:	wfi
	j	4b
