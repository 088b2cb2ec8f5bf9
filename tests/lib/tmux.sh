# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/tmux.sh - a private tmux server for a test that drives the
# screen, sourced.  Its socket is the test's alone (its name has the pid,
# or it is a file in the test's own folder), so that suites run side by
# side never share a server; no configuration file is read.
#
#   tmux_private WORD     the server on socket memcgtop-WORD-PID (-L)
#   tmux_private -S PATH  the server on the socket file PATH
#   tm ARGS...            tmux ARGS on that server
#   tmux_stop             kills the server and removes its socket file
#                         (kill-server leaves it behind); for cleanup
#   screen_wait T RE [S]  polls pane T until a line matches the extended
#                         regex RE (up to S seconds, default 10); SCREEN
#                         holds the screen last read
. "$(dirname "${BASH_SOURCE[0]}")/wait.sh"

tmux_private() {
	if [ "$1" = -S ]; then
		SOCK=$2
		tm() { tmux -S "$SOCK" -f /dev/null "$@"; }
	else
		SOCK=memcgtop-$1-$$
		tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
	fi
}
tmux_stop() {
	tm kill-server 2>/dev/null
	case $SOCK in
	*/*) rm -f "$SOCK" ;;
	*) rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK" ;;
	esac
	return 0
}

screen_has() {
	SCREEN=$(tm capture-pane -p -t "$1" 2>/dev/null)
	grep -qE -- "$2" <<<"$SCREEN"
}
screen_wait() {
	wait_until "${3:-10}" screen_has "$1" "$2"
}
