# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/cleanup.sh - what a test needs to leave the host as it found
# it, sourced: names no other test (or a second copy of this one, as
# tests/run-all.sh runs suites side by side) can take, and the stopping of
# the processes and removal of the groups it made, and the usual end of a
# test (clean_up, trap_cleanup).  CGM, the v1 memory mount, is read when
# remove_tree runs.

# unique_name WORD: memcgtop-WORD-PID-RANDOM, a group's or a file's name
# that is this test's alone.
unique_name() {
	echo "memcgtop-$1-$$-$RANDOM"
}

# stop_pids PID...: ends processes the test started, by pid only: TERM, up
# to 5 s for them to go, then KILL, and reaps them.
stop_pids() {
	local p t i
	[ $# -gt 0 ] || return 0
	for p; do
		kill -TERM "$p" 2>/dev/null
	done
	for i in $(seq 50); do
		t=0
		for p; do
			kill -0 "$p" 2>/dev/null && t=1
		done
		[ "$t" = 0 ] && break
		sleep 0.1
	done
	for p; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	return 0
}

# remove_tree DIR: removes a test's cgroup tree below $CGM deepest first:
# the empty groups in one go (fast for a big tree), then each one left
# with its tasks moved to the hierarchy root first, each rmdir tried for
# 2 s.
remove_tree() {
	local d t i
	[ -n "$1" ] && [ -d "$1" ] || return 0
	find "$1" -depth -type d -exec rmdir {} + 2>/dev/null
	[ -d "$1" ] || return 0
	while IFS= read -r -d '' d; do
		for i in 1 2 3 4 5 6 7 8 9 10; do
			while read -r t; do
				echo "$t" >"$CGM/cgroup.procs" 2>/dev/null
			done <"$d/cgroup.procs"
			rmdir "$d" 2>/dev/null && break
			sleep 0.2
		done
	done < <(find "$1" -depth -type d -print0)
	return 0
}

# clean_up TREE...: a test's end, once however often it is called (on
# exit, and first on a signal), never from a subshell: the private tmux
# server (tests/lib/tmux.sh) if one was named, the processes in the array
# pids (stop_pids), then the test's own function cleanup_more if it has
# one (what is the test's alone: a mount, a file), each group tree TREE
# (remove_tree) and the folder TMPD if set.
clean_up() {
	local t
	[ "$BASHPID" = "$$" ] || return 0
	[ -n "${clean_up_done:-}" ] && return 0
	clean_up_done=1
	[ -n "${SOCK:-}" ] && declare -F tmux_stop >/dev/null && tmux_stop
	stop_pids ${pids[@]+"${pids[@]}"}
	declare -F cleanup_more >/dev/null && cleanup_more
	for t; do
		remove_tree "$t"
	done
	[ -n "${TMPD:-}" ] && rm -rf "$TMPD"
	return 0
}

# trap_cleanup: runs the test's cleanup on exit, and on INT, TERM or HUP
# before exiting 130, 143 or 129.
trap_cleanup() {
	trap cleanup EXIT
	trap 'cleanup; exit 130' INT
	trap 'cleanup; exit 143' TERM
	trap 'cleanup; exit 129' HUP
}
