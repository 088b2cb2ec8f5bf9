#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# events.sh - the reclaim events (src/source/reclaim.c) on the screen, live v1:
# the detail pane says whether they count and since when, or why not; the
# header's line of pages scanned per priority and flushes while loaded.
#
# Usage (as root):  tests/tui/events.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# Builds /sys/fs/cgroup/memory/memcgtop-tuiev-$$-$RANDOM with the group a
# and runs "memcgtop -d 1 /TREE" at 120x40 in a private tmux server, five
# times:
#   MEMCGTOP_BPFEV_FAIL=perm  d (the detail pane): "Reclaim events (BPF):
#                             not available: not permitted: needs root
#                             (CAP_BPF and CAP_PERFMON)", pgscan and
#                             pgsteal from the kernel's counters (the BPF
#                             pass); Tab to the reclaim set: the split
#                             rates of a 0.0
#   ... and MEMCGTOP_BPF_FAIL=unproven (no source for v1 pgscan): they
#                             stay blank; SCAN/s is "-" and its blank line
#                             says the same reason; no header line of the
#                             events
#   MEMCGTOP_BPFEV_FAIL=old   d: "not available: the kernel has no
#                             count_memcg_events tracepoint (Linux 6.13 or
#                             later)"
#   (none)                    the overview: no header line (nothing loaded);
#                             Tab to the reclaim set: the header line
#                             "Scan by priority/s: ... soft ... Flushes
#                             N/s (own N/s) ... threshold T" (T: 64 x
#                             online CPUs; soft: priority 0 alone),
#                             SCAN/s 0.0 for a; d: "counting since HH:MM:SS",
#                             not that v1 pgscan counts since then (the
#                             pass gives it), the lowest scan priority
#                             and the stats flushes per second of a, its
#                             updates pending a flush and the threshold
#   MEMCGTOP_BPF_FAIL=unproven  the reclaim set, d: v1 pgscan and pgsteal
#                             count pages since the events loaded
# A kernel without the memcg tracepoints (before 6.13) skips the last run.
# Each check prints "PASS: ..." or "FAIL: ..." (with the screen); the last
# line is "tui-events: N passed, M failed".  Without root, a writable v1
# memory mount or tmux: "SKIP: tui events: REASON", exit 77 (CI=true:
# FAIL).  The tmux server, the group and the temporary folder are removed on
# exit; only the pids the test started are killed.
# Tall enough for the detail pane's verdict and history graphs and the
# reclaim events' lines below them.
W=120 H=64
NAME="tui events"
TNAME=memcgtop-tuiev-$$-$RANDOM
. "$(dirname "$0")/live.sh"
mkdir "$TROOT" "$TROOT/a" || abort "mkdir in $TROOT"

# run ENV: memcgtop -d 1 /TREE with ENV (VAR=VALUE or nothing), a (below
# the start) selected
run() {
	start "$W" "$H" "$1" -- -d 1 "/$TNAME"
	screen_wait s "/$TNAME" || abort "memcgtop did not start"
	tm send-keys -t s Down
}

PERM='not available: not permitted: needs root \(CAP_BPF and CAP_PERFMON\)'
# v1 pgscan and pgsteal from the pass (the kernel's counters, their words
# proven against the hierarchy root's memory.stat: the start group never
# faulted): not blank without the events.
run MEMCGTOP_BPFEV_FAIL=perm
tm send-keys -t s d
has "perm: the detail pane says why the reclaim events are not there" \
	"^Reclaim events \(BPF\): $PERM\$"
has "perm: and what stays blank, and where pgscan comes from" \
	"^  PRIO and flushes stay blank; pgscan and pgsteal come from the kernel's counters \(the BPF pass\)\$"
tm send-keys -t s Tab Tab Tab
has "perm: the split scan and steal rates of a are the pass's 0.0" '^ +0\.0 +0\.0 +0\.0 +0\.0 +- +- .* a$'
quit perm

# Neither the pass's words nor the events: v1 pgscan has no source.
run "MEMCGTOP_BPFEV_FAIL=perm MEMCGTOP_BPF_FAIL=unproven"
tm send-keys -t s d
has "perm, unproven: and what stays blank" "^  v1 pgscan and pgsteal, PRIO and flushes stay blank\$"
tm send-keys -t s Tab Tab Tab
has "perm: the reclaim set's columns (v1 mirrors v2's kswapd/direct split)" '^ +SCNK/s +SCND/s +STLK/s +STLD/s +EFF PRIO +RFA/s'
has "perm, unproven: the split scan and steal rates of a are -" '^ +- +- +- +- +- +- +[0-9.]+[kM]? .* a$'
has "perm, unproven: the blank line of pgscan_kswapd_per_s gives the reason" \
	"^  pgscan_kswapd_per_s +reclaim events \(BPF\) $PERM\$"
SCREEN=$(cap s)
if grep -q '^Scan by priority' <<<"$SCREEN"; then
	fail "perm, unproven: a header line of the events"
else
	pass "perm, unproven: no header line of the events"
fi
quit "perm, unproven"

run MEMCGTOP_BPFEV_FAIL=old
tm send-keys -t s d
has "old: the detail pane says the kernel is too old" \
	'^Reclaim events \(BPF\): not available: the kernel has no count_memcg_events tracepoint \(Linux 6\.13 or later\)$'
quit old

if ! grep -qa btf_trace_count_memcg_events /sys/kernel/btf/vmlinux 2>/dev/null; then
	echo "SKIP: tui events: the kernel has no memcg tracepoints (Linux 6.13+): the loaded run"
	cleanup
	summary
	exit
fi
run ""
screen_wait s "^Columns: overview" >/dev/null
sleep 1.5	# a refresh or more
SCREEN=$(cap s)
if grep -q '^Scan by priority' <<<"$SCREEN"; then
	fail "overview: the events are loaded"
else
	pass "overview: nothing loaded, no header line of the events"
fi
tm send-keys -t s Tab Tab Tab
has "reclaim set: the header line of pages scanned per priority and flushes" \
	'^Scan by priority/s:( [0-9]+:[0-9.]+[kM]?)*( none)?  subtree( [0-9]+:[0-9.]+[kM]?)*( none)?  soft( 0:[0-9.]+[kM]?)?( none)?  Flushes [0-9.]+[kM]?/s \(own [0-9.]+[kM]?/s\) of [0-9.]+[kM]? calls/s \(own [0-9.]+[kM]?/s\) threshold '"$((64 * $(getconf _NPROCESSORS_ONLN)))"'$'
has "reclaim set: the split scan and steal rates of a are 0.0, not -" '^ +0\.0 +0\.0 +0\.0 +0\.0 +- +- .* a$'
tm send-keys -t s d
has "loaded: the detail pane says since when they count" \
	'^Reclaim events \(BPF\), counting since [0-2][0-9]:[0-5][0-9]:[0-5][0-9]$'
SCREEN=$(cap s)
if grep -q "pages since then" <<<"$SCREEN"; then
	fail "loaded: the pane says v1 pgscan counts since the events loaded; the pass gives the kernel's counters"
else
	pass "loaded: v1 pgscan is the pass's (the kernel's counters), not counted since the events loaded"
fi
has "loaded: a's lowest scan priority (not scanned)" \
	'^  lowest scan priority +-  \(own lists not scanned in the interval\)$'
has "loaded: a's stats flushes per second, of its flush requests" '^  stats flushes +[0-9.]+[kM]?/s of [0-9.]+[kM]? requests/s$'
has "loaded: a's statistics updates pending a flush, and the threshold" \
	'^  updates pending a flush +[0-9]+ \(a read flushes above '"$((64 * $(getconf _NPROCESSORS_ONLN)))"'\)$'
quit loaded

# Without the pass's words, the events count v1 pgscan from their load.
run MEMCGTOP_BPF_FAIL=unproven
tm send-keys -t s Tab Tab Tab d
has "loaded, unproven: v1 pgscan and pgsteal count since then, hierarchically" \
	"^  v1 pgscan and pgsteal: pages since then, the group's and its descendants'\$"
quit "loaded, unproven"

cleanup
summary
