/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe.c - --probe PATH: the cold memory of a v2 group, found by
 * reclaiming it in steps until it shows it needed what was taken. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "edit.h"
#include "edit/probe.h"
#include "fmt.h"
#include "knob.h"
#include "msg.h"
#include "stopsig.h"
#include "xalloc.h"

/*
 * What the kernel does with a write to memory.reclaim (6.1,
 * mm/memcontrol.c, memory_reclaim()): the size is read as
 * page_counter_memparse reads a limit, in pages, rounded down; then, until
 * that many pages are reclaimed, try_to_free_mem_cgroup_pages() is called
 * for what is left (mm/vmscan.c: at least SWAP_CLUSTER_MAX, 32 pages, a
 * call, so a step may take a little more than it asks), proactive (not
 * counted in vmpressure) and allowed to swap.  A pending signal ends it
 * with EINTR; a call that reclaims nothing uses up one of
 * MAX_RECLAIM_RETRIES (16) tries (the last after draining the per-CPU LRU
 * caches), and when none are left the write fails with EAGAIN, whatever it
 * took before.  The write says nothing of how much it took: memory.stat's
 * pgsteal does (the group's and its descendants').  memory_reclaim()
 * marks no memory stall around its calls (the charge path does, in
 * try_charge_memcg, for the task that charges), and the writer is not in
 * the group: the group's memory.pressure grows only when its own tasks
 * wait, on refaults of their working set or in their own reclaim.
 */

enum probe_stop probe_check(const struct probe_limits *l,
			    const struct probe_sofar *so)
{
	if (so->refaulted > l->refaults)
		return PROBE_REFAULTS;
	if (so->stall_us > l->stall_us)
		return PROBE_STALL;
	if (so->reclaimed >= l->max)
		return PROBE_CAP;
	if (so->secs >= l->secs)
		return PROBE_TIME;
	return PROBE_GOING;
}

uint64_t probe_next(const struct probe_limits *l, uint64_t step,
		    uint64_t reclaimed)
{
	if (reclaimed >= l->max)
		return 0;
	return l->max - reclaimed < step ? l->max - reclaimed : step;
}

const char *probe_word(enum probe_stop s)
{
	static const char *const w[] = {
		[PROBE_GOING] = "going", [PROBE_REFAULTS] = "refaults",
		[PROBE_STALL] = "stall", [PROBE_CAP] = "cap",
		[PROBE_TIME] = "time", [PROBE_EAGAIN] = "eagain",
		[PROBE_SIGNAL] = "signal", [PROBE_ERROR] = "error",
	};

	return w[s];
}

/* One step's figures, each since the start. */
struct probe_step {
	uint64_t ask, reclaimed, refaulted, stall_us, usage;
};

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

static double now_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Waits secs, or less when a stop signal comes. */
static void pause_for(double secs)
{
	struct timespec ts;

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	while (!stop_sig && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static uint64_t has_rise(const struct edit_watch *a,
			 const struct edit_watch *b, int i)
{
	if (!(a->has & b->has & (1u << i)) || b->v[i] < a->v[i])
		return 0;
	return b->v[i] - a->v[i];
}

/* What the group shows now against its start. */
static void sofar(const struct edit_watch *a, const struct edit_watch *b,
		  uint64_t page, struct probe_sofar *so)
{
	if (a->has & b->has & (1u << W_PGSTEAL))
		so->reclaimed = has_rise(a, b, W_PGSTEAL) * page;
	else
		so->reclaimed = has_rise(b, a, W_USAGE);
	so->refaulted = (has_rise(a, b, W_REFAULT_FILE) +
			 has_rise(a, b, W_REFAULT_ANON)) * page;
	so->stall_us = has_rise(a, b, W_STALL_US);
}

/* The reason a probe stopped, for the operator. */
static void why(enum probe_stop s, const struct probe_limits *l,
		const struct probe_sofar *so, int sig, const char *err,
		char *buf, size_t len)
{
	char a[32], b[32];

	switch (s) {
	case PROBE_REFAULTS:
		fmt_bytes(a, sizeof(a), so->refaulted);
		fmt_bytes(b, sizeof(b), l->refaults);
		snprintf(buf, len, "refaults %s, past %s: the last step took "
			 "memory in use", a, b);
		break;
	case PROBE_STALL:
		snprintf(buf, len, "stalled %" PRIu64 "us, past %" PRIu64
			 "us: the last step took memory in use", so->stall_us,
			 l->stall_us);
		break;
	case PROBE_CAP:
		fmt_bytes(a, sizeof(a), l->max);
		snprintf(buf, len, "reclaimed the cap, %s", a);
		break;
	case PROBE_TIME:
		snprintf(buf, len, "ran the time cap, %gs", l->secs);
		break;
	case PROBE_EAGAIN:
		snprintf(buf, len, "the kernel could not reclaim a step "
			 "(EAGAIN): nothing more it can take");
		break;
	case PROBE_SIGNAL:
		snprintf(buf, len, "by SIG%s", sigabbrev_np(sig) ?
			 sigabbrev_np(sig) : "?");
		break;
	default:
		snprintf(buf, len, "%s", err);
		break;
	}
}

struct probe_result {
	enum probe_stop stop;
	uint64_t step, cold;
	struct probe_sofar so;
	struct edit_watch start, end;
	struct probe_step *steps;
	size_t nsteps;
	char why[4900];
};

static void print_text(const char *path, const struct probe_result *r)
{
	char p[4096], cold[32], rec[32], st[32], ub[32], ua[32], rf[32];
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t avg = r->end.v[W_AVG10];

	fmt_escape(p, sizeof(p), path, strlen(path));
	fmt_bytes(cold, sizeof(cold), r->cold);
	fmt_bytes(rec, sizeof(rec), r->so.reclaimed);
	fmt_bytes(st, sizeof(st), r->step);
	fmt_bytes(ub, sizeof(ub), r->start.v[W_USAGE]);
	fmt_bytes(ua, sizeof(ua), r->end.v[W_USAGE]);
	fmt_bytes(rf, sizeof(rf), r->so.refaulted);
	printf("%s: probe: cold %s: reclaimed %s in %zu step%s of %s, usage "
	       "%s -> %s\n", p, cold, rec, r->nsteps, r->nsteps == 1 ? "" :
	       "s", st, ub, ua);
	printf("%s: probe: caused refaults %s (%" PRIu64 " pages), stalled %"
	       PRIu64 "us, some avg10 %" PRIu64 ".%02" PRIu64 "%%\n", p, rf,
	       r->so.refaulted / page, r->so.stall_us, avg / 100, avg % 100);
	printf("%s: probe: stopped: %s: %s\n", p, probe_word(r->stop), r->why);
}

static void print_json(const char *path, const struct probe_result *r)
{
	uint64_t avg = r->end.v[W_AVG10];

	fputs("{\"path\":", stdout);
	fmt_json_name(stdout, path, strlen(path));
	printf(",\"step\":%" PRIu64 ",\"steps\":%zu,\"cold\":%" PRIu64
	       ",\"reclaimed\":%" PRIu64 ",\"usage_before\":%" PRIu64
	       ",\"usage_after\":%" PRIu64 ",\"refaults\":%" PRIu64
	       ",\"stall_us\":%" PRIu64 ",\"some_avg10\":%" PRIu64 ".%02"
	       PRIu64 ",\"stop\":\"%s\",\"why\":", r->step, r->nsteps, r->cold,
	       r->so.reclaimed, r->start.v[W_USAGE], r->end.v[W_USAGE],
	       r->so.refaulted, r->so.stall_us, avg / 100, avg % 100,
	       probe_word(r->stop));
	fmt_json_name(stdout, r->why, strlen(r->why));
	fputs(",\"trace\":[", stdout);
	for (size_t i = 0; i < r->nsteps; i++) {
		const struct probe_step *s = &r->steps[i];

		printf("%s{\"ask\":%" PRIu64 ",\"reclaimed\":%" PRIu64
		       ",\"refaults\":%" PRIu64 ",\"stall_us\":%" PRIu64
		       ",\"usage\":%" PRIu64 "}", i ? "," : "", s->ask,
		       s->reclaimed, s->refaulted, s->stall_us, s->usage);
	}
	fputs("]}\n", stdout);
}

/* The steps, until one of the limits or a refusal.  0, or 1 when a write
 * failed or went unrecorded. */
static int steps(struct cgfs *cg, const char *path, const struct knob *k,
		 const struct probe_limits *l, const struct probe_opts *po,
		 struct probe_result *r)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), prev = 0;
	double t0 = now_secs();
	int status = 0;

	for (;;) {
		uint64_t ask = probe_next(l, r->step, r->so.reclaimed);
		struct edit_plan plan;
		struct edit_result res;
		struct probe_step *s;
		char text[32], err[600];
		int w;

		if (stop_sig || ask == 0) {
			r->stop = stop_sig ? PROBE_SIGNAL : PROBE_CAP;
			break;
		}
		snprintf(text, sizeof(text), "%" PRIu64, ask);
		w = edit_plan(cg, path, k, text, &plan, err, sizeof(err));
		if (w == 0)
			w = edit_apply(cg, &plan, &res);
		else
			snprintf(res.msg, sizeof(res.msg), "%s", err);
		if (w == 0 && res.audit_failed) {
			msg_err("%s", res.msg);
			status = 1;
		}
		if (w == 0)
			pause_for(po->pause);
		edit_watch_free(&r->end);
		edit_watch_read(cg, path, 2, &r->end);
		prev = r->so.reclaimed;
		sofar(&r->start, &r->end, page, &r->so);
		r->so.secs = now_secs() - t0;
		r->steps = xreallocarray(r->steps, r->nsteps + 1,
					 sizeof(*r->steps));
		s = &r->steps[r->nsteps++];
		*s = (struct probe_step){ ask, r->so.reclaimed,
			r->so.refaulted, r->so.stall_us, r->end.v[W_USAGE] };
		if (w == -EAGAIN) {
			r->stop = PROBE_EAGAIN;
		} else if (w == -EINTR || stop_sig) {
			r->stop = PROBE_SIGNAL;
		} else if (w < 0) {
			r->stop = PROBE_ERROR;
			snprintf(r->why, sizeof(r->why), "%s", res.msg);
			status = 1;
		} else {
			r->stop = probe_check(l, &r->so);
		}
		if (r->stop != PROBE_GOING)
			break;
	}
	/* The last step took memory in use: the cold part is before it. */
	r->cold = r->stop == PROBE_REFAULTS || r->stop == PROBE_STALL ?
		prev : r->so.reclaimed;
	return status;
}

int probe_run(struct cgfs *cg, const char *path, const char *audit_log,
	      const struct probe_opts *po, int *ret_sig)
{
	const struct knob *k = knob_find(2, "reclaim", strlen("reclaim"));
	struct probe_result r = { 0 };
	struct probe_limits l;
	char p[600], err[600], words[600];
	int status;

	*ret_sig = 0;
	fmt_escape(p, sizeof(p), path, strlen(path) > 100 ? 100 : strlen(path));
	if (cgfs_version(cg) != 2) {
		msg_err("--probe: cgroup v1 has no memory.reclaim: the probe "
			"needs cgroup v2");
		return 2;
	}
	if (!cgfs_is_live(cg)) {
		msg_err("--probe: only on a live hierarchy (not a copy or a "
			"recording: --root)");
		return 2;
	}
	edit_watch_read(cg, path, 2, &r.start);
	if (!(r.start.has & (1u << W_USAGE))) {
		msg_err("--probe %s: no such group here (no memory.current; "
			"the root has no usage of its own to probe)", p);
		edit_watch_free(&r.start);
		return 2;
	}
	l.max = po->max ? po->max : r.start.v[W_USAGE] / 2;
	r.step = po->step ? po->step : r.start.v[W_USAGE] / 100;
	if (r.step < (uint64_t)sysconf(_SC_PAGESIZE))
		r.step = (uint64_t)sysconf(_SC_PAGESIZE);
	l.refaults = po->refaults_given ? po->refaults : r.step;
	l.stall_us = (uint64_t)(po->stall * 1e6);
	l.secs = po->secs;
	if (audit_open(audit_log, err, sizeof(err)) < 0) {
		msg_err("%s", err);
		edit_watch_free(&r.start);
		return 1;
	}
	stop_sig = 0;
	stopsig_catch(on_stop, 0, NULL);
	status = steps(cg, path, k, &l, po, &r);
	if (r.stop != PROBE_ERROR)
		why(r.stop, &l, &r.so, stop_sig, "", r.why, sizeof(r.why));
	snprintf(words, sizeof(words), "probe steps=%zu step=%" PRIu64
		 " cold=%" PRIu64 " reclaimed=%" PRIu64 " refaults=%" PRIu64
		 " stall_us=%" PRIu64 " stop=%s", r.nsteps, r.step, r.cold,
		 r.so.reclaimed, r.so.refaulted, r.so.stall_us,
		 probe_word(r.stop));
	if (audit_note(path, k->file, words, 0) < 0) {
		msg_err("%s: probe not recorded in the audit log: %s", p,
			audit_error());
		status = 1;
	}
	audit_close();
	if (po->json)
		print_json(path, &r);
	else
		print_text(path, &r);
	/* Out before a stop signal ends the program. */
	if (fflush(stdout) != 0)
		status = 1;
	if (r.stop == PROBE_SIGNAL)
		*ret_sig = stop_sig;
	edit_watch_free(&r.start);
	edit_watch_free(&r.end);
	free(r.steps);
	return status;
}
