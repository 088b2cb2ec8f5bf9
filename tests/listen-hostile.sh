#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/listen-hostile.sh - memcgtop --listen keeps answering its scraper
# while hostile clients hold sockets, on 127.0.0.1 only.  The binary is
# $MEMCGTOP (default ./memcgtop).  The fixture is sample 0 of v2-live as a
# plain tree (--root .../cg/0 --proc .../proc/0): every scrape is the same
# bytes, those of -b -n 1 -F prometheus, however many are made.  The
# clients are tests/listen_hostile.py.
#   - attack: 2,000 idle connections and 16 trickling ones (half a
#     request, a byte every 2 s), from 127.0.0.1 like the scraper, each
#     opened again 1 s after memcgtop closes it; 12 scrapes during it,
#     1 s apart, each 200 with the right bytes within 1 s (connection and
#     whole answer); a request with 300 query parameters (200), a
#     20,000-byte path (414), 64 KiB of headers (431), "GET" alone and a
#     line without a space (400), each its exact status line within 2 s; memcgtop closes attack connections (rather than
#     leave them queued) and holds at most 128 descriptors more than
#     before (64 an address, 64 closing); after it, its descriptors are
#     back and a scrape is 200; request lines without a space ("GET",
#     bytes, a space first; whole, after empty lines, a byte at a time)
#     each get memcgtop's 400, every byte of it, and a close; others
#     libmicrohttpd's exact status line (400, 505, 414), a good request
#     after empty lines or a byte at a time 200; a scrape's answer says
#     "Connection: close" and memcgtop closes the connection with it,
#     alone or with "GET" sent behind it (so no later line without a
#     space reaches libmicrohttpd to be closed unanswered);
#   - spread: started with RLIMIT_NOFILE 1024 (soft), memcgtop raises it
#     to what 1,024 connections need beside a refresh's (at least 1232),
#     and of 1,200 idle connections from 20 addresses (60 each, below the
#     cap an address) holds 1,024 and closes the rest (waited for, 10 s
#     at most: connects the full listen queue dropped while memcgtop did
#     not run come again 1 s later, and were not counted closed within
#     a 1 s window on a loaded machine); scrapes from
#     127.0.0.1 are 200 within 1 s; on a recorded series (whose walk
#     keeps no descriptor and raises no limit) it raises it to 1232;
#   - with RLIMIT_NOFILE 512 (hard) it says so in one line ("at most 304
#     connections") and holds 304 of the 1,200;
#   - SIGTERM: exit status 0 and nothing else on stderr (an ASan build:
#     no report);
#   - as root on a live cgroup v1 memory mount: 400 test groups under
#     RLIMIT_NOFILE 1400 with the files collector: the walk keeps at most
#     296 descriptors (1400 less the 1,104 of --listen; without it, one
#     a group), and 1,024 of the 1,200 idle connections from 20
#     addresses are held beside it, scrapes answered (within 5 s: the
#     refresh of live groups takes its own time), no descriptor short.
# An ASan build runs with a 4 MiB quarantine (ASAN_OPTIONS
# quarantine_size_mb=4): under the default 256 MiB every connection's
# 16 KiB of request memory is fresh pages, whose faults cost this kind
# of VM 0.5 ms a connection, and a burst of 2,000 a second; 4 MiB still
# holds the last 250 connections' freed memory against use after free.
# Every process is started here and killed by its pid; bounded loops.
set -u
here=$(cd "$(dirname "$0")" && pwd)
MEMCGTOP=${MEMCGTOP:-$here/../memcgtop}
MEMCGTOP=$(cd "$(dirname "$MEMCGTOP")" && pwd)/$(basename "$MEMCGTOP")
. "$here/count.sh"
FIX=$here/fixtures/v2-live
TREE=(--root "$FIX/cg/0" --proc "$FIX/proc/0")
tmp=$(mktemp -d)
pids=()

CGM=/sys/fs/cgroup/memory
TGRP=

cleanup() {
	local p
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	pids=()
	if [ -n "$TGRP" ] && [ -d "$TGRP" ]; then
		find "$TGRP" -mindepth 1 -maxdepth 1 -type d -exec rmdir {} + 2>/dev/null
		rmdir "$TGRP" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

for tool in python3 curl; do
	command -v "$tool" >/dev/null || {
		fail "$tool not installed (make deps-test installs what the tests need)"
		echo "listen-hostile: $npass passed, $nfail failed"
		exit 1
	}
done
if ldd "$MEMCGTOP" 2>/dev/null | grep -q libasan; then
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4
	echo "  ASan build: ASAN_OPTIONS=$ASAN_OPTIONS"
fi

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_listen LOG ULIMIT...: memcgtop --listen 127.0.0.1:$PORT on the
# tree, under "ulimit ULIMIT..." (none: as it is), in the background ($MC
# its pid), waiting until it accepts a connection (or has died).
start_listen() {
	local log=$1 i
	shift
	PORT=$(free_port)
	# shellcheck disable=SC2016
	bash -c 'lim=$1; shift; [ -z "$lim" ] || ulimit $lim || exit 99; exec "$@"' \
		sh "$*" "$MEMCGTOP" --listen "127.0.0.1:$PORT" "${TREE[@]}" >"$log" 2>&1 &
	MC=$!
	pids+=("$MC")
	for i in $(seq 100); do
		kill -0 "$MC" 2>/dev/null || return 1
		python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' \
			"$PORT" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# stop_listen LOG WHAT: SIGTERM; status 0 and no line on stderr (LOG)
# but WANT_ERR's.
stop_listen() {
	local log=$1 what=$2 i rc
	kill -TERM "$MC" 2>/dev/null
	for i in $(seq 100); do
		kill -0 "$MC" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$MC" 2>/dev/null
	wait "$MC"
	rc=$?
	if [ "$rc" = 0 ] && ! grep -v -x -F "${WANT_ERR:-}" "$log" | grep -q .; then
		pass "$what: SIGTERM, exit status 0, nothing else on stderr"
	else
		fail "$what: exit status $rc, stderr: $(head -c 600 "$log")"
	fi
}

# scrape NAME: one scrape, 200 with the wanted bytes within 1 s.
scrape() {
	local t
	t=$(curl -s -m 1 -o "$tmp/s" -w '%{http_code} %{time_total}' "http://127.0.0.1:$PORT/metrics")
	if [ "${t%% *}" = 200 ] && cmp -s "$tmp/s" "$tmp/want"; then
		pass "$1: 200 in ${t#* } s, the bytes of -b -n 1 -F prometheus"
	else
		fail "$1: '$t', $(cmp "$tmp/s" "$tmp/want" 2>&1 | head -c 200)"
	fi
}

fds() { ls "/proc/$MC/fd" 2>/dev/null | wc -l; }

if ! "$MEMCGTOP" -b -n 1 -F prometheus "${TREE[@]}" >"$tmp/want" 2>"$tmp/err" ||
	[ ! -s "$tmp/want" ]; then
	fail "-b -n 1 on the tree: $(head -c 300 "$tmp/err")"
	echo "listen-hostile: $npass passed, $nfail failed"
	exit 1
fi

# ---- attack: idle and trickling connections from the scraper's address --
if start_listen "$tmp/a.log"; then
	scrape "before the attack, a scrape"
	base=$(fds)
	python3 "$here/listen_hostile.py" attack "$PORT" "$MC" "$tmp/want" >"$tmp/attack" 2>&1
	tally "$tmp/attack"
	grep -q '^PASS: .* scrapes during the attack' "$tmp/attack" ||
		grep -q '^FAIL' "$tmp/attack" || fail "the attack's clients: $(tail -n 3 "$tmp/attack")"
	# The attack's sockets are closed: so are memcgtop's ends.
	for i in $(seq 50); do
		[ "$(fds)" -le "$base" ] && break
		sleep 0.1
	done
	now=$(fds)
	[ "$now" -le "$base" ] &&
		pass "after the attack memcgtop is back to $now descriptors (before: $base)" ||
		fail "after the attack memcgtop holds $now descriptors (before: $base)"
	scrape "after the attack, a scrape"
	python3 "$here/listen_hostile.py" lines "$PORT" "$MC" "$tmp/want" >"$tmp/lines" 2>&1
	tally "$tmp/lines"
	grep -q '^PASS: after them' "$tmp/lines" || fail "the request lines' client: $(tail -n 3 "$tmp/lines")"
	WANT_ERR='' stop_listen "$tmp/a.log" "after the attack"
else
	fail "--listen on the tree did not start: $(head -c 300 "$tmp/a.log")"
fi

# ---- spread: more connections than the total, from 20 addresses --------
if start_listen "$tmp/b.log" -Sn 1024; then
	soft=$(awk '/^Max open files/ {print $4}' "/proc/$MC/limits")
	[ "$soft" -ge 1232 ] 2>/dev/null &&
		pass "started with RLIMIT_NOFILE 1024, memcgtop raised it to $soft (1,024 connections and a refresh need 1232)" ||
		fail "started with RLIMIT_NOFILE 1024, memcgtop's is '$soft' (want at least 1232)"
	python3 "$here/listen_hostile.py" spread "$PORT" "$MC" "$tmp/want" 1024 >"$tmp/spread" 2>&1
	tally "$tmp/spread"
	scrape "after them, a scrape"
	WANT_ERR='' stop_listen "$tmp/b.log" "1,024 connections"
else
	fail "--listen with RLIMIT_NOFILE 1024 did not start: $(head -c 300 "$tmp/b.log")"
fi

# A recorded series keeps no directory open: the walk leaves the limit
# as it is, and --listen raises it to its own need.
TREE0=("${TREE[@]}")
TREE=(--root "$FIX/cg" --proc "$FIX/proc")
if start_listen "$tmp/d.log" -Sn 1024; then
	soft=$(awk '/^Max open files/ {print $4}' "/proc/$MC/limits")
	[ "$soft" = 1232 ] &&
		pass "a series, started with RLIMIT_NOFILE 1024: memcgtop raised it to $soft, its need" ||
		fail "a series, started with RLIMIT_NOFILE 1024: memcgtop's is '$soft' (want 1232)"
	WANT_ERR='' stop_listen "$tmp/d.log" "a series"
else
	fail "--listen on the series did not start: $(head -c 300 "$tmp/d.log")"
fi
TREE=("${TREE0[@]}")

if start_listen "$tmp/c.log" -n 512; then
	msg="memcgtop: --listen: RLIMIT_NOFILE is 512 (hard limit): at most 304 connections, not 1024 (that needs 1232)"
	grep -q -x -F "$msg" "$tmp/c.log" &&
		pass "RLIMIT_NOFILE 512: said in one line: $msg" ||
		fail "RLIMIT_NOFILE 512: stderr '$(head -c 300 "$tmp/c.log")'"
	python3 "$here/listen_hostile.py" spread "$PORT" "$MC" "$tmp/want" 304 >"$tmp/spread2" 2>&1
	tally "$tmp/spread2"
	WANT_ERR=$msg stop_listen "$tmp/c.log" "RLIMIT_NOFILE 512"
else
	fail "--listen with RLIMIT_NOFILE 512 did not start: $(head -c 300 "$tmp/c.log")"
fi

# ---- live v1: the walk leaves the connections their descriptors --------
if [ "$(id -u)" != 0 ] || [ ! -w "$CGM" ] || [ ! -f "$CGM/memory.usage_in_bytes" ]; then
	echo "SKIP: live v1: not root or no writable $CGM"
	echo "listen-hostile: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit
fi
TNAME=memcgtop-lhostile-$$-$RANDOM
TGRP=$CGM/$TNAME
if mkdir "$TGRP" && (cd "$TGRP" && mkdir $(seq -f 'g%.0f' 400)); then
	# RLIMIT_NOFILE 1400: the walk may keep 1400 - 128 - 1104 = 168 of
	# the 401 directories (without --listen: all of them).
	TREE=(--collector files "/$TNAME")
	if start_listen "$tmp/e.log" -n 1400; then
		t=$(curl -s -m 5 -o "$tmp/s" -w '%{http_code}' "http://127.0.0.1:$PORT/metrics")
		n=$(grep -c "^memcgtop_usage_bytes{cgroup=\"/$TNAME/g" "$tmp/s")
		[ "$t" = 200 ] && [ "$n" = 400 ] &&
			pass "live v1, 400 groups, RLIMIT_NOFILE 1400: a scrape is 200 with the usage of each group" ||
			fail "live v1, 400 groups: a scrape is '$t' with $n groups' usage"
		base=$(fds)
		[ "$base" -le $((1400 - 1104)) ] &&
			pass "live v1: the walk keeps $base descriptors, leaving the 1,104 of the connections (at most $((1400 - 1104)))" ||
			fail "live v1: memcgtop holds $base descriptors after a refresh of 401 groups, more than the $((1400 - 1104)) that leave the connections theirs"
		# (a refresh of the live groups takes its own time on a loaded
		# machine: 5 s for a scrape)
		SCRAPE_TIMEOUT=5 python3 "$here/listen_hostile.py" spread "$PORT" "$MC" - 1024 >"$tmp/spread3" 2>&1
		tally "$tmp/spread3"
		grep -q 'Too many open files' "$tmp/e.log" &&
			fail "live v1: memcgtop ran out of descriptors: $(grep -m1 'Too many' "$tmp/e.log")"
		WANT_ERR='' stop_listen "$tmp/e.log" "live v1, 400 groups"
	else
		fail "--listen on the live group did not start: $(head -c 300 "$tmp/e.log")"
	fi
else
	fail "cannot make $TGRP and 400 groups in it"
fi

echo "listen-hostile: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
