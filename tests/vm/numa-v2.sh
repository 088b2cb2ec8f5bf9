#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/numa-v2.sh - the LRU lists per NUMA node in the BPF pass
# (src/bpf/memcg_iter.bpf.c read_nodes, src/source/cgfs_pass.c numa_*)
# against cgroup v2's memory.numa_stat, in the test VM with two NUMA nodes,
# on Debian 12's 6.1 kernel or on a Debian 7.x one (VM_KERNEL=7).
#
#   tests/vm/numa-v2.sh
#   VM_KERNEL=7 tests/vm/numa-v2.sh
#
# Environment:
#   VM_KERNEL        6.1 (default) or 7, as for tests/vm/vm.sh
#   MEMCGTOP         the memcgtop binary to test (default: ./memcgtop of
#                    this tree, made up to date)
#   NUMA_V2_TIMEOUT  the VM's timeout in seconds (default 300)
#   CI=true          an unusable host is a failure, not a skip
#
# The VM has two nodes of 512 MiB, CPU 0 on node 0 and CPU 1 on node 1
# (VM_QEMU_ARGS).  In the guest /sys/fs/cgroup/nu holds a (24 MiB of
# anonymous memory touched from CPU 0: node 0) and b, which holds c (24
# MiB touched from CPU 1: node 1) and d (reading a 16 MiB zram device from
# CPU 1: page cache on node 1).  The loads are stopped (SIGSTOP) once in
# place.  Then, once with the multi-gen LRU enabled and once with the
# classic LRU (where the kernel has /sys/kernel/mm/lru_gen; the phase the
# kernel lacks is INFO):
#   1  `memcgtop -VV /` says the pass reads the lists per node and which
#      kernel lists give the group's own: lrugen under the multi-gen LRU,
#      lru_zone_size under the classic one.
#   2  `memcgtop --collector bpf -b -F json -n 2 -d 1 -c path,numa /nu`,
#      bracketed by copies of every group's memory.numa_stat (again while
#      they differ, three times at most): in the last refresh, for every group (inner and leaf) and both nodes, the five
#      lists equal the file's (a value that moved between the copies is
#      left out, INFO), anon and file are their sums, and the group's own
#      lists (own_*) equal its file's lists less its children's; nothing
#      was said of reading memory.numa_stat (stderr empty: under
#      --collector bpf the pass gave them).
#   3  the memory is where it was put: a's own anon on node 0, c's on
#      node 1 (at least 16 MiB each), d's page cache on node 1 (at least
#      8 MiB: some of the device's pages may be elsewhere or not cached).
#
# Output: PASS/FAIL/INFO lines and "numa-v2: N passed, M failed"; SKIP
# (exit 77) without qemu or the kernel, unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=${NUMA_V2_TIMEOUT:-300}
# 512 MiB a node: with 256 MiB, Debian 7.3's node 1 had too little free
# for c's 24 MiB and d's cache, which then went to node 0 or were
# reclaimed (c 13-16 MiB on node 1, d's cache 0), and the lists moved
# while they were compared
export VM_MEM=1024M VM_SMP=2
export VM_QEMU_ARGS="-object memory-backend-ram,id=m0,size=512M,prealloc=on -object memory-backend-ram,id=m1,size=512M,prealloc=on -numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1"

NAME="numa v2"
. "$HERE/lib.sh"
vm_host_ready
vm_binary
vm_share numa-v2

{
	echo "MEMCGTOP=$bin"
	cat "$HERE/guest-lib.sh"
} > "$share/guest.sh"
cat >> "$share/guest.sh" <<'EOF'
T=$CG/nu
O=/tmp/o
mkdir -p $O
uname -r > $O/uname
ls -d /sys/devices/system/node/node* > $O/nodes 2>&1
numa() {
	for g in $T $T/a $T/b $T/b/c $T/b/d; do
		echo "== ${g#$CG}"
		cat $g/memory.numa_stat
	done > "$1"
}
w /sys/block/zram1/disksize 16M
w $CG/cgroup.subtree_control +memory
mkdir -p $T/a $T/b/c $T/b/d || fail "mkdir"
w $T/cgroup.subtree_control +memory
w $T/b/cgroup.subtree_control +memory
# CPU 0 (node 0) and CPU 1 (node 1): first touch places the pages
sh -c 'echo $$ > "$0/cgroup.procs" && exec taskset 1 memload anon 24' $T/a > /tmp/a.out 2>&1 &
la=$!
sh -c 'echo $$ > "$0/cgroup.procs" && exec taskset 2 memload anon 24' $T/b/c > /tmp/c.out 2>&1 &
lc=$!
sh -c 'echo $$ > "$0/cgroup.procs" && exec taskset 2 memload file /dev/zram1' $T/b/d > /tmp/d.out 2>&1 &
ld=$!
wait_for "a ready" 1200 grep -q ready /tmp/a.out
wait_for "c ready" 1200 grep -q ready /tmp/c.out
wait_for "d ready" 1200 grep -q ready /tmp/d.out
kill -STOP $la $lc $ld
for phase in y n; do
	if [ -e /sys/kernel/mm/lru_gen/enabled ]; then
		echo $phase > /sys/kernel/mm/lru_gen/enabled 2>/dev/null
		cat /sys/kernel/mm/lru_gen/enabled > $O/$phase.lru_gen
	else
		echo none > $O/$phase.lru_gen
	fi
	# at rest: the kernel's periodic flush has the statistics
	sleep 3
	$MEMCGTOP -VV / > $O/$phase.vv 2>&1
	# again while a list moved during the run (the kernel settles the
	# lists after lru_gen is switched), three times at most
	for try in 1 2 3; do
		numa $O/$phase.before
		$MEMCGTOP --collector bpf -b -F json -n 2 -d 1 -c path,numa /nu > $O/$phase.json 2> $O/$phase.err
		echo $? > $O/$phase.rc
		numa $O/$phase.after
		cmp -s $O/$phase.before $O/$phase.after && break
		echo "guest: $phase: memory.numa_stat moved during try $try"
		sleep 2
	done
done
kill -KILL $la $lc $ld
tar -cf /tmp/o.tar -C /tmp o && dd if=/tmp/o.tar of=$H/out/o.tar bs=1M 2>/dev/null ||
	fail "cannot archive the outputs into the share"
echo "GUEST-OK"
EOF

set +e
vm_guest_run "$share" "$TMO"
tar -xmf "$share/out/o.tar" -C "$share/out" || fail_early "cannot unpack the guest's outputs"
python3 "$HERE/numa_v2_check.py" "$share/out/o"
