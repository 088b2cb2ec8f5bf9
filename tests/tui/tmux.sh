# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tui/tmux.sh - what the screen tests on recorded or copied trees
# share, sourced after they set NAME (e.g. "tui history"): MEMCGTOP made
# absolute (default ./memcgtop of this checkout), top (the checkout),
# tests/lib/count.sh, a temporary folder tmp, a private tmux server (tm,
# tests/lib/tmux.sh) with
# a session that outlives each test's own (killing a server's last
# session stops it, and a session made meanwhile fails), and cleanup on
# exit or interrupt.  Without tmux: "SKIP: NAME: tmux not installed",
# exit 77 (CI=true: exit 1).
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
. "$top/tests/lib/count.sh"
if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: $NAME: tmux not installed"
	[ "${CI:-}" = true ] && exit 1
	exit 77
fi
. "$top/tests/lib/tmux.sh"
tmux_private "${NAME// /-}"
tmp=$(mktemp -d)
cleanup() {
	tmux_stop
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
tm new-session -d -s keep "sleep 3600"
