/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out.c - choosing a batch printer. */
#include <errno.h>
#include <string.h>

#include "fmt.h"
#include "out.h"

int out_format_parse(const char *name, enum out_format *ret_fmt)
{
	static const struct {
		const char *name;
		enum out_format fmt;
	} formats[] = {
		{ "text", FMT_TEXT },
		{ "csv", FMT_CSV },
		{ "json", FMT_JSON },
		{ "openmetrics", FMT_OPENMETRICS },
		{ "prometheus", FMT_PROMETHEUS },
	};

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (strcmp(name, formats[i].name) == 0) {
			*ret_fmt = formats[i].fmt;
			return 0;
		}
	}
	return -EINVAL;
}

const char *out_time(const struct model *m, char *buf, size_t len)
{
	fmt_time_iso(buf, len, m->wall);
	return buf;
}

void out_begin(struct out_ctx *o)
{
	if (o->fmt == FMT_CSV)
		out_csv_header(o);
}

void out_iteration(struct out_ctx *o)
{
	switch (o->fmt) {
	case FMT_TEXT:
		out_text(o);
		break;
	case FMT_CSV:
		out_csv(o);
		break;
	case FMT_JSON:
		out_json(o);
		break;
	case FMT_OPENMETRICS:
	case FMT_PROMETHEUS:
		out_openmetrics(o);
		break;
	}
	fflush(o->f);
}

/* The group 8 rows ahead (its fields and its path, which ends it), and the
 * values of the one 4 rows ahead, whose fields have come by now. */
void out_rows_ahead(const struct out_ctx *o, size_t r)
{
	if (r + 8 < o->nrows) {
		const char *p = (const char *)o->m->groups[o->rows[r + 8]];

		for (size_t at = 0; at < sizeof(struct mgroup) + 64; at += 64)
			__builtin_prefetch(p + at);
	}
	if (r + 4 < o->nrows)
		__builtin_prefetch(o->m->groups[o->rows[r + 4]]->buf);
}
