#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dashboard.sh - contrib/memcgtop-dashboard.json against a real Prometheus
# (Debian's package) scraping two memcgtop --listen every second: the
# live v1 host from a group of its own (/memcgtop-dash-PID-N, limit 64M,
# a process in it) and the v1-live fixture's sample 0 (--root).
#
# Usage (as root):  tests/prometheus/dashboard.sh
#   MEMCGTOP   the binary to test (default: ./memcgtop of this checkout)
#   PORT_BASE  its ports: PORT_BASE + 1 to + 3 (default 19900)
#   CI=true    a host that cannot run the test is a failure, not a skip
#
# Checks: the host variable's label_values lists both instances and the
# group variable's the live group; every panel target's query, the
# variables as "All" (.*), $__rate_interval 10s and $__range 1h, returns
# at least one series from the server (within 30 s of the first scrape),
# and the panels are the 8 the file has.
# PASS:/FAIL: lines, then "prometheus-dashboard: N passed, M failed";
# SKIP (exit 77; CI=true: FAIL) when the host cannot run it.  Every
# process it starts is stopped by its pid; the group and the temporary
# directory are removed on exit, also on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
NAME="prometheus dashboard" DEFAULT_PORT_BASE=19900
. "$here/lib.sh"
DASH=$top/contrib/memcgtop-dashboard.json
prom_start dash prometheus python3 curl
P_LIVE=$((B + 1)) P_FIX=$((B + 2)) P_PROM=$((B + 3))
API=http://127.0.0.1:$P_PROM/api/v1

mkdir "$CGM/$G" || cannot_run "cannot create $CGM/$G"
echo 64M >"$CGM/$G/memory.limit_in_bytes"
sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 600' sh "$CGM/$G" &
pids+=($!)
"$MEMCGTOP" --listen "127.0.0.1:$P_LIVE" "/$G" >"$TMPD/live.log" 2>&1 &
pids+=($!)
"$MEMCGTOP" --listen "127.0.0.1:$P_FIX" --root "$top/tests/fixtures/v1-live/cg/0" \
	--proc "$top/tests/fixtures/v1-live/proc/0" >"$TMPD/fix.log" 2>&1 &
pids+=($!)
cat >"$TMPD/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: memcgtop
    static_configs:
      - targets: ['127.0.0.1:$P_LIVE', '127.0.0.1:$P_FIX']
EOF
prometheus --config.file="$TMPD/prometheus.yml" --storage.tsdb.path="$TMPD/tsdb" \
	--web.listen-address=127.0.0.1:$P_PROM --log.level=warn >"$TMPD/prom.log" 2>&1 &
pids+=($!)

# The panels' queries, one a line: "ID TITLE<TAB>QUERY".
python3 - "$DASH" >"$TMPD/queries" <<'EOF' || fail "$DASH: not a dashboard"
import json, sys
d = json.load(open(sys.argv[1]))
for p in d['panels']:
    for t in p['targets']:
        q = (t['expr'].replace('$host', '.*').replace('$group', '.*')
             .replace('$__rate_interval', '10s').replace('$__range', '1h'))
        print('%d %s/%s\t%s' % (p['id'], p['title'], t['refId'], q))
EOF
npanels=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["panels"]))' "$DASH")
[ "$npanels" = 8 ] && pass "8 panels" || fail "$npanels panels, not 8"

# count QUERY: how many series the server answers.
count() {
	curl -sf "$API/query" --data-urlencode "query=$1" 2>/dev/null |
		python3 -c 'import json,sys; print(len(json.load(sys.stdin)["data"]["result"]))' 2>/dev/null
}
for i in $(seq 300); do
	[ "$(count 'count(memcgtop_usage_bytes) by (instance)')" = 2 ] && break
	sleep 0.1
done
sleep 12	# a rate over 10 s has its two samples

values() {
	curl -sf -G "$API/label/$1/values" --data-urlencode "match[]=$2" 2>/dev/null |
		python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["data"]))' 2>/dev/null
}
hosts=$(values instance memcgtop_usage_bytes)
[ "$hosts" = "127.0.0.1:$P_LIVE 127.0.0.1:$P_FIX" ] &&
	pass "\$host: $hosts" || fail "\$host: '$hosts', not both instances"
groups=$(values cgroup 'memcgtop_usage_bytes{instance=~".*"}')
case " $groups " in
*" /$G "*" /fixture "* | *" /fixture "*" /$G "*) pass "\$group: the live group and /fixture" ;;
*) fail "\$group: '$groups' lacks /$G or /fixture" ;;
esac
while IFS=$'\t' read -r what q; do
	n=
	for i in $(seq 30); do
		n=$(count "$q")
		[ "${n:-0}" -gt 0 ] && break
		sleep 1
	done
	[ "${n:-0}" -gt 0 ] && pass "panel $what: $n series" ||
		fail "panel $what: no data for $q"
done <"$TMPD/queries"
summary
