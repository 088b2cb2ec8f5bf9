#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cadvisor.sh - --compat cadvisor: on the v1 and v2 fixtures, in the
# Prometheus text format and OpenMetrics, every cAdvisor-named sample
# (label id, the group's path) equals the value computed from the
# fixture's files by the golden checker (tests/golden/verify.py), each
# group that has the value has its sample and no other does (a spec limit
# that is unlimited: 0, as cAdvisor gives it; other values unlimited:
# none); container_memory_failures_total has its four series (pgfault and
# pgmajfault, scopes container and hierarchy); promtool finds the text
# format clean.  On the kube-v2 fixture (kubelet paths of both drivers
# and three runtimes, a systemd unit) every sample's labels beyond id
# equal those a reader of the path written here (kube_labels below)
# finds, and three lines are compared whole.  Misuse is a one-line usage
# error with status 2.  The binary is $MEMCGTOP (default
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
    "container_memory_mapped_file": "file_mapped",
    "container_memory_kernel_usage": "kernel",
    "container_memory_total_active_file_bytes": "active_file",
    "container_memory_total_inactive_file_bytes": "inactive_file",
    "container_memory_swap": "swap",
    "container_memory_max_usage_bytes": "peak",
    "container_memory_failcnt": "failcnt",
    "container_spec_memory_limit_bytes": "limit",
    "container_spec_memory_reservation_limit_bytes": "soft" if v1 else "min",
    "container_spec_memory_swap_limit_bytes": "swap_limit",
    "container_oom_events_total": "ev_oom_kill",
}
for t in ("pgfault", "pgmajfault"):
    for scope in ("container", "hierarchy"):
        names['container_memory_failures_total/%s/%s' % (t, scope)] = t
# the spec limits: unlimited is 0
spec = {n for n in names if n.startswith("container_spec_")}
got = {}
types = {}
for line in open(out):
    m = re.match(r'^# TYPE (container_\S+) (\S+)$', line)
    if m:
        types[m.group(1)] = m.group(2)
    m = re.match(r'^(container_[a-z_]+)\{id="([^"]*)"(.*)\} (\S+)$', line)
    if m:
        name = m.group(1)
        ft = re.search(r'failure_type="(\w+)",scope="(\w+)"', m.group(3))
        if ft:
            name += "/%s/%s" % ft.groups()
        got.setdefault(name, {})[m.group(2)] = int(m.group(4))
bad = []
for name, key in names.items():
    want = {p: 0 if g.get(key) == V.MAX else g[key]
            for p, g in groups.items()
            if V.is_int(g.get(key)) or (name in spec and g.get(key) == V.MAX)}
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

# ---- kubelet paths: labels from the path -------------------------------
KUBE=$FIX/kube-v2/cg/0
if "$MEMCGTOP" -b -n 1 -F prometheus --compat cadvisor --root "$KUBE" \
	--proc "$FIX/v2-live/proc/0" >"$tmp/kube" 2>"$tmp/err"; then
	python3 - "$tmp/kube" "$KUBE" >"$tmp/r" <<'PY'
import os, re, sys
out, root = sys.argv[1], sys.argv[2]
UID = r'([0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12})'
CID = r'([0-9a-f]{12,64})'

def kube_labels(path):
    """The labels the kubelet's layout gives a path, read here with
    regular expressions of the two drivers' names."""
    lab = {}
    last = path.rsplit("/", 1)[-1]
    if re.search(r'.\.(service|scope|slice|socket|mount|swap)$', last):
        lab["name"] = last
    m = re.search(r'/kubepods\.slice(?:/kubepods-(burstable|besteffort)\.slice)?'
                  r'(?:/kubepods-(?:(burstable|besteffort)-)?pod' + UID + r'\.slice'
                  r'(?:/(?:cri-containerd|crio|docker)-' + CID + r'\.scope)?)?(?:/|$)', path)
    if m and (m.group(3) is None or m.group(1) == m.group(2)):
        q = m.group(1) or ("guaranteed" if m.group(3) else None)
        if q:
            lab["qos_class"] = q
    else:
        m = re.search(r'/kubepods(?:/(burstable|besteffort))?(?:/pod' + UID +
                      r'(?:/(?:crio-|docker-)?' + CID + r')?)?(?:/|$)', path)
        if m:
            q = m.group(1) or ("guaranteed" if m.group(2) else None)
            if q:
                lab["qos_class"] = q
    if m and m.group(m.re.groups - 1):
        lab["pod_uid"] = m.group(m.re.groups - 1).replace("_", "-")
    if m and m.group(m.re.groups):
        lab["container_id"] = m.group(m.re.groups)
    return lab

paths = ["/" + os.path.relpath(d, root) if d != root else "/"
         for d, _, _ in os.walk(root)]
want = {p: kube_labels(p) for p in paths}
bad, n, seen = [], 0, set()
for line in open(out):
    m = re.match(r'^container_\w+\{id="([^"]*)"((?:,\w+="[^"]*")*)\} \S+$', line)
    if not m:
        continue
    labels = dict(re.findall(r',(\w+)="([^"]*)"', m.group(2)))
    labels.pop("failure_type", None), labels.pop("scope", None)
    n += 1
    seen.add(m.group(1))
    if labels != want.get(m.group(1)):
        bad.append("%s: %s, want %s" % (m.group(1), labels, want.get(m.group(1))))
missing = set(paths) - seen
if missing:
    bad.append("no samples for %s" % sorted(missing))
kinds = {tuple(sorted(l)) for l in want.values()}
print(("PASS: kube-v2: the labels of %d samples over %d groups (%d label sets) "
       "are those the paths give" % (n, len(paths), len(kinds)))
      if not bad and len(kinds) >= 6 else "FAIL: kube-v2 labels: %s (label sets %s)"
      % ("; ".join(bad[:4]), sorted(kinds)))
PY
	tally "$tmp/r"
	U1=1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d
	C1=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
	P1=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${U1//-/_}.slice
	U3=0f0e0d0c-0b0a-4908-8706-050403020100
	C4=deadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef
	# the values: the fixture's files
	pgmaj=$(awk '$1 == "pgmajfault" {print $2}' "$KUBE$P1/cri-containerd-$C1.scope/memory.stat")
	min=$(cat "$KUBE/kubepods/besteffort/pod$U3/$C4/memory.min")
	for want in \
		"container_memory_failures_total{id=\"$P1/cri-containerd-$C1.scope\",name=\"cri-containerd-$C1.scope\",pod_uid=\"$U1\",qos_class=\"burstable\",container_id=\"$C1\",failure_type=\"pgmajfault\",scope=\"hierarchy\"} $pgmaj" \
		"container_spec_memory_reservation_limit_bytes{id=\"/kubepods/besteffort/pod$U3/$C4\",pod_uid=\"$U3\",qos_class=\"besteffort\",container_id=\"$C4\"} $min" \
		"container_spec_memory_limit_bytes{id=\"/system.slice/ssh.service\",name=\"ssh.service\"} 0"; do
		grep -q -x -F "$want" "$tmp/kube" &&
			pass "kube-v2: exported: $want" ||
			fail "kube-v2: no line '$want'; $(grep -F "${want%%\{*}" "$tmp/kube" | head -c 300)"
	done
	if command -v promtool >/dev/null; then
		promtool check metrics <"$tmp/kube" >"$tmp/pt" 2>&1 &&
			pass "kube-v2: promtool check metrics finds the text format clean" ||
			fail "kube-v2: promtool: $(head -c 300 "$tmp/pt")"
	fi
else
	fail "kube-v2: exit $?, $(head -c 200 "$tmp/err")"
fi

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
