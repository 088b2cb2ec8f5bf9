#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/set-v2.sh - run memcgtop --set against live cgroup v2 groups in
# the qemu test VM (tests/vm/vm.sh) and check each output line, exit status
# and what the kernel holds afterwards.
#
#   tests/vm/set-v2.sh
#
# In the guest, below /sys/fs/cgroup/set:
#   knobs   empty: limit (a value that is not a page multiple), max (the
#           alias of limit), limit=max, high, low, min, swap.max, oom.group
#           set and read back
#   cache   64 MiB of page cache (a never-written zram device read through
#           a descriptor that stays open): reclaim=16M (done, or refused
#           with EAGAIN) and memory.current dropping; "reclaim=16M
#           swappiness=60" (6.1 predates swappiness= in memory.reclaim: the
#           kernel refuses it with EINVAL); reclaim=1G (more than the group
#           holds: EAGAIN)
#   anon    memload anon 64: swap.max=0, then limit=16M below its usage,
#           which the kernel answers with an OOM kill (memory.events
#           oom_kill + 1) while the write itself is done
# and the v1-only knobs soft and swappiness are usage errors listing the v2
# knobs.  Every run appends to one --audit-log file, checked line by line.
# The guest writes each run's exit status, stdout, stderr and the kernel
# file before and after into the share; the host computes the expected
# lines from the man page's format and those files:
#
#   PATH: KNOB (FILE): OLD -> NEW: done, the kernel holds NOW (HUMAN)
#   PATH: KNOB (FILE): OLD -> NEW: refused: STRERROR: EXPLANATION
#
# (reclaim: OLD is "-" and "done" has no ", the kernel holds ...").
#
# Output: one "PASS: ..." / "FAIL: ..." line per check, then
# "set-v2: N passed, M failed"; exit 0 when all pass, 1 otherwise.
# Without qemu, the kernel package, a static libc or python3 (and no way to
# get them) it prints "SKIP: set v2: REASON" and exits 77 -- unless CI=true,
# where that is a failure (exit 1).  A VM that does not boot is a failure.
#
# Environment:
#   MEMCGTOP          binary to test (default: REPO/memcgtop, rebuilt with
#                     make first)
#   SET_V2_TIMEOUT    VM timeout in seconds (default 120)
#   SET_V2_KEEP=1     keep the share folder (build/vm/set-v2-share) for
#                     inspection (it is always kept on failure)
#   VM_BUILD, VM_VERBOSE  as for tests/vm/vm.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=${SET_V2_TIMEOUT:-120}
t0=$(date +%s.%N)

NAME="set v2"
. "$HERE/lib.sh"
vm_host_ready
vm_binary

vm_share set-v2

# ---------------------------------------------------------------- guest --
cat > "$share/guest.sh" <<EOF
MEMCGTOP=$bin
EOF
cat >> "$share/guest.sh" <<'EOF'
# runs in the VM (busybox sh as root), cwd = the 9p share
set -u
H=/mnt/host
CG=/sys/fs/cgroup
S=$CG/set
O=$H/out
PATH=$H/bin:$PATH
fail() { echo "GUEST-FAIL: $*"; echo "$*" > $O/guest-fail; exit 1; }
w() { echo "$2" > "$1" || fail "write $2 > $1"; }
note() { echo "guest: $*"; }

uname -r > $O/uname
w $CG/cgroup.subtree_control +memory
mkdir -p $S/knobs $S/cache $S/anon || fail "mkdir"
w $S/cgroup.subtree_control +memory

# cache: 64 MiB of page cache of a never-written zram device, kept by the
# open descriptor 3 of a sleeping shell (a block device's cache goes when
# its last descriptor closes)
w /sys/block/zram1/disksize 64M
sh -c 'echo $$ > "$0/cgroup.procs" && exec 3< /dev/zram1 && cat <&3 > /dev/null &&
	touch /tmp/cache.ready && exec sleep 1000' $S/cache &
# anon: 64 MiB that only swap could take (and swap.max will be 0)
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload anon 64' $S/anon > /tmp/anon.out 2>&1 &
i=0
until [ -e /tmp/cache.ready ] && grep -q ready /tmp/anon.out 2>/dev/null; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "loads not ready after 60 s: $(cat /tmp/anon.out)"
	sleep 0.1
done
note "loads ready: cache $(cat $S/cache/memory.current), anon $(cat $S/anon/memory.current)"

# r NAME GROUP FILE ARGS...: memcgtop ARGS with the audit log; FILE of
# GROUP before and after into the share
r() {
	n=$1 g=$2 f=$3
	shift 3
	cat $S/$g/$f > $O/$n.before 2>&1
	# --follow 0: the one result line this test checks
	$MEMCGTOP --follow 0 "$@" --audit-log $O/audit.log > $O/$n.out 2> $O/$n.err
	echo $? > $O/$n.rc
	cat $S/$g/$f > $O/$n.after 2>&1
}
r limit knobs memory.max --set /set/knobs:limit=100000001
r max knobs memory.max --set /set/knobs:max=64M
r limitmax knobs memory.max --set /set/knobs:limit=max
r high knobs memory.high --set /set/knobs:high=50M
r highmax knobs memory.high --set /set/knobs:high=max
r low knobs memory.low --set /set/knobs:low=1000000
r min knobs memory.min --set /set/knobs:min=4M
r swapmax knobs memory.swap.max --set /set/knobs:swap.max=32M
r swapmaxmax knobs memory.swap.max --set /set/knobs:swap.max=max
r oomgroup1 knobs memory.oom.group --set /set/knobs:oom.group=1
r oomgroup0 knobs memory.oom.group --set /set/knobs:oom.group=0
r reclaim cache memory.current --set /set/cache:reclaim=16M
r reclaimswp cache memory.current --set '/set/cache:reclaim=16M swappiness=60'
r reclaimbig cache memory.current --set /set/cache:reclaim=1G
r anonswap anon memory.swap.max --set /set/anon:swap.max=0
cat $S/anon/memory.events > $O/oom.events-before
cat $S/anon/memory.current > $O/oom.current-before
r oom anon memory.max --set /set/anon:limit=16M
cat $S/anon/memory.events > $O/oom.events-after
sleep 0.5
cat $S/anon/cgroup.procs > $O/oom.procs-after
r soft knobs memory.max --set /set/knobs:soft=10M
r swappiness knobs memory.max --set /set/knobs:swappiness=30
note "done"
for g in cache anon; do echo 1 > $S/$g/cgroup.kill 2>/dev/null; done
sync
echo "GUEST-OK"
EOF

# ------------------------------------------------------------------ run --
set +e
vm_guest_run "$share" "$TMO"

# --------------------------------------------------------------- checks --
python3 - "$share/out" "$vmsecs" <<'PYEOF'
import os, re, sys

out, vmsecs = sys.argv[1], sys.argv[2]
PAGE = 4096
npass = nfail = 0
audit = []      # expected audit lines, in order


def report(ok, what, detail=""):
    global npass, nfail
    if ok:
        npass += 1
        print("PASS: " + what)
    else:
        nfail += 1
        print("FAIL: " + what + (": " + detail if detail else ""))


def crashed(t, v, tb):
    import traceback
    traceback.print_exception(t, v, tb)
    report(False, "checker crashed", "%s: %s" % (t.__name__, v))
    print("set-v2: %d passed, %d failed" % (npass, nfail))
    sys.exit(1)


sys.excepthook = crashed


def rd(name):
    try:
        with open(os.path.join(out, name)) as f:
            return f.read()
    except OSError:
        return None


def human(v):
    """" (95.4M)": the man page's human units; "" below 1K and for max"""
    if not re.fullmatch(r"\d+", v) or int(v) < 1024:
        return ""
    x, u = float(int(v)), -1
    while x >= 1024 and u < 5:
        x /= 1024
        u += 1
    return " (%s%s)" % ("%.1f" % x if x < 99.95 else "%.0f" % x, "KMGTPE"[u])


def kv(text):
    return {l.split()[0]: int(l.split()[1]) for l in (text or "").splitlines()
            if len(l.split()) == 2}


report(bool(vmsecs) and float(vmsecs) < 60, "the VM step took %s s (under 60 s)" % vmsecs)
uname = (rd("uname") or "?").strip()
print("  note: guest kernel %s" % uname)


def run(name, group, knob, file, new, rc=0, refused=None, want_now=None,
        what=None):
    """Checks one run: exit status, the exact line, stderr, the kernel's
    value afterwards (want_now) and the expected audit line.  refused:
    (strerror, explanation) when the kernel should refuse."""
    what = what or "%s=%s" % (knob, new)
    path = "/set/" + group
    before = (rd(name + ".before") or "").strip()
    after = (rd(name + ".after") or "").strip()
    got_rc = (rd(name + ".rc") or "").strip()
    got = (rd(name + ".out") or "").rstrip("\n")
    err = (rd(name + ".err") or "").strip()
    old = "-" if knob == "reclaim" else before
    now = "-" if knob == "reclaim" else after
    if refused:
        line = "%s: %s (%s): %s -> %s: refused: %s: %s" % (
            path, knob, file, old, new, refused[0], refused[1])
        result = {"Device or resource busy": "EBUSY", "Invalid argument": "EINVAL",
                  "Resource temporarily unavailable": "EAGAIN",
                  "Permission denied": "EACCES"}.get(refused[0], refused[0])
    elif knob == "reclaim":
        line = "%s: %s (%s): %s -> %s: done" % (path, knob, file, old, new)
        result = "ok"
    else:
        line = "%s: %s (%s): %s -> %s: done, the kernel holds %s%s" % (
            path, knob, file, old, new, now, human(now))
        result = "ok"
    report(got_rc == str(rc), "%s: exit %d" % (what, rc), "got %s (stderr %r)" % (got_rc, err[:300]))
    report(got == line, "%s: output is exactly: %s" % (what, got if got == line else line),
           "got %r" % got)
    report(err == "", "%s: stderr empty" % what, repr(err[:300]))
    if want_now is not None:
        report(after == str(want_now), "%s: %s holds %s" % (what, file, want_now),
               "holds %r (before %r)" % (after, before))
    if refused and knob != "reclaim":
        report(after == before, "%s: refused, %s unchanged (%s)" % (what, file, before),
               "was %r, now %r" % (before, after))
    audit.append("uid=0 group=%s file=%s old=%s new=%s result=%s now=%s" % (
        path, file, old,
        new, result, now))
    return got


def rounded(n):
    return n // PAGE * PAGE


# ---- knobs read back
run("limit", "knobs", "limit", "memory.max", "100000001", want_now=rounded(100000001),
    what="limit=100000001 (rounded down to pages)")
run("max", "knobs", "limit", "memory.max", "67108864", want_now=67108864,
    what="max=64M (alias of limit)")
run("limitmax", "knobs", "limit", "memory.max", "max", want_now="max")
run("high", "knobs", "high", "memory.high", "52428800", want_now=52428800, what="high=50M")
run("highmax", "knobs", "high", "memory.high", "max", want_now="max")
run("low", "knobs", "low", "memory.low", "1000000", want_now=rounded(1000000),
    what="low=1000000 (rounded down to pages)")
run("min", "knobs", "min", "memory.min", "4194304", want_now=4194304, what="min=4M")
run("swapmax", "knobs", "swap.max", "memory.swap.max", "33554432", want_now=33554432,
    what="swap.max=32M")
run("swapmaxmax", "knobs", "swap.max", "memory.swap.max", "max", want_now="max")
run("oomgroup1", "knobs", "oom.group", "memory.oom.group", "1", want_now=1)
run("oomgroup0", "knobs", "oom.group", "memory.oom.group", "0", want_now=0)

# ---- reclaim
EAGAIN = ("Resource temporarily unavailable", "the kernel could not reclaim the whole amount")
b, a = int(rd("reclaim.before")), int(rd("reclaim.after"))
eagain = (rd("reclaim.rc") or "").strip() == "1"
run("reclaim", "cache", "reclaim", "memory.reclaim", "16777216",
    rc=1 if eagain else 0, refused=EAGAIN if eagain else None,
    what="reclaim=16M on 64M of page cache (%s)" % ("EAGAIN" if eagain else "done"))
report(a < b and (eagain or b - a >= 15 << 20),
       "reclaim=16M: memory.current dropped from %d to %d (by %.1f MiB)" % (b, a, (b - a) / 2**20),
       "expected a drop%s" % ("" if eagain else " of about 16 MiB"))

b, a = int(rd("reclaimswp.before")), int(rd("reclaimswp.after"))
got = (rd("reclaimswp.out") or "").rstrip("\n")
took = (rd("reclaimswp.rc") or "").strip() == "0"
# 6.1 parses memory.reclaim as a size alone: "16777216 swappiness=60" is
# EINVAL; kernels with swappiness= in memory.reclaim take it
run("reclaimswp", "cache", "reclaim", "memory.reclaim", "16777216 swappiness=60",
    rc=0 if took else 1,
    refused=None if took else ("Invalid argument", "this kernel's memory.reclaim takes no swappiness="),
    what="reclaim=16M swappiness=60 on %s (%s)" % (uname, "taken" if took else "refused"))
print("  note: reclaim with swappiness= on %s printed: %s" % (uname, got))
if not took:
    report(b - a < 4 << 20, "reclaim with swappiness= refused: nothing reclaimed (memory.current %d -> %d)" % (b, a))

b, a = int(rd("reclaimbig.before")), int(rd("reclaimbig.after"))
run("reclaimbig", "cache", "reclaim", "memory.reclaim", "1073741824", rc=1,
    refused=EAGAIN, what="reclaim=1G from a group of %.1f MiB" % (b / 2**20))
report(a <= b, "reclaim=1G: memory.current %d -> %d" % (b, a))

# ---- OOM kill on v2
run("anonswap", "anon", "swap.max", "memory.swap.max", "0", want_now=0, what="swap.max=0 on anon")
eb, ea = kv(rd("oom.events-before")), kv(rd("oom.events-after"))
cur = int(rd("oom.current-before"))
run("oom", "anon", "limit", "memory.max", "16777216", want_now=16777216,
    what="limit=16M below anon's usage %.1f MiB with swap.max 0" % (cur / 2**20))
report(cur > 32 << 20, "oom: the anon load was resident before (memory.current %d)" % cur)
report(ea.get("oom_kill", 0) == eb.get("oom_kill", 0) + 1,
       "oom: memory.events oom_kill %s -> %s" % (eb.get("oom_kill"), ea.get("oom_kill")),
       "expected one OOM kill; events after: %s" % ea)
procs = (rd("oom.procs-after") or "").split()
report(procs == [], "oom: the group's process was killed (cgroup.procs empty)", "procs %s" % procs)

# ---- v1 knobs are usage errors on v2
V2 = "limit, high, low, min, swap.max, oom.group, reclaim"
for name, spec in (("soft", "/set/knobs:soft=10M"), ("swappiness", "/set/knobs:swappiness=30")):
    rc = (rd(name + ".rc") or "").strip()
    err = (rd(name + ".err") or "").rstrip("\n")
    want = ("memcgtop: --set '%s': expected PATH:KNOB=VALUE with a cgroup v2 knob (%s)"
            % (spec, V2))
    report(rc == "2", "%s on v2: exit 2" % name, "got %s" % rc)
    report(err == want, "%s on v2: stderr is exactly: %s" % (name, want), "got %r" % err)
    report((rd(name + ".out") or "") == "", "%s on v2: stdout empty" % name)
    report(rd(name + ".before") == rd(name + ".after"), "%s on v2: nothing written" % name)

# ---- the audit log
got = (rd("audit.log") or "").splitlines()
report(got == audit, "--audit-log: exactly the %d expected lines, one per attempted write" % len(audit),
       "\n  ".join(["differs:"] + ["- " + l for l in audit if l not in got][:5] +
                   ["+ " + l for l in got if l not in audit][:5]))

print("set-v2: %d passed, %d failed" % (npass, nfail))
sys.exit(1 if nfail else 0)
PYEOF
prc=$?
echo "set-v2: run time $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s (qemu ${vmsecs:-?} s)" >&2
if [ "$prc" = 0 ] && [ "${SET_V2_KEEP:-0}" != 1 ]; then
	rm -rf "$share"
elif [ "$prc" != 0 ]; then
	echo "set-v2: output kept in $share" >&2
fi
exit "$prc"
