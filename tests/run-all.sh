#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every test suite this machine can run and sums them up in one line:
# "N passed, N failed, N skipped".  Each suite prints PASS:/FAIL:/SKIP:
# lines (the unit tests print Check's summary, counted here per check).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/default}
log=$(mktemp)
failed=$(mktemp)
trap 'rm -f "$log" "$failed"' EXIT
pass=0 fail=0 skip=0

count_lines() {
	local p f s
	p=$(grep -c '^PASS' "$log")
	f=$(grep -c '^FAIL' "$log")
	s=$(grep -c '^SKIP' "$log")
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
}

# suite NAME COMMAND...: runs it, shows its output, counts its lines.  A
# suite that fails without printing a FAIL line counts as one failure.
suite() {
	local name=$1 rc
	shift
	echo "== $name"
	"$@" >"$log" 2>&1
	rc=$?
	cat "$log"
	grep '^FAIL' "$log" | sed "s|^|$name: |" >>"$failed"
	if grep -q 'Checks: [0-9]*, Failures' "$log"; then
		local n f e
		read -r n f e < <(sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' "$log" | tail -1)
		pass=$((pass + n - f - e)); fail=$((fail + f + e))
		grep -E '^[^ ]+:[0-9]+:[FE]:' "$log" | sed "s|^|$name: |" >>"$failed"
	else
		count_lines
	fi
	if [ "$rc" != 0 ] && [ "$rc" != 77 ] && ! grep -q '^FAIL' "$log" &&
	   ! grep -q 'Failures: [1-9]\|Errors: [1-9]' "$log"; then
		echo "FAIL: $name exited with status $rc"
		echo "$name: FAIL: exited with status $rc" >>"$failed"
		fail=$((fail + 1))
	fi
}

suite "unit tests" "$BUILD/check_memcgtop"
suite "unit tests (ASan+UBSan)" build/asan/check_memcgtop
suite "unit tests (clang)" build/clang/check_memcgtop
# Every field past bit 63 of a fieldset (sample.h FIELD_PROBE): a mask
# kept in a uint64_t anywhere loses them; the build refuses the narrowing
# and these two suites see what it would cost.
suite "unit tests (fields past bit 63)" build/probe/check_memcgtop
suite "golden output (fields past bit 63)" env MEMCGTOP=build/probe/memcgtop tests/golden/run.sh
suite "fuzz (libFuzzer, 3 s per target)" tests/fuzz/run.sh
suite "command line" tests/cli.sh
suite "command line (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/cli.sh
suite "golden output" tests/golden/run.sh
suite "golden output (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/golden/run.sh
suite "fixture columns" tests/fixture-columns.sh
suite "cAdvisor names (--compat cadvisor)" tests/cadvisor.sh
suite "cAdvisor names (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/cadvisor.sh
suite "--listen, the Prometheus endpoint (fixture, live v1, prometheus)" tests/listen.sh
suite "--listen (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/listen.sh
suite "--listen beside 2,000 idle and 16 trickling sockets, and 1,200 from 20 addresses" tests/listen-hostile.sh
suite "--listen beside hostile sockets (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/listen-hostile.sh
suite "fixture columns (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/fixture-columns.sh
suite "replay of 100,001 samples, malformed timestamps" tests/replay-long.sh
suite "replay of 100,001 samples (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/replay-long.sh
suite "interactive screen (tmux)" tests/tui/run.sh
suite "interactive screen (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/run.sh
suite "blank reasons (tmux)" tests/tui/blanks.sh
suite "blank reasons (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/blanks.sh
suite "detail pane verdict (tmux)" tests/tui/verdict.sh
suite "detail pane verdict (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/verdict.sh
suite "detail pane history graphs (tmux)" tests/tui/history.sh
suite "detail pane history graphs (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/history.sh
suite "the incident replayed: three keys to the offender (tmux)" tests/tui/incident.sh
suite "the incident replayed (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/incident.sh
suite "the incident recorded live and replayed: three keys (tmux, live v1)" tests/tui/incident-live.sh
suite "the incident recorded live and replayed (tmux, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/incident-live.sh
suite "OOM pane and marks (tmux, live v1)" tests/tui/oom.sh
suite "OOM pane and marks (tmux, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/oom.sh
suite "live cgroup v1" tests/live/v1.sh
suite "live cgroup v1 (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/v1.sh
suite "live cgroup v1 (the files collector)" env MEMCGTOP_BPF_FAIL=perm tests/live/v1.sh
suite "live listing (v1, the files collector)" env MEMCGTOP_BPF_FAIL=perm tests/live/listing.sh
suite "live listing (v1, the files collector, ASan+UBSan)" env MEMCGTOP_BPF_FAIL=perm MEMCGTOP=build/asan/memcgtop tests/live/listing.sh
suite "deep tree (fixture, tmux, live v1; 1 MiB stack)" tests/live/deep.sh
suite "deep tree (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/deep.sh
suite "deep tree (the files collector)" env MEMCGTOP_BPF_FAIL=perm tests/live/deep.sh
suite "live fd limit (v1, the files collector)" env MEMCGTOP_BPF_FAIL=perm tests/live/fdlimit.sh
suite "live fd limit (v1, the files collector, ASan+UBSan)" env MEMCGTOP_BPF_FAIL=perm MEMCGTOP=build/asan/memcgtop tests/live/fdlimit.sh
suite "live churn (v1)" tests/live/churn.sh
suite "live churn (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/churn.sh
suite "live churn (v1, the files collector)" env MEMCGTOP_BPF_FAIL=perm tests/live/churn.sh
suite "live recreated group (v1)" tests/live/recreate.sh
suite "live recreated group (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/recreate.sh
suite "live recreated group (v1, the files collector)" env MEMCGTOP_BPF_FAIL=perm tests/live/recreate.sh
suite "live renamed start group (v1)" tests/live/rename.sh
suite "live renamed start group (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/rename.sh
suite "live auto fallback mid-run (v1, 17,500 groups)" tests/live/fallback.sh
suite "live auto fallback mid-run (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/fallback.sh
suite "live tiny RLIMIT_NOFILE (v1, 6 to 24)" tests/live/fdtiny.sh
suite "live tiny RLIMIT_NOFILE (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/fdtiny.sh
suite "live unusable BTF (empty, cut short, corrupt)" env BPFEVDUMP=$BUILD/bpfevdump tests/live/btf.sh
suite "live unusable BTF (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop BPFEVDUMP=build/asan/bpfevdump tests/live/btf.sh
suite "live small memory cgroup (v1, 4 to 32 MiB)" tests/live/smallcg.sh
suite "live new columns (v1)" tests/live/columns-v1.sh
suite "live new columns (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/columns-v1.sh
suite "v1 swap and root usage (live v1)" tests/live/swap-v1.sh
suite "v1 swap and root usage (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/swap-v1.sh
suite "BPF collector against the files (live v1)" env BPFDUMP=$BUILD/bpfdump tests/live/bpf-v1.sh
suite "BPF collector against the files (live v1, ASan+UBSan)" env BPFDUMP=build/asan/bpfdump tests/live/bpf-v1.sh
suite "BPF collector's pass in chunks (live v1)" env BPFDUMP=$BUILD/bpfdump tests/live/chunks.sh
suite "BPF collector's pass in chunks (live v1, ASan+UBSan)" env BPFDUMP=build/asan/bpfdump MEMCGTOP=build/asan/memcgtop tests/live/chunks.sh
suite "--collector bpf against files (live v1)" env BPFEVDUMP=$BUILD/bpfevdump tests/live/collector-v1.sh
suite "--collector bpf against files (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop BPFEVDUMP=build/asan/bpfevdump tests/live/collector-v1.sh
suite "reclaim events (bpfev subtree sums)" "$BUILD/check_bpfev"
suite "reclaim events (bpfev subtree sums, ASan+UBSan)" build/asan/check_bpfev
suite "reclaim events: pgscan/pgsteal, priority, flushes (live v1)" env BPFEVDUMP=$BUILD/bpfevdump tests/live/reclaim-v1.sh
suite "reclaim events (live v1, ASan+UBSan)" env BPFEVDUMP=build/asan/bpfevdump tests/live/reclaim-v1.sh
suite "memory.stat in the BPF pass: proven words, v1 pgscan, one flush (live v1)" tests/live/stat-v1.sh
suite "memory.stat in the BPF pass (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/stat-v1.sh
suite "LRU lists per NUMA node in the BPF pass (live v1)" tests/live/numa-v1.sh
suite "LRU lists per NUMA node in the BPF pass (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/numa-v1.sh
suite "a group's directory opened in one openat2, not a component at a time (live v1)" tests/live/opens-v1.sh
suite "reclaim events in memcgtop's output (live v1)" tests/live/events-v1.sh
suite "reclaim events in memcgtop's output (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/events-v1.sh
suite "reclaim stalls against perf (live v1)" tests/live/stall-v1.sh
suite "reclaim stalls against perf (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/stall-v1.sh
# Global pressure costs 1.5 minutes here (memory first touched is slow
# on this machine kind): plain build only.
suite "soft-limit tree and soft-limit reclaim against perf (live v1)" tests/live/soft-v1.sh
suite "pending stats updates against memcg_flush_stats (live v1)" tests/live/pending-v1.sh
suite "pending stats updates against memcg_flush_stats (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/pending-v1.sh
suite "kswapd time (live)" tests/live/kswapd.sh
suite "kswapd time (live, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/kswapd.sh
suite "subtree scan by priority (live v1)" tests/live/subtree-prio.sh
suite "subtree scan by priority (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/subtree-prio.sh
suite "OOM kills: oom:mark_victim and the counters (live v1)" tests/live/oom-v1.sh
suite "OOM kills: oom:mark_victim and the counters (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/oom-v1.sh
suite "stats flushes that flushed against perf (live v1)" tests/live/flushes-v1.sh
suite "stats flushes that flushed against perf (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/flushes-v1.sh
suite "reclaim events on the screen (tmux, live v1)" tests/tui/events.sh
suite "reclaim events on the screen (tmux, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/events.sh
suite "detail pane verdict (tmux, live v1)" tests/tui/verdict-live.sh
suite "detail pane verdict (tmux, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/verdict-live.sh
suite "edit dialog (tmux, live v1)" tests/tui/edit.sh
suite "edit dialog (tmux, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/edit.sh
suite "views read no file to draw (tmux, strace, live v1)" tests/tui/noread.sh
suite "views read no file to draw (tmux, strace, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/noread.sh
suite "the screen reads what batch reads (tmux, strace, live v1)" tests/tui/reads.sh
suite "the screen reads what batch reads (tmux, strace, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/reads.sh
suite "signals, terminal loss (tmux)" tests/tui/signals.sh
suite "signals, terminal loss (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/signals.sh
suite "valgrind (memcheck)" tests/valgrind.sh
suite "over ssh (private sshd, loopback)" tests/ssh/run.sh
suite "hostile names (fixture + live v1)" tests/live/hostile.sh
suite "hostile names (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/hostile.sh
suite "hostile names (the files collector)" env MEMCGTOP_BPF_FAIL=perm tests/live/hostile.sh
suite "names never print alike (fixture + live v1)" tests/live/names.sh
suite "names never print alike (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/names.sh
suite "security (write paths, hostile values, --readonly, --set traversal, audit)" tests/security.sh
suite "record and replay (live v1)" tests/live/record.sh
suite "record safety (locale, start-up, lock, churn, --output; fixture + live v1)" tests/record-safety.sh
suite "record safety (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/record-safety.sh
suite "v1 memsw/limit order, no hierarchy, mountinfo fallback" tests/live/memsw-order.sh
suite "set v1 (--set, live)" tests/live/set-v1.sh
suite "set v1 (--set, live, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/set-v1.sh
suite "bash completion" tests/completion.sh
suite "Prometheus (node_exporter textfile, prometheus; live v1)" tests/prometheus/run.sh
suite "Debian package (build, lintian, install, remove)" tests/deb/run.sh
suite "live cgroup v2 (VM)" tests/vm/live-v2.sh
suite "set v2 (--set in the VM)" tests/vm/set-v2.sh
suite "edit dialog v2 (tmux in the VM)" tests/vm/tui-v2.sh
suite "live churn (v2, VM)" tests/vm/churn-v2.sh
suite "live listing (v2, VM)" tests/vm/listing-v2.sh
suite "events and recreated groups (v2, VM)" tests/vm/events-v2.sh
suite "BPF collector against the files (v2, VM, Debian 12's 6.1)" env BPFDUMP=$BUILD/bpfdump tests/vm/bpf-v2.sh
suite "BPF collector against the files (v2, VM, Debian 7.x)" env VM_KERNEL=7 BPFDUMP=$BUILD/bpfdump tests/vm/bpf-v2.sh
suite "memory.stat in the BPF pass against the files (v2, VM, Debian 12's 6.1)" tests/vm/stat-v2.sh
suite "memory.stat in the BPF pass against the files (v2, VM, Debian 7.x)" env VM_KERNEL=7 tests/vm/stat-v2.sh
suite "LRU lists per NUMA node in the BPF pass, two nodes (v2, VM, Debian 12's 6.1)" tests/vm/numa-v2.sh
suite "LRU lists per NUMA node in the BPF pass, two nodes (v2, VM, Debian 7.x)" env VM_KERNEL=7 tests/vm/numa-v2.sh
suite "--record with the BPF collector, replayed byte for byte (v2, VM, Debian 12's 6.1)" tests/vm/record-v2.sh
suite "--record with the BPF collector, replayed byte for byte (v2, VM, Debian 7.x)" env VM_KERNEL=7 tests/vm/record-v2.sh
suite "effective protection under global reclaim (v2, VM, Debian 12's 6.1)" tests/vm/protect-v2.sh
suite "effective protection under global reclaim (v2, VM, Debian 7.x)" env VM_KERNEL=7 tests/vm/protect-v2.sh
suite "reclaim events: none before 6.13 (v2, VM, Debian 12's 6.1)" env BPFEVDUMP=$BUILD/bpfevdump tests/vm/reclaim-v2.sh
suite "reclaim events against memory.stat, the seed's scenario (v2, VM, Debian 7.x)" env VM_KERNEL=7 BPFEVDUMP=$BUILD/bpfevdump tests/vm/reclaim-v2.sh
suite "live cgroup v2 (VM, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/vm/live-v2.sh
suite "live churn (v2, VM, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/vm/churn-v2.sh
suite "live listing (v2, VM, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/vm/listing-v2.sh
suite "LRU lists per NUMA node in the BPF pass (v2, VM, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/vm/numa-v2.sh

# The failures again, by suite, so that the end of a long log names them.
if [ -s "$failed" ]; then
	echo "== failed"
	cut -c1-300 "$failed"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
