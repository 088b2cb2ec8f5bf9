# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/ports.sh - TCP ports on the loopback for a test's servers,
# sourced.  The kernel picks them, so that suites run side by side never
# share one; each is closed again at once, for the server to bind.
. "$(dirname "${BASH_SOURCE[0]}")/wait.sh"

# free_ports N: N different free ports, on one line.
free_ports() {
	python3 -c '
import socket, sys
ss = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in ss: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in ss))
for s in ss: s.close()' "$1"
}
free_port() { free_ports 1; }

# wait_url SECS URL [FILE] [PID]: until URL answers with success (curl -f;
# the body in FILE, default none), up to SECS seconds; with PID, gives up
# as soon as that process has gone (wait_alive).
wait_url() {
	if [ -n "${4:-}" ]; then
		wait_alive "$1" "$4" curl -sf -o "${3:-/dev/null}" "$2"
	else
		wait_until "$1" curl -sf -o "${3:-/dev/null}" "$2"
	fi
}
