#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fixture-columns.sh - the columns of peak, swap events, local events,
# zswap, dying groups and the scan-priority floor on the captured v1 and v2
# trees and edge-v2, beyond what the goldens hold:
#  - scan_prio with and without swap on both versions, under the multi-gen
#    LRU (DIR/lru_gen/enabled non-zero: null everywhere) and with it off
#    (0x0000: as without the file), and at the --depth limit (v2: a group whose
#    children were not read has no own lists); every variant is also
#    recomputed by tests/golden/verify.py;
#  - a v2 copy read without --proc shows each group's memory.swap.current
#    as the file says (never bounded by this host's SwapTotal);
#  - each column opens only the files it needs (strace; skipped without).
# The binary is $MEMCGTOP (default ./memcgtop).
set -u
cd "$(dirname "$0")/.."
. tests/count.sh
BIN=${MEMCGTOP:-./memcgtop}
FIX=tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# setswap DIR FREE_KB TOTAL_KB: the fixture copy's meminfo in every sample
setswap() {
	local m
	for m in "$1"/proc/*/meminfo; do
		sed -i "s/^SwapFree:.*/SwapFree:       $2 kB/; s/^SwapTotal:.*/SwapTotal:      $3 kB/" "$m"
	done
}

# lrugen DIR VALUE: DIR/proc/N/lru_gen/enabled in every sample
lrugen() {
	local d
	for d in "$1"/proc/[0-9]*; do
		mkdir -p "$d/lru_gen"
		echo "$2" >"$d/lru_gen/enabled"
	done
}

# prios DIR [ARGS]: "path=scan_prio ..." of the first iteration
prios() {
	local d=$1
	shift
	"$BIN" -b -n 1 -F csv -c path,scan_prio --root "$d/cg" --proc "$d/proc" "$@" |
		tail -n +2 | cut -d, -f3- | tr ',\r' '= ' | tr -d '\n' | sed 's/ $//'
}

# check NAME DIR 'path=prio ...': the exact values, and verify.py agrees
check() {
	local name=$1 d=$2 want=$3 got n
	got=$(prios "$d")
	if [ "$got" = "$want" ]; then
		pass "$name: scan_prio $got"
	else
		fail "$name: scan_prio '$got', want '$want'"
	fi
	n=$(($(wc -l <"$d/cg/timestamps") - 1))
	"$BIN" -b -n "$n" -F json --root "$d/cg" --proc "$d/proc" >"$tmp/out.json" &&
		"$BIN" -b -n "$n" -F csv --root "$d/cg" --proc "$d/proc" >"$tmp/out.csv"
	if python3 tests/golden/verify.py "$d" --root-arg "$d/cg" \
		--json "$tmp/out.json" --csv "$tmp/out.csv" >"$tmp/verify" 2>&1; then
		pass "$name: verify.py: $(tail -n 1 "$tmp/verify")"
	else
		fail "$name: verify.py: $(tail -n 1 "$tmp/verify"); $(head -n 3 "$tmp/verify" | tr '\n' ' ')"
	fi
}

cp -r "$FIX/v1-live" "$FIX/v2-live" "$FIX/edge-v2" "$tmp/"
V1=$tmp/v1-live V2=$tmp/v2-live E2=$tmp/edge-v2

# v1-live as captured: no swap, so only the file lists count.
check "v1 without swap" "$V1" "/=8 /fixture= /fixture/web= /fixture/web/backend=0 /fixture/web/frontend=0 /fixture/batch= /fixture/batch/cache=12 /fixture/batch/deep= /fixture/batch/deep/leaf=0 /fixture/batch/hog= /fixture/idle="
setswap "$V1" 1048576 2097152
# frontend and backend hold 40 and 60 MiB of their own anon: 12; leaf 8 MiB
# (2048 pages): 11.
check "v1 with swap" "$V1" "/=8 /fixture= /fixture/web= /fixture/web/backend=12 /fixture/web/frontend=12 /fixture/batch= /fixture/batch/cache=12 /fixture/batch/deep= /fixture/batch/deep/leaf=11 /fixture/batch/hog= /fixture/idle="

# v2-live as captured: swap with room, except fixture/oom (swap.max 0).
check "v2 with swap" "$V2" "/=9 /fixture=9 /fixture/bulk=12 /fixture/work= /fixture/work/reclaim=12 /fixture/work/cache=12 /fixture/work/deep= /fixture/work/deep/leaf=11 /fixture/protected=12 /fixture/idle= /fixture/oom="
setswap "$V2" 0 262140
check "v2 without free swap" "$V2" "/=3 /fixture=9 /fixture/bulk=12 /fixture/work= /fixture/work/reclaim= /fixture/work/cache=12 /fixture/work/deep= /fixture/work/deep/leaf=3 /fixture/protected=3 /fixture/idle= /fixture/oom="

# edge-v2: /sys has swap.max 0, so its 32 MiB of anon does not count.
check "edge-v2 with swap" "$E2" "/=12 /app=12 /app/worker=12 /sys=11"
lrugen "$E2" 0x0000
check "edge-v2, multi-gen LRU off" "$E2" "/=12 /app=12 /app/worker=12 /sys=11"
lrugen "$E2" 0x0007
check "edge-v2 under the multi-gen LRU" "$E2" "/= /app= /app/worker= /sys="
lrugen "$V1" 0x0001
check "v1 under the multi-gen LRU" "$V1" "/= /fixture= /fixture/web= /fixture/web/backend= /fixture/web/frontend= /fixture/batch= /fixture/batch/cache= /fixture/batch/deep= /fixture/batch/deep/leaf= /fixture/batch/hog= /fixture/idle="

# --depth: a v2 group whose children were not read has no own lists.
got=$(prios "$FIX/v2-live" --depth 1)
want="/=9 /fixture="
[ "$got" = "$want" ] && pass "v2 --depth 1: scan_prio $got" || fail "v2 --depth 1: scan_prio '$got', want '$want'"
got=$(prios "$FIX/v1-live" --depth 2 | cut -d' ' -f1-3)
want="/=8 /fixture= /fixture/web="
[ "$got" = "$want" ] && pass "v1 --depth 2: own lists from memory.stat: $got" || fail "v1 --depth 2: '$got', want '$want'"

# The numa column: JSON only, an object per group keyed by node, from
# memory.numa_stat (v1: the hierarchical lists and the group's own as
# own_*, pages in bytes; v2: the lists, anon and file their sums).
cp -r "$FIX/v1-live" "$tmp/numa"
for k in 0 1 2 3 4; do
	printf '%s\n' 'total=300 N0=100 N1=200' 'file=30 N0=10 N1=20' \
		'anon=256 N0=0 N1=256' 'unevictable=14 N0=4 N1=10' \
		'hierarchical_total=3000 N0=1000 N1=2000' \
		'hierarchical_file=512 N0=256 N1=256' \
		'hierarchical_anon=2048 N0=1024 N1=1024' \
		'hierarchical_unevictable=0 N0=0 N1=7' \
		>"$tmp/numa/cg/$k/fixture/web/memory.numa_stat"
done
for d in "$FIX/v1-live" "$FIX/v2-live" "$FIX/edge-v2" "$tmp/numa"; do
	"$BIN" -b -n 2 -F json -c path,numa --root "$d/cg" --proc "$d/proc" >"$tmp/numa.json"
	if python3 - "$d" "$tmp/numa.json" >"$tmp/numa.out" 2>&1 <<'PYEOF'
import json, os, sys
d, out = sys.argv[1:3]
page = os.sysconf('SC_PAGE_SIZE')
bad = n = 0
for it, line in enumerate(open(out), 1):
    o = json.loads(line)
    v1 = o['memcg'] == 'v1'
    for g in o['groups']:
        assert list(g) == ['path', 'numa'], list(g)
        f = os.path.join(d, 'cg', str(it), g['path'].lstrip('/'), 'memory.numa_stat')
        want = {} if os.path.exists(f) else None
        for l in open(f).read().splitlines() if want is not None else []:
            p = l.split()
            key = p[0].split('=')[0]
            if v1:
                if key in ('anon', 'file', 'unevictable'):
                    key = 'own_' + key
                elif not key.startswith('hierarchical_') or key == 'hierarchical_total':
                    continue
                else:
                    key = key[len('hierarchical_'):]
                mul = page
            else:
                if key not in ('unevictable', 'active_anon',
                               'inactive_anon', 'active_file', 'inactive_file'):
                    continue
                mul = 1
            for w in p[1:]:
                if w.startswith('N'):
                    node, v = w.split('=')
                    want.setdefault(node, {})[key] = int(v) * mul
        # v2: anon and file are the lists' sums, as on v1
        for node, o in (want or {}).items():
            for s, a, b in (('file', 'active_file', 'inactive_file'),
                            ('anon', 'active_anon', 'inactive_anon')):
                if a in o and b in o:
                    o[s] = o[a] + o[b]
        n += 1
        if g['numa'] != want:
            bad += 1
            print('%s iteration %d: %s, want %s' % (g['path'], it, g['numa'], want))
print('%d groups, %d differ' % (n, bad))
sys.exit(1 if bad or not n else 0)
PYEOF
	then
		pass "numa JSON of ${d##*/} matches memory.numa_stat: $(tail -n 1 "$tmp/numa.out")"
	else
		fail "numa JSON of ${d##*/}: $(head -n 3 "$tmp/numa.out" | tr '\n' ' ')"
	fi
done
grep -q '"/fixture/web","numa":{"N0":{"anon":4194304,"file":1048576,"unevictable":0,"own_anon":0,"own_file":40960,"own_unevictable":16384},"N1":{"anon":4194304,"file":1048576,"unevictable":28672,"own_anon":1048576,"own_file":81920,"own_unevictable":40960}}' "$tmp/numa.json" &&
	[ "$(getconf PAGESIZE)" = 4096 ] && pass "numa JSON: two nodes of v1 pages, in bytes" ||
	fail "numa JSON: two nodes: $(grep -o '"/fixture/web","numa":[^]]*}}' "$tmp/numa.json" | head -c 200)"
"$BIN" -b -n 1 -F json --root "$FIX/v2-live/cg" --proc "$FIX/v2-live/proc" | grep -q '"numa"' &&
	fail "numa printed without being asked for" || pass "numa only when asked for"
for a in "-F csv -c path,numa" "-F text -c numa" "-F openmetrics -c numa" "-F json -o numa"; do
	# shellcheck disable=SC2086
	"$BIN" -b -n 1 $a --root "$FIX/v1-live/cg" --proc "$FIX/v1-live/proc" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && pass "$a: usage error: $(cat "$tmp/err")" ||
		fail "$a: exit $rc, stderr '$(cat "$tmp/err")'"
done

# A copy of a v2 tree read without --proc: its swap is what each group's
# memory.swap.current says, never bounded by this host's SwapTotal (the
# system figures are this host's, not the copy's).  One group holds 1 PiB,
# more swap than any host has.
cp -r "$FIX/v2-live/cg/0" "$tmp/v2copy"
echo 1125899906842624 >"$tmp/v2copy/fixture/work/memory.swap.current"
"$BIN" -b -n 1 -F json -c path,swap --root "$tmp/v2copy" >"$tmp/v2copy.json" 2>&1
# The files, read here; memcgtop's output, by path.
want=$(cd "$tmp/v2copy" && find . -name memory.swap.current |
	sed 's|^\.||; s|/memory\.swap\.current$||' | LC_ALL=C sort |
	while read -r d; do printf '%s=%s ' "$d" "$(cat ".$d/memory.swap.current")"; done)
got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s=%s" % (g["path"], g["swap"]) for g in
      sorted(d["groups"], key=lambda g: g["path"].encode())
      if g["swap"] is not None))
' "$tmp/v2copy.json" 2>&1)
[ "$got " = "$want" ] && pass "v2 copy without --proc: swap as each memory.swap.current says ($got)" ||
	fail "v2 copy without --proc: swap '$got', the files say '$want'"

# Each column opens the control files it needs and no others.
if command -v strace >/dev/null 2>&1; then
	# opened FIXTURE COLUMN: the control file names opened in groups,
	# in CSV (JSON adds the OOM kill counters and limits for its
	# system.oom_kills: checked below); numa is JSON's only
	opened() {
		local fmt=csv
		[ "$2" = numa ] && fmt=json
		strace -f -qq -e trace=openat -o "$tmp/trace" "$BIN" -b -n 0 -F $fmt \
			-o path -c "path,$2" --root "$FIX/$1/cg" --proc "$FIX/$1/proc" \
			>/dev/null 2>&1
		sed -n 's/.*openat([0-9][0-9]*, "\([^"/]*\)".*/\1/p' "$tmp/trace" |
			grep '^memory\.\|^cgroup\.' | sort -u | tr '\n' ' ' |
			sed 's/ $//'
	}
	while read -r fx col want; do
		got=$(opened "$fx" "$col")
		if [ "$got" = "$want" ]; then
			pass "$fx -c path,$col opens $got"
		else
			fail "$fx -c path,$col opens '$got', want '$want'"
		fi
	done <<'EOF'
v2-live peak cgroup.controllers memory.peak
v2-live swap_peak cgroup.controllers memory.swap.peak
v2-live usage_swap cgroup.controllers memory.current memory.stat memory.swap.current
v2-live workingset cgroup.controllers memory.current memory.stat
v2-live zswap cgroup.controllers memory.zswap.current
v2-live zswapped cgroup.controllers memory.stat
v2-live ev_oom_kill_local_per_s cgroup.controllers memory.events.local
v2-live swap_ev_fail cgroup.controllers memory.swap.events
v2-live dying cgroup.controllers cgroup.stat
v2-live scan_prio cgroup.controllers memory.stat memory.swap.current memory.swap.max
v1-live peak memory.max_usage_in_bytes
v1-live usage_swap memory.kmem.usage_in_bytes memory.memsw.usage_in_bytes
v1-live scan_prio memory.stat
v1-live dying
v2-live numa cgroup.controllers memory.events memory.max memory.numa_stat
v1-live numa memory.limit_in_bytes memory.numa_stat memory.oom_control
EOF
	# On v1 the text default, what the screen's overview shows too, reads
	# no memory.stat: it is the costly file, and each read of it makes the
	# kernel flush its statistics.  (v2's pgscan and pgsteal are in it.)
	for fx in v1-live; do
		strace -f -qq -e trace=openat -o "$tmp/trace" "$BIN" -b -n 1 \
			--root "$FIX/$fx/cg" --proc "$FIX/$fx/proc" >/dev/null 2>&1
		n=$(grep -c '"memory\.stat"' "$tmp/trace")
		[ "$n" = 0 ] && pass "$fx: the default text columns open no memory.stat" ||
			fail "$fx: the default text columns open memory.stat $n times"
	done
else
	echo "SKIP: strace not installed (files opened per column)"
fi

# --flat: every group of the tree, full paths, sorted by the sort column
# across the tree (ties by path); --top N: its first N.  The order is
# checked against the usage each group's own memory.current gives (the
# root: memory.stat's anon + file + kernel + sock).
for fx in v2-live; do
	args=(-b -n 1 --root "$FIX/$fx/cg" --proc "$FIX/$fx/proc")
	"$BIN" "${args[@]}" -F csv -c path,usage --flat >"$tmp/flat.csv" 2>"$tmp/err"
	"$BIN" "${args[@]}" -F csv -c path,usage >"$tmp/tree.csv" 2>>"$tmp/err"
	"$BIN" "${args[@]}" -F csv -c path,usage --top 3 >"$tmp/top.csv" 2>>"$tmp/err"
	"$BIN" "${args[@]}" -c usage --top 3 >"$tmp/top.txt" 2>>"$tmp/err"
	got=$(python3 - "$FIX/$fx/cg/1" "$tmp/flat.csv" "$tmp/tree.csv" "$tmp/top.csv" "$tmp/top.txt" <<'EOF'
import csv, os, sys
d, flat, tree, top, toptxt = sys.argv[1:]
def rows(f):
    return [r["path"] for r in csv.DictReader(l for l in open(f) if l.strip())]
def usage(p):
    g = os.path.join(d, p.lstrip("/"))
    if p == "/":
        st = dict(l.split() for l in open(os.path.join(g, "memory.stat")))
        return sum(int(st[k]) for k in ("anon", "file", "kernel", "sock"))
    return int(open(os.path.join(g, "memory.current")).read())
f, t = rows(flat), rows(tree)
want = sorted(t, key=lambda p: (-usage(p), p))
names = [l.split()[-1] for l in open(toptxt).read().split("\n\n", 1)[1].splitlines()[1:] if l.strip()]
print("ok" if f == want and sorted(f) == sorted(t) and rows(top) == want[:3] and names == want[:3]
      else "flat %s, want %s, top %s, text %s" % (f, want, rows(top), names))
EOF
)
	if [ "$got" = ok ] && [ ! -s "$tmp/err" ]; then
		pass "$fx: --flat lists every group by usage across the tree, --top 3 its first 3 (text: full paths)"
	else
		fail "$fx: --flat/--top: $got $(head -c 200 "$tmp/err")"
	fi
done

echo "fixture-columns: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
