#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - the memcgtop benchmark (make bench).  As root, on a machine with
# the cgroup v1 memory controller mounted at /sys/fs/cgroup/memory.
#
# For each size in $SIZES it builds a tree of that many groups, 12 levels deep,
# with tests/bench/tree.sh, then runs $REPS rounds; every round runs each of
# these once, in this order, so that drift hits them all alike:
#
# FORMAT (default text: the default columns, as the issue asks; json: every
# column) picks memcgtop's output and the floor's matching file list.
#
#   memcgtop steady   memcgtop -b -F $FORMAT -n K -d 0.05 /TREE >/dev/null for
#                     K = $K_LO and $K_HI; per refresh = (cost(K_HI) -
#                     cost(K_LO)) / (K_HI - K_LO), start-up excluded.  0.05 s
#                     is memcgtop's smallest interval and it sleeps to fixed
#                     deadlines, so the steady wall is max(work, 50 ms).
#   memcgtop cold     memcgtop -b -F $FORMAT -n 1 -d 0.05 /TREE as a whole
#                     process: start-up plus TWO samples (rates need a
#                     previous one), the second due 0.05 s after the first.
#                     Both with --collector files, and again (steady, cold
#                     and kernel memory) with --collector bpf (COLLECTORS in
#                     the man page): its rows say "bpf".
#   floor             build/bench/floor (tests/bench/floor.c): the same files
#                     per group as memcgtop reads, openat+read+close through
#                     directory fds opened once; median of $FLOOR_N
#                     refreshes, $FLOOR_PAUSE ms apart as memcgtop's are (the
#                     same refreshes back to back cost up to a third less:
#                     the kernel's and the CPU's caches stay warm; that
#                     figure is shown too, "back to back").  Run four ways: one read() per file; each
#                     file read to EOF (-e, as memcgtop does); and both again
#                     with kept file fds read by pread (-p, within the fd
#                     budget, the rest by openat: what memcgtop does not do,
#                     see the kernel memory line); and through io_uring (-u:
#                     openat, read and close linked, 256 files a submission,
#                     whether batching the system calls lowers the floor).
#   kernel memory     memcgtop -b -n $K_LO and floor -p -n 2, each in a v1
#                     memory cgroup of its own: the peak kernel memory
#                     charged to it (memory.kmem.max_usage_in_bytes), which
#                     RSS does not show; a control file kept open holds a
#                     kernel read buffer.
#   systemd-cgtop     systemd-cgtop -b -n 1 --depth=20 -m /TREE (cold, one
#                     sample) and, like memcgtop, -n K_LO / -n K_HI with
#                     -d 0.05 for a per-refresh figure.  On v1 it walks the
#                     memory hierarchy reading memory.usage_in_bytes only.
#                     SKIP when systemd-cgtop is not installed.
#
# The memcgtop binary is copied once at the start, so a rebuild during the
# run cannot mix two versions.  CPU is user+sys of the measured process (wait4 rusage), wall is
# CLOCK_MONOTONIC around it, peak RSS is ru_maxrss.  Medians over the rounds
# (steady figures: the median of the per-round differences).  Then, at
# $TUI_SIZE groups (default 8192, if in SIZES), the interactive screen: bytes
# memcgtop writes to an 80x24 terminal per steady refresh (-d 0.5, in a
# private tmux server, pipe-pane), and the same for top -d 0.5; and the CPU
# of each frame after a refresh (tree order, layout, draw, terminal write),
# which memcgtop itself reports with MEMCGTOP_FRAME_STATS=FILE.
#
# page faults      tests/bench/reclaim-overhead.sh with ATTACH=memcgtop:
#                   build/default/faultbench's CPU per page fault without
#                   memcgtop and with memcgtop loading its reclaim events
#                   (-c pgscan_per_s,...: the count_memcg_events tracepoint
#                   fires on every fault), $RECLAIM_ROUNDS rounds, medians
#                   and their ratio; and the program's own run time.
#
# Results: a table per size, the ratios and the growth from the smallest to
# the largest size, printed and written to build/bench/results.txt (raw
# figures in build/bench/raw.txt).  No timing is judged: the exit status only
# says whether the benchmark ran.  Everything it makes (groups, load pids, the
# tmux server) is removed on exit or interrupt.
#
# Environment: SIZES ("512 1024 4096 8192"), REPS (5), K_LO (2), K_HI (12),
# FLOOR_N (5), FLOOR_PAUSE (50 ms), TUI (1; 0 skips the screen part), TUI_SIZE (8192),
# TUI_WARM (3 s), TUI_SECS (10 s), RECLAIM (1; 0 skips the page faults),
# RECLAIM_ROUNDS (9), MEMCGTOP (./memcgtop).  Quick run:
#   SIZES="512 1024" REPS=2 TUI=0 RECLAIM=0 tests/bench/run.sh
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
SIZES=${SIZES:-512 1024 4096 8192}
REPS=${REPS:-5}
K_LO=${K_LO:-2}
K_HI=${K_HI:-12}
FLOOR_N=${FLOOR_N:-5}
FLOOR_PAUSE=${FLOOR_PAUSE:-50}
TUI=${TUI:-1}
TUI_SIZE=${TUI_SIZE:-8192}
TUI_WARM=${TUI_WARM:-3}
TUI_SECS=${TUI_SECS:-10}
MEMCGTOP=${MEMCGTOP:-./memcgtop}
CGM=/sys/fs/cgroup/memory
DELAY=0.05
OUT=build/bench
TREE=tests/bench/tree.sh
TSRV=bench-$$

die() { echo "run.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (it makes cgroups)"
if [ ! -f "$CGM/memory.usage_in_bytes" ]; then
	die "no cgroup v1 memory hierarchy at $CGM"
fi
[ -x "$MEMCGTOP" ] || die "memcgtop binary $MEMCGTOP not found (run make)"
# The floor keeps a directory descriptor per group: 32,768 groups need more
# than a common hard limit of 20,000 (root may raise it; in a container it
# may not: the floor is then left out at the sizes it cannot hold, n/a).
if [ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt 131072 ]; then
	ulimit -Hn 131072 2>/dev/null
fi
ulimit -Sn "$(ulimit -Hn)"
[ "$K_HI" -gt "$K_LO" ] 2>/dev/null || die "K_HI must be above K_LO"
command -v python3 >/dev/null || die "python3 is needed (timing, summary)"
FORMAT=${FORMAT:-text}
# The files memcgtop reads per group for that output on v1 (strace shows
# them: strace -e trace=openat,pread64 memcgtop -b -F FORMAT ...).
case $FORMAT in
text) FLOOR_FILES=memory.usage_in_bytes,memory.limit_in_bytes,memory.soft_limit_in_bytes,memory.memsw.usage_in_bytes,memory.failcnt ;;
json) FLOOR_FILES=memory.usage_in_bytes,memory.limit_in_bytes,memory.soft_limit_in_bytes,memory.swappiness,memory.kmem.usage_in_bytes,memory.failcnt,memory.stat,memory.memsw.usage_in_bytes,memory.oom_control,cgroup.procs ;;
*) die "FORMAT must be text or json" ;;
esac
mkdir -p "$OUT" || die "cannot create $OUT"
TMPD=$(mktemp -d /tmp/memcgtop-bench.XXXXXX) || die "mktemp failed"
chmod 755 "$TMPD"
MC_SRC=$(cd "$(dirname "$MEMCGTOP")" && pwd)/$(basename "$MEMCGTOP")
cp "$MC_SRC" "$TMPD/memcgtop" || die "cannot copy $MC_SRC"
MEMCGTOP=$TMPD/memcgtop
MC_SUM=$(sha256sum "$MEMCGTOP" | cut -c1-12)

CUR=""		# the tree that exists now, removed by cleanup
TMUX_UP=0
KMEM_G=""	# kmem_run's cgroup while it exists
cleanup() {
	trap - EXIT INT TERM HUP
	[ "$TMUX_UP" = 1 ] && tmux_down
	[ -n "$KMEM_G" ] && rmdir "$KMEM_G" 2>/dev/null
	[ -n "$CUR" ] && "$TREE" destroy "$CUR"
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'echo "run.sh: interrupted" >&2; exit 130' INT TERM HUP

gcc -O2 -Wall -Wextra -o "$OUT/floor" tests/bench/floor.c -luring ||
	die "cannot build the floor program"

CGTOP=$(command -v systemd-cgtop || true)

# measure.py OUTFILE CMD...: runs CMD with stdout to OUTFILE (stderr to
# $ERRLOG) and prints "wall_ms user_ms sys_ms maxrss_kib exit_status".
cat >"$TMPD/measure.py" <<'EOF'
import os, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
err = os.open(os.environ["ERRLOG"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    try:
        if os.environ.get("KMEM_CG"):
            with open(os.environ["KMEM_CG"] + "/cgroup.procs", "w") as cg:
                cg.write(str(os.getpid()))
        os.dup2(fd, 1)
        os.dup2(err, 2)
        os.execvp(cmd[0], cmd)
    finally:
        os._exit(127)
_, st, ru = os.wait4(pid, 0)
wall = time.monotonic() - t0
print("%.3f %.3f %.3f %d %d" % (wall * 1e3, ru.ru_utime * 1e3,
      ru.ru_stime * 1e3, ru.ru_maxrss, os.waitstatus_to_exitcode(st)))
EOF
export ERRLOG=$TMPD/err
RAW=$OUT/raw.txt
record() { echo "$*" >>"$RAW"; }

# kmem_run SIZE KIND ROUND CMD...: runs CMD (stdout to /dev/null) in a
# memory cgroup of its own (outside the tree), records its peak kernel
# memory charge (memory.kmem.max_usage_in_bytes, the read buffers of open
# control files among it) as "SIZE KIND ROUND 0 0 0 KIB".
kmem_run() {
	local size=$1 kind=$2 round=$3 g r
	shift 3
	g=$CGM/memcgtop-bench-kmem-$$
	KMEM_G=$g
	mkdir "$g" || die "cannot make $g"
	r=$(KMEM_CG=$g python3 "$TMPD/measure.py" /dev/null "$@") || die "cannot run $1"
	# shellcheck disable=SC2086  # split into its fields
	set -- $r
	[ "${5:-}" = 0 ] || die "command failed (exit ${5:-?}): $(tail -3 "$ERRLOG")"
	r=$(cat "$g/memory.kmem.max_usage_in_bytes") || die "no kmem figure in $g"
	rmdir "$g"
	KMEM_G=""
	record "$size $kind $round 0 0 0 $((r / 1024))"
}

# measure SIZE KIND ROUND CMD...: runs CMD (stdout to /dev/null), records
# "SIZE KIND ROUND wall user sys maxrss".
measure() {
	local size=$1 kind=$2 round=$3 r
	shift 3
	r=$(python3 "$TMPD/measure.py" /dev/null "$@") || die "cannot run $1"
	# shellcheck disable=SC2086  # split into its fields
	set -- $r
	[ "${5:-}" = 0 ] || die "command failed (exit ${5:-?}): $(tail -3 "$ERRLOG")"
	record "$size $kind $round $1 $2 $3 $4"
}

echo "# size kind round wall_ms user_ms sys_ms maxrss_kib (floor*: files kept open)" >"$RAW"

# floor_run SIZE ROUND NAME KIND [-e]: one floor run, its median refresh.
floor_run() {
	local size=$1 round=$2 name=$3 kind=$4 line
	shift 4
	"$OUT/floor" -n "$FLOOR_N" -s "$FLOOR_PAUSE" -f "$FLOOR_FILES" "$@" "$name" >"$TMPD/floor.out" 2>>"$ERRLOG" ||
		die "floor failed: $(tail -3 "$ERRLOG")"
	line=$(tail -1 "$TMPD/floor.out")
	# shellcheck disable=SC2086  # split into its fields
	set -- $line
	# floor groups G files F reads R failed_opens X walk_ms W refreshes N
	#       wall_ms W user_ms U sys_ms S cpu_ms C kept K
	[ "$1" = floor ] || die "floor printed '$line'"
	[ "$3" = "$size" ] || die "floor saw $3 groups, wanted $size"
	record "$size $kind $round ${15} ${17} ${19} ${23}"
}

# ---- the screen: bytes per refresh at 80x24 ---------------------------------
cat >"$TMPD/poll.py" <<'EOF'
# poll.py OUT TRACE WARM SECS: OUT is what the program wrote to its terminal
# (pipe-pane), TRACE its strace -ttt log of poll/ppoll/select/pselect6 (or
# "-" when there is no strace).  After the first output plus WARM seconds
# (the first screen, and the second sample that fills in the rates), it
# counts for SECS seconds the bytes written and the refreshes: one refresh is
# one wait of the main loop for a key, i.e. a poll/select with a timeout
# other than zero (ncurses' zero-timeout typeahead checks are not refreshes).
# Prints "refreshes R bytes B bytes_per_refresh X seconds S".
import os, re, sys, time
out, trace, warm, secs = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
start = time.time()
while os.path.getsize(out) == 0 and time.time() - start < 30:
    time.sleep(0.01)
time.sleep(warm)
t0, s0 = time.time(), os.path.getsize(out)
time.sleep(secs)
t1, s1 = time.time(), os.path.getsize(out)
time.sleep(0.2)     # let strace write out the last lines
waits = 0
if trace != "-":
    zero = re.compile(r", 0\)\s*=|\{tv_sec=0, tv_nsec=0\}")
    for line in open(trace, errors="replace"):
        f = line.split(None, 2)
        if len(f) < 3 or not re.match(r"(poll|ppoll|select|pselect6)\(", f[2]):
            continue
        try:
            ts = float(f[1])
        except ValueError:
            continue
        if t0 < ts <= t1 and not zero.search(f[2]):
            waits += 1
per = "%.1f" % ((s1 - s0) / waits) if waits else "nan"
print("refreshes %d bytes %d bytes_per_refresh %s seconds %.1f"
      % (waits, s1 - s0, per, t1 - t0))
EOF

# tui_bytes LABEL CMD...: runs CMD in an 80x24 tmux pane (under strace, which
# stops it only at the poll/select family), prints poll.py's line.
tui_bytes() {
	local label=$1 f go cmd tr=- st=""
	shift
	f=$TMPD/tui-$label.out
	go=$TMPD/go-$label
	: >"$f"
	if command -v strace >/dev/null; then
		tr=$TMPD/tui-$label.trace
		st="strace -f -ttt -qq --seccomp-bpf -e trace=poll,ppoll,select,pselect6 -e signal=none -o $tr"
	fi
	cmd=$(printf '%q ' "$@")
	# the program starts only once pipe-pane is in place: nothing is lost
	tmux -L "$TSRV" -f "$TMPD/tmux.conf" new-session -d -x 80 -y 24 \
		-s "$label" "while [ ! -e $go ]; do sleep 0.05; done; exec $st $cmd" ||
		return 1
	tmux -L "$TSRV" pipe-pane -o -t "$label" "cat >> $f" || return 1
	local geo
	geo=$(tmux -L "$TSRV" display -p -t "$label" '#{pane_width}x#{pane_height}')
	touch "$go"
	local pane
	pane=$(tmux -L "$TSRV" display -p -t "$label" '#{pane_pid}')
	python3 "$TMPD/poll.py" "$f" "$tr" "$TUI_WARM" "$TUI_SECS"
	[ "$geo" = 80x24 ] || echo "run.sh: note: pane was $geo, not 80x24" >&2
	# quit it with its own key; the session ends with it
	tmux -L "$TSRV" send-keys -t "$label" q 2>/dev/null
	for _ in $(seq 50); do
		tmux -L "$TSRV" has-session -t "$label" 2>/dev/null || return 0
		sleep 0.1
	done
	echo "run.sh: note: $label did not quit on q; killing it" >&2
	stop_pane "$pane"
	tmux -L "$TSRV" kill-session -t "$label" 2>/dev/null
	return 0
}

# stop_pane PID: ends the pane's process (strace or the program) and its
# children, by pid.  (A traced program whose terminal is gone may not get
# its SIGHUP, so the server is never just killed under a running program.)
stop_pane() {
	local p=$1 kids
	[ -n "$p" ] || return 0
	kids=$(pgrep -P "$p" 2>/dev/null)
	# shellcheck disable=SC2086
	[ -n "$kids" ] && kill $kids 2>/dev/null
	kill "$p" 2>/dev/null
	sleep 0.3
	# shellcheck disable=SC2086
	[ -n "$kids" ] && kill -9 $kids 2>/dev/null
	kill -9 "$p" 2>/dev/null
	return 0
}
printf 'set -g status off\nset -g default-terminal screen\n' >"$TMPD/tmux.conf"

# tmux_down: ends the private tmux server and removes its socket.
tmux_down() {
	local sock p
	sock=${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TSRV
	for p in $(tmux -L "$TSRV" list-panes -a -F '#{pane_pid}' 2>/dev/null); do
		stop_pane "$p"
	done
	tmux -L "$TSRV" kill-server 2>/dev/null
	[ -S "$sock" ] && rm -f "$sock"
	TMUX_UP=0
}

TUI_LINES=()
tui_part() {
	local name=$1 size=$2 r
	if [ "$TUI" != 1 ]; then
		return
	fi
	if ! command -v tmux >/dev/null; then
		TUI_LINES+=("tui SKIP (tmux not installed)")
		return
	fi
	echo "-- screen at $size groups: memcgtop -d 0.5 and top -d 0.5 at 80x24"
	TMUX_UP=1	# set here: tui_bytes runs in a subshell
	r=$(tui_bytes memcgtop env "MEMCGTOP_FRAME_STATS=$TMPD/frames" \
		"$MEMCGTOP" -d 0.5 "/$name") || die "tmux run of memcgtop failed"
	TUI_LINES+=("tui memcgtop $size $r")
	[ -s "$TMPD/frames" ] || die "memcgtop wrote no frame figures"
	TUI_LINES+=("frames memcgtop $size $(cat "$TMPD/frames")")
	r=$(tui_bytes top top -d 0.5) || die "tmux run of top failed"
	TUI_LINES+=("tui top $size $r")
	tmux_down
}

# ---- the runs ------------------------------------------------------------------
T_START=$(date +%s)
for size in $SIZES; do
	name=memcgtop-bench-$$-$size
	echo "== $size groups: /$name"
	CUR=$name
	"$TREE" create "$name" "$size" || die "cannot build the tree"

	# sanity: memcgtop sees exactly the tree
	"$MEMCGTOP" -b -F json -n 1 -d "$DELAY" --collector bpf "/$name" >"$TMPD/check.json" 2>>"$ERRLOG" ||
		die "memcgtop --collector bpf failed: $(tail -3 "$ERRLOG")"
	seen=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["groups"]))' \
		"$TMPD/check.json") || die "memcgtop's JSON did not parse"
	[ "$seen" = "$size" ] || echo "run.sh: note: memcgtop shows $seen groups, tree has $size" >&2

	for round in $(seq "$REPS"); do
		printf '   round %s/%s\r' "$round" "$REPS"
		measure "$size" mc_lo "$round" \
			"$MEMCGTOP" -b -F "$FORMAT" -n "$K_LO" -d "$DELAY" --collector files "/$name"
		measure "$size" mc_hi "$round" \
			"$MEMCGTOP" -b -F "$FORMAT" -n "$K_HI" -d "$DELAY" --collector files "/$name"
		measure "$size" mc_cold "$round" \
			"$MEMCGTOP" -b -F "$FORMAT" -n 1 -d "$DELAY" --collector files "/$name"
		measure "$size" mb_lo "$round" \
			"$MEMCGTOP" -b -F "$FORMAT" -n "$K_LO" -d "$DELAY" --collector bpf "/$name"
		measure "$size" mb_hi "$round" \
			"$MEMCGTOP" -b -F "$FORMAT" -n "$K_HI" -d "$DELAY" --collector bpf "/$name"
		measure "$size" mb_cold "$round" \
			"$MEMCGTOP" -b -F "$FORMAT" -n 1 -d "$DELAY" --collector bpf "/$name"
		# The floor keeps a directory descriptor per group.
		if [ "$size" -lt $(( $(ulimit -n) - 200 )) ]; then
		floor_run "$size" "$round" "$name" floor
		floor_run "$size" "$round" "$name" floor_b2b -s 0
		floor_run "$size" "$round" "$name" floor_eof -e
		floor_run "$size" "$round" "$name" floor_p -p
		floor_run "$size" "$round" "$name" floor_p_eof -p -e
		floor_run "$size" "$round" "$name" floor_u -u
		fi
		kmem_run "$size" mc_kmem "$round" \
			"$MEMCGTOP" -b -F "$FORMAT" -n "$K_LO" -d "$DELAY" --collector files "/$name"
		kmem_run "$size" mb_kmem "$round" \
			"$MEMCGTOP" -b -F "$FORMAT" -n "$K_LO" -d "$DELAY" --collector bpf "/$name"
		[ "$size" -lt $(( $(ulimit -n) - 200 )) ] &&
		kmem_run "$size" floor_p_kmem "$round" \
			"$OUT/floor" -n 2 -p -f "$FLOOR_FILES" "$name"
		if [ -n "$CGTOP" ]; then
			measure "$size" cg_cold "$round" \
				"$CGTOP" -b -n 1 --depth=20 -m "/$name"
			measure "$size" cg_lo "$round" \
				"$CGTOP" -b -n "$K_LO" -d "$DELAY" --depth=20 -m "/$name"
			measure "$size" cg_hi "$round" \
				"$CGTOP" -b -n "$K_HI" -d "$DELAY" --depth=20 -m "/$name"
		fi
	done
	echo "   $REPS rounds done      "
	[ "$size" = "$TUI_SIZE" ] && tui_part "$name" "$size"

	"$TREE" destroy "$name" || die "cannot remove the tree"
	CUR=""
done
# ---- page faults with the reclaim events --------------------------------------
RECLAIM=${RECLAIM:-1}
RECLAIM_ROUNDS=${RECLAIM_ROUNDS:-9}
RECLAIM_LINES=()
if [ "$RECLAIM" = 1 ]; then
	echo "== page faults without and with memcgtop's reclaim events ($RECLAIM_ROUNDS rounds)" >&2
	ATTACH=memcgtop MEMCGTOP=$MEMCGTOP tests/bench/reclaim-overhead.sh "$RECLAIM_ROUNDS" \
		>"$TMPD/reclaim.txt" 2>&1
	mapfile -t RECLAIM_LINES < <(grep -E '^(median|count_event|SKIP)' "$TMPD/reclaim.txt" ||
		sed 's/^/reclaim-overhead.sh: /' "$TMPD/reclaim.txt")
fi
T_END=$(date +%s)

# ---- the summary -------------------------------------------------------------------
for l in "${TUI_LINES[@]+"${TUI_LINES[@]}"}"; do
	record "# $l"
done
{
	echo "memcgtop benchmark, $(date -u '+%Y-%m-%d %H:%M:%SZ')"
	echo "command: FORMAT=$FORMAT SIZES=\"$SIZES\" REPS=$REPS K_LO=$K_LO K_HI=$K_HI FLOOR_N=$FLOOR_N FLOOR_PAUSE=$FLOOR_PAUSE TUI=$TUI RECLAIM=$RECLAIM RECLAIM_ROUNDS=$RECLAIM_ROUNDS tests/bench/run.sh"
	echo "machine: $(uname -srm), $(nproc) CPUs, RLIMIT_NOFILE hard $(ulimit -Hn)"
	echo "binaries: $("$MEMCGTOP" -V 2>/dev/null) ($MC_SRC, sha256 $MC_SUM...)," \
		"${CGTOP:+$("$CGTOP" --version | head -1)}${CGTOP:-no systemd-cgtop}"
	echo "run time: $((T_END - T_START)) s"
	python3 - "$RAW" "$K_LO" "$K_HI" "${CGTOP:+1}" "$FLOOR_FILES" <<'EOF'
import sys, statistics as st
raw, klo, khi, have_cg = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
nfiles = len(sys.argv[5].split(","))
rows = {}
tui = []
frames = []
for line in open(raw):
    if line.startswith("# tui"):
        tui.append(line[2:].split())
        continue
    if line.startswith("# frames"):
        frames.append(line[2:].split())
        continue
    if line.startswith("#"):
        continue
    size, kind, rnd, wall, user, sys_, rss = line.split()
    rows.setdefault(int(size), {}).setdefault(kind, {})[int(rnd)] = \
        (float(wall), float(user), float(sys_), int(rss))

def med(xs):
    return st.median(xs) if xs else float("nan")

def steady(d, lo, hi):
    """median over rounds of (hi - lo) / (khi - klo): wall, user, sys, cpu"""
    out = [[], [], [], []]
    for r in d.get(hi, {}):
        if r not in d.get(lo, {}):
            continue
        a, b = d[lo][r], d[hi][r]
        w, u, s = [(b[i] - a[i]) / (khi - klo) for i in range(3)]
        for i, v in enumerate((w, u, s, u + s)):
            out[i].append(v)
    return [med(x) for x in out]

def single(d, kind):
    xs = list(d.get(kind, {}).values())
    return [med([x[0] for x in xs]), med([x[1] for x in xs]),
            med([x[2] for x in xs]), med([x[1] + x[2] for x in xs]),
            med([x[3] for x in xs])]

def f(v, nd=1):
    return "   n/a" if v != v else "%.*f" % (nd, v)

def ratio(a, b):
    return float("nan") if not b or a != a or b != b else a / b

summary = {}
for size in sorted(rows):
    d = rows[size]
    n = len(d.get("mc_hi", {}))
    mcs = steady(d, "mc_lo", "mc_hi")
    mcc = single(d, "mc_cold")
    mch = single(d, "mc_hi")
    fl = single(d, "floor")
    flb = single(d, "floor_b2b")
    fle = single(d, "floor_eof")
    flp = single(d, "floor_p")
    flpe = single(d, "floor_p_eof")
    flu = single(d, "floor_u")
    kept = flp[4]
    cgc = single(d, "cg_cold") if have_cg else None
    cgs = steady(d, "cg_lo", "cg_hi") if have_cg else None
    mbs = steady(d, "mb_lo", "mb_hi")
    mbc = single(d, "mb_cold")
    mbh = single(d, "mb_hi")
    summary[size] = (mcs, fl, fle, cgs, mcc, cgc, flpe, flb, mbs, mbc, mbh)
    print()
    print("== %d groups, 12 levels below the tree root, %d rounds, medians" % (size, n))
    print("%-46s %9s %9s %9s %9s %10s" % ("", "cpu ms", "user ms", "sys ms", "wall ms", "maxrss KiB"))
    def row(label, v, rss=None):
        print("%-46s %9s %9s %9s %9s %10s" % (label, f(v[3]), f(v[1]), f(v[2]), f(v[0]),
              "" if rss is None else ("%d" % rss if rss == rss else "n/a")))
    row("memcgtop steady, per refresh (-d 0.05)", mcs, mch[4])
    row("memcgtop cold -b -n 1 -d 0.05 (2 samples)", [mcc[0], mcc[1], mcc[2], mcc[3]], mcc[4])
    row("memcgtop bpf steady, per refresh", mbs, mbh[4])
    row("memcgtop bpf cold -b -n 1 -d 0.05", [mbc[0], mbc[1], mbc[2], mbc[3]], mbc[4])
    row("floor, per refresh (1 read per file)", [fl[0], fl[1], fl[2], fl[3]])
    row("floor, back to back (no pause)", [flb[0], flb[1], flb[2], flb[3]])
    row("floor -e, per refresh (read to EOF)", [fle[0], fle[1], fle[2], fle[3]])
    row("floor -p, kept fds+pread (%s of %d kept)" % (f(kept, 0), size * nfiles), [flp[0], flp[1], flp[2], flp[3]])
    row("floor -p -e, kept fds+pread to EOF", [flpe[0], flpe[1], flpe[2], flpe[3]])
    row("floor -u, io_uring (open+read+close linked)", [flu[0], flu[1], flu[2], flu[3]])
    if have_cg:
        row("systemd-cgtop steady, per refresh", cgs, single(d, "cg_hi")[4])
        row("systemd-cgtop -b -n 1 cold (1 sample)", [cgc[0], cgc[1], cgc[2], cgc[3]], cgc[4])
    else:
        print("%-46s %9s" % ("systemd-cgtop", "SKIP"))
    print("peak kernel memory charged: memcgtop %s KiB, memcgtop bpf %s KiB, floor -p (files kept open) %s KiB"
          % (f(single(d, "mc_kmem")[4], 0), f(single(d, "mb_kmem")[4], 0), f(single(d, "floor_p_kmem")[4], 0)))
    print("memcgtop steady CPU per group and refresh: %s us (floor %s us, floor -e %s us)"
          % (f(mcs[3] * 1e3 / size, 2), f(fl[3] * 1e3 / size, 2), f(fle[3] * 1e3 / size, 2)))
    print("ratio memcgtop/floor (steady CPU per refresh): %s   (/floor back to back %s, /floor -e %s, /floor -p %s, /floor -p -e %s)"
          % (f(ratio(mcs[3], fl[3]), 2), f(ratio(mcs[3], flb[3]), 2), f(ratio(mcs[3], fle[3]), 2),
             f(ratio(mcs[3], flp[3]), 2), f(ratio(mcs[3], flpe[3]), 2)))
    if have_cg:
        print("ratio memcgtop/systemd-cgtop: steady CPU per refresh %s, cold process CPU %s, cold wall %s"
              % (f(ratio(mcs[3], cgs[3]), 2), f(ratio(mcc[3], cgc[3]), 2), f(ratio(mcc[0], cgc[0]), 2)))
    else:
        print("ratio memcgtop/systemd-cgtop: SKIP")
    print("ratio memcgtop bpf/floor (steady CPU per refresh): %s   (/floor back to back %s)"
          % (f(ratio(mbs[3], fl[3]), 3), f(ratio(mbs[3], flb[3]), 3)))
    if have_cg:
        print("ratio memcgtop bpf/systemd-cgtop: steady CPU per refresh %s, cold process CPU %s, cold wall %s"
              % (f(ratio(mbs[3], cgs[3]), 3), f(ratio(mbc[3], cgc[3]), 3), f(ratio(mbc[0], cgc[0]), 3)))

if len(summary) >= 2:
    lo, hi = min(summary), max(summary)
    a, b = summary[lo], summary[hi]
    print()
    print("== growth %d vs %d groups (x%.0f groups), steady CPU per refresh" % (hi, lo, hi / lo))
    print("memcgtop      %s   (%s -> %s ms)" % (f(ratio(b[0][3], a[0][3]), 2), f(a[0][3]), f(b[0][3])))
    print("floor         %s   (%s -> %s ms)" % (f(ratio(b[1][3], a[1][3]), 2), f(a[1][3]), f(b[1][3])))
    print("floor b2b     %s   (%s -> %s ms)" % (f(ratio(b[7][3], a[7][3]), 2), f(a[7][3]), f(b[7][3])))
    print("floor -p -e   %s   (%s -> %s ms)" % (f(ratio(b[6][3], a[6][3]), 2), f(a[6][3]), f(b[6][3])))
    if have_cg:
        print("systemd-cgtop %s   (%s -> %s ms)" % (f(ratio(b[3][3], a[3][3]), 2), f(a[3][3]), f(b[3][3])))
    print("memcgtop cold %s   (%s -> %s ms CPU, whole process)" % (f(ratio(b[4][3], a[4][3]), 2), f(a[4][3]), f(b[4][3])))
    print("memcgtop bpf  %s   (%s -> %s ms; peak RSS %s -> %s KiB)" % (f(ratio(b[8][3], a[8][3]), 2), f(a[8][3], 2), f(b[8][3], 2),
          f(a[10][4], 0), f(b[10][4], 0)))

if tui:
    print()
    print("== interactive screen, 80x24, -d 0.5: bytes written to the terminal per steady refresh")
    for t in tui:
        if t[1] == "SKIP":
            print(" ".join(t))
            continue
        kv = dict(zip(t[3::2], t[4::2]))
        print("%-9s (tree of %s groups): %s bytes/refresh (%s bytes in %s refreshes, %s s)"
              % (t[1], t[2], kv["bytes_per_refresh"], kv["bytes"], kv["refreshes"], kv["seconds"]))
for t in frames:
    kv = dict(zip(t[3::2], t[4::2]))
    print("memcgtop frame after a refresh (order + layout + draw + write), tree of %s groups:"
          " CPU median %s us, p90 %s us, max %s us (%s frames)"
          % (t[2], kv["median_us"], kv["p90_us"], kv["max_us"], kv["frames"]))
EOF
	if [ "${#RECLAIM_LINES[@]}" -gt 0 ]; then
		echo
		echo "== page faults (build/default/faultbench, 1 GiB in 64 MiB maps), CPU per fault without memcgtop and with its reclaim events"
		printf '%s\n' "${RECLAIM_LINES[@]}"
	fi
} | tee "$OUT/results.txt"
echo "(written to $OUT/results.txt, raw figures in $RAW)"
