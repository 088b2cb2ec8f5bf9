#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cadvisor.sh - --compat cadvisor: on the v1 and v2 fixtures, in the
# Prometheus text format and OpenMetrics, every cAdvisor-named sample
# (label id, the group's path) equals the value computed from the
# fixture's files by the golden checker (tests/golden/verify.py), each
# group that has the value has its sample and no other does (unlimited:
# none); promtool finds the text format clean; misuse is a one-line
# usage error with status 2.  The binary is $MEMCGTOP (default
# ./memcgtop).
set -u
here=$(cd "$(dirname "$0")" && pwd)
MEMCGTOP=${MEMCGTOP:-$here/../memcgtop}
. "$here/count.sh"
FIX=$here/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for fx in v1-live v2-live; do
	for fmt in prometheus openmetrics; do
		out=$tmp/$fx.$fmt
		if ! "$MEMCGTOP" -b -n 1 -F $fmt --compat cadvisor --root "$FIX/$fx/cg" \
			--proc "$FIX/$fx/proc" >"$out" 2>"$tmp/err"; then
			fail "$fx $fmt: exit $?, $(head -c 200 "$tmp/err")"
			continue
		fi
		python3 - "$here/golden" "$FIX/$fx/cg/1" "$fmt" "$fx" "$out" >"$tmp/r" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[1])
import verify as V
v1, groups = V.read_sample(sys.argv[2])
fmt, fx, out = sys.argv[3], sys.argv[4], sys.argv[5]
prom = fmt == "prometheus"
# cAdvisor's name (as its samples are named) -> the fixture's value
names = {
    "container_memory_usage_bytes": "usage",
    "container_memory_working_set_bytes": "workingset",
    "container_memory_rss": "anon",
    "container_memory_cache": "file",
    "container_memory_swap": "swap",
    "container_memory_max_usage_bytes": "peak",
    "container_memory_failcnt": "failcnt",
    "container_spec_memory_limit_bytes": "limit",
    "container_spec_memory_reservation_limit_bytes": "soft" if v1 else "low",
    "container_spec_memory_swap_limit_bytes": "swap_limit",
    "container_oom_events_total": "ev_oom_kill",
}
got = {}
types = {}
for line in open(out):
    m = re.match(r'^# TYPE (container_\S+) (\S+)$', line)
    if m:
        types[m.group(1)] = m.group(2)
    m = re.match(r'^(container_[a-z_]+)\{id="([^"]*)"\} (\S+)$', line)
    if m:
        got.setdefault(m.group(1), {})[m.group(2)] = int(m.group(3))
bad = []
for name, key in names.items():
    want = {p: g[key] for p, g in groups.items()
            if V.is_int(g.get(key))}
    have = got.get(name, {})
    if want != have:
        diff = sorted(set(want.items()) ^ set(have.items()))[:4]
        bad.append("%s (%s): %s" % (name, key, diff))
extra = set(got) - set(names)
if extra:
    bad.append("unknown families %s" % sorted(extra))
n = sum(len(v) for v in got.values())
print(("PASS: %s %s: %d cAdvisor samples equal the fixture's values" % (fx, fmt, n))
      if not bad and n > 0 else "FAIL: %s %s: %s" % (fx, fmt, "; ".join(bad) or "no samples"))
# a counter without _total is untyped/unknown; the OOM count is a counter
fam = "container_oom_events_total" if prom else "container_oom_events"
ok = types.get(fam) == "counter" and \
    types.get("container_memory_failcnt", "untyped" if prom else "unknown") == \
    ("untyped" if prom else "unknown")
print(("PASS: %s %s: types (%s counter, failcnt %s)" % (fx, fmt, fam,
       types.get("container_memory_failcnt", "absent"))) if ok else
      "FAIL: %s %s: types %s" % (fx, fmt, types))
PY
		tally "$tmp/r"
	done
	if command -v promtool >/dev/null; then
		if promtool check metrics <"$tmp/$fx.prometheus" >"$tmp/pt" 2>&1; then
			pass "$fx: promtool check metrics finds the text format clean"
		else
			fail "$fx: promtool: $(head -c 300 "$tmp/pt")"
		fi
	else
		fail "$fx: promtool not installed (make deps-test)"
	fi
done

# misuse: a one-line error, status 2
usage() {
	local want=$1
	shift
	"$MEMCGTOP" "$@" >"$tmp/o" 2>"$tmp/e"
	local rc=$?
	if [ $rc = 2 ] && [ "$(cat "$tmp/e")" = "$want" ] && [ ! -s "$tmp/o" ]; then
		pass "usage: $* -> '$want'"
	else
		fail "usage: $*: rc $rc, stderr '$(head -c 200 "$tmp/e")'"
	fi
}
usage "memcgtop: --compat cadvisor: only with -b -F openmetrics or -F prometheus" \
	-b -F json --compat cadvisor --root "$FIX/v2-live/cg"
usage "memcgtop: --compat: 'kubelet' is not cadvisor" -b -F prometheus --compat kubelet
echo "cadvisor: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
