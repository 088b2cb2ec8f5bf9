#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# record-safety.sh - what memcgtop writes for itself (--record, --output,
# the settings) is never lost nor false.
#
# Usage:  tests/record-safety.sh      (MEMCGTOP: the binary, default ./memcgtop)
#
# Fixture part (any host; the few checks that mount a tmpfs need root):
#  - under a comma-decimal locale (de_DE.UTF-8 built with localedef into a
#    private LOCPATH) the screen's w writes "interval = 0.5", the next
#    start takes it, and a recording made from the screen replays;
#  - SIGTERM and SIGKILL at random moments of a --record start-up (100
#    tries each) always leave a replayable recording that the next
#    --record takes;
#  - a second recorder into the same folder is refused, the first goes on;
#  - a folder that merely looks like a recording (timestamps, a user's
#    info, a user's 0/) is refused and left as it was; a recording without
#    the format line still replays but is not overwritten; a recording
#    whose old slot holds a folder 3000 levels deep is replaced whole;
#  - --output: stale temporary files of a killed run are removed at start
#    (100 kill -9), locked ones and other files are not; an --output folder
#    that cannot be written is refused at once (exit 2);
#  - the screen with --record on a full file system exits 1 on q (root);
#  - --output and --audit-log on a full file system say ENOSPC, --output's
#    old file stays whole (root).
# Live part (root, cgroup v1 memory at /sys/fs/cgroup/memory): the locale
# and start-up checks on a live group, --record inside the cgroup mount
# refused with nothing made, and a recording made while 500 groups are
# created and removed replays byte for byte what the live run printed.
#
# PASS:/FAIL:/SKIP: lines, then "record-safety: N passed, M failed".
set -u
export TZ=UTC
unset TMUX TMUX_PANE
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
CGM=/sys/fs/cgroup/memory
NAME="record-safety"
. "$here/live/lib.sh"
[ -x "$MEMCGTOP" ] || { fail "no memcgtop binary at $MEMCGTOP"; summary; exit 1; }

TMPD=$(mktemp -d "/tmp/memcgtop-recsafe.XXXXXX") || exit 1
. "$top/tests/lib/tmux.sh"
tmux_private recsafe
TNAME=memcgtop-recsafe-$$-$RANDOM
pids=()
mounts=()
cleanup() {
	[ "$BASHPID" = "$$" ] || return 0	# never from a subshell
	trap - EXIT INT TERM HUP
	tmux_stop
	stop_pids "${pids[@]}"
	[ -n "${STOPFILE:-}" ] && touch "$STOPFILE" 2>/dev/null
	for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
	[ -d "$CGM/$TNAME" ] && remove_tree "$CGM/$TNAME"
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

FIXCG=$top/tests/fixtures/v1-live/cg/0
FIXPROC=$top/tests/fixtures/v1-live/proc/0
FIX=(--root "$FIXCG" --proc "$FIXPROC")

# forget PID: a process of pids that has been waited for already.
forget() {
	local p keep=()
	for p in "${pids[@]}"; do
		[ "$p" = "$1" ] || keep+=("$p")
	done
	pids=("${keep[@]}")
}
# screen NAME ENV... -- ARGS...: memcgtop ARGS in a 120x40 tmux window with
# the environment ENV; its exit status goes to $TMPD/NAME.rc.
screen() {
	local name=$1 envs=() cmd
	shift
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	rm -f "$TMPD/$name.rc"
	cmd="$(printf '%q ' env -u LC_ALL -u LC_CTYPE -u LANG "${envs[@]}" "$MEMCGTOP" "$@"); echo \$? >$TMPD/$name.rc"
	tm new-session -d -s "$name" -x 120 -y 40 "bash --norc --noprofile -c $(printf %q "$cmd")"
}
# wait_screen NAME REGEX: up to 10 s for the screen to show REGEX.
wait_screen() {
	local i
	for i in $(seq 200); do
		tm capture-pane -p -t "$1" 2>/dev/null | grep -qE -- "$2" && return 0
		sleep 0.05
	done
	return 1
}
# wait_file FILE [LINES]: up to 10 s for FILE to have LINES lines (1).
wait_file() {
	local i
	for i in $(seq 200); do
		[ -f "$1" ] && [ "$(wc -l <"$1")" -ge "${2:-1}" ] && return 0
		sleep 0.05
	done
	return 1
}
# quit NAME: q, and up to 10 s for the exit status; prints it.
quit() {
	tm send-keys -t "$1" q 2>/dev/null
	wait_file "$TMPD/$1.rc" && cat "$TMPD/$1.rc"
}

# replayable DIR: a recording the next replay takes: timestamps whose
# every line is "MONO WALL SLOT" with a '.' decimal point, each slot there
# in DIR and DIR/proc, and a replay of it that exits 0 and says nothing.
replayable() {
	local d=$1 slot
	[ -f "$d/timestamps" ] && [ -s "$d/timestamps" ] || return 1
	grep -qvE '^[0-9]+(\.[0-9]+)? [0-9]+ [0-9]+$' "$d/timestamps" && return 1
	while read -r _ _ slot; do
		[ -d "$d/$slot" ] && [ -d "$d/proc/$slot" ] || return 1
	done <"$d/timestamps"
	"$MEMCGTOP" -b -F json -n 1 --root "$d" >/dev/null 2>"$TMPD/replay.err" &&
		[ ! -s "$TMPD/replay.err" ]
}

# ---- comma-decimal locale -----------------------------------------------
LOC=$TMPD/loc
mkdir -p "$LOC"
have_locale=0
if command -v localedef >/dev/null && command -v tmux >/dev/null &&
	localedef -i de_DE -f UTF-8 "$LOC/de_DE.UTF-8" >/dev/null 2>&1 &&
	[ "$(LOCPATH=$LOC LC_ALL=de_DE.UTF-8 /usr/bin/printf %g 0.5)" = 0,5 ]; then
	have_locale=1
else
	echo "SKIP: no de_DE.UTF-8 from localedef, or no tmux: locale checks"
fi

# locale_checks LABEL ARGS...: the screen under de_DE.UTF-8 with -d 0.5
# and --record; w in the setup screen; q; then a second start.
locale_checks() {
	local label=$1 rc
	shift
	rm -rf "$TMPD/cfg" "$TMPD/lrec"
	mkdir -p "$TMPD/cfg"
	screen loc LOCPATH="$LOC" LC_ALL=de_DE.UTF-8 XDG_CONFIG_HOME="$TMPD/cfg" -- \
		-d 0.5 --record "$TMPD/lrec" "$@"
	wait_file "$TMPD/lrec/timestamps" 3 || fail "$label: no 3 samples recorded from the screen"
	tm send-keys -t loc S
	wait_screen loc 'w save settings' || fail "$label: no setup screen"
	tm send-keys -t loc w
	wait_screen loc 'settings saved to' || fail "$label: w did not save"
	tm send-keys -t loc Escape
	rc=$(quit loc)
	[ "$rc" = 0 ] && pass "$label: the screen under de_DE.UTF-8 exits 0" ||
		fail "$label: the screen exited '$rc'"
	if grep -Fqx 'interval = 0.5' "$TMPD/cfg/memcgtop/memcgtoprc"; then
		pass "$label: w under de_DE.UTF-8 writes 'interval = 0.5'"
	else
		fail "$label: memcgtoprc: $(grep interval "$TMPD/cfg/memcgtop/memcgtoprc" 2>&1)"
	fi
	if replayable "$TMPD/lrec"; then
		pass "$label: a recording made from the screen under de_DE.UTF-8 replays ($(wc -l <"$TMPD/lrec/timestamps") samples)"
	else
		fail "$label: recording from the screen: $(head -2 "$TMPD/lrec/timestamps" 2>&1 | tr '\n' '|') $(cat "$TMPD/replay.err" 2>/dev/null)"
	fi
	screen loc2 LOCPATH="$LOC" LC_ALL=de_DE.UTF-8 XDG_CONFIG_HOME="$TMPD/cfg" -- "$@"
	wait_screen loc2 'iteration|memcgtop' >/dev/null
	sleep 0.3
	rc=$(quit loc2)
	[ "$rc" = 0 ] && pass "$label: the next start under de_DE.UTF-8 takes the saved settings" ||
		fail "$label: the next start exited '$rc': $(tm capture-pane -p -t loc2 2>/dev/null | grep -m1 .)"
}
if [ "$have_locale" = 1 ]; then
	locale_checks "locale (fixture)" "${FIX[@]}"
	# Batch output under the same locale: a decimal point everywhere.
	out=$(LOCPATH=$LOC LC_ALL=de_DE.UTF-8 "$MEMCGTOP" -b -F json -n 1 -d 0.25 "${FIX[@]}" 2>&1)
	tout=$(LOCPATH=$LOC LC_ALL=de_DE.UTF-8 "$MEMCGTOP" -b -r -n 1 -d 0.25 "${FIX[@]}" 2>&1 | head -1)
	if grep -qE '"interval_s":0\.[0-9]{3},' <<<"$out" &&
		grep -qE '"pgscan_per_s":[0-9]+\.[0-9]{3},"pgsteal_per_s":[0-9]+\.[0-9]{3},"psi_some_avg10":[0-9]+\.[0-9]{2},' <<<"$out" &&
		grep -qE '"pgscan_kswapd_per_s":[0-9]+\.[0-9]{3},"pgscan_direct_per_s":[0-9]+\.[0-9]{3},' <<<"$out" &&
		grep -qE ' interval 0\.[0-9]{3}s ' <<<"$tout"; then
		pass "batch JSON and text under de_DE.UTF-8 write numbers with a decimal point"
	else
		fail "batch under de_DE.UTF-8: $(head -c 200 <<<"$out") / $tout"
	fi
fi

# ---- start-up interrupted -------------------------------------------------
# startup_tries LABEL SIGNAL ARGS...: a recording, then 100 starts of
# --record into it, each sent SIGNAL after 0-60 ms; after each the folder
# holds a replayable recording, and at the end a whole run takes it.
startup_tries() {
	local label=$1 sig=$2 bad=0 first='' i p
	shift 2
	rm -rf "$TMPD/srec"
	"$MEMCGTOP" -b -n 2 -d 0.05 --record "$TMPD/srec" "$@" >/dev/null 2>&1
	for i in $(seq 100); do
		"$MEMCGTOP" -b -F json -n 3 -d 0.05 --record "$TMPD/srec" "$@" >/dev/null 2>"$TMPD/s.err" &
		p=$!
		sleep "0.0$((RANDOM % 60 / 10))$((RANDOM % 10))"
		kill -"$sig" $p 2>/dev/null
		wait $p 2>/dev/null
		if ! replayable "$TMPD/srec" || [ -s "$TMPD/s.err" ]; then
			bad=$((bad + 1))
			[ -z "$first" ] && first="try $i: $(ls "$TMPD/srec" | tr '\n' ' ') $(cat "$TMPD/s.err" "$TMPD/replay.err" 2>/dev/null | head -2)"
		fi
	done
	[ $bad = 0 ] && pass "$label: 100 start-ups of --record cut by SIG$sig: the folder always holds a replayable recording" ||
		fail "$label: SIG$sig: $bad of 100 left no replayable recording; first: $first"
	if "$MEMCGTOP" -b -n 2 -d 0.05 --record "$TMPD/srec" "$@" >/dev/null 2>"$TMPD/s.err" &&
		[ ! -s "$TMPD/s.err" ] && replayable "$TMPD/srec" &&
		[ "$(wc -l <"$TMPD/srec/timestamps")" = 3 ] &&
		[ "$(find "$TMPD/srec" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' | wc -l)" = 3 ] &&
		[ "$(find "$TMPD/srec/proc" -mindepth 1 -maxdepth 1 -type d | wc -l)" = 3 ]; then
		pass "$label: after them a whole --record takes the folder; only its 3 samples are left"
	else
		fail "$label: the folder after the SIG$sig tries: $(cat "$TMPD/s.err") $(ls "$TMPD/srec" | tr '\n' ' ')"
	fi
}
startup_tries "start-up (fixture)" TERM "${FIX[@]}"
startup_tries "start-up (fixture)" KILL "${FIX[@]}"

# ---- two recorders ----------------------------------------------------------
R=$TMPD/two
"$MEMCGTOP" -b -n 1000 -d 0.05 --record "$R" "${FIX[@]}" >/dev/null 2>"$TMPD/a.err" &
a=$!
pids+=("$a")
wait_file "$R/timestamps" 2
"$MEMCGTOP" -b -n 1 -d 0.05 --record "$R" "${FIX[@]}" >/dev/null 2>"$TMPD/b.err"
rc=$?
if [ $rc = 1 ] && [ "$(cat "$TMPD/b.err")" = "memcgtop: --record $R: another memcgtop is recording into this folder" ]; then
	pass "a second --record into the folder of a running one is refused (exit 1, one line)"
else
	fail "second recorder: exit $rc, '$(cat "$TMPD/b.err")'"
fi
n1=$(wc -l <"$R/timestamps")
wait_file "$R/timestamps" $((n1 + 2))
kill -TERM "$a"
wait "$a" 2>/dev/null
forget "$a"
n=$(wc -l <"$R/timestamps")
if replayable "$R" && [ "$n" -gt "$n1" ] && [ ! -s "$TMPD/a.err" ] &&
	[ "$(find "$R" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' | wc -l)" = "$n" ]; then
	pass "the first recorder went on undisturbed ($n samples, replayable)"
else
	fail "first recorder: $n samples (had $n1), $(cat "$TMPD/a.err")"
fi

# ---- what is a recording ----------------------------------------------------
# A folder with timestamps, a user's info and a user's 0/: not a recording.
U=$TMPD/user
mkdir -p "$U/0/keep" "$U/1"
echo "0.5 1 0" >"$U/timestamps"
echo "my notes" >"$U/info"
echo precious >"$U/0/keep/file"
before=$(cd "$U" && find . -printf '%p %s %y\n' | sort | md5sum; cat info 0/keep/file)
"$MEMCGTOP" -b -n 1 -d 0.05 --record "$U" "${FIX[@]}" >/dev/null 2>"$TMPD/u.err"
rc=$?
after=$(cd "$U" && find . -printf '%p %s %y\n' | sort | md5sum; cat info 0/keep/file)
if [ $rc = 1 ] && [ "$(cat "$TMPD/u.err")" = "memcgtop: --record $U: a series memcgtop did not mark as its recording (no format line in info) is not written over (give an empty folder)" ] &&
	[ "$before" = "$after" ]; then
	pass "timestamps beside a user's info and 0/ is not a recording: refused, nothing changed"
else
	fail "user folder: exit $rc '$(cat "$TMPD/u.err")'; $(diff <(echo "$before") <(echo "$after") | tr '\n' ' ')"
fi

# A recording memcgtop made, its format line taken out (as made before
# there was one): still replays, but is not written over.
O=$TMPD/old
"$MEMCGTOP" -b -F json -n 2 -d 0.05 --record "$O" "${FIX[@]}" >"$TMPD/o.live" 2>&1
if [ "$(head -1 "$O/info")" = "format memcgtop-recording 1" ] &&
	[ "$(sed -n '2,4p' "$O/info")" = "mode v1
collector files
root $FIXCG" ]; then
	pass "info begins with the format line, then mode, collector (files: a copy) and root"
else
	fail "info: $(cat "$O/info")"
fi
sed -i 1d "$O/info"
"$MEMCGTOP" -b -F json -n 2 --root "$O" >"$TMPD/o.replay" 2>&1
cmp -s "$TMPD/o.live" "$TMPD/o.replay" && pass "a recording without the format line replays as before" ||
	fail "unmarked recording replay differs: $(head -c 200 "$TMPD/o.replay")"
before=$(cd "$O" && find . -printf '%p %s %T@\n' | sort | md5sum)
"$MEMCGTOP" -b -n 1 -d 0.05 --record "$O" "${FIX[@]}" >/dev/null 2>"$TMPD/o.err"
rc=$?
after=$(cd "$O" && find . -printf '%p %s %T@\n' | sort | md5sum)
[ $rc = 1 ] && [ "$(cat "$TMPD/o.err")" = "memcgtop: --record $O: a series memcgtop did not mark as its recording (no format line in info) is not written over (give an empty folder)" ] &&
	[ "$before" = "$after" ] &&
	pass "--record refuses a recording without the format line, untouched" ||
	fail "--record over an unmarked recording: exit $rc '$(cat "$TMPD/o.err")'"

# A recording whose old slot holds a folder 3000 levels deep (more than
# the descriptors a recursive removal could hold open) is replaced whole.
D=$TMPD/deep
"$MEMCGTOP" -b -n 1 -d 0.05 --record "$D" "${FIX[@]}" >/dev/null 2>&1
python3 - "$D/0" <<'EOF'
import os, sys
os.chdir(sys.argv[1])
for _ in range(3000):
    os.mkdir("d")
    os.chdir("d")
open("leaf", "w").close()
EOF
(ulimit -n 256; "$MEMCGTOP" -b -n 2 -d 0.05 --record "$D" "${FIX[@]}" >/dev/null 2>"$TMPD/d.err")
rc=$?
left=$(find "$D" -name d -prune | wc -l)
if [ $rc = 0 ] && [ ! -s "$TMPD/d.err" ] && [ "$left" = 0 ] && replayable "$D" &&
	[ "$(find "$D" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' | wc -l)" = 3 ]; then
	pass "a recording with a 3000-deep folder in its slot is replaced whole (ulimit -n 256)"
else
	fail "deep slot: exit $rc '$(cat "$TMPD/d.err")', $left deep folders left, $(ls "$D" | tr '\n' ' ')"
fi

# ---- --output ----------------------------------------------------------------
OD=$TMPD/out
mkdir -p "$OD"
touch "$OD/m.prom.memcgtop-tmp.Ab12Cd" "$OD/m.prom.memcgtop-tmp.Zz99Yy" \
	"$OD/m.prom.Qw12Er" "$OD/m.prom.backup" "$OD/n.prom.memcgtop-tmp.Ab12Cd" \
	"$OD/m.prom.memcgtop-tmp.Ab12Cde"
# A run still writing holds its temporary file locked.
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1])
fcntl.flock(f, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)' "$OD/m.prom.memcgtop-tmp.Zz99Yy" >"$TMPD/lock.out" &
locker=$!
pids+=("$locker")
wait_file "$TMPD/lock.out"
"$MEMCGTOP" -b -F prometheus -n 1 -d 0.05 --output "$OD/m.prom" "${FIX[@]}" 2>"$TMPD/out.err"
rc=$?
got=$(cd "$OD" && ls | tr '\n' ' ')
want="m.prom m.prom.Qw12Er m.prom.backup m.prom.memcgtop-tmp.Ab12Cde m.prom.memcgtop-tmp.Zz99Yy n.prom.memcgtop-tmp.Ab12Cd "
[ $rc = 0 ] && [ "$got" = "$want" ] &&
	pass "--output removes a killed run's temporary file; a locked one and other files stay" ||
	fail "--output stale files: exit $rc, left '$got' want '$want' $(cat "$TMPD/out.err")"
stop_pids "$locker"
forget "$locker"
rm -f "$OD"/*
# kill -9 at random moments; the next start leaves only the output.
for i in $(seq 100); do
	"$MEMCGTOP" -b -F prometheus -n 1000 -d 0.05 --output "$OD/m.prom" "${FIX[@]}" 2>/dev/null &
	p=$!
	sleep "0.$((RANDOM % 3))$((RANDOM % 10))"
	kill -KILL $p
	wait $p 2>/dev/null
done
stale=$(cd "$OD" && ls | grep -vxc m.prom)
"$MEMCGTOP" -b -F prometheus -n 1 -d 0.05 --output "$OD/m.prom" "${FIX[@]}" 2>"$TMPD/out.err"
rc=$?
[ $rc = 0 ] && [ "$(cd "$OD" && ls)" = m.prom ] &&
	pass "--output after 100 kill -9 ($stale temporary files left by them): the next start leaves only the output" ||
	fail "--output after kill -9: exit $rc, $(cd "$OD" && ls | tr '\n' ' ')"

"$MEMCGTOP" -b -F prometheus -n 1 -d 3 --output "$TMPD/nodir/m.prom" "${FIX[@]}" >/dev/null 2>"$TMPD/out.err"
rc=$?
[ $rc = 2 ] && [ "$(cat "$TMPD/out.err")" = "memcgtop: --output $TMPD/nodir/m.prom: No such file or directory" ] &&
	pass "--output into a missing folder: exit 2 at start, one line" ||
	fail "--output missing folder: exit $rc '$(cat "$TMPD/out.err")'"

# ---- needs root: a read-only and a full file system ------------------------
if [ "$(id -u)" = 0 ] && mkdir -p "$TMPD/ro" "$TMPD/full" &&
	mount -t tmpfs -o ro,size=1m tmpfs "$TMPD/ro" && mounts+=("$TMPD/ro") &&
	mount -t tmpfs -o size=256k tmpfs "$TMPD/full" && mounts+=("$TMPD/full"); then
	"$MEMCGTOP" -b -F prometheus -n 1 -d 3 --output "$TMPD/ro/m.prom" "${FIX[@]}" >/dev/null 2>"$TMPD/out.err"
	rc=$?
	[ $rc = 2 ] && [ "$(cat "$TMPD/out.err")" = "memcgtop: --output $TMPD/ro/m.prom: Read-only file system" ] &&
		pass "--output into a read-only folder: exit 2 at start, one line" ||
		fail "--output read-only folder: exit $rc '$(cat "$TMPD/out.err")'"
	if command -v tmux >/dev/null; then
		screen full -- -d 0.1 --record "$TMPD/full/rec" "${FIX[@]}"
		if wait_screen full 'No space left on device'; then
			rc=$(quit full)
			[ "$rc" = 1 ] && pass "the screen with --record on a full file system exits 1 on q" ||
				fail "the screen on ENOSPC exited '$rc'"
		else
			fail "the screen never showed ENOSPC: $(tm capture-pane -p -t full | tail -2)"
		fi
	fi
else
	echo "SKIP: not root or no tmpfs: read-only --output and full --record checks"
fi
# A full disk is named as such: --output says ENOSPC (not EIO, whichever of
# the iteration's flushes met it) and keeps its old file whole; an audit
# line that only partly fits is reported with ENOSPC too, not as a short
# write.  (EDQUOT: this kernel has no quota for tmpfs nor ext4's quota
# format, so a quota cannot be filled here.)
FD=$TMPD/fullout
if [ "$(id -u)" = 0 ] && mkdir -p "$FD" && mount -t tmpfs -o size=64k tmpfs "$FD" && mounts+=("$FD"); then
	"$MEMCGTOP" -b -F json -n 1 -d 0.05 --output "$FD/m.json" "${FIX[@]}" 2>"$TMPD/out.err"
	cp "$FD/m.json" "$TMPD/m.json.old"
	head -c 1M /dev/zero >"$FD/fill" 2>/dev/null
	"$MEMCGTOP" -b -F json -n 1 -d 0.05 --output "$FD/m.json" -c path,usage,pgfault_per_s "${FIX[@]}" 2>"$TMPD/out.err"
	rc=$?
	want="memcgtop: --output $FD/m.json: No space left on device"
	if [ $rc = 1 ] && [ "$(cat "$TMPD/out.err")" = "$want" ] && cmp -s "$FD/m.json" "$TMPD/m.json.old" &&
		[ "$(cd "$FD" && ls | tr '\n' ' ')" = "fill m.json " ]; then
		pass "--output on a full file system: exit 1, '$want', the old file whole, no temporary file left"
	else
		fail "--output full: exit $rc, stderr '$(cat "$TMPD/out.err")' (want '$want'), old file $(cmp -s "$FD/m.json" "$TMPD/m.json.old" && echo whole || echo CHANGED), files: $(cd "$FD" && ls | tr '\n' ' ')"
	fi
	rm -f "$FD/fill" "$FD/m.json"
	# The audit log's last page with room for 40 bytes of the line, then
	# the disk full: the line's first write is short.
	AW=$TMPD/aw
	cp -r "$FIXCG" "$AW"
	head -c $((4096 - 40)) /dev/zero | tr '\0' x >"$FD/audit.log"
	head -c 1M /dev/zero >"$FD/fill" 2>/dev/null
	s0=$(cat "$AW/fixture/memory.swappiness")
	"$MEMCGTOP" --root "$AW" --audit-log "$FD/audit.log" --set /fixture:swappiness=33 >"$TMPD/aud.out" 2>"$TMPD/aud.err" </dev/null
	rc=$?
	want="/fixture: swappiness (memory.swappiness): $s0 -> 33: done, the kernel holds 33 (not recorded in the audit log: No space left on device)"
	if [ $rc = 1 ] && [ "$(cat "$TMPD/aud.out")" = "$want" ] && [ ! -s "$TMPD/aud.err" ]; then
		pass "--audit-log on a full file system: exit 1, the line says: (not recorded in the audit log: No space left on device)"
	else
		fail "--audit-log full: exit $rc, stdout '$(cat "$TMPD/aud.out")' (want '$want'), stderr '$(cat "$TMPD/aud.err")'"
	fi
	umount "$FD" && mounts=("${mounts[@]/$FD}")
else
	echo "SKIP: not root or no tmpfs: --output and --audit-log on a full file system"
fi

# ---- live cgroup v1 ------------------------------------------------------------
live=0
if [ "$(id -u)" = 0 ] && [ -w "$CGM/memory.limit_in_bytes" ] && command -v python3 >/dev/null; then
	live=1
else
	echo "SKIP: not root or no writable v1 memory mount at $CGM: live checks"
fi
if [ $live = 1 ]; then
	mkdir -p "$CGM/$TNAME/a/b" "$CGM/$TNAME/static"
	[ "$have_locale" = 1 ] && locale_checks "locale (live v1)" "/$TNAME"
	startup_tries "start-up (live v1)" TERM "/$TNAME"

	# --record inside the cgroup mount: refused before anything is made.
	"$MEMCGTOP" -b -n 1 -d 0.05 --record "$CGM/$TNAME/rec" "/$TNAME" >/dev/null 2>"$TMPD/c.err"
	rc=$?
	[ $rc = 1 ] && [ "$(cat "$TMPD/c.err")" = "memcgtop: --record $CGM/$TNAME/rec: inside a cgroup file system (a folder made there is a cgroup)" ] &&
		[ ! -e "$CGM/$TNAME/rec" ] &&
		pass "--record inside the cgroup mount is refused, no group made" ||
		fail "--record in the cgroup mount: exit $rc '$(cat "$TMPD/c.err")', rec $(ls -d "$CGM/$TNAME/rec" 2>&1)"
	before=$(ls -A "$CGM/$TNAME/a")
	"$MEMCGTOP" -b -n 1 -d 0.05 --record "$CGM/$TNAME/a" "/$TNAME" >/dev/null 2>"$TMPD/c.err"
	rc=$?
	[ $rc = 1 ] && [ "$before" = "$(ls -A "$CGM/$TNAME/a")" ] &&
		pass "--record into a group's own folder is refused, nothing made in it" ||
		fail "--record into a group: exit $rc '$(cat "$TMPD/c.err")'"

	# Churn: 500 groups made and removed while recording; the replay is
	# the live output, byte for byte.
	STOPFILE=$TMPD/stop
	sleep 600 &
	mover=$!
	pids+=("$mover")
	python3 "$here/live/churn_load.py" "$CGM/$TNAME" 500 6 "$mover" "$CGM/$TNAME/static" "$STOPFILE" >"$TMPD/churn.out" 2>&1 &
	churn=$!
	pids+=("$churn")
	"$MEMCGTOP" -b -F json -n 50 -d 0.1 --record "$TMPD/crec" "/$TNAME" >"$TMPD/c.live" 2>"$TMPD/c.err"
	rc=$?
	touch "$STOPFILE"
	wait "$churn"
	forget "$churn"
	"$MEMCGTOP" -b -F json -n 50 --root "$TMPD/crec" "/$TNAME" >"$TMPD/c.replay" 2>>"$TMPD/c.err"
	rows=$(grep -o '"path":"[^"]*"' "$TMPD/c.live" | sort -u | wc -l)
	if [ $rc = 0 ] && [ ! -s "$TMPD/c.err" ] && [ "$(wc -l <"$TMPD/c.live")" = 50 ] &&
		cmp -s "$TMPD/c.live" "$TMPD/c.replay" && [ "$rows" -gt 20 ]; then
		pass "recorded during churn ($(cat "$TMPD/churn.out"); $rows paths): the replay is the live JSON, byte for byte"
	else
		fail "churn replay: exit $rc '$(head -c 200 "$TMPD/c.err")', $(wc -l <"$TMPD/c.live") lines, $rows paths, $(diff <(tr '}' '\n' <"$TMPD/c.live") <(tr '}' '\n' <"$TMPD/c.replay") | grep -c '^[<>]') differing rows"
	fi
	remove_tree "$CGM/$TNAME"
	[ -e "$CGM/$TNAME" ] && fail "cleanup: $CGM/$TNAME still there" || pass "cleanup: the test tree is gone"
fi
summary
