#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# oom.sh - OOM kills on the screen, live v1: the OOM pane (o) lists a real
# kill, and the group's name keeps its OOM mark across refreshes until the
# kill is seen (o, or O, which clears the marks).
#
# Usage (as root):  tests/tui/oom.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# Builds /sys/fs/cgroup/memory/memcgtop-tuioom-$$-$RANDOM with victim,
# victim2 and victim3 (memory and memory+swap limits 32M) and bystander,
# and runs "memcgtop -d 0.5 /TREE" at 120x30 in a private tmux server:
#   bpf (the default collector): python3 in victim allocates 60 MiB and is
#     killed; victim's name is drawn with the oom colours (red background)
#     and still is 3 s (six refreshes) later, bystander's is not; o opens
#     the pane: "OOM kills seen: 1", a row with the time, python3's pid,
#     "python3", its size, the limit 32.0M and /TREE/victim, and the source
#     line of the tracepoint; the mark is gone once the pane is open; o
#     closes it.  A second kill in victim3: marked, and O clears the mark
#     without the pane, saying "OOM kill marks cleared".
#   MEMCGTOP_BPF_FAIL=perm (the files collector): a kill in victim2: its
#     name is marked 3 s later; the pane's row has pid "-", command "?",
#     size "-", limit 32.0M, and the line "PID -: process unknown: the
#     collector is not bpf; ...".
# Each check prints "PASS: ..." or "FAIL: ..." (with the screen); the last
# line is "tui-oom: N passed, M failed".  Without root, a writable v1 memory
# mount, python3 or tmux: "SKIP: tui oom: REASON", exit 77 (CI=true: FAIL).
# The tmux server, the groups and the temporary folder are removed on exit;
# only the pids the test started are killed.
W=120 H=30
NAME="tui oom"
TNAME=memcgtop-tuioom-$$-$RANDOM
TOOLS=python3
. "$(dirname "$0")/live.sh"
for g in victim victim2 victim3; do
	mkdir -p "$TROOT/$g" || abort "mkdir $TROOT/$g"
	echo 32M >"$TROOT/$g/memory.limit_in_bytes" || abort "$g's limit"
	echo 32M >"$TROOT/$g/memory.memsw.limit_in_bytes" || abort "$g's memory+swap limit"
done
mkdir -p "$TROOT/bystander" || abort "mkdir $TROOT/bystander"

# marked NAME: the row of NAME draws it on a red background (SGR 41, the
# oom element of the default theme) right before the name.
marked() {
	cap_e s | grep -aqE $'\e\\[41m'"$1"$'(\e\\[[0-9;]*m)*$'
}
# mark DESC NAME yes|no
mark() {
	local got=no
	marked "$2" && got=yes
	SCREEN=$(cap s)
	if [ "$got" = "$3" ]; then
		pass "$1"
	else
		fail "$1: $2 marked: $got, want $3"
	fi
}
# run ENV: memcgtop -d 0.5 /TREE with ENV (VAR=VALUE or nothing)
run() {
	start "$W" "$H" "$1" -- -d 0.5 "/$TNAME"
	screen_wait s "/$TNAME" || abort "memcgtop did not start"
	sleep 1	# a refresh or two before the kill
}
# kill_in GROUP: python3 in GROUP allocates 60 MiB and is killed; sets vp.
kill_in() {
	sh -c 'echo $$ >"$1/cgroup.procs" && exec python3 -c "b = bytearray(60 << 20)"' \
		sh "$TROOT/$1" 2>/dev/null &
	vp=$!
	pids+=("$vp")
	wait "$vp" 2>/dev/null
	[ $? = 137 ] || abort "python3 in $1 was not killed"
}

run ""
kill_in victim
sleep 1
mark "bpf: victim's name is marked after the kill" victim yes
mark "bpf: bystander's is not" bystander no
sleep 3
mark "bpf: victim's mark lasts 3 s (six refreshes) later" victim yes
tm send-keys -t s o
has "bpf: o opens the OOM pane with one kill" '^OOM kills seen: 1  \(newest first; J/K scroll, o closes\)$'
has "bpf: its column titles" '^TIME +PID COMMAND +SIZE +LIMIT GROUP$'
has "bpf: the kill: time, python3's pid, python3, its size, the limit, the group" \
	"^[0-2][0-9]:[0-5][0-9]:[0-5][0-9] +$vp python3 +[0-9.]+M +32\\.0M /$TNAME/victim\$"
has "bpf: the source is the tracepoint" "^Source: the kernel's oom:mark_victim tracepoint \\(BPF\\)"
mark "bpf: the pane open, the mark is gone (seen)" victim no
tm send-keys -t s o
screen_wait s '^OOM kills seen' && fail "bpf: o does not close the pane" || pass "bpf: o closes the pane"
sleep 1
mark "bpf: closed, the mark stays gone" victim no
kill_in victim3
sleep 1
mark "bpf: a second kill marks victim3" victim3 yes
tm send-keys -t s O
has "bpf: O says the marks are cleared" 'OOM kill marks cleared'
sleep 0.6
mark "bpf: O cleared victim3's mark" victim3 no
tm send-keys -t s o
has "bpf: the pane has both kills, newest first" "^OOM kills seen: 2 "
SCREEN=$(cap s)
if grep -A1 '^TIME' <<<"$SCREEN" | tail -1 | grep -q "/$TNAME/victim3\$"; then
	pass "bpf: victim3's kill first"
else
	fail "bpf: victim3's kill is not the first row"
fi
quit bpf

run MEMCGTOP_BPF_FAIL=perm
kill_in victim2
sleep 1
mark "files: victim2's name is marked after the kill" victim2 yes
sleep 3
mark "files: victim2's mark lasts 3 s later" victim2 yes
tm send-keys -t s o
has "files: the pane has the kill, without the process" \
	"^[0-2][0-9]:[0-5][0-9]:[0-5][0-9] +- \\? +- +32\\.0M /$TNAME/victim2\$"
has "files: it says the process is unknown, and why" \
	'^PID -: process unknown: the collector is not bpf; the group.s OOM kill counter rose'
quit files

cleanup
summary
