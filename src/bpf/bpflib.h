/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpflib.h - what the BPF loaders (bpfcol, bpfev) share: whether this
 * process may load BPF programs, and libbpf's messages kept rather than
 * printed, so that a caller can say in one line why a load failed (and
 * "auto" can fall back silently).
 */
#ifndef MEMCGTOP_BPFLIB_H
#define MEMCGTOP_BPFLIB_H

#include <stdbool.h>
#include <stddef.h>

struct bpf_object;
struct bpf_map;

/* CAP_BPF and CAP_PERFMON (5.8+), or CAP_SYS_ADMIN, in the effective set. */
bool bpflib_permitted(void);

/* From now on libbpf's messages are kept, not printed; forgets the ones
 * kept before (call before each open or load). */
void bpflib_keep_messages(void);

/* Opens the object embedded at [START, END) as NAME, libbpf's messages
 * kept; NULL with errno set when libbpf cannot parse it. */
struct bpf_object *bpflib_open(const char *name, const void *start,
			       const void *end);

/* OBJ's global data map NAME (".rodata", ".bss", a ".data.*" section)
 * when its initial value is SIZE bytes, else NULL: the object and the
 * struct the loader fills must agree. */
struct bpf_map *bpflib_data_map(struct bpf_object *obj, const char *name,
				size_t size);

/* Why bpflib_open failed with R, or bpf_object__load with R, in one line
 * ("cannot open the BPF object: ...", "the kernel refused bpf(): ..." for
 * EPERM, else "the kernel refused the program (...): <verifier>"); valid
 * until the next call. */
const char *bpflib_open_error(int r);
const char *bpflib_load_error(int r);

#endif
