#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# reclaim-v1.sh - the reclaim events (src/bpf/bpfev.c, src/bpf/reclaim.bpf.c;
# not yet behind memcgtop's refresh) on the live cgroup v1 host, through
# their test tool bpfevdump (tests/bpf/bpfevdump.c).
#
# Usage (as root):  tests/live/reclaim-v1.sh
#   BPFEVDUMP  the tool to test (default: build/default/bpfevdump)
#   CI=true    a host that cannot run the test is a failure, not a skip
#
# It makes /memcgtop-reclaim-PID-N with busy (a 16M limit), idle and
# busy's child leaf (where the load runs), then, with the programs attached,
# writes 200 MB of page cache in leaf with dd and checks:
#   - leaf counted PGSCAN and PGSTEAL pages > 0, steal/scan in [0,1], a
#     lowest priority 0-12 in the interval of the load, none ("-") in the
#     next one; idle has no entry (0) and its subtree sum is 0;
#   - the subtree sums: busy's and the top's equal leaf's (busy itself
#     reclaimed nothing of its own);
#   - /proc/vmstat: pgscan_anon + pgscan_file moved by as many pages as all
#     groups' PGSCAN together, bracketed by program reads just inside and
#     just outside the two vmstat reads (no tolerance: every shrink counts
#     both); the test's subtree is all of it when nothing else reclaimed
#     meanwhile (else an INFO line names the others' share);
#   - the shrink events (vmscan:mm_vmscan_lru_shrink_inactive): their
#     nr_scanned per priority sum to the PGSCAN pages, and at least 90% of
#     them follow a PGSTEAL of the same task on the same CPU (the order the
#     attribution relies on; the rest moved CPU while reclaiming);
#   - stats flushes: reading memory.stat in bpfevdump counts as its own, by
#     cat as not, and the group's own count rises; 300 more groups read by
#     cat each have an entry with its count (the map read in batches);
#   - MEMCGTOP_BPFEV_FAIL=perm|btf|old|load and the user nobody: exit 1
#     with the reason (load: the kernel's verifier really refuses);
#   - bpfevdump killed with SIGKILL: its programs, links and maps are gone
#     from bpftool's view, nothing pinned.
#
# PASS:/FAIL: lines, then "reclaim-v1: N passed, M failed"; exit 1 on a
# failure.  Not root, no writable v1 memory mount, no bpftool, or a kernel
# without the memcg tracepoints (before 6.13): "SKIP: ...", exit 77 (with
# CI=true: FAIL, exit 1).
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BPFEVDUMP=${BPFEVDUMP:-$top/build/default/bpfevdump}
case $BPFEVDUMP in /*) ;; *) BPFEVDUMP=$top/$BPFEVDUMP ;; esac
CGM=/sys/fs/cgroup/memory

NAME="reclaim v1"
. "$here/lib.sh"
v1_host_ready
command -v bpftool >/dev/null || cannot_run "no bpftool"

T=memcgtop-reclaim-$$-$RANDOM
R=$CGM/$T
TMPD=
pids=()
cleanup() {
	exec 9>&- 2>/dev/null
	clean_up "$R"
}
trap_cleanup
abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

TMPD=$(mktemp -d /tmp/memcgtop-reclaim.XXXXXX) || abort "mktemp failed"
[ -x "$BPFEVDUMP" ] || abort "no bpfevdump at $BPFEVDUMP (make $BPFEVDUMP)"
"$BPFEVDUMP" </dev/null >"$TMPD/probe" 2>&1
if grep -q '^bpfevdump: old: ' "$TMPD/probe"; then
	cannot_run "$(sed 's/^bpfevdump: old: //' "$TMPD/probe")"
fi
grep -q '^ready' "$TMPD/probe" || abort "bpfevdump: $(cat "$TMPD/probe")"

mkdir -p "$R/busy/leaf" "$R/idle" || abort "cannot make $R"
echo 16M >"$R/busy/memory.limit_in_bytes" || abort "cannot set busy's limit"
id_top=$(stat -c %i "$R")
id_busy=$(stat -c %i "$R/busy")
id_leaf=$(stat -c %i "$R/busy/leaf")
id_idle=$(stat -c %i "$R/idle")

# The tool, reading a report at each line on fd 9.
mkfifo "$TMPD/in" || abort "mkfifo failed"
"$BPFEVDUMP" -g "$id_top" -g "$id_busy" -g "$id_leaf" -g "$id_idle" -t "$R" \
	<"$TMPD/in" >"$TMPD/out" 2>&1 &
dpid=$!
pids+=("$dpid")
exec 9>"$TMPD/in"
nrep=0
# report FILE: asks for a report and waits for it whole into FILE.
report() {
	local i
	echo >&9
	nrep=$((nrep + 1))
	for i in $(seq 300); do
		[ "$(grep -c '^end$' "$TMPD/out")" -ge "$nrep" ] && break
		kill -0 "$dpid" 2>/dev/null || abort "bpfevdump died: $(cat "$TMPD/out")"
		sleep 0.05
	done
	awk -v n="$nrep" '$0 == "end" { k++; next } k == n - 1' "$TMPD/out" >"$1"
	[ -s "$1" ] || abort "no report $nrep: $(cat "$TMPD/out")"
}
for _ in $(seq 100); do
	grep -q '^ready' "$TMPD/out" && break
	sleep 0.05
done
grep -q '^ready' "$TMPD/out" || abort "bpfevdump not ready: $(cat "$TMPD/out")"

# field FILE KIND ID KEY: KEY= of the KIND (group/tree) line of ID; 0 when
# there is no line (a group the kernel never counted in).
field() {
	awk -v kind="$2" -v id="id=$3" -v key="$4" '
		$1 == kind && $2 == id {
			for (i = 3; i <= NF; i++) if (index($i, key "=") == 1) {
				print substr($i, length(key) + 2); found = 1; exit
			}
		}
		END { if (!found) print 0 }' "$1"
}
# scan/steal FILE KIND ID: the sum of the four PGSCAN (PGSTEAL) items.
sum_of() {
	awk -v kind="$2" -v id="id=$3" -v pre="$4" '
		$1 == kind && $2 == id {
			for (i = 3; i <= NF; i++) if (index($i, pre) == 1) {
				split($i, kv, "="); s += kv[2]
			}
		}
		END { printf "%.0f\n", s }' "$1"
}
scan() { sum_of "$1" "$2" "$3" scan_; }
steal() { sum_of "$1" "$2" "$3" steal_; }
all_scan() { awk '$1 == "all" { sub("scan=", "", $2); print $2 }' "$1"; }
sys_key() {
	awk -v key="$2" '$1 == "sys" { for (i = 2; i <= NF; i++) if (index($i, key "=") == 1) print substr($i, length(key) + 2) }' "$1"
}
vm_scan() { awk '$1 == "pgscan_anon" || $1 == "pgscan_file" { s += $2 } END { printf "%.0f\n", s }' /proc/vmstat; }

# 1. A group reclaiming at its limit.
report "$TMPD/ra"
va=$(vm_scan)
report "$TMPD/rb"
sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=1M count=200 2>/dev/null' \
	sh "$R/busy/leaf" "$TMPD/file" || abort "dd in $R/busy/leaf failed"
report "$TMPD/rc"
vb=$(vm_scan)
report "$TMPD/rd"
rm -f "$TMPD/file"

sc=$(( $(scan "$TMPD/rc" group "$id_leaf") - $(scan "$TMPD/rb" group "$id_leaf") ))
st=$(( $(steal "$TMPD/rc" group "$id_leaf") - $(steal "$TMPD/rb" group "$id_leaf") ))
if [ "$sc" -gt 0 ] && [ "$st" -gt 0 ] && [ "$st" -le "$sc" ]; then
	pass "leaf: 200 MB through 16M: pgscan $sc, pgsteal $st pages (steal/scan $(awk -v a="$st" -v b="$sc" 'BEGIN { printf "%.3f", a / b }'))"
else
	fail "leaf: pgscan $sc, pgsteal $st: $(grep "id=$id_leaf " "$TMPD/rc")"
fi
pm=$(field "$TMPD/rc" group "$id_leaf" prio_min)
pm_next=$(field "$TMPD/rd" group "$id_leaf" prio_min)
case $pm in
[0-9] | 1[0-2]) pass "leaf: lowest reclaim priority in the load's interval: $pm" ;;
*) fail "leaf: prio_min '$pm' in the load's interval" ;;
esac
if [ "$pm_next" = - ]; then
	pass "leaf: no priority in the next interval (no reclaim): -"
else
	fail "leaf: prio_min '$pm_next' in an interval without reclaim"
fi
if ! grep -q "^group id=$id_idle " "$TMPD/rd" &&
   [ "$(scan "$TMPD/rd" tree "$id_idle")" = 0 ] && [ "$(steal "$TMPD/rd" tree "$id_idle")" = 0 ] &&
   grep -q "^tree id=$id_idle .* path=./idle$" "$TMPD/rd"; then
	pass "idle sibling: no entry, pgscan and pgsteal 0"
else
	fail "idle: $(grep "id=$id_idle " "$TMPD/rd")"
fi
own_busy=$(scan "$TMPD/rd" group "$id_busy")
t_leaf=$(scan "$TMPD/rd" tree "$id_leaf")
t_busy=$(scan "$TMPD/rd" tree "$id_busy")
t_top=$(scan "$TMPD/rd" tree "$id_top")
tst_top=$(steal "$TMPD/rd" tree "$id_top")
if [ "$own_busy" = 0 ] && [ "$t_leaf" = "$(scan "$TMPD/rd" group "$id_leaf")" ] &&
   [ "$t_busy" = "$t_leaf" ] && [ "$t_top" = "$t_leaf" ] &&
   [ "$tst_top" = "$(steal "$TMPD/rd" group "$id_leaf")" ] && [ "$t_top" -gt 0 ]; then
	pass "subtree sums: top = busy = leaf = $t_top pages scanned, $tst_top stolen (busy's own: 0)"
else
	fail "subtree sums: top $t_top busy $t_busy leaf $t_leaf (busy's own $own_busy)"
fi

# 2. Against /proc/vmstat: rc-rb (inside the vmstat reads) <= vb-va <=
# rd-ra (outside them), all groups together.
in_all=$(( $(all_scan "$TMPD/rc") - $(all_scan "$TMPD/rb") ))
out_all=$(( $(all_scan "$TMPD/rd") - $(all_scan "$TMPD/ra") ))
dv=$((vb - va))
if [ "$in_all" -le "$dv" ] && [ "$dv" -le "$out_all" ] && [ "$dv" -ge "$sc" ]; then
	pass "/proc/vmstat pgscan_anon+pgscan_file moved $dv pages: all groups' PGSCAN $in_all (inside) to $out_all (outside)"
else
	fail "/proc/vmstat moved $dv pages, all groups' PGSCAN $in_all inside, $out_all outside"
fi
sub=$(( $(scan "$TMPD/rc" tree "$id_top") - $(scan "$TMPD/rb" tree "$id_top") ))
if [ "$in_all" = "$sub" ] && [ "$out_all" = "$sub" ]; then
	if [ "$dv" = "$sub" ]; then
		pass "the test's subtree scanned $sub pages, /proc/vmstat's delta exactly"
	else
		fail "subtree $sub pages, /proc/vmstat $dv, with no other group reclaiming"
	fi
else
	echo "INFO: other groups reclaimed meanwhile: $((out_all - sub)) pages at most"
	if [ "$sub" -le "$dv" ] && [ "$sub" = "$sc" ]; then
		pass "the test's subtree scanned $sub pages of /proc/vmstat's $dv (others: $((dv - sub)))"
	else
		fail "subtree $sub pages, leaf $sc, /proc/vmstat $dv"
	fi
fi

# 3. The shrink events: scanned per priority and their attribution.
prio_sum() { sys_key "$1" scanned | tr ',' '\n' | awk '{ s += $1 } END { printf "%.0f\n", s }'; }
d_prio=$(( $(prio_sum "$TMPD/rc") - $(prio_sum "$TMPD/rb") ))
if [ "$d_prio" = "$in_all" ]; then
	pass "nr_scanned per priority sums to all groups' PGSCAN: $d_prio pages ($(sys_key "$TMPD/rc" scanned))"
else
	fail "nr_scanned by priority $d_prio, PGSCAN $in_all"
fi
d_shr=$(( $(sys_key "$TMPD/rc" shrinks) - $(sys_key "$TMPD/rb" shrinks) ))
d_att=$(( $(sys_key "$TMPD/rc" attributed) - $(sys_key "$TMPD/rb" attributed) ))
d_ex=$(( $(sys_key "$TMPD/rc" exact) - $(sys_key "$TMPD/rb" exact) ))
if [ "$d_shr" -gt 0 ] && [ $((d_att * 10)) -ge $((d_shr * 9)) ]; then
	pass "shrink events: $d_att of $d_shr after the same task's PGSTEAL on the same CPU, $d_ex with its PGSCAN there too, both values equal"
else
	fail "shrink events: $d_att of $d_shr attributed ($d_ex exact)"
fi

# 4. Stats flushes: bpfevdump's own read, then cat's.
report "$TMPD/f0"
echo "stat $R/busy/memory.stat" >&9
report "$TMPD/f1"
cat "$R/busy/memory.stat" >/dev/null
report "$TMPD/f2"
d_own1=$(( $(sys_key "$TMPD/f1" own_flushes) - $(sys_key "$TMPD/f0" own_flushes) ))
d_all1=$(( $(sys_key "$TMPD/f1" flushes) - $(sys_key "$TMPD/f0" flushes) ))
d_own2=$(( $(sys_key "$TMPD/f2" own_flushes) - $(sys_key "$TMPD/f1" own_flushes) ))
d_all2=$(( $(sys_key "$TMPD/f2" flushes) - $(sys_key "$TMPD/f1" flushes) ))
g1=$(( $(field "$TMPD/f1" group "$id_busy" flushes) - $(field "$TMPD/f0" group "$id_busy" flushes) ))
g2=$(( $(field "$TMPD/f2" group "$id_busy" flushes) - $(field "$TMPD/f1" group "$id_busy" flushes) ))
if [ "$d_own1" -ge 1 ] && [ "$d_all1" -ge "$d_own1" ] && [ "$g1" -ge 1 ]; then
	pass "memory.stat read by the tool: $d_own1 own flush request(s), $d_all1 in all, busy's count +$g1"
else
	fail "memory.stat read by the tool: own +$d_own1, all +$d_all1, busy +$g1"
fi
if [ "$d_own2" = 0 ] && [ "$d_all2" -ge 1 ] && [ "$g2" -ge 1 ]; then
	pass "memory.stat read by cat: own +0, all +$d_all2, busy's count +$g2"
else
	fail "memory.stat read by cat: own +$d_own2, all +$d_all2, busy +$g2"
fi

# 4b. 300 groups' memory.stat read by cat: each has an entry, with its
# flush count, in one read of the map (more than one batch of 256).
mkdir "$R/many" && for i in $(seq 300); do mkdir "$R/many/m$i" || break; done
[ -d "$R/many/m300" ] || abort "cannot make $R/many/m1..300"
mkfifo "$TMPD/in2" || abort "mkfifo failed"
"$BPFEVDUMP" <"$TMPD/in2" >"$TMPD/out2" 2>&1 &
d2=$!
pids+=("$d2")
exec 8>"$TMPD/in2"
for _ in $(seq 100); do
	grep -q '^ready' "$TMPD/out2" && break
	sleep 0.05
done
for i in $(seq 300); do
	cat "$R/many/m$i/memory.stat" >/dev/null
done
echo >&8
for _ in $(seq 300); do
	grep -q '^end$' "$TMPD/out2" && break
	sleep 0.05
done
exec 8>&-
wait "$d2"
for i in $(seq 300); do
	stat -c 'id=%i' "$R/many/m$i"
done | sort >"$TMPD/want"
awk '$1 == "group" && $NF ~ /^flushes=[1-9]/ { print $2 }' "$TMPD/out2" | sort >"$TMPD/got"
ngot=$(grep -c '^group ' "$TMPD/out2")
missing=$(comm -23 "$TMPD/want" "$TMPD/got" | wc -l)
if [ "$missing" = 0 ] && [ "$ngot" -ge 300 ]; then
	pass "300 groups read by cat: each has its entry with flushes >= 1 ($ngot entries read)"
else
	fail "300 groups read by cat: $missing without a flush count, $ngot entries: $(head -c 300 "$TMPD/out2")"
fi

# 5. Why the events are not available.
for f in perm btf old load; do
	MEMCGTOP_BPFEV_FAIL=$f "$BPFEVDUMP" </dev/null >"$TMPD/o" 2>"$TMPD/e"
	rc=$?
	if [ $rc = 1 ] && grep -q "^bpfevdump: $f: " "$TMPD/e" && [ ! -s "$TMPD/o" ]; then
		pass "MEMCGTOP_BPFEV_FAIL=$f: exit 1, $(cat "$TMPD/e")"
	else
		fail "MEMCGTOP_BPFEV_FAIL=$f: exit $rc, $(cat "$TMPD/e" "$TMPD/o")"
	fi
done
if grep -q "refused the program (Permission denied): invalid read from stack" "$TMPD/e"; then
	pass "the load refusal names the verifier's complaint"
else
	fail "load refusal: $(cat "$TMPD/e")"
fi
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$BPFEVDUMP" </dev/null >"$TMPD/o" 2>"$TMPD/e"
rc=$?
if [ $rc = 1 ] && [ "$(cat "$TMPD/e")" = "bpfevdump: perm: not permitted: needs root (CAP_BPF and CAP_PERFMON)" ]; then
	pass "as nobody: exit 1, $(cat "$TMPD/e")"
else
	fail "as nobody: exit $rc, $(cat "$TMPD/e" "$TMPD/o")"
fi

# 6. Nothing left after SIGKILL.
pinned_before=$(find /sys/fs/bpf -mindepth 1 2>/dev/null | sort)
ids=$(cat /proc/$dpid/fdinfo/* 2>/dev/null |
	awk '$1 == "prog_id:" { print "prog", $2 } $1 == "link_id:" { print "link", $2 }
	     $1 == "map_id:" { print "map", $2 }' | sort -u)
progs=$(bpftool prog list 2>/dev/null | awk -F': ' '/^[0-9]+:/ { print $1 }' | sort -n)
shown=0 total=0
while read -r kind id; do
	[ -n "$kind" ] || continue
	total=$((total + 1))
	bpftool "$kind" show id "$id" >/dev/null 2>&1 && shown=$((shown + 1))
done <<<"$ids"
nprog=$(grep -c '^prog' <<<"$ids")
nlink=$(grep -c '^link' <<<"$ids")
# 3 programs, 4 more for the reclaim stalls where the kernel has the
# vmscan direct and memcg reclaim begin/end tracepoints, and 2 for
# soft-limit reclaim where it has the softlimit_reclaim begin/end ones.
want=3
[ "$(perf list 2>/dev/null | grep -cE 'vmscan:mm_vmscan_(memcg|direct)_reclaim_(begin|end) ')" = 4 ] && want=$((want + 4))
[ "$(perf list 2>/dev/null | grep -cE 'vmscan:mm_vmscan_memcg_softlimit_reclaim_(begin|end) ')" = 2 ] && want=$((want + 2))
if [ "$nprog" = $want ] && [ "$nlink" = $want ] && [ "$shown" = "$total" ]; then
	pass "while loaded: bpftool shows its $want programs, $want links and $((total - 2 * want)) maps"
else
	fail "while loaded: $shown of $total objects shown ($(echo $ids))"
fi
kill -KILL "$dpid"
wait "$dpid" 2>/dev/null
exec 9>&-
for _ in $(seq 100); do
	left=0
	while read -r kind id; do
		[ -n "$kind" ] || continue
		bpftool "$kind" show id "$id" >/dev/null 2>&1 && left=$((left + 1))
	done <<<"$ids"
	[ "$left" = 0 ] && break
	sleep 0.1
done
gone=$(comm -23 <(echo "$progs") <(bpftool prog list 2>/dev/null | awk -F': ' '/^[0-9]+:/ { print $1 }' | sort -n) | wc -l)
if [ "$total" -gt 0 ] && [ "$left" = 0 ]; then
	pass "after SIGKILL: none of the $total objects is left (bpftool prog list: $gone fewer)"
else
	fail "after SIGKILL: $left of $total objects left"
fi
if [ "$(find /sys/fs/bpf -mindepth 1 2>/dev/null | sort)" = "$pinned_before" ]; then
	pass "nothing pinned in /sys/fs/bpf"
else
	fail "/sys/fs/bpf changed: $(find /sys/fs/bpf -mindepth 1)"
fi

cleanup
if [ -e "$R" ]; then
	fail "cleanup: $R still there"
else
	pass "cleanup: the test tree is gone"
fi
summary
