#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# columns-v1.sh - live cgroup v1: peak, usage_swap, workingset, scan_prio
# and numa of a group with a resting load, against the kernel's files read
# right before and after memcgtop (the load only sleeps; the readings must
# agree, else memcgtop runs again); and a
# child OOM-killed and removed between two refreshes, whose kill v1 does
# not count in the parent (memory.oom_control is per group), as the
# ev_oom_kill help says.
#
# Usage (as root):  tests/live/columns-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
# Everything it makes is removed on exit; only its own pids are killed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live columns v1"
. "$here/lib.sh"
live_tree_setup columns
command -v gcc >/dev/null 2>&1 || cannot_run "gcc not installed"
pids=()
finish() {
	stop_pids "${pids[@]}"
	live_tree_cleanup
}
trap finish EXIT
abort() { fail "$NAME: $*"; finish; summary; exit 1; }
gcc -O2 -o "$TMPD/memload" "$top/tests/load/memload.c" || abort "cannot build memload"

T=$CGM/$TNAME
mkdir "$T" "$T/a" "$T/p" "$T/p/vic" || abort "cannot make $T"
start_load "$T/a" "$TMPD/memload"
# and 32 MiB of page cache read by a process in a (written around the
# cache, so that the read charges it to a): a file list for scan_prio
dd if=/dev/zero of="$TMPD/cache" bs=1M count=32 oflag=direct status=none ||
	abort "cannot write $TMPD/cache"
sh -c 'echo $$ >"$1/cgroup.procs" && exec cat "$2"' sh "$T/a" "$TMPD/cache" >/dev/null ||
	abort "cannot read $TMPD/cache in a"

# The kernel's figures (WANT, a JSON object) are read by kern.py before and
# after memcgtop, and memcgtop's are compared with them only when the two
# readings agree: memory.stat and memory.numa_stat are flushed per-CPU
# counters, so a flush (every 2 s) between memcgtop and the reading can move
# a page from one list to another in a group at rest.  Up to 5 tries.
cat >"$TMPD/kern.py" <<'PYEOF'
import json, os, sys
d = sys.argv[1]
page = os.sysconf('SC_PAGE_SIZE')
rd = lambda f: open(os.path.join(d, f)).read()
val = lambda f: int(rd(f).split()[0])
stat = dict(l.split() for l in rd('memory.stat').splitlines())
want = {}
want['peak'] = val('memory.max_usage_in_bytes')
want['usage_swap'] = val('memory.memsw.usage_in_bytes')
want['workingset'] = max(0, val('memory.usage_in_bytes') - int(stat['total_inactive_file']))
swap = any(l.startswith('SwapFree:') and int(l.split()[1]) > 0
           for l in open('/proc/meminfo'))
lists = ['active_file', 'inactive_file'] + (['active_anon', 'inactive_anon'] if swap else [])
pages = max(int(stat[k]) for k in lists) // 4096
mglru = False
try:
    mglru = int(open('/sys/kernel/mm/lru_gen/enabled').read().strip(), 16) != 0
except OSError:
    pass
want['scan_prio'] = None if mglru or pages == 0 else min(12, pages.bit_length() - 1)
want['few_pages'] = not mglru and pages < 4096
want['pages'] = pages
numa = {}
for l in rd('memory.numa_stat').splitlines():
    p = l.split()
    key = p[0].split('=')[0]
    if key in ('hierarchical_anon', 'hierarchical_file', 'hierarchical_unevictable',
               'anon', 'file', 'unevictable'):
        name = key[len('hierarchical_'):] if key.startswith('h') else 'own_' + key
        for w in p[1:]:
            node, v = w.split('=')
            numa.setdefault(node, {})[name] = int(v) * page
want['numa'] = numa
print(json.dumps(want, sort_keys=True))
PYEOF
for ((try = 1; try <= 5; try++)); do
	python3 "$TMPD/kern.py" "$T/a" >"$TMPD/before" || abort "cannot read a's files"
	"$MEMCGTOP" -b -n 1 -F json -c path,usage,peak,usage_swap,workingset,scan_prio,numa \
		"/$TNAME/a" >"$TMPD/a.json" 2>"$TMPD/a.err" || abort "memcgtop: $(cat "$TMPD/a.err")"
	python3 "$TMPD/kern.py" "$T/a" >"$TMPD/after" || abort "cannot read a's files"
	cmp -s "$TMPD/before" "$TMPD/after" && break
	echo "  note: try $try: a's files moved while memcgtop ran ($(head -c 300 "$TMPD/before") / $(head -c 300 "$TMPD/after"))"
	sleep 2.5
done
if ((try > 5)); then
	fail "a: the kernel's files of a group at rest moved during each of 5 runs of memcgtop"
elif python3 - "$TMPD/after" "$TMPD/a.json" >"$TMPD/a.out" 2>&1 <<'PYEOF'
import json, sys
want = json.load(open(sys.argv[1]))
g = json.loads(open(sys.argv[2]).read().splitlines()[-1])['groups'][0]
bad = 0
for k in ('peak', 'usage_swap', 'workingset', 'scan_prio', 'numa'):
    ok = g[k] == want[k]
    bad += not ok
    print('%s %s: %s, want %s' % ('ok' if ok else 'BAD', k, g[k], want[k]))
if want['few_pages']:
    bad += 1
    print('BAD: a holds only %d pages on its largest counted list; the 32 MiB read did not land there' % want['pages'])
sys.exit(1 if bad else 0)
PYEOF
then
	pass "a (64 MiB at rest): $(grep -c "^ok" "$TMPD/a.out") of peak, usage_swap, workingset, scan_prio, numa as the kernel's files say: $(cut -c1-40 "$TMPD/a.out" | head -n 4 | tr "\n" " ")"
else
	fail "a: $(grep BAD "$TMPD/a.out" | tr '\n' ' ') $(tail -n 2 "$TMPD/a.out" | tr '\n' ' ')"
fi

# A child OOM-killed and removed: v1's parent does not count the kill.
echo $((24 << 20)) >"$T/p/vic/memory.limit_in_bytes" || abort "limit vic"
echo 0 >"$T/p/vic/memory.swappiness"
sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" anon 64' sh "$T/p/vic" "$TMPD/memload" \
	>"$TMPD/vic.out" 2>&1 &
vic=$!
pids+=("$vic")
disown "$vic"	# its OOM kill is expected: no "Killed" notice
for ((i = 0; i < 300; i++)); do
	grep -q '^oom_kill 1$' "$T/p/vic/memory.oom_control" && break
	sleep 0.1
done
grep -q '^oom_kill 1$' "$T/p/vic/memory.oom_control" ||
	abort "no OOM kill in p/vic: $(tr '\n' ' ' <"$T/p/vic/memory.oom_control")"
for ((i = 0; i < 100; i++)); do
	kill -0 "$vic" 2>/dev/null || break
	sleep 0.1
done
remove_tree "$T/p/vic"
[ -e "$T/p/vic" ] && abort "cannot remove p/vic"
"$MEMCGTOP" -b -n 1 -F json -c path,ev_oom_kill "/$TNAME/p" >"$TMPD/p.json" 2>"$TMPD/p.err" ||
	abort "memcgtop: $(cat "$TMPD/p.err")"
got=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["groups"][0]["ev_oom_kill"])' "$TMPD/p.json")
kern=$(awk '$1 == "oom_kill" { print $2 }' "$T/p/memory.oom_control")
if [ "$got" = 0 ] && [ "$kern" = 0 ]; then
	pass "v1: the parent of a removed OOM-killed child shows ev_oom_kill 0, as its memory.oom_control (the help says why)"
else
	fail "v1: parent ev_oom_kill $got, its memory.oom_control oom_kill $kern (the help says v1 counts only the group's own kills)"
fi
"$MEMCGTOP" --list-columns | grep -q "^ev_oom_kill .*the group's own kills only" &&
	pass "--list-columns: ev_oom_kill says v1 counts only the group's own kills" ||
	fail "--list-columns: ev_oom_kill does not say what v1 counts"

stop_pids "${pids[@]}"
pids=()
live_tree_done
