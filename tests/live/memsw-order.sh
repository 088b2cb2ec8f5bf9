#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# v1: one --set run that raises or lowers both the memory limit and the
# memory+swap limit of a group is written in the order the kernel accepts
# (memsw stays at least limit), says so, and succeeds on the live kernel.
# Also: with no memory hierarchy mounted at all, memcgtop says so in one
# line and exits 1; when libcgroup cannot initialise, /proc/self/mountinfo
# still finds the hierarchy.
set -u
cd "$(dirname "$0")/../.."
BIN=${MEMCGTOP:-./memcgtop}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
MNT=/sys/fs/cgroup/memory
pass=0 fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
skip() {
	if [ "${CI:-}" = true ]; then bad "memsw-order: $*"; echo "memsw-order: $pass passed, $fail failed"; exit 1; fi
	echo "SKIP: memsw-order: $*"; exit 77
}
[ "$(id -u)" = 0 ] || skip "not root"
[ -w "$MNT/memory.memsw.limit_in_bytes" ] || skip "no writable v1 memory mount with swap accounting at $MNT"
command -v unshare >/dev/null || skip "no unshare (util-linux)"

G=memcgtop-memsw-$$-$RANDOM
tmp=$(mktemp -d)
cleanup() { rmdir "$MNT/$G" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM
mkdir "$MNT/$G"
echo 100M >"$MNT/$G/memory.limit_in_bytes"
echo 200M >"$MNT/$G/memory.memsw.limit_in_bytes"

# --audit-log: without a syslog daemon --set would say on stderr that the
# changes are recorded nowhere.
# Raising both, limit named first: limit 300M > memsw 200M would be EINVAL.
"$BIN" --follow 0 --set "/$G:limit=300M" --set "/$G:memsw=400M" --audit-log "$tmp/audit" >"$tmp/out" 2>"$tmp/err"; rc=$?
want="/$G: memsw is written before limit: the kernel keeps memsw at least limit
/$G: memsw (memory.memsw.limit_in_bytes): 209715200 -> 419430400: done, the kernel holds 419430400 (400M)
/$G: limit (memory.limit_in_bytes): 104857600 -> 314572800: done, the kernel holds 314572800 (300M)"
[ $rc = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ ! -s "$tmp/err" ] &&
	[ "$(cat "$MNT/$G/memory.limit_in_bytes")" = 314572800 ] &&
	[ "$(cat "$MNT/$G/memory.memsw.limit_in_bytes")" = 419430400 ] \
	&& ok "raising limit and memsw: memsw first, both done" \
	|| bad "raising both: rc $rc out '$(cat "$tmp/out")' err '$(cat "$tmp/err")'"
# Lowering both, memsw named first: memsw 100M < limit 300M would be EINVAL.
"$BIN" --follow 0 --set "/$G:memsw=100M" --set "/$G:limit=50M" --audit-log "$tmp/audit" >"$tmp/out" 2>"$tmp/err"; rc=$?
want="/$G: limit is written before memsw: the kernel keeps memsw at least limit
/$G: limit (memory.limit_in_bytes): 314572800 -> 52428800: done, the kernel holds 52428800 (50.0M)
/$G: memsw (memory.memsw.limit_in_bytes): 419430400 -> 104857600: done, the kernel holds 104857600 (100M)"
[ $rc = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ ! -s "$tmp/err" ] &&
	[ "$(cat "$MNT/$G/memory.limit_in_bytes")" = 52428800 ] &&
	[ "$(cat "$MNT/$G/memory.memsw.limit_in_bytes")" = 104857600 ] \
	&& ok "lowering limit and memsw: limit first, both done" \
	|| bad "lowering both: rc $rc out '$(cat "$tmp/out")' err '$(cat "$tmp/err")'"
# The order the operator gave works as it is: no note.
"$BIN" --follow 0 --set "/$G:memsw=300M" --set "/$G:limit=200M" >"$tmp/out" 2>&1; rc=$?
[ $rc = 0 ] && ! grep -q "is written before" "$tmp/out" && ok "an order that works is kept, without a note" \
	|| bad "kept order: rc $rc '$(cat "$tmp/out")'"

# No memory hierarchy: in a mount namespace without the memory mount.
unshare -m sh -c "umount -l $MNT && exec '$BIN' -b -n 1 -d 0.1" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "memcgtop: no memory cgroup hierarchy found (neither a cgroup v1 memory mount nor cgroup2 with the memory controller)" ] \
	&& ok "no memory hierarchy: one line, exit 1" \
	|| bad "no hierarchy: rc $rc err '$(cat "$tmp/err")'"
# libcgroup cannot initialise (no /proc/cgroups): /proc/self/mountinfo
# still finds the memory mount.
: >"$tmp/empty"
unshare -m sh -c "mount --bind $tmp/empty /proc/cgroups && exec '$BIN' -b -F csv -c path,limit -n 1 -d 0.1 /$G" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 0 ] && grep -q "^[^,]*,1,/$G,209715200" "$tmp/out" && [ ! -s "$tmp/err" ] \
	&& ok "without /proc/cgroups (libcgroup fails) the hierarchy is found through mountinfo" \
	|| bad "mountinfo fallback: rc $rc out '$(head -c 300 "$tmp/out")' err '$(cat "$tmp/err")'"

echo "memsw-order: $pass passed, $fail failed"
[ $fail = 0 ]
