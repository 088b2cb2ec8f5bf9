#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tui/blanks.sh - the detail pane (d) says why each blank of the
# shown column set is blank, for the group that a CGROUP argument starts
# at: a file that is absent or not readable, a file that says nothing, a
# field of the other cgroup version, the v2 root, no limit on the path, no
# evictable pages, the multi-gen LRU, a group too new for rates; and that
# it shows memory.numa_stat as a table of LRU lists per node (v1 pages
# turned into bytes, two nodes).  Runs on the committed fixtures (and a
# copy of v1-live with a two-node numa_stat) in a private tmux server
# (120x50, 120x200 for the tables).
# The binary is $MEMCGTOP (default ./memcgtop).
set -u
here=$(cd "$(dirname "$0")" && pwd)
NAME="tui blanks"
. "$here/tmux.sh"
FIX=$top/tests/fixtures

# pane FIXTURE-DIR TABS CGROUP [ARGS]: the screen with the detail pane of
# CGROUP (the start group, so selected), after TABS presses of Tab, once
# the screen shows the second sample of the series
pane() {
	local d=$1 tabs=$2 cg=$3 i
	shift 3
	tm kill-session -t s 2>/dev/null
	tm new-session -d -s s -x 120 -y "${H:-50}" "cd $(printf %q "$tmp") && env -u LC_ALL XDG_CONFIG_HOME=$tmp/c HOME=$tmp/h TERM=xterm-256color LANG=C.UTF-8 $(printf %q "$MEMCGTOP") -d 60 --root $(printf %q "$d/cg") --proc $(printf %q "$d/proc") $* $(printf %q "$cg"); sleep 60"
	# the second sample read: rates can be had
	for ((i = 0; i < 200; i++)); do
		tm capture-pane -p -t s | grep -q '^memcgtop .*  sample 2/' && break
		sleep 0.05
	done
	for ((i = 0; i < tabs; i++)); do
		tm send-keys -t s Tab
	done
	tm send-keys -t s -l d
	for ((i = 0; i < 100; i++)); do
		SCREEN=$(tm capture-pane -p -t s)
		grep -q '^Detail of' <<<"$SCREEN" && break
		sleep 0.05
	done
	grep -q '^Detail of' <<<"$SCREEN" || return 1
	# The pane may still be arriving: until two captures 0.1 s apart agree.
	for ((i = 0; i < 30; i++)); do
		local prev=$SCREEN
		sleep 0.1
		SCREEN=$(tm capture-pane -p -t s)
		[ "$SCREEN" = "$prev" ] && return 0
	done
	return 0
}

# has 'LINE' 'what': the exact line is on the screen
has() {
	if grep -qxF -- "$1" <<<"$SCREEN"; then
		pass "$2"
	else
		fail "$2: no line '$1' in the pane: $(sed -n '/^Detail of/,$p' <<<"$SCREEN" | head -8 | tr '\n' '|')"
	fi
}
line() { printf '  %-24s %s' "$1" "$2"; }

# The LRU set (two Tabs): on v1 the overview reads no memory.stat.
pane "$FIX/edge-broken" 2 /statdir
has "$(line refault_file_per_s 'memory.stat is not readable: Is a directory')" "memory.stat a directory: not readable"
pane "$FIX/edge-broken" 2 /nostat
has "$(line refault_file_per_s 'memory.stat is absent from this copy')" "no memory.stat: absent"
pane "$FIX/edge-broken" 0 /emptylimit
has "$(line limit 'memory.limit_in_bytes has no value for it: the collector cannot give it')" "empty limit file: no value"
has "$(line use_pct 'memory.limit_in_bytes has no value for it: the collector cannot give it')" "use_pct blank by its limit"
pane "$FIX/edge-broken" 0 /garbage
has "$(line usage 'memory.usage_in_bytes has no value for it: the collector cannot give it')" "garbage usage: no value"
pane "$FIX/v1-live" 0 /
has "$(line use_pct 'no limit on the path')" "v1 root use_pct: no limit on the path"
pane "$FIX/v1-live" 0 /fixture -c path,high,ev_max_local,zswap
has "$(line high 'v2 only: cgroup v1 has no such file')" "v1: high is v2 only"
has "$(line ev_max_local 'v2 only: cgroup v1 has no such file')" "v1: ev_max_local is v2 only"
has "$(line zswap 'v2 only: cgroup v1 has no such file')" "v1: zswap is v2 only"
pane "$FIX/v2-live" 0 / -c path,limit,soft,peak
has "$(line limit 'the v2 root has no such file')" "v2 root: no memory.max"
has "$(line peak 'the v2 root has no such file')" "v2 root: no memory.peak"
has "$(line soft 'v1 only: cgroup v2 has no such file')" "v2: soft is v1 only"
pane "$FIX/v2-live" 0 /fixture --depth 0 -c path,swap_peak,scan_prio
has "$(line swap_peak 'memory.swap.peak is absent from this copy')" "v2-live (6.1): no memory.swap.peak"
has "$(line scan_prio 'its children'"'"'s LRU lists are not all known (depth limit or an unreadable child)')" "v2 --depth 0: children not known"
pane "$FIX/v2-live" 0 /fixture/idle -c path,scan_prio
has "$(line scan_prio 'no pages on its own evictable lists that reclaim may scan (P = 0)')" "v2 idle group: P = 0"
cp -r "$FIX/edge-v2" "$tmp/mglru"
for d in "$tmp"/mglru/proc/[0-9]*; do
	mkdir -p "$d/lru_gen" && echo 0x0007 >"$d/lru_gen/enabled"
done
pane "$tmp/mglru" 3 /app
has "$(line scan_prio 'the multi-gen LRU runs (lru_gen/enabled 0x0007): the classic rule does not hold')" "multi-gen LRU: scan_prio blank, said why"
# v1's soft-limit tree: a copy is read by the files collector; under the
# multi-gen LRU the kernel keeps no tree
pane "$FIX/v1-live" 0 /fixture -c path,soft_tree_excess,soft_rank
has "$(line soft_tree_excess 'the BPF pass alone reads the kernel'"'"'s soft-limit tree: not in this copy or recording')" "v1 copy: soft_tree_excess blank, the pass alone has it"
cp -r "$FIX/v1-live" "$tmp/mglru1"
for d in "$tmp"/mglru1/proc/[0-9]*; do
	mkdir -p "$d/lru_gen" && echo 0x0007 >"$d/lru_gen/enabled"
done
pane "$tmp/mglru1" 0 /fixture -c path,soft_tree_excess,soft_rank
has "$(line soft_rank 'the multi-gen LRU runs (lru_gen/enabled 0x0007): the kernel keeps no soft-limit tree')" "v1 multi-gen LRU: soft_rank blank, no tree"
pane "$FIX/edge-vanish" 0 / -c path,failcnt_per_s,pgfault_per_s
# /c is new in the second sample: select it with a search, then the pane
tm send-keys -t s -l d
tm send-keys -t s -l /c
tm send-keys -t s Enter
tm send-keys -t s -l d
for ((i = 0; i < 100; i++)); do
	SCREEN=$(tm capture-pane -p -t s)
	grep -q '^Detail of /c ' <<<"$SCREEN" && break
	sleep 0.05
done
has "$(line failcnt_per_s 'a new group (or one made again): rates after the next refresh')" "a new group: no rate yet"
pane "$FIX/edge-v2" 0 /sys -c path,reclaim_eff,pgscan_per_s
has "$(line reclaim_eff 'nothing scanned in the interval')" "reclaim_eff: nothing scanned"

# memory.numa_stat as a table: v1 in pages (4 KiB), two nodes
cp -r "$FIX/v1-live" "$tmp/numa"
for k in 0 1 2 3 4; do
	printf '%s\n' 'total=300 N0=100 N1=200' 'file=30 N0=10 N1=20' \
		'anon=256 N0=0 N1=256' 'unevictable=14 N0=4 N1=10' \
		'hierarchical_total=3000 N0=1000 N1=2000' \
		'hierarchical_file=512 N0=256 N1=256' \
		'hierarchical_anon=2048 N0=1024 N1=1024' \
		'hierarchical_unevictable=0 N0=0 N1=0' \
		>"$tmp/numa/cg/$k/fixture/web/memory.numa_stat"
done
if [ "$(getconf PAGESIZE)" = 4096 ]; then
	H=200 pane "$tmp/numa" 0 /fixture/web
	has "  NODE      ANON    FILE  UNEVIC  H-ANON  H-FILE  H-UNEV" "v1 numa table: titles"
	has "  N0           0   40.0K   16.0K    4.0M    1.0M       0" "v1 numa table: node 0 in bytes"
	has "  N1        1.0M   80.0K   40.0K    4.0M    1.0M       0" "v1 numa table: node 1 in bytes"
else
	echo "SKIP: v1 numa table: the page size is not 4 KiB"
fi
# (--history 0: the graphs would push the table below the pane)
H=200 pane "$FIX/v2-live" 0 /fixture/work --history 0
has "  NODE    A-ANON  I-ANON  A-FILE  I-FILE  UNEVIC" "v2 numa table: titles"
# sample 1's memory.numa_stat of work, in bytes
want=$(awk '{ v[$1] = substr($2, 4) } END {
	printf "%s %s %s %s %s", v["active_anon"], v["inactive_anon"],
		v["active_file"], v["inactive_file"], v["unevictable"] }' \
	"$FIX/v2-live/cg/1/fixture/work/memory.numa_stat")
got=$(grep '^  N0 ' <<<"$SCREEN")
exp=$(for v in $want; do
	awk -v v="$v" 'BEGIN { if (v < 1024) { printf " %7s", v; exit }
		u = "KMGTPE"; x = v; i = 0
		while (x >= 1024 && i < 6) { x /= 1024; i++ }
		if (x < 99.95) printf " %7s", sprintf("%.1f%s", x, substr(u, i, 1))
		else printf " %7s", sprintf("%.0f%s", x, substr(u, i, 1)) }'
done)
[ "$got" = "  N0    $exp" ] && pass "v2 numa table: node 0 from the file ($got)" ||
	fail "v2 numa table: '$got', want '  N0    $exp'"

echo "blanks: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
