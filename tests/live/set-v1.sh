#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# set-v1.sh - live test of memcgtop --set against this host's cgroup v1
# memory controller: the one output line, what the kernel then holds, the
# kernel's refusals, usage errors, the audit log file and syslog.
#
# Usage (as root):  tests/live/set-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# Builds a uniquely named tree /sys/fs/cgroup/memory/memcgtop-set-$$-$RANDOM
# with two groups: load (memload anon 64: 64 MiB of anonymous memory that
# cannot be reclaimed without swap) and idle (empty).  Every expected output
# line is computed from the man page's format and the kernel's files read
# before and after the run:
#
#   PATH: KNOB (FILE): OLD -> NEW: done, the kernel holds NOW (HUMAN)
#   PATH: KNOB (FILE): OLD -> NEW: refused: STRERROR: EXPLANATION
#
# OLD and NOW are "max" when the file holds the kernel's unlimited value
# (the one the hierarchy root holds), NEW is what is written (-1 for max);
# HUMAN is NOW in powers of 1024 (left out below 1024 and for max).
#
# Checks: limit=100M; a limit that is not a page multiple (the kernel rounds
# down to pages); a limit below what the group can reclaim to (EBUSY, old
# limit kept); memsw below the memory limit and the limit above memsw
# (EINVAL); swappiness 30 (done) and 201 (usage error, nothing written);
# soft=+10M relative to a set soft limit; memsw=max and limit=max (-1 written,
# max read back); several --set in one run with one refused by the kernel
# (the others applied, exit 1); the --audit-log file (mode 0600, one line
# per attempted write in the AUDIT format); syslog (authpriv.notice, ident
# memcgtop, the same lines); --set as nobody (exit 1, nothing written);
# --readonly --set (exit 2); one group however spelt (/g and /g// are
# one key; memsw and limit of //g/ and /g in the kernel's order); 40
# parallel limit=+1M runs end exactly 40M higher, with one audit line per old
# value; a run waits while flock(1) holds the group's directory; with
# MEMCGTOP_SYSLOG_SOCKET on no listener and no --audit-log, the one stderr
# notice; a listening one gets the line; a fixture's change goes to no
# syslog and its audit line ends with fixture=yes.
#
# Syslog: when /dev/log does not exist (no syslog daemon), a small python3
# listener is bound there for the test and removed afterwards; when it
# exists, memcgtop runs in a private mount namespace with the listener's
# socket bind-mounted over /dev/log, so the host's logger is not touched.
#
# Each check prints "PASS: ..." or "FAIL: ...", the last line is
# "set-v1: N passed, M failed"; exit 1 on any failure.  A host without root,
# a writable v1 memory mount, python3, gcc or setpriv prints
# "SKIP: set v1: REASON" and exits 77 (with CI=true: FAIL and exit 1).
# Everything the test creates (groups, processes, /dev/log if it made it,
# the temporary directory) is removed on exit, also on failure or
# interrupt; only the pids the test started are killed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
CGM=/sys/fs/cgroup/memory
t_start=$(date +%s.%N)

NAME="set v1"
. "$here/lib.sh"
v1_host_ready
for tool in python3 gcc setpriv unshare; do
	command -v "$tool" >/dev/null 2>&1 || cannot_run "$tool not installed"
done
id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null 2>&1 ||
	cannot_run "no user nobody / group nogroup"

# ---- state and cleanup ------------------------------------------------------
TNAME=memcgtop-set-$$-$RANDOM
TROOT=$CGM/$TNAME
TMPD=
pids=()
devlog_ino=    # inode of /dev/log when this test made it

cleanup() {
	stop_pids "${pids[@]}"
	# /dev/log only if it is still the socket this test bound there
	if [ -n "$devlog_ino" ] && [ -S /dev/log ] && [ ! -L /dev/log ] &&
		[ "$(stat -c %i /dev/log 2>/dev/null)" = "$devlog_ino" ]; then
		rm -f /dev/log
	fi
	clean_up "$TROOT"
}
trap_cleanup

abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

TMPD=$(mktemp -d /tmp/memcgtop-set.XXXXXX) || abort "mktemp failed"
chmod 755 "$TMPD"

[ -x "$MEMCGTOP" ] || abort "memcgtop binary $MEMCGTOP not found (run make)"
MEMCGTOP=$(cd "$(dirname "$MEMCGTOP")" && pwd)/$(basename "$MEMCGTOP")
# Each change's one result line, as checked here: --follow 0 leaves out
# the preview and the follow-up (tests/live/preview-v1.sh checks those).
printf '#!/bin/sh\nexec "%s" --follow 0 "$@"\n' "$MEMCGTOP" >"$TMPD/mc" &&
	chmod 755 "$TMPD/mc" || abort "cannot write $TMPD/mc"
MEMCGTOP=$TMPD/mc

gcc -O2 -static -o "$TMPD/memload" "$top/tests/load/memload.c" ||
	abort "cannot build memload"

PAGE=$(getconf PAGESIZE)
# the kernel's "unlimited" as its files spell it (the root has no limit)
UNL=$(cat "$CGM/memory.limit_in_bytes")
HAS_MEMSW=0
[ -f "$CGM/memory.memsw.limit_in_bytes" ] && HAS_MEMSW=1

# ---- syslog listener --------------------------------------------------------
cat >"$TMPD/listen.py" <<'PYEOF'
# Receives syslog datagrams on a unix socket; one JSON string per line.
import json, os, signal, socket, sys
path, outp, readyp = sys.argv[1:4]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
os.chmod(path, 0o666)
signal.signal(signal.SIGTERM, lambda *a: os._exit(0))
with open(outp, "a") as f:
    open(readyp, "w").close()
    while True:
        d = s.recv(1 << 16)
        f.write(json.dumps(d.decode("utf-8", "backslashreplace")) + "\n")
        f.flush()
PYEOF
SYSLOG=$TMPD/syslog.jsonl
wrap=()          # what memcgtop runs under (a private mount namespace or nothing)
syslog_mode=
if [ ! -e /dev/log ] && [ ! -L /dev/log ]; then
	sock=/dev/log
	syslog_mode="listener bound to /dev/log (none existed)"
else
	sock=$TMPD/log.sock
	syslog_mode="/dev/log exists: memcgtop runs in a private mount namespace with $sock bind-mounted over /dev/log"
	wrap=(unshare -m --propagation private sh -c
	      'mount --bind "$0" /dev/log && exec "$@"' "$sock")
fi
python3 "$TMPD/listen.py" "$sock" "$SYSLOG" "$TMPD/listen.ready" \
	2>"$TMPD/listen.err" &
pids+=($!)
for i in $(seq 100); do
	[ -e "$TMPD/listen.ready" ] && break
	kill -0 "${pids[-1]}" 2>/dev/null || break
	sleep 0.05
done
[ -e "$TMPD/listen.ready" ] ||
	abort "syslog listener on $sock did not start: $(cat "$TMPD/listen.err")"
[ "$sock" = /dev/log ] && devlog_ino=$(stat -c %i /dev/log)

# ---- the tree and the load --------------------------------------------------
mkdir "$TROOT" "$TROOT/load" "$TROOT/idle" || abort "mkdir in $TROOT"
LOAD=/$TNAME/load
IDLE=/$TNAME/idle
start_load "$TROOT/load" "$TMPD/memload"
pass "setup: $TNAME/{load,idle}, anon 64M resident in load (rss $rss), syslog: $syslog_mode"

# ---- helpers -----------------------------------------------------------------
AUD=$TMPD/audit.log
audit_exp=()     # the audit lines expected so far, in order

# kval GROUP FILE: the file's value as memcgtop shows it ("max" for unlimited)
kval() {
	local v
	v=$(cat "$CGM$1/$2") || return 1
	[ "$v" = "$UNL" ] && v=max
	printf '%s' "$v"
}

# mc NAME ARGS...: runs memcgtop ARGS; sets rc, out, err.
mc() {
	local name=$1
	shift
	"${wrap[@]}" "$MEMCGTOP" "$@" >"$TMPD/$name.out" 2>"$TMPD/$name.err" </dev/null
	rc=$?
	out=$(cat "$TMPD/$name.out")
	err=$(cat "$TMPD/$name.err")
}

# A planned write: GROUP KNOB NEW [ERRNO-TEXT EXPLANATION].  expect_write
# records the old value now; finish_write computes the expected line from
# the value the kernel holds after the run and appends the audit line.
w_group=() w_knob=() w_new=() w_old=() w_err=() w_why=()
expect_write() {
	local f
	f=$(file_of "$2")
	w_group+=("$1"); w_knob+=("$2"); w_new+=("$3")
	w_old+=("$(kval "$1" "$f")")
	w_err+=("${4:-}"); w_why+=("${5:-}")
}
# check_run WHAT RC: compares the run's stdout with the expected lines, rc,
# stderr, and each file's value afterwards (refused: unchanged).
check_run() {
	local what=$1 want_rc=$2 i f now exp="" line old new st
	for i in "${!w_group[@]}"; do
		f=$(file_of "${w_knob[$i]}")
		old=${w_old[$i]}
		new=${w_new[$i]}
		now=$(kval "${w_group[$i]}" "$f")
		if [ -z "${w_err[$i]}" ]; then
			line="${w_group[$i]}: ${w_knob[$i]} ($f): $old -> $new: done, the kernel holds $now$(human "$now")"
			st=ok
		else
			line="${w_group[$i]}: ${w_knob[$i]} ($f): $old -> $new: refused: ${w_err[$i]}: ${w_why[$i]}"
			case ${w_err[$i]} in
			"Device or resource busy") st=EBUSY ;;
			"Invalid argument") st=EINVAL ;;
			"Permission denied") st=EACCES ;;
			*) st=${w_err[$i]} ;;
			esac
			if [ "$now" = "$old" ]; then
				pass "$what: refused ${w_knob[$i]}=$new: ${w_group[$i]}/$f still holds $old"
			else
				fail "$what: refused ${w_knob[$i]}=$new: ${w_group[$i]}/$f changed from $old to $now"
			fi
		fi
		exp+=$line$'\n'
		audit_exp+=("uid=0 group=${w_group[$i]} file=$f old=$old new=$new result=$st now=$now")
	done
	exp=${exp%$'\n'}
	if [ "$rc" = "$want_rc" ]; then
		pass "$what: exit $rc"
	else
		fail "$what: exit $rc, expected $want_rc (stderr: ${err:0:300})"
	fi
	if [ "$out" = "$exp" ]; then
		pass "$what: output is exactly: $(printf '%s' "$out" | sed '2,$s/^/    | /')"
	else
		fail "$what: output differs"$'\n'"  expected: $exp"$'\n'"  got:      $out"
	fi
	[ -z "$err" ] && pass "$what: stderr empty" || fail "$what: stderr: ${err:0:300}"
	w_group=() w_knob=() w_new=() w_old=() w_err=() w_why=()
}

EBUSY_WHY="the kernel could not reclaim the group down to the new limit and kept the old one"
EINVAL_WHY="the kernel refused the value: the memory+swap limit must be at least the memory limit"

# ---- 1. limit=100M --------------------------------------------------------------
expect_write "$LOAD" limit 104857600
mc limit100m --set "$LOAD:limit=100M" --audit-log "$AUD"
check_run "limit=100M" 0
v=$(cat "$TROOT/load/memory.limit_in_bytes")
[ "$v" = 104857600 ] && pass "limit=100M: memory.limit_in_bytes holds 104857600" ||
	fail "limit=100M: memory.limit_in_bytes holds $v, expected 104857600"
m=$(stat -c %a "$AUD" 2>/dev/null)
[ "$m" = 600 ] && pass "--audit-log: $AUD created with mode 0600" ||
	fail "--audit-log: $AUD mode ${m:-missing}, expected 600"

# ---- 2. a limit that is not a page multiple ---------------------------------
expect_write "$LOAD" limit 100000001
mc limitodd --set "$LOAD:limit=100000001" --audit-log "$AUD"
check_run "limit=100000001" 0
v=$(cat "$TROOT/load/memory.limit_in_bytes")
want=$((100000001 / PAGE * PAGE))
[ "$v" = "$want" ] && pass "limit=100000001: the kernel rounded down to the page size ($PAGE): $v" ||
	fail "limit=100000001: memory.limit_in_bytes holds $v, expected $want (rounded down to $PAGE)"

# ---- 3. a limit below what the group can reclaim to: EBUSY --------------------
u=$(cat "$TROOT/load/memory.usage_in_bytes")
expect_write "$LOAD" limit 16777216 "Device or resource busy" "$EBUSY_WHY"
mc ebusy --set "$LOAD:limit=16M" --audit-log "$AUD"
check_run "limit=16M below the 64M anon of load (usage $u, no swap)" 1
kill -0 "$loadpid" 2>/dev/null && pass "limit=16M: the load still runs (v1 refuses, no OOM kill)" ||
	fail "limit=16M: the load died"

# ---- 4. memsw against the memory limit: EINVAL ----------------------------------
if [ "$HAS_MEMSW" = 1 ]; then
	expect_write "$LOAD" memsw 52428800 "Invalid argument" "$EINVAL_WHY"
	mc memswlow --set "$LOAD:memsw=50M" --audit-log "$AUD"
	check_run "memsw=50M below the memory limit" 1
	expect_write "$LOAD" memsw 209715200
	mc memsw200 --set "$LOAD:memsw=200M" --audit-log "$AUD"
	check_run "memsw=200M" 0
	expect_write "$LOAD" limit 314572800 "Invalid argument" "$EINVAL_WHY"
	mc limithigh --set "$LOAD:limit=300M" --audit-log "$AUD"
	check_run "limit=300M above memsw 200M" 1
else
	echo "SKIP: memsw: no memory.memsw.limit_in_bytes (swap accounting off)"
fi

# ---- 5. swappiness ------------------------------------------------------------------
expect_write "$LOAD" swappiness 30
mc swp30 --set "$LOAD:swappiness=30" --audit-log "$AUD"
check_run "swappiness=30" 0
# usage errors: nothing written, not even the valid change given before it
lim_before=$(cat "$TROOT/load/memory.limit_in_bytes")
nlines=$(cat "$AUD" 2>/dev/null | wc -l)
mc swp201 --set "$LOAD:limit=50M" --set "$LOAD:swappiness=201" --audit-log "$AUD"
experr="memcgtop: --set '$LOAD:swappiness=201': swappiness: '201' is not a value for memory.swappiness; it takes a whole number from 0 to 200"
[ "$rc" = 2 ] && pass "swappiness=201: exit 2" || fail "swappiness=201: exit $rc, expected 2"
[ "$err" = "$experr" ] && pass "swappiness=201: stderr is exactly: $err" ||
	fail "swappiness=201: stderr"$'\n'"  expected: $experr"$'\n'"  got:      $err"
[ -z "$out" ] && pass "swappiness=201: stdout empty" || fail "swappiness=201: stdout: $out"
s=$(cat "$TROOT/load/memory.swappiness")
l=$(cat "$TROOT/load/memory.limit_in_bytes")
n2=$(cat "$AUD" 2>/dev/null | wc -l)
if [ "$s" = 30 ] && [ "$l" = "$lim_before" ] && [ "$n2" = "$nlines" ]; then
	pass "swappiness=201: nothing written (swappiness 30, limit $l, including the valid limit=50M before it; no audit line)"
else
	fail "swappiness=201: something written: swappiness $s (was 30), limit $l (was $lim_before), audit lines $n2 (were $nlines)"
fi

# ---- 5b. sizes that are no whole number of bytes, a malformed change ---------------
# refused NAME RC STDERR GROUP FILE ARGS...: memcgtop ARGS exits RC with
# exactly STDERR, prints nothing, and GROUP's FILE and the audit log stay.
refused() {
	local name=$1 want_rc=$2 experr=$3 g=$4 f=$5 before n0 n1 now
	shift 5
	before=$(cat "$CGM$g/$f")
	n0=$(cat "$AUD" 2>/dev/null | wc -l)
	mc "$name" "$@"
	now=$(cat "$CGM$g/$f")
	n1=$(cat "$AUD" 2>/dev/null | wc -l)
	if [ "$rc" = "$want_rc" ] && [ "$err" = "$experr" ] && [ -z "$out" ] &&
		[ "$now" = "$before" ] && [ "$n1" = "$n0" ]; then
		pass "$name: exit $rc, nothing written ($g/$f still $now, no audit line), stderr is exactly: $err"
	else
		fail "$name: exit $rc (want $want_rc), $g/$f $now (was $before), audit lines $n1 (were $n0), stdout '$out', stderr"$'\n'"  expected: $experr"$'\n'"  got:      $err"
	fi
}
for spec in "$IDLE:soft=0.1" "$IDLE:limit=0.0000001K" "$IDLE:limit=1.5" "$IDLE:soft=1.0000001K" "$IDLE:limit=+0.5"; do
	k=${spec##*:} k=${k%%=*} v=${spec#*=}
	refused "$k=$v" 2 "memcgtop: --set '$spec': $k: '$v' is not a whole number of bytes" \
		"$IDLE" "$(file_of "$k")" --set "$spec" --audit-log "$AUD"
done
# whole numbers of bytes with decimals still work (the kernel keeps pages)
expect_write "$IDLE" soft 524288
mc softhalf --set "$IDLE:soft=0.5M" --audit-log "$AUD"
check_run "soft=0.5M" 0
expect_write "$IDLE" soft 1536
mc soft15k --set "$IDLE:soft=1.5K" --audit-log "$AUD"
check_run "soft=1.5K" 0
echo -1 >"$TROOT/idle/memory.soft_limit_in_bytes"
# -1x is no value, whatever the current value (max here): said as such
[ "$(kval "$LOAD" memory.soft_limit_in_bytes)" = max ] || abort "soft of $LOAD is not max"
refused "soft=-1x on max" 2 "memcgtop: --set '$LOAD:soft=-1x': soft: '-1x' is not a value for memory.soft_limit_in_bytes; it takes a size (bytes, or a number with K, M, G or T, e.g. 512M or 1.5G), max (also unlimited or -1), or a change +SIZE, -SIZE, +N%, -N%" \
	"$LOAD" memory.soft_limit_in_bytes --set "$LOAD:soft=-1x" --audit-log "$AUD"
# An audit log that is a FIFO: refused at once, not waited on (timeout 10
# would end a run that hangs), before any change
mkfifo "$TMPD/audit.fifo" || abort "mkfifo"
s0=$(cat "$TROOT/idle/memory.swappiness")
timeout 10 "$MEMCGTOP" --set "$IDLE:swappiness=33" --audit-log "$TMPD/audit.fifo" \
	>"$TMPD/fifo.out" 2>"$TMPD/fifo.err" </dev/null
rc=$?
experr="memcgtop: --audit-log $TMPD/audit.fifo: not a regular file"
s1=$(cat "$TROOT/idle/memory.swappiness")
if [ "$rc" = 1 ] && [ "$(cat "$TMPD/fifo.err")" = "$experr" ] && [ ! -s "$TMPD/fifo.out" ] && [ "$s1" = "$s0" ]; then
	pass "--audit-log FIFO: exit 1 at once, swappiness still $s1, stderr is exactly: $experr"
else
	fail "--audit-log FIFO: exit $rc (want 1; 124: it hung), swappiness $s1 (was $s0), stdout '$(cat "$TMPD/fifo.out")', stderr '$(cat "$TMPD/fifo.err")' (want '$experr')"
fi

# ---- 6. soft: absolute, then relative ------------------------------------------------
expect_write "$LOAD" soft 20971520
mc soft20 --set "$LOAD:soft=20M" --audit-log "$AUD"
check_run "soft=20M" 0
expect_write "$LOAD" soft 31457280
mc softplus --set "$LOAD:soft=+10M" --audit-log "$AUD"
check_run "soft=+10M relative to 20M" 0

# ---- 7. max: -1 written, max read back ------------------------------------------------
if [ "$HAS_MEMSW" = 1 ]; then
	# memsw first: a memory limit above memsw is refused
	expect_write "$LOAD" memsw -1
	expect_write "$LOAD" limit -1
	mc max --set "$LOAD:memsw=max" --set "$LOAD:limit=max" --audit-log "$AUD"
	check_run "memsw=max then limit=max" 0
else
	expect_write "$LOAD" limit -1
	mc max --set "$LOAD:limit=max" --audit-log "$AUD"
	check_run "limit=max" 0
fi
v=$(cat "$TROOT/load/memory.limit_in_bytes")
[ "$v" = "$UNL" ] && pass "limit=max: memory.limit_in_bytes holds the kernel's unlimited $v" ||
	fail "limit=max: memory.limit_in_bytes holds $v, expected $UNL"

# ---- 8. several in one run, one refused ---------------------------------------------------
expect_write "$LOAD" soft 8388608
expect_write "$LOAD" limit 16777216 "Device or resource busy" "$EBUSY_WHY"
expect_write "$LOAD" swappiness 40
expect_write "$IDLE" limit 67108864
mc multi --set "$LOAD:soft=8M" --set "$LOAD:limit=16M" \
	--set "$LOAD:swappiness=40" --set "$IDLE:limit=64M" --audit-log "$AUD"
check_run "four --set, limit=16M refused" 1
s=$(cat "$TROOT/load/memory.soft_limit_in_bytes") w=$(cat "$TROOT/load/memory.swappiness")
l=$(cat "$TROOT/idle/memory.limit_in_bytes")
if [ "$s" = 8388608 ] && [ "$w" = 40 ] && [ "$l" = 67108864 ]; then
	pass "four --set: the other three applied (load soft $s, swappiness $w; idle limit $l)"
else
	fail "four --set: load soft $s (want 8388608), swappiness $w (want 40), idle limit $l (want 67108864)"
fi

# ---- 9. unprivileged ----------------------------------------------------------------------
nb=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
ubin=$MEMCGTOP
if ! "${nb[@]}" test -x "$ubin"; then
	mkdir -p "$TMPD/bin" && cp "$MEMCGTOP" "$TMPD/bin/memcgtop" &&
		chmod 755 "$TMPD/bin" "$TMPD/bin/memcgtop" ||
		abort "cannot copy memcgtop for nobody"
	ubin=$TMPD/bin/memcgtop
fi
lim_before=$(cat "$TROOT/load/memory.limit_in_bytes")
(cd / && "${wrap[@]}" "${nb[@]}" "$ubin" --set "$LOAD:limit=50M") \
	>"$TMPD/unpriv.out" 2>"$TMPD/unpriv.err" </dev/null
rc=$?
err=$(cat "$TMPD/unpriv.err")
experr="memcgtop: --set '$LOAD:limit=50M': limit: no permission to write it"
[ "$rc" = 1 ] && pass "nobody: --set exits 1" || fail "nobody: --set exits $rc, expected 1"
[ "$err" = "$experr" ] && pass "nobody: stderr is exactly: $err" ||
	fail "nobody: stderr"$'\n'"  expected: $experr"$'\n'"  got:      $err"
[ ! -s "$TMPD/unpriv.out" ] && pass "nobody: stdout empty" ||
	fail "nobody: stdout: $(head -c 300 "$TMPD/unpriv.out")"
l=$(cat "$TROOT/load/memory.limit_in_bytes")
[ "$l" = "$lim_before" ] && pass "nobody: nothing written (limit still $l)" ||
	fail "nobody: limit changed from $lim_before to $l"

# ---- 10. --readonly ------------------------------------------------------------------------
mc ro --readonly --set "$LOAD:limit=50M" --audit-log "$AUD"
[ "$rc" = 2 ] && pass "--readonly --set: exit 2" || fail "--readonly --set: exit $rc, expected 2"
[ "$err" = "memcgtop: --set: refused by --readonly" ] &&
	pass "--readonly --set: stderr is exactly: $err" ||
	fail "--readonly --set: stderr: expected 'memcgtop: --set: refused by --readonly', got: $err"
[ -z "$out" ] && pass "--readonly --set: stdout empty" || fail "--readonly --set: stdout: $out"
l=$(cat "$TROOT/load/memory.limit_in_bytes")
[ "$l" = "$lim_before" ] && pass "--readonly --set: nothing written (limit still $l)" ||
	fail "--readonly --set: limit changed from $lim_before to $l"

# ---- 11. the audit log and syslog -------------------------------------------------------------
printf '%s\n' "${audit_exp[@]}" >"$TMPD/audit.exp"
if cmp -s "$TMPD/audit.exp" "$AUD"; then
	pass "--audit-log: exactly the ${#audit_exp[@]} expected lines, one per attempted write (refusals with result=ERRNO name)"
else
	fail "--audit-log: differs from the expected ${#audit_exp[@]} lines:"$'\n'"$(diff "$TMPD/audit.exp" "$AUD" | head -n 20)"
fi
grep -q 'result=EBUSY now=' "$AUD" &&
	pass "--audit-log: the EBUSY refusal logged: $(grep -m1 'result=EBUSY' "$AUD")" ||
	fail "--audit-log: no line with result=EBUSY"

# the datagrams arrive before memcgtop exits; the listener may lag a little
for i in $(seq 50); do
	[ "$(wc -l <"$SYSLOG")" -ge "${#audit_exp[@]}" ] && break
	sleep 0.1
done
python3 - "$SYSLOG" "$TMPD/audit.exp" "$TNAME" >"$TMPD/syslog.chk" 2>&1 <<'PYEOF'
import json, re, sys
msgs = [json.loads(l) for l in open(sys.argv[1])]
exp = open(sys.argv[2]).read().splitlines()
tname = sys.argv[3]
rx = re.compile(r"^<(\d+)>([A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d) ([^\[:]+)\[(\d+)\]: (.*)$")
# Other programs on this host may log to our socket while it is up: only
# the datagrams about the test's groups are ours.
ours, other, bad = [], 0, []
for m in msgs:
    if "group=/" + tname + "/" not in m:
        other += 1
        continue
    r = rx.match(m)
    if r:
        ours.append(r)
    else:
        bad.append(m)
def out(ok, msg):
    print(("PASS: " if ok else "FAIL: ") + msg)
out(not bad, "syslog: every message about the test groups is "
    "'<PRI>TIMESTAMP IDENT[PID]: TEXT'%s" % ("" if not bad else " (not: %r)" % bad[:3]))
texts = [r.group(5) for r in ours]
out(texts == exp, "syslog: %d messages with the audit lines, in order (%d other messages ignored)%s"
    % (len(texts), other, "" if texts == exp else "; got %r, expected %r" % (texts[:4], exp[:4])))
pri = sorted({int(r.group(1)) for r in ours})
out(pri == [85], "syslog: priority <85> = facility authpriv (10) * 8 + level notice (5) (got %s)" % pri)
idents = sorted({r.group(3) for r in ours})
out(idents == ["memcgtop"], "syslog: ident memcgtop with its pid (got %s)" % idents)
busy = [t for t in texts if "result=EBUSY" in t]
out(len(busy) == 2, "syslog: both EBUSY refusals logged (%d): %s" % (len(busy), busy[:1]))
PYEOF
prc=$?
tally "$TMPD/syslog.chk"
[ "$prc" = 0 ] || fail "syslog: checker exited with status $prc"

# ---- 12. one group however spelt, the per-group lock, where the audit goes ---------------------------------
NOLOG=$TMPD/nolog    # no socket: no syslog daemon listens there
export MEMCGTOP_SYSLOG_SOCKET=$NOLOG
PAR=$TMPD/par.log
# /g and /g// are one group: the second limit is a usage error, nothing written
l0=$(cat "$TROOT/idle/memory.limit_in_bytes")
mc spelt --set "$IDLE:limit=1G" --set "$IDLE//:limit=2G" --audit-log "$PAR"
experr="memcgtop: --set '$IDLE//:limit=2G': limit of $IDLE is already changed by '$IDLE:limit=1G'"
l=$(cat "$TROOT/idle/memory.limit_in_bytes")
if [ "$rc" = 2 ] && [ "$err" = "$experr" ] && [ -z "$out" ] && [ "$l" = "$l0" ] && [ ! -s "$PAR" ]; then
	pass "$IDLE and $IDLE// are one group: exit 2, '$err', nothing written"
else
	fail "$IDLE and $IDLE//: exit $rc (want 2), stderr '$err' (want '$experr'), stdout '$out', limit $l (was $l0)"
fi
if [ "$HAS_MEMSW" = 1 ]; then
	# memsw below the old limit, spelt //T/idle/: the limit must go first
	echo -1 >"$TROOT/idle/memory.memsw.limit_in_bytes"
	echo 100M >"$TROOT/idle/memory.limit_in_bytes"
	echo 200M >"$TROOT/idle/memory.memsw.limit_in_bytes"
	mc spelt2 --set "/$TNAME//idle/:memsw=32M" --set "$IDLE:limit=16M" --audit-log "$PAR"
	exp="$IDLE: limit is written before memsw: the kernel keeps memsw at least limit
$IDLE: limit (memory.limit_in_bytes): 104857600 -> 16777216: done, the kernel holds 16777216 (16.0M)
$IDLE: memsw (memory.memsw.limit_in_bytes): 209715200 -> 33554432: done, the kernel holds 33554432 (32.0M)"
	if [ "$rc" = 0 ] && [ "$out" = "$exp" ] && [ -z "$err" ] &&
		[ "$(cat "$TROOT/idle/memory.limit_in_bytes")" = 16777216 ] &&
		[ "$(cat "$TROOT/idle/memory.memsw.limit_in_bytes")" = 33554432 ]; then
		pass "memsw of /$TNAME//idle/ and limit of $IDLE: one group, limit written first, both done"
	else
		fail "memsw of /$TNAME//idle/ and limit of $IDLE: exit $rc, stderr '$err', output"$'\n'"  expected: $exp"$'\n'"  got:      $out"
	fi
	echo -1 >"$TROOT/idle/memory.memsw.limit_in_bytes"
fi
# 40 runs in parallel, each limit=+1M: under the lock every one adds up, and
# each audit line's old value is the one its write replaced.  flock(1) holds
# the group's lock while they start: each plans its change (reading the old
# value), opens the audit log and then waits for the lock (in /proc/locks),
# so all 40 are between planning and writing at once, the widest window
# parallel runs can have; then the lock is released and they go on
# together.
echo 64M >"$TROOT/idle/memory.limit_in_bytes"
: >"$PAR"
ino=$(stat -c %i "$TROOT/idle")
flock "$TROOT/idle" -c "touch '$TMPD/par.held'; while [ ! -e '$TMPD/par.release' ]; do sleep 0.05; done" &
holder=$!
pids+=("$holder")
for i in $(seq 200); do [ -e "$TMPD/par.held" ] && break; sleep 0.05; done
ppids=()
for i in $(seq 40); do
	"$MEMCGTOP" --set "$IDLE:limit=+1M" --audit-log "$PAR" \
		>"$TMPD/par$i.out" 2>"$TMPD/par$i.err" </dev/null &
	ppids+=($!)
	pids+=($!)
done
for i in $(seq 600); do
	n=0
	for p in "${ppids[@]}"; do
		grep -Eq "^[0-9]+: +-> FLOCK +ADVISORY +WRITE +$p [0-9a-f]+:[0-9a-f]+:$ino " /proc/locks && n=$((n + 1))
	done
	[ "$n" = 40 ] && break
	sleep 0.05
done
[ "$n" = 40 ] && pass "40 parallel limit=+1M: all 40 planned and waiting for the group's lock" ||
	fail "40 parallel limit=+1M: only $n of 40 waiting for the group's lock"
touch "$TMPD/par.release"
nbad=0
for p in "${ppids[@]}"; do
	wait "$p" || nbad=$((nbad + 1))
done
wait "$holder"
l=$(cat "$TROOT/idle/memory.limit_in_bytes")
[ "$nbad" = 0 ] && pass "40 parallel limit=+1M: all exit 0" || fail "40 parallel limit=+1M: $nbad exited non-zero: $(cat "$TMPD"/par*.err | head -c 300)"
[ "$l" = $(((64 + 40) << 20)) ] && pass "40 parallel limit=+1M: the kernel holds exactly 64M + 40M = $l" ||
	fail "40 parallel limit=+1M: the kernel holds $l, expected $(((64 + 40) << 20)) (lost $(( ($(((64 + 40) << 20)) - l) >> 20 )) updates)"
exp=
for i in $(seq 64 103); do
	exp+="uid=0 group=$IDLE file=memory.limit_in_bytes old=$((i << 20)) new=$(((i + 1) << 20)) result=ok now=$(((i + 1) << 20))"$'\n'
done
if [ "$(sort -t= -k5 -n "$PAR")" = "$(printf '%s' "$exp" | sort -t= -k5 -n)" ]; then
	pass "40 parallel limit=+1M: 40 audit lines, old=64M..103M each once, new = old + 1M = now"
else
	fail "40 parallel limit=+1M: audit lines differ:"$'\n'"$(diff <(printf '%s' "$exp" | sort -t= -k5 -n) <(sort -t= -k5 -n "$PAR") | head -n 10)"
fi
# A run waits while another holds the group's lock: flock(1) holds it, the
# run's waiter shows in /proc/locks, nothing is written until it is free.
ino=$(stat -c %i "$TROOT/idle")
flock "$TROOT/idle" -c "touch '$TMPD/held'; while [ ! -e '$TMPD/release' ]; do sleep 0.05; done" &
holder=$!
pids+=("$holder")
for i in $(seq 200); do [ -e "$TMPD/held" ] && break; sleep 0.05; done
"$MEMCGTOP" --set "$IDLE:limit=+1M" --audit-log "$PAR" >"$TMPD/wait.out" 2>"$TMPD/wait.err" </dev/null &
waiter=$!
pids+=("$waiter")
blocked=0
for i in $(seq 200); do
	grep -Eq "^[0-9]+: -> FLOCK +ADVISORY +WRITE +$waiter [0-9a-f]+:[0-9a-f]+:$ino " /proc/locks &&
		{ blocked=1; break; }
	kill -0 "$waiter" 2>/dev/null || break
	sleep 0.05
done
l=$(cat "$TROOT/idle/memory.limit_in_bytes")
if [ "$blocked" = 1 ] && [ "$l" = $((104 << 20)) ]; then
	pass "lock held elsewhere: --set waits on the group's flock (in /proc/locks), limit still $l"
else
	fail "lock held elsewhere: --set did not wait on flock of $TROOT/idle (waiter seen: $blocked; limit $l, want $((104 << 20)))"
fi
touch "$TMPD/release"
wait "$waiter"
rc=$?
wait "$holder"
exp="$IDLE: limit (memory.limit_in_bytes): 109051904 -> 110100480: done, the kernel holds 110100480 (105M)"
[ "$rc" = 0 ] && [ "$(cat "$TMPD/wait.out")" = "$exp" ] &&
	pass "lock released: the waiting --set wrote: $exp" ||
	fail "lock released: exit $rc, output '$(cat "$TMPD/wait.out")', want '$exp' (stderr $(cat "$TMPD/wait.err"))"
# No syslog daemon and no --audit-log: said once on stderr, the change made.
mc nolog --set "$IDLE:swappiness=20"
experr="memcgtop: no syslog is listening on $NOLOG: these changes are recorded nowhere (give --audit-log FILE, or start a syslog daemon)"
if [ "$rc" = 0 ] && [ "$err" = "$experr" ] && [ "$(cat "$TROOT/idle/memory.swappiness")" = 20 ]; then
	pass "no syslog, no --audit-log: exit 0, written, stderr is exactly: $err"
else
	fail "no syslog, no --audit-log: exit $rc, swappiness $(cat "$TROOT/idle/memory.swappiness"), stderr"$'\n'"  expected: $experr"$'\n'"  got:      $err"
fi
# A listening socket: no notice, and the line arrives there.
nsys=$(wc -l <"$SYSLOG")
MEMCGTOP_SYSLOG_SOCKET=$sock mc withlog --set "$IDLE:swappiness=25"
for i in $(seq 50); do
	[ "$(wc -l <"$SYSLOG")" -gt "$nsys" ] && break
	sleep 0.1
done
if [ "$rc" = 0 ] && [ -z "$err" ] && tail -n +$((nsys + 1)) "$SYSLOG" |
	grep -q "memcgtop\[[0-9]*\]: uid=0 group=$IDLE file=memory.swappiness old=20 new=25 result=ok now=25\"$"; then
	pass "MEMCGTOP_SYSLOG_SOCKET=$sock (listening): no notice, the audit line sent there"
else
	fail "MEMCGTOP_SYSLOG_SOCKET=$sock: exit $rc, stderr '$err', syslog: $(tail -n +$((nsys + 1)) "$SYSLOG" | head -c 300)"
fi
# A fixture: its change is no system change, not for syslog; its audit line
# says fixture=yes.  A marker datagram sent after it tells when the listener
# has read all memcgtop could have sent.
FX=$TMPD/fx
cp -r "$top/tests/fixtures/edge-vanish/cg/0" "$FX" && mv "$FX/a" "$FX/fx-$TNAME" ||
	abort "fixture copy"
MEMCGTOP_SYSLOG_SOCKET=$sock mc fx --root "$FX" --set "/fx-$TNAME:limit=1G" --audit-log "$TMPD/fx.log"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(sys.argv[2].encode(), sys.argv[1])' \
	"$sock" "marker-$TNAME"
for i in $(seq 50); do
	grep -q "marker-$TNAME" "$SYSLOG" && break
	sleep 0.1
done
exp="uid=0 group=/fx-$TNAME file=memory.limit_in_bytes old=536870912 new=1073741824 result=ok now=1073741824 fixture=yes"
if [ "$rc" = 0 ] && [ -z "$err" ] && [ "$(cat "$TMPD/fx.log")" = "$exp" ] &&
	grep -q "marker-$TNAME" "$SYSLOG" && ! grep -q "group=/fx-$TNAME" "$SYSLOG"; then
	pass "--set on a fixture: not sent to syslog, no notice, audit line: $exp"
else
	fail "--set on a fixture: exit $rc, stderr '$err', audit '$(cat "$TMPD/fx.log")' (want '$exp'), syslog: $(grep "fx-$TNAME" "$SYSLOG" | head -c 300)"
fi
unset MEMCGTOP_SYSLOG_SOCKET

# ---- cleanup and its verification -------------------------------------------------------------------
started=("${pids[@]}")
cleanup
left=()
for p in "${started[@]}"; do
	kill -0 "$p" 2>/dev/null && left+=("$p")
done
gone_log=1
[ -n "$devlog_ino" ] && [ -e /dev/log ] && gone_log=0
if [ ! -e "$TROOT" ] && [ ${#left[@]} = 0 ] && [ ! -e "$TMPD" ] && [ "$gone_log" = 1 ]; then
	pass "cleanup: test tree, temp dir$([ -n "$devlog_ino" ] && echo ", /dev/log") and all ${#started[@]} started processes gone"
else
	fail "cleanup: left behind: $([ -e "$TROOT" ] && echo "$TROOT ")$([ -e "$TMPD" ] && echo "$TMPD ")$([ "$gone_log" = 0 ] && echo "/dev/log ")pids ${left[*]}"
fi
echo "set-v1: run time $(awk -v a="$t_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s" >&2
summary
