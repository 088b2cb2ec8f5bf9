#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/golden/run.sh - golden-output tests of memcgtop's batch formats.
#
#   tests/golden/run.sh            compare with tests/golden/*, then verify
#   tests/golden/run.sh --update   regenerate tests/golden/* (a fixture's
#                                  files are kept only if verify.py agrees)
#
# For every fixture (the committed ones under tests/fixtures plus edge-names,
# generated into a temporary directory by tests/capture/make-edge.sh) and
# every format it runs
#   memcgtop -b --root tests/fixtures/F/cg --proc tests/fixtures/F/proc -n N -F FMT
# with N = samples - 1 (every iteration) and compares the output byte for
# byte with tests/golden/F.{txt,csv,json,om} (and F.raw.txt for text with
# -r).  Then it checks the json/csv/om output with tests/golden/verify.py (an
# independent recomputation from the fixture's raw files), the JSON with
# python's json module, the CSV with python's csv module, and each
# OpenMetrics exposition with `promtool check metrics` when promtool exists.
#
# The binary is $MEMCGTOP (default ./memcgtop in the repository root; a
# relative $MEMCGTOP is taken relative to the current directory), so an ASan
# build can be run through the same tests.  Works from any directory.
# The --root argument is always the relative path tests/fixtures/F/cg (for
# edge-names relative to the temporary directory), so that the "root" echoed
# in the output is the same on every machine.
# Exit status: 0 if everything passed, 1 otherwise, 2 on a usage error.
set -u
export LC_ALL=C

update=0
case ${1:-} in
--update) update=1 ;;
'') ;;
*) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=${MEMCGTOP:-$ROOT/memcgtop}
case $BIN in
/*) ;;
*) BIN=$PWD/$BIN ;;
esac
cd "$ROOT" || exit 1
[ -x "$BIN" ] || { echo "FAIL: no executable memcgtop at $BIN (run make)"; exit 1; }

GOLDEN=$ROOT/tests/golden
FIXTURES=(v1-live v2-live edge-vanish edge-reset edge-unlimited edge-broken edge-v2 edge-names)
RAW_TEXT=(v1-live v2-live)
FORMATS=(text csv json openmetrics prometheus)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/memcgtop-golden.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
GEN=$WORK/gen
OUT=$WORK/out
mkdir -p "$GEN/tests/fixtures" "$OUT"
if ! "$ROOT/tests/capture/make-edge.sh" "$GEN/tests/fixtures" edge-names; then
	echo "FAIL: make-edge.sh edge-names"
	exit 1
fi

pass=0
fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# base FIXTURE: the directory to run in (the root arg is relative to it)
base() {
	if [ "$1" = edge-names ]; then echo "$GEN"; else echo "$ROOT"; fi
}

ext() {
	case $1 in
	text) echo txt ;;
	openmetrics) echo om ;;
	prometheus) echo prom ;;
	*) echo "$1" ;;
	esac
}

# show the first lines of a diff, control bytes made visible
showdiff() {
	python3 - "$1" "$2" <<'PYEOF'
import sys
a, b = (open(p, 'rb').read().split(b'\n') for p in sys.argv[1:3])
for i in range(max(len(a), len(b))):
    x = a[i] if i < len(a) else b'<end of file>'
    y = b[i] if i < len(b) else b'<end of file>'
    if x != y:
        c = next((j for j in range(min(len(x), len(y))) if x[j] != y[j]),
                 min(len(x), len(y)))
        lo = max(0, c - 60)
        print('    first difference: line %d, byte %d' % (i + 1, c + 1))
        print('    golden: ...%r' % x[lo:c + 60])
        print('    output: ...%r' % y[lo:c + 60])
        break
PYEOF
	diff -a -u "$1" "$2" | tail -n +3 | cut -c1-160 | head -n 12 |
		cat -v | sed 's/^/    /'
}

# run FIXTURE FMT OUTFILE [ARGS...]: memcgtop on the fixture's whole series
run() {
	local f=$1 fmt=$2 out=$3 b n rc
	shift 3
	b=$(base "$f")
	n=$(($(wc -l <"$b/tests/fixtures/$f/cg/timestamps") - 1))
	(cd "$b" && "$BIN" -b --root "tests/fixtures/$f/cg" \
		--proc "tests/fixtures/$f/proc" -n "$n" -F "$fmt" "$@") \
		>"$out" 2>"$out.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "run $f $fmt $*: exit status $rc: $(head -c 300 "$out.err")"
		return 1
	fi
	if [ -s "$out.err" ]; then
		bad "run $f $fmt $*: unexpected stderr: $(head -c 300 "$out.err")"
		return 1
	fi
	return 0
}

# golden FIXTURE NAME OUTFILE: compare (or, with --update, stage) one case
golden() {
	local f=$1 name=$2 out=$3 g=$GOLDEN/$1.$2
	if [ $update = 1 ]; then
		return 0
	fi
	if [ ! -f "$g" ]; then
		bad "golden $f $name: no $g (run $0 --update)"
	elif cmp -s "$g" "$out"; then
		ok "golden $f $name"
	else
		bad "golden $f $name: output differs from tests/golden/$f.$name"
		showdiff "$g" "$out"
	fi
}

# verify FIXTURE: verify.py and the format parsers on the fresh output
verify() {
	local f=$1 b o=$OUT/$1 log=$OUT/$1.verify r=0
	b=$(base "$f")
	if (cd "$b" && python3 "$HERE/verify.py" "tests/fixtures/$f" \
		--json "$o.json" --csv "$o.csv" --om "$o.om") >"$log" 2>&1; then
		ok "verify $f: $(tail -n 1 "$log")"
	else
		bad "verify $f: $(tail -n 1 "$log")"
		head -n 20 "$log" | cat -v | sed 's/^/    /'
		return 1
	fi
	if python3 - "$o.json" <<'EOF'
import json, sys
n = 0
with open(sys.argv[1], 'rb') as f:
    for n, line in enumerate(f, 1):
        obj = json.loads(line)
        assert isinstance(obj, dict) and isinstance(obj.get('groups'), list), \
            'line %d: not an object with a groups array' % n
assert n > 0, 'no lines'
EOF
	then ok "json $f parses"; else bad "json $f does not parse"; r=1; fi
	if python3 - "$o.csv" <<'EOF'
import csv, sys
with open(sys.argv[1], newline='', encoding='utf-8', errors='surrogateescape') as f:
    rows = list(csv.reader(f, strict=True))
assert len(rows) > 1, 'no data rows'
for i, r in enumerate(rows[1:], 2):
    assert len(r) == len(rows[0]), 'record %d: %d fields, header %d' % (i, len(r), len(rows[0]))
EOF
	then ok "csv $f parses"; else bad "csv $f does not parse"; r=1; fi
	return $r
}

# promcheck FIXTURE: the Prometheus text output is the OpenMetrics output
# less what only OpenMetrics has (# UNIT, # EOF, counter families named
# without _total), and promtool finds nothing to say about any iteration.
promcheck() {
	local f=$1 d=$OUT/$1.blocks blk res msg=''
	mkdir -p "$d"
	if ! python3 - "$OUT/$f.om" "$OUT/$f.prom" "$d" <<'PYEOF'
import re, sys
om, prom, d = sys.argv[1:4]
blocks, cur = [], []
for line in open(om, encoding='utf-8'):
    if line == '# EOF\n':
        blocks.append(cur)
        cur = []
        continue
    cur.append(line)
assert not cur, 'text after the last # EOF'
counters = set()
out = []
for i, b in enumerate(blocks, 1):
    text = []
    for line in b:
        m = re.match(r'# TYPE (\S+) counter$', line)
        if m:
            counters.add(m.group(1))
    for line in b:
        if line.startswith('# UNIT '):
            continue
        m = re.match(r'# (HELP|TYPE) (\S+) (.*)$', line, re.S)
        if m and m.group(2) in counters:
            line = '# %s %s_total %s' % (m.group(1), m.group(2), m.group(3))
        text.append(line)
    open('%s/%d' % (d, i), 'w', encoding='utf-8').write(''.join(text))
    out.extend(text)
got = open(prom, encoding='utf-8').read()
if got != ''.join(out):
    sys.exit('the prometheus output is not the openmetrics output less its OpenMetrics-only lines')
PYEOF
	then
		bad "prometheus $f: differs from the openmetrics output"
		return
	fi
	ok "prometheus $f is the openmetrics output in text format 0.0.4"
	for blk in "$d"/*; do
		res=$(promtool check metrics <"$blk" 2>&1) ||
			msg="$msg iteration $(basename "$blk"): ${res//$'\n'/; };"
		[ -z "$res" ] || msg="$msg iteration $(basename "$blk"): ${res//$'\n'/; };"
	done
	if [ -n "$msg" ]; then
		bad "promtool check metrics $f:$msg"
	else
		ok "promtool check metrics $f: $(ls "$d" | wc -l) iterations clean"
	fi
}

have_promtool=0
command -v promtool >/dev/null 2>&1 && have_promtool=1

for f in "${FIXTURES[@]}"; do
	cases=()
	runfail=0
	for fmt in "${FORMATS[@]}"; do
		e=$(ext "$fmt")
		if run "$f" "$fmt" "$OUT/$f.$e"; then
			golden "$f" "$e" "$OUT/$f.$e"
		else
			runfail=1
		fi
		cases+=("$e")
	done
	for r in "${RAW_TEXT[@]}"; do
		[ "$r" = "$f" ] || continue
		if run "$f" text "$OUT/$f.raw.txt" -r; then
			golden "$f" raw.txt "$OUT/$f.raw.txt"
		else
			runfail=1
		fi
		cases+=(raw.txt)
	done
	verified=0
	if [ -s "$OUT/$f.json" ] && [ -s "$OUT/$f.csv" ] && [ -s "$OUT/$f.om" ]; then
		verify "$f" && verified=1
	else
		bad "verify $f: json, csv or om output missing"
	fi
	if [ $have_promtool = 1 ]; then
		[ -s "$OUT/$f.om" ] && [ -s "$OUT/$f.prom" ] && promcheck "$f"
	else
		echo "SKIP: promtool not installed ($f)"
	fi
	if [ $update = 1 ]; then
		if [ $verified = 1 ] && [ $runfail = 0 ]; then
			for e in "${cases[@]}"; do
				cp "$OUT/$f.$e" "$GOLDEN/$f.$e"
			done
			ok "update $f: wrote tests/golden/$f.{$(IFS=,; echo "${cases[*]}")}"
		else
			bad "update $f: a run failed or verify.py disagrees; tests/golden/$f.* left as they were"
		fi
	fi
done

# memory_recursiveprot, from --proc's mounts: a parent's protection that no
# child claims goes to its children by unprotected usage.  v2-live's
# work/deep (low 0) then gets a share of work's 32M, and deep/leaf one of
# deep's; verify.py --recursiveprot computes it.
rp=$OUT/recursiveprot
rm -rf "$rp" && mkdir -p "$rp" && cp -r "$ROOT/tests/fixtures/v2-live/cg" "$ROOT/tests/fixtures/v2-live/proc" "$rp/"
echo "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate,memory_recursiveprot 0 0" >"$rp/proc/mounts"
# ... and this host's zoneinfo in each sample (its per-CPU "high:" lines
# are no watermark): verify.py sums the zones' low and high itself.
for d in "$rp"/proc/[0-9]*; do cp /proc/zoneinfo "$d/zoneinfo"; done
n=$(($(wc -l <"$rp/cg/timestamps") - 1))
if "$BIN" -b --root "$rp/cg" --proc "$rp/proc" -n "$n" -F json >"$rp.json" 2>"$rp.err" && [ ! -s "$rp.err" ] &&
   python3 "$HERE/verify.py" "$rp" --json "$rp.json" --recursiveprot >"$rp.verify" 2>&1; then
	leaf=$(python3 -c 'import json,sys; print([g["eff_low"] for g in json.loads(open(sys.argv[1]).readline())["groups"] if g["path"] == "/fixture/work/deep/leaf"][0])' "$rp.json")
	wl=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["system"]["wmark_low"])' "$rp.json")
	if [ "${leaf:-0}" != 0 ] && [ "$leaf" != None ] && [ "$wl" != None ]; then
		ok "memory_recursiveprot (--proc mounts): $(tail -n 1 "$rp.verify"); deep/leaf's eff_low $leaf (0 without it); wmark_low $wl from zoneinfo"
	else
		bad "memory_recursiveprot: deep/leaf's eff_low '$leaf', wmark_low '$wl'"
	fi
else
	bad "memory_recursiveprot: $(head -c 300 "$rp.err") $(tail -n 3 "$rp.verify" 2>/dev/null)"
fi

echo "golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
