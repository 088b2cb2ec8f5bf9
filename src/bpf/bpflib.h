/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpflib.h - what the BPF loaders (bpfcol, bpfev) share: whether this
 * process may load BPF programs, and libbpf's messages kept rather than
 * printed, so that a caller can say in one line why a load failed (and
 * "auto" can fall back silently).  Opening, sizing and loading are each
 * loader's own, through its object's skeleton (bpftool gen skeleton).
 */
#ifndef MEMCGTOP_BPFLIB_H
#define MEMCGTOP_BPFLIB_H

#include <stdbool.h>
#include <stddef.h>

/* CAP_BPF and CAP_PERFMON (5.8+), or CAP_SYS_ADMIN, in the effective set. */
bool bpflib_permitted(void);

/* From now on libbpf's messages are kept, not printed; forgets the ones
 * kept before (call before each skeleton's __open). */
void bpflib_keep_messages(void);

/* Why a skeleton's __open failed with R, or its __load with R, in one line
 * ("cannot open the BPF object: ...", "the kernel refused bpf(): ..." for
 * EPERM, else "the kernel refused the program (...): <verifier>"); valid
 * until the next call. */
const char *bpflib_open_error(int r);
const char *bpflib_load_error(int r);

/* The kernel's BTF, where the loaders look it up. */
#define BPFLIB_VMLINUX "/sys/kernel/btf/vmlinux"

/* Why btf__load_vmlinux_btf() failed with R, in one line: the file is
 * empty, is not valid BTF (cut short or corrupt), or cannot be read. */
const char *bpflib_btf_error(int r);

/* Whether fewer than `need` file descriptors are left under
 * RLIMIT_NOFILE (a load needs several at once: BTF, maps, the program,
 * its link); if so, the reason in one line. */
bool bpflib_fds_short(int need, char *why, size_t len);

#endif
