#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# source.sh - memcgtop --prometheus URL: a real Prometheus server scraping
# three memcgtop --listen instances, read back as one tree of hosts.
#
# Usage (as root):  tests/prometheus/source.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# The instances: two over single-sample fixture copies (v1-live's sample 0,
# edge-unlimited's sample 0: every value fixed), and the live v1 host from
# a group of its own with no process (memcgtop-promsrc-$$: limit 64M, soft
# 32M; its values do not move either).  Prometheus (Debian's package)
# scrapes them every second on 127.0.0.1, the fixtures as job "fix", the
# live host as job "live".  Checks, with the values computed here from each
# instance's own /metrics:
#   - -b -F json: the groups are "/", one per host (its instance label)
#     and the host's groups below it, exactly; every value of every
#     memcgtop_* series of every instance equals the JSON's (+Inf: "max"),
#     save scan_prio, which the host's system figures give (blank here)
#   - --flat --top 3 -o usage: the three largest usages of the fleet
#   - -f cache: the groups whose path holds "cache" and their ancestors
#   - --match '{job="fix"}': only the fixture hosts; --host-label job: the
#     hosts are "fix" and "live"
#   - the rates: with a process forking every 20 ms in a subgroup of the
#     live group (after the checks above), interval_s is 4 scrape
#     intervals and every rate of -F json equals, to its 3 decimals, the
#     server's own rate(memcgtop_X_total[interval_s]) at the JSON's time,
#     the same groups having one; the load's pgfault_per_s is above 0
#   - --set /HOST/GROUP:KNOB=VALUE: exit 2 and the ssh line to run
#   - the server stopped, answering 500, garbage, JSON that is not the
#     API's, the API's error, nothing for 30 s (libcurl's 10 s timeout),
#     and garbage after two good answers (mid-run): exit 1 and exactly one
#     line on stderr saying why (tests/prometheus/fake_api.py answers so)
#
# PASS:/FAIL: lines, "prometheus-source: N passed, M failed", exit 1 on a
# failure; SKIP (exit 77; CI=true: FAIL) when the host cannot run it (not
# root, no v1 memory mount, no prometheus, libcurl or json-c).  Ports from
# PORT_BASE (default 19700) to PORT_BASE + 99.  Every process it starts is
# killed by its pid; the group and the temporary directory are removed on
# exit, also on failure.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
CGM=/sys/fs/cgroup/memory
FIX=$top/tests/fixtures
NAME="prometheus source"	# summary, cannot_run: tests/live/lib.sh
. "$top/tests/live/lib.sh"

[ "$(id -u)" = 0 ] || cannot_run "not root"
[ -f "$CGM/memory.usage_in_bytes" ] && [ -w "$CGM" ] ||
	cannot_run "$CGM is not a writable cgroup v1 memory controller"
[ -x "$MEMCGTOP" ] || cannot_run "$MEMCGTOP not found (run make)"
for tool in prometheus python3 curl; do
	command -v "$tool" >/dev/null 2>&1 ||
		cannot_run "$tool not installed (make deps installs it)"
done
for lib in libcurl.so.4 libjson-c.so.5; do
	ldconfig -p | grep -q "$lib " ||
		cannot_run "$lib not installed (make deps installs it)"
done

TMPD=$(mktemp -d /tmp/memcgtop-promsrc.XXXXXX)
G=memcgtop-promsrc-$$
pids=()
cleanup() {
	[ -n "${SOCK:-}" ] && tmux_stop
	stop_pids "${pids[@]}"
	remove_tree "$CGM/$G"
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir "$CGM/$G" || cannot_run "cannot create $CGM/$G"
echo 64M >"$CGM/$G/memory.limit_in_bytes"
echo 32M >"$CGM/$G/memory.soft_limit_in_bytes"

B=${PORT_BASE:-19700}
P_A=$((B + 1)) P_B=$((B + 2)) P_C=$((B + 3)) P_PROM=$((B + 10)) P_FAKE=$((B + 20))
P_NONE=$((B + 99))
HA=127.0.0.1:$P_A HB=127.0.0.1:$P_B HC=127.0.0.1:$P_C
API=http://127.0.0.1:$P_PROM

listen() {
	local port=$1
	shift
	"$MEMCGTOP" --listen "127.0.0.1:$port" "$@" >"$TMPD/listen-$port.log" 2>&1 &
	pids+=($!)
}
listen $P_A --root "$FIX/v1-live/cg/0" --proc "$FIX/v1-live/proc/0"
listen $P_B --root "$FIX/edge-unlimited/cg/0" --proc "$FIX/edge-unlimited/proc/0"
listen $P_C "/$G"
python3 "$here/fake_api.py" $P_FAKE >"$TMPD/fake.log" 2>&1 &
pids+=($!)

cat >"$TMPD/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: fix
    static_configs:
      - targets: ['$HA', '$HB']
  - job_name: live
    static_configs:
      - targets: ['$HC']
EOF
prometheus --config.file="$TMPD/prometheus.yml" \
	--storage.tsdb.path="$TMPD/tsdb" \
	--web.listen-address=127.0.0.1:$P_PROM --log.level=warn \
	>"$TMPD/prom.log" 2>&1 &
pids+=($!)

# Until the server has every instance's usage series.
up=
for i in $(seq 300); do
	up=$(curl -sf "$API/api/v1/query" \
		--data-urlencode 'query=count(memcgtop_usage_bytes) by (instance)' 2>/dev/null |
		python3 -c 'import json,sys; print(len(json.load(sys.stdin)["data"]["result"]))' 2>/dev/null)
	[ "$up" = 3 ] && break
	sleep 0.1
done
if [ "$up" != 3 ]; then
	fail "the server has the usage of ${up:-no} instances after 30 s, not 3: $(tail -2 "$TMPD/prom.log")"
	summary
	exit 1
fi
# memcgtop asks at the refresh's whole second: a second on, that is
# after the first scrape the loop above saw.
sleep 1
for h in $HA $HB $HC; do
	curl -sf "http://$h/metrics" >"$TMPD/metrics-$h" || fail "GET http://$h/metrics"
done

# run NAME ARGS...: memcgtop --prometheus $API ARGS; stdout, stderr and
# the status in $TMPD/NAME.{out,err,rc}.
run() {
	local n=$1
	shift
	"$MEMCGTOP" "$@" >"$TMPD/$n.out" 2>"$TMPD/$n.err"
	echo $? >"$TMPD/$n.rc"
}

# ---- the values ----------------------------------------------------------------------
run json --prometheus "$API" -b -d 0.1 -F json
run flat --prometheus "$API" -b -d 0.1 -F json --flat --top 3 -o usage
run filter --prometheus "$API" -b -d 0.1 -F json -f cache
run match --prometheus "$API" --match '{job="fix"}' -b -d 0.1 -F json
run hostl --prometheus "$API" --host-label job -b -d 0.1 -F json
python3 - "$TMPD" "$HA" "$HB" "$HC" >"$TMPD/values.txt" 2>&1 <<'PY'
import json, re, sys
tmpd, hosts = sys.argv[1], sys.argv[2:]
ok = True
def check(cond, what):
    global ok
    print(("PASS: " if cond else "FAIL: ") + what)
    ok = ok and cond
def load(name):
    rc = open(f"{tmpd}/{name}.rc").read().strip()
    err = open(f"{tmpd}/{name}.err").read()
    if rc != "0" or err:
        check(False, f"{name}: exit {rc}, stderr {err[:200]!r}")
        return None
    return json.loads(open(f"{tmpd}/{name}.out").read())
# derived from the host's system figures, which no series carries
HOST_ONLY = {"scan_prio"}
LINE = re.compile(r'^(memcgtop_\w+)\{cgroup="((?:[^"\\]|\\.)*)"\} (\S+)$')
series = {}           # (fleet path, name) -> text
for h in hosts:
    for line in open(f"{tmpd}/metrics-{h}"):
        m = LINE.match(line.rstrip("\n"))
        if m:
            path = "/" + h + ("" if m[2] == "/" else m[2])
            series[(path, m[1])] = m[3]
d = load("json")
if d is not None:
    groups = {g["path"]: g for g in d["groups"]}
    want = {"/"} | {"/" + h for h in hosts} | {p for p, _ in series}
    check(set(groups) == want and len(d["groups"]) == len(want),
          f"json: the groups are /, the 3 hosts and theirs ({len(want)}); "
          f"missing {sorted(want - set(groups))[:3]}, extra "
          f"{sorted(set(groups) - want)[:3]}")
    bad = []
    for (path, name), text in sorted(series.items()):
        key = name[len("memcgtop_"):]
        for suf in ("_bytes", "_total"):
            if key not in groups.get(path, {}) and key.endswith(suf):
                key = key[:-len(suf)]
        if key in HOST_ONLY:
            continue
        v = groups.get(path, {}).get(key, "absent")
        same = v == "max" if text == "+Inf" else \
            isinstance(v, (int, float)) and not isinstance(v, bool) and \
            float(v) == float(text)
        if not same:
            bad.append(f"{path} {name}: /metrics {text}, json {v}")
    check(not bad and len(series) > 300,
          f"json: each of the {len(series)} values of the instances' "
          f"/metrics: {len(bad)} differ {bad[:3]}")
    check(d["mode"] == "prometheus" and d["collector"] == "prometheus" and
          d["memcg"] == "v1", "json: mode and collector prometheus, memcg v1")
    usage = sorted(((int(series[k]), k[0]) for k in series
                    if k[1] == "memcgtop_usage_bytes"),
                   key=lambda t: (-t[0], t[1]))[:3]
    f = load("flat")
    if f is not None:
        got = [(g["usage"], g["path"]) for g in f["groups"]]
        check(got == usage, f"--flat --top 3 -o usage: {got} (want {usage})")
    f = load("filter")
    if f is not None:
        hit = {p for p in groups if "cache" in p}
        anc = {p[:i] or "/" for p in hit for i in range(len(p))
               if p[i] == "/"}
        got = [g["path"] for g in f["groups"]]
        check(set(got) == hit | anc and len(got) == len(hit | anc) and hit,
              f"-f cache: {got}")
    f = load("match")
    if f is not None:
        tops = sorted(g["path"] for g in f["groups"] if g["depth"] == 1)
        check(tops == sorted("/" + h for h in hosts[:2]),
              f"--match '{{job=\"fix\"}}': hosts {tops}")
    f = load("hostl")
    if f is not None:
        tops = sorted(g["path"] for g in f["groups"]
                      if g["path"].count("/") == 1 and g["path"] != "/")
        check(tops == ["/fix", "/live"], f"--host-label job: hosts {tops}")
sys.exit(0 if ok else 1)
PY
rc=$?
tally "$TMPD/values.txt"
[ $rc = 0 ] || grep -q '^FAIL' "$TMPD/values.txt" ||
	fail "the values' check failed: $(tail -3 "$TMPD/values.txt")"

run text --prometheus "$API" -b -d 0.1
grep -q " 64.0M .* $G\$" "$TMPD/text.out" &&
	[ "$(cat "$TMPD/text.rc")" = 0 ] &&
	pass "text: the live host's group (limit 64.0M)" ||
	fail "text: no row '... 64.0M ... $G': $(head -c 600 "$TMPD/text.out")"

# ---- rates ------------------------------------------------------------------------------
# A subgroup of the live host's group that forks a process every 20 ms
# (its page faults count up); once the server has 6 s of it (more than
# the window), every rate of the JSON equals, to its 3 decimals, the
# server's rate(memcgtop_X_total[W]) at the JSON's time, W its interval_s.
mkdir "$CGM/$G/load" || fail "cannot create $CGM/$G/load"
sh -c 'echo $$ >"$1/cgroup.procs" && while :; do /bin/true; sleep 0.02; done' \
	sh "$CGM/$G/load" >/dev/null 2>&1 &
loadpid=$!
pids+=($loadpid)
sleep 6
run rates --prometheus "$API" -b -d 0.1 -F json
python3 - "$TMPD" "$API" >"$TMPD/rates.txt" 2>&1 <<'PY'
import datetime, json, sys, urllib.parse, urllib.request
tmpd, api = sys.argv[1:]
ok = True
def check(cond, what):
    global ok
    print(("PASS: " if cond else "FAIL: ") + what)
    ok = ok and cond
rc = open(f"{tmpd}/rates.rc").read().strip()
err = open(f"{tmpd}/rates.err").read()
if rc != "0" or err:
    check(False, f"rates: exit {rc}, stderr {err[:200]!r}")
    sys.exit(1)
d = json.loads(open(f"{tmpd}/rates.out").read())
at = int(datetime.datetime.strptime(d["time"], "%Y-%m-%dT%H:%M:%SZ")
         .replace(tzinfo=datetime.timezone.utc).timestamp())
w = d["interval_s"]
check(w is not None and 3.9 <= w <= 4.1,
      f"rates: interval_s {w}: 4 scrape intervals of 1 s")
wms = round((w or 0) * 1000)
# the counters' rate columns (failcnt_tree_per_s sums the group's)
keys = sorted({k for g in d["groups"] for k in g
               if k.endswith("_per_s") and k != "failcnt_tree_per_s"})
got, want = {}, {}
for g in d["groups"]:
    for k in keys:
        if g.get(k) is not None:
            got[(g["path"], k)] = "%.3f" % g[k]
for k in keys:
    q = f"rate(memcgtop_{k[:-len('_per_s')]}_total[{wms}ms])"
    body = urllib.parse.urlencode({"query": q, "time": at}).encode()
    r = json.load(urllib.request.urlopen(api + "/api/v1/query", body))
    for s in r["data"]["result"]:
        m = s["metric"]
        path = "/" + m["instance"] + ("" if m["cgroup"] == "/" else m["cgroup"])
        want[(path, k)] = "%.3f" % float(s["value"][1])
diff = sorted(set(got.items()) ^ set(want.items()))
check(not diff and len(want) > 100,
      f"rates: each of the {len(want)} rates of {len(keys)} counters equals "
      f"the server's rate() at {at} over [{wms}ms]: {len(diff)} differ "
      f"{diff[:4]}")
live = [p for p, k in got if p.endswith("/load") and k == "pgfault_per_s"]
check(bool(live) and float(got[(live[0], "pgfault_per_s")]) > 0,
      f"rates: the load's pgfault_per_s {[got[(p, 'pgfault_per_s')] for p in live]} > 0")
sys.exit(0 if ok else 1)
PY
rc=$?
tally "$TMPD/rates.txt"
[ $rc = 0 ] || grep -q '^FAIL' "$TMPD/rates.txt" ||
	fail "the rates' check failed: $(tail -3 "$TMPD/rates.txt")"
stop_pids "$loadpid"

# ---- read-only -------------------------------------------------------------------------
run set --prometheus "$API" --set "/$HA/fixture/web:limit=1G" --set "/$HC:soft=16M"
want="memcgtop: --set: --prometheus is read-only; on $HA run: ssh 127.0.0.1 memcgtop --set '/fixture/web:limit=1G'
memcgtop: --set: --prometheus is read-only; on $HC run: ssh 127.0.0.1 memcgtop --set '/:soft=16M'"
[ "$(cat "$TMPD/set.rc")" = 2 ] && [ "$(cat "$TMPD/set.err")" = "$want" ] &&
	[ ! -s "$TMPD/set.out" ] &&
	pass "--set: exit 2, the ssh lines" ||
	fail "--set: exit $(cat "$TMPD/set.rc"), stderr $(cat "$TMPD/set.err")"

# ---- a server that fails -------------------------------------------------------------
# bad NAME URL REGEX: exit 1, nothing on stdout, one line on stderr
# matching REGEX.
bad() {
	local n=$1 url=$2 re=$3
	run "$n" --prometheus "$url" -b -n 3 -d 0.1 -F json
	if [ "$(cat "$TMPD/$n.rc")" = 1 ] && [ "$(wc -l <"$TMPD/$n.err")" = 1 ] &&
		grep -Eq "^memcgtop: --prometheus $re\$" "$TMPD/$n.err" &&
		[ ! -s "$TMPD/$n.out" ]; then
		pass "$n: exit 1, $(cat "$TMPD/$n.err")"
	else
		fail "$n: exit $(cat "$TMPD/$n.rc"), stdout $(head -c 100 "$TMPD/$n.out"), stderr $(head -c 300 "$TMPD/$n.err")"
	fi
}
F=http://127.0.0.1:$P_FAKE
bad stopped "http://127.0.0.1:$P_NONE" "http://127.0.0.1:$P_NONE/api/v1/query: Failed to connect to 127.0.0.1 port $P_NONE after [0-9]+ ms: Couldn't connect to server"
bad http500 "$F/500" "$F/500/api/v1/query: the server answered HTTP 500"
bad garbage "$F/garbage" "$F/garbage/api/v1/query: the answer is not JSON"
bad notapi "$F/notapi" "$F/notapi/api/v1/query: not a Prometheus API answer \(no status\)"
bad apierr "$F/apierr" "$F/apierr/api/v1/query: the query failed: parse error at char 3"
bad slow "$F/slow" "$F/slow/api/v1/query: Operation timed out after 1[0-9]{4} milliseconds with 0 bytes received"
bad midrun "$F/mid" "$F/mid/api/v1/query: the answer is not JSON"

summary
