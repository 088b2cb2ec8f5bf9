#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/cadvisor-prom.sh - a real Prometheus (Debian's prometheus) scrapes
# memcgtop --listen 127.0.0.1:PORT --compat cadvisor over the kube-v2
# fixture (kubelet paths, tests/fixtures/README.md), its configuration
# contrib/memcgtop-prometheus.yml as it is (promtool check config finds it
# clean) and the target in memcgtop-targets.yml beside it; then, by
# its HTTP API: every container_* series memcgtop's /metrics has is in
# Prometheus with the same labels and value (a fixture: every scrape is
# the same bytes), and selectors on the path's labels find what the paths
# say: the pods by qos_class, one pod's containers by pod_uid, a
# container by container_id, a unit by name.  The binary is $MEMCGTOP
# (default ./memcgtop); ports are free ones picked at run time; both
# servers are started here and killed by pid.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/test.sh"
. "$here/lib/cleanup.sh"
. "$here/lib/ports.sh"
test_begin cadvisor-prom
KUBE=$here/fixtures/kube-v2/cg/0
PROC=$here/fixtures/v2-live/proc/0
TMPD=$(mktemp -d)
tmp=$TMPD
pids=()
cleanup() { clean_up; }
trap_cleanup

for tool in prometheus curl python3; do
	command -v "$tool" >/dev/null || {
		fail "$tool not installed (make deps-test installs what the tests need)"
		summary
		exit 1
	}
done

read -r PORT PP < <(free_ports 2)
"$MEMCGTOP" --listen "127.0.0.1:$PORT" --compat cadvisor --root "$KUBE" \
	--proc "$PROC" >"$tmp/mc.log" 2>&1 &
MC=$!
pids+=("$MC")
wait_url 10 "http://127.0.0.1:$PORT/metrics" "$tmp/metrics" "$MC"
cp "$here/../contrib/memcgtop-prometheus.yml" "$tmp/prometheus.yml"
echo "- targets: ['127.0.0.1:$PORT']" >"$tmp/memcgtop-targets.yml"
if command -v promtool >/dev/null; then
	promtool check config "$tmp/prometheus.yml" >"$tmp/pc" 2>&1 &&
		pass "promtool check config: contrib/memcgtop-prometheus.yml is clean" ||
		fail "promtool check config: $(head -c 300 "$tmp/pc")"
fi
mkdir "$tmp/tsdb"
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address="127.0.0.1:$PP" --log.level=warn >"$tmp/prom.log" 2>&1 &
pids+=("$!")
API=http://127.0.0.1:$PP
python3 - "$API" "$tmp/metrics" "$KUBE" >"$tmp/r" 2>&1 <<'PY'
import json, os, re, sys, time, urllib.parse, urllib.request
api, metrics, root = sys.argv[1:4]

def query(q):
    u = api + "/api/v1/query?" + urllib.parse.urlencode({"query": q})
    with urllib.request.urlopen(u, timeout=5) as r:
        d = json.load(r)
    return {tuple(sorted((k, v) for k, v in s["metric"].items()
                         if k not in ("job", "instance"))): float(s["value"][1])
            for s in d["data"]["result"]}

# the target up, and a scrape of it in the head (the job's interval is
# 15 s: the first scrape comes within it)
end = time.monotonic() + 40
while time.monotonic() < end:
    try:
        if query('up{job="memcgtop"} == 1') and \
                query('count(container_memory_usage_bytes)'):
            break
    except OSError:
        pass
    time.sleep(0.2)
want = {}
for line in open(metrics):
    m = re.match(r'^(container_\w+)\{(.*)\} (\S+)$', line)
    if m:
        lab = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
        lab["__name__"] = m.group(1)
        want[tuple(sorted(lab.items()))] = float(m.group(3))
got = query('{__name__=~"container_.*"}')
if want and got == want:
    print("PASS: Prometheus has the %d container_* series of /metrics, "
          "every label and value alike" % len(want))
else:
    diff = sorted(set(want.items()) ^ set(got.items()))[:3]
    print("FAIL: Prometheus has %d series, /metrics %d; differing: %s" %
          (len(got), len(want), diff))
# selectors on the path's labels, against the fixture's directories
dirs = ["/" + os.path.relpath(d, root) for d, _, _ in os.walk(root) if d != root]
uid = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
cid = "deadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef"
def qos(d):
    m = re.search(r'kubepods(?:\.slice/kubepods-|/)(burstable|besteffort)', d)
    if m:
        return m.group(1)
    return "guaranteed" if re.search(r'kubepods(\.slice/kubepods-|/)pod', d) else None
by_qos = {}
for d in dirs:
    if qos(d):
        by_qos[(("qos_class", qos(d)),)] = by_qos.get((("qos_class", qos(d)),), 0) + 1.0
tests = [
    ('count by (qos_class) (container_memory_usage_bytes{qos_class!=""})', by_qos),
    ('count(container_memory_usage_bytes{pod_uid="%s"})' % uid,
     {(): float(sum(1 for d in dirs if uid.replace("-", "_") + ".slice" in d))}),
    ('container_memory_working_set_bytes{container_id="%s"}' % cid,
     {k: v for k, v in want.items()
      if ("__name__", "container_memory_working_set_bytes") in k
      and ("container_id", cid) in k}),
    ('count(container_memory_usage_bytes{name="ssh.service"})', {(): 1.0}),
]
for q, w in tests:
    g = query(q)
    w = {tuple(p for p in k if p[0] != "__name__"): v for k, v in w.items()}
    g = {tuple(p for p in k if p[0] != "__name__"): v for k, v in g.items()}
    print(("PASS: %s: %s" % (q, sorted(g.items()))) if g == w and w else
          "FAIL: %s: %s, want %s" % (q, sorted(g.items()), sorted(w.items())))
PY
tally "$tmp/r"
grep -q '^PASS: Prometheus has' "$tmp/r" || grep -q '^FAIL' "$tmp/r" ||
	fail "the queries: $(tail -n 3 "$tmp/r")"
summary
