# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/tmux.sh - a private tmux server for a test that drives the
# screen, sourced.  Its socket is the test's alone (its name has the pid,
# or it is a file in the test's own folder), so that suites run side by
# side never share a server; no configuration file is read.
#
#   tmux_private [-u] WORD     the server on socket memcgtop-WORD-PID (-L);
#                              -u: tmux -u (UTF-8 whatever the locale)
#   tmux_private [-u] -S PATH  the server on the socket file PATH
#   tm ARGS...            tmux ARGS on that server
#   tmux_stop [SOCK]      kills the server (or the one on the -L socket
#                         SOCK) and removes its socket file (kill-server
#                         leaves it behind); for cleanup
#   tui_session [-p] NAME W H DIR ENVS ARGS...
#                         session NAME, W x H, whose shell runs memcgtop
#                         ARGS (below)
#   cap T, cap_e T        pane T's screen (cap_e: with its SGR sequences)
#   keys T KEY...         sends the keys; lit T TEXT sends TEXT as it is
#   screen_wait T RE [S]  polls pane T until a line matches the extended
#                         regex RE (up to S seconds, default 10); SCREEN
#                         holds the screen last read
#   wait_for T RE [S]     the same, 5 s by default
#   wait_text T TEXT [S]  until a line holds TEXT (a string, not a
#                         pattern), 10 s by default
#   screen_settle T       polls pane T until it stops changing (two reads
#                         0.15 s apart the same, 6 s at most); SCREEN
#                         holds it
#   check_has T RE DESC [S]  wait_for, then pass DESC or fail it
#                         (tests/lib/count.sh's pass and fail)
. "$(dirname "${BASH_SOURCE[0]}")/wait.sh"

tmux_private() {
	TMUX_U=
	[ "$1" = -u ] && { TMUX_U=-u; shift; }
	if [ "$1" = -S ]; then
		SOCK=$2
		tm() { tmux $TMUX_U -S "$SOCK" -f /dev/null "$@"; }
	else
		SOCK=memcgtop-$1-$$
		tm() { tmux $TMUX_U -L "$SOCK" -f /dev/null "$@"; }
	fi
}
tmux_stop() {
	local SOCK=${1:-$SOCK}
	tm kill-server 2>/dev/null
	case $SOCK in
	*/*) rm -f "$SOCK" ;;
	*) rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK" ;;
	esac
	return 0
}

# tui_session [-p] NAME W H DIR ENVS ARGS...: a session NAME of W x H
# columns and lines whose shell runs $MEMCGTOP ARGS in the folder DIR on
# the test's terminal: TERM xterm-256color, LANG C.UTF-8, neither LC_ALL
# nor LC_CTYPE, XDG_CONFIG_HOME and HOME the folders config and home of
# TUI_HOME; then ENVS (NAME=VALUE words, which may override those) and the
# words of the array PREFIX before the binary (e.g. setpriv, setsid -w).
# It then prints EXIT=status and stays: -p saves `stty -a` to
# $TUI_HOME/stty.NAME and gives an interactive shell with the prompt
# $PROMPT, else cat holds the pane.  The server is tm's (SOCK).
PREFIX=()
tui_session() {
	local prompt='' name w h dir envs cmd
	[ "$1" = -p ] && { prompt=1; shift; }
	name=$1 w=$2 h=$3 dir=$4 envs=$5
	shift 5
	cmd="cd $(printf %q "$dir") || exit; env -u LC_ALL -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$TUI_HOME/config HOME=$TUI_HOME/home $envs $(printf '%q ' ${PREFIX[@]+"${PREFIX[@]}"} "$MEMCGTOP" "$@")"
	if [ -n "$prompt" ]; then
		cmd+="; echo EXIT=\$?; stty -a > $TUI_HOME/stty.$name; exec env PS1=$(printf %q "$PROMPT") bash --norc --noprofile -i"
	else
		cmd+="; echo EXIT=\$?; exec cat"
	fi
	tm new-session -d -s "$name" -x "$w" -y "$h" "bash --norc --noprofile -c $(printf %q "$cmd")"
}

cap() { tm capture-pane -p -t "$1" 2>/dev/null; }
cap_e() { tm capture-pane -p -e -t "$1" 2>/dev/null; }
keys() { local s=$1; shift; tm send-keys -t "$s" "$@"; }
lit() { tm send-keys -t "$1" -l -- "$2"; }

# screen_has [-F] T RE: a line of pane T matches RE (-F: holds it)
screen_has() {
	local how=-qE
	[ "$1" = -F ] && { how=-qF; shift; }
	SCREEN=$(cap "$1")
	grep "$how" -- "$2" <<<"$SCREEN"
}
screen_wait() {
	wait_until "${3:-10}" screen_has "$1" "$2"
}
wait_for() {
	wait_until "${3:-5}" screen_has "$1" "$2"
}
wait_text() {
	wait_until "${3:-10}" screen_has -F "$1" "$2"
}
screen_settle() {
	local i prev
	for ((i = 0; i < 40; i++)); do
		prev=${SCREEN:-}
		sleep 0.15
		SCREEN=$(cap "$1")
		[ "$SCREEN" = "$prev" ] && break
	done
}
check_has() {
	if wait_for "$1" "$2" "${4:-5}"; then
		pass "$3"
	else
		fail "$3: nothing matches /$2/"
	fi
}
