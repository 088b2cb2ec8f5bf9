#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# preview.sh - the edit dialog's preview of a change, on this host's live
# cgroup v1 memory controller, driven in tmux (tests/lib/tmux.sh).
#
# Usage (as root):  tests/tui/preview.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# A tree memcgtop-tpreview-PID-RANDOM with one group zq: memload anon 64
# and 64 MiB of clean page cache (written from inside zq with fsync).
# "memcgtop -d 60 /TREE" at 200x40; e on zq, Enter (limit), 32M, Enter: the
# confirmation shows, under the group's line, the preview as the man
# page's EDITING section gives it, its figures computed here from zq's
# memory.usage_in_bytes and memory.stat (no swap):
#       preview: ebusy: reclaim can free FILE of the NEED needed: the write
#       fails with EBUSY and the limit stays
#       need NEED, reclaimable FILE, short NEED-FILE: inactive_file I,
#       active_file A, slab 0, dirty 0 after I/O, anon 0 to swap
# (each one line; sizes as the text output's, powers of 1024); then n
# cancels and the limit is not written.
NAME="tui preview"
CGM=${CGM:-/sys/fs/cgroup/memory}
. "$(dirname "$0")/../live/lib.sh"
. "$(dirname "$0")/../lib/tmux.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v tmux >/dev/null || cannot_run "no tmux"
live_tree_start tpreview
tmux_private -S "$TMPD/tmux.sock"
trap 'tmux_stop; rm -rf "$DATA"; finish' EXIT
gcc -O2 -static -o "$TMPD/memload" "$top/tests/load/memload.c" ||
	abort "cannot build memload"
T=/$TNAME
mkdir -p "$CGM$T/zq" || abort "cannot make $CGM$T/zq"
DATA=$(mktemp -d "$top/build/tpreview-data.XXXXXX") || abort "mktemp"
start_load "$CGM$T/zq" "$TMPD/memload"
sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=1M \
	count=64 conv=fsync status=none' sh "$CGM$T/zq" "$DATA/clean" ||
	abort "cannot write the clean file"

h() { human "$1" | tr -d ' ()'; }
st() { awk -v k="$1" '$1 == k { print $2 }' "$CGM$T/zq/memory.stat"; }
# The two preview lines as zq's files give them now.
expected() {
	local u i a d w need file ia
	u=$(cat "$CGM$T/zq/memory.usage_in_bytes")
	i=$(st total_inactive_file) a=$(st total_active_file)
	d=$(( $(st total_dirty) + $(st total_writeback) ))
	# dirty cache counts from the inactive list first
	ia=$(( i > d ? i - d : 0 ))
	need=$(( u - (32 << 20) )) file=$(( i + a - d ))
	printf '      preview: ebusy: reclaim can free %s of the %s needed: the write fails with EBUSY and the limit stays\n' "$(h $file)" "$(h $need)"
	printf '      need %s, reclaimable %s, short %s: inactive_file %s, active_file %s, slab 0, dirty %s after I/O, anon 0 to swap\n' \
		"$(h $need)" "$(h $file)" "$(h $((need - file)))" "$(h $ia)" "$(h $((a - (d > i ? d - i : 0))))" "$(h $d)"
}

cmd="cd / || exit; env TERM=xterm-256color LANG=C.UTF-8 HOME=$TMPD XDG_CONFIG_HOME=$TMPD $(printf '%q ' "$MEMCGTOP" -d 60 "$T")"
tm new-session -d -s s -x 200 -y 40 "bash --norc --noprofile -c $(printf %q "$cmd; exec cat")"
screen_wait s 'USAGE' 10 || abort "the screen did not start: $SCREEN"
tm send-keys -t s / && tm send-keys -t s -l -- "zq" && tm send-keys -t s Enter
sleep 0.5
tm send-keys -t s e
screen_wait s "Edit $T/zq" 5 || abort "e: no pick screen: $SCREEN"
tm send-keys -t s Enter
screen_wait s "limit of $T/zq" 5 || abort "Enter: no prompt: $SCREEN"
tm send-keys -t s -l -- 32M
tm send-keys -t s Enter
screen_wait s '^Apply to 1 group' 5 || abort "no confirmation: $SCREEN"
before=$(expected)
got=$(grep -E '^      (preview: |need )' <<<"$SCREEN")
after=$(expected)
if [ "$got" = "$before" ] || [ "$got" = "$after" ]; then
	pass "limit=32M below anon: the confirmation's preview lines are zq's figures (ebusy)"
else
	fail "the preview lines: got"
	printf '%s\n' "$got" | sed 's/^/    </'
	echo "  expected"
	printf '%s\n' "$after" | sed 's/^/    >/'
fi
grep -q "^  $T/zq: max -> 32.0M \[33554432\]$" <<<"$SCREEN" &&
	pass "the group's line above the preview" ||
	fail "no line '  $T/zq: max -> 32.0M [33554432]': $SCREEN"
tm send-keys -t s n
screen_wait s 'nothing changed' 5 && [ "$(cat "$CGM$T/zq/memory.limit_in_bytes")" -gt $((1 << 40)) ] &&
	pass "n cancels: the limit is not written" ||
	fail "n: limit $(cat "$CGM$T/zq/memory.limit_in_bytes")"
tm send-keys -t s q
tmux_stop
rm -rf "$DATA"
finish
summary
