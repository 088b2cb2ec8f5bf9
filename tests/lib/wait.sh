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

# wait_alive SECS PID COMMAND...: wait_until, but gives up (2) as soon as
# the process PID has gone and COMMAND still fails.
wait_alive() {
	local i n=$(($1 * 20)) p=$2
	shift 2
	for ((i = 0; i < n; i++)); do
		"$@" && return 0
		if ! kill -0 "$p" 2>/dev/null; then
			"$@" && return 0
			return 2
		fi
		sleep 0.05
	done
	return 1
}

# wait_file SECS FILE [LINES]: until FILE exists with LINES lines (1) or more.
file_has_lines() { [ -f "$1" ] && [ "$(wc -l <"$1")" -ge "${2:-1}" ]; }
wait_file() {
	wait_until "$1" file_has_lines "$2" "${3:-1}"
}

# wait_exit SECS PID: until the process PID has gone.
pid_gone() { ! kill -0 "$1" 2>/dev/null; }
wait_exit() {
	wait_until "$1" pid_gone "$2"
}
