#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# screen.sh [COUNT] - the screen's CPU per refresh against batch's, for the
# same columns on the same tree.  As root, on the v1 memory hierarchy.
#
# It builds a COUNT-group tree (default 512, tests/bench/tree.sh), then for
# each collector (the default, bpf as root on Linux 6.1+, and the files:
# MEMCGTOP_BPF_FAIL=perm) and $REPS rounds (default 5):
#   batch   memcgtop -b -n 2 and -n 12 -d 0.1 /TREE: per refresh =
#           (cpu(12) - cpu(2)) / 10, user + sys of the process (wait4);
#   screen  memcgtop -d 0.1 /TREE at 80x24 in a private tmux server: after
#           $WARM s (default 3), its user + sys time (/proc/PID/stat) over
#           $SECS s (default 10) divided by the refreshes due in them, one
#           every 0.1 s (its refreshes keep fixed deadlines: at sizes where
#           a refresh takes less than the interval, as at 512 groups).
# Both show the overview, the default of text and of the screen.  Medians
# over the rounds and screen / batch are printed; no timing is judged.
# MEMCGTOP (./memcgtop) is the binary.  The tree and the tmux server are
# removed on exit.
set -eu

COUNT=${1:-512}
REPS=${REPS:-5}
WARM=${WARM:-3}
SECS=${SECS:-10}
HERE=$(cd "$(dirname "$0")" && pwd)
MEMCGTOP=${MEMCGTOP:-$HERE/../../memcgtop}
NAME=memcgtop-screen-$$
SRV=screen-bench-$$

cleanup() {
	tmux -L "$SRV" kill-server 2>/dev/null || true
	"$HERE/tree.sh" destroy "$NAME" >/dev/null 2>&1 || true
}
trap cleanup EXIT INT TERM

[ "$(id -u)" = 0 ] || { echo "screen.sh: needs root" >&2; exit 2; }
command -v tmux >/dev/null || { echo "screen.sh: needs tmux" >&2; exit 2; }
[ -x "$MEMCGTOP" ] || { echo "screen.sh: no $MEMCGTOP" >&2; exit 2; }
"$HERE/tree.sh" create "$NAME" "$COUNT" >/dev/null
"$MEMCGTOP" -b -n 1 "/$NAME" >/dev/null

python3 - "$MEMCGTOP" "/$NAME" "$SRV" "$REPS" "$WARM" "$SECS" "$COUNT" <<'EOF'
import os, statistics, subprocess, sys, time
mc, tree, srv, reps, warm, secs, count = sys.argv[1:]
reps, warm, secs = int(reps), float(warm), float(secs)
DELAY = 0.1
TICK = os.sysconf("SC_CLK_TCK")

def batch(env, n):
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.execvpe(mc, [mc, "-b", "-n", str(n), "-d", str(DELAY), tree], env)
    _, st, ru = os.wait4(pid, 0)
    assert os.waitstatus_to_exitcode(st) == 0, "batch failed"
    return (ru.ru_utime + ru.ru_stime) * 1e3

def cpu_of(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) * 1e3 / TICK

def screen(env):
    envs = " ".join("%s=%s" % kv for kv in env.items() if kv[0].startswith("MEMCGTOP"))
    pidfile = "/tmp/%s.pid" % srv
    cmd = "echo $$ >%s && exec env %s TERM=xterm-256color LANG=C.UTF-8 %s -d %s %s" % (
        pidfile, envs, mc, DELAY, tree)
    subprocess.run(["tmux", "-L", srv, "-f", "/dev/null", "new-session", "-d",
                    "-x", "80", "-y", "24", "bash", "--norc", "-c", cmd], check=True)
    for _ in range(200):
        if os.path.exists(pidfile) and os.path.getsize(pidfile):
            break
        time.sleep(0.05)
    pid = int(open(pidfile).read())
    os.unlink(pidfile)
    time.sleep(warm)
    t0, c0 = time.monotonic(), cpu_of(pid)
    time.sleep(secs)
    t1, c1 = time.monotonic(), cpu_of(pid)
    subprocess.run(["tmux", "-L", srv, "kill-server"])
    return (c1 - c0) / ((t1 - t0) / DELAY)

for label, extra in (("default", {}), ("files", {"MEMCGTOP_BPF_FAIL": "perm"})):
    env = dict(os.environ, **extra)
    b, s = [], []
    for _ in range(reps):
        b.append((batch(env, 12) - batch(env, 2)) / 10)
        s.append(screen(env))
    mb, ms = statistics.median(b), statistics.median(s)
    print("%s groups, %s collector: screen %.2f ms/refresh, batch %.2f ms/refresh, screen/batch %.2f"
          % (count, label, ms, mb, ms / mb if mb > 0 else float("nan")))
EOF
