# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/lib.sh - what the live v1 tests share, sourced after they set
# NAME (e.g. "live v1") and CGM (the v1 memory mount): PASS/FAIL counting,
# the final summary line, SKIP (a FAIL with CI=true) and the host check;
# stop_pids, remove_tree and unique_name (tests/lib/cleanup.sh).
TAG=${NAME// /-}
. "$(dirname "${BASH_SOURCE[0]}")/../lib/count.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/cleanup.sh"
summary() {
	echo "$TAG: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
cannot_run() {
	if [ "${CI:-}" = true ]; then
		fail "$NAME: $1 (CI=true: not skipping)"
		summary
		exit 1
	fi
	echo "SKIP: $NAME: $1"
	exit 77
}
# Root, and $CGM a read-write cgroup v1 mount with the memory controller.
v1_host_ready() {
	local mnt_ok
	[ "$(id -u)" = 0 ] || cannot_run "not root"
	# mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - FSTYPE SRC SUPEROPTS
	mnt_ok=$(awk -v m="$CGM" '
		$5 == m {
			for (i = 7; i <= NF && $i != "-"; i++) ;
			if ($(i + 1) == "cgroup" && ("," $(i + 3) ",") ~ /,memory,/ &&
			    ("," $6 ",") ~ /,rw,/) ok = 1
		}
		END { print ok + 0 }' /proc/self/mountinfo)
	[ "$mnt_ok" = 1 ] || cannot_run "$CGM is not a read-write cgroup v1 memory mount"
	[ -f "$CGM/memory.usage_in_bytes" ] && [ -w "$CGM" ] ||
		cannot_run "$CGM has no writable v1 memory controller"
}

# start_load DIR MEMLOAD: runs MEMLOAD (tests/load/memload.c, built by
# the test) with 64 MiB of anonymous memory in the group DIR, adds its pid
# to pids, waits up to 30 s until it is ready and checks that the 64 MiB
# are charged to DIR; sets loadpid and rss (DIR's rss).  On failure it
# calls the test's abort.
start_load() {
	local i
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" anon 64' sh \
		"$1" "$2" >"$TMPD/load.out" 2>&1 &
	loadpid=$!
	pids+=("$loadpid")
	for i in $(seq 300); do
		grep -q '^ready' "$TMPD/load.out" && break
		kill -0 "$loadpid" 2>/dev/null || abort "memload died: $(cat "$TMPD/load.out")"
		sleep 0.1
	done
	grep -q '^ready' "$TMPD/load.out" || abort "memload not ready after 30 s"
	rss=$(awk '$1 == "rss" { print $2 }' "$1/memory.stat")
	[ "${rss:-0}" -ge $((64 << 20)) ] ||
		abort "memload's 64 MiB not charged to $1 (rss ${rss:-?})"
}

# human VALUE: " (95.4M)" as the man page's text output (powers of 1024),
# "" below 1K and for max.
human() {
	awk -v v="$1" 'BEGIN {
		if (v !~ /^[0-9]+$/ || v + 0 < 1024) exit
		u = "KMGTPE"; x = v + 0; i = 0
		while (x >= 1024 && i < 6) { x /= 1024; i++ }
		if (x < 99.95) printf " (%.1f%s)", x, substr(u, i, 1)
		else printf " (%.0f%s)", x, substr(u, i, 1)
	}'
}

# file_of KNOB: the v1 file of a knob of --set.
file_of() {
	case $1 in
	limit) echo memory.limit_in_bytes ;;
	soft) echo memory.soft_limit_in_bytes ;;
	memsw) echo memory.memsw.limit_in_bytes ;;
	swappiness) echo memory.swappiness ;;
	esac
}

# For a test driving memcgtop on a tree of its own, after NAME and CGM:
# live_tree_setup WORD sets MEMCGTOP (absolute; default ./memcgtop of this
# checkout), checks the host, python3 and the binary, and sets TNAME
# (memcgtop-WORD-PID-RANDOM, the tree's name below $CGM, not made yet) and
# TMPD (a fresh temporary folder).  On exit or interrupt the tree is removed
# deepest first, and TMPD with it; live_tree_done does that at once, checks
# that the tree is gone and prints the summary.
live_tree_setup() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
	case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
	v1_host_ready
	command -v python3 >/dev/null || cannot_run "no python3"
	[ -x "$MEMCGTOP" ] || { fail "no memcgtop binary at $MEMCGTOP"; summary; exit 1; }
	TNAME=$(unique_name "$1")
	TMPD=$(mktemp -d "/tmp/memcgtop-$1.XXXXXX") || exit 1
	trap live_tree_cleanup EXIT
	trap 'exit 130' INT TERM HUP
}
# live_tree_start WORD: live_tree_setup WORD, and the processes the test
# starts (their pids in the array pids) stopped with the tree on exit
# (finish, which the test may call itself); abort MESSAGE fails, cleans
# up, prints the summary and exits 1.
live_tree_start() {
	live_tree_setup "$1"
	pids=()
	trap finish EXIT
}
finish() {
	stop_pids "${pids[@]}"
	live_tree_cleanup
}
abort() { fail "$NAME: $*"; finish; summary; exit 1; }
live_tree_cleanup() {
	trap - EXIT INT TERM HUP
	remove_tree "$CGM/$TNAME"
	rm -rf "$TMPD"
}
live_tree_done() {
	live_tree_cleanup
	if [ -e "$CGM/$TNAME" ]; then
		fail "cleanup: $CGM/$TNAME still there"
	else
		pass "cleanup: the test tree is gone"
	fi
	summary
}
