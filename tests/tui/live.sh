# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tui/live.sh - what the screen tests on the live v1 host share,
# sourced after they set NAME (e.g. "tui reads") and TNAME (the test's
# group below the v1 memory mount), and if they like TOOLS (more commands
# the test needs, e.g. strace) and TMPBASE (where the temporary folder
# goes, default /tmp): the host check, a temporary folder with its own
# settings and HOME, a private tmux server (tests/lib/tmux.sh: the tests
# read pane s with cap s, screen_wait s), cleanup on exit and on a signal
# (the tmux server, the pids in pids[], the group, the folder), memcgtop
# started in pane s, and the helpers to trace it.
set -u
LC_ALL=C.UTF-8
export -n LC_ALL
export TZ=UTC
unset TMUX TMUX_PANE

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
CGM=/sys/fs/cgroup/memory
. "$top/tests/live/lib.sh"
v1_host_ready
for tool in tmux ${TOOLS:-}; do
	command -v "$tool" >/dev/null 2>&1 || cannot_run "$tool not installed"
done

TROOT=$CGM/$TNAME
TMPD=
pids=()
. "$top/tests/lib/tmux.sh"
cleanup() { clean_up "$TROOT"; }
trap_cleanup
# A failure shows the screen last read, if any.
SCREEN=""
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
	[ -n "$SCREEN" ] && printf "%s\n" "$SCREEN" | sed "s/^/    |/"
}
abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

TMPD=$(mktemp -d "${TMPBASE:-/tmp}/memcgtop-${TAG}.XXXXXX") || abort "mktemp failed"
tmux_private -S "$TMPD/tmux.sock"
mkdir -p "$TMPD/config" "$TMPD/home"
[ -x "$MEMCGTOP" ] || abort "memcgtop binary $MEMCGTOP not found (run make)"

# start W H ENV... -- ARGS...: memcgtop ARGS in session s at W x H, in /,
# with ENV and the test's settings, its standard error in $TMPD/err; its
# pid in MPID.
start() {
	local w=$1 h=$2 envs=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	tm kill-server 2>/dev/null
	rm -f "$TMPD/pid"
	tm new-session -d -s s -x "$w" -y "$h" "bash --norc --noprofile -c $(printf %q "cd / && echo \$\$ >$TMPD/pid && exec env ${envs[*]} XDG_CONFIG_HOME=$TMPD/config HOME=$TMPD/home TERM=xterm-256color LANG=C.UTF-8 $(printf %q "$MEMCGTOP") $* 2>$TMPD/err; exec cat")" ||
		abort "tmux new-session"
	wait_until 10 test -s "$TMPD/pid"
	MPID=$(cat "$TMPD/pid")
}

# has DESC REGEX: a line of pane s matches (waiting up to 10 s)
has() {
	if screen_wait s "$2"; then
		pass "$1"
	else
		fail "$1: no line matches /$2/"
	fi
}
# quit DESC: q ends memcgtop, which wrote nothing to standard error
quit() {
	tm send-keys -t s q
	screen_wait s '^$' >/dev/null
	sleep 0.2
	if [ -s "$TMPD/err" ]; then
		fail "$1: standard error: $(head -c 300 "$TMPD/err")"
	else
		pass "$1: nothing on standard error"
	fi
}

# trace_start OUT SYSCALLS: strace -f -y on memcgtop (MPID) into OUT,
# attached when this returns 0; its pid in SPID.  trace_stop ends it.
trace_start() {
	local i
	rm -f "$1"
	strace -f -qq -y -o "$1" -e trace="$2" -p "$MPID" 2>"$TMPD/strace.err" &
	SPID=$!
	pids+=("$SPID")
	for ((i = 0; i < 200; i++)); do
		[ "$(awk '/^TracerPid:/ { print $2 }' "/proc/$MPID/status")" = "$SPID" ] && return 0
		sleep 0.05
	done
	fail "strace did not attach: $(head -n 1 "$TMPD/strace.err")"
	return 1
}
trace_stop() {
	kill -INT "$SPID"
	wait "$SPID" 2>/dev/null
	return 0
}
