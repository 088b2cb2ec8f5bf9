/* SPDX-License-Identifier: GPL-2.0-or-later */
/* preview_out.c - a preview as lines (the dialog, --set) and as JSON. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "edit.h"
#include "fmt.h"
#include "parse.h"
#include "preview.h"

static int reclaims(const struct preview_in *in)
{
	return in->knob == PK_LIMIT || in->knob == PK_HIGH ||
		in->knob == PK_MEMSW || in->knob == PK_RECLAIM;
}

static int protects(const struct preview_in *in)
{
	return in->knob == PK_LOW || in->knob == PK_MIN;
}

static void bytes(char *buf, size_t len, uint64_t v)
{
	if (v == VAL_MAX)
		snprintf(buf, len, "max");
	else
		fmt_bytes(buf, len, v);
}

size_t edit_preview_lines(const struct preview_in *in,
			  const struct preview *pv, char (*lines)[PREVIEW_LINE],
			  size_t max)
{
	char s[400], a[32], b[32], c[32];
	size_t n = 0;

	if (!max)
		return 0;
	preview_sentence(in, pv, s, sizeof(s));
	snprintf(lines[n++], PREVIEW_LINE, "preview: %s: %.380s",
		 preview_word(pv->outcome), s);
	if (reclaims(in) && n < max) {
		size_t o;

		fmt_bytes(a, sizeof(a), pv->need);
		fmt_bytes(b, sizeof(b), pv->reclaimable);
		fmt_bytes(c, sizeof(c), pv->shortfall);
		o = (size_t)snprintf(lines[n], PREVIEW_LINE, "need %s, "
				     "reclaimable %s, short %s:", a, b, c);
		for (int i = 0; i < PP_NR && o < PREVIEW_LINE; i++) {
			fmt_bytes(a, sizeof(a), pv->part[i]);
			o += (size_t)snprintf(lines[n] + o, PREVIEW_LINE - o,
					      " %s %s%s%s", preview_part_name(i),
					      a, i == PP_DIRTY ? " after I/O" :
					      i == PP_ANON ? " to swap" : "",
					      i + 1 < PP_NR ? "," : "");
		}
		if (in->protected && o < PREVIEW_LINE) {
			fmt_bytes(a, sizeof(a), in->protected);
			snprintf(lines[n] + o, PREVIEW_LINE - o, "; less %s "
				 "protected (memory.min below)", a);
		}
		n++;
	}
	if (pv->outcome == PV_OOM && in->victim.pid && !in->oom_group &&
	    n < max) {
		fmt_bytes(a, sizeof(a), in->victim.size);
		fmt_bytes(b, sizeof(b), in->victim.rss);
		fmt_bytes(c, sizeof(c), in->victim.swap);
		snprintf(lines[n++], PREVIEW_LINE, "likely victim: pid %d %.100s, "
			 "badness %s (rss %s, swap %s, oom_score_adj %d)",
			 in->victim.pid, in->victim.cmd, a, b, c,
			 in->victim.oom_adj);
	}
	for (size_t i = 0; protects(in) && i < pv->nsib && n < max; i++) {
		char safe[200];
		const char *sp = in->sib_path[i] ? in->sib_path[i] : "?";

		fmt_escape(safe, sizeof(safe), sp, strlen(sp));
		bytes(a, sizeof(a), pv->eff_before[i]);
		bytes(b, sizeof(b), pv->eff_after[i]);
		snprintf(lines[n++], PREVIEW_LINE, "effective %s of %s%s: %s -> "
			 "%s", in->knob == PK_LOW ? "low" : "min", safe,
			 i == in->self ? " (this group)" : "", a, b);
	}
	return n;
}

void edit_preview_json(FILE *f, const struct preview_in *in,
		       const struct preview *pv)
{
	char s[400];

	preview_sentence(in, pv, s, sizeof(s));
	fprintf(f, "{\"outcome\":\"%s\",\"sentence\":", preview_word(pv->outcome));
	fmt_json_name(f, s, strlen(s));
	if (reclaims(in)) {
		fprintf(f, ",\"need\":%" PRIu64 ",\"reclaimable\":%" PRIu64
			",\"short\":%" PRIu64 ",\"quick\":%" PRIu64
			",\"slow\":%" PRIu64 ",\"protected\":%" PRIu64
			",\"active_taken\":%" PRIu64 ",\"parts\":{", pv->need,
			pv->reclaimable, pv->shortfall, pv->quick, pv->slow,
			in->protected, pv->active_taken);
		for (int i = 0; i < PP_NR; i++)
			fprintf(f, "%s\"%s\":%" PRIu64, i ? "," : "",
				preview_part_name(i), pv->part[i]);
		fputc('}', f);
	}
	if (pv->outcome == PV_OOM) {
		fprintf(f, ",\"oom_group\":%s,\"victim\":",
			in->oom_group ? "true" : "false");
		if (in->victim.pid) {
			fprintf(f, "{\"pid\":%d,\"cmd\":", in->victim.pid);
			fmt_json_name(f, in->victim.cmd, strlen(in->victim.cmd));
			fprintf(f, ",\"badness_bytes\":%" PRIu64 ",\"rss\":%"
				PRIu64 ",\"swap\":%" PRIu64 ",\"oom_score_adj\":%d}",
				in->victim.size, in->victim.rss, in->victim.swap,
				in->victim.oom_adj);
		} else {
			fputs("null", f);
		}
	}
	if (protects(in)) {
		fputs(",\"siblings\":[", f);
		for (size_t i = 0; i < pv->nsib; i++) {
			const char *sp = in->sib_path[i] ? in->sib_path[i] : "";

			fprintf(f, "%s{\"path\":", i ? "," : "");
			fmt_json_name(f, sp, strlen(sp));
			fprintf(f, ",\"self\":%s,\"eff_before\":%" PRIu64
				",\"eff_after\":%" PRIu64 "}",
				i == in->self ? "true" : "false",
				pv->eff_before[i], pv->eff_after[i]);
		}
		fputc(']', f);
	}
	if (in->knob == PK_SOFT)
		fprintf(f, ",\"soft_excess\":%" PRIu64 ",\"soft_rank\":%zu",
			pv->soft_excess, pv->soft_rank);
	fputc('}', f);
}
