#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every test suite this machine can run and sums them up in one line:
# "N passed, N failed, N skipped".  Each suite prints PASS:/FAIL:/SKIP:
# lines (the unit tests print Check's summary, counted here per check).
#
#   JOBS=N     at most N suites at once (default: the number of CPUs).
#              JOBS=1 runs them one after another in the order below.
#   SUITES=W,W only the suites a word selects: a tag (below), or a shell
#              pattern matched against the suite's name or its script
#              ('*ASan*', 'tests/live/s*'); -W leaves out what W selects
#              (SUITES=tui,-asan).  Unset or empty: every suite.
#   BUILD      the default build folder (build/default).
#
# A suite is one line:  suite [-x|-X] [-g] [-l LANE] [-b SECS] [-t TAGS] NAME CMD...
#   -x       exclusive: it measures the host (perf, stats flushes,
#            /proc/vmstat, the host's OOM kills), so no other host suite
#            runs beside it, only a guest's (-g)
#   -X       alone: it puts the whole host under memory pressure or reads
#            the root group's usage, so nothing runs beside it, not even
#            a guest
#   -g       a guest's: its work is a qemu guest's (tests/vm/), which
#            touches no group, file or port of the host's suites and
#            takes all its memory at boot (tests/vm/vm.sh), so it may run
#            beside an exclusive suite
#   -l LANE  the suites of a lane run one at a time, in their order here
#            (they share something fixed: build/vm's shares, apt's lock,
#            /dev/log, which set-v1 makes where there is none and hostile
#            mounts over)
#   -b SECS  its budget, the wall time it should take (default 300 s).
#            Past it the time table says "over budget" (a note, not a
#            failure); past three budgets it is stopped and is one FAIL.
#   -t TAGS  more tags, comma separated
# Tags: the script's folder below tests/ (live, tui, vm, golden, fuzz,
# ssh, prometheus, deb), or for a script in tests/ itself its name (cli,
# listen, security, ...); the script's own name (v1, soft-v1, oom, ...);
# unit for the Check binaries; asan, clang and probe for those builds;
# files for MEMCGTOP_BPF_FAIL=perm; exclusive; fast (make check-fast).
#
# With JOBS above 1 the suites that run alone come first, one by one;
# then the guests' lanes start and the exclusive suites run one by one
# beside them; then the others, side by side, the longest budgets (a
# lane: its sum) first.  JOBS bounds the suites at once, but an exclusive
# suite starts beside guests however many they are.
# Every suite writes to a file of its own, shown whole, in the order of
# the lines below, once it and every suite above it have ended.  Then come
# the table of wall times, the failures again and the summary line.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/default}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 1)}
SUITES=${SUITES:-}
case $JOBS in '' | *[!0-9]* | 0) echo "run-all.sh: JOBS=$JOBS is not a number above 0" >&2; exit 2 ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/memcgtop-run-all.XXXXXX") || exit 1
pass=0 fail=0 skip=0
S_NAME=() S_CMD=() S_EX=() S_GUEST=() S_LANE=() S_BUDGET=() S_TAGS=() S_SCRIPT=()
S_RC=() S_MS=() S_T0=() S_FIRST_MS=() S_CPU=()
declare -A running=() lane_busy=()

# The suites still running are stopped (timeout passes the signal to
# their process groups) before the folder of logs goes.
stop_running() {
	local p
	for p in "${!running[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in "${!running[@]}"; do
		wait "$p" 2>/dev/null
	done
	running=()
}
trap 'stop_running; rm -rf "$work"' EXIT
trap 'echo "run-all.sh: interrupted" >&2; exit 130' INT TERM HUP

# tags_of CMD...: sets tags, the tags a suite has from its command line,
# and script, its script (or binary).
tags_of() {
	local a
	tags= script=
	for a; do
		case $a in
		*build/asan/*) tags+=" asan" ;;
		*build/clang/*) tags+=" clang" ;;
		*build/probe/*) tags+=" probe" ;;
		MEMCGTOP_BPF_FAIL=perm) tags+=" files" ;;
		esac
		case $a in
		env | *=*) ;;
		*) [ -z "$script" ] && script=$a ;;
		esac
	done
	case $script in
	*/check_*) tags+=" unit" ;;
	tests/*/*) a=${script#tests/}; tags+=" ${a%%/*}" ;;
	esac
	case $script in
	tests/*) a=${script##*/}; a=${a%.sh}; [ "$a" = run ] || tags+=" $a" ;;
	esac
}

# matches I WORD: suite I has the tag WORD, or its name or script
# matches the pattern WORD.
matches() {
	case " ${S_TAGS[$1]} " in *" $2 "*) return 0 ;; esac
	# shellcheck disable=SC2053
	[[ ${S_NAME[$1]} == $2 || ${S_SCRIPT[$1]} == $2 ]]
}
# selected I: SUITES selects suite I.
selected() {
	local i=$1 w ws any=0 hit=0
	[ -n "$SUITES" ] || return 0
	IFS=, read -ra ws <<<"$SUITES"
	for w in "${ws[@]}"; do
		case $w in
		'') ;;
		-*) matches "$i" "${w#-}" && return 1 ;;
		*) any=1; matches "$i" "$w" && hit=1 ;;
		esac
	done
	[ "$any" = 0 ] || [ "$hit" = 1 ]
}

# suite [-x|-X] [-g] [-l LANE] [-b SECS] [-t TAGS] NAME COMMAND...:
# declares a suite (run later, by run_suites).
suite() {
	local ex= guest= lane= budget=300 tags opt_tags= n=${#S_NAME[@]}
	while :; do
		case $1 in
		-x) ex=1; opt_tags+=" exclusive"; shift ;;
		-X) ex=2; opt_tags+=" exclusive alone"; shift ;;
		-g) guest=1; shift ;;
		-l) lane=$2; shift 2 ;;
		-b) budget=$2; shift 2 ;;
		-t) opt_tags+=" ${2//,/ }"; shift 2 ;;
		*) break ;;
		esac
	done
	S_NAME[n]=$1
	shift
	printf -v 'S_CMD[n]' '%q ' "$@"
	local script
	tags_of "$@"
	S_TAGS[n]="$tags$opt_tags" S_SCRIPT[n]=$script
	S_EX[n]=$ex S_GUEST[n]=$guest S_LANE[n]=$lane S_BUDGET[n]=$budget
	selected "$n" && return 0
	unset 'S_NAME[n]' 'S_CMD[n]' 'S_TAGS[n]' 'S_SCRIPT[n]' 'S_EX[n]' 'S_GUEST[n]' 'S_LANE[n]' 'S_BUDGET[n]'
}

now_us() { local t=$EPOCHREALTIME; echo "${t/[.,]/}"; }
# secs MS: tenths of a second, "12.3".
secs() { printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100)); }

# start I: runs suite I in the background, stdin /dev/null, its output in
# its own file, in a process group of its own (timeout's), stopped past
# three budgets.
start() {
	local i=$1
	S_T0[i]=$(now_us)
	( suite_proc "$i" ) </dev/null >"$work/$i.log" 2>&1 &
	running[$!]=$i
	[ -n "${S_LANE[i]}" ] && lane_busy[${S_LANE[i]}]=1
	[ -n "${S_EX[i]}" ] && excl_running=${S_EX[i]}
	[ -n "${S_GUEST[i]}" ] && guests=$((guests + 1))
	return 0
}

# suite_proc I: the process of suite I: its command under timeout, a
# signal passed on to it, and then the CPU time of the suite's processes
# (those it waited for: a daemon it left running is not counted) in
# $work/I.cpu, in milliseconds.
suite_proc() {
	local child rc u s
	eval "timeout -k 30 $((S_BUDGET[$1] * 3)) ${S_CMD[$1]}" &
	child=$!
	trap 'kill -TERM $child 2>/dev/null' TERM
	wait "$child"
	rc=$?
	# a signal ends a wait early: wait again until the child has ended
	while kill -0 "$child" 2>/dev/null; do
		wait "$child"
		rc=$?
	done
	# times itself, not in a subshell: a subshell's children are not ours
	times >"$work/$1.times"
	{ read -r _; read -r u s; } <"$work/$1.times"
	echo $(( $(cpu_ms "$u") + $(cpu_ms "$s") )) >"$work/$1.cpu"
	exit "$rc"
}
# cpu_ms 1m2.345s: milliseconds, 62345.
cpu_ms() {
	local t=${1%s} m
	m=${t%%m*} t=${t#*m}
	echo $(( m * 60000 + 10#${t%.*} * 1000 + 10#${t#*.} ))
}
# host_cpu: the host's busy and total CPU ticks since boot, "BUSY TOTAL".
host_cpu() {
	local _c us ni sy id io irq sirq st
	read -r _c us ni sy id io irq sirq st _ </proc/stat
	echo "$((us + ni + sy + irq + sirq + st)) $((us + ni + sy + id + io + irq + sirq + st))"
}

# pick: sets next to the first suite of the queue that may start now.  A
# suite that runs alone waits until nothing runs, and nothing passes it
# in the queue (it would wait for ever); an exclusive one waits until
# only guests run, and only guests pass it; a suite whose lane is busy
# is passed.
pick() {
	local k i held= busy=${#running[@]}
	[ "$excl_running" = 2 ] && return 1
	# JOBS=1: one after another; an exclusive suite takes no place
	[ "$JOBS" = 1 ] && [ "$busy" -gt 0 ] && return 1
	[ -n "$excl_running" ] && busy=$((busy - 1))
	for k in "${!queue[@]}"; do
		i=${queue[k]}
		if [ -n "${S_LANE[i]}" ] && [ -n "${lane_busy[${S_LANE[i]}]:-}" ]; then
			continue
		elif [ "${S_EX[i]}" = 2 ]; then
			[ "${#running[@]}" = 0 ] || return 1
		elif [ -n "${S_EX[i]}" ]; then
			if [ -n "$excl_running" ] || [ "${#running[@]}" != "$guests" ]; then
				held=1
				continue
			fi
		elif [ "$busy" -ge "$JOBS" ]; then
			return 1
		elif [ -z "${S_GUEST[i]}" ] && { [ -n "$held" ] || [ -n "$excl_running" ]; }; then
			return 1
		fi
		next=$i
		unset 'queue[k]'
		return 0
	done
	return 1
}

# show I: suite I's output, its time, and its counts.  A suite that fails
# without printing a FAIL line counts as one failure; so does one stopped
# past three budgets.
show() {
	local i=$1 name=${S_NAME[$1]} rc=${S_RC[$1]} log=$work/$1.log
	local n f e p s limit=$((S_BUDGET[$1] * 3)) over=
	echo "== $name"
	if [ -n "${S_FIRST_MS[$1]:-}" ]; then
		echo "RERUN: $name: the first run ($(secs "${S_FIRST_MS[$1]}") s) failed, the second counts; the first run's failures:"
		grep '^FAIL' "$work/$1.first.log" | sed 's/^FAIL/  first run: FAIL/'
		S_MS[$1]=$((S_MS[$1] + S_FIRST_MS[$1]))
	fi
	cat "$log"
	grep '^FAIL' "$log" | sed "s|^|$name: |" >>"$work/failed"
	if grep -q 'Checks: [0-9]*, Failures' "$log"; then
		read -r n f e < <(sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' "$log" | tail -1)
		pass=$((pass + n - f - e)); fail=$((fail + f + e))
		grep -E '^[^ ]+:[0-9]+:[FE]:' "$log" | sed "s|^|$name: |" >>"$work/failed"
	else
		p=$(grep -c '^PASS' "$log")
		f=$(grep -c '^FAIL' "$log")
		s=$(grep -c '^SKIP' "$log")
		pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	fi
	if { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && [ "${S_MS[i]}" -ge $((limit * 1000)) ]; then
		echo "FAIL: $name: stopped after $limit s, three times its budget of ${S_BUDGET[i]} s"
		echo "$name: FAIL: stopped after $limit s (budget ${S_BUDGET[i]} s)" >>"$work/failed"
		fail=$((fail + 1))
	elif [ "$rc" != 0 ] && [ "$rc" != 77 ] && ! grep -q '^FAIL' "$log" &&
	   ! grep -q 'Failures: [1-9]\|Errors: [1-9]' "$log"; then
		echo "FAIL: $name exited with status $rc"
		echo "$name: FAIL: exited with status $rc" >>"$work/failed"
		fail=$((fail + 1))
	fi
	[ "${S_MS[i]}" -gt $((S_BUDGET[i] * 1000)) ] && over=", over its budget of ${S_BUDGET[i]} s"
	echo "-- $name: $(secs "${S_MS[i]}") s$over"
}

# run_suites: runs the declared suites, JOBS at a time, and shows each as
# soon as it and those above it are done.
run_suites() {
	local n=${#S_NAME[@]} i k c pid rc t0 shown=0 nex=0 total=0 cpu=0
	local -A lanesum=()
	local busy0 all0 busy1 all1
	queue=() next= excl_running= guests=0
	t0=$(now_us)
	read -r busy0 all0 < <(host_cpu)
	for i in "${!S_NAME[@]}"; do
		[ -n "${S_EX[i]}" ] && nex=$((nex + 1))
		[ -n "${S_LANE[i]}" ] &&
			lanesum[${S_LANE[i]}]=$(( ${lanesum[${S_LANE[i]}]:-0} + S_BUDGET[i] ))
	done
	if [ "$JOBS" = 1 ]; then
		queue=("${!S_NAME[@]}")
	else
		# Alone first (key 0), then the guests' lanes, the exclusive
		# suites, the others; among guests and others by budget, a
		# lane's suites by their lane's sum; sort -s keeps the order of
		# the lines among equal keys.
		queue=($(for i in "${!S_NAME[@]}"; do
			k=${S_BUDGET[i]}
			[ -n "${S_LANE[i]}" ] && k=${lanesum[${S_LANE[i]}]}
			if [ "${S_EX[i]}" = 2 ]; then k=0
			elif [ -n "${S_GUEST[i]}" ]; then k=$((1000000 - k))
			elif [ -n "${S_EX[i]}" ]; then k=1000000
			else k=$((2000000 - k)); fi
			echo "$k $i"
		done | sort -s -n -k1,1 | cut -d' ' -f2))
	fi
	echo "== $n suites, JOBS=$JOBS${SUITES:+, SUITES=$SUITES}, $nex exclusive"
	local order=("${!S_NAME[@]}")
	while [ "$shown" -lt "$n" ]; do
		while pick; do
			start "$next"
		done
		if [ "${#running[@]}" -gt 0 ]; then
			wait -n -p pid "${!running[@]}"
			rc=$?
			i=${running[$pid]}
			unset 'running[$pid]'
			S_MS[i]=$((($(now_us) - S_T0[i]) / 1000))
			[ -n "${S_LANE[i]}" ] && unset 'lane_busy[${S_LANE[i]}]'
			[ -n "${S_EX[i]}" ] && excl_running=
			[ -n "${S_GUEST[i]}" ] && guests=$((guests - 1))
			# A suite that measures the host and failed runs once
			# more, first in the queue: its second run counts, and
			# its log shows the first run's failures.
			if [ -n "${S_EX[i]}" ] && [ "$rc" != 0 ] && [ "$rc" != 77 ] &&
			   [ -z "${S_FIRST_MS[i]:-}" ]; then
				S_FIRST_MS[i]=${S_MS[i]}
				mv "$work/$i.log" "$work/$i.first.log"
				mv "$work/$i.cpu" "$work/$i.first.cpu" 2>/dev/null
				queue=("$i" "${queue[@]}")
				continue
			fi
			S_RC[i]=$rc
		fi
		while [ "$shown" -lt "$n" ] && [ -n "${S_RC[${order[shown]}]:-}" ]; do
			show "${order[shown]}"
			shown=$((shown + 1))
		done
	done
	read -r busy1 all1 < <(host_cpu)
	# The table: slowest first.  CPU is the time the suite's processes
	# ran (a suite far below its wall time mostly waits).
	echo "== wall time of each suite, slowest first (a budget is what a suite should take: past it, a note, not a failure)"
	printf '%8s %8s %6s  %s\n' seconds cpu budget suite
	for i in "${order[@]}"; do
		c=$(cat "$work/$i.cpu" "$work/$i.first.cpu" 2>/dev/null | awk '{ t += $1 } END { print t + 0 }')
		S_CPU[i]=$c
		total=$((total + S_MS[i])) cpu=$((cpu + c))
	done
	for i in "${order[@]}"; do
		k=
		[ "${S_MS[i]}" -gt $((S_BUDGET[i] * 1000)) ] && k="  over budget"
		printf '%d\t%8s %8s %6s  %s%s\n' "${S_MS[i]}" "$(secs "${S_MS[i]}")" \
			"$(secs "${S_CPU[i]}")" "${S_BUDGET[i]}" "${S_NAME[i]}" "$k"
	done | sort -s -t"$(printf '\t')" -k1,1nr | cut -f2-
	printf '%8s %8s %6s  %s\n' "$(secs "$total")" "$(secs "$cpu")" "" "total of the suites" \
		"$(secs $((($(now_us) - t0) / 1000)))" "" "" "wall time of the run (JOBS=$JOBS)"
	# The whole host's share of busy CPU over the run (a guest's qemu
	# and what runs beside the suites too): the room for more at once.
	[ "$all1" -gt "$all0" ] &&
		echo "host CPU busy $(( (busy1 - busy0) * 100 / (all1 - all0) ))% of $(nproc 2>/dev/null || echo 1) CPUs over the run"
	return 0
}

suite -t fast "unit tests" "$BUILD/check_memcgtop"
suite -b 600 "unit tests (ASan+UBSan)" build/asan/check_memcgtop
suite "unit tests (clang)" build/clang/check_memcgtop
# Every field past bit 63 of a fieldset (sample.h FIELD_PROBE): a mask
# kept in a uint64_t anywhere loses them; the build refuses the narrowing
# and these two suites see what it would cost.
suite "unit tests (fields past bit 63)" build/probe/check_memcgtop
suite "golden output (fields past bit 63)" env MEMCGTOP=build/probe/memcgtop tests/golden/run.sh
suite "fuzz (libFuzzer, 3 s per target)" tests/fuzz/run.sh
suite -t fast "command line" tests/cli.sh
suite -t fast "header layers: src/tui includes no source or BPF header, calls no cgfs_" tests/layers.sh
suite "command line (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/cli.sh
suite -t fast "golden output" tests/golden/run.sh
suite "golden output (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/golden/run.sh
suite "fixture columns" tests/fixture-columns.sh
suite "cAdvisor names (--compat cadvisor)" tests/cadvisor.sh
suite "cAdvisor names (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/cadvisor.sh
suite "cAdvisor names and kubelet labels through a real Prometheus" tests/cadvisor-prom.sh
suite "cAdvisor names through Prometheus (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/cadvisor-prom.sh
suite "--listen, the Prometheus endpoint (fixture, live v1, prometheus)" tests/listen.sh
suite "--listen (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/listen.sh
suite "--listen beside 2,000 idle and 16 trickling sockets, and 1,200 from 20 addresses" tests/listen-hostile.sh
suite "--listen beside hostile sockets (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/listen-hostile.sh
suite "fixture columns (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/fixture-columns.sh
suite "replay of 100,001 samples, malformed timestamps" tests/replay-long.sh
suite "replay of 100,001 samples (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/replay-long.sh
suite -t fast "interactive screen (tmux)" tests/tui/run.sh
suite "interactive screen (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/run.sh
suite -t fast "blank reasons (tmux)" tests/tui/blanks.sh
suite "blank reasons (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/blanks.sh
suite -t fast "detail pane verdict (tmux)" tests/tui/verdict.sh
suite "detail pane verdict (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/verdict.sh
suite -t fast "detail pane history graphs (tmux)" tests/tui/history.sh
suite "detail pane history graphs (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/history.sh
suite -t fast "the incident replayed: three keys to the offender (tmux)" tests/tui/incident.sh
suite "the incident replayed (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/incident.sh
suite -l oom "the incident recorded live and replayed: three keys (tmux, live v1)" tests/tui/incident-live.sh
suite -l oom "the incident recorded live and replayed (tmux, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/incident-live.sh
suite -l oom -b 600 "OOM pane and marks (tmux, live v1)" tests/tui/oom.sh
suite -l oom -b 600 "OOM pane and marks (tmux, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/oom.sh
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
suite -x "live churn (v1)" tests/live/churn.sh
suite -x "live churn (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/churn.sh
suite -x "live churn (v1, the files collector)" env MEMCGTOP_BPF_FAIL=perm tests/live/churn.sh
suite "live recreated group (v1)" tests/live/recreate.sh
suite "live recreated group (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/recreate.sh
suite "live recreated group (v1, the files collector)" env MEMCGTOP_BPF_FAIL=perm tests/live/recreate.sh
suite "live renamed start group (v1)" tests/live/rename.sh
suite "live renamed start group (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/rename.sh
suite -x -b 600 "live auto fallback mid-run (v1, 17,500 groups)" tests/live/fallback.sh
suite -x -b 600 "live auto fallback mid-run (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/fallback.sh
suite "live tiny RLIMIT_NOFILE (v1, 6 to 24)" tests/live/fdtiny.sh
suite "live tiny RLIMIT_NOFILE (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/fdtiny.sh
suite "live unusable BTF (empty, cut short, corrupt)" env BPFEVDUMP=$BUILD/bpfevdump tests/live/btf.sh
suite "live unusable BTF (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop BPFEVDUMP=build/asan/bpfevdump tests/live/btf.sh
suite "live small memory cgroup (v1, 4 to 32 MiB)" tests/live/smallcg.sh
suite -l oom "live new columns (v1)" tests/live/columns-v1.sh
suite -l oom "live new columns (v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/columns-v1.sh
suite -X "v1 swap and root usage (live v1)" tests/live/swap-v1.sh
suite -X "v1 swap and root usage (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/swap-v1.sh
suite -x "BPF collector against the files (live v1)" env BPFDUMP=$BUILD/bpfdump tests/live/bpf-v1.sh
suite -x "BPF collector against the files (live v1, ASan+UBSan)" env BPFDUMP=build/asan/bpfdump tests/live/bpf-v1.sh
suite "BPF collector's pass in chunks (live v1)" env BPFDUMP=$BUILD/bpfdump tests/live/chunks.sh
suite "BPF collector's pass in chunks (live v1, ASan+UBSan)" env BPFDUMP=build/asan/bpfdump MEMCGTOP=build/asan/memcgtop tests/live/chunks.sh
suite "--collector bpf against files (live v1)" env BPFEVDUMP=$BUILD/bpfevdump tests/live/collector-v1.sh
suite "--collector bpf against files (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop BPFEVDUMP=build/asan/bpfevdump tests/live/collector-v1.sh
suite "reclaim events (bpfev subtree sums)" "$BUILD/check_bpfev"
suite "reclaim events (bpfev subtree sums, ASan+UBSan)" build/asan/check_bpfev
suite -x "reclaim events: pgscan/pgsteal, priority, flushes (live v1)" env BPFEVDUMP=$BUILD/bpfevdump tests/live/reclaim-v1.sh
suite -x "reclaim events (live v1, ASan+UBSan)" env BPFEVDUMP=build/asan/bpfevdump tests/live/reclaim-v1.sh
suite -x "memory.stat in the BPF pass: proven words, v1 pgscan, one flush (live v1)" tests/live/stat-v1.sh
suite -x "memory.stat in the BPF pass (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/stat-v1.sh
suite "LRU lists per NUMA node in the BPF pass (live v1)" tests/live/numa-v1.sh
suite "LRU lists per NUMA node in the BPF pass (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/numa-v1.sh
suite "a group's directory opened in one openat2, not a component at a time (live v1)" tests/live/opens-v1.sh
suite -x "reclaim events in memcgtop's output (live v1)" tests/live/events-v1.sh
suite -x "reclaim events in memcgtop's output (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/events-v1.sh
suite -x "reclaim stalls against perf (live v1)" tests/live/stall-v1.sh
suite -x "reclaim stalls against perf (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/stall-v1.sh
# Global pressure costs 1.5 minutes here (memory first touched is slow
# on this machine kind): plain build only.
suite -X "soft-limit tree and soft-limit reclaim against perf (live v1)" tests/live/soft-v1.sh
suite -x "pending stats updates against memcg_flush_stats (live v1)" tests/live/pending-v1.sh
suite -x "pending stats updates against memcg_flush_stats (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/pending-v1.sh
suite -X "kswapd time (live)" tests/live/kswapd.sh
suite -x -b 360 "recommended limits of three loads (live v1)" tests/live/rightsize-v1.sh
suite -x -b 600 "recommended limits of three loads (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/rightsize-v1.sh
suite -X "kswapd time (live, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/kswapd.sh
suite -x "subtree scan by priority (live v1)" tests/live/subtree-prio.sh
suite -x "subtree scan by priority (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/subtree-prio.sh
suite -x "OOM kills: oom:mark_victim and the counters (live v1)" tests/live/oom-v1.sh
suite -x "OOM kills: oom:mark_victim and the counters (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/oom-v1.sh
suite -x "stats flushes that flushed against perf (live v1)" tests/live/flushes-v1.sh
suite -x "stats flushes that flushed against perf (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/flushes-v1.sh
suite "reclaim events on the screen (tmux, live v1)" tests/tui/events.sh
suite "reclaim events on the screen (tmux, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/events.sh
suite -x "detail pane verdict (tmux, live v1)" tests/tui/verdict-live.sh
suite -x "detail pane verdict (tmux, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/verdict-live.sh
suite "edit dialog (tmux, live v1)" tests/tui/edit.sh
suite "edit dialog (tmux, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/edit.sh
suite "edit dialog's preview (tmux, live v1)" tests/tui/preview.sh
suite "edit dialog's preview (tmux, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/preview.sh
suite -x "preview and follow-up of --set (live v1)" tests/live/preview-v1.sh
suite -x "preview and follow-up of --set (live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/preview-v1.sh
suite "views read no file to draw (tmux, strace, live v1)" tests/tui/noread.sh
suite "views read no file to draw (tmux, strace, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/noread.sh
suite "the screen reads what batch reads (tmux, strace, live v1)" tests/tui/reads.sh
suite "the screen reads what batch reads (tmux, strace, live v1, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/reads.sh
suite "signals, terminal loss (tmux)" tests/tui/signals.sh
suite "signals, terminal loss (tmux, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/tui/signals.sh
suite -b 600 "valgrind (memcheck)" tests/valgrind.sh
suite -l apt "over ssh (private sshd, loopback)" tests/ssh/run.sh
suite -l devlog "hostile names (fixture + live v1)" tests/live/hostile.sh
suite -l devlog "hostile names (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/hostile.sh
suite -l devlog "hostile names (the files collector)" env MEMCGTOP_BPF_FAIL=perm tests/live/hostile.sh
suite "names never print alike (fixture + live v1)" tests/live/names.sh
suite "names never print alike (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/names.sh
suite "security (write paths, hostile values, --readonly, --set traversal, audit)" tests/security.sh
suite "record and replay (live v1)" tests/live/record.sh
suite -b 600 "record safety (locale, start-up, lock, churn, --output; fixture + live v1)" tests/record-safety.sh
suite -b 600 "record safety (ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/record-safety.sh
suite "v1 memsw/limit order, no hierarchy, mountinfo fallback" tests/live/memsw-order.sh
suite -l devlog "set v1 (--set, live)" tests/live/set-v1.sh
suite -l devlog "set v1 (--set, live, ASan+UBSan)" env MEMCGTOP=build/asan/memcgtop tests/live/set-v1.sh
suite "bash completion" tests/completion.sh
suite -l apt "build packages: plain make checks them (not root)" tests/build-deps.sh
suite -l apt "Prometheus (node_exporter textfile, prometheus; live v1)" tests/prometheus/run.sh
suite "--prometheus URL, a Prometheus server over three --listen (fixtures + live v1)" tests/prometheus/source.sh
suite "--prometheus URL (ASan+UBSan)" env PORT_BASE=20100 MEMCGTOP=build/asan/memcgtop tests/prometheus/source.sh
suite "contrib/memcgtop-alerts.yml: promtool check and test rules on series of real --listen runs (live v1, v2 fixture)" tests/prometheus/alerts.sh
suite "contrib/memcgtop-dashboard.json: every panel query on a real Prometheus over two --listen (live v1, fixture)" tests/prometheus/dashboard.sh
suite -l apt "Debian package (build, lintian, install, remove)" tests/deb/run.sh
# The VM suites: one guest per kernel and boot configuration (the two
# NUMA nodes of numa-v2 are one of their own), booted by the first suite
# that needs it and shared while this script runs (tests/vm/session.sh);
# the suites of one guest stand together.  The kernels' lanes (vm6, vm7:
# build/vm, build/vm7) run side by side, and beside the exclusive suites.
suite -g -l vm6 "live cgroup v2 (VM)" env VM_SESSION=$$ tests/vm/live-v2.sh
suite -g -l vm6 "set v2 (--set in the VM)" env VM_SESSION=$$ tests/vm/set-v2.sh
suite -g -l vm6 "preview and follow-up of --set (v2, VM, Debian 12's 6.1)" env VM_SESSION=$$ tests/vm/preview-v2.sh
suite -g -l vm6 "the cold memory probe, --probe (v2, VM, Debian 12's 6.1)" env VM_SESSION=$$ tests/vm/probe-v2.sh
suite -g -l vm6 "the cold memory probe, --probe (v2, VM, ASan+UBSan)" env VM_SESSION=$$ MEMCGTOP=build/asan/memcgtop tests/vm/probe-v2.sh
# tui-v2 boots a guest of its own: in a shared one the suite after it
# (churn-v2, twice) hung in its first step, cpio in a soft lockup.
suite -g -l vm6 "edit dialog v2 (tmux in the VM)" env VM_SESSION=off tests/vm/tui-v2.sh
suite -g -l vm6 "live churn (v2, VM)" env VM_SESSION=$$ tests/vm/churn-v2.sh
suite -g -l vm6 "live listing (v2, VM)" env VM_SESSION=$$ tests/vm/listing-v2.sh
suite -g -l vm6 "events and recreated groups (v2, VM)" env VM_SESSION=$$ tests/vm/events-v2.sh
suite -g -l vm6 "BPF collector against the files (v2, VM, Debian 12's 6.1)" env VM_SESSION=$$ BPFDUMP=$BUILD/bpfdump tests/vm/bpf-v2.sh
suite -g -l vm6 "memory.stat in the BPF pass against the files (v2, VM, Debian 12's 6.1)" env VM_SESSION=$$ tests/vm/stat-v2.sh
suite -g -l vm6 "--record with the BPF collector, replayed byte for byte (v2, VM, Debian 12's 6.1)" env VM_SESSION=$$ tests/vm/record-v2.sh
suite -g -l vm6 -b 600 "effective protection under global reclaim (v2, VM, Debian 12's 6.1)" env VM_SESSION=$$ tests/vm/protect-v2.sh
suite -g -l vm6 "reclaim events: none before 6.13 (v2, VM, Debian 12's 6.1)" env VM_SESSION=$$ BPFEVDUMP=$BUILD/bpfevdump tests/vm/reclaim-v2.sh
suite -g -l vm6 "live cgroup v2 (VM, ASan+UBSan)" env VM_SESSION=$$ MEMCGTOP=build/asan/memcgtop tests/vm/live-v2.sh
suite -g -l vm6 "live churn (v2, VM, ASan+UBSan)" env VM_SESSION=$$ MEMCGTOP=build/asan/memcgtop tests/vm/churn-v2.sh
suite -g -l vm6 "live listing (v2, VM, ASan+UBSan)" env VM_SESSION=$$ MEMCGTOP=build/asan/memcgtop tests/vm/listing-v2.sh
suite -g -l vm6 "LRU lists per NUMA node in the BPF pass, two nodes (v2, VM, Debian 12's 6.1)" env VM_SESSION=$$ tests/vm/numa-v2.sh
suite -g -l vm6 "LRU lists per NUMA node in the BPF pass (v2, VM, ASan+UBSan)" env VM_SESSION=$$ MEMCGTOP=build/asan/memcgtop tests/vm/numa-v2.sh
suite -g -l vm7 "BPF collector against the files (v2, VM, Debian 7.x)" env VM_SESSION=$$ VM_KERNEL=7 BPFDUMP=$BUILD/bpfdump tests/vm/bpf-v2.sh
suite -g -l vm7 "memory.stat in the BPF pass against the files (v2, VM, Debian 7.x)" env VM_SESSION=$$ VM_KERNEL=7 tests/vm/stat-v2.sh
suite -g -l vm7 "--record with the BPF collector, replayed byte for byte (v2, VM, Debian 7.x)" env VM_SESSION=$$ VM_KERNEL=7 tests/vm/record-v2.sh
suite -g -l vm7 -b 600 "effective protection under global reclaim (v2, VM, Debian 7.x)" env VM_SESSION=$$ VM_KERNEL=7 tests/vm/protect-v2.sh
suite -g -l vm7 "preview and follow-up of --set (v2, VM, Debian 7.x)" env VM_SESSION=$$ VM_KERNEL=7 tests/vm/preview-v2.sh
suite -g -l vm7 "the cold memory probe, --probe (v2, VM, Debian 7.x)" env VM_SESSION=$$ VM_KERNEL=7 tests/vm/probe-v2.sh
# The seed's scenario needs kswapd to scan twenty small groups under the
# whole guest's pressure: in a shared guest (after protect-v2) it waited
# for that in vain, so it boots its own.
suite -g -l vm7 "reclaim events against memory.stat, the seed's scenario (v2, VM, Debian 7.x)" env VM_SESSION=off VM_KERNEL=7 BPFEVDUMP=$BUILD/bpfevdump tests/vm/reclaim-v2.sh
suite -g -l vm7 "LRU lists per NUMA node in the BPF pass, two nodes (v2, VM, Debian 7.x)" env VM_SESSION=$$ VM_KERNEL=7 tests/vm/numa-v2.sh

run_suites
[ "${#S_NAME[@]}" -gt 0 ] || echo "run-all.sh: SUITES=$SUITES selects no suite"
# The failures again, by suite, so that the end of a long log names them.
if [ -s "$work/failed" ]; then
	echo "== failed"
	cut -c1-300 "$work/failed"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ] && [ "${#S_NAME[@]}" -gt 0 ]
