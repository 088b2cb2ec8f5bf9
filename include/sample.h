/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sample.h - one refresh's raw, version-neutral values.
 *
 * A value the kernel does not provide (or that could not be read or
 * parsed) is not available: its bit in `valid` is clear.  It is never 0.
 */
#ifndef MEMCGTOP_SAMPLE_H
#define MEMCGTOP_SAMPLE_H

#include <stdint.h>

enum field {
	F_USAGE,
	F_LIMIT,
	F_HIGH,
	F_LOW,
	F_MIN,
	F_SOFT,
	F_SWAP,
	F_SWAP_LIMIT,
	F_SWAPPINESS,
	F_ANON,
	F_FILE,
	F_SHMEM,
	F_KERNEL,
	F_ACTIVE_ANON,
	F_INACTIVE_ANON,
	F_ACTIVE_FILE,
	F_INACTIVE_FILE,
	F_UNEVICTABLE,
	F_PGSCAN,
	F_PGSTEAL,
	F_PGSCAN_KSWAPD,
	F_PGSCAN_DIRECT,
	F_PGSTEAL_KSWAPD,
	F_PGSTEAL_DIRECT,
	F_REFAULT_ANON,
	F_REFAULT_FILE,
	F_PGFAULT,
	F_PGMAJFAULT,
	F_EV_LOW,
	F_EV_HIGH,
	F_EV_MAX,
	F_EV_OOM,
	F_EV_OOM_KILL,
	F_FAILCNT,
	F_PSI_SOME10,		/* hundredths of a percent */
	F_PSI_FULL10,
	F_PROCS,
	F_NR
};

#define FBIT(f) (UINT64_C(1) << (f))

struct sample {
	uint64_t v[F_NR];
	uint64_t valid;		/* FBIT(field) set: v[field] is a value */
};

static inline int sample_has(const struct sample *s, enum field f)
{
	return (s->valid & FBIT(f)) != 0;
}

static inline void sample_set(struct sample *s, enum field f, uint64_t v)
{
	s->v[f] = v;
	s->valid |= FBIT(f);
}

/* System-wide figures for the header, from the procfs. */
enum sysfield {
	S_MEM_TOTAL,
	S_MEM_AVAILABLE,
	S_SWAP_TOTAL,
	S_SWAP_FREE,
	S_PGSCAN,
	S_PGSTEAL,
	S_PSI_SOME10,
	S_PSI_FULL10,
	S_NR
};

struct sysinfo {
	uint64_t v[S_NR];
	uint64_t valid;
};

#endif
