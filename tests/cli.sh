#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Command-line behaviour: exit codes and the exact error line for bad input,
# options that shape the output, and the agreement of --help, the man page
# and the column table.
set -u
cd "$(dirname "$0")/.."
BIN=${MEMCGTOP:-./memcgtop}
FIX=tests/fixtures
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()  { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# expect CODE 'stderr line' ARGS... : exit status and the whole of stderr.
expect() {
	local code=$1 want=$2 got rc
	shift 2
	"$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	got=$(cat "$tmp/err")
	if [ "$rc" = "$code" ] && [ "$got" = "$want" ] && \
	   [ "$(wc -l <"$tmp/err")" -le 1 ]; then
		ok "memcgtop $* -> $code"
	else
		bad "memcgtop $* -> exit $rc (want $code), stderr '$got' (want '$want')"
	fi
}

V1="--root $FIX/v1-live/cg --proc $FIX/v1-live/proc"
# shellcheck disable=SC2086
{
expect 2 "memcgtop: unknown option '--bogus' (memcgtop --help lists them)" --bogus
expect 2 "memcgtop: unknown option '-x' (memcgtop --help lists them)" -x
expect 2 "memcgtop: option '-n' needs a value" -n
expect 2 "memcgtop: option '--root' needs a value" --root
expect 2 "memcgtop: -n: 'abc' is not a whole number from 0 to 2147483647 (decimal digits only)" -n abc
expect 2 "memcgtop: -n: '-1' is not a whole number from 0 to 2147483647 (decimal digits only)" -n -1
expect 2 "memcgtop: -n: '3x' is not a whole number from 0 to 2147483647 (decimal digits only)" -n 3x
expect 2 "memcgtop: -d: '0' is not a number of seconds from 0.05 to 86400 (decimal, e.g. 2 or 0.5)" -d 0
expect 2 "memcgtop: -d: 'nan' is not a number of seconds from 0.05 to 86400 (decimal, e.g. 2 or 0.5)" -d nan
expect 2 "memcgtop: -d: '1s' is not a number of seconds from 0.05 to 86400 (decimal, e.g. 2 or 0.5)" -d 1s
expect 2 "memcgtop: --depth: 'deep' is not a whole number from 0 to 4096 (decimal digits only)" --depth deep
expect 2 "memcgtop: --history: 'x' is not a whole number from 0 to 86400 (decimal digits only)" --history x
expect 2 "memcgtop: --history: '86401' is not a whole number from 0 to 86400 (decimal digits only)" --history 86401
expect 2 "memcgtop: --history: '-1' is not a whole number from 0 to 86400 (decimal digits only)" --history -1
expect 2 "memcgtop: -F: unknown format 'xml' (text, csv, json, openmetrics or prometheus)" -F xml
expect 2 "memcgtop: --collector: 'kernel' is not auto, bpf or files" --collector kernel
# --probe: the refusal on v1 (the live host's hierarchy and a copy), on a
# v2 copy, and its options' values.
expect 2 "memcgtop: --probe: cgroup v1 has no memory.reclaim: the probe needs cgroup v2" --probe /
expect 2 "memcgtop: --probe: cgroup v1 has no memory.reclaim: the probe needs cgroup v2" $V1 --probe /a -F json
expect 2 "memcgtop: --probe: only on a live hierarchy (not a copy or a recording: --root)" --root $FIX/v2-live/cg --proc $FIX/v2-live/proc --probe /a
expect 2 "memcgtop: --probe ../a: not a group path (no '.' or '..' components)" --probe ../a
expect 2 "memcgtop: --probe-step: only with --probe PATH" --probe-step 8M
expect 2 "memcgtop: --probe-time: only with --probe PATH" --probe-time 5
expect 2 "memcgtop: --probe-step: '0' is not a size of at least 1 byte (e.g. 8M; K, M, G, T)" --probe / --probe-step 0
expect 2 "memcgtop: --probe-step: '8Q' is not a size of at least 1 byte (e.g. 8M; K, M, G, T)" --probe / --probe-step 8Q
expect 2 "memcgtop: --probe-max: '1.5' is not a size of at least 1 byte (e.g. 8M; K, M, G, T)" --probe / --probe-max 1.5
expect 2 "memcgtop: --probe-refaults: '-1' is not a size of 0 or more (e.g. 8M; K, M, G, T)" --probe / --probe-refaults -1
expect 2 "memcgtop: --probe-stall: 'x' is not a number of seconds from 0 to 3600 (decimal, e.g. 2 or 0.5)" --probe / --probe-stall x
expect 2 "memcgtop: --probe-time: '0' is not a number of seconds from 0.05 to 86400 (decimal, e.g. 2 or 0.5)" --probe / --probe-time 0
expect 2 "memcgtop: --probe: not with --set" --probe / --set /a:limit=1M
expect 2 "memcgtop: --probe: not with --readonly" --probe / --readonly
expect 2 "memcgtop: --probe: not with -n" --probe / -n 1
expect 2 "memcgtop: --probe: not with -F csv, openmetrics or prometheus (text or json)" --probe / -F csv
expect 2 "memcgtop: --top: '0' is not a whole number from 1 to 100000000 (decimal digits only)" -b --top 0
expect 2 "memcgtop: --top: 'x' is not a whole number from 1 to 100000000 (decimal digits only)" -b --top x
# One grammar for every number (parse.h, the man page's NUMBERS): the
# number and nothing else, in decimal; no blank around it, no sign, no
# hexadecimal, no exponent.  Each option refuses the same forms.
CNT="(decimal digits only)" SECS="(decimal, e.g. 2 or 0.5)"
for v in ' 5' '5 ' '+5' '0x10' '1e1' '5.0' '-0'; do
	expect 2 "memcgtop: -n: '$v' is not a whole number from 0 to 2147483647 $CNT" -n "$v"
done
for v in '0x1' ' 1' '1 ' '+1' '1e0' '.5' '5.' 'inf' '1,5'; do
	expect 2 "memcgtop: -d: '$v' is not a number of seconds from 0.05 to 86400 $SECS" -d "$v"
done
expect 2 "memcgtop: -d: '86400.5' is not a number of seconds from 0.05 to 86400 $SECS" -d 86400.5
expect 2 "memcgtop: --depth: '0x1' is not a whole number from 0 to 4096 $CNT" --depth 0x1
expect 2 "memcgtop: --depth: ' 2' is not a whole number from 0 to 4096 $CNT" --depth ' 2'
expect 2 "memcgtop: --history: '1e2' is not a whole number from 0 to 86400 $CNT" --history 1e2
expect 2 "memcgtop: --top: '+3' is not a whole number from 1 to 100000000 $CNT" -b --top +3
expect 2 "memcgtop: --record-max: '0x10' is not a whole number from 2 to 10000000 $CNT" --record "$tmp/rec" --record-max 0x10
expect 2 "memcgtop: --record-max: '1' is not a whole number from 2 to 10000000 $CNT" --record "$tmp/rec" --record-max 1
expect 2 "memcgtop: --listen: port: '0x50' is not a whole number from 1 to 65535 $CNT" --listen 0x50
expect 2 "memcgtop: --listen: port: ' 9338' is not a whole number from 1 to 65535 $CNT" --listen '127.0.0.1: 9338'
# The forms it takes.
"$BIN" -b -n 1 -d 0.05 --depth 007 $V1 >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
	ok "-d 0.05 and --depth 007: decimal forms accepted" || bad "-d 0.05 --depth 007: $(cat "$tmp/err")"
# A copy or a recording is read from files: auto takes them, bpf is refused.
expect 1 "memcgtop: bpf collector: $FIX/v1-live/cg is a recording, not a mounted cgroup hierarchy" --collector bpf -b $V1
mkdir -p "$tmp/copy/a" && echo 4096 >"$tmp/copy/memory.usage_in_bytes"
expect 1 "memcgtop: bpf collector: $tmp/copy is a copy, not a mounted cgroup hierarchy" --collector bpf -b --root "$tmp/copy"
expect 2 "memcgtop: -o: unknown column 'bogus' (memcgtop --list-columns shows them)" -o bogus
expect 2 "memcgtop: -o: unknown column '' (memcgtop --list-columns shows them)" -o -
expect 2 "memcgtop: unknown column 'bogus' (memcgtop --list-columns shows them)" -c usage,bogus
expect 2 "memcgtop: -c: empty or overlong column key in 'usage,,limit'" -c usage,,limit
expect 2 "memcgtop: -c: column 'usage' given twice in 'usage,usage'" -c usage,usage
expect 2 "memcgtop: -c: column 'usage' given twice in 'usage,limit,usage'" $V1 -b -F openmetrics -c usage,limit,usage
expect 2 "memcgtop: unexpected argument 'b' (one CGROUP at most)" a b
expect 2 "memcgtop: ../etc: not a cgroup path (no '.' or '..' components)" ../etc
expect 2 "memcgtop: a/../../b: not a cgroup path (no '.' or '..' components)" a/../../b

expect 1 "memcgtop: $tmp/nowhere: No such file or directory" --root "$tmp/nowhere" -b
# A hierarchy that cannot be opened still frees what the options made
# (the column list of -c; LeakSanitizer in the ASan run).
expect 1 "memcgtop: $tmp/nowhere: No such file or directory" --root "$tmp/nowhere" -b -c usage,path
ln -s /dev/null "$tmp/alink"
expect 2 "memcgtop: --output $tmp/alink: not a regular file" --output "$tmp/alink" -F json
expect 2 "memcgtop: --output /dev/null: not a regular file" --output /dev/null
mkdir -p "$tmp/empty"
expect 1 "memcgtop: $tmp/empty: not a memory cgroup hierarchy (no cgroup.controllers or memory.usage_in_bytes)" --root "$tmp/empty" -b
mkdir -p "$tmp/v2nomem"
echo "cpu io pids" >"$tmp/v2nomem/cgroup.controllers"
expect 1 "memcgtop: $tmp/v2nomem: the memory controller is not enabled in this cgroup v2 hierarchy" --root "$tmp/v2nomem" -b
expect 1 "memcgtop: /nope: no such group under $FIX/v1-live/cg: No such file or directory" $V1 -b /nope
mkdir -p "$tmp/badts/0"
cp "$FIX/edge-vanish/cg/0/memory."* "$tmp/badts/0/"
printf '10.0 1796000000\n9.0 1796000001\n' >"$tmp/badts/timestamps"
expect 1 "memcgtop: $tmp/badts/timestamps: line 2: expected a monotonic time in seconds, increasing" --root "$tmp/badts" -b
printf '10.0 17960x\n' >"$tmp/badts/timestamps"
expect 1 "memcgtop: $tmp/badts/timestamps: line 1: malformed wall clock time" --root "$tmp/badts" -b
printf 'nan 1796000000\n' >"$tmp/badts/timestamps"
expect 1 "memcgtop: $tmp/badts/timestamps: line 1: expected a monotonic time in seconds, increasing" --root "$tmp/badts" -b
# Times that parse but no clock gives: refused, not printed as a 309-digit
# interval or a raw number in place of the date.
printf '10.0 1796000000 0\n1e308 1796000001 0\n' >"$tmp/badts/timestamps"
expect 1 "memcgtop: $tmp/badts/timestamps: line 2: monotonic time out of range (at most 10000000000 seconds)" --root "$tmp/badts" -b
printf '10.0 1796000000 0\n11.0 -9223372036854775808 0\n' >"$tmp/badts/timestamps"
expect 1 "memcgtop: $tmp/badts/timestamps: line 2: wall clock time out of range (0 to 253402300799, the end of the year 9999)" --root "$tmp/badts" -b
printf '10.0 253402300800 0\n11.0 253402300801 0\n' >"$tmp/badts/timestamps"
expect 1 "memcgtop: $tmp/badts/timestamps: line 1: wall clock time out of range (0 to 253402300799, the end of the year 9999)" --root "$tmp/badts" -b
}
# shellcheck disable=SC2086
"$BIN" $V1 -b -F json >/dev/full 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ "$(cat "$tmp/err")" = "memcgtop: writing output: No space left on device" ] \
	&& ok "a full stdout is an error (exit 1)" || bad "stdout /dev/full: exit $rc, '$(cat "$tmp/err")'"

# A recorded series ends quietly: 5 samples give 4 iterations.
n=$("$BIN" $V1 -b -F json -n 50 2>"$tmp/err" | wc -l)
[ "$n" = 4 ] && [ ! -s "$tmp/err" ] && ok "series stops after its last sample (4 iterations)" \
	|| bad "series of 5 samples printed $n iterations"

# The subtree argument, --depth, -f, -o and -c shape what is printed.
# shellcheck disable=SC2086
paths=$("$BIN" $V1 -b -F csv -c path,depth -o +path /fixture/batch | tail -n +2 | cut -d, -f3- | tr -d '\r' | tr '\n' ' ')
want="/fixture/batch,2 /fixture/batch/cache,3 /fixture/batch/deep,3 /fixture/batch/deep/leaf,4 /fixture/batch/hog,3 "
[ "$paths" = "$want" ] && ok "CGROUP argument starts the tree; -o +path sorts by path" \
	|| bad "subtree: got '$paths' want '$want'"
# shellcheck disable=SC2086
paths=$("$BIN" $V1 -b -F csv -c path --depth 1 -o +path /fixture | tail -n +2 | cut -d, -f3 | tr -d '\r' | tr '\n' ' ')
want="/fixture /fixture/batch /fixture/idle /fixture/web "
[ "$paths" = "$want" ] && ok "--depth 1 shows the start and its children" || bad "--depth: got '$paths'"
# shellcheck disable=SC2086
paths=$("$BIN" $V1 -b -F csv -c path -f deep | tail -n +2 | cut -d, -f3 | tr -d '\r' | tr '\n' ' ')
want="/ /fixture /fixture/batch /fixture/batch/deep /fixture/batch/deep/leaf "
[ "$paths" = "$want" ] && ok "-f keeps matching paths and their ancestors" || bad "-f: got '$paths'"
# Two groups of one name under different parents: the text tree tells them
# apart by their ancestors, as the screen's filter does.
for d in . a a/writer b b/writer c; do
	mkdir -p "$tmp/two/$d"
	echo 9223372036854771712 >"$tmp/two/$d/memory.limit_in_bytes"
	echo 4096 >"$tmp/two/$d/memory.usage_in_bytes"
done
got=$("$BIN" --root "$tmp/two" --proc "$FIX/v1-live/proc" -b -r -c usage,path -o +path -f writer | tail -n +6)
want=$(printf '%s\n' ' USAGE GROUP' '  4096 /' '  4096   a' '  4096     writer' '  4096   b' '  4096     writer')
[ "$got" = "$want" ] && ok "-f in text shows the matches under their ancestors" || bad "-f text: got '$got'"
# shellcheck disable=SC2086
hdr=$("$BIN" $V1 -b -F csv -c usage,path,failcnt_per_s | head -1 | tr -d '\r')
[ "$hdr" = "time,iteration,usage,path,failcnt_per_s" ] && ok "-c picks and orders CSV columns" \
	|| bad "-c header: '$hdr'"
# shellcheck disable=SC2086
first=$("$BIN" $V1 -b -F csv -c path,usage -o -usage /fixture/web | sed -n 3p | cut -d, -f3)
[ "$first" = "/fixture/web/backend" ] && ok "-o -usage puts the larger sibling first" \
	|| bad "-o -usage: first child '$first'"
# shellcheck disable=SC2086
first=$("$BIN" $V1 -b -F csv -c path,usage -o +usage /fixture/web | sed -n 3p | cut -d, -f3)
[ "$first" = "/fixture/web/frontend" ] && ok "-o +usage puts the smaller sibling first" \
	|| bad "-o +usage: first child '$first'"
# Text output keeps the order of -c, GROUP included (last when -c has no
# path); edge-vanish sample 1 (see tests/fixtures/README.md): / 1088 MiB
# plus its 16 MiB of kmem (the v1 root), /a 200 MiB of 512 MiB, /c 50 MiB
# unlimited.
EV="--root $FIX/edge-vanish/cg --proc $FIX/edge-vanish/proc"
textcase() { # DESC EXPECTED ARGS...
	local desc=$1 want=$2 got
	shift 2
	# shellcheck disable=SC2086
	got=$("$BIN" $EV -b -n 1 "$@" | tail -n +6)
	[ "$got" = "$want" ] && ok "$desc" || {
		bad "$desc: got"; printf '%s\n' "$got" | sed 's/^/    |/'; }
}
textcase "text: -c path,usage,limit puts GROUP first, padded to the widest name" \
"GROUP  USAGE  LIMIT
/       1.1G    max
  a     200M   512M
  c    50.0M    max" -c path,usage,limit
textcase "text: -c usage,path,limit puts GROUP between USAGE and LIMIT" \
" USAGE GROUP  LIMIT
  1.1G /        max
  200M   a     512M
 50.0M   c      max" -c usage,path,limit
textcase "text: -c without path adds GROUP last" \
" USAGE  LIMIT GROUP
  1.1G    max /
  200M   512M   a
 50.0M    max   c" -c usage,limit
textcase "text: -r widens a column to its widest value" \
"     USAGE     LIMIT GROUP
1157627904       max /
 209715200 536870912   a
  52428800       max   c" -r -c usage,limit,path
# Every -r row of the default columns ends each value where its title ends.
# shellcheck disable=SC2086
"$BIN" $V1 -b -n 1 -r | tail -n +6 >"$tmp/raw"
if awk 'NR == 1 { for (i = 1; i <= length($0); i++) if (substr($0, i, 1) != " " && substr($0, i + 1, 1) == " ") end[++n] = i; next }
	{ k = 0; for (i = 1; i <= length($0) && k < n; i++) if (substr($0, i, 1) != " " && substr($0, i + 1, 1) == " ") if (i != end[++k]) { bad = 1; exit } }
	END { exit bad || n < 7 }' "$tmp/raw"; then
	ok "text -r: every value ends in its title's column (v1-live)"
else
	bad "text -r: values and titles are not aligned:"; sed 's/^/    |/' "$tmp/raw"
fi
# Not a terminal: batch is implied, one iteration by default.
# shellcheck disable=SC2086
n=$("$BIN" $V1 | grep -c '^memcgtop - ')
[ "$n" = 1 ] && ok "stdout not a terminal implies -b -n 1" || bad "implied batch printed $n headers"

# --set on a copy of a fixture: checked before writing, written, re-read,
# recorded; nothing written when any change is refused beforehand.
cp -r "$FIX/edge-vanish/cg/0" "$tmp/w"
mkdir -p "$tmp/w/odd:na=me"
cp "$FIX/edge-vanish/cg/0/a/memory."* "$tmp/w/odd:na=me/"
setrun() { "$BIN" --root "$tmp/w" --audit-log "$tmp/audit" "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
setrun --set /a:limit=1G --set a:soft=100M --set '/odd:na=me:swappiness=30'
want="/a: limit (memory.limit_in_bytes): 536870912 -> 1073741824: done, the kernel holds 1073741824 (1.0G)
/a: soft (memory.soft_limit_in_bytes): max -> 104857600: done, the kernel holds 104857600 (100M)
/odd:na=me: swappiness (memory.swappiness): 60 -> 30: done, the kernel holds 30"
[ "$(cat "$tmp/rc")" = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ ! -s "$tmp/err" ] \
	&& ok "--set writes, re-reads and reports each change" \
	|| bad "--set: rc $(cat "$tmp/rc") out '$(cat "$tmp/out")' err '$(cat "$tmp/err")'"
[ "$(cat "$tmp/w/a/memory.limit_in_bytes")" = 1073741824 ] && [ "$(cat "$tmp/w/odd:na=me/memory.swappiness")" = 30 ] \
	&& ok "--set changed exactly the files named" || bad "--set files: $(cat "$tmp/w/a/memory.limit_in_bytes")"
# A fixture is no live hierarchy: its lines say so.
want="uid=$(id -u) group=/a file=memory.limit_in_bytes old=536870912 new=1073741824 result=ok now=1073741824 fixture=yes
uid=$(id -u) group=/a file=memory.soft_limit_in_bytes old=max new=104857600 result=ok now=104857600 fixture=yes
uid=$(id -u) group=/odd:na=me file=memory.swappiness old=60 new=30 result=ok now=30 fixture=yes"
[ "$(cat "$tmp/audit")" = "$want" ] && ok "--audit-log has one line per change, marked fixture=yes" || bad "audit log: '$(cat "$tmp/audit")'"
[ "$(stat -c %a "$tmp/audit")" = 600 ] && ok "--audit-log file created 0600" || bad "audit log mode $(stat -c %a "$tmp/audit")"
setrun --set /a:limit=-25%
[ "$(cat "$tmp/w/a/memory.limit_in_bytes")" = 805306368 ] && ok "--set relative -25%" \
	|| bad "-25%: $(cat "$tmp/w/a/memory.limit_in_bytes")"
setrun --set /a:limit=max
[ "$(cat "$tmp/w/a/memory.limit_in_bytes")" = -1 ] && grep -q 'old=805306368 new=-1 result=ok' "$tmp/audit" \
	&& ok "--set max writes -1 on v1" || bad "max on v1: $(cat "$tmp/w/a/memory.limit_in_bytes")"
cp "$tmp/w/a/memory.limit_in_bytes" "$tmp/before"
n_audit=$(wc -l <"$tmp/audit")
setcheck() {
	local code=$1 want=$2
	shift 2
	setrun "$@"
	if [ "$(cat "$tmp/rc")" = "$code" ] && [ "$(cat "$tmp/err")" = "$want" ] && [ ! -s "$tmp/out" ] &&
	   cmp -s "$tmp/before" "$tmp/w/a/memory.limit_in_bytes"; then
		ok "--set $* -> $code, nothing written"
	else
		bad "--set $*: rc $(cat "$tmp/rc") (want $code), err '$(cat "$tmp/err")' (want '$want'), limit $(cat "$tmp/w/a/memory.limit_in_bytes")"
	fi
}
setcheck 2 "memcgtop: --set '/a:limit=1Q': limit: '1Q' is not a value for memory.limit_in_bytes; it takes a size (bytes, or a number with K, M, G or T, e.g. 512M or 1.5G), max (also unlimited or -1), or a change +SIZE, -SIZE, +N%, -N%" \
	--set /a:soft=2G --set /a:limit=1Q
# --set keeps the one grammar: blanks around a value, hexadecimal and an
# exponent are refused as any malformed value (nothing written).
TAKES="it takes a size (bytes, or a number with K, M, G or T, e.g. 512M or 1.5G), max (also unlimited or -1), or a change +SIZE, -SIZE, +N%, -N%"
for v in ' 5M' '5M ' '0x10' '1e6' '+0x10' '5 M' '.5M'; do
	setcheck 2 "memcgtop: --set '/a:limit=$v': limit: '$v' is not a value for memory.limit_in_bytes; $TAKES" --set "/a:limit=$v"
done
setcheck 2 "memcgtop: --set '/a:swappiness= 30': swappiness: ' 30' is not a value for memory.swappiness; it takes a whole number from 0 to 200" --set "/a:swappiness= 30"
setcheck 2 "memcgtop: --set '/a:swappiness=0x1e': swappiness: '0x1e' is not a value for memory.swappiness; it takes a whole number from 0 to 200" --set "/a:swappiness=0x1e"
# A path beyond PATH_MAX (4096 with its NUL; openat2 takes the group's
# path below the hierarchy in one argument) says so, quoting the first 100
# bytes of the argument; 4095 bytes is a path (of no group here).
long=/$(head -c 5078 /dev/zero | tr '\0' x)
setcheck 2 "memcgtop: --set '${long:0:100}...': path too long: 5079 bytes, at most 4095 (PATH_MAX 4096 with its NUL)" --set "$long:limit=1G"
setcheck 2 "memcgtop: --set '${long:0:100}...': path too long: 4096 bytes, at most 4095 (PATH_MAX 4096 with its NUL)" --set "${long:0:4096}:limit=1G"
setcheck 1 "memcgtop: --set '${long:0:100}...': limit: no such group" --set "${long:0:4095}:limit=1G"
# Doubled slashes are not counted: the path as memcgtop names it.
setcheck 1 "memcgtop: --set '//${long:1:98}...': limit: no such group" --set "/${long:0:4095}:limit=1G"
setcheck 2 "memcgtop: --set '/a:limit=3G': limit of /a is already changed by 'a:limit=2G'" --set a:limit=2G --set /a:limit=3G
setcheck 2 "memcgtop: --set '/a:high=1G': expected PATH:KNOB=VALUE with a cgroup v1 knob (limit, soft, memsw, swappiness)" --set /a:limit=2G --set /a:high=1G
setcheck 2 "memcgtop: --set '/a:swappiness=201': swappiness: '201' is not a value for memory.swappiness; it takes a whole number from 0 to 200" --set /a:limit=2G --set /a:swappiness=201
setcheck 1 "memcgtop: --set '/nope:limit=1G': limit: no such group" --set /a:limit=2G --set /nope:limit=1G
setcheck 2 "memcgtop: --set '../a:limit=1G': '../a' is not a group path (no '.' or '..' components)" --set ../a:limit=1G
setcheck 2 "memcgtop: --set '/a/./b:limit=1G': '/a/./b' is not a group path (no '.' or '..' components)" --set /a/./b:limit=1G
setcheck 2 "memcgtop: --set: refused by --readonly" --readonly --set /a:limit=2G
echo 9223372036854771712 >"$tmp/w/a/memory.limit_in_bytes"
cp "$tmp/w/a/memory.limit_in_bytes" "$tmp/before"
setcheck 2 "memcgtop: --set '/a:limit=+1G': limit: the current value is max: give the new value itself" --set /a:limit=+1G
[ "$(wc -l <"$tmp/audit")" = "$n_audit" ] && ok "refused-before-writing changes leave no audit line" \
	|| bad "audit grew on refused plans"
# A symlink planted where the control file should be is not followed.
rm -f "$tmp/w/a/b/memory.limit_in_bytes"
ln -s "$tmp/outside" "$tmp/w/a/b/memory.limit_in_bytes"
echo 5 >"$tmp/outside"
setrun --set /a/b:limit=1G
[ "$(cat "$tmp/rc")" = 1 ] && [ "$(cat "$tmp/outside")" = 5 ] && grep -q "refused: .*symbolic link" "$tmp/out" \
	&& ok "--set does not follow a planted symlink" || bad "symlink: rc $(cat "$tmp/rc") out '$(cat "$tmp/out")' err '$(cat "$tmp/err")' outside $(cat "$tmp/outside")"
# The audit log is a regular file, checked before the first change: a FIFO
# is not waited on (timeout 10 would end a run that hangs: exit 124), a
# folder and a device are refused; one line, exit 1, nothing written.  (An
# audit log that cannot take a line: tests/record-safety.sh, a full disk.)
mkfifo "$tmp/audit.fifo"
mkdir "$tmp/audit.dir"
cp "$tmp/w/a/memory.swappiness" "$tmp/swp.before"
for al in "$tmp/audit.fifo" "$tmp/audit.dir" /dev/null /dev/full; do
	timeout 10 "$BIN" --root "$tmp/w" --audit-log "$al" --set /a:swappiness=40 >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ $rc = 1 ] && [ "$(cat "$tmp/err")" = "memcgtop: --audit-log $al: not a regular file" ] && [ ! -s "$tmp/out" ] &&
	   cmp -s "$tmp/swp.before" "$tmp/w/a/memory.swappiness"; then
		ok "--audit-log $al: refused before any change (exit 1, one line, swappiness unchanged)"
	else
		bad "--audit-log $al: rc $rc (want 1), out '$(cat "$tmp/out")', err '$(cat "$tmp/err")', swappiness $(cat "$tmp/w/a/memory.swappiness") (was $(cat "$tmp/swp.before"))"
	fi
done
# A recording is never written.
setcheck 1 "memcgtop: --set '/a:limit=1G': limit: a recording cannot be changed" --root "$FIX/edge-vanish/cg" --set /a:limit=1G
# One group, however spelt, is one key: a second change of the same knob
# is refused, and limit and memsw are put in the kernel's order.
cp "$tmp/w/a/memory.limit_in_bytes" "$tmp/before"
for sp in /a// //a a/ /a/; do
	setcheck 2 "memcgtop: --set '$sp:limit=3G': limit of /a is already changed by '/a:limit=2G'" --set /a:limit=2G --set "$sp:limit=3G"
done
setcheck 2 "memcgtop: --set '//:limit=3G': limit of / is already changed by '/:limit=2G'" --set /:limit=2G --set //:limit=3G
echo 2147483648 >"$tmp/w/a/memory.limit_in_bytes"
echo 4294967296 >"$tmp/w/a/memory.memsw.limit_in_bytes"
setrun --set /a:memsw=1G --set //a/:limit=512M
want="/a: limit is written before memsw: the kernel keeps memsw at least limit
/a: limit (memory.limit_in_bytes): 2147483648 -> 536870912: done, the kernel holds 536870912 (512M)
/a: memsw (memory.memsw.limit_in_bytes): 4294967296 -> 1073741824: done, the kernel holds 1073741824 (1.0G)"
[ "$(cat "$tmp/rc")" = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] \
	&& ok "--set /a:memsw and //a/:limit: one group, limit written first" \
	|| bad "--set memsw/limit spelt apart: rc $(cat "$tmp/rc") out '$(cat "$tmp/out")' err '$(cat "$tmp/err")'"
# A fixture's changes go to the --audit-log file only, never to syslog, and
# no syslog is no notice for them.
if command -v python3 >/dev/null; then
	python3 -c '
import socket, sys, os
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
open(sys.argv[2], "w").close()
s.settimeout(30)
try:
    d = s.recv(65536)
    open(sys.argv[3], "wb").write(d)
except socket.timeout:
    pass' "$tmp/log.sock" "$tmp/log.ready" "$tmp/log.got" &
	lpid=$!
	for _ in $(seq 100); do [ -e "$tmp/log.ready" ] && break; sleep 0.05; done
	MEMCGTOP_SYSLOG_SOCKET=$tmp/log.sock "$BIN" --root "$tmp/w" --set /a:swappiness=50 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	# A message known to arrive, after which nothing of memcgtop's can.
	python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.sendto(b"end", sys.argv[1])' "$tmp/log.sock"
	wait "$lpid"
	[ $rc = 0 ] && [ ! -s "$tmp/err" ] && [ "$(cat "$tmp/log.got" 2>/dev/null)" = end ] \
		&& ok "--set on a fixture: nothing to syslog, no notice" \
		|| bad "--set on a fixture: rc $rc, err '$(cat "$tmp/err")', syslog got '$(cat "$tmp/log.got" 2>/dev/null)'"
	# No syslog and no --audit-log on a fixture: no notice either.
else
	echo "SKIP: --set on a fixture and syslog: no python3"
fi

# --help, the man page and the column table agree.
"$BIN" --help >"$tmp/help"; rc=$?
[ $rc = 0 ] && grep -q '^Usage: memcgtop' "$tmp/help" && ok "--help exits 0" || bad "--help"
[ "$("$BIN" -V)" = "memcgtop $(sed -n 's/^VERSION *:= *//p' Makefile)" ] && ok "-V prints the Makefile's version" \
	|| bad "-V: $("$BIN" -V)"
# -VV: the collector auto would take for the tree given, and why not bpf.
got=$("$BIN" -VV $V1)
[ "$got" = "memcgtop $(sed -n 's/^VERSION *:= *//p' Makefile)
collector: files (bpf: $FIX/v1-live/cg is a recording, not a mounted cgroup hierarchy)" ] &&
	ok "-VV on a recording: files, and why not bpf" || bad "-VV on a recording: '$got'"
got=$(MEMCGTOP_BPF_FAIL=btf "$BIN" -V -V)
[ "$(tail -n 1 <<<"$got")" = "collector: files (bpf: the kernel has no BTF (/sys/kernel/btf/vmlinux))" ] &&
	ok "-V -V without BTF (MEMCGTOP_BPF_FAIL=btf): files, and why" || bad "-V -V without BTF: '$got'"
if "$BIN" -b -F json -n 1 -d 0.05 -c usage,path $V1 | grep -q '"collector":"files"'; then
	ok "a recording's JSON says \"collector\":\"files\""
else
	bad "a recording's JSON lacks \"collector\":\"files\""
fi
for opt in $(grep -o -- '--[a-z-]*' "$tmp/help" | sort -u); do
	grep -q -- "${opt//-/\\\\-}" man/memcgtop.1 || { bad "man page lacks $opt"; continue; }
	ok "man page documents $opt"
done
for key in $("$BIN" --list-columns | awk '{print $1}'); do
	grep -q "^\.B ${key//_/_}\$" man/memcgtop.1 && ok "man page lists column $key" \
		|| bad "man page lacks column $key"
done
nman=$(awk '/^\.SH COLUMNS/{f=1;next} /^\.SH/{f=0} f && /^\.B /{n++} END{print n+0}' man/memcgtop.1)
ncol=$("$BIN" --list-columns | wc -l)
[ "$nman" = "$ncol" ] && ok "man page has exactly the $ncol columns" || bad "man page lists $nman columns, table has $ncol"

# The man page lists every key of the interactive screen's key table.
nkeys=0
while IFS= read -r line; do
	names=$(printf '%s' "${line:0:16}" | sed 's/ *$//')
	man=$(printf '%s' "$names" | sed 's/\\/\\e/g; s/-/\\-/g')
	nkeys=$((nkeys + 1))
	grep -qxF ".B $man" man/memcgtop.1 && ok "man page lists key '$names'" \
		|| bad "man page lacks key '$names' (.B $man)"
done < <("$BIN" --list-keys)
nman=$(awk '/^\.SS KEYS/{f=1;next} /^\.S[HS]/{f=0} f && /^\.B /{n++} END{print n+0}' man/memcgtop.1)
[ "$nman" = "$nkeys" ] && ok "man page has exactly the $nkeys key bindings" \
	|| bad "man page lists $nman keys, the key table has $nkeys"

# A settings line the interactive screen cannot use is a usage error naming
# the file and its line (the screen needs a terminal: script(1) gives one).
rc_line() {
	local want=$1 got rc
	mkdir -p "$tmp/xdg/memcgtop"
	printf '%b' "$2" >"$tmp/xdg/memcgtop/memcgtoprc"
	XDG_CONFIG_HOME=$tmp/xdg script -qec "$(printf '%q ' "$BIN" --root "$FIX/v1-live/cg" --proc "$FIX/v1-live/proc")" /dev/null \
		</dev/null >"$tmp/pty" 2>&1
	rc=$?
	got=$(tr -d '\r' <"$tmp/pty")
	if [ "$rc" = 2 ] && [ "$got" = "memcgtop: $tmp/xdg/memcgtop/memcgtoprc: $want" ]; then
		ok "settings error names the line: $want"
	else
		bad "settings error: exit $rc (want 2), '$got' (want '$want')"
	fi
}
if command -v script >/dev/null; then
	rc_line "line 4: sort: unknown column 'bogus'" '# c\ninterval = 1\n\nsort = -bogus\n'
	rc_line "line 2: columns: unknown set 'nope' (overview, memory, LRU, reclaim, events, limits, custom)" 'sort = usage\ncolumns = nope\n'
	rc_line "line 3: custom: unknown column 'zz' (memcgtop --list-columns shows them)" '\n\n  custom = usage,zz\n'
	printf 'x\n' >"$tmp/bad.theme"
	rc_line "line 2: theme: $tmp/bad.theme: line 1, column 1: unknown element (header, colhead, colsort, row, selected, tagged, near_limit, excess, reclaim, oom, status, error, help, dim)" "\ntheme = $tmp/bad.theme\n# x\n"
else
	echo "SKIP: script(1) missing: settings line numbers"
fi

# v1 swap is memsw - usage: none where the host has no swap, never more
# than SwapTotal; the v1 root's usage adds its kmem counter (the kernel
# memory of the whole hierarchy, which the kernel's root figure leaves out).
mkdir -p "$tmp/sw/c" "$tmp/swp0" "$tmp/swp4"
printf '%s\n' 104857600 >"$tmp/sw/memory.usage_in_bytes"
printf '%s\n' 108003328 >"$tmp/sw/memory.memsw.usage_in_bytes"
printf '%s\n' 31457280 >"$tmp/sw/memory.kmem.usage_in_bytes"
printf '%s\n' 125829120 >"$tmp/sw/c/memory.usage_in_bytes"
printf '%s\n' 131072000 >"$tmp/sw/c/memory.memsw.usage_in_bytes"
printf '%s\n' 20971520 >"$tmp/sw/c/memory.kmem.usage_in_bytes"
for d in "$tmp/sw" "$tmp/sw/c"; do echo 9223372036854771712 >"$d/memory.limit_in_bytes"; done
printf 'MemTotal: 1048576 kB\nMemAvailable: 524288 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n' >"$tmp/swp0/meminfo"
printf 'MemTotal: 1048576 kB\nMemAvailable: 524288 kB\nSwapTotal: 4096 kB\nSwapFree: 0 kB\n' >"$tmp/swp4/meminfo"
got=$("$BIN" --root "$tmp/sw" --proc "$tmp/swp0" -b -F csv -c path,usage,swap -o +path | tail -n +2 | cut -d, -f3- | tr -d '\r' | tr '\n' ' ')
[ "$got" = "/,136314880,0 /c,125829120,0 " ] && ok "v1: no swap where the host has none; root usage = usage + kmem" \
	|| bad "v1 swap with SwapTotal 0: got '$got'"
got=$("$BIN" --root "$tmp/sw" --proc "$tmp/swp4" -b -F csv -c path,swap -o +path | tail -n +2 | cut -d, -f3- | tr -d '\r' | tr '\n' ' ')
[ "$got" = "/,3145728 /c,4194304 " ] && ok "v1: swap is memsw - usage, at most SwapTotal" \
	|| bad "v1 swap with SwapTotal 4M: got '$got'"

# --flat prints every row's whole path, longer here (20 levels of "x", 40
# bytes) than four times the longest name ("fixture"), which once sized
# the room the names were escaped into: cut to 28 bytes.
fx=$tmp/flat
mkdir -p "$fx/proc" "$fx/cg/0" && cp -r tests/fixtures/v1-live/proc/0 "$fx/proc/" &&
	head -1 tests/fixtures/v1-live/cg/timestamps >"$fx/cg/timestamps" &&
	cp "$fx/cg/timestamps" "$fx/proc/timestamps" &&
	cp tests/fixtures/v1-live/cg/0/memory.* tests/fixtures/v1-live/cg/0/cgroup.procs "$fx/cg/0/"
d=$fx/cg/0 deep=
for _ in $(seq 20); do
	d=$d/x deep=$deep/x
	mkdir "$d" && cp tests/fixtures/v1-live/cg/0/fixture/memory.* "$d/"
done
got=$("$BIN" -b -n 1 --flat -c usage,path --root "$fx/cg" --proc "$fx/proc" 2>&1 |
	awk -v p="$deep" '$NF == p' | wc -l)
[ "$got" = 1 ] && ok "--flat: the 20-level path whole ($deep)" ||
	bad "--flat: no row ends with $deep: $("$BIN" -b -n 1 --flat -c usage,path --root "$fx/cg" --proc "$fx/proc" 2>&1 | tail -2)"

# The printers derive only what their columns and the sort show (the
# screen derives every value): a sort by a derived value no column shows
# still has it.  Without it every group ties and the rows come in path
# order; scan_prio puts /fixture/batch/cache (its own lists' largest,
# 8.2M of inactive file: priority 12) first, failcnt_tree puts
# /fixture/batch/hog (36) before /fixture/batch/deep (0).
for key in scan_prio failcnt_tree; do
	# shellcheck disable=SC2086
	shown=$("$BIN" -b -n 1 $V1 --flat -F csv -c path,$key -o $key 2>&1 | tail -n +2 | cut -d, -f3 | tr -d '\r' | tr '\n' ' ')
	# shellcheck disable=SC2086
	hidden=$("$BIN" -b -n 1 $V1 --flat -F csv -c path -o $key 2>&1 | tail -n +2 | cut -d, -f3 | tr -d '\r' | tr '\n' ' ')
	# shellcheck disable=SC2086
	bypath=$("$BIN" -b -n 1 $V1 --flat -F csv -c path -o +path 2>&1 | tail -n +2 | cut -d, -f3 | tr -d '\r' | tr '\n' ' ')
	case $key in
	scan_prio) lead="/fixture/batch/cache " ;;
	*) lead="/ /fixture /fixture/batch /fixture/batch/cache /fixture/batch/hog " ;;
	esac
	if [ "$hidden" = "$shown" ] && [ "$hidden" != "$bypath" ] && [ "${hidden#"$lead"}" != "$hidden" ]; then
		ok "-o $key without its column: the order it gives ($lead...)"
	else
		bad "-o $key without its column: '$hidden', with it '$shown', by path '$bypath'"
	fi
done

# The man page's node_exporter example is the command the shipped systemd
# unit runs (the one tests/prometheus/run.sh exercises): --output, never a
# shell redirection, and -F prometheus.
ex=$(grep -E '^\.B memcgtop .*node\\-exporter' man/memcgtop.1 | sed 's/^\.B //; s/\\-/-/g')
unit=$(sed -n 's|^ExecStart=/usr/bin/||p' contrib/memcgtop-textfile.service)
if [ -n "$ex" ] && [ "$ex" = "$unit" ]; then
	ok "man page node_exporter example is the unit's command"
else
	bad "man page node_exporter example '$ex' is not the unit's '$unit'"
fi
if grep -E '^\.B memcgtop .*>' man/memcgtop.1; then
	bad "a man page example redirects into a file"
else
	ok "no man page example redirects into a file"
fi

# -d is the least time between two samples: a batch stopped for 1 s in
# its second interval prints that interval long and the next one full, not
# short to catch up (the live host, as a recording keeps its own times).
# shellcheck disable=SC2086
"$BIN" --collector files --depth 0 -b -F json -n 3 -d 1 >"$tmp/iv" 2>"$tmp/iv.err" &
ivpid=$!
sleep 1.3
kill -STOP "$ivpid"
sleep 1
kill -CONT "$ivpid"
wait "$ivpid"
ivrc=$?
iv=$(grep -o '"interval_s":[0-9.]*' "$tmp/iv" | cut -d: -f2 | tr '\n' ' ')
if [ "$ivrc" = 0 ] && [ "$(echo $iv | wc -w)" = 3 ] && \
   python3 -c 'import sys; v=[float(x) for x in sys.argv[1:]]; sys.exit(min(v) < 0.999)' $iv; then
	ok "-d 1, stopped 1 s: every interval at least 1 s ($iv)"
else
	bad "-d 1, stopped 1 s: exit $ivrc, intervals '$iv' (want 3, each at least 1 s)"
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
