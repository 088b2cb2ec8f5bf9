#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/listen.sh - memcgtop --listen, the Prometheus endpoint, checked with
# curl and Python's sockets.  The binary is $MEMCGTOP (default ./memcgtop).
#
# On the v2-live fixture (a recorded series of 5 samples, so every scrape
# is known: the baseline takes sample 0, scrape k sample k):
#   - scrape 1 (no Accept) is 200, Content-Type text/plain; version=0.0.4,
#     and byte for byte iteration 1 of -b -F prometheus;
#   - scrape 2 (Prometheus' own Accept) is 200, Content-Type
#     application/openmetrics-text; version=1.0.0, byte for byte
#     iteration 2 of -b -F openmetrics;
#   - promtool check metrics finds scrape 1 clean;
#   - /other is 404, POST is 405 with Allow: GET, HEAD; neither costs a
#     sample; every answer says "Connection: close" and curl opens a
#     new connection for its second request (no keep-alive: memcgtop
#     reads each connection's request line before libmicrohttpd);
#   - a request with a 64 KiB header is refused (431), and scrape 3 still
#     matches iteration 3 (--compat cadvisor on: iteration 3 of -b -F
#     prometheus --compat cadvisor);
#   - a request of 300 query parameters (to /other: 404), a 20,000-byte
#     path (414) and 64 KiB of headers in 1,000 lines (431) each get a
#     status line;
#   - a slow client (half a request line, then a byte a second) does not
#     keep scrape 4 from being answered at once, and is closed by
#     memcgtop 5 s after it connected (the time a request head has),
#     trickling or not; a connection that trickles a second request
#     after its answer finds it closed within 1 s of the answer;
#   - 200 idle connections from one address leave memcgtop with at most
#     64 of them open (the cap an address), the rest closed at once, not
#     queued, and a request answered beside them;
#   - scrape 5 (past the series' last sample) is a 500 with a one-line
#     reason, no exposition;
#   - SIGTERM ends it with status 0.
# Then: --listen on a port in use is one line on stderr and status 1; a
# bad address likewise; misuse (-n, -F csv, --record, -t) a one-line usage
# error with status 2.
# As root on a live cgroup v1 memory mount: a test group (limit 64M) served
# by --listen on the live tree: its limit sample is 67108864, the families
# are those of -b -F prometheus for the group, promtool is clean, HEAD is
# 200 with the Content-Type and no body; and a
# real Prometheus (the Debian package, private port and storage) scrapes it
# every second, at least 55 times (an ASan build: 25): target up, up == 1
# at every scrape, and
# memcgtop_limit_bytes of the group is 67108864 through the query API.
# First, hostile traffic (the same burst twice: 250 requests with a 64 KiB
# header, 750 odd requests, 500 connections dropped, 40 held half-sent) leaves it serving (up == 1 at every scrape, a scrape 200
# after) and its memory bounded: VmRSS grows at most 1 MiB over the first
# burst and 256 KiB over the second, VmHWM stays within the first bound
# (an ASan build: one burst, no bound: its quarantine holds freed memory;
# LeakSanitizer looks for leaks at the exit).
# Then a paced load in the group (tests/load/memload.c faults: 20,000 page
# faults a second) makes memcgtop_pgfault_total grow steadily; over the
# 60 s of a "memcgtop -b -n 1 -d 60" beside it (ASan: 30), Prometheus'
# rate(memcgtop_pgfault_total[60s]) at the batch's sample time is
#   - the rise between the window's first and last scraped samples with
#     Prometheus' extrapolation (recomputed from the window's raw
#     samples): equal to 1e-9, and
#   - the slope of those samples (the rise over their distance): memcgtop's
#     own pgfault_per_s of that batch within 1 %, and so is rate() where
#     the samples reach both edges of the window (a scrape missed at an
#     edge makes Prometheus extrapolate by half an interval there).
#
# Every process is started here and killed by its pid; temporary files,
# the test group and the processes go on exit, failure or interrupt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
MEMCGTOP=${MEMCGTOP:-$here/../memcgtop}
MEMCGTOP=$(cd "$(dirname "$MEMCGTOP")" && pwd)/$(basename "$MEMCGTOP")
. "$here/count.sh"
FIX=$here/fixtures/v2-live
CGM=/sys/fs/cgroup/memory
tmp=$(mktemp -d)
pids=()
TGRP=

cleanup() {
	local p
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	pids=()
	[ -n "$TGRP" ] && [ -d "$TGRP" ] && rmdir "$TGRP" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# free_port: one the kernel picks on the loopback, closed again at once.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_listen LOG ARGS...: memcgtop --listen 127.0.0.1:$PORT ARGS in the
# background ($MC its pid), waiting until it answers (or has died).
start_listen() {
	local log=$1 i
	shift
	PORT=$(free_port)
	"$MEMCGTOP" --listen "127.0.0.1:$PORT" "$@" >"$log" 2>&1 &
	MC=$!
	pids+=("$MC")
	for i in $(seq 100); do
		kill -0 "$MC" 2>/dev/null || return 1
		# A connection, not a scrape: a scrape would take a sample.
		python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' \
			"$PORT" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# stop_listen: SIGTERM, then its status in $RC (KILL after 5 s: 137).
stop_listen() {
	local i
	kill -TERM "$MC" 2>/dev/null
	for i in $(seq 50); do
		kill -0 "$MC" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$MC" 2>/dev/null
	wait "$MC"
	RC=$?
}

# iteration N FMT ARGS...: iteration N of -b -n N -F FMT (the bytes after
# those of -n N-1: a replay prints the same iterations every time).
iteration() {
	local n=$1 fmt=$2 a b
	shift 2
	a=$("$MEMCGTOP" -b -n "$n" -F "$fmt" "$@" | wc -c)
	b=0
	[ "$n" -gt 1 ] && b=$("$MEMCGTOP" -b -n $((n - 1)) -F "$fmt" "$@" | wc -c)
	"$MEMCGTOP" -b -n "$n" -F "$fmt" "$@" | tail -c $((a - b))
}

for tool in curl python3; do
	command -v "$tool" >/dev/null || {
		fail "$tool not installed (make deps-test installs what the tests need)"
		echo "listen: $npass passed, $nfail failed"
		exit 1
	}
done

PROM_ACCEPT='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
FX=(--root "$FIX/cg" --proc "$FIX/proc")

# ---- the fixture ----------------------------------------------------------
if ! start_listen "$tmp/mc.log" "${FX[@]}" --compat cadvisor; then
	fail "--listen on the fixture did not start: $(head -c 300 "$tmp/mc.log")"
	echo "listen: $npass passed, $nfail failed"
	exit 1
fi
URL=http://127.0.0.1:$PORT
pass "--listen 127.0.0.1:$PORT on the v2-live fixture answers"

# 404 and 405 first: they take no sample.
code=$(curl -s -o "$tmp/404" -w '%{http_code}' "$URL/other")
[ "$code" = 404 ] && [ "$(wc -l <"$tmp/404")" = 1 ] &&
	pass "GET /other: 404, one line ($(cat "$tmp/404"))" ||
	fail "GET /other: $code, $(head -c 200 "$tmp/404")"
curl -sv -o /dev/null -o /dev/null "$URL/other" "$URL/other" >"$tmp/ka" 2>&1
[ "$(tr -d '\r' <"$tmp/ka" | grep -c -i -x '< Connection: close')" = 2 ] &&
	[ "$(grep -c '^\* Connected to' "$tmp/ka")" = 2 ] &&
	! grep -q 'Re-using existing connection' "$tmp/ka" &&
	pass "two requests: each answer says Connection: close, curl connects twice" ||
	fail "two requests, want two answers with Connection: close and two connections: $(grep -i 'connect' "$tmp/ka" | head -4 | tr '\r\n' '||')"
code=$(curl -s -X POST -D "$tmp/405.h" -o "$tmp/405" -w '%{http_code}' "$URL/metrics")
[ "$code" = 405 ] && grep -qi '^Allow: GET, HEAD' "$tmp/405.h" &&
	pass "POST /metrics: 405, Allow: GET, HEAD" ||
	fail "POST /metrics: $code, $(tr -d '\r' <"$tmp/405.h" | grep -i allow)"

iteration 1 prometheus "${FX[@]}" --compat cadvisor >"$tmp/want1"
code=$(curl -s -D "$tmp/h1" -o "$tmp/s1" -w '%{http_code}' "$URL/metrics")
ct=$(tr -d '\r' <"$tmp/h1" | sed -n 's/^[Cc]ontent-[Tt]ype: //p')
[ "$code" = 200 ] && pass "scrape 1: 200" || fail "scrape 1: $code"
[ "$ct" = "text/plain; version=0.0.4; charset=utf-8" ] &&
	pass "scrape 1 without Accept: Content-Type $ct" ||
	fail "scrape 1 without Accept: Content-Type '$ct'"
if [ -s "$tmp/want1" ] && cmp -s "$tmp/s1" "$tmp/want1"; then
	pass "scrape 1: the $(wc -l <"$tmp/s1") lines of iteration 1 of -b -F prometheus --compat cadvisor, byte for byte"
else
	fail "scrape 1 differs from iteration 1 of -b -F prometheus: $(diff "$tmp/s1" "$tmp/want1" | head -4 | tr '\n' '|')"
fi
if command -v promtool >/dev/null; then
	out=$(promtool check metrics <"$tmp/s1" 2>&1) &&
		pass "promtool check metrics: scrape 1 clean" ||
		fail "promtool check metrics: $(echo "$out" | head -3)"
else
	fail "promtool not installed (Debian: prometheus)"
fi

iteration 2 openmetrics "${FX[@]}" --compat cadvisor >"$tmp/want2"
code=$(curl -s -H "Accept: $PROM_ACCEPT" -D "$tmp/h2" -o "$tmp/s2" -w '%{http_code}' "$URL/metrics")
ct=$(tr -d '\r' <"$tmp/h2" | sed -n 's/^[Cc]ontent-[Tt]ype: //p')
[ "$code" = 200 ] && [ "$ct" = "application/openmetrics-text; version=1.0.0; charset=utf-8" ] &&
	pass "scrape 2 with Prometheus' Accept: 200, Content-Type $ct" ||
	fail "scrape 2 with Prometheus' Accept: $code, Content-Type '$ct'"
if [ -s "$tmp/want2" ] && cmp -s "$tmp/s2" "$tmp/want2" && [ "$(tail -1 "$tmp/s2")" = "# EOF" ]; then
	pass "scrape 2: iteration 2 of -b -F openmetrics, byte for byte, ending in # EOF"
else
	fail "scrape 2 differs from iteration 2 of -b -F openmetrics: $(diff "$tmp/s2" "$tmp/want2" | head -4 | tr '\n' '|')"
fi

# A 64 KiB header: refused, the connection closed; serving goes on.
python3 - "$PORT" >"$tmp/big" 2>&1 <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), 5)
s.settimeout(5)
try:
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 65536 + b"\r\n\r\n")
except OSError:
    pass
data = b""
try:
    while True:
        d = s.recv(4096)
        if not d:
            break
        data += d
except OSError:
    pass
print((data.split(b"\r\n")[0] or b"(closed)").decode())
PY
status=$(head -1 "$tmp/big")
case $status in
"HTTP/1.1 4"* | "(closed)") pass "64 KiB header refused: $status" ;;
*) fail "64 KiB header: '$status'" ;;
esac
iteration 3 prometheus "${FX[@]}" --compat cadvisor >"$tmp/want3"
code=$(curl -s -o "$tmp/s3" -w '%{http_code}' "$URL/metrics")
[ "$code" = 200 ] && cmp -s "$tmp/s3" "$tmp/want3" &&
	pass "scrape 3 after the oversized request: 200, iteration 3 byte for byte" ||
	fail "scrape 3 after the oversized request: $code, $(diff "$tmp/s3" "$tmp/want3" | head -2 | tr '\n' '|')"

# Requests libmicrohttpd refuses itself: each gets a status line.  The
# query's parameters are cut off unread (libmicrohttpd 0.9.75 stored them
# in the connection's 16 KiB and, past about 250, closed it without an
# answer); /other takes no sample.
python3 - "$PORT" >"$tmp/odd" 2>&1 <<'PY'
import socket, sys
port = int(sys.argv[1])
odd = [("300 query parameters", "404",
        b"GET /other?" + b"&".join(b"p%d=%d" % (i, i) for i in range(300)) +
        b" HTTP/1.1\r\nHost: x\r\n\r\n"),
       ("a 20,000-byte path", "414",
        b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"),
       ("64 KiB of headers in 1,000 lines", "431",
        b"GET /other HTTP/1.1\r\nHost: x\r\n" +
        b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 60) for i in range(1000)) +
        b"\r\n")]
for name, want, req in odd:
    s = socket.create_connection(("127.0.0.1", port), 5)
    s.settimeout(5)
    data = b""
    try:
        s.sendall(req)
        while b"\r\n" not in data:
            d = s.recv(4096)
            if not d:
                break
            data += d
    except OSError:
        pass
    s.close()
    line = data.split(b"\r\n")[0].decode("latin-1") or "(closed, nothing)"
    print("%s|%s|%s (%d bytes): %s" % (want, line.split(" ")[1] if line.startswith("HTTP/") else "",
                                        name, len(req), line))
PY
while IFS='|' read -r want got what; do
	[ "$want" = "$got" ] && pass "$what" || fail "want $want: $what"
done <"$tmp/odd"

# A slow client holds its connection, not the server; a whole request
# head must come within 5 s of the connect, however it trickles.  A
# connection serves one request: closed with its answer.
# trickle.py PORT [FIRST]: after the request FIRST and its whole answer
# (if given), half a request and then a byte a second; when memcgtop
# closes it, how long after the connect (the answer).
cat >"$tmp/trickle.py" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), 5)
s.settimeout(5)
if len(sys.argv) > 2:
    s.sendall(sys.argv[2].encode().replace(b"|", b"\r\n"))
    d = b""
    while True:
        d += s.recv(4096)
        head, sep, body = d.partition(b"\r\n\r\n")
        n = [l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
        if sep and n and len(body) >= int(n[0]):
            break
t0 = time.monotonic()
s.sendall(b"GET /oth")
s.settimeout(1)
d = b""
while time.monotonic() - t0 < 25:
    try:
        d = s.recv(4096)
        break
    except socket.timeout:
        try:
            s.send(b"e")
        except OSError as e:
            d = repr(e).encode()
            break
    except OSError as e:
        d = repr(e).encode()
        break
print("closed after %.1f s: %r" % (time.monotonic() - t0, d[:40]))
PY
python3 "$tmp/trickle.py" "$PORT" >"$tmp/slow" 2>&1 &
SLOW=$!
pids+=("$SLOW")
python3 "$tmp/trickle.py" "$PORT" 'GET /other HTTP/1.1|Host: x||' >"$tmp/kept" 2>&1 &
KEPT=$!
pids+=("$KEPT")
sleep 0.5
iteration 4 prometheus "${FX[@]}" --compat cadvisor >"$tmp/want4"
t=$(curl -s -m 5 -o "$tmp/s4" -w '%{http_code} %{time_total}' "$URL/metrics")
if [ "${t%% *}" = 200 ] && cmp -s "$tmp/s4" "$tmp/want4" && kill -0 "$SLOW" 2>/dev/null; then
	pass "scrape 4 while a slow client holds half a request: 200 in ${t#* } s, iteration 4"
else
	fail "scrape 4 beside a slow client: '$t', slow client $(kill -0 "$SLOW" 2>/dev/null && echo waiting || echo gone)"
fi
wait "$SLOW"
secs=$(sed -n 's/^closed after \([0-9.]*\) s.*/\1/p' "$tmp/slow")
if [ -n "$secs" ] && python3 -c 'import sys; sys.exit(not 4.5 <= float(sys.argv[1]) <= 7)' "$secs"; then
	pass "the slow client, trickling a byte a second, was closed by memcgtop after $secs s (a request head has 5 s)"
else
	fail "the slow client (closed after 5 s wanted): $(cat "$tmp/slow")"
fi
wait "$KEPT"
secs=$(sed -n 's/^closed after \([0-9.]*\) s.*/\1/p' "$tmp/kept")
if [ -n "$secs" ] && python3 -c 'import sys; sys.exit(not float(sys.argv[1]) < 1)' "$secs"; then
	pass "a connection trickling a second request after its answer: closed by memcgtop with the answer ($secs s after it)"
else
	fail "the trickler after an answer (closed with the answer wanted): $(cat "$tmp/kept")"
fi

# Many idle connections from one address: at most 64 are held, the rest
# closed at once (not left in the listen queue); a request is answered
# beside them.
python3 - "$PORT" "$MC" >"$tmp/many" 2>&1 <<'PY'
import os, selectors, socket, sys, time
port, pid = int(sys.argv[1]), sys.argv[2]
before = len(os.listdir("/proc/%s/fd" % pid))
sel = selectors.DefaultSelector()
socks = []
for _ in range(200):
    s = socket.socket()
    s.setblocking(False)
    s.connect_ex(("127.0.0.1", port))
    socks.append(s)
    sel.register(s, selectors.EVENT_READ)
closed = 0
end = time.monotonic() + 1
while time.monotonic() < end:
    for key, _ in sel.select(0.05):
        try:
            d = key.fileobj.recv(16)
        except OSError:
            d = b""
        if not d:
            sel.unregister(key.fileobj)
            closed += 1
held = len(os.listdir("/proc/%s/fd" % pid)) - before
t0 = time.monotonic()
try:
    c = socket.create_connection(("127.0.0.1", port), 2)
    c.settimeout(2)
    c.sendall(b"GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
    line = c.recv(4096).split(b"\r\n")[0].decode() or "(closed, nothing)"
except OSError as e:
    line = "(no answer: %s)" % e
print(held, closed, "%s in %.3f s" % (line, time.monotonic() - t0))
for s in socks:
    s.close()
PY
read -r held closed answer <"$tmp/many"
if [ -n "${closed:-}" ] && [ "$held" -le 64 ] 2>/dev/null && [ "$closed" -ge 136 ] &&
	[[ $answer == "HTTP/1.1 404 "* ]]; then
	pass "200 idle connections from one address: memcgtop holds $held of them (at most 64), closed $closed at once; beside them $answer"
else
	fail "200 idle connections: $(cat "$tmp/many")"
fi
sleep 0.5
code=$(curl -s -m 5 -o "$tmp/s5" -w '%{http_code}' "$URL/metrics")
if [ "$code" = 500 ] && [ "$(wc -l <"$tmp/s5")" = 1 ] && ! grep -q '^memcgtop_' "$tmp/s5"; then
	pass "scrape 5, past the series' end: 500, one line ($(cat "$tmp/s5"))"
else
	fail "scrape 5 past the series' end: $code, $(head -c 200 "$tmp/s5")"
fi

stop_listen
[ "$RC" = 0 ] && pass "SIGTERM: exit status 0" || fail "SIGTERM: exit status $RC"
grep -q . "$tmp/mc.log" && echo "  its stderr: $(head -c 300 "$tmp/mc.log")"

# SIGINT too.
if start_listen "$tmp/mc2.log" "${FX[@]}"; then
	kill -INT "$MC"
	for i in $(seq 50); do kill -0 "$MC" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$MC" 2>/dev/null
	wait "$MC"
	rc=$?
	[ "$rc" = 0 ] && pass "SIGINT: exit status 0" || fail "SIGINT: exit status $rc"
else
	fail "second --listen did not start: $(head -c 200 "$tmp/mc2.log")"
fi

# ---- errors -------------------------------------------------------------
python3 - "$MEMCGTOP" "$FIX" >"$tmp/inuse" 2>&1 <<'PY'
import socket, subprocess, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen()
port = s.getsockname()[1]
r = subprocess.run([sys.argv[1], "--listen", "127.0.0.1:%d" % port,
                    "--root", sys.argv[2] + "/cg", "--proc", sys.argv[2] + "/proc"],
                   capture_output=True, text=True, timeout=20)
print(r.returncode)
print(r.stderr, end="")
PY
rc=$(head -1 "$tmp/inuse")
[ "$rc" = 1 ] && [ "$(sed 1d "$tmp/inuse" | wc -l)" = 1 ] &&
	grep -q 'Address already in use' "$tmp/inuse" &&
	pass "port in use: status 1, one line: $(sed -n 2p "$tmp/inuse")" ||
	fail "port in use: $(tr '\n' '|' <"$tmp/inuse")"
"$MEMCGTOP" --listen 256.1.1.1:$(free_port) "${FX[@]}" >"$tmp/o" 2>"$tmp/e" </dev/null
rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$tmp/e")" = 1 ] && [ ! -s "$tmp/o" ] &&
	pass "bad address: status 1, one line: $(cat "$tmp/e")" ||
	fail "bad address: status $rc, $(head -c 200 "$tmp/e")"
for bad in "-n 2" "-F csv" "-F json" "-F text" "--record $tmp/rec" "-t mono" \
	"--ascii" "-b" "-d 2" "--set /x:limit=1"; do
	# shellcheck disable=SC2086
	timeout 10 "$MEMCGTOP" --listen 127.0.0.1:1 $bad "${FX[@]}" >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/e")" = 1 ] && [ ! -s "$tmp/o" ] &&
		pass "--listen $bad: usage error, status 2: $(cat "$tmp/e")" ||
		fail "--listen $bad: status $rc, $(head -c 200 "$tmp/e")"
done
for bad in 0 65536 x 127.0.0.1:; do
	timeout 10 "$MEMCGTOP" --listen "$bad" "${FX[@]}" >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/e")" = 1 ] &&
		pass "--listen '$bad': status 2: $(cat "$tmp/e")" ||
		fail "--listen '$bad': status $rc, $(head -c 200 "$tmp/e")"
done

# ---- live cgroup v1, and a real Prometheus -------------------------------
if [ "$(id -u)" != 0 ] || [ ! -w "$CGM" ] || [ ! -f "$CGM/memory.usage_in_bytes" ]; then
	echo "SKIP: live v1 and Prometheus: not root or no writable $CGM"
	echo "listen: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit
fi
TNAME=memcgtop-listen-$$-$RANDOM
TGRP=$CGM/$TNAME
mkdir "$TGRP" && echo $((64 << 20)) >"$TGRP/memory.limit_in_bytes" ||
	fail "cannot make $TGRP"
if start_listen "$tmp/live.log" "/$TNAME"; then
	URL=http://127.0.0.1:$PORT
	code=$(curl -s -o "$tmp/l1" -w '%{http_code}' "$URL/metrics")
	"$MEMCGTOP" -b -F prometheus "/$TNAME" >"$tmp/lb"
	lim=$(sed -n "s|^memcgtop_limit_bytes{cgroup=\"/$TNAME\"} ||p" "$tmp/l1")
	[ "$code" = 200 ] && [ "$lim" = $((64 << 20)) ] &&
		pass "live v1: 200, memcgtop_limit_bytes of /$TNAME is $lim" ||
		fail "live v1: $code, limit '$lim'"
	fam() { sed -n 's/^# TYPE \([^ ]*\) .*/\1/p' "$1" | sort; }
	if [ -n "$(fam "$tmp/l1")" ] && [ "$(fam "$tmp/l1")" = "$(fam "$tmp/lb")" ]; then
		pass "live v1: the $(fam "$tmp/l1" | wc -l) families of -b -F prometheus /$TNAME"
	else
		fail "live v1: families differ from -b -F prometheus: $(diff <(fam "$tmp/l1") <(fam "$tmp/lb") | head -4 | tr '\n' '|')"
	fi
	out=$(promtool check metrics <"$tmp/l1" 2>&1) &&
		pass "live v1: promtool check metrics clean" ||
		fail "live v1: promtool: $(echo "$out" | head -3)"
	code=$(curl -s -I -o "$tmp/head" -w '%{http_code} %{size_download}' "$URL/metrics")
	tr -d '\r' <"$tmp/head" | grep -qx 'Content-Type: text/plain; version=0.0.4; charset=utf-8' &&
		[ "$code" = "200 0" ] &&
		pass "live v1: HEAD /metrics: 200, Content-Type of the text format, no body" ||
		fail "live v1: HEAD /metrics: '$code', $(tr -d '\r' <"$tmp/head" | tr '\n' '|')"

	command -v prometheus >/dev/null ||
		fail "prometheus not installed (Debian: prometheus; make deps-test installs it)"
	# The steady counter: 20,000 page faults a second in the group.
	if gcc -O2 -o "$tmp/memload" "$here/load/memload.c" 2>"$tmp/gcc.log"; then
		sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" faults 20000 0' sh \
			"$TGRP" "$tmp/memload" >/dev/null 2>"$tmp/load.log" &
		pids+=("$!")
	else
		fail "cannot build tests/load/memload.c: $(head -n 1 "$tmp/gcc.log")"
	fi
	PP=$(free_port)
	cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: memcgtop-listen
    static_configs:
      - targets: ['127.0.0.1:$PORT']
EOF
	mkdir "$tmp/tsdb"
	prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
		--web.listen-address=127.0.0.1:$PP --log.level=warn >"$tmp/prom.log" 2>&1 &
	PR=$!
	pids+=("$PR")
	API=http://127.0.0.1:$PP
	for i in $(seq 300); do
		curl -sf -o /dev/null "$API/-/ready" && break
		kill -0 "$PR" 2>/dev/null || break
		sleep 0.1
	done
	# Hostile traffic while Prometheus scrapes, the same burst twice
	# (the rate below is measured after it: a scrape delayed by it moves
	# the edges of rate()'s window); memcgtop's VmRSS and VmHWM (KiB)
	# before, after the first and after the second.  An ASan build, whose
	# memory is not bounded here (below), takes one burst.
	asan=0
	ldd "$MEMCGTOP" 2>/dev/null | grep -q libasan && asan=1
	python3 - "$PORT" "$MC" $((2 - asan)) >"$tmp/burst" 2>&1 <<'PY'
import socket, sys, time
port, pid, bursts = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])

def status():
    d = {}
    with open("/proc/%s/status" % pid) as f:
        for l in f:
            k, _, v = l.partition(":")
            if k in ("VmRSS", "VmHWM"):
                d[k] = int(v.split()[0])
    return d

def conn():
    s = socket.create_connection(("127.0.0.1", port), 5)
    s.settimeout(5)
    return s

def ask(s, req):
    try:
        s.sendall(req)
        return s.recv(65536)
    except OSError:
        return b""

n = {"64k-header": 0, "odd": 0, "dropped": 0, "half-sent": 0}
ODD = [b"GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n",
       b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
       b"GET //metrics/.. HTTP/1.1\r\nHost: x\r\n\r\n",
       b"GET /" + b"a" * 8000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
       b"GET /metrics?" + b"%ff" * 1000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
       b"FOO /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
       b"GET * HTTP/1.1\r\nHost: x\r\n\r\n",
       b"GET /x HTTP/9.9\r\nHost: x\r\n\r\n",
       b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64 + b"\r\n\r\n",
       b"GET /x HTTP/1.1\r\n" + b"X-A: b\r\n" * 500 + b"\r\n"]

def burst():
    for i in range(250):
        s = conn()
        ask(s, b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 65536 + b"\r\n\r\n")
        s.close()
        n["64k-header"] += 1
    s = None
    for i in range(750):
        if s is None or i % 10 == 0:
            if s:
                s.close()
            s = conn()
        if not ask(s, ODD[i % len(ODD)]):
            s.close()
            s = None
        n["odd"] += 1
    if s:
        s.close()
    for i in range(500):
        s = conn()
        if i % 2:
            s.sendall(b"GET /metr")
        # closed with a reset, not a FIN
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.close()
        n["dropped"] += 1
    held = []
    for i in range(40):
        try:
            c = conn()
            c.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
            held.append(c)
        except OSError:
            pass
        n["half-sent"] += 1
    time.sleep(1)
    for c in held:
        c.close()
    time.sleep(0.5)

s0 = status()
t0 = time.monotonic()
burst()
s1 = status()
if bursts > 1:
    burst()
s2 = status()
print("%d %.1f %s" % (sum(n.values()), time.monotonic() - t0,
                      ",".join("%s=%d" % kv for kv in n.items())))
print(s0["VmRSS"], s1["VmRSS"], s2["VmRSS"], s0["VmHWM"], s1["VmHWM"], s2["VmHWM"])
PY
	code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "$URL/metrics")
	read -r nreq bsecs kinds < <(head -n 1 "$tmp/burst")
	read -r r0 r1 r2 h0 h1 h2 < <(sed -n 2p "$tmp/burst")
	echo "  burst: $nreq requests ($kinds) in $bsecs s; VmRSS $r0 -> $r1 -> $r2 KiB, VmHWM $h0 -> $h1 -> $h2 KiB"
	[ "$code" = 200 ] && pass "live: after $nreq hostile requests in $bsecs s, a scrape is 200" ||
		fail "live: after the hostile requests a scrape is '$code': $(tail -n 3 "$tmp/burst")"
	# The bounds: the 40 connections held half-sent (below the 64 an
	# address) with a 16 KiB request pool each, of which they touch a
	# page, the polling thread's allocator arena and a response: 1 MiB
	# over the first burst (measured: 60 to 120 KiB when 16 connections
	# were held at most; with 64 an address 220 KiB here, 236 to 372 on
	# the v2-live fixture, where 16 gave 236 to 272).  A second,
	# identical burst finds them all there: 256 KiB over it (measured:
	# 44 to 64 KiB; six bursts in a row: +76, +40, +28, +0, +12, +0 KiB;
	# with 64 an address +140 here, -136 to +0 on the fixture),
	# crossed by a leak of 170 bytes a request.  VmHWM: at
	# most the first bound above VmRSS before (the start, with its BPF
	# load, may have been higher).  Under ASan freed memory waits in its
	# quarantine (RSS grows with every request, leak or not): the numbers
	# are shown, and LeakSanitizer checks for leaks at the exit instead.
	if [ "$asan" = 1 ]; then
		echo "  ASan build: the memory bounds are not asserted (its quarantine holds freed memory)"
	elif [[ ${r0:-}${r1:-}${r2:-}${h0:-}${h2:-} =~ ^[0-9]+$ ]] &&
		[ $((r1 - r0)) -le 1024 ] && [ $((r2 - r1)) -le 256 ] &&
		[ "$h2" -le $(( h0 > r0 + 1024 ? h0 : r0 + 1024 )) ]; then
		pass "live: memory bounded under hostile traffic: VmRSS +$((r1 - r0)) KiB over the first burst (<= 1024), +$((r2 - r1)) KiB over the second (<= 256), VmHWM $h0 -> $h2 KiB"
	else
		fail "live: memory under hostile traffic: VmRSS ${r0:-?} -> ${r1:-?} -> ${r2:-?} KiB (bounds +1024, +256), VmHWM ${h0:-?} -> ${h2:-?}: $(tail -n 3 "$tmp/burst")"
	fi
	# memcgtop's own rate over 60 s (an ASan build: 30): the wall time
	# when the batch's sample came (it prints it at once), its interval
	# and pgfault_per_s.  Prometheus scrapes a minute or more then.
	python3 - "$MEMCGTOP" "/$TNAME" $((60 - 30 * asan)) >"$tmp/batch" 2>&1 <<'PY'
import json, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "-b", "-n", "1", "-d", sys.argv[3], "-r", "-F", "json",
                      "-c", "pgfault,pgfault_per_s", sys.argv[2]],
                     stdout=subprocess.PIPE, text=True)
line = p.stdout.readline()
t = time.time()
p.wait()
d = json.loads(line)
print("%.3f %s %s" % (t, d["interval_s"], d["groups"][0]["pgfault_per_s"]))
PY
	# The last scrape before the batch's sample is stored by now.
	sleep 1.5
	q() {
		curl -sfG --data-urlencode "query=$1" "$API/api/v1/query" | python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if len(r) == 1 else "none")' 2>/dev/null
	}
	up=$(q 'up{job="memcgtop-listen"}')
	# (2m: every scrape since it started, the bursts' time too)
	n=$(q 'count_over_time(up{job="memcgtop-listen"}[2m])')
	min=$(q 'min_over_time(up{job="memcgtop-listen"}[2m])')
	# (a minute at one a second, less a few a loaded machine delays;
	# an ASan build's run is half as long)
	[ "$up" = 1 ] && [ "$min" = 1 ] && [ "${n:-0}" -ge $((55 - 30 * asan)) ] 2>/dev/null &&
		pass "prometheus scraped --listen $n times, once a second (at least $((55 - 30 * asan))), up == 1 every time (during the hostile bursts too)" ||
		fail "prometheus: up '$up', min '$min', scrapes '$n'; $(tail -2 "$tmp/prom.log")"
	v=$(q "memcgtop_limit_bytes{cgroup=\"/$TNAME\"}")
	[ "$v" = $((64 << 20)) ] &&
		pass "prometheus: memcgtop_limit_bytes{cgroup=\"/$TNAME\"} = $v" ||
		fail "prometheus: memcgtop_limit_bytes of /$TNAME: '$v'"
	# rate() over the batch's window: against the window's raw samples,
	# and against memcgtop's own rate.
	python3 - "$API" "/$TNAME" "$(cat "$tmp/batch")" >"$tmp/rate" 2>&1 <<'PY'
import json, sys, urllib.parse, urllib.request
api, group, batch = sys.argv[1], sys.argv[2], sys.argv[3].split()
t_end, interval, own = float(batch[0]), float(batch[1]), float(batch[2])
end_ms = int(round(t_end * 1000))
range_ms = int(round(interval * 1000))
sel = 'memcgtop_pgfault_total{cgroup="%s"}[%dms]' % (group, range_ms)

def query(q):
    u = api + "/api/v1/query?" + urllib.parse.urlencode({"query": q, "time": "%.3f" % (end_ms / 1000)})
    r = json.load(urllib.request.urlopen(u, timeout=10))["data"]["result"]
    if len(r) != 1:
        print("FAIL: rate: %s gave %d series" % (q, len(r)))
        sys.exit(1)
    return r[0]

rate = float(query("rate(%s)" % sel)["value"][1])
pts = [(int(round(float(t) * 1000)), float(v)) for t, v in query(sel)["values"]]
# Prometheus 2's extrapolatedRate (promql/functions.go) on the same
# samples: the counter's rise from the first to the last sample (resets
# added back), extrapolated to the window's edges where they are less
# than 1.1 average intervals away (else by half an interval), not below
# zero, per second of the window.
first, last = pts[0], pts[-1]
rise = last[1] - first[1]
prev = 0.0
for _, v in pts:
    if v < prev:
        rise += prev
    prev = v
sampled = (last[0] - first[0]) / 1000
avg = sampled / (len(pts) - 1)
to_start = (first[0] - (end_ms - range_ms)) / 1000
to_end = (end_ms - last[0]) / 1000
if rise > 0 and first[1] >= 0:
    to_start = min(to_start, sampled * first[1] / rise)
ext = sampled
ext += to_start if to_start < avg * 1.1 else avg / 2
ext += to_end if to_end < avg * 1.1 else avg / 2
expect = rise * ext / sampled / (range_ms / 1000)
print("  rate(): %.3f/s over %d ms to %.3f; %d samples, the ends %.3f s apart "
      "(%.3f/s between them); memcgtop -b: %.3f/s over %.3f s"
      % (rate, range_ms, end_ms / 1000, len(pts), sampled, rise / sampled, own, interval))
if rise > 0 and abs(rate - expect) <= 1e-9 * expect:
    print("PASS: rate(memcgtop_pgfault_total[%dms]) = %.3f/s: the rise between the first and last scraped samples of the window, extrapolated as Prometheus does (%.3f/s)" % (range_ms, rate, expect))
else:
    print("FAIL: rate(memcgtop_pgfault_total[%dms]) = %.6f/s, from its %d raw samples %.6f/s" % (range_ms, rate, len(pts), expect))
# memcgtop's own rate is over the same window by its own clock.  The
# load is paced (any 30 s hold 600,000 faults within 200: 0.03 %); the
# kernel's per-CPU counts not yet flushed into the group's at a reading
# add a few hundred to a few thousand faults (measured: -0.24 %).  A
# steady rate is the same to well under 1 %, the bound:
#   - for the slope of the scraped samples, the rise from the first to
#     the last over their distance, which rate() is made of (above);
#   - for rate() itself where the samples reach both edges of the window
#     (within 1.1 average intervals, so that it extrapolates to them);
#     a scrape missed at an edge (a loaded machine: the ASan build, a
#     BPF load beside it) leaves rate() short by up to that interval over
#     the window, by Prometheus' own rule, which the check above holds.
slope = rise / sampled
if rise > 0 and abs(slope - own) <= 0.01 * own:
    print("PASS: the scraped samples' slope %.1f/s is memcgtop's own pgfault_per_s %.1f/s over the same %.3f s within 1 %% (%+.3f %%)" % (slope, own, interval, 100 * (slope - own) / own))
else:
    print("FAIL: the scraped samples' slope %.1f/s against memcgtop's own pgfault_per_s %.1f/s over %.3f s: more than 1 %% apart" % (slope, own, interval))
if to_start < avg * 1.1 and to_end < avg * 1.1:
    if abs(rate - own) <= 0.01 * own:
        print("PASS: rate() %.1f/s is memcgtop's own pgfault_per_s %.1f/s within 1 %% (%+.3f %%): the samples reach both edges of the window" % (rate, own, 100 * (rate - own) / own))
    else:
        print("FAIL: rate() %.1f/s against memcgtop's own pgfault_per_s %.1f/s: more than 1 %% apart, the samples reaching both edges" % (rate, own))
else:
    print("  rate() %.1f/s, memcgtop's own %.1f/s: a scrape missed at an edge (%.3f s to the start, %.3f s to the end, samples %.3f s apart), so Prometheus extrapolates by half an interval there" % (rate, own, to_start, to_end, avg))
PY
	tally "$tmp/rate"
	fmt=$(curl -sf "$API/api/v1/targets" | python3 -c '
import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"]
print(t[0].get("lastError") or "no error")' 2>/dev/null)
	[ "$fmt" = "no error" ] && pass "prometheus: target's last error: none" ||
		fail "prometheus: target's last error: $fmt"
	kill -TERM "$PR"
	wait "$PR"
	stop_listen
	[ "$RC" = 0 ] && pass "live: SIGTERM, status 0" || fail "live: SIGTERM, status $RC"
else
	fail "--listen on live v1 did not start: $(head -c 300 "$tmp/live.log")"
fi
echo "listen: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
