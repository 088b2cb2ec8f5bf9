#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# names.sh - two different groups never print the same path, in any
# format: the names' encoding (\xHH for control bytes and bytes that are
# not UTF-8, \\ for a backslash, the rest of UTF-8 as it is) is the same
# in text, CSV, JSON, OpenMetrics, Prometheus, the screen and recordings,
# and reversible.
#
# Usage:  tests/live/names.sh        (the live part needs root)
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the live part is a failure
#
# Below /sys/fs/cgroup/memory/memcgtop-names-PID-RANDOM it makes
# inv\xFF\xFEutf, invÿþutf (U+00FF U+00FE), inv\xFE\xFFutf,
# inv\xC0\xC1utf, a\x41 (a backslash, x, 4, 1) and aA, and checks
# (tests/live/names.py):
#   - text, JSON (the groups array byte for byte), CSV (the path fields),
#     OpenMetrics and Prometheus (the cgroup labels): each format's exact
#     text, and that the 7 paths it prints are all different and decode
#     (the man page's NAMES) to the directories' bytes;
#   - a recording: the replay prints what the live run printed, byte for
#     byte, in four formats; its folders hold the real names; a recording
#     started at inv\xFF\xFEutf replays from there;
#   - the screen (tmux): each name on its row, encoded alike;
#   - a fixture (no root): a recording started at a group whose name holds
#     a newline replays from that group.
# The groups, the tmux server and the temp dir are removed on exit.
set -u
export LC_ALL=C.UTF-8 TZ=UTC
unset TMUX TMUX_PANE
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
NAME="live names"
CGM=/sys/fs/cgroup/memory
. "$here/lib.sh"
for tool in python3 tmux; do
	command -v "$tool" >/dev/null 2>&1 || { fail "$tool not installed"; summary; exit 1; }
done
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac

# ---- the fixture part: no root needed ----------------------------------------------
FTMP=$(mktemp -d /tmp/memcgtop-names-fx.XXXXXX) || exit 1
python3 "$here/names.py" fixture "$MEMCGTOP" \
	"$top/tests/fixtures/edge-vanish/cg/0" "$FTMP" >"$FTMP/out" 2>&1
tally "$FTMP/out"
rm -rf "$FTMP"

# ---- the live part ---------------------------------------------------------------------
live_tree_setup names
mkdir "$CGM/$TNAME" || { fail "cannot make $CGM/$TNAME"; summary; exit 1; }
python3 "$here/names.py" live "$MEMCGTOP" "$CGM" "$TNAME" "$TMPD" >"$TMPD/out" 2>&1 ||
	grep -q '^FAIL' "$TMPD/out" || fail "names.py failed: $(tail -n 3 "$TMPD/out")"
tally "$TMPD/out"
live_tree_done
