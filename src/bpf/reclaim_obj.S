/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF object built from reclaim.bpf.c, embedded in the binary so that
 * nothing is looked up at run time.  RECLAIM_OBJ is its path.
 */
	.section .rodata
	.balign 8
	.global reclaim_obj
	.global reclaim_obj_end
reclaim_obj:
	.incbin RECLAIM_OBJ
reclaim_obj_end:
	.section .note.GNU-stack, "", @progbits
