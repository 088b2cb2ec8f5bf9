/* SPDX-License-Identifier: GPL-2.0-or-later */
/* main.c - options, the refresh loop and batch output. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "cgfs.h"
#include "clock.h"
#include "columns.h"
#include "audit.h"
#include "config.h"
#include "edit.h"
#include "edit/setcmd.h"
#include "fmt.h"
#include "knob.h"
#include "model.h"
#include "out.h"
#include "out/output.h"
#include "parse.h"
#include "source/reclaim.h"
#include "stopsig.h"
#include "theme.h"
#include "tui.h"
#include "xalloc.h"

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
	{ "list-keys", no_argument, NULL, OPT_LIST_KEYS },
	{ "readonly", no_argument, NULL, OPT_READONLY },
	{ "set", required_argument, NULL, OPT_SET },
	{ "audit-log", required_argument, NULL, OPT_AUDIT_LOG },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "record-max", required_argument, NULL, OPT_RECORD_MAX },
	{ "output", required_argument, NULL, OPT_OUTPUT },
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
"                           (default text)\n"
"      --depth N            show groups at most N levels below the start\n"
"  -f, --filter TEXT        show only groups whose path contains TEXT, and\n"
"                           their ancestors\n"
"  -r, --raw                exact numbers (bytes, per-second) in text output\n"
"      --root DIR           read the cgroup hierarchy at DIR (a fixture, a\n"
"                           recorded series or a container's mount)\n"
"      --proc DIR           read system figures from DIR instead of /proc\n"
"      --collector C        auto | bpf | files: how the live tree is read\n"
"                           (default auto: bpf where it can load, else the\n"
"                           files; --record and --root copies read files)\n"
"      --list-columns       list the column keys with their meaning\n"
"      --list-keys          list the keys of the interactive screen\n"
"      --set PATH:KNOB=VALUE  change one knob of one group and exit\n"
"                           (repeatable; knobs: v1 limit soft memsw\n"
"                           swappiness, v2 limit high low min swap.max\n"
"                           oom.group reclaim); exit 1 if the kernel refused\n"
"      --readonly           never write (no --set, no edit keys)\n"
"      --audit-log FILE     also append each change's audit line to FILE\n"
"      --record DIR         also write every refresh's files to DIR, a series\n"
"                           that --root DIR replays exactly\n"
"      --record-max N       keep only the newest N samples in DIR\n"
"      --output FILE        batch: replace FILE with each iteration, atomically\n"
"                           (for node_exporter's textfile collector)\n"
"  -t, --theme NAME|FILE    colours of the interactive screen (default,\n"
"                           light, mono, high-contrast, or a theme file)\n"
"      --no-color           attributes only, no colours (also: NO_COLOR set)\n"
"      --ascii              ASCII glyphs only, for terminals without UTF-8\n"
"  -h, --help               show this help\n"
"  -V, --version            show the version (-VV: and which collector\n"
"                           this host allows, or why not bpf)\n"
"\n"
"Exit status: 0 ok, 1 runtime failure, 2 usage error.\n";

struct opts {
	int batch;
	long iterations;	/* -1: default */
	double delay;
	const struct column *sort;
	int sort_desc;
	const struct column **cols;
	size_t ncols;
	enum out_format fmt;
	int maxdepth;
	const char *filter;
	int raw;
	const char *theme;
	int no_color, ascii;
	const char *cols_arg;
	int delay_given, sort_given;
	int readonly;
	const char *audit_log;
	const char *record;
	long record_max;
	const char *output;
	char **sets;
	size_t nsets;
	int collector_given;
	int version;		/* -V given: 1, -VV: 2 */
	struct cgfs_opts cg;
};

static void __attribute__((format(printf, 1, 2), noreturn))
die_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("memcgtop: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static long parse_long_arg(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		die_usage("%s: '%s' is not a whole number from %ld to %ld",
			  opt, s, min, max);
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

/*
 * -VV: the version, and the collector --collector auto would use on this
 * host's hierarchy (or the one given), with the reason when not bpf.
 */
static int version_verbose(struct opts *o)
{
	struct cgfs *cg;
	char err[512];

	printf("memcgtop %s\n", VERSION);
	if (cgfs_open(&o->cg, &cg, err, sizeof(err)) < 0) {
		printf("collector: none (%s)\n", err);
		return 1;
	}
	if (*cgfs_bpf_why(cg))
		printf("collector: files (bpf: %s)\n", cgfs_bpf_why(cg));
	else
		printf("collector: bpf\n");
	cgfs_close(cg);
	return 0;
}

/* The screen's settings file may choose the collector, which is needed
 * before the hierarchy is opened; its errors are told by apply_config. */
static void config_collector(struct opts *o)
{
	struct config cfg;
	char err[600];

	if (o->collector_given || config_load(&cfg, err, sizeof(err)) < 0)
		return;
	if (cfg.has & CONFIG_HAS_COLLECTOR)
		parse_collector(cfg.collector, &o->cg.collector);
	config_free(&cfg);
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	const char *cols = NULL, *sort = "-usage";
	char err[256];
	int c;

	memset(o, 0, sizeof(*o));
	o->iterations = -1;
	o->delay = 1.0;
	o->maxdepth = -1;
	o->fmt = FMT_TEXT;
	o->cg.collector = CGFS_COLLECT_AUTO;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":bn:d:o:c:F:f:rt:hV", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'b':
			o->batch = 1;
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
			break;
		case OPT_ASCII:
			o->ascii = 1;
			break;
		case OPT_READONLY:
			o->readonly = 1;
			break;
		case OPT_AUDIT_LOG:
			o->audit_log = optarg;
			break;
		case OPT_RECORD:
			o->record = optarg;
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
	if (o->record_max && !o->record)
		die_usage("--record-max needs --record DIR");
	if (o->record && o->cg.collector == CGFS_COLLECT_BPF)
		die_usage("--record reads the files: not with --collector bpf");
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

/* The default columns: all of them for the data formats, the overview
 * for text.  prio_min only where the reclaim events can be (events): a
 * copy or a recording has none, and --record keeps none (its replay
 * prints what the live run printed). */
static void default_columns(struct opts *o, int version, int events)
{
	/* v1 has no pgscan or pgsteal: the limit hits instead (refaults
	 * would mean memory.stat of every group). */
	static const char *const overview_v1[] = {
		"usage", "limit", "soft", "excess", "use_pct", "swap",
		"failcnt_per_s", "path",
	};
	static const char *const overview_v2[] = {
		"usage", "limit", "low", "excess", "use_pct", "swap",
		"pgscan_per_s", "pgsteal_per_s", "path",
	};
	const char *const *keys = version == 2 ? overview_v2 : overview_v1;
	size_t n = sizeof(overview_v1) / sizeof(overview_v1[0]);

	if (o->cols)
		return;
	if (o->fmt != FMT_TEXT) {
		o->cols = xcalloc(ncolumns, sizeof(*o->cols));
		/* Every column but numa, which is asked for by name. */
		o->ncols = 0;
		for (size_t i = 0; i < ncolumns; i++)
			if (columns[i].unit != U_NUMA &&
			    (events || columns[i].field != F_PRIO_MIN))
				o->cols[o->ncols++] = &columns[i];
		return;
	}
	o->cols = xcalloc(n, sizeof(*o->cols));
	for (size_t i = 0; i < n; i++)
		o->cols[i] = col_find(keys[i]);
	o->ncols = n;
}

/*
 * The screen's start-up settings; the command line wins over them.  A bad
 * setting is a usage error naming the file, the line and the setting.
 */
static int apply_config(struct opts *o, struct config *cfg)
{
	char err[600], path[512] = "memcgtoprc";
	int r;

	config_path(path, sizeof(path));
	r = config_load(cfg, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "memcgtop: %s\n", err);
		return r;
	}
	if ((cfg->has & CONFIG_HAS_DELAY) && !o->delay_given)
		o->delay = cfg->delay;
	if ((cfg->has & CONFIG_HAS_SORT) && !o->sort_given) {
		const char *k;

		o->sort = sort_spec(cfg->sort, &o->sort_desc, &k);
		if (!o->sort) {
			fprintf(stderr, "memcgtop: %s: line %u: sort: unknown "
				"column '%s'\n", path, cfg->sort_line, k);
			config_free(cfg);
			return -EINVAL;
		}
	}
	if ((cfg->has & CONFIG_HAS_CUSTOM) && !o->cols_arg) {
		if (col_parse_list(cfg->custom, &o->cols, &o->ncols, err,
				   sizeof(err)) < 0) {
			fprintf(stderr, "memcgtop: %s: line %u: custom: %s\n",
				path, cfg->custom_line, err);
			config_free(cfg);
			return -EINVAL;
		}
		for (size_t i = 0; i < o->ncols; i++) {
			if (o->cols[i]->unit != U_NUMA)
				continue;
			fprintf(stderr, "memcgtop: %s: line %u: custom: column "
				"'%s' is only in JSON output\n", path,
				cfg->custom_line, o->cols[i]->key);
			config_free(cfg);
			return -EINVAL;
		}
		o->cols_arg = cfg->custom;
	}
	if (cfg->has & CONFIG_HAS_SET) {
		if (!tui_set_known(cfg->set)) {
			fprintf(stderr, "memcgtop: %s: line %u: columns: "
				"unknown set '%s' (overview, memory, LRU, "
				"reclaim, events, limits, custom)\n", path,
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
			fprintf(stderr, "memcgtop: %s: line %u: theme: %s\n",
				path, cfg->theme_line, err);
			config_free(cfg);
			return -EINVAL;
		}
		o->theme = cfg->theme;
	}
	return 0;
}

static int sort_cmp(const struct mgroup *a, const struct mgroup *b, void *ctx)
{
	const struct opts *o = ctx;

	return col_compare(o->sort, a, b, o->sort_desc);
}

/* Batch runs that write files (--output, --record) stop between
 * iterations on SIGINT, SIGTERM or SIGHUP, so nothing is left half
 * written; then they die of the signal, as the shell expects. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void sleep_until(double deadline)
{
	struct timespec ts;

	ts.tv_sec = (time_t)deadline;
	ts.tv_nsec = (long)((deadline - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR && !stop_signal)
		;
}

/* The screen, with the settings file under the command line. */
static int run_screen(struct opts *o, struct cgfs *cg)
{
	struct config cfg;
	struct tui_opts to;
	struct reclaim *rc;
	char err[512];
	int status;

	/* The audit log is opened where a change can be made: the screen,
	 * without --readonly (--set opens it itself). */
	if (o->audit_log && !o->readonly &&
	    audit_open(o->audit_log, err, sizeof(err)) < 0) {
		fprintf(stderr, "memcgtop: %s\n", err);
		return 1;
	}
	if (apply_config(o, &cfg) < 0)
		return 2;
	rc = reclaim_new(cg, o->record != NULL);
	to = (struct tui_opts){
		.cg = cg, .delay = o->delay, .sort = o->sort,
		.sort_desc = o->sort_desc,
		.custom = o->cols_arg ? o->cols : NULL,
		.ncustom = o->ncols, .maxdepth = o->maxdepth,
		.filter = o->filter, .ascii = o->ascii,
		.no_color = o->no_color, .theme = o->theme,
		.set_name = (cfg.has & CONFIG_HAS_SET) ? cfg.set : NULL,
		.folded = cfg.folded, .nfolded = cfg.nfolded,
		.recording = o->record != NULL, .rc = rc,
	};
	status = tui_run(&to);
	reclaim_free(rc);
	config_free(&cfg);
	return status;
}

/* Batch: o->iterations samples printed (0: until stopped), each with
 * rates over the interval before it. */
static int run_batch(struct opts *o, struct cgfs *cg)
{
	struct snapshot snap = { 0 };
	struct model m;
	struct out_ctx out = { 0 };
	struct reclaim *rc = reclaim_new(cg, o->record != NULL);
	uint64_t fields = 0;
	int *order = NULL, *rows = NULL;
	unsigned char *match = NULL;
	size_t order_cap = 0;
	char err[512];
	double next;
	int r, status = 0;

	default_columns(o, cgfs_version(cg),
			reclaim_state(rc, NULL, NULL) != RECLAIM_NONE);
	for (size_t i = 0; i < o->ncols; i++)
		fields |= o->cols[i]->fields;
	fields |= o->sort->fields;
	/* The events cost every page fault: loaded only for a column (or
	 * the sort) that needs them, which the data formats' default of
	 * every column does.  Before the first sample, whose counts are
	 * then the baseline of the first printed interval. */
	reclaim_want(rc, (fields & reclaim_fields(cgfs_version(cg))) != 0);
	snap.more_slots = reclaim_slots(rc);

	model_init(&m, cgfs_version(cg));
	out.f = stdout;
	out.fmt = o->fmt;
	out.cols = o->cols;
	out.ncols = o->ncols;
	out.human = !o->raw;
	out.mode = cgfs_mode(cg);
	out.root = cgfs_root(cg);
	out.collector = cgfs_collector(cg);
	out.version = cgfs_version(cg);
	out.m = &m;

	/* Every printed iteration has rates: the first one comes from two
	 * samples one interval apart. */
	next = clock_mono();
	if (o->output || o->record)
		stopsig_catch(on_stop, 0, NULL);
	for (long it = 0; o->iterations == 0 || it <= o->iterations; it++) {
		size_t n, k = 0;
		int start_depth;

		if (it > 0 && !cgfs_is_series(cg)) {
			next += o->delay;
			/* After a stall (a stopped process, a refresh longer
			 * than the interval), start afresh rather than catch
			 * up with iterations milliseconds apart. */
			if (next < clock_mono())
				next = clock_mono() + o->delay;
			sleep_until(next);
		}
		if (stop_signal)
			break;
		r = cgfs_refresh(cg, fields, o->maxdepth, &snap, err,
				 sizeof(err));
		if (r == -ENODATA)
			break;	/* a recorded series ends here */
		if (r < 0) {
			fprintf(stderr, "memcgtop: %s\n", err);
			status = 1;
			break;
		}
		reclaim_fill(rc, &snap, &m);
		r = model_update(&m, &snap);
		if (r < 0) {
			fprintf(stderr, "memcgtop: %s\n", strerror(-r));
			status = 1;
			break;
		}
		if (it == 0) {
			if (!o->output)
				out_begin(&out);
			continue;
		}
		if (m.n > order_cap) {
			free(order);
			free(rows);
			free(match);
			order = xreallocarray(NULL, m.n, sizeof(*order));
			rows = xreallocarray(NULL, m.n, sizeof(*rows));
			match = xmalloc(m.n);
			order_cap = m.n;
		}
		n = model_order(&m, sort_cmp, o, order);
		start_depth = m.n ? m.groups[0]->depth : 0;
		if (o->filter) {
			/* Matches and their ancestors, as on the screen: a
			 * match keeps its place in the tree and its name is
			 * read below its parents'. */
			memset(match, 0, m.n);
			for (size_t i = 0; i < m.n; i++) {
				if (!strstr(m.groups[i]->path, o->filter))
					continue;
				for (int g = (int)i; g >= 0 && !match[g];
				     g = m.groups[g]->parent)
					match[g] = 1;
			}
		}
		for (size_t i = 0; i < n; i++) {
			if (o->filter && !match[order[i]])
				continue;
			rows[k++] = order[i];
		}
		out.rows = rows;
		out.nrows = k;
		out.start_depth = start_depth;
		out.iteration = (unsigned)it;
		if (o->output) {
			if (output_write(&out, o->output, err, sizeof(err)) < 0) {
				fprintf(stderr, "memcgtop: %s\n", err);
				status = 1;
				break;
			}
			continue;
		}
		out_iteration(&out);
		if (ferror(stdout))
			break;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "memcgtop: writing output: %s\n",
			strerror(errno ? errno : EIO));
		status = 1;
	}
	free(order);
	free(rows);
	free(match);
	model_free(&m);
	snapshot_free(&snap);
	reclaim_free(rc);
	return status;
}

/*
 * Three programs on one hierarchy, opened and closed here: --set (changes,
 * then exit), batch (-b, a pipe, --output) and the screen.
 */
int main(int argc, char **argv)
{
	struct opts o;
	struct cgfs *cg = NULL;
	char err[512];
	int status;

	parse_args(argc, argv, &o);
	if (!o.batch && !isatty(STDOUT_FILENO) && !o.nsets)
		o.batch = 1;
	for (size_t i = 0; i < o.ncols; i++)
		if (o.cols[i]->unit == U_NUMA && (!o.batch || o.fmt != FMT_JSON))
			die_usage("-c: column '%s' is only in JSON output "
				  "(-b -F json)", o.cols[i]->key);
	if (o.iterations < 0)
		o.iterations = o.batch ? 1 : 0;
	if (o.version) {
		/* -VV: the CGROUP and --root given are asked about. */
		o.cg.collector = CGFS_COLLECT_AUTO;
		status = version_verbose(&o);
		goto out;
	}
	if (!o.batch && !o.nsets)
		config_collector(&o);
	/* --set reads no values, and the recorder the files' bytes. */
	if (o.nsets || o.record)
		o.cg.collector = CGFS_COLLECT_FILES;

	if (cgfs_open(&o.cg, &cg, err, sizeof(err)) < 0) {
		fprintf(stderr, "memcgtop: %s\n", err);
		status = 1;
		goto out;
	}
	if (o.readonly)
		cgfs_set_readonly(cg);
	if (o.nsets)
		status = setcmd_run(cg, o.sets, o.nsets, o.audit_log);
	else if (o.record && cgfs_record(cg, o.record, o.record_max, err,
					 sizeof(err)) < 0) {
		fprintf(stderr, "memcgtop: %s\n", err);
		status = 1;
	} else if (o.batch) {
		status = run_batch(&o, cg);
	} else {
		status = run_screen(&o, cg);
	}
out:
	free(o.sets);
	free(o.cols);
	cgfs_close(cg);
	/* A batch run stopped by a signal dies of it, its files whole. */
	stopsig_die(stop_signal);
	return status;
}
