#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/probe-v2.sh - --probe PATH on a live cgroup v2 group in the qemu
# test VM (tests/vm/vm.sh), Debian 12's 6.1 (VM_KERNEL=7: the 7.x kernel).
#
#   tests/vm/probe-v2.sh
#
# In the guest, below /sys/fs/cgroup/probe (swap.max 0):
#   g     a reader of 200 MiB of /dev/zram1, read once and kept (its fd
#         open: a block device's page cache goes with its last fd), beside
#         memload re-reading the 8 MiB of /dev/zram2: --probe /probe/g
#         --probe-step 8M --probe-max 400M --probe-refaults 1M -d 0.5
#         -F json: the cold part within 20% of 200 MiB; the stop by
#         refaults or stall, not a cap; the hot set's refaults 0 (at most
#         16 pages) at every step before the last; what it says it
#         reclaimed equal to memory.stat's pgsteal rise read around it
#         (within 1%); the audit log holds each step and the probe's line
#   g     again, in text, 4 KiB steps, no refault or stall limit in
#         reach, stopped by SIGTERM after 2 s: the
#         three lines, "stopped: signal: by SIGTERM", exit 143
#   empty a group with no process: --probe-max 1M stops on EAGAIN
# Prints "probe-v2: N passed, M failed"; exit 0 when all pass.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=${PROBE_V2_TIMEOUT:-300}

NAME="probe v2"
. "$HERE/lib.sh"
vm_host_ready
vm_binary
vm_share probe-v2

{
	echo "MEMCGTOP=$bin"
	cat "$HERE/guest-lib.sh"
} > "$share/guest.sh"
cat >> "$share/guest.sh" <<'EOF'
S=$CG/probe
O=$H/out
uname -r > $O/uname
cat /sys/kernel/mm/lru_gen/enabled > $O/lru_gen 2>/dev/null
w /sys/block/zram1/disksize 200M
w /sys/block/zram2/disksize 8M
w $CG/cgroup.subtree_control +memory
mkdir -p $S/g $S/empty || fail "mkdir"
w $S/cgroup.subtree_control +memory
w $S/g/memory.swap.max 0
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload file /dev/zram2' $S/g > /tmp/hot.out 2>&1 &
hot=$!
wait_for "the hot set" 600 grep -q ready /tmp/hot.out
sh -c 'echo $$ > "$0/cgroup.procs" && exec 3< /dev/zram1 &&
	dd if=/dev/zram1 of=/dev/null bs=1M 2>/dev/null && touch /tmp/cold.done &&
	exec sleep 100000' $S/g &
cold=$!
wait_for "the cold read" 1200 test -e /tmp/cold.done
sleep 1
cat $S/g/memory.stat > $O/stat.before
cat $S/g/memory.current > $O/current.before
$MEMCGTOP --probe /probe/g --probe-step 8M --probe-max 400M --probe-refaults 1M \
	--probe-time 200 -d 0.5 -F json --audit-log $O/audit.log > $O/probe.json 2> $O/probe.err
echo $? > $O/probe.rc
cat $S/g/memory.stat > $O/stat.after
$MEMCGTOP --probe /probe/g --probe-step 4K --probe-refaults 400M --probe-stall 3600 \
	--probe-time 200 -d 0.2 > $O/sig.out 2> $O/sig.err &
p=$!
sleep 2
kill -TERM $p
wait $p
echo $? > $O/sig.rc
$MEMCGTOP --probe /probe/empty --probe-max 1M -d 0.05 -F json > $O/empty.json 2> $O/empty.err
echo $? > $O/empty.rc
kill -KILL $hot $cold 2>/dev/null
wait $hot $cold 2>/dev/null
sync
echo "GUEST-OK"
EOF

set +e
vm_guest_run "$share" "$TMO"

python3 - "$share/out" "$HERE" <<'PYEOF'
import json, sys
sys.path.insert(0, sys.argv[2])
import vmcheck

c = vmcheck.Checks("probe-v2", sys.argv[1])
MIB = 1 << 20
rd = lambda n: c.rd(n) or ""
stat = lambda n: {l.split()[0]: int(l.split()[1]) for l in rd(n).splitlines() if l.strip()}
kern = "%s, lru_gen %s" % (rd("uname").strip(), rd("lru_gen").strip())
try:
    j = json.loads(rd("probe.json"))
except ValueError as e:
    j = {}
    c.report(False, "the probe's object (%s)" % kern, "%r: %s %s" % (e, rd("probe.json")[:300], rd("probe.err")[:300]))
if j:
    c.report(rd("probe.rc").strip() == "0" and rd("probe.err") == "", "the probe exits 0, nothing on stderr",
             "rc %s, %s" % (rd("probe.rc").strip(), rd("probe.err")))
    c.report(abs(j["cold"] - 200 * MIB) <= 40 * MIB,
             "the cold part %.1f MiB within 20%% of 200 MiB (%s)" % (j["cold"] / MIB, kern), "%s" % j)
    c.report(j["stop"] in ("refaults", "stall"), "stopped by the pressure: %s" % j["stop"], j.get("why", ""))
    tr = j["trace"]
    early = [s["refaults"] for s in tr[:-1]]
    # The classic LRU (6.1) keeps the re-read hot set on the active list
    # until the cold part is gone: 16 pages at most.  The multi-gen LRU
    # (7.x, lru_gen on) ages by generations and gives up a few hot pages
    # in the step before the one past --probe-refaults (a 7.3 run: 256
    # KiB of the 8 MiB): a 32nd of the hot set there.
    mglru = rd("lru_gen").strip() not in ("", "0x0000")
    most = 256 * 1024 if mglru else 16 * 4096
    c.report(len(tr) >= 2 and max(early) <= most,
             "the hot set's refaults before the stop: %s bytes at most over %d steps (at most %d)" % (max(early or [0]), len(early), most),
             "%s" % tr)
    a, b = stat("stat.before"), stat("stat.after")
    steal = (b["pgsteal"] - a["pgsteal"]) * 4096
    c.report(abs(j["reclaimed"] - steal) <= steal // 100,
             "reclaimed %d = memory.stat's pgsteal rise %d (1%%)" % (j["reclaimed"], steal))
    audit = rd("audit.log").splitlines()
    steps = [l for l in audit if "memory.reclaim" in l and " probe " not in l and "probe steps=" not in l]
    note = [l for l in audit if "probe steps=%d " % j["steps"] in l and " stop=%s" % j["stop"] in l]
    c.report(len(steps) == j["steps"] and len(note) == 1,
             "the audit log: %d step lines and the probe's line" % j["steps"], "%s" % audit[-3:])
lines = rd("sig.out").splitlines()
c.report(rd("sig.rc").strip() == "143" and len(lines) == 3 and
         lines[0].startswith("/probe/g: probe: cold ") and
         lines[1].startswith("/probe/g: probe: caused refaults ") and
         lines[2] == "/probe/g: probe: stopped: signal: by SIGTERM",
         "SIGTERM: the report so far, then it dies of the signal (143)",
         "rc %s: %s %s" % (rd("sig.rc").strip(), lines, rd("sig.err")))
try:
    e = json.loads(rd("empty.json"))
except ValueError:
    e = {}
c.report(rd("empty.rc").strip() == "0" and e.get("stop") == "eagain" and e.get("steps") == 1,
         "a group with nothing to reclaim: eagain at the first step", "%s %s" % (e, rd("empty.err")))
c.finish()
PYEOF
prc=$?
[ "$prc" = 0 ] && rm -rf "$share"
exit "$prc"
