#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# preview-v1.sh - live test of the preview of a change (--set --dry-run,
# -F json) and of the follow-up after it, on this host's cgroup v1 memory
# controller, without swap for the groups (memsw room or host swap none).
#
# Usage (as root):  tests/live/preview-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# A tree memcgtop-preview-PID-RANDOM with two groups:
#   g  memload anon 64 (64 MiB of anon) and 96 MiB of clean page cache (a
#      file written from inside the group with fsync)
#   d  a writer's 96 MiB of dirty cache (written without fsync: the host's
#      dirty_ratio, 20% of memory here, keeps it dirty for
#      dirty_expire_centisecs)
# Checks:
#   1. a limit halfway between anon and usage: the preview says fits, its
#      need is usage - limit, and the kernel then reclaims within 15% of
#      it (usage before - usage after, as v1 counts no pgsteal in its
#      files); the follow-up line says fits, as predicted, and the audit
#      log's followup line predicted=fits observed=fits;
#   2. a limit 16 MiB below anon: the preview says ebusy, --dry-run writes
#      nothing; the write is refused (exit 1), the limit stays, and the
#      line says the preview said ebusy, as predicted;
#   3. in d: the dirty cache is the preview's dirty part (slow), not in its
#      quick parts: dirty within 10% of total_dirty + total_writeback, and
#      quick + dirty the file lists' sum within 5%.
# Prints "preview-v1: N passed, M failed"; exit 0 when all pass, 77 skip.
NAME="preview v1"
CGM=${CGM:-/sys/fs/cgroup/memory}
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
live_tree_start preview
gcc -O2 -static -o "$TMPD/memload" "$top/tests/load/memload.c" ||
	abort "cannot build memload"
T=$CGM/$TNAME
mkdir -p "$T/g" "$T/d" || abort "cannot make $T"
# The test's own files on disk (not tmpfs: its pages would be shmem).
DATA=$(mktemp -d "$top/build/preview-data.XXXXXX") || abort "mktemp"
trap 'rm -rf "$DATA"; finish' EXIT

start_load "$T/g" "$TMPD/memload"
sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=1M \
	count=96 conv=fsync status=none' sh "$T/g" "$DATA/clean" ||
	abort "cannot write the clean file"

stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1/memory.stat"; }
# json EXPR FILE: a value of the --dry-run object (python3).
json() {
	python3 -c 'import json,sys
o = json.load(open(sys.argv[2]))["changes"][0]
print(eval(sys.argv[1], {"o": o}))' "$1" "$2"
}
page=$(getconf PAGESIZE)

# ---- 1. fits ----------------------------------------------------------------
usage=$(cat "$T/g/memory.usage_in_bytes")
anon=$(stat_of "$T/g" total_rss)
lim=$(( (anon + (usage - anon) / 2) / page * page ))
"$MEMCGTOP" --set "/$TNAME/g:limit=$lim" --dry-run -F json >"$TMPD/fits.json" \
	2>"$TMPD/fits.err"
rc=$?
out=$(json 'o["preview"]["outcome"]' "$TMPD/fits.json" 2>&1)
need=$(json 'o["preview"]["need"]' "$TMPD/fits.json" 2>&1)
held=$(cat "$T/g/memory.limit_in_bytes")
if [ $rc = 0 ] && [ "$out" = fits ] && [ "$need" -gt 0 ] &&
   [ "$held" -gt "$usage" ]; then
	pass "limit $lim between anon $anon and usage $usage: --dry-run says fits, need $need, nothing written"
else
	fail "fits --dry-run: exit $rc, outcome '$out', need '$need', limit now $held: $(head -c 300 "$TMPD/fits.json" "$TMPD/fits.err")"
fi
expect=$(( $(cat "$T/g/memory.usage_in_bytes") - lim ))
[ "$(( need - expect ))" -le $((4 << 20)) ] && [ "$(( expect - need ))" -le $((4 << 20)) ] &&
	pass "need $need is usage - limit ($expect now, within 4M of the moment before)" ||
	fail "need $need, usage - limit now $expect"
before=$(cat "$T/g/memory.usage_in_bytes")
"$MEMCGTOP" --set "/$TNAME/g:limit=$lim" --follow 2 --audit-log "$TMPD/audit.log" \
	>"$TMPD/fits.out" 2>"$TMPD/fits.err"
rc=$?
after=$(cat "$T/g/memory.usage_in_bytes")
got=$(( before - after ))
if [ $rc = 0 ] && [ "$got" -gt 0 ] &&
   [ $(( (need > got ? need - got : got - need) * 100 )) -le $(( got * 15 )) ]; then
	pass "the kernel reclaimed $got, the preview named $need (within 15%)"
else
	fail "reclaimed $got (usage $before -> $after), preview $need, exit $rc: $(cat "$TMPD/fits.out" "$TMPD/fits.err" | head -c 600)"
fi
grep -q "^/$TNAME/g: preview: fits: " "$TMPD/fits.out" &&
grep -q "^/$TNAME/g: after 2s: usage .*: fits, as predicted$" "$TMPD/fits.out" &&
	pass "--set prints the preview, then after 2s: fits, as predicted" ||
	fail "--set's lines: $(head -c 800 "$TMPD/fits.out")"
grep -q "group=/$TNAME/g file=memory.limit_in_bytes followup=2s predicted=fits observed=fits usage_before=[0-9]* usage_after=$after " "$TMPD/audit.log" &&
	pass "the audit log's followup line: predicted=fits observed=fits, usage_after $after" ||
	fail "audit log: $(cat "$TMPD/audit.log")"

# ---- 2. ebusy ---------------------------------------------------------------
held=$(cat "$T/g/memory.limit_in_bytes")
low=$(( (anon - (16 << 20)) / page * page ))
"$MEMCGTOP" --set "/$TNAME/g:limit=$low" --dry-run -F json >"$TMPD/busy.json" \
	2>"$TMPD/busy.err"
out=$(json 'o["preview"]["outcome"]' "$TMPD/busy.json" 2>&1)
short=$(json 'o["preview"]["short"]' "$TMPD/busy.json" 2>&1)
[ "$out" = ebusy ] && [ "$short" -ge $((16 << 20)) ] &&
[ "$(cat "$T/g/memory.limit_in_bytes")" = "$held" ] &&
	pass "limit $low below anon $anon: --dry-run says ebusy, short $short, limit kept" ||
	fail "ebusy --dry-run: outcome '$out', short '$short': $(head -c 300 "$TMPD/busy.json" "$TMPD/busy.err")"
"$MEMCGTOP" --set "/$TNAME/g:limit=$low" >"$TMPD/busy.out" 2>"$TMPD/busy.err"
rc=$?
if [ $rc = 1 ] && [ "$(cat "$T/g/memory.limit_in_bytes")" = "$held" ] &&
   grep -q "refused: Device or resource busy" "$TMPD/busy.out" &&
   grep -qx "/$TNAME/g: preview said ebusy: as predicted" "$TMPD/busy.out"; then
	pass "the write then fails with EBUSY (exit 1), the limit stays $held, as predicted"
else
	fail "ebusy write: exit $rc, limit $(cat "$T/g/memory.limit_in_bytes"): $(head -c 600 "$TMPD/busy.out")"
fi

# ---- 3. dirty is slow -------------------------------------------------------
sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=1M \
	count=96 status=none' sh "$T/d" "$DATA/dirty" || abort "cannot write the dirty file"
dirty=$(( $(stat_of "$T/d" total_dirty) + $(stat_of "$T/d" total_writeback) ))
lru=$(( $(stat_of "$T/d" total_inactive_file) + $(stat_of "$T/d" total_active_file) ))
"$MEMCGTOP" --set "/$TNAME/d:limit=16M" --dry-run -F json >"$TMPD/dirty.json" \
	2>"$TMPD/dirty.err"
pd=$(json 'o["preview"]["parts"]["dirty"]' "$TMPD/dirty.json" 2>&1)
quick=$(json 'o["preview"]["quick"]' "$TMPD/dirty.json" 2>&1)
slow=$(json 'o["preview"]["slow"]' "$TMPD/dirty.json" 2>&1)
if [ "$dirty" -ge $((64 << 20)) ] && [ "$pd" -gt 0 ] &&
   [ $(( (pd > dirty ? pd - dirty : dirty - pd) * 10 )) -le "$dirty" ] &&
   [ "$slow" -ge "$pd" ] &&
   [ $(( (quick + pd > lru ? quick + pd - lru : lru - quick - pd) * 20 )) -le "$lru" ]; then
	pass "dirty cache $dirty: the preview's dirty part $pd (slow $slow), quick $quick is the rest of the file lists ($lru)"
else
	fail "dirty: memory.stat dirty+writeback $dirty, lists $lru; preview dirty '$pd' quick '$quick' slow '$slow': $(head -c 400 "$TMPD/dirty.json" "$TMPD/dirty.err")"
fi
rm -rf "$DATA"
finish
summary
