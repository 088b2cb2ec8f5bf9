/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_version.c - the cgroup versions' descriptors, as the files collector
 * and a recording read them: where each version keeps each field
 * (include/fields.h), the maps its tables imply, and what they say of
 * files, fields and the pass's slots. */
#include <stdint.h>
#include <string.h>

#include "cgfs_version.h"

#define NONE { SRC_NONE, -1, -1, { 0, 0 }, NULL, 0 }
#define IN(f, k) { SRC_IN, CF_##f, -1, { 0, 0 }, k, 0 }
#define PASS(f, k, s) { SRC_IN, CF_##f, MR_##s, { 0, 0 }, k, 0 }
#define SLOT(s, k) { SRC_SLOT, -1, MR_##s, { 0, 0 }, k, 0 }
#define MADE(a, b) { SRC_MADE, -1, -1, { FLD_##a, FLD_##b }, NULL, 0 }
#define EVENTS(k) { SRC_EVENTS, -1, -1, { 0, 0 }, k, 0 }

#define V1_SRC(name, flags, v1, v2) [FLD_##name] = v1,
#define V2_SRC(name, flags, v1, v2) [FLD_##name] = v2,
static const struct src v1_src[FLD_NR] = { FIELDS(V1_SRC) };
static const struct src v2_src[FLD_NR] = { FIELDS(V2_SRC) };

/* A recording's: what the pass carried of a SLOT row is its memory.stat
 * line (cgfs_keep_pass), what the events gave its memcgtop.events line
 * (cgfs_event_lines). */
#undef SLOT
#define SLOT(s, k) { SRC_IN, CF_STAT, MR_##s, { 0, 0 }, k, 1 }
#undef EVENTS
#define EVENTS(k) { SRC_IN, CF_RECEV, -1, { 0, 0 }, k, 0 }
static const struct src v1_replay_src[FLD_NR] = { FIELDS(V1_SRC) };
static const struct src v2_replay_src[FLD_NR] = { FIELDS(V2_SRC) };
#undef V1_SRC
#undef V2_SRC

#undef NONE
#undef IN
#undef PASS
#undef SLOT
#undef MADE
#undef EVENTS

static struct cgfs_version versions[2], replays[2];
static const struct cgfs_version *const version_rows[2] = {
	&cgfs_v1_row, &cgfs_v2_row,
};

/* The files field f needs, through what it is made of. */
static unsigned need_of(const struct cgfs_version *v, enum field f, int depth)
{
	const struct src *s = &v->src[f];

	if (s->kind == SRC_IN)
		return CFBIT(s->cf) | (s->also_recev ? CFBIT(CF_RECEV) : 0);
	if (s->kind != SRC_MADE || depth > FLD_NR)
		return 0;
	return need_of(v, (enum field)s->made[0], depth + 1) |
		need_of(v, (enum field)s->made[1], depth + 1);
}

static void add_key(struct cgfs_version *v, size_t *n, const char *key,
		    int field, enum extra x)
{
	struct keymap *k = &v->keys[(*n)++];

	k->key = key;
	k->len = (unsigned char)strlen(key);
	k->field = (signed char)field;
	k->x = (unsigned char)x;
}

/* The tables a descriptor's rows imply: names and kinds by file, what
 * each field needs, the key maps of each key file (in the order of the
 * fields), the pass's slots by file. */
static void version_derive(struct cgfs_version *v)
{
	size_t nk = 0;

	memset(v->value_field, -1, sizeof(v->value_field));
	for (size_t i = 0; i < v->nfiles; i++) {
		v->name_of[v->files[i].cf] = v->files[i].name;
		v->kind_of[v->files[i].cf] = v->files[i].kind;
	}
	for (int f = 0; f < FLD_NR; f++)
		v->need[f] = need_of(v, (enum field)f, 0);
	for (int cf = 0; cf < CF_NR; cf++) {
		int all_pass = 0;

		v->kfirst[cf] = (unsigned char)nk;
		for (int f = 0; f < FLD_NR; f++) {
			const struct src *s = &v->src[f];

			if (s->kind == SRC_IN && s->also_recev && s->key &&
			    cf == CF_RECEV)
				add_key(v, &nk, s->key, f, 0);
			if (s->kind != SRC_IN || s->cf != cf)
				continue;
			v->in_fields[cf] |= FBIT(f);
			if (s->key)
				add_key(v, &nk, s->key, f, 0);
			else
				v->value_field[cf] = (signed char)f;
			if (s->slot >= 0) {
				v->file_slots[cf] |= MR_SET(s->slot);
				all_pass = all_pass >= 0 ? 1 : -1;
			} else {
				all_pass = -1;
			}
		}
		for (size_t i = 0; i < v->nextras; i++)
			if (v->extras[i].cf == (enum cgfile)cf)
				add_key(v, &nk, v->extras[i].key, -1,
					v->extras[i].x);
		v->kcount[cf] = (unsigned char)(nk - v->kfirst[cf]);
		if (all_pass > 0)
			v->pass_files |= CFBIT(cf);
	}
	v->ready = 1;
}

const struct cgfs_version *cgfs_version_of(int n)
{
	struct cgfs_version *v = &versions[n == 2];

	if (!v->ready) {
		*v = *version_rows[n == 2];
		v->src = n == 2 ? v2_src : v1_src;
		version_derive(v);
	}
	return v;
}

const struct cgfs_version *cgfs_version_replay(int n)
{
	struct cgfs_version *v = &replays[n == 2];

	if (!v->ready) {
		*v = *version_rows[n == 2];
		v->src = n == 2 ? v2_replay_src : v1_replay_src;
		version_derive(v);
	}
	return v;
}

const char *cgfs_file_name(const struct cgfs_version *v, enum cgfile f)
{
	return v->name_of[f];
}

int cgfs_is_control_name(const struct cgfs_version *v, const char *name)
{
	for (size_t i = 0; i < v->nfiles; i++)
		if (strcmp(v->files[i].name, name) == 0)
			return 1;
	return 0;
}

int cgfs_version_renames(const struct cgfs_version *v)
{
	return v->renames;
}

const char *cgfs_version_file(const struct cgfs_version *v)
{
	return v->version_file;
}

const char *const *cgfs_detail_files(const struct cgfs_version *v)
{
	return v->detail;
}

unsigned cgfs_pass_files(const struct cgfs_version *v)
{
	return v->pass_files;
}

fieldset cgfs_pass_fields(const struct cgfs_version *v, mr_set slots)
{
	fieldset fields = 0;

	for (int f = 0; f < FLD_NR; f++)
		if ((v->src[f].kind == SRC_IN || v->src[f].kind == SRC_SLOT) &&
		    v->src[f].slot >= 0 && (slots & MR_SET(v->src[f].slot)))
			fields |= FBIT(f);
	return fields;
}

size_t cgfs_stat_rows(const struct cgfs_version *v, struct cgfs_stat_row *ret,
		      size_t max)
{
	size_t n = 0;

	for (int f = 0; f < FLD_NR; f++) {
		const struct src *s = &v->src[f];

		if (s->slot < 0 || !(MR_STATS & MR_SET(s->slot)) ||
		    (s->kind == SRC_IN && s->cf != CF_STAT))
			continue;
		if (n < max)
			ret[n] = (struct cgfs_stat_row){
				s->slot, s->kind == SRC_IN ? s->key : NULL, f };
		n++;
	}
	return n;
}

int cgfs_version_n(const struct cgfs_version *v)
{
	return v->n;
}

mr_set cgfs_file_slots(const struct cgfs_version *v, enum cgfile f)
{
	return v->file_slots[f];
}

void cgfs_want_for(const struct cgfs_version *v, fieldset fields,
		   struct cgfs_want *ret)
{
	fieldset raw = fields, more;

	/* What MADE fields are made of is read too. */
	do {
		more = 0;
		for (fieldset r = raw; r; r &= r - 1) {
			const struct src *s = &v->src[fieldset_first(r)];

			if (s->kind == SRC_MADE)
				more |= FBIT(s->made[0]) | FBIT(s->made[1]);
		}
		more &= ~raw;
		raw |= more;
	} while (more);
	memset(ret, 0, sizeof(*ret));
	ret->fields = raw;
	ret->swap_ceiling = VAL_MAX;
	for (fieldset r = raw; r; r &= r - 1) {
		const struct src *s = &v->src[fieldset_first(r)];

		if (s->kind != SRC_IN && s->kind != SRC_SLOT)
			continue;
		if (s->kind == SRC_SLOT) {
			ret->pass_slots |= MR_SET(s->slot);
			continue;
		}
		ret->files |= CFBIT(s->cf);
		if (s->also_recev)
			ret->files |= CFBIT(CF_RECEV);
		if (s->slot >= 0)
			ret->pass_slots |= MR_SET(s->slot);
	}
	/* The pass says which groups hold no task (take_pass). */
	if (ret->files & CFBIT(CF_PROCS))
		ret->pass_slots |= MR_BIT(POPULATED);
	ret->root_files = v->root_files(ret->files);
}

fieldset cgfs_fields_of(const struct cgfs_version *v, unsigned files)
{
	fieldset fields = 0;

	for (int f = 0; f < FLD_NR; f++)
		if (v->need[f] & files)
			fields |= FBIT(f);
	return fields;
}

int cgfs_field_may_be_max(enum field f)
{
	return (FIELDS_MAX & FBIT(f)) != 0;
}

size_t cgfs_field_files(const struct cgfs *cg, enum field f, int root,
			const char **ret_names, size_t max, int *ret_root_lacks)
{
	const struct cgfs_version *v = cg->ver;
	unsigned files = v->need[f];
	size_t n = 0;

	*ret_root_lacks = 0;
	if (root && files) {
		/* As the root is read (the v2 root has few files). */
		files = v->root_files(files);
		*ret_root_lacks = files == 0;
	}
	for (int i = 0; i < CF_NR && n < max; i++)
		if ((files & CFBIT(i)) && v->name_of[i])
			ret_names[n++] = v->name_of[i];
	return n;
}

fieldset cgfs_version_events(int version)
{
	const struct cgfs_version *v = cgfs_version_of(version);
	fieldset fields = 0;

	for (int f = 0; f < FLD_NR; f++)
		if (v->src[f].kind == SRC_EVENTS ||
		    (v->src[f].kind == SRC_SLOT &&
		     (MR_STATS & MR_SET(v->src[f].slot))))
			fields |= FBIT(f);
	return fields;
}

fieldset cgfs_kept_fields(const struct cgfs_version *v)
{
	fieldset fields = 0;

	for (int f = 0; f < FLD_NR; f++)
		if (v->src[f].kind != SRC_NONE)
			fields |= FBIT(f);
	return fields;
}

fieldset cgfs_version_fields(int version)
{
	return cgfs_kept_fields(cgfs_version_of(version));
}

const struct numa_view *cgfs_numa_view(int version,
				       enum cgfs_numa_for what)
{
	return &cgfs_version_of(version)->numa[what];
}

int cgfs_field_source(int version, enum field f, const char **ret_file,
		      const char **ret_key)
{
	const struct cgfs_version *v = cgfs_version_of(version);
	const struct src *s = &v->src[f];

	if (s->kind != SRC_IN)
		return 0;
	*ret_file = v->name_of[s->cf];
	*ret_key = s->key;
	return 1;
}
