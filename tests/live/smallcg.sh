#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# smallcg.sh - live cgroup v1: memcgtop in a small memory cgroup is never
# killed.  It runs `memcgtop -b -n 1 -F json` on a tree of 81 groups from
# inside a group L of its own limited to 4, 8, 12, 16, 24 and 32 MiB:
#   - auto exits 0 with every group, whatever the limit (the files collector
#     where the BPF load would not fit), and with the bpf collector at 32 MiB;
#   - --collector bpf exits 0, or 1 with "memcgtop: bpf collector: the
#     memory cgroup L has X MiB free; loading the program takes about Y
#     MiB" where Y > X;
#   - the OOM killer never ran in L (memory.oom_control oom_kill 0).
# The peak charge of each run is printed (INFO).  Not run under ASan, whose
# shadow memory alone is more than these groups hold.
# Usage (as root):  tests/live/smallcg.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
set -u
here=$(cd "$(dirname "$0")" && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live small memory cgroup"
. "$here/lib.sh"
live_tree_setup smallcg
T=$CGM/$TNAME
mkdir "$T" "$T/tree" || { fail "cannot make $T"; summary; exit 1; }
for i in $(seq 40); do
	mkdir -p "$T/tree/g$i/h" || { fail "cannot make $T/tree/g$i/h"; summary; exit 1; }
done
L=$T/L
# groups N: the groups of a JSON output
groups() { python3 -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    print(len(d["groups"]), d["collector"])
except Exception as e:
    print("invalid", e)
' "$1"; }
for mib in 4 8 12 16 24 32; do
	for c in auto bpf; do
		mkdir "$L" || { fail "cannot make $L"; break 2; }
		echo $((mib << 20)) >"$L/memory.limit_in_bytes"
		sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$L" \
			"$MEMCGTOP" -b -n 1 -F json --collector $c "/$TNAME/tree" \
			>"$TMPD/out" 2>"$TMPD/err"
		rc=$?
		peak=$(($(cat "$L/memory.max_usage_in_bytes") >> 10))
		kills=$(awk '$1 == "oom_kill" { print $2 }' "$L/memory.oom_control")
		read -r n col < <(groups "$TMPD/out")
		err=$(cat "$TMPD/err")
		echo "INFO: $mib MiB, $c: exit $rc, peak $peak KiB, $n groups ($col)"
		if [ "${kills:-x}" != 0 ]; then
			fail "$mib MiB, $c: the OOM killer ran ($kills kills, exit $rc)"
		elif [ $c = auto ]; then
			if [ $rc = 0 ] && [ "$n" = 81 ] && [ -z "$err" ]; then
				pass "$mib MiB, auto: exit 0, 81 groups ($col)"
			else
				fail "$mib MiB, auto: exit $rc, '$n' groups, stderr '$err'"
			fi
			if [ $mib = 32 ] && [ "$col" != bpf ]; then
				fail "32 MiB, auto: the $col collector, not bpf"
			fi
		else
			re="^memcgtop: bpf collector: the memory cgroup $L has ([0-9.]+) MiB free; loading the program takes about ([0-9.]+) MiB\$"
			if [ $rc = 0 ] && [ "$n" = 81 ] && [ "$col" = bpf ]; then
				pass "$mib MiB, bpf: loads, 81 groups"
			elif [ $rc = 1 ] && [[ $err =~ $re ]] &&
			     awk -v f="${BASH_REMATCH[1]}" -v t="${BASH_REMATCH[2]}" 'BEGIN { exit !(t > f) }'; then
				pass "$mib MiB, bpf: exit 1, '$err'"
			else
				fail "$mib MiB, bpf: exit $rc, '$n' groups ($col), stderr '$err'"
			fi
		fi
		rmdir "$L" || { fail "cannot remove $L"; break 2; }
	done
done
live_tree_done
