#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/bpf-v2.sh - the BPF collector (src/bpf/bpfcol_*.c, through its test
# tool bpfdump) against the cgroup v2 files, in the test VM, on Debian 12's
# 6.1 kernel or on a Debian 7.x one (VM_KERNEL=7): the same bpfdump binary,
# with the same embedded BPF object, on both kernels (CO-RE).
#
#   tests/vm/bpf-v2.sh
#   VM_KERNEL=7 tests/vm/bpf-v2.sh
#
# Environment:
#   VM_KERNEL          6.1 (default) or 7, as for tests/vm/vm.sh
#   BPFDUMP            the tool (default build/default/bpfdump, made if
#                      missing)
#   MEMCGTOP           the memcgtop binary put into the guest beside it
#   BPF_V2_TIMEOUT     the VM's timeout in seconds (default 240)
#   CI=true            an unusable host is a failure, not a skip
#
# In the guest, /sys/fs/cgroup/bv holds: a (memory.max 200M, high 150M,
# low 20M, min 10M, swap.max 64M, swap.high 48M) with a1 (max 64M) and a2
# (oom.group 1); load with h (memory.high 16M) and m (memory.max 16M,
# swap.max 16M), each running 24 MiB of anonymous memory, so that their
# memory.events high and max and their swap move; a chain d/d/d/d/d; 30 groups below many; and groups with hostile
# names (space, tab, backslash, 255 bytes of UTF-8, "%n", a leading dash,
# "*", 255 bytes).  Each comparison is one "bracket": every file of the
# tree is copied (cp -a, one process), bpfdump walks, the files are copied
# again (tests/vm/bpf_v2_check.py then compares on the host):
#   A  load stopped (SIGSTOP): the same groups (inode numbers), names,
#      parents, levels, pre-order; every value the files show equal to
#      bpfdump's, "max" where the file says max, "-" where the group has
#      no such file (and for the v1-only values); a value that moved
#      between the two copies must lie between them;
#   B  load running: the same, with usage and swap usage of the loaded
#      group and its ancestors (which move up and down) left out; the
#      monotone counters (events, peaks) between the two copies;
#   R  bpfdump from the v2 root: the root's record has no values ("-"),
#      and the walk holds every group that has memory files;
#   S  memcgtop -b -F json inside a group of memory.max 8M: --collector
#      bpf exits 1 saying the group has too little room for the load, auto
#      gives the tree with the files collector, and no OOM kill.
#
# Output: PASS/FAIL lines and "bpf-v2: N passed, M failed"; SKIP (exit 77)
# without qemu or the kernel, unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=${BPF_V2_TIMEOUT:-240}

NAME="bpf v2"
. "$HERE/lib.sh"
vm_host_ready
vm_binary
kver=$(cat "$BUILD/kernel.version")

vm_tool BPFDUMP bpfdump
vm_share bpf-v2

{
	echo "MEMCGTOP=$bin"
	echo "BPFDUMP=$BPFDUMP"
	echo "JSON_COLUMNS=$(python3 "$HERE/bpf_v2_check.py" --columns)"
	cat "$HERE/guest-lib.sh"
} > "$share/guest.sh"
cat >> "$share/guest.sh" <<'EOF'
T=$CG/bv
uname -r > $H/out/uname
[ -r /sys/kernel/btf/vmlinux ] || fail "no /sys/kernel/btf/vmlinux"
w $CG/cgroup.subtree_control +memory
long=$(printf 'L%.0s' $(seq 255))
utf=$(printf '\303\251%.0s' $(seq 127))x
mkdir -p $T/a/a1 $T/a/a2 $T/load/h $T/load/m $T/d/d/d/d/d $T/many || fail "mkdir"
for n in "sp ace" "$(printf 'ta\tb')" 'back\slash' "$utf" 'pct%s%n' -dash '*' "$long"; do
	mkdir "$T/$n" || fail "mkdir '$n'"
done
for i in $(seq 30); do mkdir $T/many/m$i || fail "mkdir many/m$i"; done
for g in $T $T/a $T/load $T/d $T/d/d $T/d/d/d $T/d/d/d/d $T/many; do
	w $g/cgroup.subtree_control +memory
done
w $T/a/memory.max 200M
w $T/a/memory.high 150M
w $T/a/memory.low 20M
w $T/a/memory.min 10M
w $T/a/memory.swap.max 64M
w $T/a/memory.swap.high 48M
w $T/a/a1/memory.max 64M
w $T/a/a2/memory.oom.group 1
w $T/load/h/memory.high 16M
w $T/load/m/memory.max 16M
w $T/load/m/memory.swap.max 16M
w "$T/$long/memory.low" 4M

# 24 MiB of anon through high 16M in h, through max 16M in m
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload anon 24' $T/load/h > /tmp/h.out 2>&1 &
lh=$!
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload anon 24' $T/load/m > /tmp/m.out 2>&1 &
lm=$!
load="$lh $lm"
wait_for "the loads ready" 600 grep -q ready /tmp/h.out /tmp/m.out
wait_for "memory.events high > 0 in load/h" 300 sh -c "! grep -q '^high 0$' $T/load/h/memory.events"
wait_for "memory.events max > 0 in load/m" 300 sh -c "! grep -q '^max 0$' $T/load/m/memory.events"

# A: the load stopped
kill -STOP $load
sleep 1
bracket A $T $BPFDUMP $T
bracket M $T $MEMCGTOP -b -F json -n 1 --collector files -c "$JSON_COLUMNS" /bv
bracket MB $T $MEMCGTOP -b -F json -n 1 --collector bpf -c "$JSON_COLUMNS" /bv
# B: the load running
kill -CONT $load
sleep 1
bracket B $T $BPFDUMP $T
kill $load
wait $load 2>/dev/null
# R: from the v2 root
bracket R $T $BPFDUMP $CG
# S: memcgtop inside a group of 8 MiB (memory.max), where the BPF load
# (the kernel's BTF held twice while parsed) does not fit
mkdir $CG/small || fail "mkdir small"
w $CG/small/memory.max 8M
for c in bpf auto; do
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' $CG/small \
		$MEMCGTOP -b -F json -n 1 --collector $c /bv > $H/out/small-$c.out 2> $H/out/small-$c.err
	echo $? > $H/out/small-$c.rc
done
cat $CG/small/memory.events > $H/out/small.events
rmdir $CG/small
save_brackets
echo "GUEST-OK"
EOF

set +e
vm_guest_run "$share" "$TMO" "$BPFDUMP"
tar -xf "$share/out/br.tar" -C "$share/out" || fail_early "cannot unpack the guest's brackets"
# S: the small group's runs (PASS/FAIL lines of their own)
o=$share/out
re="^memcgtop: bpf collector: the memory cgroup /sys/fs/cgroup/small has [0-9.]+ MiB free; loading the program takes about [0-9.]+ MiB\$"
if [ "$(cat "$o/small-bpf.rc" 2>/dev/null)" = 1 ] && [[ $(cat "$o/small-bpf.err") =~ $re ]]; then
	echo "PASS: S: 8 MiB memory.max, --collector bpf: exit 1, '$(cat "$o/small-bpf.err")'"
else
	echo "FAIL: S: 8 MiB memory.max, --collector bpf: exit $(cat "$o/small-bpf.rc" 2>/dev/null), '$(cat "$o/small-bpf.err" 2>/dev/null)'"
fi
if [ "$(cat "$o/small-auto.rc" 2>/dev/null)" = 0 ] && [ ! -s "$o/small-auto.err" ] &&
   python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not (d["collector"] == "files" and len(d["groups"]) > 40))' "$o/small-auto.out"; then
	echo "PASS: S: 8 MiB memory.max, auto: exit 0, the files collector, the tree"
else
	echo "FAIL: S: 8 MiB memory.max, auto: exit $(cat "$o/small-auto.rc" 2>/dev/null), stderr '$(cat "$o/small-auto.err" 2>/dev/null)'"
fi
if grep -q '^oom_kill 0$' "$o/small.events" 2>/dev/null; then
	echo "PASS: S: no OOM kill in the 8 MiB group"
else
	echo "FAIL: S: the 8 MiB group's memory.events: $(tr '\n' ' ' < "$o/small.events" 2>/dev/null)"
fi
python3 "$HERE/bpf_v2_check.py" "$share/out" "$BPFDUMP" "$kver"
