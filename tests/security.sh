#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# security.sh - what memcgtop writes, and what hostile files make it read.
# No root needed (as root, the same checks run; nothing of the host's
# cgroups is touched: every tree is a fixture copy in a temp dir).
#
# Usage:  tests/security.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout);
#             the hostile values also run under build/asan/memcgtop when
#             it exists
#
# 1. Static: every call in src/**/*.c that writes, creates, removes or
#    renames a file is in the allow-list of tests/hostile/writes.py
#    (file:function:call, each with why); cgfs_write is the only write of
#    a file below the hierarchy.
# 2. Hostile values in a v1 fixture (copies of tests/fixtures/edge-vanish):
#    2^64-1, 2^64, 2^64+1, -5, no newline, NUL bytes, 1 MiB of garbage in
#    memory.stat, a key repeated, sizes and counts out of range in
#    memory.stat, memory.oom_control and /proc/meminfo, memory.stat a FIFO (run under timeout 10),
#    memory.usage_in_bytes a symlink to /etc/passwd and to a valid number
#    outside the tree, cgroup.procs a character device (as root): exit 0,
#    nothing on stderr, each JSON value exactly as the man page and the
#    spec say.
# 3. --readonly: --set is a usage error (exit 2); on the screen e, u and
#    the setup screen's w write nothing; --audit-log creates no file.
# 4. No write outside a group's directory from any --set input: "..",
#    "/../", "a/../../etc", "//etc", 5000-byte paths, knob names that are
#    not in the table, a symlinked group folder: each refused, canary files
#    beside and above the fixture unchanged.  (A path holding a NUL cannot
#    be passed: argv strings end at the first NUL.)
# 5. The audit trail records writes the file system refuses (a directory
#    where the control file should be: EISDIR; a symlink: ELOOP) with the
#    successful one of the same run.
# 6. Files that are not regular files: -t FIFO and 'theme = FIFO' in the
#    settings are refused at once (exit 2), a recording whose info is a
#    FIFO replays.
# 7. Terminal escapes from every source but names (tests/live/names.sh and
#    hostile.sh have those): a recording's info root in batch text, JSON
#    and the screen's title (the raw bytes memcgtop wrote, via pipe-pane);
#    paths quoted in errors (--root, CGROUP, -VV, a recording's timestamps,
#    --output, --record); settings values quoted by the screen's start.
#    Each: the exact line with \xHH, no ESC, BEL or C1 byte, the exit code.
# 8. Settings and themes are the effective user's: a memcgtoprc, its
#    folder or a theme owned by another uid (as root: chowned to 65534)
#    or writable by group or others is refused with one line naming the
#    file and why (exit 2), and nothing of it is read; a theme's words are
#    never quoted (root's 'theme = /etc/shadow' shows no line of it); the
#    themes beside the program still load.
#
# PASS:/FAIL: lines, the last "security: N passed, M failed"; exit 1 on any
# failure.  The temp dir and the tmux server (private socket) are removed
# on exit.
set -u
LC_ALL=C.UTF-8
export LC_ALL
export TZ=UTC
unset TMUX TMUX_PANE

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
ASAN=$top/build/asan/memcgtop
[ -x "$ASAN" ] && [ "$ASAN" != "$MEMCGTOP" ] || ASAN=
TMPL=$top/tests/fixtures/edge-vanish/cg/0
t0=$(date +%s.%N)

. "$top/tests/count.sh"
summary() {
	echo "security: $npass passed, $nfail failed ($(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s", b - a }'))"
	[ "$nfail" -eq 0 ]
}

. "$top/tests/lib/tmux.sh"
. "$top/tests/lib/cleanup.sh"
tmux_private -u security
TMPD=
cleanup() { clean_up; }
trap_cleanup

abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}
for tool in python3 tmux timeout sha256sum; do
	command -v "$tool" >/dev/null 2>&1 || abort "$tool not installed"
done
[ -x "$MEMCGTOP" ] || abort "memcgtop binary $MEMCGTOP not found (run make)"
[ -d "$TMPL/a" ] || abort "fixture $TMPL missing"
TMPD=$(mktemp -d /tmp/memcgtop-security.XXXXXX) || abort "mktemp failed"

# newfix DIR: a v1 fixture tree at DIR: the root and /a (edge-vanish
# sample 0 without /a/b)
newfix() {
	mkdir -p "$1" && cp -r "$TMPL/." "$1/" && rm -rf "$1/a/b"
}
# treesum DIR: one checksum of every name, type, mode and content below DIR
treesum() {
	(cd "$1" && find . -printf '%p %y %m %l\n' | LC_ALL=C sort &&
		find . -type f -print0 | LC_ALL=C sort -z |
		xargs -0 -r sha256sum) | sha256sum | cut -c1-16
}

# ---- 1. static check of the write paths ----------------------------------------
python3 "$top/tests/hostile/writes.py" "$top/src" >"$TMPD/static.out" 2>&1 ||
	grep -q '^FAIL' "$TMPD/static.out" ||
	fail "static: writes.py failed: $(tail -n 3 "$TMPD/static.out")"
tally "$TMPD/static.out"

# ---- 2. hostile values ------------------------------------------------------------
V=$TMPD/values/root
newfix "$V" || abort "fixture copy"
mkg() { cp -r "$V/a" "$V/$1"; }
# mkv GROUP FILE PRINTF-FORMAT: a group whose FILE holds that text
mkv() { mkg "$1" && printf -- "$3" >"$V/$1/$2"; }
mkv u_max memory.usage_in_bytes '18446744073709551615\n'
mkv u_2p64 memory.usage_in_bytes '18446744073709551616\n'
mkv u_2p64p1 memory.usage_in_bytes '18446744073709551617\n'
mkv u_neg memory.usage_in_bytes '-5\n'
mkv u_nonl memory.usage_in_bytes '12345'
mkv u_nul memory.usage_in_bytes '123\0\n'
mkv u_nuls memory.usage_in_bytes '\0\0\0\0'
mkv u_nulfirst memory.usage_in_bytes '\0123\n'
mkv u_plus memory.usage_in_bytes '+5\n'
mkv u_hex memory.usage_in_bytes '0x10\n'
mkv u_space memory.usage_in_bytes ' 5\n'
mkv u_two memory.usage_in_bytes '5\n6\n'
mkv l_max memory.limit_in_bytes '18446744073709551615\n'
mkv l_2p64 memory.limit_in_bytes '18446744073709551616\n'
mkv st_repeat memory.stat 'total_rss 100\ntotal_rss 200\ntotal_cache 7\ntotal_cache 8\n'
mkv st_nonl memory.stat 'total_rss 100\ntotal_cache 7'
mkv st_huge memory.stat 'total_rss 18446744073709551616\ntotal_cache 18446744073709551615\n'
mkv st_v1max memory.stat 'total_rss 9223372036854771712\ntotal_cache 7\n'
mkv st_repeat_huge memory.stat 'total_rss 18446744073709551615\ntotal_rss 100\n'
mkv oom_huge memory.oom_control 'oom_kill_disable 0\nunder_oom 0\noom_kill 18446744073709551615\n'
mkg st_garbage
python3 -c '
import random, sys
random.seed(1)
open(sys.argv[1], "wb").write(bytes(random.getrandbits(8) for _ in range(1 << 20)))
' "$V/st_garbage/memory.stat"
mkg st_garbage_after
{ printf 'total_rss 4096\ntotal_cache 8192\n'; head -c 1048576 "$V/st_garbage/memory.stat"; } \
	>"$V/st_garbage_after/memory.stat"
mkg st_fifo
rm -f "$V/st_fifo/memory.stat" && mkfifo "$V/st_fifo/memory.stat" ||
	abort "mkfifo"
mkg u_lnk_passwd
ln -sf /etc/passwd "$V/u_lnk_passwd/memory.usage_in_bytes"
mkg u_lnk_num
printf '4096\n' >"$TMPD/values/outside-number"
ln -sf "$TMPD/values/outside-number" "$V/u_lnk_num/memory.usage_in_bytes"
mkg st_lnk
ln -sf "$V/a/memory.stat" "$V/st_lnk/memory.stat"
mkg u_dir
rm -f "$V/u_dir/memory.usage_in_bytes" && mkdir "$V/u_dir/memory.usage_in_bytes"
# cgroup.procs a character device (/dev/zero's numbers; mknod needs root):
# its reads never end.
CHR=0
if [ "$(id -u)" = 0 ]; then
	mkg procs_chr
	rm -f "$V/procs_chr/cgroup.procs" &&
		mknod "$V/procs_chr/cgroup.procs" c 1 5 || abort "mknod"
	CHR=1
else
	echo "SKIP: values: cgroup.procs a character device (mknod needs root)"
fi

cat >"$TMPD/values.py" <<'PYEOF'
import json, os, sys
outp, errp, rcp, label = sys.argv[1:5]
rc = int(open(rcp).read())
err = open(errp, "rb").read()
npass = nfail = 0
def out(ok, msg):
    global npass, nfail
    print(("PASS: " if ok else "FAIL: ") + label + ": " + msg)
    if ok: npass += 1
    else: nfail += 1
out(rc == 0, "exit 0 (got %d%s)" % (rc, ", timed out: a FIFO hangs it?" if rc == 124 else ""))
out(err == b"", "stderr empty (got %r)" % err[:600])
try:
    doc = json.loads(open(outp).read())
except ValueError as e:
    out(False, "JSON parses: %s" % e)
    sys.exit(1)
g = {x["path"]: x for x in doc["groups"]}
A_RSS, A_CACHE, A_USAGE, A_LIMIT = 262144000, 52428800, 314572800, 536870912
# (group, key, expected, why)
EXP = [
    ("/a", "usage", A_USAGE, "the control group"),
    ("/u_max", "usage", None, "2^64-1 in a usage file: only limits can be unlimited (UNLIMITED)"),
    ("/u_2p64", "usage", None, "2^64: beyond 2^64 is not available"),
    ("/u_2p64p1", "usage", None, "2^64+1: not available"),
    ("/u_neg", "usage", None, "-5: not a decimal number"),
    ("/u_nonl", "usage", None, "'12345' without newline: cut short before its newline (FILES)"),
    ("/u_nul", "usage", None, "'123\\0\\n': NUL byte"),
    ("/u_nuls", "usage", None, "four NULs"),
    ("/u_nulfirst", "usage", None, "'\\0123\\n'"),
    ("/u_plus", "usage", None, "'+5'"),
    ("/u_hex", "usage", None, "'0x10'"),
    ("/u_space", "usage", None, "' 5': not a decimal number"),
    ("/u_two", "usage", None, "'5\\n6\\n': two values"),
    ("/l_max", "limit", "max", "limit 2^64-1: max"),
    ("/l_2p64", "limit", None, "limit 2^64: not available"),
    ("/l_2p64", "usage", A_USAGE, "the other files of that group still read"),
    ("/st_repeat", "anon", 100, "total_rss repeated: the first counts"),
    ("/st_repeat", "file", 7, "total_cache repeated: the first counts"),
    ("/st_nonl", "anon", 100, "memory.stat: lines before the cut are read"),
    ("/st_nonl", "file", None, "memory.stat: the last line without newline is ignored"),
    ("/st_huge", "anon", None, "memory.stat value 2^64: not available"),
    ("/st_huge", "file", None, "memory.stat value 2^64-1: out of range, as in a usage file (UNLIMITED)"),
    ("/st_v1max", "anon", None, "memory.stat value 9223372036854771712 (v1's no limit): out of range"),
    ("/st_v1max", "file", 7, "the other keys of that memory.stat still read"),
    ("/st_repeat_huge", "anon", None, "total_rss 2^64-1 then 100: the first counts, out of range"),
    ("/oom_huge", "ev_oom_kill", None, "memory.oom_control oom_kill 2^64-1: out of range"),
    ("/st_garbage", "anon", None, "1 MiB of random bytes: no key"),
    ("/st_garbage", "usage", A_USAGE, "usage still read"),
    ("/st_garbage_after", "anon", 4096, "valid keys before 1 MiB of garbage"),
    ("/st_garbage_after", "file", 8192, "valid keys before 1 MiB of garbage"),
    ("/st_fifo", "anon", None, "memory.stat a FIFO: not available, no hang"),
    ("/st_fifo", "usage", A_USAGE, "usage still read"),
    ("/u_lnk_passwd", "usage", None, "symlink to /etc/passwd: not followed (O_NOFOLLOW)"),
    ("/u_lnk_num", "usage", None, "symlink to a valid number outside the tree: not followed"),
    ("/st_lnk", "anon", None, "memory.stat a symlink to another group's: not followed"),
    ("/u_dir", "usage", None, "memory.usage_in_bytes a directory"),
]
if os.environ.get("CHR") == "1":
    EXP += [
        ("/a", "procs", 1, "cgroup.procs of the control group"),
        ("/procs_chr", "procs", None, "cgroup.procs a character device (/dev/zero): not a regular file, not read"),
        ("/procs_chr", "usage", A_USAGE, "usage still read"),
    ]
for path, key, want, why in EXP:
    got = g.get(path, {}).get(key, "<no such row>")
    # JSON integers: compare exactly, a float would differ in type
    ok = got == want and type(got) == type(want)
    out(ok, "%s %s = %s: %s%s" % (path, key, json.dumps(want), why,
        "" if ok else " (got %s)" % json.dumps(got)))
sys.exit(1 if nfail else 0)
PYEOF

for bin in "$MEMCGTOP" ${ASAN:+"$ASAN"}; do
	lab=values
	[ "$bin" = "$ASAN" ] && lab="values (ASan+UBSan)"
	timeout 10 "$bin" -b -n 1 -d 0.1 -F json --root "$V" \
		>"$TMPD/values.out" 2>"$TMPD/values.err" </dev/null
	echo $? >"$TMPD/values.rc"
	CHR=$CHR python3 "$TMPD/values.py" "$TMPD/values.out" "$TMPD/values.err" \
		"$TMPD/values.rc" "$lab" >"$TMPD/values.chk" 2>&1
	tally "$TMPD/values.chk"
	# the other formats and the screen-free text on the same tree
	for fmt in text csv openmetrics; do
		timeout 10 "$bin" -b -n 1 -d 0.1 -F "$fmt" --root "$V" \
			>/dev/null 2>"$TMPD/values.err" </dev/null
		rc=$?
		if [ "$rc" = 0 ] && [ ! -s "$TMPD/values.err" ]; then
			pass "$lab: -F $fmt exits 0, stderr empty"
		else
			fail "$lab: -F $fmt: exit $rc, stderr: $(head -c 600 "$TMPD/values.err")"
		fi
	done
done

# The system figures follow the same rule: a size out of range is none.
mkdir -p "$TMPD/values/proc"
printf 'MemTotal:       18014398509481983 kB\nMemAvailable:       1000 kB\n' \
	>"$TMPD/values/proc/meminfo"
printf 'pgscan_kswapd 18446744073709551615\npgscan_direct 0\npgsteal_kswapd 0\npgsteal_direct 0\n' \
	>"$TMPD/values/proc/vmstat"
timeout 10 "$MEMCGTOP" -b -n 2 -d 0.05 -F json --root "$V" --proc "$TMPD/values/proc" -c usage \
	>"$TMPD/values.out" 2>"$TMPD/values.err" </dev/null
rc=$?
got=$(python3 -c 'import json, sys; d = json.loads(open(sys.argv[1]).read().splitlines()[1])["system"]; print(d["mem_total"], d["mem_available"], d["pgscan_per_s"])' "$TMPD/values.out" 2>&1)
if [ "$rc" = 0 ] && [ "$got" = "None 1024000 None" ]; then
	pass "values: /proc/meminfo MemTotal of 2^54-1 kB (2^64-1024 bytes) and vmstat pgscan_kswapd 2^64-1: out of range, null; MemAvailable 1000 kB read"
else
	fail "values: meminfo, vmstat out of range: exit $rc, mem_total mem_available pgscan_per_s: $got"
fi

# ---- 3. --readonly ------------------------------------------------------------------
R=$TMPD/ro/root
newfix "$R" || abort "fixture copy"
before=$(treesum "$TMPD/ro")
"$MEMCGTOP" --root "$R" --readonly --set /a:limit=100M >"$TMPD/ro.out" 2>"$TMPD/ro.err"
rc=$?
if [ "$rc" = 2 ] && [ ! -s "$TMPD/ro.out" ] && [ "$(treesum "$TMPD/ro")" = "$before" ]; then
	pass "--readonly --set: exit 2, nothing written ($(cat "$TMPD/ro.err"))"
else
	fail "--readonly --set: exit $rc (expected 2), stdout '$(cat "$TMPD/ro.out")', tree $( [ "$(treesum "$TMPD/ro")" = "$before" ] && echo unchanged || echo CHANGED)"
fi
"$MEMCGTOP" --readonly --set /a:limit=100M --root "$R" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] && pass "--set before --readonly: exit 2 too" ||
	fail "--set before --readonly: exit $rc, expected 2"
"$MEMCGTOP" --root "$R" --readonly -b -n 1 -d 0.1 --audit-log "$TMPD/ro-audit.log" \
	>/dev/null 2>&1
if [ ! -e "$TMPD/ro-audit.log" ]; then
	pass "--readonly -b --audit-log FILE: FILE not created (nothing can be changed)"
else
	fail "--readonly -b --audit-log FILE: memcgtop created FILE ($(stat -c '%s bytes, mode %a' "$TMPD/ro-audit.log")) although --readonly never writes and nothing can be audited"
fi

SCREEN=
mkdir -p "$TMPD/cfg" "$TMPD/home"
cmd="env LANG=C.UTF-8 XDG_CONFIG_HOME=$TMPD/cfg HOME=$TMPD/home $(printf '%q ' "$MEMCGTOP" --readonly -d 0.3 --root "$R" --audit-log "$TMPD/ro-tui-audit.log"); echo EXIT=\$?; exec sleep 600"
tm new-session -d -s ro -x 120 -y 30 "bash --norc --noprofile -c $(printf %q "$cmd")"
if wait_text ro "Groups: 2 shown" 10; then
	tm send-keys -t ro End
	tm send-keys -t ro e
	if wait_text ro "editing is disabled: --readonly" 5; then
		pass "--readonly screen: e says 'editing is disabled: --readonly'"
	else
		fail "--readonly screen: e does not say why editing is disabled: $(tail -n 1 <<<"$SCREEN")"
	fi
	# whatever e might have opened: a value and y would apply it
	tm send-keys -t ro Enter
	tm send-keys -t ro -l 1M
	tm send-keys -t ro Enter y
	sleep 0.5
	tm send-keys -t ro Escape Escape u
	sleep 0.3
	tm send-keys -t ro y
	sleep 0.3
	if [ "$(treesum "$TMPD/ro")" = "$before" ]; then
		pass "--readonly screen: e, Enter, 1M, Enter, y and u change no file of the tree"
	else
		fail "--readonly screen: the fixture tree changed after e/u"
	fi
	tm send-keys -t ro Escape S
	sleep 0.3
	tm send-keys -t ro w
	sleep 0.5
	wait_text ro "settings" 3
	if [ ! -e "$TMPD/cfg/memcgtop/memcgtoprc" ] && [ ! -e "$TMPD/cfg/memcgtop" ]; then
		pass "--readonly screen: the setup screen's w writes no memcgtoprc"
	else
		fail "--readonly screen: the setup screen's w wrote $(find "$TMPD/cfg" -type f) ('$(tail -n 1 <<<"$SCREEN")') although --readonly is 'never write'"
	fi
	tm send-keys -t ro Escape q
	if wait_text ro "EXIT=0" 10; then
		pass "--readonly screen: q quits, exit 0"
	else
		fail "--readonly screen: no EXIT=0 after q"
	fi
	if [ ! -e "$TMPD/ro-tui-audit.log" ]; then
		pass "--readonly screen --audit-log FILE: FILE not created"
	else
		fail "--readonly screen --audit-log FILE: memcgtop created FILE although --readonly never writes"
	fi
else
	fail "--readonly screen: never showed 'Groups: 2 shown'"
	printf '%s\n' "$SCREEN" | sed 's/^/    |/'
fi
tm kill-session -t ro 2>/dev/null

# ---- 4. no write outside the group's directory ---------------------------------------
# $TMPD/t/root is the hierarchy; canaries beside it and above it hold a
# control file each, the place a climbing path would write to.
T=$TMPD/t
newfix "$T/root" || abort "fixture copy"
mkdir -p "$T/etc" "$TMPD/outside"
for d in "$T" "$T/etc" "$TMPD/outside"; do
	for f in memory.limit_in_bytes memory.soft_limit_in_bytes memory.max memory.swappiness x; do
		printf '4242\n' >"$d/$f"
	done
done
printf 'canary\n' >"$TMPD/outside/passwd"
ln -s "$TMPD/outside" "$T/root/evil"          # a symlinked "group"
ln -s ../etc "$T/root/a/up"                   # a symlink inside a group
canary() { printf '%s %s' "$(treesum "$T")" "$(treesum "$TMPD/outside")"; }
long1=/$(head -c 5000 /dev/zero | tr '\0' a)
long2=/$(for _ in $(seq 2500); do printf a/; done)
long3=/a$(for _ in $(seq 1700); do printf /..; done)/etc
# setcase WANT-RC SPEC WHY: --set SPEC must exit WANT-RC (1|2, or "12":
# either) and change nothing at all
setcase() {
	local want=$1 spec=$2 why=$3 b a rc na
	b=$(canary)
	na=$(cat "$TMPD/t-audit.log" 2>/dev/null | wc -l)
	"$MEMCGTOP" --root "$T/root" --set "$spec" --audit-log "$TMPD/t-audit.log" \
		>"$TMPD/set.out" 2>"$TMPD/set.err" </dev/null
	rc=$?
	a=$(canary)
	[ "$(cat "$TMPD/t-audit.log" 2>/dev/null | wc -l)" = "$na" ] || a="$a audit"
	local shown=${spec:0:60}
	[ ${#spec} -gt 60 ] && shown="$shown... (${#spec} bytes)"
	if [[ $want == *$rc* ]] && [ "$rc" != 0 ] && [ "$a" = "$b" ] &&
		[ ! -s "$TMPD/set.out" ] && [ "$(wc -l <"$TMPD/set.err")" = 1 ]; then
		pass "--set '$shown' ($why): refused with exit $rc, nothing written inside or outside the tree, no audit line, one error line"
	else
		fail "--set '$shown' ($why): exit $rc (want $want), tree/canaries/audit log $([ "$a" = "$b" ] && echo unchanged || echo CHANGED), stdout '$(head -c 200 "$TMPD/set.out")', stderr ($(wc -l <"$TMPD/set.err") lines; the man page: one line) '$(head -c 300 "$TMPD/set.err")'"
	fi
}
setcase 2 "/..:limit=1M" "the root's parent"
setcase 2 "/../etc:limit=1M" "/../"
setcase 2 "/a/../../etc:limit=1M" "a/../../etc"
setcase 2 "/a/..:limit=1M" "a/.."
setcase 2 "a/../..:limit=1M" "relative a/../.."
setcase 2 "/./a/.:limit=1M" "'.' components"
setcase 2 "$long3:limit=1M" "a/../.. x1700 (over 5000 bytes)"
setcase 1 "//etc:limit=1M" "absolute-looking //etc: no such group below the root"
setcase 1 "//evil:limit=1M" "a symlinked group folder: not followed"
setcase 1 "/evil:soft=1M" "a symlinked group folder: not followed"
setcase 1 "/a/up:limit=1M" "a symlink inside a group: not followed"
setcase 12 "$long1:limit=1M" "one 5000-byte component"
setcase 12 "$long2:limit=1M" "5000 bytes of a/a/a/..."
setcase 2 "/a:limit/../../x=1M" "knob limit/../../x"
setcase 2 "/a:../memory.max=1M" "knob ../memory.max"
setcase 2 "/a:../../etc/passwd=1" "knob ../../etc/passwd"
setcase 2 "/a:memory.limit_in_bytes=1M" "a file name, not a knob"
setcase 2 "/a:/memory.limit_in_bytes=1M" "knob /memory.limit_in_bytes"
setcase 2 "/a:max=1M" "v2's alias max on v1"
setcase 2 "/a:high=1M" "a v2 knob on v1"
setcase 2 "/a:limit=1M/../x" "value 1M/../x"
setcase 2 "/a:limit=1M"$'\n'"-1" "a newline in the value"
setcase 2 "/a:swappiness=60"$'\n'"0" "a newline in a swappiness value"
setcase 2 "/a:limit=$(head -c 300 /dev/zero | tr '\0' 9)" "a 300-digit value"
setcase 2 ":limit=1M" "an empty PATH (an unset shell variable) must not mean the root"
setcase 2 "/a:limit" "no '='"
# A NUL in PATH cannot be tested: execve() passes C strings, so argv ends
# the argument at the first NUL and memcgtop never sees the rest.
b=$(canary)
"$MEMCGTOP" -b -n 1 -d 0.1 --root "$T/root" /.. >/dev/null 2>"$TMPD/cg.err"
rc=$?
[ "$rc" = 2 ] && [ "$(canary)" = "$b" ] &&
	pass "CGROUP argument /..: exit 2 ($(cat "$TMPD/cg.err"))" ||
	fail "CGROUP argument /..: exit $rc, expected 2"
"$MEMCGTOP" -b -n 1 -d 0.1 --root "$T/root" /evil >/dev/null 2>"$TMPD/cg.err"
rc=$?
[ "$rc" = 1 ] && pass "CGROUP argument /evil (a symlink): exit 1, not followed" ||
	fail "CGROUP argument /evil (a symlink to a folder outside): exit $rc, expected 1 (no such group)"
# a valid write still works in this tree (the refusals are not blanket)
"$MEMCGTOP" --root "$T/root" --set /a:limit=100M --audit-log "$TMPD/t-audit.log" \
	>/dev/null 2>&1
rc=$?
v=$(cat "$T/root/a/memory.limit_in_bytes")
[ "$rc" = 0 ] && [ "$v" = 104857600 ] &&
	pass "--set /a:limit=100M in the same tree: exit 0, written (104857600)" ||
	fail "--set /a:limit=100M: exit $rc, file holds $v"
l=$(tail -n 1 "$TMPD/t-audit.log" 2>/dev/null)
[ "$l" = "uid=$(id -u) group=/a file=memory.limit_in_bytes old=536870912 new=104857600 result=ok now=104857600 fixture=yes" ] &&
	pass "the valid --set left its audit line: $l" ||
	fail "the valid --set's audit line is missing or differs: '$l'"

# ---- 5. the audit trail records refused writes ------------------------------------
U=$TMPD/aud/root
newfix "$U" || abort "fixture copy"
rm -f "$U/a/memory.soft_limit_in_bytes" && mkdir "$U/a/memory.soft_limit_in_bytes"
printf '4242\n' >"$TMPD/aud/target"
rm -f "$U/a/memory.swappiness" && ln -s "$TMPD/aud/target" "$U/a/memory.swappiness"
AUD=$TMPD/aud/audit.log
"$MEMCGTOP" --root "$U" --set /a:limit=200M --set /a:soft=1M --set /a:swappiness=10 \
	--audit-log "$AUD" >"$TMPD/aud.out" 2>"$TMPD/aud.err"
rc=$?
[ "$rc" = 1 ] && pass "audit: one write done, two refused by the file system: exit 1" ||
	fail "audit: exit $rc, expected 1 (stderr: $(cat "$TMPD/aud.err"))"
uid=$(id -u)
exp="uid=$uid group=/a file=memory.limit_in_bytes old=536870912 new=209715200 result=ok now=209715200 fixture=yes
uid=$uid group=/a file=memory.soft_limit_in_bytes old=- new=1048576 result=EISDIR now=- fixture=yes
uid=$uid group=/a file=memory.swappiness old=- new=10 result=ELOOP now=- fixture=yes"
got=$(cat "$AUD" 2>/dev/null)
if [ "$got" = "$exp" ]; then
	pass "audit: the log has the done write and both refusals, result=EISDIR and result=ELOOP"
else
	fail "audit: log differs"$'\n'"  expected: $exp"$'\n'"  got:      $got"
fi
[ "$(cat "$TMPD/aud/target")" = 4242 ] &&
	pass "audit: the symlink's target outside the tree is unchanged" ||
	fail "audit: the symlink's target was written: $(cat "$TMPD/aud/target")"
m=$(stat -c %a "$AUD" 2>/dev/null)
[ "$m" = 600 ] && pass "audit: --audit-log file mode 0600" ||
	fail "audit: --audit-log file mode $m, expected 600"
# the audit log itself is not followed through a symlink
ln -s "$TMPD/aud/target" "$TMPD/aud/audit-link"
"$MEMCGTOP" --root "$U" --set /a:limit=300M --audit-log "$TMPD/aud/audit-link" \
	>/dev/null 2>"$TMPD/aud.err"
rc=$?
v=$(cat "$U/a/memory.limit_in_bytes")
if [ "$rc" = 1 ] && [ "$(cat "$TMPD/aud/target")" = 4242 ] && [ "$v" = 209715200 ]; then
	pass "audit: --audit-log a symlink: refused before any write (exit 1), the link's target unchanged"
else
	fail "audit: --audit-log a symlink: exit $rc, target '$(cat "$TMPD/aud/target")', limit now $v (expected exit 1, 4242, 209715200)"
fi

# ---- a planted symlink: not followed, and the screen says why ---------------
if command -v tmux >/dev/null 2>&1; then
	cp -r "$top/tests/fixtures/edge-vanish/cg/0" "$TMPD/sl"
	echo 5 >"$TMPD/sl-outside"
	rm "$TMPD/sl/a/memory.limit_in_bytes"
	ln -s "$TMPD/sl-outside" "$TMPD/sl/a/memory.limit_in_bytes"
	tm new-session -d -s sl -x 100 -y 60 \
		"env TERM=tmux-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$TMPD/cfg '$MEMCGTOP' --root '$TMPD/sl' -d 60; sleep 60"
	sl_screen=
	for _ in $(seq 1 50); do
		sl_screen=$(tm capture-pane -p -t sl 2>/dev/null)
		grep -q ' a$' <<<"$sl_screen" && break
		sleep 0.1
	done
	tm send-keys -t sl / a Enter d
	for _ in $(seq 1 50); do
		sl_screen=$(tm capture-pane -p -t sl 2>/dev/null)
		grep -q '^memory.limit_in_bytes ' <<<"$sl_screen" && break
		sleep 0.1
	done
	if grep -qx 'memory.limit_in_bytes    not available: Too many levels of symbolic links' <<<"$sl_screen" &&
	   [ "$(cat "$TMPD/sl-outside")" = 5 ]; then
		pass "symlink: the detail pane says why the planted memory.limit_in_bytes is not available (not followed)"
	else
		fail "symlink: the detail pane does not name the link: $(grep -n limit_in_bytes <<<"$sl_screen")"
	fi
	tm kill-session -t sl 2>/dev/null
else
	fail "symlink: tmux not installed"
fi

# ---- 6. files that are not regular files ----------------------------------------
# A FIFO is opened without waiting for a writer and not read; each run is
# under timeout 10 (exit 124: it hung).
mkfifo "$TMPD/fifo.theme" || abort "mkfifo"
timeout 10 "$MEMCGTOP" -b -n 1 -t "$TMPD/fifo.theme" --root "$TMPD/values/root" \
	>/dev/null 2>"$TMPD/nr.err" </dev/null
rc=$?
if [ "$rc" = 2 ] && [ "$(cat "$TMPD/nr.err")" = "memcgtop: -t: $TMPD/fifo.theme: not a regular file" ]; then
	pass "non-regular: -t FIFO: exit 2, 'not a regular file'"
else
	fail "non-regular: -t FIFO: exit $rc (want 2), stderr '$(head -c 300 "$TMPD/nr.err")'"
fi
mkdir -p "$TMPD/nrcfg/memcgtop"
echo "theme = $TMPD/fifo.theme" >"$TMPD/nrcfg/memcgtop/memcgtoprc"
out=$(XDG_CONFIG_HOME=$TMPD/nrcfg timeout 10 script -qec \
	"$(printf %q "$MEMCGTOP") --root $(printf %q "$TMPD/values/root") 2>&1; echo EXIT=\$?" /dev/null </dev/null | tr -d '\r')
if [ "$out" = "memcgtop: $TMPD/nrcfg/memcgtop/memcgtoprc: line 1: theme: $TMPD/fifo.theme: not a regular file
EXIT=2" ]; then
	pass "non-regular: settings 'theme = FIFO': exit 2, 'not a regular file'"
else
	fail "non-regular: settings 'theme = FIFO': got '$(head -c 300 <<<"$out")'"
fi
# A recording whose info is a FIFO replays, showing what it has without
# it: the recording's own folder as root.
timeout 10 "$MEMCGTOP" -b -n 2 -d 0.1 --root "$TMPD/values/root" --record "$TMPD/rec" \
	>/dev/null 2>"$TMPD/nr.err" </dev/null || abort "--record: $(head -c 300 "$TMPD/nr.err")"
rm -f "$TMPD/rec/info" && mkfifo "$TMPD/rec/info" || abort "mkfifo info"
timeout 10 "$MEMCGTOP" -b -n 2 -d 0.05 --root "$TMPD/rec" -c usage \
	>"$TMPD/nr.out" 2>"$TMPD/nr.err" </dev/null
rc=$?
if [ "$rc" = 0 ] && [ ! -s "$TMPD/nr.err" ] &&
   grep -qx "Hierarchy: v1 (memcg v1) $TMPD/rec" "$TMPD/nr.out" &&
   [ "$(grep -c '^memcgtop - .* iteration [12] ' "$TMPD/nr.out")" = 2 ]; then
	pass "non-regular: a recording whose info is a FIFO replays both samples"
else
	fail "non-regular: recording with info a FIFO: exit $rc, stderr '$(head -c 300 "$TMPD/nr.err")', $(grep -c '^memcgtop - ' "$TMPD/nr.out") samples"
fi

# ---- 7. terminal escapes from every source ----------------------------------------
ESC=$'\033'
BEL=$'\007'
C1=$'\302\233'
# rawfree FILE: no ESC, BEL or C1 CSI byte in FILE
rawfree() { ! grep -q "[$ESC$BEL]" "$1" && ! grep -qF "$C1" "$1"; }
# expect_err DESC RC WANT CMD...: CMD exits RC with exactly the line WANT on
# stderr, nothing on stdout
expect_err() {
	local desc=$1 want_rc=$2 want=$3 rc
	shift 3
	timeout 10 "$@" >"$TMPD/e.out" 2>"$TMPD/e.err" </dev/null
	rc=$?
	if [ "$rc" = "$want_rc" ] && [ "$(cat "$TMPD/e.err")" = "$want" ] &&
	   [ ! -s "$TMPD/e.out" ] && rawfree "$TMPD/e.err"; then
		pass "$desc: exit $rc, '$want'"
	else
		fail "$desc: exit $rc (want $want_rc), stderr $(od -c "$TMPD/e.err" | head -c 400) (want '$want')"
	fi
}
F=$TMPD/values/root
timeout 10 "$MEMCGTOP" -b -n 2 -d 0.05 --root "$top/tests/fixtures/edge-vanish/cg/0" \
	--record "$TMPD/erec" >/dev/null 2>"$TMPD/e.err" </dev/null ||
	abort "--record for the escapes: $(head -c 300 "$TMPD/e.err")"
printf 'format memcgtop-recording 1\nmode v1\nroot /x\033[2J\033]0;TITLE\007%s\n' "$C1" \
	>"$TMPD/erec/info"
timeout 10 "$MEMCGTOP" -b -n 1 --root "$TMPD/erec" -c usage >"$TMPD/e.out" 2>"$TMPD/e.err" </dev/null
rc=$?
if [ "$rc" = 0 ] && [ ! -s "$TMPD/e.err" ] && rawfree "$TMPD/e.out" &&
   [ "$(sed -n 2p "$TMPD/e.out")" = 'Hierarchy: v1 (memcg v1) /x\x1B[2J\x1B]0;TITLE\x07\xC2\x9B' ]; then
	pass "escapes: a recording's info root in batch text: 'Hierarchy: v1 (memcg v1) /x\\x1B[2J\\x1B]0;TITLE\\x07\\xC2\\x9B', no raw byte"
else
	fail "escapes: a recording's info root in batch text: exit $rc, line 2 $(sed -n 2p "$TMPD/e.out" | od -c | head -c 300)"
fi
timeout 10 "$MEMCGTOP" -b -n 1 -F json --root "$TMPD/erec" -c usage >"$TMPD/e.out" 2>"$TMPD/e.err" </dev/null
rc=$?
if [ "$rc" = 0 ] && grep -qF '"root":"/x\\x1B[2J\\x1B]0;TITLE\\x07\\xC2\\x9B",' "$TMPD/e.out" &&
   rawfree "$TMPD/e.out"; then
	pass "escapes: a recording's info root in JSON: \"/x\\\\x1B[2J\\\\x1B]0;TITLE\\\\x07\\\\xC2\\\\x9B\""
else
	fail "escapes: a recording's info root in JSON: exit $rc, $(grep -o '"root":"[^"]*"' "$TMPD/e.out" | od -c | head -c 300)"
fi
if command -v tmux >/dev/null 2>&1; then
	: >"$TMPD/e.raw"
	cmd="while [ ! -e $TMPD/e.go ]; do sleep 0.05; done; env LANG=C.UTF-8 XDG_CONFIG_HOME=$TMPD/cfg HOME=$TMPD/home $(printf '%q ' "$MEMCGTOP" -d 0.5 --root "$TMPD/erec"); echo EXIT=\$?; exec sleep 600"
	tm new-session -d -s esc -x 160 -y 30 "bash --norc --noprofile -c $(printf %q "$cmd")"
	tm pipe-pane -o -t esc "cat >> $(printf %q "$TMPD/e.raw")"
	touch "$TMPD/e.go"
	if wait_text esc 'v1 files /x\x1B[2J\x1B]0;TITLE\x07\xC2\x9B ' 10; then
		tm send-keys -t esc q
		wait_text esc EXIT=0 5
		# (curses writes escapes of its own: look for the info's)
		if python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); sys.exit(b"\x1b]0;TITLE" in d or b"/x\x1b[2J" in d or b"\xc2\x9b" in d or b"\x07\xc2" in d)' "$TMPD/e.raw"; then
			pass "escapes: a recording's info root in the screen's title: shown as /x\\x1B[2J\\x1B]0;TITLE\\x07\\xC2\\x9B, no OSC, BEL or C1 written"
		else
			fail "escapes: the screen wrote the info root's bytes raw: $(grep -ao "x.\{0,12\}TITLE.\{0,4\}" "$TMPD/e.raw" | od -c | head -c 300)"
		fi
	else
		fail "escapes: the screen's title does not show the info root escaped: $(head -n 1 <<<"$SCREEN" | od -c | head -c 400)"
	fi
	tm kill-session -t esc 2>/dev/null
else
	fail "escapes: tmux not installed"
fi
expect_err "escapes: --root with control bytes" 1 \
	'memcgtop: /nonexistent\x1B[2J\x1B]0;T\x07: No such file or directory' \
	"$MEMCGTOP" -b --root "/nonexistent$ESC[2J$ESC]0;T$BEL"
expect_err "escapes: a CGROUP with control bytes" 1 \
	"memcgtop: /no\\x1B]0;T\\x07such: no such group under $F: No such file or directory" \
	"$MEMCGTOP" -b --root "$F" "/no$ESC]0;T${BEL}such"
timeout 10 "$MEMCGTOP" -VV --root "/nonexistent$ESC[2J" >"$TMPD/e.out" 2>"$TMPD/e.err" </dev/null
rc=$?
if [ "$rc" = 1 ] && [ "$(sed -n 2p "$TMPD/e.out")" = 'collector: none (/nonexistent\x1B[2J: No such file or directory)' ] &&
   rawfree "$TMPD/e.out"; then
	pass "escapes: -VV names a --root with control bytes escaped"
else
	fail "escapes: -VV: exit $rc, $(od -c "$TMPD/e.out" | head -c 300)"
fi
mkdir -p "$TMPD/r$ESC[2J" && printf 'x\n' >"$TMPD/r$ESC[2J/timestamps" || abort "mkdir r ESC"
expect_err "escapes: a recording's path in a timestamps error" 1 \
	"memcgtop: $TMPD/r\\x1B[2J/timestamps: line 1: expected a monotonic time in seconds, increasing" \
	"$MEMCGTOP" -b --root "$TMPD/r$ESC[2J"
expect_err "escapes: --output FILE with control bytes" 2 \
	"memcgtop: --output $TMPD/none/o\\x1B[2J: No such file or directory" \
	"$MEMCGTOP" -b -n 1 --output "$TMPD/none/o$ESC[2J" --root "$F"
expect_err "escapes: --record DIR with control bytes" 1 \
	"memcgtop: --record $TMPD/none/r\\x1B[2J: No such file or directory" \
	"$MEMCGTOP" -b -n 1 --record "$TMPD/none/r$ESC[2J" --root "$F"
# settings values quoted when the screen starts (script(1): a terminal)
# rc_err DESC WANT-LINE: the screen with XDG_CONFIG_HOME=$TMPD/ecfg exits 2
# with exactly that line
rc_err() {
	local out
	out=$(XDG_CONFIG_HOME=$TMPD/ecfg HOME=$TMPD/home timeout 10 script -qec \
		"$(printf %q "$MEMCGTOP") --root $(printf %q "$F") 2>&1; echo EXIT=\$?" /dev/null </dev/null | tr -d '\r')
	if [ "$out" = "$2
EXIT=2" ]; then
		pass "$1: exit 2, '$2'"
	else
		fail "$1: got $(od -c <<<"$out" | head -c 500) (want '$2' and EXIT=2)"
	fi
}
mkdir -p "$TMPD/ecfg/memcgtop"
printf 'sort = -\033[2Jz\n' >"$TMPD/ecfg/memcgtop/memcgtoprc"
rc_err "escapes: settings 'sort = -ESC[2Jz'" \
	"memcgtop: $TMPD/ecfg/memcgtop/memcgtoprc: line 1: sort: unknown column '\\x1B[2Jz'"
printf '# c\ncolumns = n\033]0;T\007\n' >"$TMPD/ecfg/memcgtop/memcgtoprc"
rc_err "escapes: settings 'columns = n ESC]0;T BEL'" \
	"memcgtop: $TMPD/ecfg/memcgtop/memcgtoprc: line 2: columns: unknown set 'n\\x1B]0;T\\x07' (overview, memory, LRU, reclaim, events, limits, custom)"

# ---- 8. settings and themes are the effective user's --------------------------------
ELEMS="(header, colhead, colsort, row, selected, tagged, near_limit, excess, reclaim, oom, status, error, help, dim)"
me=$(id -u)
mkdir -p "$TMPD/own/memcgtop"
printf 'interval = 1\n' >"$TMPD/own/memcgtop/memcgtoprc"
chmod 664 "$TMPD/own/memcgtop/memcgtoprc"
# rc_err reads $TMPD/ecfg: point it at each case
rm -rf "$TMPD/ecfg" && cp -a "$TMPD/own" "$TMPD/ecfg"
rc_err "settings: a memcgtoprc its group may write" \
	"memcgtop: $TMPD/ecfg/memcgtop/memcgtoprc is writable by its group or others (mode 0664): not reading it"
chmod 644 "$TMPD/ecfg/memcgtop/memcgtoprc" && chmod 777 "$TMPD/ecfg/memcgtop"
rc_err "settings: a memcgtoprc in a folder others may write" \
	"memcgtop: $TMPD/ecfg/memcgtop (the settings file's folder) is writable by its group or others (mode 0777): not reading $TMPD/ecfg/memcgtop/memcgtoprc"
chmod 755 "$TMPD/ecfg/memcgtop"
printf 'theme = %s\n' "$TMPD/gw.theme" >"$TMPD/ecfg/memcgtop/memcgtoprc"
printf 'row = red blue\n' >"$TMPD/gw.theme" && chmod 666 "$TMPD/gw.theme"
rc_err "themes: 'theme = FILE' that others may write" \
	"memcgtop: $TMPD/ecfg/memcgtop/memcgtoprc: line 1: theme: $TMPD/gw.theme is writable by its group or others (mode 0666): not reading it"
expect_err "themes: -t FILE that others may write" 2 \
	"memcgtop: -t: $TMPD/gw.theme is writable by its group or others (mode 0666): not reading it" \
	"$MEMCGTOP" -b -n 1 -t "$TMPD/gw.theme" --root "$F"
# a root-owned file is read as a theme, and none of it is quoted
printf 'theme = /etc/passwd\n' >"$TMPD/ecfg/memcgtop/memcgtoprc"
rc_err "themes: 'theme = /etc/passwd' quotes none of it" \
	"memcgtop: $TMPD/ecfg/memcgtop/memcgtoprc: line 1: theme: /etc/passwd: line 1, column 1: unknown element $ELEMS"
timeout 10 "$MEMCGTOP" -b -n 1 -t light --root "$F" >/dev/null 2>"$TMPD/e.err" </dev/null
rc=$?
if [ "$rc" = 0 ] && [ ! -s "$TMPD/e.err" ]; then
	pass "themes: -t light (the themes beside the program, $(stat -c 'uid %u' "$(dirname "$MEMCGTOP")/themes/light.theme" 2>/dev/null || echo installed)) loads"
else
	fail "themes: -t light: exit $rc, $(head -c 300 "$TMPD/e.err")"
fi
if [ "$me" = 0 ]; then
	# HOME of another user (uid 65534), its memcgtoprc naming /etc/shadow
	U=$TMPD/nobody
	mkdir -p "$U/.config/memcgtop/themes"
	printf 'theme = /etc/shadow\n' >"$U/.config/memcgtop/memcgtoprc"
	printf 'row = red blue\n' >"$U/.config/memcgtop/themes/evil.theme"
	chown -R 65534:65534 "$U"
	out=$(HOME=$U timeout 10 script -qec "$(printf %q "$MEMCGTOP") --root $(printf %q "$F") 2>&1; echo EXIT=\$?" /dev/null </dev/null | tr -d '\r')
	if [ "$out" = "memcgtop: $U/.config/memcgtop/memcgtoprc belongs to uid 65534, memcgtop runs as uid 0: not reading it
EXIT=2" ]; then
		pass "settings: root's HOME=\$U (uid 65534) memcgtop refuses \$U's memcgtoprc (theme = /etc/shadow), exit 2"
	else
		fail "settings: root's HOME=\$U memcgtop: got '$(head -c 400 <<<"$out")'"
	fi
	# the file root's (a link to /etc/shadow), the folder another user's
	rm "$U/.config/memcgtop/memcgtoprc"
	ln -s /etc/shadow "$U/.config/memcgtop/memcgtoprc"
	out=$(HOME=$U timeout 10 script -qec "$(printf %q "$MEMCGTOP") --root $(printf %q "$F") 2>&1; echo EXIT=\$?" /dev/null </dev/null | tr -d '\r')
	if [ "$out" = "memcgtop: $U/.config/memcgtop (the settings file's folder) belongs to uid 65534, memcgtop runs as uid 0: not reading $U/.config/memcgtop/memcgtoprc
EXIT=2" ] && ! grep -q 'root:' <<<"$out"; then
		pass "settings: a memcgtoprc linked to /etc/shadow in uid 65534's folder is not read, exit 2"
	else
		fail "settings: memcgtoprc -> /etc/shadow in another user's folder: got '$(head -c 400 <<<"$out")'"
	fi
	expect_err "themes: -t NAME found in another user's HOME" 2 \
		"memcgtop: -t: $U/.config/memcgtop/themes/evil.theme belongs to uid 65534, memcgtop runs as uid 0: not reading it" \
		env HOME="$U" XDG_CONFIG_HOME= "$MEMCGTOP" -b -n 1 -t evil --root "$F"
	expect_err "themes: -t FILE of another user" 2 \
		"memcgtop: -t: $U/.config/memcgtop/themes/evil.theme belongs to uid 65534, memcgtop runs as uid 0: not reading it" \
		"$MEMCGTOP" -b -n 1 -t "$U/.config/memcgtop/themes/evil.theme" --root "$F"
	# root's own settings naming /etc/shadow: read, none of it quoted
	printf 'theme = /etc/shadow\n' >"$TMPD/ecfg/memcgtop/memcgtoprc"
	rc_err "themes: root's own 'theme = /etc/shadow' quotes none of it" \
		"memcgtop: $TMPD/ecfg/memcgtop/memcgtoprc: line 1: theme: /etc/shadow: line 1, column 1: unknown element $ELEMS"
else
	echo "SKIP: settings and themes of another uid: not root (chown needed)"
fi

cleanup
summary
