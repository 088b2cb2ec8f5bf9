#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# listing.sh - memcgtop re-lists a live v1 group only when its subgroups
# may have changed (kernfs link count, a name gone).  listing.py changes a
# test tree between samples in every way that keeps the counts the same
# (swap, remake, rename, deeper swap, new child, renamed subtree, limit in
# place, a swap below paths longer than PATH_MAX) and checks each next
# sample against what exists.
#
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
set -u
here=$(cd "$(dirname "$0")" && pwd)
NAME="live listing"
CGM=/sys/fs/cgroup/memory
. "$here/lib.sh"
live_tree_setup listing

mkdir "$CGM/$TNAME" || { fail "cannot make $CGM/$TNAME"; summary; exit 1; }
python3 "$here/listing.py" "$MEMCGTOP" "$CGM" "$TNAME" >"$TMPD/out" 2>&1
tally "$TMPD/out"
live_tree_done
