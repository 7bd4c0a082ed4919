/* Reset entry and exception vectors for a Cortex-A15 on QEMU's ARM virt
 * board. QEMU enters _start in SVC mode with the MMU off.
 *
 * Invariant: the node runs in SVC mode with IRQ and FIQ masked (CPSR.I/F)
 * for its whole life. The NIC's interrupt only wakes the core from WFI
 * (ARMv7 ARM B1.8.13: WFI wakes on a pending IRQ whatever CPSR.I says), so
 * no asynchronous handler ever runs and the retired-instruction count of
 * the app does not depend on when the host delivers an interrupt.
 */
	.section .text.boot, "ax"
	.arm
	.global _start
_start:
	cpsid	aif
	/* One stack per mode that can be entered: abort and undefined for the
	 * fault path, SVC for everything else. */
	cps	#0x17			/* abort */
	ldr	sp, =__abt_stack_top
	cps	#0x1b			/* undefined */
	ldr	sp, =__und_stack_top
	cps	#0x13			/* SVC */
	ldr	sp, =__stack_top
	/* Vector base (VBAR, c12): our table below. */
	ldr	r0, =vectors
	mcr	p15, 0, r0, c12, c0, 0
	/* Copy .data from its load image (the linker script's image
	 * region), byte by byte: the MMU is off, so no unaligned access. */
	ldr	r0, =__data_start
	ldr	r1, =__data_end
	ldr	r2, =__data_load
1:	cmp	r0, r1
	ldrlob	r3, [r2], #1
	strlob	r3, [r0], #1
	blo	1b
	/* Clear .bss, the page table and the stacks: a reset leaves RAM as
	 * the last run left it (none is in use yet). */
	ldr	r0, =__bss_start
	ldr	r1, =__stack_top
	mov	r2, #0
1:	cmp	r0, r1
	strlo	r2, [r0], #4
	blo	1b
	bl	kernel_main
2:	wfi
	b	2b

	.balign	32
vectors:
	b	_start			/* reset */
	b	undef_entry		/* undefined instruction */
	b	unexpected_entry	/* SVC: the kernel never issues one */
	b	pabort_entry		/* prefetch abort */
	b	dabort_entry		/* data abort */
	b	unexpected_entry	/* reserved */
	b	unexpected_entry	/* IRQ: masked for life, see the invariant above */
	b	unexpected_entry	/* FIQ: masked for life */

/* Each entry passes (kind, faulting PC, fault address, fault status) to
 * fault_report(), which never returns. The preferred return addresses are
 * in ARMv7 ARM table B1-7: undefined LR-4 (ARM state), prefetch abort
 * LR-4, data abort LR-8. The address and status are DFAR/DFSR for a data
 * abort and IFAR/IFSR for a prefetch abort (B4.1.51/52, B4.1.96/97). */
undef_entry:
	sub	r1, lr, #4
	mov	r0, #1
	b	fault_noaddr
pabort_entry:
	sub	r1, lr, #4
	mov	r0, #2
	mrc	p15, 0, r2, c6, c0, 2	/* IFAR */
	mrc	p15, 0, r3, c5, c0, 1	/* IFSR */
	b	fault_enter
dabort_entry:
	sub	r1, lr, #8
	mov	r0, #3
	mrc	p15, 0, r2, c6, c0, 0	/* DFAR */
	mrc	p15, 0, r3, c5, c0, 0	/* DFSR */
	b	fault_enter
unexpected_entry:
	mov	r1, lr
	mov	r0, #4
fault_noaddr:
	mov	r2, #0
	mov	r3, #0
fault_enter:
	/* Report from SVC mode on the kernel stack's tail; the app will not
	 * run again, so its frame may be overwritten. */
	cps	#0x13
	ldr	sp, =__stack_top
	bl	fault_report
3:	wfi
	b	3b
