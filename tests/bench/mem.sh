#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mem.sh [COUNT...] - peak RSS of the batch views, as MiB and as ratios
# measured in one run (make bench).  As root, on the v1 memory hierarchy.
#
# For each COUNT (default 8192 32768) it builds a tree of that many groups
# (tests/bench/tree.sh) and runs, once each, with -b -n 12 -d 0.05:
#   default   the v1 default columns
#   mission   usage, soft, excess, the four LRU lists, pgscan/s, pgsteal/s
#   json      -F json: every column
# with the BPF pass and with the files collector, and the same with
# --depth 0 (the start group alone: the process, its libraries and the
# loading of the BPF programs, no tree).  The figure is the peak resident
# set (/usr/bin/time %M: ru_maxrss).  It prints the pass's, the files'
# and the pass's with one group in MiB, and
#   bpf/files      the pass against the files, same view
#   bpf/1 group    the view against the same view of one group: what the
#                  tree costs over what start-up costs
# and the goals (issue 38) beside the views that have one.  No figure is
# judged.  One tree at a time: each is removed before the next is made.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
MEMCGTOP=${MEMCGTOP:-$HERE/../../memcgtop}
COUNTS=${*:-8192 32768}
NAME=memcgtop-mem-$$
BIN=$(mktemp)

cleanup() {
	for COUNT in $COUNTS; do
		"$HERE/tree.sh" destroy "$NAME-$COUNT" >/dev/null 2>&1 || true
	done
	rm -f "$BIN"
}
trap cleanup EXIT INT TERM

[ "$(id -u)" = 0 ] || { echo "mem.sh: SKIP: needs root"; exit 0; }
[ -d /sys/fs/cgroup/memory ] || { echo "mem.sh: SKIP: no v1 memory hierarchy"; exit 0; }
[ -x /usr/bin/time ] || { echo "mem.sh: SKIP: no /usr/bin/time (package time)"; exit 0; }
# One binary for the whole run: a rebuild meanwhile cannot mix two.
cp "$MEMCGTOP" "$BIN"
chmod +x "$BIN"

MISSION=path,usage,soft,excess,active_anon,inactive_anon,active_file,inactive_file,pgscan_per_s,pgsteal_per_s

# rss COLLECTOR ROOT ARGS...: the peak RSS in KiB of one run.
rss() {
	/usr/bin/time -f %M "$BIN" --collector "$1" -b -n 12 -d 0.05 \
		"${@:3}" "$2" 2>&1 >/dev/null | tail -1
}

# goal COUNT VIEW: issue 38's bound in MiB, or -.
goal() {
	case "$1 $2" in
	"8192 default") echo 14 ;;
	"8192 json") echo 20 ;;
	"32768 json") echo 48 ;;
	*) echo - ;;
	esac
}

echo "== peak RSS, -b -n 12 -d 0.05, v1 (MiB; ratios of KiB)"
printf "%-6s %-8s %8s %8s %11s %9s %11s %6s\n" groups view bpf files \
	"bpf 1 group" bpf/files "bpf/1 group" goal
for COUNT in $COUNTS; do
	root=/$NAME-$COUNT
	"$HERE/tree.sh" destroy "$NAME-$COUNT" >/dev/null 2>&1 || true
	"$HERE/tree.sh" create "$NAME-$COUNT" "$COUNT" >/dev/null
	for view in default mission json; do
		case $view in
		default) args=() ;;
		mission) args=(-c "$MISSION") ;;
		json) args=(-F json) ;;
		esac
		b=$(rss bpf "$root" "${args[@]}")
		f=$(rss files "$root" "${args[@]}")
		b1=$(rss bpf "$root" --depth 0 "${args[@]}")
		awk -v n="$COUNT" -v v="$view" -v b="$b" -v f="$f" -v b1="$b1" \
		    -v g="$(goal "$COUNT" "$view")" 'BEGIN {
			printf "%-6d %-8s %8.1f %8.1f %11.1f %9.2f %11.2f %6s\n",
			       n, v, b / 1024, f / 1024, b1 / 1024, b / f, b / b1, g }'
	done
	"$HERE/tree.sh" destroy "$NAME-$COUNT" >/dev/null
done
