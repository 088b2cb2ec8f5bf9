#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/preview-v2.sh - the preview of a change and its follow-up on
# live cgroup v2 groups in the qemu test VM (tests/vm/vm.sh; VM_KERNEL=7
# for the 7.x kernel).
#
#   tests/vm/preview-v2.sh
#
# In the guest, below /sys/fs/cgroup/preview, swap.max 0 for both:
#   anon  memload anon 64: memory.max 16M --dry-run -F json says oom and
#         names memload's pid as the likely victim; then --set with
#         --follow 2: the kernel kills that pid (memory.events oom_kill
#         rises, the pid is gone), and the follow-up line says oom, as
#         predicted
#   hi    memload anon 64 and memload faults 500 (it allocates all along):
#         memory.high 16M --dry-run says throttle; then
#         --set --follow 2: memory.events high rises, no OOM kill, memload
#         still runs, and the follow-up says throttle, as predicted
#   prot  memory.low 60M over a and b, each memory.low 40M and memload
#         anon 40 (overcommitted: 80M asked of 60M): memory.low 10M for a,
#         --dry-run: each sibling's effective low before and after as
#         previewed equals the ELOW column (eff_low) before and after the
#         change, and after it is not what it was before (the parent's
#         protection is no longer overcommitted)
# Prints "preview-v2: N passed, M failed"; exit 0 when all pass.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=${PREVIEW_V2_TIMEOUT:-180}

NAME="preview v2"
. "$HERE/lib.sh"
vm_host_ready
vm_binary
vm_share preview-v2

cat > "$share/guest.sh" <<EOF
MEMCGTOP=$bin
EOF
cat >> "$share/guest.sh" <<'EOF'
set -u
H=/mnt/host
CG=/sys/fs/cgroup
S=$CG/preview
O=$H/out
PATH=$H/bin:$PATH
fail() { echo "GUEST-FAIL: $*"; echo "$*" > $O/guest-fail; exit 1; }
w() { echo "$2" > "$1" || fail "write $2 > $1"; }

uname -r > $O/uname
w $CG/cgroup.subtree_control +memory
mkdir -p $S/anon $S/hi $S/prot/a $S/prot/b || fail "mkdir"
w $S/cgroup.subtree_control +memory
w $S/prot/cgroup.subtree_control +memory
w $S/memory.low 60M
w $S/prot/memory.low 60M
for g in anon hi prot/a prot/b; do
	w $S/$g/memory.swap.max 0
	mb=64
	case $g in prot/*) w $S/$g/memory.low 40M; mb=40 ;; esac
	sh -c 'echo $$ > "$0/cgroup.procs" && exec memload anon "$1"' $S/$g $mb > /tmp/${g#prot/}.out 2>&1 &
done
# memory.high acts on the group's allocations (mem_cgroup_handle_over_high
# after a charge over high): hi allocates all along, 500 faults a second.
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload faults 500' $S/hi > /tmp/hi-faults.out 2>&1 &
i=0
until grep -q ready /tmp/anon.out 2>/dev/null && grep -q ready /tmp/hi.out 2>/dev/null &&
      grep -q ready /tmp/a.out 2>/dev/null && grep -q ready /tmp/b.out 2>/dev/null; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "loads not ready after 60 s"
	sleep 0.1
done
# e NAME GROUP SPEC: the preview, then the change followed 2 s
e() {
	n=$1 g=$2
	cat $S/$g/cgroup.procs > $O/$n.procs-before
	cat $S/$g/memory.events > $O/$n.events-before
	$MEMCGTOP --set "$3" --dry-run -F json > $O/$n.json 2> $O/$n.json-err
	$MEMCGTOP --set "$3" --follow 2 --audit-log $O/audit.log > $O/$n.out 2> $O/$n.err
	echo $? > $O/$n.rc
	sleep 0.3
	cat $S/$g/memory.events > $O/$n.events-after
	cat $S/$g/cgroup.procs > $O/$n.procs-after
}
e oom anon /preview/anon:limit=16M
e high hi /preview/hi:high=16M
elow() { $MEMCGTOP -b -F json -n 1 -d 0.1 -c path,eff_low,usage,low > $O/$1 2> $O/$1.err; }
elow low.eff-before
$MEMCGTOP --set /preview/prot/a:low=10M --dry-run -F json > $O/low.json 2> $O/low.json-err
$MEMCGTOP --set /preview/prot/a:low=10M --follow 0 --audit-log $O/audit.log > $O/low.out 2> $O/low.err
echo $? > $O/low.rc
elow low.eff-after
for g in anon hi prot/a prot/b; do echo 1 > $S/$g/cgroup.kill 2>/dev/null; done
sync
echo "GUEST-OK"
EOF

set +e
vm_guest_run "$share" "$TMO"

python3 - "$share/out" <<'PYEOF'
import json, os, sys

out = sys.argv[1]
npass = nfail = 0


def report(ok, what, detail=""):
    global npass, nfail
    if ok:
        npass += 1
        print("PASS: " + what)
    else:
        nfail += 1
        print("FAIL: " + what + (": " + detail if detail else ""))


def rd(n):
    try:
        return open(os.path.join(out, n)).read()
    except OSError:
        return ""


def events(n):
    return {l.split()[0]: int(l.split()[1]) for l in rd(n).splitlines() if l.strip()}


def pids(n):
    return [int(x) for x in rd(n).split()]


kern = rd("uname").strip()
for n, word in (("oom", "oom"), ("high", "throttle")):
    try:
        ch = json.loads(rd(n + ".json"))["changes"][0]["preview"]
    except (ValueError, KeyError, IndexError) as e:
        report(False, "%s: the --dry-run object (%s)" % (n, kern), "%r: %s" % (e, rd(n + ".json")[:300] + rd(n + ".json-err")[:300]))
        continue
    report(ch["outcome"] == word, "%s: --dry-run says %s (%s)" % (n, word, kern), "got %s" % ch)
    before, after = events(n + ".events-before"), events(n + ".events-after")
    pb, pa = pids(n + ".procs-before"), pids(n + ".procs-after")
    lines = rd(n + ".out").splitlines()
    follow = [l for l in lines if ": after 2s: " in l]
    if n == "oom":
        v = ch.get("victim") or {}
        report(len(pb) == 1 and v.get("pid") == pb[0],
               "oom: the likely victim is memload, pid %s" % (pb[:1]), "victim %s, procs %s" % (v, pb))
        report(after.get("oom_kill", 0) > before.get("oom_kill", 0) and v.get("pid") not in pa,
               "oom: the kernel then killed pid %s (oom_kill %d -> %d)" % (v.get("pid"), before.get("oom_kill", 0), after.get("oom_kill", 0)),
               "events %s -> %s, procs after %s" % (before, after, pa))
        report(len(follow) == 1 and follow[0].endswith(": oom, as predicted") and
               "(gone: %d(" % v.get("pid", -1) in follow[0],
               "oom: the follow-up names the victim gone and says oom, as predicted", "%s" % lines)
    else:
        report(after.get("high", 0) > before.get("high", 0) and after.get("oom_kill", 0) == before.get("oom_kill", 0) and pa == pb,
               "high: memory.events high rises (%d -> %d), no kill, memload runs" % (before.get("high", 0), after.get("high", 0)),
               "events %s -> %s, procs %s -> %s" % (before, after, pb, pa))
        report(len(follow) == 1 and follow[0].endswith(": throttle, as predicted"),
               "high: the follow-up says throttle, as predicted", "%s" % lines)
# memory.low: the siblings' effective low as previewed, against the ELOW
# column before and after the change.
def eff(n):
    try:
        return {g["path"]: g.get("eff_low") for g in json.loads(rd(n).splitlines()[-1])["groups"]}
    except (ValueError, KeyError, IndexError):
        return {}
try:
    sib = {x["path"]: x for x in json.loads(rd("low.json"))["changes"][0]["preview"]["siblings"]}
except (ValueError, KeyError, IndexError) as e:
    sib = {}
    report(False, "low: the --dry-run object's siblings (%s)" % kern, "%r: %s" % (e, (rd("low.json") + rd("low.json-err"))[:400]))
eb, ea = eff("low.eff-before"), eff("low.eff-after")
for g in ("/preview/prot/a", "/preview/prot/b"):
    x = sib.get(g)
    if not x:
        report(False, "low: %s among the previewed siblings" % g, "%s" % sorted(sib))
        continue
    # With memory_recursiveprot the parent's unclaimed protection is
    # shared by the children's usage above their own protection, which
    # moves by some pages between the preview and the later sample (a
    # 6.1 run: 80 KiB of 20 MiB; a's and b's sum the same): within 1%.
    close = lambda a, b: isinstance(a, int) and isinstance(b, int) and abs(a - b) <= max(a, b) // 100
    report(close(x["eff_before"], eb.get(g)) and close(x["eff_after"], ea.get(g)),
           "low: %s effective low previewed %d -> %d, ELOW %s -> %s (%s)" % (g, x["eff_before"], x["eff_after"], eb.get(g), ea.get(g), kern),
           "preview %s, eff_low before %s after %s" % (x, eb.get(g), ea.get(g)))
report(rd("low.rc").strip() == "0" and eb.get("/preview/prot/b") is not None and
       ea.get("/preview/prot/b", 0) > eb.get("/preview/prot/b") + (4 << 20),
       "low: the change lifts b's effective low (its parent no longer overcommitted)",
       "rc %s, b %s -> %s; %s" % (rd("low.rc").strip(), eb.get("/preview/prot/b"), ea.get("/preview/prot/b"), rd("low.err")[:300]))
audit = [l for l in rd("audit.log").splitlines() if " followup=2s " in l]
report(len(audit) == 2 and "predicted=oom observed=oom" in audit[0] and "predicted=throttle observed=throttle" in audit[1],
       "the audit log's two followup lines agree with the previews", "%s" % audit)
print("preview-v2: %d passed, %d failed" % (npass, nfail))
sys.exit(1 if nfail else 0)
PYEOF
prc=$?
[ "$prc" = 0 ] && rm -rf "$share"
exit "$prc"
