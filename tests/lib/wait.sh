# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/wait.sh - waiting for a condition rather than sleeping for a
# time that is too long on a quiet host and too short on a busy one.

# wait_until SECS COMMAND...: runs COMMAND until it succeeds (0), up to
# SECS x 20 times with 0.05 s between (1 if it never did).
wait_until() {
	local i n=$(($1 * 20))
	shift
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}
