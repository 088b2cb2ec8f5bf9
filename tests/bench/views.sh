#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# views.sh [COUNT...] - what each view costs with each collector, as ratios
# measured in one run (make bench).  As root, on the v1 memory hierarchy.
#
# For each COUNT (default 8192) it builds a tree of that many groups, 12
# levels deep (tests/bench/tree.sh), all of them before the first figure,
# and runs $REPS rounds (default 5); a round runs, for each COUNT in turn,
# every view with both collectors, alternately:
#   floor     the rows alone (-c path): the walk, each group's name and
#             the text, no value; floor(bpf)/files is the least ratio a
#             view could have were its values free
#   default   the v1 default columns (memcgtop -b with no -c)
#   lru       usage and the five LRU lists
#   mission   usage, soft, excess, the four LRU lists, pgscan/s, pgsteal/s
#   json      -F json: every column
#   numa      -F json -c path,numa: the LRU lists per NUMA node
# each with -n 2 and -n 12 at -d 0.05: CPU per refresh = (cpu(12) -
# cpu(2)) / 10, user + sys of the process (wait4), start-up excluded;
# medians over the rounds.  With two COUNTs or more, the growth of each
# view's cost from the first COUNT to each other one: the ratio of the two
# within each round, median over the rounds and their range (so that the
# machine's drift between one COUNT's runs and another's does not enter
# it); then the same for the pass's default and mission views alone, with
# -n 2 and -n 32 (30 refreshes a run) and $GROWTH_REPS rounds (default 9).  Then, once
# per COUNT, view and collector, with perf
# (when present): the kernel's stats flush calls memcgtop made per
# refresh (memcg:memcg_flush_stats events of its pid, (n12 - n2) / 10),
# and whether it attached any tracepoint program (the reclaim events).
# (Peak RSS: tests/bench/mem.sh.)
# It prints each figure and the ratios the README's table gives:
#   view(bpf) / view(files)     the pass against the files, same view
#   view(bpf) / default(bpf)    a view against the default view's cost
#   floor(bpf) / view(files)    the rows alone with the pass against the
#                               view with the files
# No figure is judged: the machine is shared and noisy.  The trees exist
# together: v1 numbers memory cgroups in 16 bits, so all COUNTs with the
# host's other groups must stay under 65,535 (8,192 and 32,768 do).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
MEMCGTOP=${MEMCGTOP:-$HERE/../../memcgtop}
REPS=${REPS:-5}
COUNTS=${*:-8192}
NAME=memcgtop-views-$$
RAW=$(mktemp)
BIN=$(mktemp)

cleanup() {
	for COUNT in $COUNTS; do
		"$HERE/tree.sh" destroy "$NAME-$COUNT" >/dev/null 2>&1 || true
	done
	rm -f "$RAW" "$BIN"
}
trap cleanup EXIT INT TERM

[ "$(id -u)" = 0 ] || { echo "views.sh: SKIP: needs root"; exit 0; }
[ -d /sys/fs/cgroup/memory ] || { echo "views.sh: SKIP: no v1 memory hierarchy"; exit 0; }
# One binary for the whole run: a rebuild meanwhile cannot mix two.
cp "$MEMCGTOP" "$BIN"
chmod +x "$BIN"

for COUNT in $COUNTS; do
	"$HERE/tree.sh" destroy "$NAME-$COUNT" >/dev/null 2>&1 || true
	"$HERE/tree.sh" create "$NAME-$COUNT" "$COUNT" >/dev/null
	"$BIN" -b -n 1 "/$NAME-$COUNT" >/dev/null
done
python3 - "$BIN" "/$NAME" "$REPS" $COUNTS <<'EOF'
import os, re, shutil, statistics, subprocess, sys, tempfile, time
binary, prefix, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
counts = [int(c) for c in sys.argv[4:]]
views = {
    "floor": ["-c", "path"],
    "default": [],
    "lru": ["-c", "path,usage,active_anon,inactive_anon,active_file,"
                  "inactive_file,unevictable"],
    "mission": ["-c", "path,usage,soft,excess,active_anon,inactive_anon,"
                      "active_file,inactive_file,pgscan_per_s,pgsteal_per_s"],
    "json": ["-F", "json"],
    "numa": ["-F", "json", "-c", "path,numa"],
}
collectors = ("bpf", "files")

def run(tree, coll, view, k, pre=()):
    cmd = list(pre) + [binary, "--collector", coll, "-b", "-n", str(k),
                       "-d", "0.05"] + views[view] + [tree]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    err = p.stderr.read().decode()
    if status != 0:
        sys.exit(f"views.sh: {' '.join(cmd)}: status {status}: {err}")
    return ru, err

cpu = {}
for _ in range(reps):
    for count in counts:
        for view in views:
            for coll in collectors:
                lo, _ = run(f"{prefix}-{count}", coll, view, 2)
                hi, _ = run(f"{prefix}-{count}", coll, view, 12)
                per = ((hi.ru_utime + hi.ru_stime) - (lo.ru_utime + lo.ru_stime)) / 10 * 1000
                cpu.setdefault((count, view, coll), []).append(per)

def table(count):
    med = {k[1:]: statistics.median(v) for k, v in cpu.items() if k[0] == count}
    print(f"== {count} groups, 12 levels, CPU per refresh (ms, median of {reps})")
    print(f"{'view':8} {'bpf':>8} {'files':>8} {'bpf/files':>10} {'bpf/default(bpf)':>17} {'floor(bpf)/files':>17}")
    for view in views:
        b, f = med[(view, "bpf")], med[(view, "files")]
        print(f"{view:8} {b:8.1f} {f:8.1f} {b / f:10.3f} {b / med[('default', 'bpf')]:17.2f} "
              f"{med[('floor', 'bpf')] / f:17.3f}")

def flushes(count):
    tree = f"{prefix}-{count}"
    perf = shutil.which("perf")
    if perf:
        print(f"== {count} groups: stats flush calls per refresh (memcg:memcg_flush_stats of memcgtop's pid), tracepoint programs attached")
        for view in views:
            for coll in collectors:
                calls = []
                for k in (2, 12):
                    with tempfile.NamedTemporaryFile("r") as out:
                        run(tree, coll, view, k, [perf, "stat", "-x,", "-o", out.name,
                                            "-e", "memcg:memcg_flush_stats", "--"])
                        text = out.read()
                    m = re.search(r"^(\d+),+memcg:memcg_flush_stats", text, re.M)
                    calls.append(int(m.group(1)) if m else -1)
                flush = (calls[1] - calls[0]) / 10 if min(calls) >= 0 else float("nan")
                # A tracepoint program is attached through a perf_event fd:
                # count those memcgtop holds while it runs.
                p = subprocess.Popen([binary, "--collector", coll, "-b", "-n", "3",
                                      "-d", "0.3"] + views[view] + [tree],
                                     stdout=subprocess.DEVNULL)
                time.sleep(0.6)
                links = 0
                try:
                    for fd in os.listdir(f"/proc/{p.pid}/fd"):
                        try:
                            if "perf_event" in os.readlink(f"/proc/{p.pid}/fd/{fd}"):
                                links += 1
                        except OSError:
                            pass
                except OSError:
                    pass
                p.wait()
                print(f"{view:8} {coll:6} flush calls/refresh {flush:6.1f}  tracepoint links {links}")

for count in counts:
    table(count)
# Growth: each round's cost at a COUNT over its cost at the first, in the
# same round; the median of the rounds' ratios, and their range.
def growth(samples, count, view, coll):
    r = sorted(a / b for a, b in zip(samples[(count, view, coll)],
                                      samples[(counts[0], view, coll)]))
    return f"{statistics.median(r):5.2f} ({r[0]:.2f} to {r[-1]:.2f})"

for count in counts[1:]:
    print(f"== growth from {counts[0]} to {count} groups ({count / counts[0]:g}x the groups): "
          f"median of the rounds' ratios (range)")
    print(f"{'view':8} {'bpf':>20} {'files':>20}")
    for view in views:
        print(f"{view:8} {growth(cpu, count, view, 'bpf'):>20} {growth(cpu, count, view, 'files'):>20}")
# The same for the pass's default and mission views on their own, with
# 30 refreshes a run (-n 32 less -n 2) and $GROWTH_REPS rounds: a ratio of
# two noisy figures needs more of them than the table does.
if len(counts) > 1:
    greps = int(os.environ.get("GROWTH_REPS", "9"))
    gcpu = {}
    for _ in range(greps):
        for count in counts:
            for view in ("default", "mission"):
                lo, _ = run(f"{prefix}-{count}", "bpf", view, 2)
                hi, _ = run(f"{prefix}-{count}", "bpf", view, 32)
                per = ((hi.ru_utime + hi.ru_stime) - (lo.ru_utime + lo.ru_stime)) / 30 * 1000
                gcpu.setdefault((count, view, "bpf"), []).append(per)
    for count in counts[1:]:
        print(f"== growth from {counts[0]} to {count} groups with the pass, 30 refreshes a run, "
              f"{greps} rounds: median of the rounds' ratios (range); ms per refresh, medians")
        for view in ("default", "mission"):
            print(f"{view:8} {growth(gcpu, count, view, 'bpf'):>20}  "
                  f"{statistics.median(gcpu[(counts[0], view, 'bpf')]):.1f} -> "
                  f"{statistics.median(gcpu[(count, view, 'bpf')]):.1f}")
for count in counts:
    flushes(count)
EOF
