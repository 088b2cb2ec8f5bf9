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
MEMCGTOP=${MEMCGTOP:-./memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$PWD/$MEMCGTOP ;; esac
NAME=memsw-order
CGM=/sys/fs/cgroup/memory
. tests/live/lib.sh
[ "$(id -u)" = 0 ] || cannot_run "not root"
[ -w "$CGM/memory.memsw.limit_in_bytes" ] || cannot_run "no writable v1 memory mount with swap accounting at $CGM"
command -v unshare >/dev/null || cannot_run "no unshare (util-linux)"

G=$(unique_name memsw)
TMPD=$(mktemp -d)
tmp=$TMPD
pids=()
cleanup() { clean_up "$CGM/$G"; }
trap_cleanup
mkdir "$CGM/$G"
echo 100M >"$CGM/$G/memory.limit_in_bytes"
echo 200M >"$CGM/$G/memory.memsw.limit_in_bytes"

# --audit-log: without a syslog daemon --set would say on stderr that the
# changes are recorded nowhere.
# Raising both, limit named first: limit 300M > memsw 200M would be EINVAL.
"$MEMCGTOP" --follow 0 --set "/$G:limit=300M" --set "/$G:memsw=400M" --audit-log "$tmp/audit" >"$tmp/out" 2>"$tmp/err"; rc=$?
want="/$G: memsw is written before limit: the kernel keeps memsw at least limit
/$G: memsw (memory.memsw.limit_in_bytes): 209715200 -> 419430400: done, the kernel holds 419430400 (400M)
/$G: limit (memory.limit_in_bytes): 104857600 -> 314572800: done, the kernel holds 314572800 (300M)"
[ $rc = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ ! -s "$tmp/err" ] &&
	[ "$(cat "$CGM/$G/memory.limit_in_bytes")" = 314572800 ] &&
	[ "$(cat "$CGM/$G/memory.memsw.limit_in_bytes")" = 419430400 ] \
	&& pass "raising limit and memsw: memsw first, both done" \
	|| fail "raising both: rc $rc out '$(cat "$tmp/out")' err '$(cat "$tmp/err")'"
# Lowering both, memsw named first: memsw 100M < limit 300M would be EINVAL.
"$MEMCGTOP" --follow 0 --set "/$G:memsw=100M" --set "/$G:limit=50M" --audit-log "$tmp/audit" >"$tmp/out" 2>"$tmp/err"; rc=$?
want="/$G: limit is written before memsw: the kernel keeps memsw at least limit
/$G: limit (memory.limit_in_bytes): 314572800 -> 52428800: done, the kernel holds 52428800 (50.0M)
/$G: memsw (memory.memsw.limit_in_bytes): 419430400 -> 104857600: done, the kernel holds 104857600 (100M)"
[ $rc = 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ ! -s "$tmp/err" ] &&
	[ "$(cat "$CGM/$G/memory.limit_in_bytes")" = 52428800 ] &&
	[ "$(cat "$CGM/$G/memory.memsw.limit_in_bytes")" = 104857600 ] \
	&& pass "lowering limit and memsw: limit first, both done" \
	|| fail "lowering both: rc $rc out '$(cat "$tmp/out")' err '$(cat "$tmp/err")'"
# The order the operator gave works as it is: no note.
"$MEMCGTOP" --follow 0 --set "/$G:memsw=300M" --set "/$G:limit=200M" >"$tmp/out" 2>&1; rc=$?
[ $rc = 0 ] && ! grep -q "is written before" "$tmp/out" && pass "an order that works is kept, without a note" \
	|| fail "kept order: rc $rc '$(cat "$tmp/out")'"

# No memory hierarchy: in a mount namespace without the memory mount.
unshare -m sh -c "umount -l $CGM && exec '$MEMCGTOP' -b -n 1 -d 0.1" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "memcgtop: no memory cgroup hierarchy found (neither a cgroup v1 memory mount nor cgroup2 with the memory controller)" ] \
	&& pass "no memory hierarchy: one line, exit 1" \
	|| fail "no hierarchy: rc $rc err '$(cat "$tmp/err")'"
# libcgroup cannot initialise (no /proc/cgroups): /proc/self/mountinfo
# still finds the memory mount.
: >"$tmp/empty"
unshare -m sh -c "mount --bind $tmp/empty /proc/cgroups && exec '$MEMCGTOP' -b -F csv -c path,limit -n 1 -d 0.1 /$G" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 0 ] && grep -q "^[^,]*,1,/$G,209715200" "$tmp/out" && [ ! -s "$tmp/err" ] \
	&& pass "without /proc/cgroups (libcgroup fails) the hierarchy is found through mountinfo" \
	|| fail "mountinfo fallback: rc $rc out '$(head -c 300 "$tmp/out")' err '$(cat "$tmp/err")'"

summary
