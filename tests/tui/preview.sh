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
# "memcgtop --follow 2 --audit-log FILE -d 60 /TREE" at 200x40; e on zq,
# Enter (limit), 32M, Enter: the confirmation shows, under the group's
# line, the preview as the man page's EDITING section gives it, its
# figures computed here from zq's memory.usage_in_bytes and memory.stat
# (no swap; reclaimable is the parts' sum, the dirty part among them):
#       preview: ebusy: reclaim can free FILE of the NEED needed: the write
#       fails with EBUSY and the limit stays
#       need NEED, reclaimable FILE, short NEED-FILE: inactive_file I,
#       active_file A, slab 0, dirty 0 after I/O, anon 0 to swap
# (each one line; sizes as the text output's, powers of 1024); then n
# cancels and the limit is not written.
# Then the follow-up (the man page's PREVIEW report), each figure set
# against what the test reads of zq itself before y and after the report:
#   fits   a limit halfway between anon and usage; y, then x and d at once
#          (the keys are not held up): the detail pane says "Last change:
#          limit (memory.limit_in_bytes) max -> LIMIT, following", then
#          "done" and the report line, exactly: usage before and after
#          (memory.usage_in_bytes, within 1 MiB), reclaimed (v1: usage
#          before - after, exactly, and the test's within 1 MiB),
#          predicted the preview's need, refaults and failcnt the rise of
#          memory.stat's workingset_refault_* and memory.failcnt, "fits,
#          as predicted"; the status line;
#   ebusy  a limit 16 MiB below anon; the result screen stays up: the
#          refusal, then "Followed 2s after the change:" and the report,
#          predicted the preview's reclaimable (the kernel's loop takes
#          all of it before EBUSY), "ebusy, as predicted; refused, limit
#          stays LIMIT", the limit file still LIMIT;
# and the audit log: each write's line, then its followup line.
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
	local u i a d w need file ia aa
	u=$(cat "$CGM$T/zq/memory.usage_in_bytes")
	i=$(st total_inactive_file) a=$(st total_active_file)
	d=$(( $(st total_dirty) + $(st total_writeback) ))
	# dirty cache counts from the inactive list first
	ia=$(( i > d ? i - d : 0 ))
	aa=$(( a - (d > i ? d - i : 0) ))
	# reclaimable: the parts' sum, the dirty part (slow) in it
	need=$(( u - (32 << 20) )) file=$(( ia + aa + d ))
	printf '      preview: ebusy: reclaim can free %s of the %s needed: the write fails with EBUSY and the limit stays\n' "$(h $file)" "$(h $need)"
	printf '      need %s, reclaimable %s, short %s: inactive_file %s, active_file %s, slab 0, dirty %s after I/O, anon 0 to swap\n' \
		"$(h $need)" "$(h $file)" "$(h $((need - file)))" "$(h $ia)" "$(h $aa)" "$(h $d)"
}

AUD=$TMPD/audit.log
cmd="cd / || exit; env TERM=xterm-256color LANG=C.UTF-8 HOME=$TMPD XDG_CONFIG_HOME=$TMPD $(printf '%q ' "$MEMCGTOP" --follow 2 --audit-log "$AUD" -d 60 "$T")"
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

# ---- the follow-up of a change -------------------------------------------
# What the test reads of zq itself, to set the report against.
usage() { cat "$CGM$T/zq/memory.usage_in_bytes"; }
refaults() { echo $(( $(st total_workingset_refault_file) + $(st total_workingset_refault_anon) )); }
failcnt() { cat "$CGM$T/zq/memory.failcnt"; }
TOL=$((1 << 20))	# usage read by memcgtop and by the test: within 1 MiB
near() { [ $(( $1 > $2 ? $1 - $2 : $2 - $1 )) -le $TOL ]; }
# limit VALUE: e on zq, Enter (limit), VALUE, Enter: the confirmation
limit() {
	tm send-keys -t s e
	screen_wait s "Edit $T/zq" 5 || abort "e: no pick screen: $SCREEN"
	tm send-keys -t s Enter
	screen_wait s "limit of $T/zq" 5 || abort "Enter: no prompt: $SCREEN"
	tm send-keys -t s -l -- "$1"
	tm send-keys -t s Enter
	screen_wait s '^Apply to 1 group' 5 || abort "no confirmation: $SCREEN"
	# the preview's figures, as the report compares with them
	pneed=$(sed -n 's/^      need \([^,]*\), reclaimable \([^,]*\),.*/\1/p' <<<"$SCREEN")
	prec=$(sed -n 's/^      need \([^,]*\), reclaimable \([^,]*\),.*/\2/p' <<<"$SCREEN")
}
# followup OUTCOME: the audit log's last line is the followup line of zq's
# limit, 2 s, predicted and observed OUTCOME; sets ub ua rec (its bytes)
followup() {
	local l re
	l=$(tail -n 1 "$AUD")
	re="^uid=0 group=$T/zq file=memory.limit_in_bytes followup=2s predicted=$1 observed=$1 usage_before=([0-9]+) usage_after=([0-9]+) reclaimed=([0-9]+) oom_kills=0 refaults=$2\$"
	if [[ $l =~ $re ]]; then
		ub=${BASH_REMATCH[1]} ua=${BASH_REMATCH[2]} rec=${BASH_REMATCH[3]}
		pass "$1: the audit log's followup line: predicted=$1 observed=$1, refaults=$2"
	else
		fail "$1: the audit log's last line is not the followup line (refaults=$2): $l"
		ub=0 ua=0 rec=0
	fi
}
# figures OUTCOME U0 U1: the report's bytes against the test's reads
# before y (U0) and after the report (U1): usage before and after within
# 1 MiB; reclaimed exactly before - after (v1 has no pgsteal in
# memory.stat), and the test's U0 - U1 within 1 MiB
figures() {
	if near "$ub" "$2" && near "$ua" "$3" && [ "$rec" = $((ub - ua)) ] &&
	   near "$rec" $(($2 - $3)); then
		pass "$1: usage $ub -> $ua, reclaimed $rec: zq's memory.usage_in_bytes $2 -> $3 (within 1 MiB)"
	else
		fail "$1: report usage $ub -> $ua, reclaimed $rec; zq's memory.usage_in_bytes $2 -> $3"
	fi
}
page=$(getconf PAGESIZE)
anon=$(st total_rss)

# fits: a limit halfway between anon and usage.  y, then a key at once:
# the tree comes back while the change is followed (the keys are not held
# up), d opens the detail pane, which says it follows, then the report.
u=$(usage)
lim=$(( (anon + (u - anon) / 2) / page * page ))
limit "$lim"
u0=$(usage) r0=$(refaults) f0=$(failcnt)
tm send-keys -t s y
screen_wait s '^Following the change 2s: the report comes here and in the detail pane \(d\)$' 5 &&
	pass "fits: y: the result says it follows the change 2s" ||
	fail "fits: no 'Following the change 2s' line under the result"
tm send-keys -t s x
screen_wait s 'USAGE' 3 && tm send-keys -t s d
wait_text s "Last change: limit (memory.limit_in_bytes) max -> $lim, following" 3 &&
	pass "fits: during the follow-up the keys work: x, d: the detail pane says it follows" ||
	fail "fits: the detail pane does not say 'Last change: ... following'"
screen_wait s '^  after 2s: ' 6 || fail "fits: no report in the detail pane after 2s"
u1=$(usage) r1=$(refaults) f1=$(failcnt)
followup fits $((r1 - r0))
figures fits "$u0" "$u1"
want="  after 2s: usage $(h $ub) -> $(h $ua), reclaimed $(h $rec) (usage fell by; predicted $pneed), OOM kills +0, refaults +$((r1 - r0)), failcnt +$((f1 - f0)): fits, as predicted"
got=$(grep -E '^  after 2s: ' <<<"$SCREEN")
[ "$got" = "$want" ] && grep -qxF "Last change: limit (memory.limit_in_bytes) max -> $lim, done" <<<"$SCREEN" &&
	pass "fits: the detail pane's report: $want" ||
	fail "fits: the detail pane's report is '$got', expected '$want'"
[ "$pneed" = "$(h $((u0 - lim)))" ] &&
	pass "fits: the predicted reclaim is the preview's need, usage - limit ($pneed)" ||
	fail "fits: predicted '$pneed', usage - limit $(h $((u0 - lim)))"
grep -qx "change limit followed 2s: 1 as predicted, 0 not" <<<"$SCREEN" &&
	pass "fits: the status line: change limit followed 2s: 1 as predicted, 0 not" ||
	fail "fits: no status line 'change limit followed 2s: 1 as predicted, 0 not'"
tm send-keys -t s d

# ebusy: a limit 16 MiB below anon.  The result screen stays up: the
# refusal, then the report under it, which says refused, the limit kept.
busy=$(( (anon - (16 << 20)) / page * page ))
limit "$busy"
u0=$(usage) r0=$(refaults) f0=$(failcnt)
tm send-keys -t s y
screen_wait s '^Followed 2s after the change:$' 30 || fail "ebusy: no report under the result"
u1=$(usage) r1=$(refaults) f1=$(failcnt)
followup ebusy $((r1 - r0))
figures ebusy "$u0" "$u1"
held=$(cat "$CGM$T/zq/memory.limit_in_bytes")
want="Changed limit (memory.limit_in_bytes)
  $T/zq: refused: Device or resource busy: the kernel could not reclaim the group down to the new limit and kept the old one
0 done, 1 refused; any key returns
Followed 2s after the change:
  $T/zq: after 2s: usage $(h $ub) -> $(h $ua), reclaimed $(h $rec) (usage fell by; predicted $prec), OOM kills +0, refaults +$((r1 - r0)), failcnt +$((f1 - f0)): ebusy, as predicted; refused, limit stays $lim"
# the screen's first lines, a line wider than the screen wrapped: the
# texts compared with their whitespace normalised
norm() { tr '\n' ' ' | tr -s ' ' | sed 's/ $//'; }
got=$(sed -n '1,/^$/p' <<<"$SCREEN")
[ "$(norm <<<"$got")" = "$(norm <<<"$want")" ] && [ "$held" = "$lim" ] &&
	pass "ebusy: the result and its report: refused, ebusy as predicted, the limit $lim kept" ||
	fail "ebusy: limit now $held; the screen's first lines
$got
  expected
$want"
grep -qx "change limit followed 2s: 1 as predicted, 0 not" <<<"$SCREEN" &&
	pass "ebusy: the status line: change limit followed 2s: 1 as predicted, 0 not" ||
	fail "ebusy: no status line 'change limit followed 2s: 1 as predicted, 0 not'"
# the audit log: each write, then its followup line
exp="uid=0 group=$T/zq file=memory.limit_in_bytes old=max new=$lim result=ok now=$lim
uid=0 group=$T/zq file=memory.limit_in_bytes old=$lim new=$busy result=EBUSY now=$lim"
[ "$(grep -v followup= "$AUD")" = "$exp" ] && [ "$(grep -c followup= "$AUD")" = 2 ] &&
	[ "$(sed -n '2p;4p' "$AUD" | grep -c followup=)" = 2 ] &&
	pass "the audit log: each write's line, then its followup line" ||
	fail "the audit log: $(cat "$AUD")"
tm send-keys -t s x
tm send-keys -t s q
tmux_stop
rm -rf "$DATA"
finish
summary
