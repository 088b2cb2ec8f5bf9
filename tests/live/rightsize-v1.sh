#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rightsize-v1.sh - the recommended limits (rec_limit, src/model/rightsize.c)
# of three loads on the live cgroup v1 host, against what the loads need and
# against usage-peak sizing (the Kubernetes VPA recommender: p90 of the
# refreshes' usage + 15%, computed here from the same run's usage column).
#
# Usage (as root):  tests/live/rightsize-v1.sh
#   MEMCGTOP   the binary (default ./memcgtop of this checkout)
#   CI=true    a host that cannot run the test is a failure, not a skip
#
# Below /memcgtop-rightsize-PID-N (no swap on the host):
#   steady  limit 256M: 32M of anonymous memory and a 32M file read again
#           and again (memload file), a 64M working set: rec_limit within
#           15% of 64M, and at most the VPA figure;
#   cache   limit 256M: 16M anonymous, then one pass of cat over a 400M
#           file (a one-pass reader: its cache is never reused): rec_limit
#           within 15% of its anon + active file + kernel memory plus the
#           margin, below half its usage and below the VPA figure;
#   thrash  limit 64M: a 96M file read again and again: rec_limit above
#           the limit and above the VPA figure; then --set applies
#           rec_limit and the refault rate (memory.stat
#           total_workingset_refault_file over 5 s) falls by 80% or more.
# Each window is 8 refreshes a second apart (-n 8), the last iteration's
# recommendation the whole run's; --rightsize prints one iteration, and
# over the window's recording (--record, --root) the same rec_limit.
#
# PASS:/FAIL: lines, then "rightsize-v1: N passed, M failed"; exit 1 on a
# failure.  Not root or no writable v1 memory mount: "SKIP: ...", exit 77.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CGM=/sys/fs/cgroup/memory
NAME="rightsize v1"
. "$here/lib.sh"
live_tree_start rightsize
R=$CGM/$TNAME
M=1048576

gcc -O2 -static -o "$TMPD/memload" "$top/tests/load/memload.c" ||
	abort "cannot build memload"
mkdir "$R" "$R/steady" "$R/cache" "$R/thrash" || abort "mkdir below $R"
echo 256M >"$R/steady/memory.limit_in_bytes"
echo 256M >"$R/cache/memory.limit_in_bytes"
echo 64M >"$R/thrash/memory.limit_in_bytes"

# mkfile NAME MIB: a file of that size whose pages are in no cache (so
# that the group reading it is charged for them).
mkfile() {
	head -c "$(($2 * M))" /dev/urandom >"$TMPD/$1" || abort "writing $1"
	sync "$TMPD/$1"
	dd if="$TMPD/$1" iflag=nocache count=0 status=none
}
# run_in GROUP CMD...: CMD in GROUP, in the background; its pid in pids.
run_in() {
	local g=$1
	shift
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh \
		"$R/$g" "$@" >>"$TMPD/$g.out" 2>&1 &
	pids+=("$!")
}
wait_ready() {
	local i
	for i in $(seq 300); do
		[ "$(grep -c '^ready' "$TMPD/$1.out")" -ge "$2" ] && return
		sleep 0.1
	done
	abort "$1: its loads not ready after 30 s: $(cat "$TMPD/$1.out")"
}
# window GROUP: 8 refreshes of GROUP as CSV in $TMPD/GROUP.csv; sets rec
# (the last rec_limit), vpa (p90 of usage by nearest rank + 15%), usage
# (the last) and parts (anon + active_file + kernel, their largest).
window() {
	"$MEMCGTOP" -b -r -n 8 -d 1 -F csv -f "$TNAME/$1" --record "$TMPD/$1.rec" \
		-c usage,anon,shmem,active_file,kernel,rec_limit,path \
		>"$TMPD/$1.csv" 2>"$TMPD/$1.err" || abort "$1: memcgtop: $(cat "$TMPD/$1.err")"
	awk -F, -v p="/$TNAME/$1" '{ sub(/\r$/, "") } $NF == p { n++ } END { exit (n != 8) }' \
		"$TMPD/$1.csv" || abort "$1: not 8 rows: $(tail -2 "$TMPD/$1.csv")"
	read -r rec vpa usage parts < <(awk -F, -v p="/$TNAME/$1" '
		{ sub(/\r$/, "") }	# CSV lines end in CR LF
		$NF == p { u[++n] = $3; rec = $8; use = $3
			   x = $4 + $5 + $6 + $7; if (x > parts) parts = x }
		END {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (u[j] < u[i]) { t = u[i]; u[i] = u[j]; u[j] = t }
			k = int(0.9 * n); if (k < 0.9 * n) k++
			printf "%d %d %d %d\n", rec, u[k] * 1.15, use, parts
		}' "$TMPD/$1.csv")
	echo "INFO: $1: rec_limit $rec, VPA $vpa, usage $usage, anon+shmem+active+kernel peak $parts"
}
within() {	# within A B PCT: |A - B| <= PCT% of B
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'
}

# ---- steady: 32M anon + a 32M file re-read ---------------------------------
mkfile f32 32
run_in steady "$TMPD/memload" anon 32
run_in steady "$TMPD/memload" file "$TMPD/f32"
wait_ready steady 2
sleep 3		# the file read again: its pages on the active list
window steady
within "$rec" $((64 * M)) 15 &&
	pass "steady: rec_limit $rec within 15% of the 64M working set" ||
	fail "steady: rec_limit $rec not within 15% of 64M"
[ "$rec" -le "$vpa" ] && pass "steady: rec_limit $rec at most usage-peak sizing's $vpa" ||
	fail "steady: rec_limit $rec above usage-peak sizing's $vpa"
out=$("$MEMCGTOP" --rightsize -r -n 2 -d 0.5 -f "$TNAME/steady" 2>&1)
n=$(grep -c "^ *[0-9]* *268435456 *[0-9]* *steady\$" <<<"$out")
head=$(grep -c '^memcgtop - ' <<<"$out")
[ "$n" = 1 ] && [ "$head" = 1 ] && grep -q ' RECLIM GROUP$' <<<"$out" &&
	pass "--rightsize: one iteration, with RECLIM" ||
	fail "--rightsize: $head iterations, $n rows: $out"

# The recording of that window, replayed whole: the same recommendation.
got=$("$MEMCGTOP" --rightsize -r -F csv -c rec_limit,path --root "$TMPD/steady.rec" 2>&1 |
	awk -F, -v p="/$TNAME/steady" '{ sub(/\r$/, "") } $NF == p { n++; v = $3 } END { print n + 0, v }')
[ "$got" = "1 $rec" ] && pass "--rightsize --root of the recording: one row, rec_limit $rec" ||
	fail "--rightsize --root of the recording: rows and rec_limit '$got', live $rec"

# ---- cache: 16M anon, one pass over a 400M file -----------------------------
mkfile f400 400
run_in cache "$TMPD/memload" anon 16
wait_ready cache 1
run_in cache cat "$TMPD/f400"
catpid=${pids[-1]}
window cache
wait "$catpid" 2>/dev/null
want=$(awk -v p="$parts" 'BEGIN { printf "%d", p * 1.10 }')
within "$rec" "$want" 15 &&
	pass "cache: rec_limit $rec within 15% of anon + active + kernel + 10% ($want)" ||
	fail "cache: rec_limit $rec not within 15% of $want"
[ "$rec" -lt $((usage / 2)) ] && pass "cache: rec_limit $rec below half its usage $usage" ||
	fail "cache: rec_limit $rec not below half its usage $usage"
[ "$rec" -lt "$vpa" ] && pass "cache: rec_limit $rec below usage-peak sizing's $vpa" ||
	fail "cache: rec_limit $rec not below usage-peak sizing's $vpa"

# ---- thrash: a 96M file re-read under a 64M limit ---------------------------
refault_rate() {	# refault_file pages per second over 5 s
	local a b
	a=$(awk '$1 == "total_workingset_refault_file" { print $2 }' "$R/thrash/memory.stat")
	sleep 5
	b=$(awk '$1 == "total_workingset_refault_file" { print $2 }' "$R/thrash/memory.stat")
	echo $(((b - a) / 5))
}
mkfile f96 96
run_in thrash "$TMPD/memload" file "$TMPD/f96"
wait_ready thrash 1
sleep 2
window thrash
limit=$((64 * M))
[ "$rec" -gt "$limit" ] && pass "thrash: rec_limit $rec above the 64M limit" ||
	fail "thrash: rec_limit $rec not above the 64M limit"
[ "$rec" -gt "$vpa" ] && pass "thrash: rec_limit $rec above usage-peak sizing's $vpa" ||
	fail "thrash: rec_limit $rec not above usage-peak sizing's $vpa"
before=$(refault_rate)
"$MEMCGTOP" --set "$TNAME/thrash:limit=$rec" >"$TMPD/set.out" 2>&1 ||
	fail "thrash: --set limit=$rec: $(cat "$TMPD/set.out")"
[ "$(cat "$R/thrash/memory.limit_in_bytes")" -eq $((rec / 4096 * 4096)) ] ||
	fail "thrash: the limit is $(cat "$R/thrash/memory.limit_in_bytes"), not $rec"
sleep 3		# the file's first pass under the new limit
after=$(refault_rate)
echo "INFO: thrash: refaults $before/s before, $after/s after"
[ "$before" -gt 100 ] && [ "$after" -le $((before / 5)) ] &&
	pass "thrash: refaults fell by 80% or more ($before/s to $after/s)" ||
	fail "thrash: refaults $before/s before, $after/s after (not down 80%)"

finish
live_tree_done
