/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opts.c - the command line, and the settings file under it. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/opts.h"
#include "cgfs.h"
#include "columns.h"
#include "history.h"
#include "rightsize.h"
#include "config.h"
#include "out.h"
#include "out/output.h"
#include "parse.h"
#include "theme.h"
#include "tui.h"
#include "xalloc.h"
#include "msg.h"

#ifndef VERSION
#define VERSION "0.1"
#endif

enum {
	OPT_DEPTH = 0x100,
	OPT_ROOT,
	OPT_PROC,
	OPT_LIST_COLUMNS,
	OPT_NO_COLOR,
	OPT_ASCII,
	OPT_LIST_KEYS,
	OPT_READONLY,
	OPT_SET,
	OPT_AUDIT_LOG,
	OPT_RECORD,
	OPT_RECORD_MAX,
	OPT_OUTPUT,
	OPT_COLLECTOR,
	OPT_FLAT,
	OPT_TOP,
	OPT_COMPAT,
	OPT_LISTEN,
	OPT_HISTORY,
	OPT_REC_MARGIN,
	OPT_RIGHTSIZE,
	OPT_DRY_RUN,
	OPT_FOLLOW,
	OPT_PROBE,
	OPT_PROBE_STEP,
	OPT_PROBE_MAX,
	OPT_PROBE_REFAULTS,
	OPT_PROBE_STALL,
	OPT_PROBE_TIME,
	OPT_PROMETHEUS,
	OPT_MATCH,
	OPT_HOST_LABEL,
};

static const struct option long_options[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "delay", required_argument, NULL, 'd' },
	{ "sort", required_argument, NULL, 'o' },
	{ "columns", required_argument, NULL, 'c' },
	{ "format", required_argument, NULL, 'F' },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "filter", required_argument, NULL, 'f' },
	{ "raw", no_argument, NULL, 'r' },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "proc", required_argument, NULL, OPT_PROC },
	{ "list-columns", no_argument, NULL, OPT_LIST_COLUMNS },
	{ "theme", required_argument, NULL, 't' },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ "rec-margin", required_argument, NULL, OPT_REC_MARGIN },
	{ "rightsize", no_argument, NULL, OPT_RIGHTSIZE },
	{ "list-keys", no_argument, NULL, OPT_LIST_KEYS },
	{ "readonly", no_argument, NULL, OPT_READONLY },
	{ "set", required_argument, NULL, OPT_SET },
	{ "audit-log", required_argument, NULL, OPT_AUDIT_LOG },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "follow", required_argument, NULL, OPT_FOLLOW },
	{ "probe", required_argument, NULL, OPT_PROBE },
	{ "probe-step", required_argument, NULL, OPT_PROBE_STEP },
	{ "probe-max", required_argument, NULL, OPT_PROBE_MAX },
	{ "probe-refaults", required_argument, NULL, OPT_PROBE_REFAULTS },
	{ "probe-stall", required_argument, NULL, OPT_PROBE_STALL },
	{ "probe-time", required_argument, NULL, OPT_PROBE_TIME },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "record-max", required_argument, NULL, OPT_RECORD_MAX },
	{ "flat", no_argument, NULL, OPT_FLAT },
	{ "compat", required_argument, NULL, OPT_COMPAT },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "prometheus", required_argument, NULL, OPT_PROMETHEUS },
	{ "match", required_argument, NULL, OPT_MATCH },
	{ "host-label", required_argument, NULL, OPT_HOST_LABEL },
	{ "collector", required_argument, NULL, OPT_COLLECTOR },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static const char usage_text[] =
"Usage: memcgtop [OPTIONS] [CGROUP]\n"
"Show memory cgroups: usage, limits, protections, LRU sizes and reclaim.\n"
"Interactive on a terminal (h inside for the keys); batch output otherwise.\n"
"CGROUP starts the tree at that group (a path below the hierarchy root;\n"
"without it, a recording replays from the group it started at).\n"
"\n"
"  -b, --batch              batch output; implied when stdout is not a terminal\n"
"  -n, --iterations N       refreshes to print, then exit (batch default 1;\n"
"                           0 runs until interrupted)\n"
"  -d, --delay SECS         interval between refreshes, fractional (default 1.0)\n"
"  -o, --sort [+|-]KEY      sort siblings by column KEY (+ ascending,\n"
"                           - descending; default -usage)\n"
"  -c, --columns KEY,...    columns to show, in this order (see --list-columns;\n"
"                           text and the screen add GROUP last without path)\n"
"  -F, --format FMT         text | csv | json | openmetrics | prometheus\n"
"                           (default text; json's system.oom_kills lists\n"
"                           the OOM kills seen, with the process where the\n"
"                           bpf collector runs: see the man page)\n"
"      --depth N            show groups at most N levels below the start\n"
"  -f, --filter TEXT        show only groups whose path contains TEXT, and\n"
"                           their ancestors\n"
"      --flat               batch: every group in one list, full paths, sorted\n"
"                           by the sort column across the whole tree\n"
"      --top N              batch: the first N groups of --flat's list\n"
"      --compat cadvisor    openmetrics and prometheus (and --listen): also\n"
"                           cAdvisor's names (container_memory_usage_bytes,\n"
"                           ...), labels id and, from the path, name (a\n"
"                           systemd unit), pod_uid, qos_class, container_id\n"
"  -r, --raw                exact numbers (bytes, per-second) in text output\n"
"      --root DIR           read the cgroup hierarchy at DIR (a fixture, a\n"
"                           recorded series or a container's mount)\n"
"      --proc DIR           read system figures from DIR instead of /proc\n"
"      --collector C        auto | bpf | files: how the live tree is read\n"
"                           (default auto: bpf where it can load, else the\n"
"                           files; --root copies and recordings: files)\n"
"      --list-columns       list the column keys with their meaning\n"
"      --list-keys          list the keys of the interactive screen\n"
"      --set PATH:KNOB=VALUE  change one knob of one group and exit\n"
"                           (repeatable; knobs: v1 limit soft memsw\n"
"                           swappiness, v2 limit high low min swap.max\n"
"                           oom.group reclaim); exit 1 if the kernel refused\n"
"                           (PATH at most 4095 bytes); each change is\n"
"                           previewed (need, reclaimable, short, outcome:\n"
"                           fits ebusy oom throttle eagain nothing), then\n"
"                           followed --follow seconds\n"
"      --dry-run            --set: preview only, write nothing (-F json:\n"
"                           one object)\n"
"      --follow SECS        --set and the screen's edit dialog: watch the\n"
"                           group SECS seconds after a change (default 5,\n"
"                           0 not at all): usage, reclaimed, OOM kills,\n"
"                           refaults, stalls against the preview\n"
"      --probe PATH         v2: the group's cold memory, then exit: reclaims\n"
"                           it in steps (memory.reclaim, audited), -d SECS\n"
"                           apart, reading its refaults and stall after\n"
"                           each; stops when they rise past the limits, at\n"
"                           a cap, on EAGAIN or a signal; prints the cold\n"
"                           part, the pressure caused, why it stopped\n"
"                           (-F json: one object with each step)\n"
"      --probe-step SIZE    --probe: bytes a step (default 1% of usage)\n"
"      --probe-max SIZE     --probe: the most it reclaims (default 50% of\n"
"                           usage)\n"
"      --probe-refaults SIZE\n"
"                           --probe: stop past this many bytes refaulted\n"
"                           (default a step)\n"
"      --probe-stall SECS   --probe: stop past this much of the group's\n"
"                           stall time (memory.pressure some; default 0.1)\n"
"      --probe-time SECS    --probe: the longest it runs (default 60)\n"
"      --readonly           never write (no --set, --probe, edit keys)\n"
"      --audit-log FILE     also append each change's audit line to FILE\n"
"                           (a regular file, else refused before any change)\n"
"      --record DIR         also write every refresh's files to DIR, a series\n"
"                           that --root DIR replays exactly (what the BPF\n"
"                           pass gave: as its files' text)\n"
"      --record-max N       keep only the newest N samples in DIR\n"
"      --output FILE        batch: replace FILE with each iteration, atomically\n"
"                           (for node_exporter's textfile collector)\n"
"      --listen [ADDR:]PORT\n"
"                           serve GET /metrics for Prometheus until stopped:\n"
"                           OpenMetrics or the text format (by Accept),\n"
"                           computed at each scrape; read-only; without ADDR\n"
"                           on 127.0.0.1 only\n"
"      --prometheus URL     batch: every host's groups from a Prometheus\n"
"                           server that scrapes memcgtop --listen (two\n"
"                           queries a refresh; hosts at the top of the tree;\n"
"                           rates are the server's rate(); read-only: --set\n"
"                           prints the ssh line)\n"
"      --match {SELECTOR}   --prometheus: only the series with these labels,\n"
"                           e.g. '{job=\"memcgtop\"}'\n"
"      --host-label NAME    --prometheus: the label naming the host (default\n"
"                           instance)\n"
"  -t, --theme NAME|FILE    colours of the interactive screen (default,\n"
"                           light, mono, high-contrast, or a theme file)\n"
"      --no-color           attributes only, no colours (also: NO_COLOR set)\n"
"      --ascii              ASCII glyphs only, for terminals without UTF-8\n"
"      --history SECS       seconds of each shown group's figures the screen\n"
"                           keeps for the detail pane's graphs (default 300,\n"
"                           0 none): 48 bytes a point, a point a second at\n"
"                           most, 14,488 bytes a group at 300, for at most\n"
"                           1024 groups\n"
"      --rec-margin PCT     the margin rec_limit, rec_high and rec_low add to\n"
"                           the need they rest on (default 10; settings\n"
"                           file: rec_margin)\n"
"      --rightsize          batch: the recommended limits (rec_limit, v2\n"
"                           rec_high and rec_low) over the whole window,\n"
"                           printed once at its end: -n N refreshes, a\n"
"                           recording's whole series (--root DIR), or\n"
"                           until interrupted (-n 0)\n"
"  -h, --help               show this help\n"
"  -V, --version            show the version (-VV: and which collector\n"
"                           this host allows, or why not bpf, and how\n"
"                           many memory.stat values its pass carries,\n"
"                           where its lists per NUMA node come from)\n"
"\n"
"Numbers: decimal, nothing around them (no blank, sign, hex or exponent);\n"
"sizes 512M, 1.5G (K M G T, optional B or iB); limits also max, -1.\n"
"Exit status: 0 ok, 1 runtime failure, 2 usage error.\n";

static void __attribute__((format(printf, 1, 2), noreturn))
die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_verr(fmt, ap);
	va_end(ap);
	exit(2);
}

/* A count (parse.h's grammar) from min to max, or a usage error. */
static long parse_long_arg(const char *opt, const char *s, long min, long max)
{
	uint64_t v;

	if (parse_count(s, (uint64_t)min, (uint64_t)max, &v) < 0)
		die_usage("%s: '%s' is not a whole number from %ld to %ld ("
			  COUNT_FORM ")", opt, s, min, max);
	return (long)v;
}

/* A size (parse.h's grammar) of at least min bytes, or a usage error. */
static uint64_t parse_size_arg(const char *opt, const char *s, uint64_t min)
{
	uint64_t v;

	if (parse_size(s, strlen(s), &v) < 0 || v < min)
		die_usage("%s: '%s' is not a size of %s (e.g. 8M; K, M, G, "
			  "T)", opt, s, min ? "at least 1 byte" : "0 or more");
	return v;
}

/* Seconds (parse.h's grammar) from min to max, or a usage error. */
static double parse_secs_arg(const char *opt, const char *s, double min,
			     double max)
{
	double v;

	if (parse_seconds(s, min, max, &v) < 0)
		die_usage("%s: '%s' is not a number of seconds from %g to %g ("
			  SECONDS_FORM ")", opt, s, min, max);
	return v;
}

static double parse_delay(const char *s)
{
	double v;

	if (parse_interval(s, &v) < 0)
		die_usage("-d: '%s' is not " INTERVAL_RANGE, s);
	return v;
}

/*
 * "[+|-]KEY" (-o, the settings): + ascending, - descending, neither the
 * column's own way (names ascending, numbers descending).  NULL for an
 * unknown key, *ret_key pointing at it.
 */
static const struct column *sort_spec(const char *s, int *ret_desc,
				      const char **ret_key)
{
	const char *k = s + (*s == '+' || *s == '-');
	const struct column *c = col_find(k);

	*ret_key = k;
	if (c)
		*ret_desc = *s == '-' ? 1 : *s == '+' ? 0 : c->unit != U_PATH;
	return c;
}

static void parse_sort(struct opts *o, const char *s)
{
	const char *k;

	o->sort = sort_spec(s, &o->sort_desc, &k);
	if (!o->sort)
		die_usage("-o: unknown column '%s' (memcgtop --list-columns "
			  "shows them)", k);
	if (o->sort->unit == U_NUMA)
		die_usage("-o: column '%s' has no value to sort by", k);
}

static void list_columns(void)
{
	static const char *const unit_name[] = {
		[U_PATH] = "path", [U_INT] = "number", [U_BYTES] = "bytes",
		[U_COUNT] = "count", [U_RATE] = "per second",
		[U_PCT] = "percent", [U_RATIO] = "ratio", [U_PSI] = "percent",
		[U_NUMA] = "per node",
	};

	for (size_t i = 0; i < ncolumns; i++)
		printf("%-23s %-8s %-10s %s\n", columns[i].key,
		       columns[i].title, unit_name[columns[i].unit],
		       columns[i].help);
}

static int parse_collector(const char *s, enum cgfs_collector *ret)
{
	if (strcmp(s, "auto") == 0)
		*ret = CGFS_COLLECT_AUTO;
	else if (strcmp(s, "bpf") == 0)
		*ret = CGFS_COLLECT_BPF;
	else if (strcmp(s, "files") == 0)
		*ret = CGFS_COLLECT_FILES;
	else
		return -EINVAL;
	return 0;
}

int opts_version_verbose(struct opts *o)
{
	struct cgfs *cg;
	char err[512];

	printf("memcgtop %s\n", VERSION);
	if (cgfs_open(&o->cg, &cg, err, sizeof(err)) < 0) {
		msg_out("collector: none (%s)", err);
		return 1;
	}
	if (*cgfs_bpf_why(cg))
		msg_out("collector: files (bpf: %s)", cgfs_bpf_why(cg));
	else
		printf("collector: bpf\n");
	if (*cgfs_paths(cg))
		msg_out("%s", cgfs_paths(cg));
	cgfs_close(cg);
	return 0;
}

void opts_config_collector(struct opts *o)
{
	struct config cfg;
	char err[600];

	if (o->collector_given || config_load(&cfg, err, sizeof(err)) < 0)
		return;
	if (cfg.has & CONFIG_HAS_COLLECTOR)
		parse_collector(cfg.collector, &o->cg.collector);
	config_free(&cfg);
}

/* The first option given of those that keep a series of refreshes
 * (--record, --rightsize, --output), or NULL. */
static const char *series_opt(const struct opts *o)
{
	return o->record ? "--record" : o->rightsize ? "--rightsize" :
		o->output ? "--output" : NULL;
}

/* --probe writes: alone, in text or JSON. */
static void probe_opts(struct opts *o)
{
	const char *bad = NULL;

	if (o->nsets)
		bad = "--set";
	else if (o->readonly)
		bad = "--readonly";
	else if (series_opt(o))
		bad = series_opt(o);
	else if (o->listen)
		bad = "--listen";
	else if (o->iterations >= 0)
		bad = "-n";
	else if (o->fmt_given && o->fmt != FMT_TEXT && o->fmt != FMT_JSON)
		bad = "-F csv, openmetrics or prometheus (text or json)";
	if (bad)
		die_usage("--probe: not with %s", bad);
	o->probe_o.json = o->fmt == FMT_JSON;
	o->probe_o.pause = o->delay;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	const char *cols = NULL, *sort = "-usage";
	char *probe_path = NULL;
	char err[256];
	int c;

	memset(o, 0, sizeof(*o));
	o->iterations = -1;
	o->delay = 1.0;
	o->maxdepth = -1;
	o->history = HISTORY_WINDOW_DEFAULT;
	o->rec_margin = RS_MARGIN_DEFAULT;
	o->follow = 5;
	o->probe_o.stall = 0.1;
	o->probe_o.secs = 60;
	o->fmt = FMT_TEXT;
	o->cg.collector = CGFS_COLLECT_AUTO;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":bn:d:o:c:F:f:rt:hV", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'b':
			o->batch = 1;
			o->batch_given = 1;
			break;
		case 'n':
			o->iterations = parse_long_arg("-n", optarg, 0,
						       INT_MAX);
			break;
		case 'd':
			o->delay_given = 1;
			o->delay = parse_delay(optarg);
			break;
		case 'o':
			o->sort_given = 1;
			sort = optarg;
			break;
		case 'c':
			cols = optarg;
			break;
		case 'F':
			o->fmt_given = 1;
			if (out_format_parse(optarg, &o->fmt) < 0)
				die_usage("-F: unknown format '%s' (text, csv, "
					  "json, openmetrics or prometheus)",
					  optarg);
			break;
		case OPT_DEPTH:
			o->maxdepth = (int)parse_long_arg("--depth", optarg, 0,
							  4096);
			break;
		case 'f':
			o->filter = optarg;
			break;
		case 'r':
			o->raw = 1;
			break;
		case OPT_ROOT:
			o->cg.root = optarg;
			break;
		case OPT_PROC:
			o->cg.proc = optarg;
			break;
		case 't':
			o->theme = optarg;
			break;
		case OPT_NO_COLOR:
			o->no_color = 1;
			o->no_color_given = 1;
			break;
		case OPT_ASCII:
			o->ascii = 1;
			break;
		case OPT_HISTORY:
			o->history = parse_long_arg("--history", optarg, 0,
						    86400);
			break;
		case OPT_REC_MARGIN:
			o->rec_margin = (int)parse_long_arg("--rec-margin",
							    optarg, 0,
							    RS_MARGIN_MAX);
			o->rec_margin_given = 1;
			break;
		case OPT_RIGHTSIZE:
			o->rightsize = 1;
			break;
		case OPT_READONLY:
			o->readonly = 1;
			break;
		case OPT_AUDIT_LOG:
			o->audit_log = optarg;
			break;
		case OPT_DRY_RUN:
			o->dry_run = 1;
			break;
		case OPT_FOLLOW:
			o->follow = parse_long_arg("--follow", optarg, 0, 3600);
			break;
		case OPT_PROBE:
			if (!parse_clean_path(optarg))
				die_usage("--probe %s: not a group path (no '.' "
					  "or '..' components)", optarg);
			free(probe_path);
			o->probe = probe_path = xmalloc(strlen(optarg) + 2);
			sprintf(probe_path, "/%s", optarg + (*optarg == '/'));
			break;
		case OPT_PROBE_STEP:
			o->probe_o.step = parse_size_arg("--probe-step", optarg,
							 1);
			o->probe_opt = "--probe-step";
			break;
		case OPT_PROBE_MAX:
			o->probe_o.max = parse_size_arg("--probe-max", optarg, 1);
			o->probe_opt = "--probe-max";
			break;
		case OPT_PROBE_REFAULTS:
			o->probe_o.refaults = parse_size_arg("--probe-refaults",
							     optarg, 0);
			o->probe_o.refaults_given = 1;
			o->probe_opt = "--probe-refaults";
			break;
		case OPT_PROBE_STALL:
			o->probe_o.stall = parse_secs_arg("--probe-stall", optarg,
							  0, 3600);
			o->probe_opt = "--probe-stall";
			break;
		case OPT_PROBE_TIME:
			o->probe_o.secs = parse_secs_arg("--probe-time", optarg,
							 0.05, 86400);
			o->probe_opt = "--probe-time";
			break;
		case OPT_RECORD:
			o->record = optarg;
			break;
		case OPT_FLAT:
			o->flat = 1;
			break;
		case OPT_COMPAT:
			if (strcmp(optarg, "cadvisor"))
				die_usage("--compat: '%s' is not cadvisor",
					  optarg);
			o->cadvisor = 1;
			break;
		case OPT_TOP:
			o->top = parse_long_arg("--top", optarg, 1, 100000000);
			o->flat = 1;
			break;
		case OPT_RECORD_MAX:
			o->record_max = parse_long_arg("--record-max", optarg, 2,
						       10000000);
			break;
		case OPT_COLLECTOR:
			if (parse_collector(optarg, &o->cg.collector) < 0)
				die_usage("--collector: '%s' is not auto, bpf or "
					  "files", optarg);
			o->collector_given = 1;
			break;
		case OPT_LISTEN:
			o->listen = optarg;
			break;
		case OPT_PROMETHEUS:
			o->prometheus = optarg;
			break;
		case OPT_MATCH:
			o->match = optarg;
			break;
		case OPT_HOST_LABEL:
			o->host_label = optarg;
			break;
		case OPT_OUTPUT:
			o->output = optarg;
			o->batch = 1;
			break;
		case OPT_SET: {
			o->sets = xreallocarray(o->sets, o->nsets + 1,
						sizeof(*o->sets));
			o->sets[o->nsets++] = optarg;
			break;
		}
		case OPT_LIST_KEYS:
			tui_list_keys(stdout);
			exit(0);
		case OPT_LIST_COLUMNS:
			list_columns();
			exit(0);
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case 'V':
			o->version++;
			break;
		case ':':
			die_usage("option '%s' needs a value", argv[optind - 1]);
			break;
		default:
			if (optopt)
				die_usage("unknown option '-%c' (memcgtop --help "
					  "lists them)", optopt);
			die_usage("unknown option '%s' (memcgtop --help lists "
				  "them)", argv[optind - 1]);
		}
	}
	if (o->version == 1) {
		printf("memcgtop %s\n", VERSION);
		exit(0);
	}
	if (optind < argc) {
		if (!parse_clean_path(argv[optind]))
			die_usage("%s: not a cgroup path (no '.' or '..' "
				  "components)", argv[optind]);
		o->cg.start = argv[optind++];
	}
	if (optind < argc)
		die_usage("unexpected argument '%s' (one CGROUP at most)",
			  argv[optind]);
	parse_sort(o, sort);
	if (cols && col_parse_list(cols, &o->cols, &o->ncols, err,
				   sizeof(err)) < 0)
		die_usage("%s", err);
	o->cols_arg = cols;
	if (o->readonly && o->nsets)
		die_usage("--set: refused by --readonly");
	if (o->dry_run && !o->nsets)
		die_usage("--dry-run: only with --set");
	if (o->probe_opt && !o->probe)
		die_usage("%s: only with --probe PATH", o->probe_opt);
	if (o->probe)
		probe_opts(o);
	if (o->nsets && o->fmt_given && o->fmt != FMT_TEXT &&
	    (o->fmt != FMT_JSON || !o->dry_run))
		die_usage("--set: -F json only with --dry-run (else text)");
	if (o->record_max && !o->record)
		die_usage("--record-max needs --record DIR");
	if (o->output) {
		struct stat st;

		/* Replaced by rename(): only ever a regular file (a link,
		 * a device or /dev/stdout would be replaced, not written). */
		if (lstat(o->output, &st) == 0 && !S_ISREG(st.st_mode))
			die_usage("--output %s: not a regular file", o->output);
		if (output_prepare(o->output, err, sizeof(err)) < 0)
			die_usage("%s", err);
	}
	if (o->theme) {
		struct theme th;

		/* Checked in batch mode too: a bad -t is a usage error. */
		if (theme_load(o->theme, &th, err, sizeof(err)) < 0)
			die_usage("-t: %s", err);
	}
	/* https://no-color.org: any non-empty NO_COLOR turns colours off. */
	if (getenv("NO_COLOR") && *getenv("NO_COLOR"))
		o->no_color = 1;
}

int opts_apply_config(struct opts *o, struct config *cfg)
{
	char err[600], path[512] = "memcgtoprc";
	int r;

	config_path(path, sizeof(path));
	r = config_load(cfg, err, sizeof(err));
	if (r < 0) {
		msg_err("%s", err);
		return r;
	}
	if ((cfg->has & CONFIG_HAS_DELAY) && !o->delay_given)
		o->delay = cfg->delay;
	if ((cfg->has & CONFIG_HAS_REC_MARGIN) && !o->rec_margin_given)
		o->rec_margin = cfg->rec_margin;
	if ((cfg->has & CONFIG_HAS_SORT) && !o->sort_given) {
		const char *k;

		o->sort = sort_spec(cfg->sort, &o->sort_desc, &k);
		if (!o->sort) {
			msg_err("%s: line %u: sort: unknown "
				"column '%s'", path, cfg->sort_line, k);
			config_free(cfg);
			return -EINVAL;
		}
	}
	if ((cfg->has & CONFIG_HAS_CUSTOM) && !o->cols_arg) {
		if (col_parse_list(cfg->custom, &o->cols, &o->ncols, err,
				   sizeof(err)) < 0) {
			msg_err("%s: line %u: custom: %s",
				path, cfg->custom_line, err);
			config_free(cfg);
			return -EINVAL;
		}
		for (size_t i = 0; i < o->ncols; i++) {
			if (o->cols[i]->unit != U_NUMA)
				continue;
			msg_err("%s: line %u: custom: column "
				"'%s' is only in JSON output", path,
				cfg->custom_line, o->cols[i]->key);
			config_free(cfg);
			return -EINVAL;
		}
		o->cols_arg = cfg->custom;
	}
	if (cfg->has & CONFIG_HAS_SET) {
		if (!tui_set_known(cfg->set)) {
			msg_err("%s: line %u: columns: "
				"unknown set '%s' (overview, memory, LRU, "
				"reclaim, events, limits, custom)", path,
				cfg->set_line, cfg->set);
			config_free(cfg);
			return -EINVAL;
		}
		/* -c on the command line means the custom set. */
		if (o->cols_arg && o->cols_arg != cfg->custom)
			cfg->has &= ~CONFIG_HAS_SET;
	}
	if ((cfg->has & CONFIG_HAS_THEME) && !o->theme && !o->no_color) {
		struct theme th;

		if (theme_load(cfg->theme, &th, err, sizeof(err)) < 0) {
			msg_err("%s: line %u: theme: %s",
				path, cfg->theme_line, err);
			config_free(cfg);
			return -EINVAL;
		}
		o->theme = cfg->theme;
	}
	return 0;
}

/* The port of "[ADDR:]PORT": 1 to 65535. */
static void check_listen(const char *spec)
{
	const char *colon = strrchr(spec, ':');

	parse_long_arg("--listen: port", colon ? colon + 1 : spec, 1, 65535);
}

/*
 * --listen serves until stopped, read-only: what only the screen, batch
 * output or a change means is refused.  -F openmetrics or prometheus is
 * accepted (the scrape's Accept chooses between them).
 */
static void listen_opts(struct opts *o)
{
	const char *bad = NULL;

	check_listen(o->listen);
	if (o->batch_given)
		bad = "-b";
	else if (o->iterations >= 0)
		bad = "-n";
	else if (o->delay_given)
		bad = "-d (each scrape is a refresh)";
	else if (o->fmt_given && o->fmt != FMT_OPENMETRICS &&
		 o->fmt != FMT_PROMETHEUS)
		bad = "-F text, csv or json";
	else if (series_opt(o))
		bad = series_opt(o);
	else if (o->nsets)
		bad = "--set";
	else if (o->audit_log)
		bad = "--audit-log (--listen is read-only)";
	else if (o->theme || o->ascii || o->no_color_given)
		bad = "the screen's options (-t, --ascii, --no-color)";
	if (bad)
		die_usage("--listen: not with %s", bad);
	for (size_t i = 0; i < o->ncols; i++)
		if (o->cols[i]->unit == U_NUMA)
			die_usage("-c: column '%s' is only in JSON output "
				  "(-b -F json)", o->cols[i]->key);
	o->readonly = 1;
	o->batch = 0;
	o->fmt = FMT_OPENMETRICS;	/* the data formats' columns */
}

/* s quoted for a shell (in '', each ' as '\'') into buf, after what it
 * holds: buf has room for 4 bytes a byte of s and 3. */
static void shell_quote(char *buf, const char *s)
{
	char *p = buf + strlen(buf);

	*p++ = '\'';
	for (; *s; s++)
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *s;
		}
	*p++ = '\'';
	*p = '\0';
}

/*
 * --prometheus is read-only: each --set PATH:KNOB=VALUE, PATH being
 * /HOST/GROUP as the tree shows it, is the line to run on HOST (its name
 * without a :PORT), and the run is a usage error, as --readonly's.
 */
static void __attribute__((noreturn)) prometheus_sets(const struct opts *o)
{
	for (size_t i = 0; i < o->nsets; i++) {
		const char *spec = o->sets[i], *h = spec + (*spec == '/');
		const char *rest = strchr(h, '/'), *hend, *port;
		char *arg, *q;

		if (!rest)	/* the host's root: /HOST:KNOB=VALUE */
			rest = strrchr(h, ':');
		if (!rest || rest == h)
			die_usage("--set %s: not /HOST/GROUP:KNOB=VALUE "
				  "(--prometheus)", spec);
		hend = rest;
		port = memrchr(h, ':', (size_t)(hend - h));
		if (port && port + 1 < hend &&
		    strspn(port + 1, "0123456789") >= (size_t)(hend - port - 1))
			hend = port;
		arg = xmalloc(strlen(rest) + 2);
		strcpy(arg, *rest == '/' ? "" : "/");
		strcat(arg, rest);
		q = xmalloc(4 * strlen(arg) + 3);
		q[0] = '\0';
		shell_quote(q, arg);
		msg_err("--set: --prometheus is read-only; on %.*s run: ssh "
			"%.*s memcgtop --set %s", (int)(rest - h), h,
			(int)(hend - h), h, q);
		free(q);
		free(arg);
	}
	exit(2);
}

/* --prometheus reads a server, not this host: its options and the
 * batch formats, nothing that reads or changes a hierarchy. */
static void prometheus_opts(struct opts *o)
{
	const char *bad = NULL;
	size_t n = o->match ? strlen(o->match) : 0;

	if (o->match && (n < 2 || o->match[0] != '{' || o->match[n - 1] != '}'))
		die_usage("--match '%s': not a label selector {NAME=\"VALUE\",...}",
			  o->match);
	if (o->host_label && (!*o->host_label ||
	    strspn(o->host_label, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
		   "OPQRSTUVWXYZ0123456789_") != strlen(o->host_label)))
		die_usage("--host-label '%s': not a label name",
			  o->host_label);
	if (!o->host_label)
		o->host_label = "instance";
	if (o->nsets)
		prometheus_sets(o);
	if (o->listen)
		bad = "--listen";
	else if (o->cg.root || o->cg.proc)
		bad = "--root or --proc";
	else if (o->cg.start)
		bad = "a CGROUP (use -f)";
	else if (o->record)
		bad = "--record";
	else if (o->collector_given)
		bad = "--collector";
	else if (o->audit_log)
		bad = "--audit-log (--prometheus is read-only)";
	else if (!o->batch && isatty(STDOUT_FILENO))
		bad = "the screen (batch output only: -b)";
	if (bad)
		die_usage("--prometheus: not with %s", bad);
	o->readonly = 1;
	o->batch = 1;
}

void opts_parse(int argc, char **argv, struct opts *o)
{
	parse_args(argc, argv, o);
	if (o->prometheus)
		prometheus_opts(o);
	else if (o->match || o->host_label)
		die_usage("%s: only with --prometheus URL",
			  o->match ? "--match" : "--host-label");
	if (o->listen) {
		listen_opts(o);
		return;
	}
	if (!o->batch && !isatty(STDOUT_FILENO) && !o->nsets)
		o->batch = 1;
	for (size_t i = 0; i < o->ncols; i++)
		if (o->cols[i]->unit == U_NUMA &&
		    (!o->batch || o->fmt != FMT_JSON))
			die_usage("-c: column '%s' is only in JSON output "
				  "(-b -F json)", o->cols[i]->key);
	if (o->cadvisor && (!o->batch || (o->fmt != FMT_OPENMETRICS &&
					  o->fmt != FMT_PROMETHEUS)))
		die_usage("--compat cadvisor: only with -b -F openmetrics or "
			  "-F prometheus");
	if (o->rightsize) {
		if (o->nsets)
			die_usage("--rightsize: not with --set");
		o->batch = 1;
		/* A recording's whole series by default; live, -n says how
		 * many refreshes the window is. */
		if (o->iterations < 0 && o->cg.root)
			o->iterations = 0;
	}
	if (o->flat && !o->batch)
		die_usage("%s: batch mode only (-b); the screen's tree sorts "
			  "within siblings", o->top ? "--top" : "--flat");
	if (o->iterations < 0)
		o->iterations = o->batch ? 1 : 0;
}

void opts_free(struct opts *o)
{
	free(o->sets);
	free((char *)o->probe);
	free(o->cols);
}
