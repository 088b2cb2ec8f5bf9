#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bpf-v1.sh - the BPF collector (src/bpf/bpfcol_*.c) against the cgroup v1 files
# on the live host, through its test tool build/default/bpfdump.
#
# Usage (as root):  tests/live/bpf-v1.sh
#   BPFDUMP   the tool to test (default: build/default/bpfdump)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# It makes /memcgtop-bpfv1-PID-N with limits, soft limits, memsw limits and
# swappiness, a 64 MiB anonymous load, a group whose limit page cache hit
# (failcnt > 0), hostile names (space, tab, backslash, UTF-8, "%n", a
# leading dash, 255 bytes), a deep chain and 150 more groups (more than the
# maps' first size, so the first walk grows them), then
#   - compares every record with the files (tests/bpf/compare.py): the same
#     groups (inode numbers), names, parents, levels, pre-order; limits,
#     soft limits, memsw limits and swappiness equal; usage, memsw usage,
#     kmem, failcnt, oom_kill and the peaks between the values two reads of each
#     file showed, one just before the walk and one just after; "max" where
#     the file shows PAGE_COUNTER_MAX; v2-only values "-";
#   - asked for the soft limit only (bpfdump -w soft, bpfcol_want), a walk
#     reads no memsw, kmem or swappiness; asked for the memsw usage only,
#     not the memsw limit or peak;
#   - makes, renames and removes a group and adds 300 more between walks of
#     one loaded program (bpfdump -r): each shows in the next walk; the
#     start group removed between walks ends it (exit 1, "gone");
#   - the v1 root: its usage file is not its page counter (INFO line) but
#     (nr_file_pages + nr_anon_pages) x page size from /proc/vmstat;
#   - every record again with the maps read through windows of one page
#     (MEMCGTOP_BPF_WIN=4096); a window the kernel will not map
#     (MEMCGTOP_BPF_FAIL=map): memcgtop --collector bpf exits 1 with the
#     reason, auto says it once and shows every group from the files;
#   - the verifier went through at most 100,000 instructions to load it;
#   - MEMCGTOP_BPF_FAIL=perm|btf|old|load and the user nobody: exit 1 with
#     the reason (load: the kernel's verifier really refuses);
#   - bpfdump killed with SIGKILL while loaded: its program, link and maps
#     (ids from /proc/PID/fdinfo, present before) are gone from bpftool's
#     view, and nothing is pinned in /sys/fs/bpf.
#
# PASS:/FAIL: lines, then "bpf-v1: N passed, M failed"; exit 1 on any
# failure.  Not root, or no writable v1 memory mount, or no bpftool or
# python3: "SKIP: ...", exit 77 (with CI=true: FAIL, exit 1).
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BPFDUMP=${BPFDUMP:-$top/build/default/bpfdump}
case $BPFDUMP in /*) ;; *) BPFDUMP=$top/$BPFDUMP ;; esac
CGM=/sys/fs/cgroup/memory
COMPARE=$top/tests/bpf/compare.py

NAME="bpf v1"
. "$here/lib.sh"
v1_host_ready
command -v python3 >/dev/null || cannot_run "no python3"
command -v bpftool >/dev/null || cannot_run "no bpftool"

T=memcgtop-bpfv1-$$-$RANDOM
TMPD=
pids=()
cleanup() { clean_up "$CGM/$T"; }
trap_cleanup
abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

TMPD=$(mktemp -d /tmp/memcgtop-bpfv1.XXXXXX) || abort "mktemp failed"
[ -x "$BPFDUMP" ] || abort "no bpfdump at $BPFDUMP (make $BPFDUMP)"
gcc -O2 -static -o "$TMPD/memload" "$top/tests/load/memload.c" ||
	abort "cannot build memload"

R=$CGM/$T
long=$(printf 'L%.0s' $(seq 255))
utf=$(printf '\xc3\xa9%.0s' $(seq 127))x
hostile=("sp ace" "$(printf 'ta\tb')" 'back\slash' "$utf" 'pct%s%n' -dash '*' "$long")
mkdir -p "$R/a/a1" "$R/tight" "$R/deep/d/d/d/d/d" "$R/many" || abort "cannot make $R"
for n in "${hostile[@]}"; do
	mkdir "$R/$n" || abort "cannot make a group named '$n'"
done
for i in $(seq 150); do
	mkdir "$R/many/m$i" || abort "cannot make $R/many/m$i"
done
# memsw.limit_in_bytes only after limit_in_bytes (it may not be lower).
echo 256M >"$R/a/memory.limit_in_bytes" &&
	echo 384M >"$R/a/memory.memsw.limit_in_bytes" &&
	echo 128M >"$R/a/memory.soft_limit_in_bytes" &&
	echo 17 >"$R/a/memory.swappiness" &&
	echo 64M >"$R/a/a1/memory.limit_in_bytes" &&
	echo 1G >"$R/memory.soft_limit_in_bytes" &&
	echo 16M >"$R/tight/memory.limit_in_bytes" &&
	echo 3 >"$R/$long/memory.swappiness" ||
	abort "cannot set the limits"
start_load "$R/a" "$TMPD/memload"
# 64 MiB of page cache through a 16M limit: reclaim, failcnt > 0.  dd ends
# before the walks, so the group holds still.
sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=1M count=64 2>/dev/null' \
	sh "$R/tight" "$TMPD/tight.file" || abort "dd in $R/tight failed"
[ "$(cat "$R/tight/memory.failcnt")" -gt 0 ] || abort "$R/tight: failcnt 0 after dd"

# 1. Every record against the files.
python3 "$COMPARE" compare "$CGM" "$R" "$BPFDUMP" >"$TMPD/cmp" 2>&1
tally "$TMPD/cmp"
"$BPFDUMP" -q "$R" >"$TMPD/q" 2>&1
n=$(find "$R" -type d | wc -l)
if grep -q "^# groups=$n capacity=" "$TMPD/q" &&
   [ "$(sed -n 's/.*capacity=\([0-9]*\).*/\1/p' "$TMPD/q")" -gt 64 ]; then
	pass "the maps grew past their first 64 groups to hold $n ($(cat "$TMPD/q"))"
else
	fail "capacity: $(cat "$TMPD/q"), $n directories"
fi
# The verifier's work on the iterator, far below the million instructions
# at which it refuses a program: Linux 6.18.44 refused it there while a
# group's record was inlined in the walk's step (about 20,000 since).
v=$(sed -n 's/.* verified=\([0-9]*\).*/\1/p' "$TMPD/q")
if [ -n "$v" ] && [ "$v" -gt 0 ] && [ "$v" -le 100000 ]; then
	pass "the verifier accepted the iterator in $v instructions (at most 100,000 of its 1,000,000)"
else
	fail "verified instructions '$v', not within 1..100,000: $(cat "$TMPD/q")"
fi
line=$("$BPFDUMP" "$R" | grep ' name=a$')
case $line in
*" max=268435456 "*" soft=134217728 "*" swap_max=402653184 "*" swappiness=17 "*)
	pass "group a: limit 256M, soft 128M, memsw 384M, swappiness 17 in bytes" ;;
*) fail "group a: $line" ;;
esac
# Asked for the soft limit only (as a refresh asks for what it shows), the
# walks after the load leave the memsw counter, kmem and swappiness
# unread; the memory counter always comes.
line=$("$BPFDUMP" -n 2 -w soft "$R" | grep ' name=a$')
case $line in
*" max=268435456 "*" soft=134217728 swap_usage=- swap_max=- swap_high=- kmem=- "*" swappiness=- "*)
	pass "-w soft: group a's limit and soft limit, no memsw, kmem or swappiness read" ;;
*) fail "-w soft: group a: $line" ;;
esac
# The memsw usage alone (the default view's swap) reads one line of the
# counter: its limit and peak stay unread (a holds its load: usage > 0).
line=$("$BPFDUMP" -n 2 -w swap_usage "$R" | grep ' name=a$')
case $line in
*" soft=- swap_usage="[1-9]*" swap_max=- swap_high=- kmem=- "*" swap_peak=- swappiness=- "*)
	pass "-w swap_usage: group a's memsw usage, not its limit or peak" ;;
*) fail "-w swap_usage: group a: $line" ;;
esac

# 1b. The maps read through windows of one page (MEMCGTOP_BPF_WIN): about
# 13 records a window, records and the 255-byte name across page edges;
# every record against the files again.
MEMCGTOP_BPF_WIN=4096 python3 "$COMPARE" compare "$CGM" "$R" "$BPFDUMP" 2>&1 |
	sed 's/^\(PASS\|FAIL\): /\1: one-page windows: /' >"$TMPD/cmpw"
tally "$TMPD/cmpw"
# A window the kernel will not map (MEMCGTOP_BPF_FAIL=map: none after the
# load): --collector bpf ends the run with the reason; auto says it once
# and shows every group from the files.
M=${MEMCGTOP:-$top/build/default/memcgtop}
case $M in /*) ;; *) M=$top/$M ;; esac
MEMCGTOP_BPF_WIN=4096 MEMCGTOP_BPF_FAIL=map "$M" --collector bpf -b -n 1 -c path "/$T" \
	>"$TMPD/mo" 2>"$TMPD/me"
st=$?
want="memcgtop: bpf collector: cannot map the records: Cannot allocate memory"
if [ "$st" = 1 ] && [ "$(cat "$TMPD/me")" = "$want" ] && [ ! -s "$TMPD/mo" ]; then
	pass "--collector bpf, a window not mapped: exit 1, '$want'"
else
	fail "--collector bpf, a window not mapped: exit $st, stderr '$(cat "$TMPD/me")', $(wc -l <"$TMPD/mo") lines out"
fi
MEMCGTOP_BPF_WIN=4096 MEMCGTOP_BPF_FAIL=map "$M" -b -n 1 -F csv -c path "/$T" \
	>"$TMPD/mo" 2>"$TMPD/me"
st=$?
want="memcgtop: bpf collector: cannot map the records: Cannot allocate memory; the files collector from now on"
rows=$(($(wc -l <"$TMPD/mo") - 1))
if [ "$st" = 0 ] && [ "$(cat "$TMPD/me")" = "$want" ] && [ "$rows" = "$n" ]; then
	pass "auto, a window not mapped: exit 0, said once, all $n groups from the files"
else
	fail "auto, a window not mapped: exit $st, stderr '$(cat "$TMPD/me")', $rows rows for $n groups"
fi

# 2. Churn between walks of one loaded program.
python3 "$COMPARE" churn "$CGM" "$R" "$BPFDUMP" >"$TMPD/churn" 2>&1
tally "$TMPD/churn"

# The start group removed between walks: exit 1, the start is gone.
mkdir "$R/gone" && mkfifo "$TMPD/gone.in" || abort "cannot make $R/gone"
"$BPFDUMP" -q -r "$R/gone" <"$TMPD/gone.in" >"$TMPD/out" 2>"$TMPD/err" &
gpid=$!
pids+=("$gpid")
exec 9>"$TMPD/gone.in"
for _ in $(seq 300); do
	grep -q '^# groups=' "$TMPD/out" && break
	kill -0 "$gpid" 2>/dev/null || break
	sleep 0.1
done
rmdir "$R/gone"
echo >&9
exec 9>&-
wait "$gpid"
rc=$?
if [ $rc = 1 ] && grep -q '^# groups=1 ' "$TMPD/out" &&
   [ "$(cat "$TMPD/err")" = "bpfdump: start: the start group is gone or not a memory cgroup" ]; then
	pass "the start group removed between walks: exit 1, the start group is gone"
else
	fail "start removed: exit $rc, $(cat "$TMPD/out" "$TMPD/err")"
fi
# A cgroup v1 directory of another controller's hierarchy: no memory cgroup.
other=$(awk '{
		for (i = 7; i <= NF && $i != "-"; i++) ;
		if ($(i + 1) == "cgroup" && ("," $(i + 3) ",") !~ /,memory,/) { print $5; exit }
	}' /proc/self/mountinfo)
if [ -n "$other" ]; then
	"$BPFDUMP" -q "$other" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	if [ $rc = 1 ] && [ "$(cat "$TMPD/err")" = "bpfdump: start: $other: not a memory cgroup" ]; then
		pass "a start in the v1 hierarchy of other controllers ($other): exit 1, not a memory cgroup"
	else
		fail "start $other: exit $rc, $(cat "$TMPD/out" "$TMPD/err")"
	fi
fi

# 3. The v1 root.
python3 "$COMPARE" root "$CGM" "$BPFDUMP" >"$TMPD/root" 2>&1
tally "$TMPD/root"

# 4. Why BPF is not available.
for f in perm btf old load; do
	MEMCGTOP_BPF_FAIL=$f "$BPFDUMP" -q "$R" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	if [ $rc = 1 ] && grep -q "^bpfdump: $f: " "$TMPD/err" && [ ! -s "$TMPD/out" ]; then
		pass "MEMCGTOP_BPF_FAIL=$f: exit 1, $(cat "$TMPD/err")"
	else
		fail "MEMCGTOP_BPF_FAIL=$f: exit $rc, $(cat "$TMPD/err" "$TMPD/out")"
	fi
done
if grep -q "refused the program (Permission denied): invalid read from stack" "$TMPD/err"; then
	pass "the load refusal names the verifier's complaint"
else
	fail "load refusal: $(cat "$TMPD/err")"
fi
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$BPFDUMP" -q "$R" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
if [ $rc = 1 ] && grep -q '^bpfdump: perm: not permitted' "$TMPD/err"; then
	pass "as nobody: exit 1, $(cat "$TMPD/err")"
else
	fail "as nobody: exit $rc, $(cat "$TMPD/err" "$TMPD/out")"
fi

# 5. Nothing left after SIGKILL.
pinned_before=$(find /sys/fs/bpf -mindepth 1 2>/dev/null | sort)
mkfifo "$TMPD/in" || abort "mkfifo failed"
"$BPFDUMP" -q -r "$R" <"$TMPD/in" >"$TMPD/k.out" 2>&1 &
kpid=$!
pids+=("$kpid")
exec 9>"$TMPD/in"
for _ in $(seq 100); do
	grep -q '^# groups=' "$TMPD/k.out" && break
	sleep 0.1
done
ids=$(cat /proc/$kpid/fdinfo/* 2>/dev/null |
	awk '$1 == "prog_id:" { print "prog", $2 } $1 == "link_id:" { print "link", $2 }
	     $1 == "map_id:" { print "map", $2 }' | sort -u)
shown=0 total=0
while read -r kind id; do
	[ -n "$kind" ] || continue
	total=$((total + 1))
	bpftool "$kind" show id "$id" >/dev/null 2>&1 && shown=$((shown + 1))
done <<<"$ids"
nprog=$(grep -c '^prog' <<<"$ids")
nlink=$(grep -c '^link' <<<"$ids")
if [ "$nprog" -ge 1 ] && [ "$nlink" -ge 1 ] && [ "$shown" = "$total" ]; then
	pass "while loaded: bpftool shows its $total objects ($(echo $ids))"
else
	fail "while loaded: $shown of $total objects shown ($(echo $ids); $(cat "$TMPD/k.out"))"
fi
kill -KILL "$kpid"
wait "$kpid" 2>/dev/null
exec 9>&-
# The kernel frees a link and what it holds from a workqueue: wait for it.
for _ in $(seq 100); do
	left=0
	while read -r kind id; do
		[ -n "$kind" ] || continue
		bpftool "$kind" show id "$id" >/dev/null 2>&1 && left=$((left + 1))
	done <<<"$ids"
	[ "$left" = 0 ] && break
	sleep 0.1
done
if [ "$total" -gt 0 ] && [ "$left" = 0 ]; then
	pass "after SIGKILL: none of the $total objects is left"
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
