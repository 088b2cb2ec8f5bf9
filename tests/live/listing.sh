#!/bin/bash
# listing.sh - memcgtop re-lists a live v1 group only when its subgroups
# may have changed (kernfs link count, a name gone).  listing.py changes a
# test tree between samples in every way that keeps the counts the same
# (swap, remake, rename, deeper swap, new child, renamed subtree, limit in
# place) and checks each next sample against what exists.
#
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
NAME="live listing"
CGM=/sys/fs/cgroup/memory
. "$here/lib.sh"
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac

v1_host_ready
command -v python3 >/dev/null || cannot_run "no python3"
[ -x "$MEMCGTOP" ] || { fail "no memcgtop binary at $MEMCGTOP"; summary; exit 1; }

TNAME=memcgtop-listing-$$-$RANDOM
TMPD=$(mktemp -d /tmp/memcgtop-listing.XXXXXX) || exit 1
# Removes whatever the driver left, deepest first.
cleanup() {
	trap - EXIT INT TERM HUP
	if [ -d "$CGM/$TNAME" ]; then
		find "$CGM/$TNAME" -depth -type d -exec rmdir {} + 2>/dev/null
	fi
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mkdir "$CGM/$TNAME" || { fail "cannot make $CGM/$TNAME"; summary; exit 1; }
python3 "$here/listing.py" "$MEMCGTOP" "$CGM" "$TNAME" >"$TMPD/out" 2>&1
tally "$TMPD/out"
cleanup
if [ -e "$CGM/$TNAME" ]; then
	fail "cleanup: $CGM/$TNAME still there"
else
	pass "cleanup: the test tree is gone"
fi
summary
