#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# hostile.sh - groups with hostile names: no name may reach a terminal as
# an escape sequence, break a row, a CSV record, a JSON line or an
# OpenMetrics exposition, or make --set write to another group.
#
# Usage:  tests/live/hostile.sh          (the live part needs root)
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the live part is a failure, not a skip
#
# The names (tests/hostile/check.py NAMES): an OSC title escape
# (ESC ] 0 ; pwned BEL), CSI 2 J, a newline, a tab, invalid UTF-8
# (FF FE), a C1 CSI (U+009B), DEL, a 255-byte name, "-n", "--set",
# 'a,b"c', "x{y}", "}", "# EOF", 'memcgtop_usage_bytes{cgroup="/"} 1'
# (two levels, a name cannot hold "/"), a backslash, "..x", "café" and
# "p:limit=1M", and three with format characters: U+202E (right-to-left
# override), U+2067 ... U+2069 (an isolate), U+200B and U+00AD (zero width
# space, soft hyphen), which must show escaped (\xHH per byte).
#
# Part 1 (no root needed) builds them as a fixture (plain folders holding
# copies of a v1 group's files, tests/fixtures/edge-vanish) - the only way
# to have a newline in a name, which the kernel refuses.  Part 2 (root, a
# read-write cgroup v1 memory mount) makes them as real groups below
# /sys/fs/cgroup/memory/memcgtop-hostile-PID-RANDOM.  Each part checks:
#   - text (-b -F text): no byte a terminal interprets, every name escaped
#     (\xHH, \\) on its own row;
#   - CSV: python's csv module (strict) parses it, every record has the
#     header's field count, the path fields are the names encoded as in
#     text (\xHH, \\);
#   - JSON: the line parses, paths decode to the names encoded so;
#     OpenMetrics: one "# EOF", the last line; Prometheus: promtool check
#     metrics passes; both: one memcgtop_usage_bytes sample per group whose
#     cgroup label unescapes to its path encoded so;
#   - the screen in tmux (capture-pane, and the raw bytes memcgtop wrote via
#     pipe-pane): each name escaped on its own row, no BEL, OSC, C1 or
#     invalid UTF-8 reaches the terminal, also in the detail pane and the
#     edit dialog of the OSC group; --ascii escapes café too;
#   - --set 'PATH:limit=64M' on most names writes that group's
#     memory.limit_in_bytes (read back) and no other's, the output line and
#     the --audit-log line show the path escaped; a ".." or "." component is
#     refused (exit 2), nothing written;
#   - the ASan build (build/asan/memcgtop), when present: the same runs exit
#     0 with nothing on stderr.
#
# PASS:/FAIL: lines, the last "hostile: N passed, M failed"; exit 1 on any
# failure.  Without root or v1 the live part prints SKIP and the script
# exits 77 after part 1 (1 if part 1 failed; CI=true: FAIL).  The tmux
# server (private socket), the groups and the temp dir are removed on exit.
set -u
LC_ALL=C.UTF-8
export LC_ALL
export TZ=UTC
unset TMUX TMUX_PANE

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
ASAN=$top/build/asan/memcgtop
CHECK=$top/tests/hostile/check.py
CGM=/sys/fs/cgroup/memory
t0=$(date +%s.%N)

. "$top/tests/count.sh"
summary() {
	echo "hostile: $npass passed, $nfail failed ($(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s", b - a }'))"
	[ "$nfail" -eq 0 ]
}

. "$top/tests/lib/tmux.sh"
. "$top/tests/lib/cleanup.sh"
tmux_private -u hostile
TNAME=memcgtop-hostile-$$-$RANDOM
TROOT=$CGM/$TNAME
TMPD=
made_live=
cleanup() {
	[ -n "$made_live" ] || TROOT=
	clean_up "$TROOT"
}
trap_cleanup

abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

for tool in python3 tmux promtool; do
	command -v "$tool" >/dev/null 2>&1 || abort "$tool not installed"
done
[ -x "$MEMCGTOP" ] || abort "memcgtop binary $MEMCGTOP not found (run make)"
[ -x "$ASAN" ] && [ "$ASAN" != "$MEMCGTOP" ] || ASAN=
TMPD=$(mktemp -d /tmp/memcgtop-hostile.XXXXXX) || abort "mktemp failed"
chmod 755 "$TMPD"

SCREEN=
# box_prompt SESSION: the edit dialog's prompt, the line of its box after
# the rule under the knob list
box_prompt() { cap "$1" | sed -n '/^├/{n;p;q;}'; }

# py MODE ARGS...: runs the checker, counts its lines; its messages start
# with $LABEL
LABEL=
py() {
	local o=$TMPD/py.$RANDOM
	HOSTILE_LABEL=$LABEL HOSTILE_SET_WRITES_ONLY=${HOSTILE_SET_WRITES_ONLY:-} \
		python3 "$CHECK" "$@" >"$o" 2>&1 || grep -q '^FAIL' "$o" ||
		fail "check.py $1 failed: $(tail -n 3 "$o")"
	tally "$o"
}

# outputs LABEL LIST TOP ARGS...: each batch format of the tree at /TOP
outputs() {
	local label=$1 list=$2 t=$3 fmt o rc cols bin
	shift 3
	for fmt in text csv json openmetrics prometheus; do
		o=$TMPD/$label.$fmt
		cols=()
		[ "$fmt" = text ] && cols=(-c usage,path)
		"$MEMCGTOP" "$@" -b -n 1 -d 0.2 -F "$fmt" "${cols[@]}" "/$t" \
			>"$o" 2>"$o.err" </dev/null
		rc=$?
		if [ "$rc" = 0 ] && [ ! -s "$o.err" ]; then
			pass "$label $fmt: exit 0, stderr empty"
		else
			fail "$label $fmt: exit $rc, stderr: $(head -c 300 "$o.err")"
		fi
		LABEL=$label py "$fmt" "$o" "$list" "$t"
		if [ "$fmt" = prometheus ]; then
			if promtool check metrics <"$o" >"$o.prom" 2>&1; then
				pass "$label prometheus: promtool check metrics passes"
			else
				fail "$label prometheus: promtool check metrics: $(head -c 500 "$o.prom")"
			fi
		fi
		if [ -n "$ASAN" ]; then
			"$ASAN" "$@" -b -n 1 -d 0.2 -F "$fmt" "${cols[@]}" "/$t" \
				>"$o.asan" 2>"$o.asan.err" </dev/null
			rc=$?
			if [ "$rc" = 0 ] && [ ! -s "$o.asan.err" ]; then
				pass "$label $fmt (ASan+UBSan): exit 0, stderr empty"
			else
				fail "$label $fmt (ASan+UBSan): exit $rc, stderr: $(head -c 600 "$o.asan.err")"
			fi
		fi
	done
}

# screen LABEL LIST TOP ARGS...: the interactive screen on the tree
screen() {
	local label=$1 list=$2 t=$3 s raw ngroups osc_esc bad_esc l
	shift 3
	ngroups=$(( $(tr -cd '\0' <"$list" | wc -c) + 1 ))
	osc_esc="/$t/osc\\x1B]0;pwned\\x07end"
	bad_esc="/$t/bad\\xFF\\xFE"
	for mode in utf8 ascii; do
		s=$label-$mode
		raw=$TMPD/$s.raw
		: >"$raw"
		local extra=()
		[ "$mode" = ascii ] && extra=(--ascii)
		# The shell waits for pipe-pane before it starts memcgtop, so
		# every byte memcgtop writes is recorded.
		local cmd
		cmd="while [ ! -e $TMPD/$s.go ]; do sleep 0.05; done; cd $(printf %q "$top") || exit; env LANG=C.UTF-8 LC_ALL=C.UTF-8 XDG_CONFIG_HOME=$TMPD/cfg HOME=$TMPD $(printf '%q ' "$MEMCGTOP" "$@" "${extra[@]}" -d 0.5 "/$t"); echo EXIT=\$?; exec sleep 600"
		tm new-session -d -s "$s" -x 420 -y 60 "bash --norc --noprofile -c $(printf %q "$cmd")" ||
			{ fail "$s: tmux new-session failed"; continue; }
		tm pipe-pane -o -t "$s" "cat >> $(printf %q "$raw")"
		touch "$TMPD/$s.go"
		if ! wait_text "$s" "Groups: $ngroups shown" 20; then
			fail "$s: the screen never showed 'Groups: $ngroups shown'"
			printf '%s\n' "$SCREEN" | sed 's/^/    |/' | head -40
			tm kill-session -t "$s"
			continue
		fi
		sleep 0.6	# one more refresh: the rows of the second sample
		wait_text "$s" "Groups: $ngroups shown" 5
		cap "$s" >"$TMPD/$s.cap"
		if [ "$mode" = utf8 ]; then
			# detail pane of the OSC group, found by search
			tm send-keys -t "$s" /
			tm send-keys -t "$s" -l pwned
			tm send-keys -t "$s" Enter
			tm send-keys -t "$s" d
			if wait_text "$s" "Detail of $osc_esc" 5; then
				pass "$s: the detail pane's title shows $osc_esc"
			else
				fail "$s: the detail pane's title is not 'Detail of $osc_esc': $(grep -a 'Detail of' <<<"$SCREEN")"
			fi
			tm send-keys -t "$s" d
			tm send-keys -t "$s" e
			if wait_text "$s" "┌ Edit $osc_esc  (" 5; then
				pass "$s: the edit dialog's title shows $osc_esc"
			else
				fail "$s: the edit dialog's title is not 'Edit $osc_esc': $(head -n 1 <<<"$SCREEN")"
			fi
			tm send-keys -t "$s" Enter
			wait_text "$s" "limit of /$t/" 5
			l=$(box_prompt "$s")
			if [ "${l#"│ limit of $osc_esc (now "}" != "$l" ] && [ "${l: -2}" = " │" ]; then
				pass "$s: the edit prompt in the box shows $osc_esc"
			else
				fail "$s: the edit prompt in the box shows the name differently from the tree: '$l' (expected it to start '│ limit of $osc_esc (now' and end at the box's border)"
			fi
			tm send-keys -t "$s" Escape
			sleep 0.2
			tm send-keys -t "$s" Escape
			sleep 0.2
			tm send-keys -t "$s" /
			tm send-keys -t "$s" -l bad
			tm send-keys -t "$s" Enter
			tm send-keys -t "$s" e
			wait_text "$s" "┌ Edit $bad_esc  (" 5
			tm send-keys -t "$s" Enter
			wait_text "$s" "limit of /$t/" 5
			l=$(box_prompt "$s")
			if [ "${l#"│ limit of $bad_esc (now "}" != "$l" ] && [ "${l: -2}" = " │" ]; then
				pass "$s: the edit prompt in the box shows $bad_esc"
			else
				fail "$s: the edit prompt in the box shows the name differently from the tree: '$l' (expected it to start '│ limit of $bad_esc (now' and end at the box's border)"
			fi
			tm send-keys -t "$s" Escape
			sleep 0.2
			tm send-keys -t "$s" Escape
			sleep 0.2
		fi
		tm send-keys -t "$s" q
		if wait_text "$s" "EXIT=0" 10; then
			pass "$s: q quits, exit 0"
		else
			fail "$s: no EXIT=0 after q: $(grep -a EXIT= <<<"$SCREEN")"
		fi
		tm kill-session -t "$s"
		LABEL=$label
		if [ "$mode" = ascii ]; then
			py screen "$TMPD/$s.cap" "$raw" "$list" "$t" ascii
		else
			py screen "$TMPD/$s.cap" "$raw" "$list" "$t"
		fi
	done
}

# --set with the syslog of the host left alone: when /dev/log exists and we
# are root, memcgtop runs in a private mount namespace with an empty file
# over /dev/log (syslog() then drops the line; --audit-log keeps it).
if [ "$(id -u)" = 0 ] && [ -e /dev/log ] && command -v unshare >/dev/null; then
	: >"$TMPD/devlog"
	export HOSTILE_WRAP_SOCK=$TMPD/devlog
fi

# ---- part 1: a fixture ----------------------------------------------------------
TMPL=$top/tests/fixtures/edge-vanish/cg/0
FX=$TMPD/fx
mkdir -p "$FX/hostile" "$TMPD/cfg" || abort "mkdir $FX"
find "$TMPL" -maxdepth 1 -type f -exec cp {} "$FX/" \; &&
	find "$TMPL/a" -maxdepth 1 -type f -exec cp {} "$FX/hostile/" \; ||
	abort "copy of $TMPL"
LABEL=fixture py mk "$FX/hostile" "$TMPD/fx.list" "$TMPL/a"
outputs fixture "$TMPD/fx.list" hostile --root "$FX"
screen fixture "$TMPD/fx.list" hostile --root "$FX"
: >"$TMPD/fx.audit"
# a copy before the writes, for the ASan build's run of the same writes
cp -a "$FX" "$TMPD/fx-asan" || abort "cp -a $FX"
: >"$TMPD/fx.audit"
LABEL=fixture py set "$MEMCGTOP" "$FX" hostile "$TMPD/fx.list" \
	"$TMPD/fx.audit" --root "$FX"
if [ -n "$ASAN" ]; then
	: >"$TMPD/fx-asan.audit"
	# only the writes: what it prints is checked above for the same code
	HOSTILE_SET_WRITES_ONLY=1 LABEL="fixture (ASan+UBSan)" py set "$ASAN" "$TMPD/fx-asan" hostile \
		"$TMPD/fx.list" "$TMPD/fx-asan.audit" --root "$TMPD/fx-asan"
fi

# ---- part 2: live cgroup v1 -------------------------------------------------------
live_skip=
if [ "$(id -u)" != 0 ]; then
	live_skip="not root"
else
	mnt_ok=$(awk -v m="$CGM" '
		$5 == m {
			for (i = 7; i <= NF && $i != "-"; i++) ;
			if ($(i + 1) == "cgroup" && ("," $(i + 3) ",") ~ /,memory,/ &&
			    ("," $6 ",") ~ /,rw,/) ok = 1
		}
		END { print ok + 0 }' /proc/self/mountinfo)
	if [ "$mnt_ok" != 1 ] || [ ! -f "$CGM/memory.usage_in_bytes" ]; then
		live_skip="$CGM is not a read-write cgroup v1 memory mount"
	fi
fi
if [ -n "$live_skip" ]; then
	if [ "${CI:-}" = true ]; then
		fail "live part: $live_skip (CI=true: not skipping)"
		summary
		exit 1
	fi
	echo "SKIP: hostile live part: $live_skip"
	summary || exit 1
	exit 77
fi

mkdir "$TROOT" || abort "mkdir $TROOT"
made_live=1
LABEL=live py mk "$TROOT" "$TMPD/live.list"
outputs live "$TMPD/live.list" "$TNAME"
screen live "$TMPD/live.list" "$TNAME"
: >"$TMPD/live.audit"
LABEL=live py set "$MEMCGTOP" "$CGM" "$TNAME" "$TMPD/live.list" "$TMPD/live.audit"

# ---- cleanup and its verification --------------------------------------------------
cleanup
if [ ! -e "$TROOT" ] && [ ! -e "$TMPD" ] &&
	[ ! -e "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK" ]; then
	pass "cleanup: test groups, temp dir and tmux server gone"
else
	fail "cleanup: left behind: $([ -e "$TROOT" ] && echo "$TROOT ")$([ -e "$TMPD" ] && echo "$TMPD")"
fi
summary
