#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/session.sh - one test VM for many suites: the first suite that
# needs a guest boots it (tests/vm/vm.sh run with tests/vm/session-guest.sh
# as its script), and the guest then runs one suite's guest.sh after the
# other, each in its own share, cleaning up in between (groups, processes,
# swap, zram, the page cache; see session-guest.sh).
#
#   tests/vm/session.sh run SHARE [SECS]   as tests/vm/vm.sh run SHARE SECS:
#                                          SHARE/guest.sh runs in the
#                                          session's guest (booted first
#                                          when none is up), with SHARE at
#                                          /mnt/host; SHARE/console.log gets
#                                          its part of the console; exit
#                                          status guest.sh's, 124 after SECS
#                                          (the guest is then stopped), 125
#                                          when the guest did not boot or
#                                          stopped during the run
#   tests/vm/session.sh stop               stop this kernel's sessions
#
# A session is one guest per boot configuration (kernel, VM_MEM, VM_SMP,
# VM_QEMU_ARGS, VM_APPEND) and owner: VM_SESSION=PID (tests/run-all.sh
# gives its own) shares it among the suites of one run, and it stops once
# PID is gone or after VM_SESSION_IDLE seconds (default 120) without a
# suite.  SHARE must lie below the kernel's cache folder (VM_BUILD), which
# is the guest's 9p share; the binaries of VM_BINS go in as an archive
# (tests/vm/vm.sh archive) unpacked before the suite and removed after it.
# A guest that crashes or hangs fails the suite that ran; the next suite
# boots a new one.  A boot may take SECS at most; VM_SESSION_MAX seconds
# (default 14400) bound a guest's life.
set -eu

ME=session.sh
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$("$HERE/vm.sh" dir)
IDLE=${VM_SESSION_IDLE:-120}

die() { echo "$ME: $*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# The session's folder below $BUILD: one per boot configuration and owner
session_dir() {
	local key
	key=$(printf '%s|' "${VM_KERNEL:-6.1}" "${VM_MEM:-512M}" "${VM_SMP:-2}" \
		"${VM_QEMU_ARGS:-}" "${VM_APPEND:-}" "$OWNER" | md5sum | cut -c1-10)
	echo "session-$key"
}

alive() { [ -s "$C/pid" ] && kill -0 "$(cat "$C/pid")" 2>/dev/null; }
usable() { alive && [ -e "$C/up" ] && [ ! -e "$C/guest.rc" ] && [ ! -e "$C/quit" ]; }

# kill_guest: stops qemu (the timeout that runs it forwards the TERM)
kill_guest() {
	local p
	p=$(cat "$C/qemu.pid" 2>/dev/null || true)
	[ -z "$p" ] || kill "$p" 2>/dev/null || true
}

# wait_gone SECS: waits for the daemon to exit, stopping the guest at last
wait_gone() {
	local i=0
	while alive && [ $i -lt $(($1 * 5)) ]; do
		sleep 0.2
		i=$((i + 1))
	done
	if alive; then
		kill_guest
		sleep 2
	fi
}

# The daemon: runs the guest, and asks it to power off once the owner is
# gone (after 60 s more it stops qemu)
daemon() {
	local vp t=0 rc f
	# none of the descriptors of the suite that started it (a pipe of
	# whatever reads the run's output would stay open until it ends)
	for f in /proc/$$/fd/*; do
		case ${f##*/} in 0 | 1 | 2 | 255) ;; *) eval "exec ${f##*/}>&-" 2>/dev/null ;; esac
	done
	VM_BINS= VM_GUEST=$SDIR/guest.sh "$HERE/vm.sh" run "$BUILD" "${VM_SESSION_MAX:-14400}" &
	vp=$!
	while kill -0 "$vp" 2>/dev/null; do
		if ! kill -0 "$OWNER" 2>/dev/null; then
			[ -e "$C/quit" ] || echo "$ME: owner $OWNER gone" >> "$C/daemon.log"
			touch "$C/quit"
			t=$((t + 1))
			[ $t -lt 60 ] || kill_guest
		fi
		sleep 1
	done
	rc=0
	wait "$vp" || rc=$?
	echo "$rc" > "$C/vm.rc"
}

# start SECS: a usable session in $C (under the lock), booted within SECS
# when none is up (then booted says how long it took)
start() {
	local t0 i=0
	booted=
	usable && return 0
	if alive; then
		touch "$C/quit"
		wait_gone 60
	fi
	# the last session's folder stays for inspection
	rm -rf "$C.last"
	[ ! -d "$C" ] || mv "$C" "$C.last"
	mkdir -p "$C/q"
	{
		echo "C=$SDIR"
		echo "IDLE=$IDLE"
		cat "$HERE/session-guest.sh"
	} > "$C/guest.sh"
	t0=$(now)
	# not holding the lock (fd 8)
	OWNER=$OWNER SDIR=$SDIR C=$C setsid "$0" daemon < /dev/null > "$C/daemon.log" 2>&1 8>&- &
	echo $! > "$C/pid"
	until [ -e "$C/up" ]; do
		if ! alive || [ -e "$C/guest.rc" ]; then
			return 1
		fi
		i=$((i + 1))
		if [ $i -gt $(($1 * 5)) ]; then
			kill_guest
			return 1
		fi
		sleep 0.2
	done
	booted=$(since "$t0")
}

# slice ID OUT: the console's lines of request ID into OUT (to its end
# when the guest stopped during it)
slice() {
	awk -v b="=== session: begin $1 " -v e="=== session: end $1 " '
		index($0, b) == 1 { on = 1 }
		on { print }
		index($0, e) == 1 { on = 0 }' "$C/console.log" | tr -d '\r' > "$2"
}

# boot_report OUT: the session's console tail and vm.sh's messages into OUT
boot_report() {
	{
		echo "$ME: the session's VM did not boot (see $C/console.log)"
		tail -n 15 "$C/console.log" 2>/dev/null | tr -d '\r'
		cat "$C/daemon.log" 2>/dev/null
	} > "$1"
}

run() {
	local share tmo rel id req t0 ts tries=0 rc bins
	[ $# -ge 1 ] || die "usage: session.sh run SHARE [SECS]"
	share=$(cd "$1" && pwd) || die "no such folder: $1"
	tmo=${2:-300}
	[ -f "$share/guest.sh" ] || die "$share/guest.sh does not exist"
	case $share in "$BUILD"/?*) rel=${share#"$BUILD"/} ;; *) die "$share is not below $BUILD" ;; esac
	rm -f "$share/guest.rc" "$share/console.log" "$share/bins.cpio"
	if [ -n "${VM_BINS:-}" ]; then
		"$HERE/vm.sh" archive "$share/bins.cpio"
	fi
	SDIR=$(session_dir)
	C=$BUILD/$SDIR
	id=$(date +%s%N).$$
	while :; do
		tries=$((tries + 1))
		exec 8> "$C.lock"
		flock 8
		if ! start "$tmo"; then
			exec 8>&-
			boot_report "$share/console.log"
			cat "$share/console.log" >&2
			return 125
		fi
		exec 8>&-
		[ -z "$booted" ] || echo "$ME: booted $SDIR in $booted s" >&2
		req=$C/q/$id.req
		printf '%s\n' "$rel" > "$req.tmp"
		mv "$req.tmp" "$req"
		# queued: until the guest takes it (it renames it .run)
		t0=$(now)
		while [ -e "$req" ] && usable; do
			sleep 0.2
		done
		if [ -e "$req" ]; then
			# the session ended before it took the request: once more
			rm -f "$req"
			[ $tries -lt 3 ] || { boot_report "$share/console.log"; return 125; }
			continue
		fi
		break
	done
	ts=$(now)
	[ "$(since "$t0")" = 0.0 ] || echo "$ME: queued $(since "$t0") s" >&2
	rc=
	while :; do
		if [ -s "$share/guest.rc" ]; then
			rc=$(tr -dc '0-9' < "$share/guest.rc")
			break
		fi
		alive || break
		if awk -v a="$ts" -v b="$(now)" -v t="$tmo" 'BEGIN { exit !(b - a > t) }'; then
			kill_guest
			rc=124
			break
		fi
		sleep 0.2
	done
	# the console's end line comes before guest.rc, but the serial
	# console may lag behind the share
	local i=0
	while [ "$rc" != 124 ] && ! grep -q "^=== session: end $id " "$C/console.log" && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	slice "$id" "$share/console.log"
	echo "$ME: guest ran $(since "$ts") s (session $SDIR${booted:+, booted for this suite in $booted s})" >&2
	case $rc in
	124)
		echo "$ME: FAIL: the guest was stopped after the ${tmo} s timeout; see $share/console.log and $C/console.log" >&2
		tail -n 15 "$share/console.log" >&2
		return 124 ;;
	'')
		echo "$ME: FAIL: the guest stopped while guest.sh ran (no guest.rc); see $C/console.log" >&2
		tail -n 15 "$C/console.log" 2>/dev/null | tr -d '\r' >&2
		return 125 ;;
	esac
	return "$rc"
}

stop() {
	local d
	for d in "$BUILD"/session-*/; do
		[ -d "$d" ] || continue
		C=${d%/}
		alive || continue
		touch "$C/quit"
		wait_gone 60
	done
}

OWNER=${VM_SESSION:-$PPID}
case ${1:-} in
run) shift; run "$@" ;;
stop) stop ;;
daemon) daemon ;;
*) echo "usage: $0 run SHARE [SECS] | stop" >&2; exit 2 ;;
esac
