# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/test.sh - the start that the shell tests share, sourced; then
# test_begin TAG, where TAG names the test in its summary line:
#   - set -u; the script itself in C.UTF-8 (LC_ALL, not exported to what
#     it starts), TZ=UTC exported, no TMUX of a surrounding session;
#   - top, the checkout; MEMCGTOP absolute (default: $top/memcgtop);
#   - tests/lib/count.sh, with a fail that shows SCREEN, the screen a
#     check was judged on (indented), when it is set, and clears it;
#   - summary: "time: N s" and "TAG: N passed, M failed", true when none
#     failed;
#   - cannot_run REASON: "SKIP: TAG: REASON", exit 77; with CI=true a FAIL
#     and exit 1;
#   - need_binary: a FAIL and exit 1 when MEMCGTOP is not an executable.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$top/tests/lib/count.sh"

test_begin() {
	set -u
	LC_ALL=C.UTF-8
	export -n LC_ALL
	export TZ=UTC
	unset TMUX TMUX_PANE
	TAG=$1
	MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
	case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
	t_start=$SECONDS
	SCREEN=''
}
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
	if [ -n "${SCREEN:-}" ]; then
		echo "  screen:"
		printf '%s\n' "$SCREEN" | sed 's/^/    |/'
	fi
	SCREEN=''
}
summary() {
	echo "time: $((SECONDS - t_start)) s"
	echo "$TAG: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
cannot_run() {
	if [ "${CI:-}" = true ]; then
		fail "$TAG: $1 (CI=true: not skipping)"
		summary
		exit 1
	fi
	echo "SKIP: $TAG: $1"
	exit 77
}
need_binary() {
	[ -x "$MEMCGTOP" ] && return 0
	fail "no binary at $MEMCGTOP (run make)"
	summary
	exit 1
}
