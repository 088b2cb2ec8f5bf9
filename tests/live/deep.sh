#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# deep.sh - a chain of 4,000 nested groups, read with a 1 MiB stack
# (ulimit -s 1024): memcgtop walks, orders, prints and draws the tree
# without recursion, so anyone who may make groups (a delegated subtree, a
# container) cannot crash it by nesting them.  A recursive walk died here
# at about 2,000 levels.
#
#   fixture  --root with the chain (each level's usage its level x 1000):
#            batch CSV and text, a start group inside the chain, and the
#            screen in tmux (End, fold all, unfold all, the deepest group's
#            detail pane, quit)
#   live v1  the chain below /sys/fs/cgroup/memory, two samples
#
# Both are read with fewer descriptors (ulimit -n) than the chain is deep
# too: the directories being walked that are not kept are closed on the
# way down and opened again on the way up.
#
# Deeper chains stay out of the test suite: making a nested group costs
# more the deeper it is (20,000 levels took minutes to make and remove).
# tests/live/deeptree.py makes and removes the chains relative to the
# previous level's descriptor: their paths are far beyond PATH_MAX.
#
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
NAME="deep tree"
CGM=/sys/fs/cgroup/memory
. "$here/lib.sh"
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
DEPTH=4000
TREE=$here/deeptree.py
. "$top/tests/lib/tmux.sh"
tmux_private deep
TNAME=''
TMPD=$(mktemp -d /tmp/memcgtop-deep.XXXXXX) || exit 1

cleanup() {
	trap - EXIT INT TERM HUP
	tmux_stop
	if [ -n "$TNAME" ] && [ -e "$CGM/$TNAME" ]; then
		python3 "$TREE" remove "$CGM/$TNAME"
	fi
	python3 "$TREE" remove "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
command -v python3 >/dev/null || cannot_run "no python3"
[ -x "$MEMCGTOP" ] || { fail "no memcgtop binary at $MEMCGTOP"; summary; exit 1; }

# chain A B ITERS [PREFIX]: the CSV (iteration,path[,usage]) a reader of
# levels A..B of the chain prints; with PREFIX (a live tree) paths are
# below it and there is no usage column.
chain() {
	awk -v a="$1" -v b="$2" -v iters="$3" -v pre="${4:-}" 'BEGIN {
		print pre == "" ? "iteration,path,usage" : "iteration,path"
		for (it = 1; it <= iters; it++) {
			p = pre
			for (i = 1; i <= a; i++) p = p "/d"
			for (i = a; i <= b; i++) {
				if (pre != "") printf "%d,%s\n", it, p
				else if (i == 0) printf "%d,/,1048576\n", it
				else printf "%d,%s,%d\n", it, p, i * 1000
				p = p "/d"
			}
		}
	}'
}

# small STACK_KB CMD...: runs CMD with that stack limit; stdout to
# $TMPD/out, stderr to $TMPD/err; sets rc.  FILES=N: with that many
# descriptors at most (soft and hard RLIMIT_NOFILE) as well.
small() {
	local kb=$1
	shift
	(ulimit -s "$kb" && ulimit -n "${FILES:-$(ulimit -n)}" && exec "$@") \
		>"$TMPD/out" 2>"$TMPD/err"
	rc=$?
}

# check_csv DESC EXPECTED-FILE: rc 0, no stderr, and the CSV (its lines end
# in CRLF), less its time column, is exactly the expected one.
check_csv() {
	if [ "$rc" = 0 ] && [ ! -s "$TMPD/err" ] &&
	   tr -d '\r' <"$TMPD/out" | cut -d, -f2- | cmp -s - "$2"; then
		pass "$1"
	else
		fail "$1 (rc $rc, stderr $(head -c 200 "$TMPD/err"), $(wc -l <"$TMPD/out") lines)"
	fi
}

FX=$TMPD/fx
mkdir "$FX" && printf '1048576\n' >"$FX/memory.usage_in_bytes" &&
	printf '9223372036854771712\n' >"$FX/memory.limit_in_bytes" &&
	python3 "$TREE" make "$FX" "$DEPTH" d 'memory.usage_in_bytes={d}000' ||
	{ fail "cannot make the fixture chain"; summary; exit 1; }

chain 0 "$DEPTH" 1 >"$TMPD/want"
small 1024 "$MEMCGTOP" -b -n 1 --root "$FX" -F csv -c path,usage
check_csv "fixture: $DEPTH levels with a 1 MiB stack, CSV: every level once, in order, with its usage" "$TMPD/want"

# Deeper than RLIMIT_NOFILE: the directories of the levels above are
# closed on the way down and opened again on the way up.
chain 0 "$DEPTH" 2 >"$TMPD/want"
FILES=64 small 1024 "$MEMCGTOP" -b -n 2 -d 0.05 --root "$FX" -F csv -c path,usage
check_csv "fixture: $DEPTH levels with 64 descriptors (ulimit -n 64), two samples: every level once" "$TMPD/want"

start=$(printf '/d%.0s' $(seq 1000))
chain 1000 "$DEPTH" 1 >"$TMPD/want"
small 1024 "$MEMCGTOP" -b -n 1 --root "$FX" -F csv -c path,usage "$start"
check_csv "fixture: start group 1,000 levels down the chain: levels 1000..$DEPTH" "$TMPD/want"

# Text: 6 header lines, then a row a level, the last indented 2 x 4000.
small 1024 "$MEMCGTOP" -b -n 1 --root "$FX" -c usage
last=$(tail -n 1 "$TMPD/out" | sed 's/^ *[^ ]* //')
if [ "$rc" = 0 ] && [ "$(wc -l <"$TMPD/out")" = $((6 + DEPTH + 1)) ] &&
   [ "$last" = "$(printf '%*sd' $((2 * DEPTH)) '')" ] &&
   [ "$(tail -n 1 "$TMPD/out" | awk '{ print $1 }')" = 3.8M ]; then
	pass "fixture: text output, the deepest row 3.8M indented $((2 * DEPTH)) columns"
else
	fail "fixture: text output (rc $rc, $(wc -l <"$TMPD/out") lines, last row ${#last} characters)"
fi

# The screen, with the same stack.
wait_screen() {
	local i
	for i in $(seq 100); do
		SCREEN=$(tm capture-pane -p -t deep 2>/dev/null)
		printf '%s\n' "$SCREEN" | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
# check_screen DESC REGEX: the screen shows a line matching REGEX.
check_screen() {
	if wait_screen "$2"; then
		pass "$1"
	else
		fail "$1 (no line matching '$2'); screen:"
		printf '%s\n' "$SCREEN" | sed 's/^/    |/'
	fi
}
if command -v tmux >/dev/null; then
	tm new-session -d -s deep -x 100 -y 30 -e LANG=C.UTF-8 \
		"ulimit -s 1024; '$MEMCGTOP' --root '$FX' -d 30; echo \$? >'$TMPD/tui.rc'; sleep 60"
	check_screen "screen: $((DEPTH + 1)) groups drawn with a 1 MiB stack" \
		"Groups: $((DEPTH + 1)) shown of $((DEPTH + 1))"
	tm send-keys -t deep End
	check_screen "screen: End selects the deepest group (3.8M)" \
		'^ *3\.8M .*$'
	tm send-keys -t deep '*'
	check_screen "screen: fold all leaves / and /d" \
		"Groups: 2 shown of $((DEPTH + 1))"
	tm send-keys -t deep '*'
	check_screen "screen: unfold all shows the chain again" \
		"Groups: $((DEPTH + 1)) shown of $((DEPTH + 1))"
	# The detail pane opens the deepest group by its path, 8,000 bytes.
	tm send-keys -t deep End d
	check_screen "screen: the detail pane of the deepest group reads its usage" \
		'^memory\.usage_in_bytes +4000000  \(3\.8M\)$'
	tm send-keys -t deep q
	for i in $(seq 50); do
		[ -s "$TMPD/tui.rc" ] && break
		sleep 0.1
	done
	tui_rc=$(cat "$TMPD/tui.rc" 2>/dev/null)
	[ "$tui_rc" = 0 ] && pass "screen: q quits, exit 0" ||
		fail "screen: q quits, exit 0 (exit ${tui_rc:-none})"
	tm kill-server 2>/dev/null
else
	echo "SKIP: $NAME: screen: no tmux"
fi

# Live v1: the chain below the memory mount.
v1_host_ready
TNAME=memcgtop-deep-$$-$RANDOM
mkdir "$CGM/$TNAME" && python3 "$TREE" make "$CGM/$TNAME" "$DEPTH" d ||
	{ fail "cannot make the live chain below $CGM/$TNAME"; summary; exit 1; }
chain 0 "$DEPTH" 2 "/$TNAME" >"$TMPD/want"
small 1024 "$MEMCGTOP" -b -n 2 -d 0.1 -F csv -c path "/$TNAME"
check_csv "live v1: $DEPTH levels with a 1 MiB stack, two samples: every level once, in order" "$TMPD/want"
FILES=256 small 1024 "$MEMCGTOP" -b -n 2 -d 0.1 -F csv -c path "/$TNAME"
check_csv "live v1: $DEPTH levels with 256 descriptors (ulimit -n 256): every level once, in order" "$TMPD/want"

python3 "$TREE" remove "$CGM/$TNAME"
if [ -e "$CGM/$TNAME" ]; then
	fail "cleanup: $CGM/$TNAME still there"
else
	pass "cleanup: the live chain is gone"
fi
summary
