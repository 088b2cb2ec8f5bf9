#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# valgrind.sh - memcgtop under valgrind's memcheck: no memory errors and no
# definite leaks, in batch mode and on the interactive screen.
#
# Usage:  tests/valgrind.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout; an
#             ASan build cannot run under valgrind)
#   CI=true   a missing prerequisite (valgrind, tmux, root and a writable
#             cgroup v1 memory mount for the live parts) is a failure, not a
#             skip
#
# Every run is
#   valgrind --leak-check=full --error-exitcode=99
#            --errors-for-leak-kinds=definite
#            --suppressions=tests/valgrind.supp memcgtop ...
# and passes when memcgtop's status is the expected one (0; 99 means
# valgrind found errors), the log says "ERROR SUMMARY: 0 errors" and no
# bytes are definitely (or indirectly) lost.  A failing run prints the
# errors and leak records of its log (with their stacks), indented.
#
# Runs:
#   batch, every fixture of tests/fixtures and the generated edge-names:
#     -F json over every sample; text -r, csv, openmetrics and prometheus
#     too on v1-live, v2-live and edge-names;
#   batch, live cgroup v1: the whole hierarchy (-F json -n 2 -d 0.2), a test
#     tree with a process (-F text -n 2 -d 0.2), and --set of a limit with
#     --audit-log;
#   interactive, in a private tmux server, on the v2-live series and on the
#     live test tree: Down, Tab, d, p, /, a search text, Enter, q (each key
#     sent when the screen has shown the previous one); and once on the
#     series ended by SIGTERM (status 143, the same log checks).
#
# Each check prints "PASS: ..." or "FAIL: ...", the last line is
# "valgrind: N passed, M failed"; exit 1 on any failure.  Without valgrind:
# SKIP (exit 77; with CI=true a FAIL).  The tmux server, the test groups,
# the process and the temporary directory are removed on exit.
set -u
LC_ALL=C.UTF-8
export -n LC_ALL
export TZ=UTC
unset TMUX TMUX_PANE

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
SUPP=$here/valgrind.supp
CGM=/sys/fs/cgroup/memory
. "$top/tests/lib/count.sh"
. "$top/tests/lib/tmux.sh"
. "$top/tests/lib/cleanup.sh"
tmux_private vg
cd "$top" || exit 1
t_start=$SECONDS

summary() {
	echo "time: $((SECONDS - t_start)) s"
	echo "valgrind: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
cannot_run() { # REASON [part]: a skip, or with CI=true a failure
	if [ "${CI:-}" = true ]; then
		fail "$1 (CI=true: not skipping)"
		return
	fi
	echo "SKIP: $1"
}

if ! command -v valgrind >/dev/null 2>&1; then
	cannot_run "valgrind not installed"
	[ "$nfail" = 0 ] && exit 77
	summary
	exit 1
fi
if [ ! -x "$MEMCGTOP" ]; then
	fail "no binary at $MEMCGTOP (run make)"
	summary
	exit 1
fi
if [ ! -r "$SUPP" ]; then
	fail "no suppressions file $SUPP"
	summary
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgtop-vg.XXXXXX")
mkdir -p "$tmp/config" "$tmp/home"
TROOT='' SLEEPER=''
cleanup() {
	tmux_stop
	stop_pids $SLEEPER
	remove_tree "$TROOT"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

VG=(valgrind --leak-check=full --error-exitcode=99
	--errors-for-leak-kinds=definite --suppressions="$SUPP"
	--num-callers=30)
nrun=0

# vg_verdict LOG STATUS WANT DESC: the checks of one run
vg_verdict() {
	local log=$1 rc=$2 want=$3 desc=$4 bad=''
	[ "$rc" = "$want" ] || bad+="exit status $rc (want $want; 99: valgrind found errors); "
	grep -q 'ERROR SUMMARY: 0 errors' "$log" ||
		bad+="$(grep -m1 -o 'ERROR SUMMARY: .*' "$log" || echo 'no ERROR SUMMARY'); "
	if ! grep -q 'All heap blocks were freed' "$log"; then
		grep -q 'definitely lost: 0 bytes in 0 blocks' "$log" ||
			bad+="$(grep -m1 -o 'definitely lost: .*' "$log" || echo 'no leak summary'); "
		grep -q 'indirectly lost: 0 bytes in 0 blocks' "$log" ||
			bad+="$(grep -m1 -o 'indirectly lost: .*' "$log"); "
	fi
	if [ -z "$bad" ]; then
		pass "$desc: no memory errors, no definite leaks ($(grep -m1 -o 'total heap usage: .*' "$log"))"
	else
		fail "$desc: $bad"
		# The errors and leak records with their stacks.
		sed -n 's/^==[0-9]*== //p' "$log" | awk '
			/^(Invalid|Conditional|Use of|Syscall param|Mismatched|Source and|Argument|.*are definitely lost|.*are indirectly lost|.*are possibly lost)/ { show = 1 }
			/^$/ { if (show) print "    |"; show = 0 }
			show { print "    | " $0 }' | head -150
	fi
}

# vg_batch DESC ARGS...: memcgtop ARGS under valgrind, output discarded
vg_batch() {
	local desc=$1 log rc
	shift
	nrun=$((nrun + 1))
	log=$tmp/vg.$nrun.log
	"${VG[@]}" --log-file="$log" "$MEMCGTOP" "$@" >"$tmp/out.$nrun" 2>"$tmp/err.$nrun"
	rc=$?
	if [ -s "$tmp/err.$nrun" ]; then
		fail "$desc: stderr not empty: $(head -c 300 "$tmp/err.$nrun")"
	fi
	if [ ! -s "$tmp/out.$nrun" ]; then
		fail "$desc: no output"
	fi
	vg_verdict "$log" "$rc" 0 "$desc"
}

# ---- batch on the fixtures -----------------------------------------------------
echo "== batch, fixtures"
gen=$tmp/gen
mkdir -p "$gen"
fixtures=()
for d in tests/fixtures/*/; do
	d=${d%/}
	[ -f "$d/cg/timestamps" ] && fixtures+=("$d")
done
if "$top/tests/capture/make-edge.sh" "$gen" edge-names >"$tmp/make-edge.log" 2>&1 &&
	[ -f "$gen/edge-names/cg/timestamps" ]; then
	fixtures+=("$gen/edge-names")
else
	fail "cannot generate the edge-names fixture: $(tail -3 "$tmp/make-edge.log")"
fi
for f in "${fixtures[@]}"; do
	name=${f##*/}
	n=$(($(wc -l <"$f/cg/timestamps") - 1))
	[ "$n" -ge 1 ] || n=1
	pargs=()
	[ -d "$f/proc" ] && pargs=(--proc "$f/proc")
	vg_batch "$name -F json -n $n" -b -F json -n "$n" --root "$f/cg" "${pargs[@]}"
	case $name in
	v1-live | v2-live | edge-names)
		vg_batch "$name -F text -r -n $n" -b -F text -r -n "$n" --root "$f/cg" "${pargs[@]}"
		for fmt in csv openmetrics prometheus; do
			vg_batch "$name -F $fmt -n $n" -b -F "$fmt" -n "$n" --root "$f/cg" "${pargs[@]}"
		done
		;;
	esac
done

# ---- batch, live cgroup v1 -----------------------------------------------------------
live=''
if [ "$(id -u)" != 0 ]; then
	cannot_run "live v1: not root"
elif ! awk -v m="$CGM" '$2 == m && $3 == "cgroup" && $4 ~ /(^|,)rw(,|$)/ && $4 ~ /(^|,)memory(,|$)/ { f = 1 } END { exit !f }' /proc/mounts; then
	cannot_run "live v1: $CGM is not a writable cgroup v1 memory mount"
else
	tname=memcgtop-vg-$$-$RANDOM
	TROOT=$CGM/$tname
	if mkdir "$TROOT" "$TROOT/a" "$TROOT/a/deep" "$TROOT/b" &&
		echo 268435456 >"$TROOT/a/memory.limit_in_bytes" &&
		echo 67108864 >"$TROOT/a/memory.soft_limit_in_bytes"; then
		sleep 600 &
		SLEEPER=$!
		if echo "$SLEEPER" >"$TROOT/a/cgroup.procs"; then
			live=1
		else
			fail "live v1: cannot move a process into $TROOT/a"
		fi
	else
		fail "live v1: cannot create the test tree $TROOT"
	fi
fi
if [ -n "$live" ]; then
	echo "== batch, live cgroup v1"
	ng=$(find "$CGM" -type d | wc -l)
	vg_batch "live v1, whole hierarchy ($ng groups) -F json -n 2 -d 0.2" -b -F json -n 2 -d 0.2
	vg_batch "live v1, /$tname -F text -n 2 -d 0.2" -b -F text -n 2 -d 0.2 "/$tname"
	vg_batch "live v1, --set /$tname/b:limit=100M with --audit-log" \
		--set "/$tname/b:limit=100M" --audit-log "$tmp/audit.log"
	if [ "$(cat "$TROOT/b/memory.limit_in_bytes")" = 104857600 ]; then
		pass "live v1, --set under valgrind: the kernel holds 104857600"
	else
		fail "live v1, --set under valgrind: memory.limit_in_bytes is $(cat "$TROOT/b/memory.limit_in_bytes")"
	fi
fi

# ---- interactive ----------------------------------------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
	cannot_run "interactive: tmux not installed"
else
	tm new-session -d -s keeper -x 80 -y 24 'exec cat'
	# key NAME KEY DESC: send KEY once the screen is steady, then wait
	# until the screen (with attributes) changes.
	key() {
		local before i
		before=$(cap_e "$1")
		tm send-keys -t "$1" "$2"
		for ((i = 0; i < 200; i++)); do
			[ "$(cap_e "$1")" != "$before" ] && return 0
			sleep 0.05
		done
		echo "NOTE: $3: the screen did not change within 10 s after $2"
		return 0
	}
	# tui NAME DESC SEARCH PANE-REGEX ARGS...: a session under valgrind
	# with the keys; after p, a line matching PANE-REGEX must show (the
	# process pane's rows come through libproc2 on a live tree)
	tui() {
		local nm=$1 desc=$2 search=$3 pane=$4 log rc cmd
		shift 4
		nrun=$((nrun + 1))
		log=$tmp/vg.$nrun.log
		cmd="cd $(printf %q "$top") || exit; env -u LC_ALL -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/config HOME=$tmp/home $(printf '%q ' "${VG[@]}" --log-file="$log" "$MEMCGTOP" "$@")"
		cmd+="; echo EXIT=\$?; exec cat"
		tm new-session -d -s "$nm" -x 100 -y 30 "bash --norc --noprofile -c $(printf %q "$cmd")"
		if ! wait_for "$nm" '^ .*GROUP$' 30 || ! wait_for "$nm" '^ +[0-9.]+[KMG]? ' 10; then
			fail "$desc: the screen did not come up under valgrind: $(cap "$nm" | head -5 | tr '\n' '|')"
			tm kill-session -t "$nm"
			return
		fi
		# the second sample (rates) comes within a second
		sleep 1.5
		key "$nm" Down "$desc"
		key "$nm" Tab "$desc"
		wait_for "$nm" '^Columns: LRU' 5 || echo "NOTE: $desc: Tab did not show the LRU set"
		key "$nm" d "$desc"
		key "$nm" p "$desc"
		if wait_for "$nm" "$pane" 10; then
			pass "$desc: p shows the process pane ('$pane')"
		else
			fail "$desc: p: nothing matches /$pane/ within 10 s: $(cap "$nm" | grep -A3 '^Processes of' | tr '\n' '|')"
		fi
		key "$nm" / "$desc"
		tm send-keys -t "$nm" -l "$search"
		wait_for "$nm" "$search" 5
		key "$nm" Enter "$desc"
		tm send-keys -t "$nm" -l q
		if ! wait_for "$nm" '^EXIT=' 60; then
			fail "$desc: no exit within 60 s after q: $(cap "$nm" | tail -3 | tr '\n' '|')"
			tm kill-session -t "$nm"
			return
		fi
		rc=$(cap "$nm" | sed -n 's/^EXIT=//p' | head -1)
		tm kill-session -t "$nm"
		# valgrind writes the leak report before the process ends
		vg_verdict "$log" "$rc" 0 "$desc"
	}
	echo "== interactive, recorded series"
	tui fixture "interactive v2-live (Down Tab d p / work Enter q)" work \
		'^not shown: a copy or a recording' -d 60 --root tests/fixtures/v2-live/cg --proc tests/fixtures/v2-live/proc
	# Ended by SIGTERM instead of q: the same frees on that path (the
	# status is then 143, valgrind's --error-exitcode does not apply).
	nrun=$((nrun + 1))
	log=$tmp/vg.$nrun.log
	cmd="cd $(printf %q "$top") || exit; env -u LC_ALL -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/config HOME=$tmp/home $(printf '%q ' "${VG[@]}" --log-file="$log" "$MEMCGTOP" -d 60 --root tests/fixtures/v2-live/cg --proc tests/fixtures/v2-live/proc)"
	cmd+="; echo EXIT=\$?; exec cat"
	tm new-session -d -s sigterm -x 100 -y 30 "bash --norc --noprofile -c $(printf %q "$cmd")"
	if wait_for sigterm '^ .*GROUP$' 30 && wait_for sigterm '^ +[0-9.]+[KMG]? ' 10; then
		sleep 1.5
		key sigterm Tab "SIGTERM run"
		vpid=$(pgrep -P "$(tm display -p -t sigterm '#{pane_pid}')")
		kill -TERM "$vpid"
		if wait_for sigterm '^EXIT=' 30; then
			vg_verdict "$log" "$(cap sigterm | sed -n 's/^EXIT=//p' | head -1)" 143 \
				"interactive v2-live ended by SIGTERM"
		else
			fail "interactive v2-live: no exit within 30 s of SIGTERM"
		fi
	else
		fail "interactive v2-live (SIGTERM run): the screen did not come up"
	fi
	tm kill-session -t sigterm
	if [ -n "$live" ]; then
		echo "== interactive, live v1"
		# Down selects a (it has the sleep process, b is empty); with -d 1
		# the pane is (re)loaded at the next refresh at the latest.
		tui live "interactive live v1 /$tname (Down Tab d p / deep Enter q)" deep \
			"^ *$SLEEPER root .* sleep 600\$" -d 1 "/$tname"
	fi
fi

summary
