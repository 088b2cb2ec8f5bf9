#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/events-v2.sh - in the cgroup v2 test VM: OOM kills in a group
# that is removed before the next refresh still show in its parent's
# hierarchical counter and rate, and a group removed and made again under
# its name between two refreshes restarts its rates; the new columns are
# read live.
#
#   tests/vm/events-v2.sh
#
# In the guest, /sys/fs/cgroup/ev/p has two children: vic (memory.max 24M,
# swap.max 0) and re.  memcgtop -b -F json -n 1 -d 60 --record R runs on
# /ev; once R/timestamps shows the first refresh, vic's load (64 MiB anon)
# is OOM-killed and vic removed, and re is removed and made again with a
# load in it (more page faults than the old re had).  The guest checks
# that all that was done before the second refresh (R/timestamps still has
# one line), else it fails saying the VM was too slow.
# The host then checks iteration 1: no vic; p ev_oom_kill 1 and
# ev_oom_kill_per_s > 0; p ev_oom_kill_local 0; re pgfault above its first
# value and pgfault_per_s null; p's peak, usage_swap, workingset, zswap,
# zswapped, dying, swap event counts present (swap_peak null: 6.1 has no
# memory.swap.peak).
#
# Output: PASS/FAIL lines and "events-v2: N passed, M failed"; SKIP (exit
# 77) without qemu or the kernel, unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=${EVENTS_V2_TIMEOUT:-240}

NAME="events v2"
. "$HERE/lib.sh"
vm_host_ready
vm_binary

vm_share events-v2

cat > "$share/guest.sh" <<EOF
MEMCGTOP=$bin
EOF
cat >> "$share/guest.sh" <<'EOF'
set -u
H=/mnt/host
CG=/sys/fs/cgroup
E=$CG/ev
PATH=$H/bin:$PATH
fail() { echo "GUEST-FAIL: $*"; echo "$*" > $H/out/guest-fail; exit 1; }
w() { echo "$2" > "$1" || fail "write $2 > $1"; }
lines() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }

w $CG/cgroup.subtree_control +memory
mkdir -p $E/p/vic $E/p/re || fail "mkdir"
w $E/cgroup.subtree_control +memory
w $E/p/cgroup.subtree_control +memory
w $E/p/vic/memory.max 24M
w $E/p/vic/memory.swap.max 0

$MEMCGTOP -b -F json -n 1 -d 60 --record /tmp/rec \
	-c path,ev_oom_kill,ev_oom_kill_per_s,ev_oom_kill_local,pgfault,pgfault_per_s,peak,swap_peak,usage_swap,workingset,zswap,zswapped,swap_ev_max,swap_ev_fail,dying,scan_prio \
	/ev > $H/out/memcgtop.json 2> $H/out/memcgtop.err &
mc=$!
i=0
until [ "$(lines /tmp/rec/timestamps)" -ge 1 ]; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "memcgtop did not record its first refresh"
	sleep 0.1
done

# the victim: 64 MiB anon at a 24 MiB limit without swap, then removed
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload anon 64' $E/p/vic > /tmp/vic.out 2>&1 &
vic=$!
i=0
until grep -q '^oom_kill 1$' $E/p/vic/memory.events; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "no OOM kill in ev/p/vic: $(tr '\n' ' ' < $E/p/vic/memory.events)"
	sleep 0.1
done
wait $vic
i=0
until rmdir $E/p/vic 2>/dev/null; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "cannot remove ev/p/vic"
	sleep 0.1
done
# re made again, with faults its old self never had
rmdir $E/p/re || fail "rmdir re"
mkdir $E/p/re || fail "mkdir re"
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload anon 8' $E/p/re > /tmp/re.out 2>&1 &
re=$!
i=0
until grep -q ready /tmp/re.out 2>/dev/null; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "load in re not ready: $(cat /tmp/re.out)"
	sleep 0.1
done
[ "$(lines /tmp/rec/timestamps)" -eq 1 ] ||
	fail "the VM was too slow: memcgtop refreshed again before the OOM kill and the re-creation were done"
cat $E/p/memory.events > $H/out/p.events
wait $mc
echo $? > $H/out/memcgtop.rc
kill $re
sync
echo "GUEST-OK"
EOF

set +e
vm_guest_run "$share" "$TMO"
python3 - "$share/out" <<'PYEOF'
import json, sys
out = sys.argv[1]
npass = nfail = 0
def report(ok, msg):
    global npass, nfail
    print(('PASS: ' if ok else 'FAIL: ') + msg)
    if ok:
        npass += 1
    else:
        nfail += 1
rc = open(out + '/memcgtop.rc').read().strip()
report(rc == '0', 'memcgtop -b -n 1 --record exits 0 in the guest (%s; stderr %r)'
       % (rc, open(out + '/memcgtop.err').read()[:200]))
its = [json.loads(l) for l in open(out + '/memcgtop.json')]
report(len(its) == 1, 'one iteration printed (%d)' % len(its))
if its:
    g = {x['path']: x for x in its[0]['groups']}
    p, re_ = g.get('/ev/p'), g.get('/ev/p/re')
    report('/ev/p/vic' not in g, 'the removed group is not shown')
    report(p is not None and p['ev_oom_kill'] == 1,
           'p (hierarchical) counts the kill of its removed child: ev_oom_kill %s'
           % (p and p['ev_oom_kill']))
    report(p is not None and p['ev_oom_kill_per_s'] is not None and
           p['ev_oom_kill_per_s'] > 0,
           'p ev_oom_kill_per_s > 0: %s' % (p and p['ev_oom_kill_per_s']))
    report(p is not None and p['ev_oom_kill_local'] == 0,
           'p ev_oom_kill_local 0 (the kill was not in p itself): %s'
           % (p and p['ev_oom_kill_local']))
    report(re_ is not None and re_['pgfault'] is not None and
           re_['pgfault'] > 0 and re_['pgfault_per_s'] is None,
           're made again: pgfault %s, pgfault_per_s %s (want a count, no rate)'
           % (re_ and re_['pgfault'], re_ and re_['pgfault_per_s']))
    for k in ('peak', 'usage_swap', 'workingset', 'zswap', 'zswapped',
              'swap_ev_max', 'swap_ev_fail', 'dying'):
        report(p is not None and isinstance(p.get(k), int),
               'p %s read live: %s' % (k, p and p.get(k)))
    report(p is not None and p['swap_peak'] is None,
           'p swap_peak null: the 6.1 kernel has no memory.swap.peak')
    report(p is not None and p['peak'] >= 20 << 20,
           'p peak holds the victim\'s charge (%s >= 20 MiB)' % (p and p['peak']))
print('events-v2: %d passed, %d failed' % (npass, nfail))
sys.exit(1 if nfail else 0)
PYEOF
