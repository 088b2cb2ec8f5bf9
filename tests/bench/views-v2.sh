#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# views-v2.sh - the mission view's cost with each collector on cgroup v2,
# as ratios measured in one run, in the test VM (make bench; the host has
# no v2 memory controller).  On Debian 12's 6.1 kernel or on a Debian 7.x
# one (VM_KERNEL=7, the default here: the BPF pass reads memory.stat's
# values through the kernel's memcg kfuncs there).
#
# In the guest, /sys/fs/cgroup/vb holds about COUNT groups (2,048: 8
# groups of 16 of 15 leaves, three levels, 2,057 with vb), one process in
# a leaf touching 8 MiB.  REPS rounds (default 3); a round runs each view
# with both collectors, alternately: `-b -F json -d 0.05`, its CPU (user +
# sys, /proc/PID/stat) read after its third refresh and after its 13th:
# CPU per refresh without the start-up (the program's load and BTF parse
# take seconds under TCG, and vary more than a refresh costs).  Views:
#   default   the v2 overview's columns (what -b shows without -c)
#   mission   usage, soft, excess, the four LRU lists, pgscan/s, pgsteal/s
# It prints the medians and, per view, bpf / files and bpf / default(bpf).
# The guest runs under TCG (no accelerator): absolute times are many times
# the host's; the ratios are what it measures.  No figure is judged.
#
#   VM_KERNEL  7 (default) or 6.1, as for tests/vm/vm.sh
#   COUNT      groups (a multiple of 128; default 2048)
#   REPS       rounds (default 3)
#   MEMCGTOP   the binary (default: ./memcgtop of this tree)
set -u
HERE=$(cd "$(dirname "$0")/../vm" && pwd)
export VM_KERNEL=${VM_KERNEL:-7}
COUNT=${COUNT:-2048}
REPS=${REPS:-3}
[ $((COUNT % 128)) = 0 ] || { echo "views-v2.sh: COUNT must be a multiple of 128" >&2; exit 2; }

NAME="views v2"
. "$HERE/lib.sh"
[ "$(id -u)" = 0 ] || { echo "views-v2.sh: SKIP: needs root"; exit 0; }
vm_host_ready
vm_binary
vm_share views-v2

{
	echo "MEMCGTOP=$bin"
	echo "COUNT=$COUNT"
	echo "REPS=$REPS"
	cat "$HERE/guest-lib.sh"
} > "$share/guest.sh"
cat >> "$share/guest.sh" <<'EOF'
T=$CG/vb
O=$H/out
uname -r > $O/uname
w $CG/cgroup.subtree_control +memory
mkdir $T || fail "mkdir $T"
w $T/cgroup.subtree_control +memory
top=$((COUNT / 256))
i=0
while [ $i -lt $top ]; do
	mkdir $T/a$i || fail "mkdir a$i"
	w $T/a$i/cgroup.subtree_control +memory
	j=0
	while [ $j -lt 16 ]; do
		mkdir $T/a$i/b$j || fail "mkdir b$j"
		w $T/a$i/b$j/cgroup.subtree_control +memory
		k=0
		while [ $k -lt 15 ]; do
			mkdir $T/a$i/b$j/c$k || fail "mkdir c$k"
			k=$((k + 1))
		done
		j=$((j + 1))
	done
	i=$((i + 1))
done
n=$(find $T -type d | wc -l)
echo "groups $n" > $O/groups
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload anon 8' $T/a0/b0/c0 > /tmp/l.out 2>&1 &
ll=$!
wait_for "the load" 600 grep -q ready /tmp/l.out
MISSION=path,usage,soft,excess,active_anon,inactive_anon,active_file,inactive_file,pgscan_per_s,pgsteal_per_s
# the v2 overview's columns (-F json without -c prints every column)
OVERVIEW=path,usage,limit,low,excess,use_pct,swap,pgscan_per_s,pgsteal_per_s
# the process's user + sys clock ticks (/proc/PID/stat fields 14 and 15)
ticks() { awk '{ print $14 + $15 }' /proc/$1/stat; }
lines() { n=$(wc -l < /tmp/run.json); n=$((n + 0)); }
# VIEW COLLECTOR: the CPU ticks of refreshes 3 to 13 of one run (start-up
# and the first refreshes left out), as "ticks refreshes"
run() {
	if [ $1 = default ]; then
		set -- $2 -c $OVERVIEW
	else
		set -- $2 -c $MISSION
	fi
	$MEMCGTOP --collector "$@" -b -F json -n 1000 -d 0.05 /vb > /tmp/run.json 2>> $O/err &
	mp=$!
	i=0
	lines
	while [ $n -lt 3 ] && [ $i -lt 6000 ]; do sleep 0.02; i=$((i + 1)); lines; done
	a=$(ticks $mp) na=$n
	while [ $n -lt 13 ] && [ $i -lt 12000 ]; do sleep 0.02; i=$((i + 1)); lines; done
	b=$(ticks $mp) nb=$n
	kill $mp
	wait $mp 2>/dev/null
	echo "$((b - a)) $((nb - na))"
}
$MEMCGTOP -b -n 1 /vb > /dev/null 2>> $O/err
r=1
while [ $r -le $REPS ]; do
	for v in default mission; do
		for c in bpf files; do
			echo "$r $v $c $(run $v $c)" >> $O/times
		done
	done
	r=$((r + 1))
done
$MEMCGTOP -VV / 2>&1 | grep '^memory.stat' > $O/vv
kill -9 $ll
echo "GUEST-OK"
EOF

vm_guest_run "$share" $((600 + COUNT / 2 * REPS))
python3 - "$share/out" "$COUNT" <<'PY'
import os, statistics, sys
out, count = sys.argv[1], int(sys.argv[2])
rd = lambda n: open(os.path.join(out, n)).read() if os.path.exists(os.path.join(out, n)) else ""
per = {}
for line in rd("times").splitlines():
    f = line.split()
    # ROUND VIEW COLLECTOR TICKS REFRESHES (clock ticks of 10 ms)
    r, v, c, t, n = f[0], f[1], f[2], int(f[3]), int(f[4])
    if n > 0:
        per.setdefault((v, c), []).append(t * 10.0 / n)
med = {k: statistics.median(x) for k, x in per.items()}
print("views v2: kernel %s, %s (asked %d), TCG" % (rd("uname").strip(), rd("groups").strip(), count))
print("  %s" % rd("vv").strip()[:200])
for v in ("default", "mission"):
    b, f = med.get((v, "bpf")), med.get((v, "files"))
    if b is None or f is None:
        print("  %s: not measured" % v)
        continue
    d = med.get(("default", "bpf"))
    print("  %-8s bpf %8.1f ms  files %8.1f ms  bpf/files %.3f  bpf/default(bpf) %.2f   (rounds: bpf %s, files %s)"
          % (v, b, f, b / f, b / d if d else float("nan"),
             " ".join("%.0f" % x for x in per[(v, "bpf")]),
             " ".join("%.0f" % x for x in per[(v, "files")])))
err = rd("err").strip()
if err:
    print("  stderr: %s" % err.replace("\n", " | ")[:300])
PY
