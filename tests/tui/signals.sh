#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# signals.sh - signals and a vanishing terminal under the interactive screen.
#
# Usage:  tests/tui/signals.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the live cgroup v1 parts is a failure,
#             not a skip
#
# memcgtop runs in a private tmux server (-L memcgtop-sig-$$), each time in
# a shell that prints EXIT=status, saves `stty -a` and gives a prompt.
# SIGHUP, SIGTERM and SIGINT are sent with kill(1):
#   (a) during normal display, on the recorded series tests/fixtures/v2-live
#       (-d 60) and on a live v1 group (-d 1);
#   (b) with the edit dialog open on the live v1 group: e, Enter on the
#       limit knob, a value typed, Enter, so that the confirmation waits for
#       y (and once while the value is still being typed): the group's
#       memory.limit_in_bytes and soft limit must be unchanged and nothing
#       recorded in the --audit-log file;
#   (c) while a refresh runs: a live tree of 2001 groups, -d 3, the files
#       collector; after the header time changed, /proc/PID/syscall is
#       polled until memcgtop is in a system call of the next refresh (not
#       its idle wait, not merely running) and the signal is sent at once.  It must then end
#       within 1.5 s (not at the end of the next interval).
# Each time: exit status 128+N, the process gone, the shell prompt back,
# alternate screen off and cursor visible, `stty -a` with echo and icanon.
#
# SIGWINCH storm (fixture): three storms of 50 window resizes within about a
# second (alternating sizes, one tmux command each), ending at 90x28; the
# screen then equals that of a memcgtop started at 90x28, RSS after the
# third storm within 256 KiB of RSS after the first (not checked for an
# ASan build, whose quarantine keeps freed memory), memcgtop still runs.
#
# The terminal going away: (1) tmux kill-server, (2) SIGKILL to the tmux
# server, (3) SIGKILL to the tmux server with memcgtop in a session of its
# own (setsid: no SIGHUP from the hangup, only the dead terminal: poll's
# POLLHUP / read's end of file), (4) SIGKILL to a tmux client attached to
# memcgtop's session (the terminal stays: memcgtop must keep running and
# drawing, then q ends it).  memcgtop must be gone within 3 s (ps), else its
# CPU use over a second is reported.
#
# Each check prints "PASS: ..." or "FAIL: ..." (a failure shows the
# captured screen, indented); the last line is "tui-signals: N passed, M
# failed"; exit 1 on any failure.  Without tmux: SKIP (exit 77; with
# CI=true a FAIL).  Without root or a writable v1 memory mount the live
# parts are skipped (with CI=true: FAIL).  The tmux servers, groups,
# processes and temporary directory are removed on exit; only the pids the
# test started are killed.
set -u
LC_ALL=C.UTF-8
export -n LC_ALL
export TZ=UTC
unset TMUX TMUX_PANE

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
cd "$top" || exit 1

V2=tests/fixtures/v2-live
CGM=/sys/fs/cgroup/memory
. "$top/tests/lib/tmux.sh"
. "$top/tests/lib/cleanup.sh"
tmux_private sig
SOCK2=memcgtop-sig2-$$
PROMPT='sig-test$ '
PROMPT_RE='^sig-test\$ ?$'
t_start=$SECONDS

npass=0 nfail=0
SCREEN=''
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
	if [ -n "$SCREEN" ]; then
		echo "  screen:"
		printf '%s\n' "$SCREEN" | sed 's/^/    |/'
	fi
	SCREEN=''
}
summary() {
	echo "time: $((SECONDS - t_start)) s"
	echo "tui-signals: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
cannot_run() {
	if [ "${CI:-}" = true ]; then
		fail "$1 (CI=true: not skipping)"
		summary
		exit 1
	fi
	echo "SKIP: $1"
	exit 77
}

command -v tmux >/dev/null 2>&1 || cannot_run "tmux not installed"
if [ ! -x "$MEMCGTOP" ]; then
	fail "no binary at $MEMCGTOP (run make)"
	summary
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgtop-sig.XXXXXX")
mkdir -p "$tmp/config" "$tmp/home"
LIVE='' BIG='' pids=()

tm2() { tmux -L "$SOCK2" -f /dev/null "$@"; }

cleanup() {
	local p
	tm kill-server 2>/dev/null
	tm2 kill-server 2>/dev/null
	# tmux leaves the socket file of a killed server behind
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK" \
		"${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK2"
	for p in "${pids[@]}"; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	remove_tree "$LIVE"
	remove_tree "$BIG"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP


# start NAME W H ARGS...: in a W x H window a shell runs memcgtop ARGS, then
# prints EXIT=status, saves `stty -a` to $tmp/stty.NAME and gives a prompt.
# With PRE set, it is put before the binary (e.g. setsid -w).
PRE=''
start_on() {
	local srv=$1 name=$2 w=$3 h=$4 cmd
	shift 4
	cmd="cd $(printf %q "$tmp") || exit; env -u LC_ALL -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/config HOME=$tmp/home $PRE $(printf '%q ' "$MEMCGTOP" "$@")"
	cmd+="; echo EXIT=\$?; stty -a > $tmp/stty.$name; exec env PS1=$(printf %q "$PROMPT") bash --norc --noprofile -i"
	tmux -L "$srv" -f /dev/null new-session -d -s "$name" -x "$w" -y "$h" \
		"bash --norc --noprofile -c $(printf %q "$cmd")"
}
start() { start_on "$SOCK" "$@"; }

# pid_of TOKEN: the one memcgtop process whose command line holds TOKEN
# (its command line starts with the binary; the wrapping shell's and tmux's
# hold the command too, but not at the start).
pid_of() {
	local i p
	for ((i = 0; i < 100; i++)); do
		p=$(pgrep -f -- "^$MEMCGTOP .*$1")
		[ -n "$p" ] && [ "$(wc -w <<<"$p")" = 1 ] && { echo "$p"; return 0; }
		sleep 0.05
	done
	echo "$p"
	return 1
}
gone() { # PID [SECONDS]: true when the process is gone within SECONDS
	local i
	for ((i = 0; i < ${2:-2} * 20; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.05
	done
	return 1
}
stty_ok() { # NAME
	local f=$tmp/stty.$1
	for _ in $(seq 40); do [ -s "$f" ] && break; sleep 0.05; done
	[ -s "$f" ] && grep -qw -- echo "$f" && grep -qw -- icanon "$f" &&
		grep -qw -- isig "$f" && grep -qw -- icrnl "$f" &&
		! grep -qw -- -echo "$f" && ! grep -qw -- -icanon "$f"
}
now_us() { echo "${EPOCHREALTIME/./}"; }
rss_of() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status" 2>/dev/null; }
# cpu_ticks PID: utime + stime
cpu_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null; }

# after_signal NAME PID SIG DESC [SECONDS]: memcgtop died of SIG: status
# 128+N, gone, prompt back, terminal modes and stty restored.
after_signal() {
	local name=$1 pid=$2 sig=$3 desc=$4 n ex bad=''
	n=$(kill -l "$sig")
	if wait_for "$name" '^EXIT=' "${5:-5}"; then
		ex=$(grep -m1 '^EXIT=' <<<"$SCREEN")
		[ "$ex" = "EXIT=$((128 + n))" ] || bad+="status ${ex#EXIT=}, expected $((128 + n)); "
	else
		bad+="no exit status within ${5:-5} s; "
	fi
	gone "$pid" 2 || bad+="process $pid still there ($(ps -o stat=,pcpu= -p "$pid")); "
	wait_for "$name" "$PROMPT_RE" 3 || bad+="no shell prompt; "
	[ "$(tm display -p -t "$name" '#{alternate_on} #{cursor_flag}')" = "0 1" ] ||
		bad+="alternate screen/cursor not restored; "
	stty_ok "$name" || bad+="stty: $(tr '\n' ' ' <"$tmp/stty.$name" 2>/dev/null | head -c 200); "
	if [ -z "$bad" ]; then
		SCREEN=''
		pass "$desc: exit $((128 + n)), process gone, prompt back, terminal restored (echo icanon)"
	else
		fail "$desc: $bad"
	fi
	tm kill-session -t "$name" 2>/dev/null
}

ln -s "$top/tests/fixtures" "$tmp/fx"
tm new-session -d -s keeper -x 80 -y 24 'exec cat' || { fail "cannot start tmux"; summary; exit 1; }

# ---- (a) normal display, fixture -------------------------------------------------
echo "== (a) normal display, recorded series"
for sig in HUP TERM INT; do
	nm=fx$sig
	mkdir -p "$tmp/u"
	ln -sfn "$top/tests/fixtures" "$tmp/u/$nm"
	start "$nm" 80 24 -d 60 --root "$tmp/u/$nm/v2-live/cg" --proc "$V2/proc"
	if ! wait_for "$nm" '^memcgtop [0-9:]{8}  every 60.0s' 5 ||
		! wait_for "$nm" '^ .* fixture$' 3; then
		fail "fixture SIG$sig: the screen did not come up"
		tm kill-session -t "$nm"
		continue
	fi
	pid=$(pid_of "/u/$nm/") || { fail "fixture SIG$sig: no single memcgtop process ('$pid')"; continue; }
	kill -s "$sig" "$pid"
	after_signal "$nm" "$pid" "$sig" "(a) fixture, normal display, SIG$sig"
done

# ---- live v1 -----------------------------------------------------------------------
live_reason=''
if [ "$(id -u)" != 0 ]; then
	live_reason="not root"
elif ! awk -v m="$CGM" '$2 == m && $3 == "cgroup" && $4 ~ /(^|,)rw(,|$)/ && $4 ~ /(^|,)memory(,|$)/ { f = 1 } END { exit !f }' /proc/mounts; then
	live_reason="$CGM is not a writable cgroup v1 memory mount"
fi

LIM=268435456 SOFTV=67108864
# the dialog shows a size in human units with its bytes in brackets
LIMSHOWN='256M \[268435456\]'
if [ -n "$live_reason" ]; then
	SCREEN=''
	if [ "${CI:-}" = true ]; then
		fail "live v1: $live_reason (CI=true: not skipping)"
	else
		echo "SKIP: live v1 parts: $live_reason"
	fi
else
	lname=memcgtop-sig-$$-$RANDOM
	LIVE=$CGM/$lname
	mkdir "$LIVE" "$LIVE/child" &&
		echo $LIM >"$LIVE/memory.limit_in_bytes" &&
		echo $SOFTV >"$LIVE/memory.soft_limit_in_bytes" ||
		{ fail "live v1: cannot set up $LIVE"; LIVE=''; }
fi

if [ -n "$LIVE" ]; then
	echo "== (a) normal display, live v1"
	for sig in HUP TERM INT; do
		nm=lv$sig
		start "$nm" 100 24 -d 1 --audit-log "$tmp/audit.$nm" "/$lname"
		if ! wait_for "$nm" "^ .* /$lname\$" 5; then
			fail "live SIG$sig: the screen did not come up"
			tm kill-session -t "$nm"
			continue
		fi
		pid=$(pid_of "audit.$nm ") || { fail "live SIG$sig: no single memcgtop process ('$pid')"; continue; }
		kill -s "$sig" "$pid"
		after_signal "$nm" "$pid" "$sig" "(a) live v1, normal display, SIG$sig"
	done

	echo "== (b) edit dialog open, live v1"
	# stage: confirm (value typed and entered, y not pressed) or value
	# (value typed, Enter not pressed)
	for c in HUP:confirm TERM:confirm INT:confirm TERM:value; do
		sig=${c%%:*} stage=${c#*:}
		nm=ed$sig$stage
		start "$nm" 100 24 -d 1 --audit-log "$tmp/audit.$nm" "/$lname"
		if ! wait_for "$nm" "^ .* /$lname\$" 5; then
			fail "edit SIG$sig: the screen did not come up"
			tm kill-session -t "$nm"
			continue
		fi
		pid=$(pid_of "audit.$nm ") || { fail "edit SIG$sig: no single memcgtop process ('$pid')"; continue; }
		lit "$nm" e
		if ! wait_for "$nm" "^┌ Edit /$lname  \(Up/Down choose" 3 ||
			! wait_for "$nm" "^│ limit +memory.limit_in_bytes +$LIMSHOWN " 3; then
			fail "edit SIG$sig: the edit dialog did not open with limit $LIM"
			tm kill-session -t "$nm"
			continue
		fi
		keys "$nm" Down Up Enter
		if ! wait_for "$nm" "^│ limit of /$lname \(now $LIMSHOWN\): +│\$" 3; then
			fail "edit SIG$sig: no value prompt after Enter on the limit knob"
			tm kill-session -t "$nm"
			continue
		fi
		lit "$nm" 100M
		if ! wait_for "$nm" "^│ limit of /$lname \(now $LIMSHOWN\): 100M +│\$" 3; then
			fail "edit SIG$sig: the typed value is not shown"
			tm kill-session -t "$nm"
			continue
		fi
		if [ "$stage" = confirm ]; then
			keys "$nm" Enter
			if ! wait_for "$nm" '^Apply to 1 group\? y applies, any other key cancels' 3; then
				fail "edit SIG$sig: no confirmation after Enter"
				tm kill-session -t "$nm"
				continue
			fi
			what="confirmation waiting for y"
		else
			what="value typed, Enter not pressed"
		fi
		kill -s "$sig" "$pid"
		after_signal "$nm" "$pid" "$sig" "(b) edit dialog ($what), SIG$sig"
		l=$(cat "$LIVE/memory.limit_in_bytes") s=$(cat "$LIVE/memory.soft_limit_in_bytes")
		if [ "$l" = $LIM ] && [ "$s" = $SOFTV ] && [ ! -s "$tmp/audit.$nm" ]; then
			pass "(b) edit dialog, SIG$sig: memory.limit_in_bytes still $LIM, soft limit unchanged, nothing in the audit log"
		else
			fail "(b) edit dialog, SIG$sig: limit $l (want $LIM), soft $s (want $SOFTV), audit log: $(cat "$tmp/audit.$nm" 2>/dev/null)"
			echo $LIM >"$LIVE/memory.limit_in_bytes"
			echo $SOFTV >"$LIVE/memory.soft_limit_in_bytes"
		fi
	done

	echo "== (c) signal while a refresh runs (2001 live groups)"
	bname=memcgtop-sigbig-$$-$RANDOM
	BIG=$CGM/$bname
	t0=$SECONDS
	if mkdir "$BIG" && mkdir "$BIG"/a{1..40} && mkdir "$BIG"/a{1..40}/b{1..49}; then
		ngr=$(find "$BIG" -type d | wc -l)
		echo "created $ngr groups in $((SECONDS - t0)) s"
		# The idle wait's system call: memcgtop on the fixture, -d 60.
		start idle 80 24 -d 60 --root "$tmp/u/fxHUP/v2-live/cg" --proc "$V2/proc"
		wait_for idle '^ .* fixture$' 5
		ipid=$(pid_of "/u/fxHUP/")
		idle_nr=''
		for ((i = 0; i < 40; i++)); do
			read -r idle_nr _ <"/proc/$ipid/syscall" 2>/dev/null
			[ "$idle_nr" != running ] && [ -n "$idle_nr" ] && break
			sleep 0.05
		done
		tm kill-session -t idle
		echo "idle wait is system call $idle_nr"
		for sig in HUP TERM INT; do
			nm=big$sig
			# The files collector: a refresh is then thousands of
			# system calls (the BPF one is a single read).
			start "$nm" 100 30 -d 3 --collector files --audit-log "$tmp/audit.$nm" "/$bname"
			if ! wait_for "$nm" "^Columns: .*Groups: $ngr shown of $ngr" 15; then
				fail "refresh SIG$sig: the screen did not come up with $ngr groups"
				tm kill-session -t "$nm"
				continue
			fi
			pid=$(pid_of "audit.$nm ") || { fail "refresh SIG$sig: no single memcgtop process ('$pid')"; continue; }
			h0=$(sed -n 1p <<<"$SCREEN" | awk '{ print $2 }')
			# the header time changes (a refresh ended) ...
			for ((i = 0; i < 100; i++)); do
				h=$(cap "$nm" | sed -n 1p | awk '{ print $2 }')
				[ "$h" != "$h0" ] && break
				sleep 0.05
			done
			# ... then wait until the next refresh reads the groups' files
			# (a system call other than the idle wait; "running" is not
			# enough: that may be the instant poll returned, before the
			# loop looks at the signal flag) and signal at once.
			# (/proc/PID/syscall says "running" while it works, the
			# system call number while it waits), then 30 ms into it, if
			# it is still running, signal at once.
			sc='' sc2='' t1=${EPOCHREALTIME/./}
			while (( ${EPOCHREALTIME/./} - t1 < 5000000 )); do
				read -r sc _ <"/proc/$pid/syscall" || break
				[ "$sc" = "$idle_nr" ] && continue
				t2=${EPOCHREALTIME/./}
				while (( ${EPOCHREALTIME/./} - t2 < 30000 )); do :; done
				read -r sc _ <"/proc/$pid/syscall" || break
				[ "$sc" = running ] && break
			done
			kill -s "$sig" "$pid"
			ts=${EPOCHREALTIME/./}
			read -r sc2 _ <"/proc/$pid/syscall"
			while kill -0 "$pid" 2>/dev/null && (( ${EPOCHREALTIME/./} - ts < 5000000 )); do
				sleep 0.01
			done
			el=$(( (${EPOCHREALTIME/./} - ts) / 1000 ))
			SCREEN=''
			if [ "$sc" != running ]; then
				fail "(c) refresh, SIG$sig: could not catch memcgtop in a refresh within 5 s (last state '$sc')"
			elif [ "$el" -le 1500 ]; then
				pass "(c) refresh, SIG$sig: sent 30 ms into a refresh (state '$sc' before, '$sc2' just after), gone after $el ms"
			else
				fail "(c) refresh, SIG$sig: sent 30 ms into a refresh (state '$sc' before, '$sc2' just after), gone only after $el ms (want <= 1500 ms with -d 3: the signal is not acted on until the idle wait that follows the refresh times out)"
			fi
			after_signal "$nm" "$pid" "$sig" "(c) refresh, SIG$sig"
		done
	else
		fail "(c): cannot create the big tree $BIG"
	fi
	remove_tree "$BIG"
	[ -d "$BIG" ] && fail "the big tree $BIG could not be removed"
	BIG=''
fi

# ---- SIGWINCH storm ----------------------------------------------------------------------
echo "== SIGWINCH storm (fixture)"
nm=winch
ln -sfn "$top/tests/fixtures" "$tmp/u/winch"
start "$nm" 80 24 -d 60 --root "$tmp/u/winch/v2-live/cg" --proc "$V2/proc"
if wait_for "$nm" '^ .* fixture$' 5 && pid=$(pid_of "/u/winch/"); then
	# the second sample is taken within a second of the start
	sleep 1.2
	rss=()
	for storm in 1 2 3; do
		t0=$(now_us)
		for ((i = 0; i < 25; i++)); do
			tm resize-window -t "$nm" -x 120 -y 40
			tm resize-window -t "$nm" -x $((60 + i)) -y $((15 + i % 10))
		done
		tm resize-window -t "$nm" -x 90 -y 28
		el=$(( ($(now_us) - t0) / 1000 ))
		# settled: the status line on the last of 28 lines
		wait_for "$nm" '^F1 help  Tab columns' 3
		sleep 0.3
		rss+=("$(rss_of "$pid")")
		echo "storm $storm: 51 resizes in $el ms, RSS ${rss[-1]} KiB"
	done
	if kill -0 "$pid" 2>/dev/null && ! grep -q '^EXIT=' <<<"$(cap $nm)"; then
		pass "SIGWINCH storm: memcgtop still runs after 3 x 51 resizes"
	else
		SCREEN=$(cap $nm)
		fail "SIGWINCH storm: memcgtop died"
	fi
	# a reference started at the final size, on the same sample
	# (a name as long as winch: the header is cut at the screen's edge)
	ln -sfn "$top/tests/fixtures" "$tmp/u/wrefs"
	start wrefs 90 28 -d 60 --root "$tmp/u/wrefs/v2-live/cg" --proc "$V2/proc"
	wait_for wrefs '^ .* fixture$' 5
	sleep 1.2
	want=$(cap wrefs | sed "s|/u/wrefs/|/u/winch/|")
	got=''
	for ((i = 0; i < 40; i++)); do
		got=$(cap $nm)
		[ "$got" = "$want" ] && break
		sleep 0.05
	done
	if [ "$got" = "$want" ] && [ "$(tm display -p -t $nm '#{window_width}x#{window_height}')" = 90x28 ]; then
		pass "SIGWINCH storm: the screen at 90x28 equals that of a memcgtop started at 90x28"
	else
		SCREEN=$got
		fail "SIGWINCH storm: the screen after the storm differs from a fresh one at 90x28: $(diff <(echo "$want") <(echo "$got") | head -10 | tr '\n' '|')"
	fi
	tm kill-session -t wrefs
	if grep -qa __asan_init "$MEMCGTOP"; then
		echo "  note: SIGWINCH storm: no RSS bound for an ASan build (its quarantine holds freed memory; RSS ${rss[*]} KiB); the plain run checks it"
	elif [ ${#rss[@]} = 3 ] && [ $((rss[2] - rss[0])) -le 256 ]; then
		pass "SIGWINCH storm: RSS not growing (${rss[*]} KiB after storms 1 2 3; bound 256 KiB)"
	else
		fail "SIGWINCH storm: RSS grows: ${rss[*]} KiB after storms 1 2 3 (bound 256 KiB)"
	fi
	lit $nm q
	check_has $nm '^EXIT=0$' "SIGWINCH storm: q then quits with status 0"
else
	fail "SIGWINCH storm: the screen did not come up"
fi
tm kill-session -t $nm 2>/dev/null

# ---- the terminal goes away -------------------------------------------------------------
echo "== the terminal goes away"
# gone_check PID DESC: gone within 3 s; else report state and CPU use
gone_check() {
	local pid=$1 a b
	if gone "$pid" 3; then
		if [ -z "$(ps -o pid= -p "$pid")" ]; then
			pass "$2: memcgtop gone within 3 s (ps finds no pid $pid)"
		else
			fail "$2: kill -0 fails but ps shows $(ps -o pid=,stat= -p "$pid")"
		fi
		return
	fi
	a=$(cpu_ticks "$pid")
	sleep 1
	b=$(cpu_ticks "$pid")
	fail "$2: memcgtop $pid still running after 3 s: $(ps -o stat=,pcpu=,wchan= -p "$pid"), $((b - a)) CPU ticks in 1 s (of $(getconf CLK_TCK))"
	kill -KILL "$pid" 2>/dev/null
}
server_pid() { tmux -L "$1" -f /dev/null display -p '#{pid}' 2>/dev/null; }

for how in kill-server sigkill setsid; do
	nm=tg$how
	ln -sfn "$top/tests/fixtures" "$tmp/u/$nm"
	PRE=''
	[ $how = setsid ] && PRE='setsid -w'
	start_on "$SOCK2" "$nm" 80 24 -d 1 --root "$tmp/u/$nm/v2-live/cg" --proc "$V2/proc"
	PRE=''
	ok=
	for ((i = 0; i < 100; i++)); do
		tm2 capture-pane -p -t "$nm" 2>/dev/null | grep -q ' fixture$' && { ok=1; break; }
		sleep 0.05
	done
	pid=$(pid_of "/u/$nm/")
	if [ -z "$ok" ] || [ -z "$pid" ]; then
		fail "terminal gone ($how): memcgtop did not come up"
		tm2 kill-server 2>/dev/null
		continue
	fi
	if [ $how = kill-server ]; then
		tm2 kill-server
	else
		sp=$(server_pid "$SOCK2")
		kill -KILL "$sp"
	fi
	gone_check "$pid" "terminal gone ($how)"
	# The pane's shell, which runs memcgtop, may take a moment longer
	# than memcgtop to notice: none with its arguments within 3 s.
	for ((i = 0; i < 60; i++)); do
		left=$(pgrep -f -- "/u/$nm/")
		[ -z "$left" ] && break
		sleep 0.05
	done
	if [ -z "$left" ]; then
		pass "terminal gone ($how): no process with its arguments left"
	else
		fail "terminal gone ($how): left: $(ps -o pid=,stat=,args= -p "$(tr '\n' ',' <<<"$left" | sed 's/,$//')")"
		kill -KILL $left 2>/dev/null
	fi
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK2"
done

# (4) a client attached to memcgtop's session is killed: the terminal (the
# server's pane) stays, memcgtop keeps running and drawing.
nm=tgclient
ln -sfn "$top/tests/fixtures" "$tmp/u/$nm"
start_on "$SOCK2" "$nm" 80 24 -d 1 --root "$tmp/u/$nm/v2-live/cg" --proc "$V2/proc"
# the client runs in a window of the first server
tm new-session -d -s client -x 80 -y 24 "exec tmux -L $SOCK2 -f /dev/null attach -t $nm"
pid=$(pid_of "/u/$nm/")
cl=''
for ((i = 0; i < 100; i++)); do
	cl=$(tm2 list-clients -F '#{client_pid}' 2>/dev/null)
	[ -n "$cl" ] && cap client | grep -q ' fixture$' && break
	sleep 0.05
done
if [ -n "$cl" ] && [ -n "$pid" ]; then
	kill -KILL "$cl"
	sleep 1.5
	a=$(cpu_ticks "$pid")
	sleep 1
	b=$(cpu_ticks "$pid")
	if kill -0 "$pid" 2>/dev/null && [ $((b - a)) -le $(( $(getconf CLK_TCK) / 5 )) ]; then
		pass "client killed: memcgtop keeps running on the server's pane, $((b - a)) CPU ticks in 1 s"
	else
		fail "client killed: memcgtop $(kill -0 "$pid" 2>/dev/null && echo "uses $((b - a)) ticks in 1 s" || echo "died")"
	fi
	tm2 send-keys -t "$nm" -l q
	ok=
	for ((i = 0; i < 100; i++)); do
		tm2 capture-pane -p -t "$nm" | grep -q '^EXIT=0$' && { ok=1; break; }
		sleep 0.05
	done
	if [ -n "$ok" ]; then pass "client killed: q then quits with status 0"; else SCREEN=$(tm2 capture-pane -p -t "$nm"); fail "client killed: no EXIT=0 after q"; fi
else
	fail "client killed: could not attach a client ('$cl') or find memcgtop ('$pid')"
fi
tm2 kill-server 2>/dev/null
tm kill-session -t client 2>/dev/null

SCREEN=''
summary
