#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - memcgtop's Prometheus text format through a real node_exporter
# textfile collector and a real Prometheus server, on a live cgroup v1 group.
#
# Usage (as root):  tests/prometheus/run.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# 1. Installs prometheus, prometheus-node-exporter and curl if missing
#    (apt-get, --no-install-recommends, with a policy-rc.d that keeps the
#    packages' services from starting; one that started anyway is stopped
#    through its init system, never killed by name).
# 2. Creates /sys/fs/cgroup/memory/memcgtop-prom-$$-$RANDOM (limit 256M)
#    holding one memload process with 16 MiB of anonymous memory, and a
#    textfile directory in a temporary directory.
# 3. Starts prometheus-node-exporter on 127.0.0.1:<free port> with only the
#    textfile collector, as user nobody (Debian runs it as prometheus, not
#    root: the file memcgtop writes must be readable by another user).
# 4. memcgtop -b -n 1 -F prometheus writes the textfile for the test group
#    (with --output FILE when this memcgtop has it; otherwise stdout into a
#    temporary file renamed into place).  Checks: the file passes promtool
#    check metrics; its usage for the group lies within the kernel's
#    memory.usage_in_bytes read before, during (every 20 ms) and after the
#    run; node_exporter's /metrics has every memcgtop family of the file
#    with HELP and the same TYPE and every sample with the same value, and
#    node_textfile_scrape_error is 0.
# 5. With --output: memcgtop -n 0 -d 0.1 rewrites the file while
#    node_exporter is scraped 40 times: no scrape sees an error or misses the
#    group; after SIGTERM no temporary file is left beside it.
# 6. Starts prometheus on 127.0.0.1:<free port> (temporary config scraping
#    that node_exporter every second, temporary storage), waits until the
#    target is up and queries /api/v1/query for
#    memcgtop_usage_bytes{cgroup="/<test group>"}: the value of step 4.
#
# Each check prints "PASS: ..." or "FAIL: ..."; the last line is
# "prometheus: N passed, M failed"; exit 1 on any failure.  A host that cannot
# run the test (not root, no v1 memory mount, packages not installable)
# prints "SKIP: ..." and exits 77 (with CI=true: FAIL, exit 1).  Everything
# listens on 127.0.0.1 only; every process is started by the test and killed
# by its pid; the group and the temporary directory are removed on exit,
# also on failure or interrupt.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
CGM=/sys/fs/cgroup/memory

npass=0
nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
summary() {
	echo "prometheus: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
cannot_run() {
	if [ "${CI:-}" = true ]; then
		fail "prometheus: $1 (CI=true: not skipping)"
		summary
		exit 1
	fi
	echo "SKIP: prometheus: $1"
	exit 77
}

# ---- can this host run the test? ----------------------------------------------
[ "$(id -u)" = 0 ] || cannot_run "not root"
[ -f "$CGM/memory.usage_in_bytes" ] && [ -w "$CGM" ] ||
	cannot_run "$CGM is not a writable cgroup v1 memory controller"
[ -x "$MEMCGTOP" ] || cannot_run "memcgtop binary $MEMCGTOP not found (run make)"
MEMCGTOP=$(cd "$(dirname "$MEMCGTOP")" && pwd)/$(basename "$MEMCGTOP")
for tool in python3 gcc setpriv; do
	command -v "$tool" >/dev/null 2>&1 || cannot_run "$tool not installed"
done
id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null 2>&1 ||
	cannot_run "no user nobody / group nogroup"

# daemons NAME...: pids of running processes with these command names.
daemons() {
	local n
	for n in "$@"; do pgrep -x "$n"; done 2>/dev/null | sort -n | tr '\n' ' '
}
DAEMONS="prometheus prometheus-node-exporter node_exporter"
daemons_before=$(daemons $DAEMONS)

# ---- packages -------------------------------------------------------------------
missing=""
for p in prometheus prometheus-node-exporter curl; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	policy_made=
	trap '[ -n "$policy_made" ] && rm -f /usr/sbin/policy-rc.d' EXIT
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		# invoke-rc.d and deb-systemd-invoke ask this before starting a
		# service: 101 means "not allowed".
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d &&
			chmod 755 /usr/sbin/policy-rc.d && policy_made=1
	fi
	apt-get update -qq >/dev/null 2>&1
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >/dev/null 2>&1
	rc=$?
	[ -n "$policy_made" ] && rm -f /usr/sbin/policy-rc.d
	policy_made=
	trap - EXIT
	# A service that was started anyway is stopped through its init system.
	for s in prometheus prometheus-node-exporter; do
		if [ -d /run/systemd/system ]; then
			systemctl stop "$s.service" >/dev/null 2>&1
		elif [ -x "/etc/init.d/$s" ] && "/etc/init.d/$s" status >/dev/null 2>&1; then
			"/etc/init.d/$s" stop >/dev/null 2>&1
		fi
	done
	[ "$rc" = 0 ] || cannot_run "apt-get install$missing failed"
fi
NODE_EXPORTER=$(command -v prometheus-node-exporter || command -v node_exporter) ||
	cannot_run "no prometheus-node-exporter binary"
PROMETHEUS=$(command -v prometheus) || cannot_run "no prometheus binary"
PROMTOOL=$(command -v promtool || true)

# ---- state and cleanup ----------------------------------------------------------
TNAME=memcgtop-prom-$$-$RANDOM
TGRP=$CGM/$TNAME
TMPD=
pids=()
cleaned=

# stop PID...: TERM, up to 5 s, then KILL; reaps them.
stop() {
	local p i alive
	for p in "$@"; do kill -TERM "$p" 2>/dev/null; done
	for i in $(seq 50); do
		alive=0
		for p in "$@"; do kill -0 "$p" 2>/dev/null && alive=1; done
		[ "$alive" = 0 ] && break
		sleep 0.1
	done
	for p in "$@"; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
}

cleanup() {
	local t i
	[ -n "$cleaned" ] && return
	cleaned=1
	[ "${#pids[@]}" -gt 0 ] && stop "${pids[@]}"
	if [ -d "$TGRP" ]; then
		for i in $(seq 20); do
			while read -r t; do
				echo "$t" >"$CGM/cgroup.procs" 2>/dev/null
			done <"$TGRP/cgroup.procs"
			rmdir "$TGRP" 2>/dev/null && break
			sleep 0.2
		done
	fi
	[ -n "$TMPD" ] && rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

TMPD=$(mktemp -d /tmp/memcgtop-prom.XXXXXX) || abort "mktemp failed"
chmod 755 "$TMPD"
TXT=$TMPD/textfile
PROM=$TXT/memcgtop.prom
mkdir "$TXT" && chmod 755 "$TXT" || abort "mkdir $TXT"

have_output=
"$MEMCGTOP" --help 2>&1 | grep -q -- '--output' && have_output=1

# Two free loopback ports (the kernel picks them; closed again at once).
read -r P_NODE P_PROM < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in ss))
for s in ss: s.close()') || abort "no free ports"

# ---- the test group with a known load -------------------------------------------------
gcc -O2 -static -o "$TMPD/memload" "$top/tests/load/memload.c" 2>"$TMPD/gcc.err" ||
	gcc -O2 -o "$TMPD/memload" "$top/tests/load/memload.c" ||
	abort "cannot build memload"
mkdir "$TGRP" || abort "mkdir $TGRP"
echo $((256 << 20)) >"$TGRP/memory.limit_in_bytes" || abort "limit for $TGRP"
sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" anon 16' sh "$TGRP" \
	"$TMPD/memload" >"$TMPD/memload.out" 2>&1 &
pids+=($!)
for i in $(seq 100); do
	grep -q '^ready' "$TMPD/memload.out" && break
	kill -0 "${pids[0]}" 2>/dev/null || abort "memload died: $(cat "$TMPD/memload.out")"
	sleep 0.1
done
grep -q '^ready' "$TMPD/memload.out" || abort "memload not ready after 10 s"
grep -qx "${pids[0]}" "$TGRP/cgroup.procs" || abort "memload not in $TGRP"
pass "setup: group /$TNAME, limit 256M, memload 16 MiB ready"

# ---- node_exporter --------------------------------------------------------------------
ne_flags=(--web.listen-address=127.0.0.1:$P_NODE
	--collector.textfile.directory="$TXT" --collector.textfile)
"$NODE_EXPORTER" --help 2>&1 | grep -q -- '--collector.disable-defaults' &&
	ne_flags+=(--collector.disable-defaults)
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	"$NODE_EXPORTER" "${ne_flags[@]}" >"$TMPD/node.log" 2>&1 &
NE_PID=$!
pids+=($NE_PID)
for i in $(seq 100); do
	curl -sf -o /dev/null "http://127.0.0.1:$P_NODE/metrics" && break
	kill -0 $NE_PID 2>/dev/null || abort "node_exporter died: $(tail -3 "$TMPD/node.log")"
	sleep 0.1
done
curl -sf -o /dev/null "http://127.0.0.1:$P_NODE/metrics" ||
	abort "node_exporter not answering on 127.0.0.1:$P_NODE"
pass "node_exporter $("$NODE_EXPORTER" --version 2>&1 | awk 'NR==1{print $3}') on 127.0.0.1:$P_NODE as nobody, textfile collector only"

# ---- one textfile -------------------------------------------------------------------------
# A sampler reads the group's usage every 20 ms while memcgtop runs.
usage() { cat "$TGRP/memory.usage_in_bytes"; }
usage >"$TMPD/usage.log"
(while :; do usage; sleep 0.02; done) >>"$TMPD/usage.log" 2>/dev/null &
SAMPLER=$!
pids+=($SAMPLER)
if [ -n "$have_output" ]; then
	how="--output"
	"$MEMCGTOP" -b -n 1 -d 0.2 -F prometheus --output "$PROM" "/$TNAME" \
		>"$TMPD/mc.out" 2>"$TMPD/mc.err"
	rc=$?
else
	how="stdout renamed into place (no --output in this memcgtop)"
	"$MEMCGTOP" -b -n 1 -d 0.2 -F prometheus "/$TNAME" \
		>"$TXT/.memcgtop.prom.tmp" 2>"$TMPD/mc.err" &&
		mv -f "$TXT/.memcgtop.prom.tmp" "$PROM"
	rc=$?
fi
kill "$SAMPLER" 2>/dev/null
wait "$SAMPLER" 2>/dev/null
usage >>"$TMPD/usage.log"
if [ "$rc" = 0 ] && [ -s "$PROM" ]; then
	pass "memcgtop -n 1 -F prometheus wrote $(wc -l <"$PROM") lines ($how)"
else
	fail "memcgtop -n 1 -F prometheus ($how): exit $rc, $(head -c 300 "$TMPD/mc.err")"
fi
[ -n "$have_output" ] && { [ -s "$TMPD/mc.out" ] &&
	fail "--output: memcgtop also printed to stdout: $(head -c 200 "$TMPD/mc.out")" ||
	pass "--output: nothing on stdout"; }
left=$(ls -A "$TXT" | grep -vx memcgtop.prom)
[ -z "$left" ] && pass "textfile directory holds only memcgtop.prom" ||
	fail "textfile directory holds more than memcgtop.prom: $left"
mode=$(stat -c %a "$PROM" 2>/dev/null)
[ "$mode" = 644 ] && pass "memcgtop.prom has mode 644 (umask 022)" ||
	fail "memcgtop.prom has mode $mode, not 644: a node_exporter not running as root cannot read it"

if [ -n "$PROMTOOL" ]; then
	if out=$("$PROMTOOL" check metrics <"$PROM" 2>&1); then
		pass "promtool check metrics: no problems"
	else
		fail "promtool check metrics: $(echo "$out" | head -5)"
	fi
fi

FILE_USAGE=$(sed -n "s|^memcgtop_usage_bytes{cgroup=\"/$TNAME\"} \([^ ]*\)\$|\1|p" "$PROM")
read -r lo hi n < <(sort -n "$TMPD/usage.log" | awk 'NR==1{lo=$1} {hi=$1} END{print lo, hi, NR}')
if [ -z "$FILE_USAGE" ]; then
	fail "no memcgtop_usage_bytes sample for /$TNAME in the file"
elif [ "$FILE_USAGE" -ge "$lo" ] 2>/dev/null && [ "$FILE_USAGE" -le "$hi" ]; then
	pass "usage of /$TNAME in the file: $FILE_USAGE, within the kernel's reads [$lo, $hi] ($n reads)"
else
	fail "usage of /$TNAME in the file: $FILE_USAGE, outside the kernel's reads [$lo, $hi]"
fi
grep -qx "memcgtop_limit_bytes{cgroup=\"/$TNAME\"} $((256 << 20))" "$PROM" &&
	pass "limit of /$TNAME in the file: $((256 << 20))" ||
	fail "limit of /$TNAME in the file: $(grep "^memcgtop_limit_bytes{cgroup=\"/$TNAME\"}" "$PROM")"
grep -qx "memcgtop_procs{cgroup=\"/$TNAME\"} 1" "$PROM" &&
	pass "procs of /$TNAME in the file: 1" ||
	fail "procs of /$TNAME in the file: $(grep "^memcgtop_procs{cgroup=\"/$TNAME\"}" "$PROM")"

# ---- what node_exporter serves --------------------------------------------------------------
cat >"$TMPD/compare.py" <<'PYEOF'
# compare.py FILE SCRAPE GROUP: every memcgtop family of FILE is in SCRAPE
# with HELP and the same TYPE, every sample with the same value (as floats:
# node_exporter reformats numbers), and the textfile collector had no error.
import math, re, sys

def parse(path):
    types, helps, samples = {}, set(), {}
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("# TYPE "):
            _, _, name, typ = line.split(" ", 3)
            types[name] = typ
        elif line.startswith("# HELP "):
            helps.add(line.split(" ", 3)[2])
        elif line and not line.startswith("#"):
            m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{.*\})?) (\S+)(?: \S+)?$', line)
            if not m:
                raise SystemExit("FAIL: unparsable line in %s: %r" % (path, line))
            samples[m.group(1)] = float(m.group(2))
    return types, helps, samples

ftypes, fhelps, fsamples = parse(sys.argv[1])
stypes, shelps, ssamples = parse(sys.argv[2])
group = sys.argv[3]
ok = True
def fail(msg):
    global ok
    ok = False
    print("FAIL: node_exporter: " + msg)

for name, typ in ftypes.items():
    if stypes.get(name) != typ:
        fail("family %s: TYPE %s in the file, %s in /metrics" % (name, typ, stypes.get(name)))
    if name not in shelps:
        fail("family %s: no HELP in /metrics" % name)
extra = sorted(n for n in stypes if n.startswith("memcgtop_") and n not in ftypes)
if extra:
    fail("families in /metrics but not in the file: %s" % extra[:5])
diff = [k for k, v in fsamples.items()
        if k not in ssamples or not (ssamples[k] == v or (math.isnan(v) and math.isnan(ssamples[k])))]
if diff:
    fail("%d of %d samples differ or are missing, e.g. %s: file %s, /metrics %s"
         % (len(diff), len(fsamples), diff[0], fsamples[diff[0]], ssamples.get(diff[0])))
nms = [k for k in ssamples if k.startswith("memcgtop_")]
if len(nms) != len(fsamples):
    fail("%d memcgtop samples in /metrics, %d in the file" % (len(nms), len(fsamples)))
err = ssamples.get("node_textfile_scrape_error")
if err != 0.0:
    fail("node_textfile_scrape_error is %s" % err)
if not any(k.startswith("node_textfile_mtime_seconds{") and "memcgtop.prom" in k for k in ssamples):
    fail("no node_textfile_mtime_seconds for memcgtop.prom")
key = 'memcgtop_usage_bytes{cgroup="/%s"}' % group
if ok:
    print("PASS: node_exporter: %d families (%d counters) with HELP and TYPE, "
          "%d samples equal to the file, node_textfile_scrape_error 0; %s %s"
          % (len(ftypes), sum(1 for t in ftypes.values() if t == "counter"),
             len(fsamples), key, repr(ssamples.get(key))))
sys.exit(0 if ok else 1)
PYEOF
scrape() { curl -sf "http://127.0.0.1:$P_NODE/metrics"; }
if scrape >"$TMPD/scrape.txt"; then
	python3 "$TMPD/compare.py" "$PROM" "$TMPD/scrape.txt" "$TNAME" >"$TMPD/cmp.out" 2>&1
	while IFS= read -r line; do
		case $line in
		PASS:*) pass "${line#PASS: }" ;;
		FAIL:*) fail "${line#FAIL: }" ;;
		*) fail "compare.py: $line" ;;
		esac
	done <"$TMPD/cmp.out"
	grep '^# HELP memcgtop_usage_bytes \|^# TYPE memcgtop_usage_bytes \|^memcgtop_usage_bytes{cgroup="/'"$TNAME"'"}' \
		"$TMPD/scrape.txt" | sed 's/^/  /'
else
	fail "node_exporter: scrape of /metrics failed"
fi

# ---- a long-running writer (--output only) ------------------------------------------------
if [ -n "$have_output" ]; then
	"$MEMCGTOP" -b -n 0 -d 0.1 -F prometheus --output "$PROM" "/$TNAME" \
		>/dev/null 2>"$TMPD/mc0.err" &
	MC0=$!
	pids+=($MC0)
	sleep 0.5
	bad=0 seen=0 mtimes=""
	for i in $(seq 40); do
		if ! scrape >"$TMPD/s.txt"; then
			bad=$((bad + 1)); echo "  scrape $i failed"; continue
		fi
		grep -qx 'node_textfile_scrape_error 0' "$TMPD/s.txt" &&
			grep -q "^memcgtop_usage_bytes{cgroup=\"/$TNAME\"} " "$TMPD/s.txt" ||
			{ bad=$((bad + 1)); echo "  scrape $i: $(grep '^node_textfile_scrape_error' "$TMPD/s.txt")"; }
		seen=$((seen + 1))
		mtimes="$mtimes $(stat -c %.9Y "$PROM" 2>/dev/null)"
		sleep 0.05
	done
	# Each iteration renames a new file (new mtime, ns) over the name.
	nm=$(echo $mtimes | tr ' ' '\n' | sort -u | wc -l)
	[ "$bad" = 0 ] && [ "$nm" -gt 3 ] &&
		pass "-n 0 -d 0.1 --output: $seen scrapes while the file was rewritten ($nm versions seen), no error, group always there" ||
		fail "-n 0 -d 0.1 --output: $bad of 40 scrapes bad, $nm versions seen"
	kill -TERM "$MC0" 2>/dev/null
	for i in $(seq 50); do kill -0 "$MC0" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$MC0" 2>/dev/null; then
		fail "memcgtop -n 0 still running 5 s after SIGTERM"
	else
		wait "$MC0"; rc=$?
		echo "  memcgtop -n 0 exit status after SIGTERM: $rc"
	fi
	left=$(ls -A "$TXT" | grep -vx memcgtop.prom)
	[ -z "$left" ] && [ -s "$PROM" ] &&
		pass "after SIGTERM: memcgtop.prom complete, no temporary file left" ||
		fail "after SIGTERM: left in the textfile directory: ${left:-memcgtop.prom missing or empty}"
	[ -s "$TMPD/mc0.err" ] && echo "  stderr: $(head -c 300 "$TMPD/mc0.err")"
	# The values Prometheus sees below are the last file's.
	FILE_USAGE=$(sed -n "s|^memcgtop_usage_bytes{cgroup=\"/$TNAME\"} \([^ ]*\)\$|\1|p" "$PROM")
fi

# ---- Prometheus ----------------------------------------------------------------------------
cat >"$TMPD/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: memcgtop-test
    static_configs:
      - targets: ['127.0.0.1:$P_NODE']
EOF
mkdir "$TMPD/tsdb"
"$PROMETHEUS" --config.file="$TMPD/prometheus.yml" \
	--storage.tsdb.path="$TMPD/tsdb" \
	--web.listen-address=127.0.0.1:$P_PROM --log.level=warn \
	>"$TMPD/prom.log" 2>&1 &
PR_PID=$!
pids+=($PR_PID)
API=http://127.0.0.1:$P_PROM
for i in $(seq 300); do
	curl -sf -o /dev/null "$API/-/ready" && break
	kill -0 $PR_PID 2>/dev/null || abort "prometheus died: $(tail -3 "$TMPD/prom.log")"
	sleep 0.1
done
curl -sf -o /dev/null "$API/-/ready" || abort "prometheus not ready after 30 s"
health=
for i in $(seq 150); do
	health=$(curl -sf "$API/api/v1/targets" | python3 -c '
import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"]
print(t[0]["health"] if t else "none")' 2>/dev/null)
	[ "$health" = up ] && break
	sleep 0.2
done
[ "$health" = up ] &&
	pass "prometheus $("$PROMETHEUS" --version 2>&1 | awk 'NR==1{print $3}') on 127.0.0.1:$P_PROM: target 127.0.0.1:$P_NODE up" ||
	fail "prometheus: target health '$health' after 30 s"

Q="memcgtop_usage_bytes{cgroup=\"/$TNAME\"}"
val=
for i in $(seq 50); do
	val=$(curl -sfG --data-urlencode "query=$Q" "$API/api/v1/query" | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d["data"]["result"] if d.get("status") == "success" else []
print(r[0]["value"][1] if len(r) == 1 else "")' 2>/dev/null)
	[ -n "$val" ] && break
	sleep 0.2
done
if [ -n "$val" ] && python3 -c 'import sys; sys.exit(float(sys.argv[1]) != float(sys.argv[2]))' "$val" "$FILE_USAGE"; then
	pass "prometheus /api/v1/query $Q = $val (the file's $FILE_USAGE)"
else
	fail "prometheus /api/v1/query $Q = '${val}', the file has '$FILE_USAGE'"
fi
val=$(curl -sfG --data-urlencode 'query=count({__name__=~"memcgtop_.*"})' "$API/api/v1/query" |
	python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)' 2>/dev/null)
nfile=$(grep -c '^memcgtop_' "$PROM")
[ "$val" = "$nfile" ] && pass "prometheus holds all $val memcgtop series of the file" ||
	fail "prometheus holds ${val:-?} memcgtop series, the file has $nfile"

# ---- cleanup and its verification -----------------------------------------------------------
started=("${pids[@]}")
cleanup
alive=""
for p in "${started[@]}"; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
[ -z "$alive" ] && [ ! -e "$TGRP" ] && [ ! -e "$TMPD" ] &&
	pass "cleanup: group, temp dir and all ${#started[@]} started processes gone" ||
	fail "cleanup: alive:${alive:- none}, group $([ -e "$TGRP" ] && echo left || echo gone), temp dir $([ -e "$TMPD" ] && echo left || echo gone)"
daemons_after=$(daemons $DAEMONS)
[ "$daemons_after" = "$daemons_before" ] &&
	pass "no prometheus or node_exporter daemon left running (before: ${daemons_before:-none})" ||
	fail "prometheus/node_exporter daemons before: '${daemons_before}', after: '${daemons_after}'"
summary
