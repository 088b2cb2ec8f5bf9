#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --record on the live v1 hierarchy and --root replay: the replayed JSON is
# byte for byte what the live run printed; --record-max keeps the newest
# samples; a recording packed with tar replays the same elsewhere.
# --output replaces a file atomically with each iteration.
set -u
cd "$(dirname "$0")/../.."
BIN=${MEMCGTOP:-./memcgtop}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
MNT=/sys/fs/cgroup/memory
pass=0 fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
skip() {
	if [ "${CI:-}" = true ]; then bad "record: $*"; echo "record: $pass passed, $fail failed"; exit 1; fi
	echo "SKIP: record: $*"; exit 77
}
[ "$(id -u)" = 0 ] || skip "not root"
[ -w "$MNT/memory.limit_in_bytes" ] || skip "no writable cgroup v1 memory mount at $MNT"

T=memcgtop-rec-$$-$RANDOM
tmp=$(mktemp -d)
pids=()
. "$(dirname "$0")/../lib/cleanup.sh"
CGM=$MNT TMPD=$tmp
cleanup() { clean_up "$MNT/$T"; }
trap_cleanup

mkdir -p "$MNT/$T/a/b" "$MNT/$T/c"
echo 64M >"$MNT/$T/a/memory.limit_in_bytes"
echo 30 >"$MNT/$T/c/memory.swappiness"
# A process that touches memory in /a/b, so stats move between samples.
gcc -O2 -static -o "$tmp/memload" tests/load/memload.c || skip "cannot build memload"
sh -c "echo \$\$ >$MNT/$T/a/b/cgroup.procs; exec $tmp/memload anon 16" >"$tmp/load.out" &
pids+=($!)
for _ in $(seq 100); do grep -q ready "$tmp/load.out" && break; sleep 0.1; done

# Every format replays identically; JSON carries every column.
for fmt in json csv text prometheus; do
	rm -rf "$tmp/rec"
	"$BIN" -b -F $fmt -n 4 -d 0.2 --record "$tmp/rec" "/$T" >"$tmp/live.$fmt" 2>"$tmp/err"
	rc=$?
	[ $rc = 0 ] && [ ! -s "$tmp/err" ] || { bad "record -F $fmt: exit $rc, $(head -c 200 "$tmp/err")"; continue; }
	"$BIN" -b -F $fmt -n 4 --root "$tmp/rec" "/$T" >"$tmp/replay.$fmt" 2>"$tmp/err"
	if cmp -s "$tmp/live.$fmt" "$tmp/replay.$fmt" && [ ! -s "$tmp/err" ]; then
		ok "replay of a recording prints what the live run printed, byte for byte (-F $fmt, $(wc -c <"$tmp/live.$fmt") bytes)"
	else
		bad "replay -F $fmt differs: $(cmp "$tmp/live.$fmt" "$tmp/replay.$fmt" 2>&1 | head -1) $(head -c 200 "$tmp/err")"
	fi
done
[ "$(wc -l <"$tmp/rec/timestamps")" = 5 ] && [ -d "$tmp/rec/4/$T/a/b" ] && [ -f "$tmp/rec/proc/4/meminfo" ] &&
	grep -qx "mode hybrid\|mode v1\|mode v2" "$tmp/rec/info" \
	&& ok "recording layout: 5 samples (4 iterations), groups, proc files, info" \
	|| bad "recording layout: $(ls "$tmp/rec") $(cat "$tmp/rec/info")"
# Without a CGROUP, replay starts where the recording started (DIR/info
# says where); an explicit CGROUP still wins.
grep -qxF "start /$T" "$tmp/rec/info" && ok "info names the start group /$T" \
	|| bad "info: $(cat "$tmp/rec/info")"
"$BIN" -b -F prometheus -n 4 --root "$tmp/rec" >"$tmp/replay0.prom" 2>"$tmp/err"
cmp -s "$tmp/live.prometheus" "$tmp/replay0.prom" && [ ! -s "$tmp/err" ] \
	&& ok "replay without CGROUP starts at the recorded group, byte for byte" \
	|| bad "replay without CGROUP: $(cmp "$tmp/live.prometheus" "$tmp/replay0.prom" 2>&1 | head -1) $(head -c 200 "$tmp/err")"
"$BIN" -b -F csv -c path,usage -n 1 --root "$tmp/rec" / 2>"$tmp/err" | tr -d '\r' >"$tmp/replay1.csv"
sed -n 2p "$tmp/replay1.csv" | grep -q ',1,/,$' && grep -q ",1,/$T,[0-9]" "$tmp/replay1.csv" \
	&& ok "replay with CGROUP / starts at the root as asked" \
	|| bad "replay with /: $(head -3 "$tmp/replay1.csv") $(head -c 200 "$tmp/err")"
# The kernel's own file and the recorded one are the same bytes.
want=$(cat "$MNT/$T/c/memory.swappiness")
[ "$(cat "$tmp/rec/4/$T/c/memory.swappiness")" = "$want" ] && ok "recorded memory.swappiness is the kernel's ($want)" \
	|| bad "recorded swappiness $(cat "$tmp/rec/4/$T/c/memory.swappiness") kernel $want"

# Packed with tar, unpacked elsewhere: the same output.
tar -C "$tmp" -cf "$tmp/rec.tar" rec && mkdir "$tmp/else" && tar -C "$tmp/else" -xf "$tmp/rec.tar"
"$BIN" -b -F prometheus -n 4 --root "$tmp/else/rec" "/$T" >"$tmp/else.prom" 2>&1
cmp -s "$tmp/live.prometheus" "$tmp/else.prom" && ok "a recording moved with tar replays the same" \
	|| bad "tar-moved recording differs"

# The BPF pass's values are recorded as their files' text: a recording
# made with it says so (info), replays what the live run printed, v1
# pgscan/pgsteal (kernel counters, no v1 file has them) included, as
# memory.stat's total_pgscan lines; the overview keeps SCAN/s.
mkdir "$MNT/$T/r" && echo 8M >"$MNT/$T/r/memory.limit_in_bytes"
sh -c "echo \$\$ >$MNT/$T/r/cgroup.procs; exec dd if=/dev/zero of=$tmp/r.file bs=1M count=32 2>/dev/null"
rm -f "$tmp/r.file"
BCOLS=path,usage,limit,soft,active_anon,inactive_anon,active_file,inactive_file,unevictable,anon,file,pgfault,pgscan,pgsteal,pgscan_kswapd,pgscan_direct,pgscan_per_s,ev_oom_kill,failcnt,scan_prio
for c in bpf auto; do
	rm -rf "$tmp/recb"
	"$BIN" --collector $c -b -F json -n 3 -d 0.2 -c "$BCOLS" --record "$tmp/recb" "/$T" >"$tmp/liveb.json" 2>"$tmp/err"
	rc=$?
	"$BIN" -b -F json -n 3 -c "$BCOLS" --root "$tmp/recb" "/$T" >"$tmp/replayb.json" 2>>"$tmp/err"
	# --collector bpf names a value not proven yet (then read from the
	# file, and recorded as read).
	sed -i "/^memcgtop: bpf collector: memory.stat's .* read from the files (not proven in the kernel's statistics)\$/d" "$tmp/err"
	if [ $rc = 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/liveb.json" "$tmp/replayb.json" &&
	   grep -qx "collector bpf" "$tmp/recb/info"; then
		ok "--collector $c --record: the pass's values replay byte for byte ($(wc -c <"$tmp/liveb.json") bytes; info: collector bpf)"
	else
		bad "--collector $c --record: rc $rc, $(cmp "$tmp/liveb.json" "$tmp/replayb.json" 2>&1 | head -1), $(grep collector "$tmp/recb/info") $(head -c 200 "$tmp/err")"
	fi
done
python3 - "$tmp/liveb.json" "$tmp/recb/3/$T/r/memory.stat" "/$T/r" >"$tmp/checkb" 2>&1 <<'PY'
import json, sys
live, stat, path = sys.argv[1:]
it = [json.loads(l) for l in open(live)][-1]
g = [x for x in it["groups"] if x["path"] == path][0]
kv = dict(l.split() for l in open(stat))
if it["collector"] != "bpf":
    print("FAIL: the live run used %s" % it["collector"])
elif g["pgscan"] and int(kv.get("total_pgscan", -1)) == g["pgscan"] and \
        int(kv.get("total_pgsteal", -1)) == g["pgsteal"] and \
        int(kv.get("total_active_file", -1)) == g["active_file"]:
    print("PASS: %s's recorded memory.stat holds the values shown: total_pgscan %s, total_pgsteal %s, total_active_file %s"
          % (path, kv["total_pgscan"], kv["total_pgsteal"], kv["total_active_file"]))
else:
    print("FAIL: %s shown pgscan %s pgsteal %s active_file %s, recorded %s" % (path, g["pgscan"], g["pgsteal"], g["active_file"], kv))
PY
while read -r l; do case $l in PASS:*) ok "${l#PASS: }" ;; *) bad "${l#FAIL: }" ;; esac; done <"$tmp/checkb"
# The limit the pass gave, as v1 prints "no limit" and a limit.
[ "$(cat "$tmp/recb/3/$T/c/memory.limit_in_bytes")" = "$(cat "$MNT/$T/c/memory.limit_in_bytes")" ] &&
	[ "$(cat "$tmp/recb/3/$T/r/memory.limit_in_bytes")" = "$(cat "$MNT/$T/r/memory.limit_in_bytes")" ] &&
	ok "recorded limits are the kernel's text ($(cat "$tmp/recb/3/$T/c/memory.limit_in_bytes"), $(cat "$tmp/recb/3/$T/r/memory.limit_in_bytes"))" ||
	bad "recorded limits $(cat "$tmp/recb/3/$T/c/memory.limit_in_bytes") $(cat "$tmp/recb/3/$T/r/memory.limit_in_bytes"), kernel $(cat "$MNT/$T/c/memory.limit_in_bytes")"
# The default view: SCAN/s from the pass and OOMKILL, in the replay too.
rm -rf "$tmp/recd"
"$BIN" --collector bpf -b -n 2 -d 0.2 --record "$tmp/recd" "/$T" >"$tmp/lived.txt" 2>"$tmp/err"
"$BIN" -b -n 2 --root "$tmp/recd" "/$T" >"$tmp/replayd.txt" 2>>"$tmp/err"
# r's SCAN/s and OOMKILL in the last iteration: numbers, not "-".
rscan=$(awk '/SCAN\/s/ { for (i = 1; i <= NF; i++) { if ($i == "SCAN/s") s = i; if ($i == "OOMKILL") t = i } }
	$NF == "r" && s { v = $s " " $t } END { print v }' "$tmp/lived.txt")
if cmp -s "$tmp/lived.txt" "$tmp/replayd.txt" && [ ! -s "$tmp/err" ] &&
   [[ $rscan =~ ^[0-9.]+[KMG]?\ [0-9.]+[KMG]?$ ]]; then
	ok "the default view recorded with the pass replays byte for byte, SCAN/s and OOMKILL included (r: $rscan)"
else
	bad "default view replay: $(diff "$tmp/lived.txt" "$tmp/replayd.txt" | head -4) $(head -c 200 "$tmp/err")"
fi
# A recording made from the files says so, and replays as it was.
rm -rf "$tmp/recf"
"$BIN" --collector files -b -F json -n 2 -d 0.2 -c "$BCOLS" --record "$tmp/recf" "/$T" >"$tmp/livef.json" 2>"$tmp/err"
"$BIN" -b -F json -n 2 -c "$BCOLS" --root "$tmp/recf" "/$T" >"$tmp/replayf.json" 2>>"$tmp/err"
cmp -s "$tmp/livef.json" "$tmp/replayf.json" && [ ! -s "$tmp/err" ] && grep -qx "collector files" "$tmp/recf/info" &&
	grep -q '"collector":"files"' "$tmp/replayf.json" &&
	ok "--collector files --record: info says collector files; replays byte for byte" ||
	bad "files recording: $(cmp "$tmp/livef.json" "$tmp/replayf.json" 2>&1 | head -1) $(grep collector "$tmp/recf/info") $(head -c 200 "$tmp/err")"

# The reclaim events load while recording, and the recording keeps what
# they gave (each group's memcgtop.events, the procfs folder's): r's
# reclaim stalls, its lowest scan priority, the flush figures and the
# files collector's v1 pgscan replay byte for byte, not null; a replay
# of such a recording prints them by default as the live run did.
rm -rf "$tmp/rece"
ECOLS=path,usage,pgscan,pgscan_per_s,prio_min,prio_min_direct,reclaim_stall,reclaim_stall_per_s,soft_pgscan,stats_pending
"$BIN" --collector files -b -F json -n 4 -d 0.4 -c "$ECOLS" --record "$tmp/rece" "/$T" >"$tmp/livee.json" 2>"$tmp/err" &
epid=$!
pids+=("$epid")
for _ in $(seq 100); do [ -s "$tmp/livee.json" ] && break; sleep 0.05; done
sh -c "echo \$\$ >$MNT/$T/r/cgroup.procs; exec dd if=/dev/zero of=$tmp/r.file bs=1M count=64 2>/dev/null"
rm -f "$tmp/r.file"
wait "$epid"
"$BIN" -b -F json -n 4 -c "$ECOLS" --root "$tmp/rece" "/$T" >"$tmp/replaye.json" 2>>"$tmp/err"
ev=$(python3 - "$tmp/livee.json" "/$T/r" <<'EOF2'
import json, sys
its = [json.loads(l) for l in open(sys.argv[1])]
r = [g for g in its[-1]["groups"] if g["path"] == sys.argv[2]][0]
sysd = its[-1]["system"]
print(r["reclaim_stall"], r["pgscan"], r["prio_min"] is not None or any(
    [g for g in it["groups"] if g["path"] == sys.argv[2]][0]["prio_min"] is not None
    for it in its), "flushes_per_s" in sysd and "scan_by_priority" in sysd)
EOF2
)
read -r estall escan eprio esys <<<"$ev"
if cmp -s "$tmp/livee.json" "$tmp/replaye.json" && [ ! -s "$tmp/err" ] &&
   [ "${estall:-0}" -gt 0 ] && [ "${escan:-0}" -gt 0 ] && [ "$eprio" = True ] && [ "$esys" = True ]; then
	ok "recorded with the reclaim events: replays byte for byte; r's reclaim_stall $estall ms, pgscan $escan (the events', files collector), a prio_min, the flush figures"
else
	bad "events recording: $(cmp "$tmp/livee.json" "$tmp/replaye.json" 2>&1 | head -1); stall $estall pgscan $escan prio $eprio sys $esys; $(head -c 200 "$tmp/err")"
fi
[ -f "$tmp/rece/1/$T/r/memcgtop.events" ] && [ -f "$tmp/rece/proc/1/memcgtop.events" ] &&
	grep -q '^reclaim_stall [0-9]' "$tmp/rece/1/$T/r/memcgtop.events" &&
	grep -q '^scan_by_priority\.12 [0-9]' "$tmp/rece/proc/1/memcgtop.events" &&
	ok "the recording keeps them in memcgtop.events (group and procfs folder)" ||
	bad "memcgtop.events: $(ls "$tmp/rece/1/$T/r") / $(head -3 "$tmp/rece/proc/1/memcgtop.events" 2>&1)"
rm -rf "$tmp/recj"
"$BIN" -b -F json -n 2 -d 0.2 --record "$tmp/recj" "/$T" >"$tmp/livej.json" 2>"$tmp/err"
"$BIN" -b -F json -n 2 --root "$tmp/recj" "/$T" >"$tmp/replayj.json" 2>>"$tmp/err"
cmp -s "$tmp/livej.json" "$tmp/replayj.json" && [ ! -s "$tmp/err" ] &&
	grep -q '"prio_min"' "$tmp/replayj.json" && grep -q '"reclaim_stall"' "$tmp/replayj.json" &&
	ok "default JSON recorded live replays byte for byte, prio_min and reclaim_stall included" ||
	bad "default JSON replay: $(cmp "$tmp/livej.json" "$tmp/replayj.json" 2>&1 | head -1) $(head -c 200 "$tmp/err")"

# --record-max 3: the newest three samples, in order, replay as the last
# two iterations of the live run.
rm -rf "$tmp/rec"
"$BIN" -b -F json -n 7 -d 0.15 --record "$tmp/rec" --record-max 3 "/$T" >"$tmp/live.json" 2>"$tmp/err"
nd=$(find "$tmp/rec" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' | wc -l)
[ "$nd" = 3 ] && [ "$(wc -l <"$tmp/rec/timestamps")" = 3 ] && ok "--record-max 3 keeps 3 samples" \
	|| bad "--record-max 3: $nd folders, $(wc -l <"$tmp/rec/timestamps") timestamps"
"$BIN" -b -F json -n 9 --root "$tmp/rec" "/$T" >"$tmp/replay.json"
# Iteration numbers restart in a replay; everything else is identical.
if diff <(tail -n 2 "$tmp/live.json" | sed 's/"iteration":[0-9]*,//') \
	<(sed 's/"iteration":[0-9]*,//' "$tmp/replay.json") >/dev/null; then
	ok "a rotating recording replays the newest samples exactly"
else
	bad "rotating replay differs"
fi

# Bad use: a folder with other files is not taken over; a recording is not
# recorded again.
mkdir -p "$tmp/busy" && echo keep >"$tmp/busy/notes.txt"
"$BIN" -b -n 1 -d 0.1 --record "$tmp/busy" "/$T" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ "$(cat "$tmp/err")" = "memcgtop: --record $tmp/busy: the folder holds other files (give an empty folder or an earlier recording)" ] &&
	[ "$(cat "$tmp/busy/notes.txt")" = keep ] && ok "--record refuses a folder that holds other files" \
	|| bad "--record busy folder: rc $rc '$(cat "$tmp/err")'"
"$BIN" -b -n 1 --root "$tmp/rec" --record "$tmp/rec2" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "a recording cannot be recorded again" "$tmp/err" && ok "--record on a replay is refused" \
	|| bad "--record on replay: rc $rc '$(cat "$tmp/err")'"
"$BIN" -b -n 1 --record-max 3 "/$T" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && [ "$(cat "$tmp/err")" = "memcgtop: --record-max needs --record DIR" ] && ok "--record-max alone is a usage error" \
	|| bad "--record-max alone: rc $rc '$(cat "$tmp/err")'"

# --output: replaced whole at each iteration, never seen half written.
out="$tmp/tf/memcgtop.prom"
mkdir -p "$tmp/tf"
"$BIN" -F prometheus -n 20 -d 0.05 --output "$out" "/$T" 2>"$tmp/err" &
op=$!
pids+=($op)
torn=0 seen=0
while kill -0 $op 2>/dev/null; do
	if [ -f "$out" ]; then
		seen=$((seen + 1))
		# A whole exposition ends with the last family's samples and
		# holds the test group's usage.
		grep -q "^memcgtop_usage_bytes{cgroup=\"/$T\"} [0-9]" "$out" || torn=$((torn + 1))
	fi
done
wait $op; rc=$?
[ $rc = 0 ] && [ $seen -gt 0 ] && [ $torn = 0 ] && [ ! -s "$tmp/err" ] &&
	[ "$(find "$tmp/tf" -type f | wc -l)" = 1 ] && [ "$(stat -c %a "$out")" = 644 ] \
	&& ok "--output: $seen reads during the run, every one a whole exposition; no temporary file left; mode 644" \
	|| bad "--output: rc $rc seen $seen torn $torn files $(ls "$tmp/tf") mode $(stat -c %a "$out" 2>/dev/null)"
promtool check metrics <"$out" >/dev/null 2>&1 && ok "--output file passes promtool check metrics" \
	|| { command -v promtool >/dev/null && bad "--output file fails promtool" || echo "SKIP: promtool not installed"; }

echo "record: $pass passed, $fail failed"
[ $fail = 0 ]
