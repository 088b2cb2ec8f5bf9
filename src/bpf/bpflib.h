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
#include <stdint.h>

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

/* What a load costs in memory beyond its maps: libbpf reads the kernel's
 * BTF whole and parses it into a copy (both held at once), plus the
 * program, the verifier's work and libbpf's own (measured: 2.2 MiB at
 * 1,000 groups on 6.18 before the pass carried the lists per node; with
 * them and the reclaim events a JSON run in a 16 MiB group was killed
 * with 3 MiB counted, and peaked at 18.3 MiB in a 24 MiB one: 5 MiB
 * counted). */
uint64_t bpflib_load_bytes(uint64_t maps);

/*
 * Whether this process's memory cgroup, or one above it, has less room
 * than `need` bytes: its limit (v2: memory.max or memory.high) less its
 * usage, plus its file pages (reclaimed before anything is killed); if
 * so, the reason in one line.  False when there is no limit or it cannot
 * tell: a load that could be charged over the limit would wake the OOM
 * killer, which may take this process or a neighbour.
 */
bool bpflib_memcg_short(uint64_t need, char *why, size_t len);

/*
 * After a load, loaded or not: the heap that parsing the kernel's BTF
 * took, freed, goes back to the system (malloc_trim), so that it is not
 * charged to the memory cgroup when the next load checks its room.
 */
void bpflib_loaded(void);

#endif
