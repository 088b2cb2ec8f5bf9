# SPDX-License-Identifier: GPL-2.0-or-later
# tests/prometheus/lib.sh - what alerts.sh and dashboard.sh share, sourced
# after they set NAME and here: tests/live/lib.sh's counting, SKIP and
# host check; MEMCGTOP, CGM, top; then prom_start SHORT TOOL...: the host
# checked (root, the v1 mount, the binary, each TOOL), B the port base
# (PORT_BASE, default given by the caller as DEFAULT_PORT_BASE), TMPD and
# the group name G (unique, not made), pids, and a trap that stops the
# pids and removes G and TMPD on exit, also on failure.
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
CGM=/sys/fs/cgroup/memory
. "$top/tests/live/lib.sh"

prom_start() {
	local short=$1 tool
	shift
	v1_host_ready
	[ -x "$MEMCGTOP" ] || cannot_run "$MEMCGTOP not found (run make)"
	for tool; do
		command -v "$tool" >/dev/null 2>&1 ||
			cannot_run "$tool not installed (make deps installs it)"
	done
	B=${PORT_BASE:-$DEFAULT_PORT_BASE}
	TMPD=$(mktemp -d "/tmp/memcgtop-$short.XXXXXX")
	G=$(unique_name "$short")
	pids=()
	trap prom_cleanup EXIT
	trap 'exit 130' INT TERM
}
prom_cleanup() {
	stop_pids "${pids[@]}"
	remove_tree "$CGM/$G"
	[ -n "${KEEP:-}" ] && echo "kept $TMPD" || rm -rf "$TMPD"
}
