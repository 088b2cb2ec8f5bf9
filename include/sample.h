/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sample.h - one refresh's raw, version-neutral values.
 *
 * A value the kernel does not provide (or that could not be read or
 * parsed) is not available: its bit in `valid` is clear.  It is never 0.
 */
#ifndef MEMCGTOP_SAMPLE_H
#define MEMCGTOP_SAMPLE_H

#include <stdint.h>

#include "fields.h"

/* The fields: FLD_USAGE, FLD_LIMIT ... in the order of fields.h. */
#define FIELD_ONE(name, flags, v1, v2) + 1
enum { FLD_COUNT_ = 0 FIELDS(FIELD_ONE) };
#undef FIELD_ONE

enum field {
	/* FIELD_PROBE moves the fields up to end at bit 127, most of them
	 * past bit 63 (make check builds build/probe so): clang's
	 * -Wimplicit-int-conversion then refuses a field set narrowed to
	 * 64 bits, and the tests run on it. */
#ifdef FIELD_PROBE
	FLD_PROBE_ = 127 - FLD_COUNT_,
#endif
#define FIELD_ENUM(name, flags, v1, v2) FLD_##name,
	FIELDS(FIELD_ENUM)
#undef FIELD_ENUM
	FLD_NR
};

/*
 * A set of fields: bit f for field f.  128 bits, as gcc and clang give
 * them on every 64-bit target; the operators work on it as on an integer.
 */
typedef unsigned __int128 fieldset;

#define FBIT(f) ((fieldset)1 << (f))

_Static_assert(FLD_NR <= 128, "too many fields for a fieldset");

/* Every field. */
#define FIELDS_ALL (~(fieldset)0 >> (128 - FLD_NR))

/*
 * The bits set in x, inline: x86-64's baseline has no popcnt instruction,
 * and __builtin_popcountll is then a call into libgcc, made for every
 * value a sample gets or sets (3 % of a refresh's CPU at 8,192 groups).
 */
static inline unsigned pop64(uint64_t x)
{
	x -= (x >> 1) & UINT64_C(0x5555555555555555);
	x = (x & UINT64_C(0x3333333333333333)) +
		((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* The number of fields in set s. */
static inline unsigned fieldset_count(fieldset s)
{
	return pop64((uint64_t)s) + pop64((uint64_t)(s >> 64));
}

/* The lowest field in s, which must not be empty. */
static inline int fieldset_first(fieldset s)
{
	unsigned long long lo = (unsigned long long)s;

	return lo ? __builtin_ctzll(lo)
		  : 64 + __builtin_ctzll((unsigned long long)(s >> 64));
}

/* System figures (enum sysfield below) are a separate, 64-bit set. */
#define SBIT(f) (UINT64_C(1) << (f))

/* The counters (fields.h FF_COUNTER): the model rates them. */
#define FIELD_COUNTER_BIT(name, flags, v1, v2) \
	(((flags) & FF_COUNTER) ? FBIT(FLD_##name) : 0) |
#define FIELDS_COUNTER (FIELDS(FIELD_COUNTER_BIT) 0)

/* The limits and protections (FF_MAX): they may be "max". */
#define FIELD_MAX_BIT(name, flags, v1, v2) \
	(((flags) & FF_MAX) ? FBIT(FLD_##name) : 0) |
#define FIELDS_MAX (FIELDS(FIELD_MAX_BIT) 0)

/*
 * A sample holds room only for the fields a refresh can set (slots): its
 * values are packed in field order, field f at the number of slots below
 * it.  At 32,768 groups a sample of every field four times over (the
 * snapshot, the model's current and previous samples and rates) was
 * 60 MiB; the v1 default view asks for 6 of them.  The values live
 * elsewhere (the snapshot's pool, the model's group): a sample is a view.
 */
struct sample {
	fieldset valid;		/* FBIT(field) set: the field has a value */
	fieldset slots;		/* FBIT(field) set: room for it in v; valid
				 * is a subset */
	uint64_t *v;		/* popcount(slots) values, in field order */
};

static inline unsigned sample_nslots(fieldset slots)
{
	return fieldset_count(slots);
}

/* Where field f is (or would be) in the values of a sample of slots. */
static inline unsigned sample_slot(fieldset slots, enum field f)
{
	return fieldset_count(slots & (FBIT(f) - 1));
}

static inline int sample_has(const struct sample *s, enum field f)
{
	return (s->valid & FBIT(f)) != 0;
}

/* Field f's value; 0 when it has none. */
static inline uint64_t sample_get(const struct sample *s, enum field f)
{
	if (!(s->valid & FBIT(f)))
		return 0;
	return s->v[sample_slot(s->slots, f)];
}

/* A field without a slot is not stored: it stays not available. */
static inline void sample_set(struct sample *s, enum field f, uint64_t v)
{
	if (!(s->slots & FBIT(f)))
		return;
	s->v[sample_slot(s->slots, f)] = v;
	s->valid |= FBIT(f);
}

/* No value; every slot 0. */
static inline void sample_clear(struct sample *s)
{
	s->valid = 0;
	for (unsigned i = 0, n = sample_nslots(s->slots); i < n; i++)
		s->v[i] = 0;
}

/* dst's slots take src's values (0 where src has none): dst keeps its
 * slots and its storage, a field it has no slot for is left out. */
static inline void sample_copy(struct sample *dst, const struct sample *src)
{
	fieldset rest = dst->slots;

	if (dst->slots == src->slots) {
		for (unsigned i = 0, n = sample_nslots(dst->slots); i < n; i++)
			dst->v[i] = src->v[i];
		dst->valid = src->valid;
		return;
	}
	for (unsigned i = 0; rest; i++, rest &= rest - 1)
		dst->v[i] = sample_get(src,
				       (enum field)fieldset_first(rest));
	dst->valid = src->valid & dst->slots;
}

/*
 * System-wide figures for the header: from the procfs (sysinfo.h), the
 * reclaim events (reclaim.h) and, for SYS_SWAP_USED, the model.  How each
 * is shown and named is its row of the table in sysfig.h, at its index
 * here; the outputs list them in this order.
 */
#define SYS_NPRIO 13		/* reclaim priorities 0 to 12 (the
				 * kernel's DEF_PRIORITY is 12) */

enum sysfield {
	SYS_MEM_TOTAL,
	SYS_MEM_AVAILABLE,
	SYS_MEM_FREE,
	/* kswapd's watermarks, bytes: /proc/zoneinfo's low and high of
	 * every zone, summed (kswapd wakes below low, sleeps above high) */
	SYS_WMARK_LOW,
	SYS_WMARK_HIGH,
	SYS_SWAP_USED,		/* SwapTotal - SwapFree, derived by the model */
	SYS_SWAP_TOTAL,
	SYS_SWAP_FREE,
	SYS_PGSCAN,
	SYS_PGSTEAL,
	SYS_PSI_SOME10,		/* hundredths of a percent */
	SYS_PSI_FULL10,
	/* the CPU time of kswapd's threads, ms (/proc/PID/stat utime +
	 * stime) */
	SYS_KSWAPD_MS,
	/* SYS_PGSCAN's parts, which add up to it: /proc/vmstat's
	 * pgscan_kswapd, pgscan_direct, pgscan_khugepaged and
	 * pgscan_proactive, of global reclaim only up to 7.2, and the rest
	 * of pgscan_anon + pgscan_file, memcg-targeted reclaim
	 * (sysinfo.c set_reclaim) */
	SYS_PGSCAN_KSWAPD,
	SYS_PGSCAN_DIRECT,
	SYS_PGSCAN_KHUGEPAGED,
	SYS_PGSCAN_PROACTIVE,
	SYS_PGSCAN_MEMCG,
	SYS_LRU_GEN,		/* /sys/kernel/mm/lru_gen/enabled */
	/* From the reclaim events, counts since they were loaded: */
	SYS_SCAN_PRIO,		/* SYS_NPRIO of them: pages scanned at
				 * priority 0, 1, ... 12, soft-limit
				 * reclaim's left out */
	/* ... of them, those of the start group's subtree (its groups'
	 * own lists, as the shrink events were given to them) */
	SYS_SUB_SCAN_PRIO = SYS_SCAN_PRIO + SYS_NPRIO,
	/* soft-limit reclaim's, by priority (all at 0) */
	SYS_SOFT_SCAN_PRIO = SYS_SUB_SCAN_PRIO + SYS_NPRIO,
	/* stats flush requests */
	SYS_FLUSHES = SYS_SOFT_SCAN_PRIO + SYS_NPRIO,
	SYS_OWN_FLUSHES,		/* of them, memcgtop's own reads' */
	SYS_FLUSH_CALLS,		/* requests, flushing or not */
	SYS_OWN_FLUSH_CALLS,		/* of them, memcgtop's own */
	SYS_FLUSH_THRESHOLD,		/* the kernel's: 64 x online CPUs */
	SYS_NR
};

/* A set of system figures is one uint64_t, as a set of fields. */
_Static_assert(SYS_NR <= 64, "too many system figures for a uint64_t mask");

struct sysinfo {
	uint64_t v[SYS_NR];
	uint64_t valid;		/* SBIT(sysfield) set: the figure has a value */
};

#endif
