/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF object built from memcg_iter.bpf.c, embedded in the binary so
 * that nothing is looked up at run time.  MEMCG_ITER_OBJ is its path.
 */
	.section .rodata
	.balign 8
	.global memcg_iter_obj
	.global memcg_iter_obj_end
memcg_iter_obj:
	.incbin MEMCG_ITER_OBJ
memcg_iter_obj_end:
	.section .note.GNU-stack, "", @progbits
