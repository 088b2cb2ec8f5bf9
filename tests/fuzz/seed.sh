#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerates the seed corpora tests/fuzz/corpus/<target>/ from the fixtures
# (tests/fixtures/*/cg/0/**, proc/*/, timestamps), the themes and a few
# hand-made inputs.  Files are named by content hash, so a seed is kept
# once; at most MAX (default 24) fixture files per target, each cut to
# 4 KiB, keep the committed corpora small.
#   tests/fuzz/seed.sh [MAX]
set -eu
cd "$(dirname "$0")/../.."
MAX=${1:-24}
C=tests/fuzz/corpus
FX=tests/fixtures

targets="stat events oom_control psi meminfo value timestamps size theme config escape"
for t in $targets; do
	rm -rf "${C:?}/$t"
	mkdir -p "$C/$t"
done

# add TARGET FILE: one seed from a file (its first 4 KiB).
add() {
	local h
	h=$(head -c 4096 "$2" | sha1sum | cut -c1-16)
	head -c 4096 "$2" >"$C/$1/$h"
}

# text TARGET STRING: one seed from a string (printf %b escapes).
text() {
	local tmp
	tmp=$(mktemp)
	printf '%b' "$2" >"$tmp"
	add "$1" "$tmp"
	rm -f "$tmp"
}

count() { find "$C/$1" -type f | wc -l; }

# files TARGET FIND-ARGS...: up to MAX distinct regular files.
files() {
	local t=$1 f
	shift
	find "$@" -type f 2>/dev/null | LC_ALL=C sort | while read -r f; do
		[ "$(count "$t")" -lt "$MAX" ] || break
		add "$t" "$f"
	done
}

CG0=("$FX"/*/cg/0)

# memory.stat and /proc/vmstat: parse_keyvals.
files stat "${CG0[@]}" -name memory.stat
for f in $FX/v1-live/proc/0/vmstat $FX/v2-live/proc/0/vmstat \
	 $FX/edge-broken/proc/0/vmstat; do
	[ -f "$f" ] && add stat "$f"
done
text stat 'cache 4096\nrss 8192\ntotal_rss 18446744073709551615\n'
text stat 'anon 1\nfile 2\ntruncated 3'
text stat ' 5\nkey  6\nkey 7 \nkey 18446744073709551616\nx 0\n'

files events "${CG0[@]}" \( -name memory.events -o -name memory.events.local \
	-o -name memory.swap.events \)
text events 'low 0\nhigh 12\nmax 3\noom 1\noom_kill 1\noom_group_kill 0\n'
files oom_control "${CG0[@]}" -name memory.oom_control
text oom_control 'oom_kill_disable 0\nunder_oom 1\noom_kill 42\n'

files psi "${CG0[@]}" -name memory.pressure
files psi $FX/*/proc/0/pressure -name memory
text psi 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n'
text psi 'some avg10=99.99 avg60=1.5 avg300=0 total=18446744073709551615\nfull avg10=1.2 total=7\n'
text psi 'full avg10=1.25 avg60=0.00 avg300=0.00 total=5\n'

files meminfo $FX/*/proc/0 -name meminfo
text meminfo 'MemTotal:       16777216 kB\nHugePages_Total:       0\nHugepagesize:       2048 kB\n'
text meminfo 'Big: 18014398509481983 kB\nBigger: 18014398509481984 kB\n:1\nNoColon 5\n'

files value "${CG0[@]}" \( -name memory.current -o -name memory.max -o \
	-name memory.limit_in_bytes -o -name memory.usage_in_bytes -o \
	-name memory.swappiness -o -name memory.failcnt \)
for s in 'max\n' '9223372036854771712\n' '9223372036854775807' \
	 '18446744073709551615\n' '18446744073709551616' '0\n' \
	 '21.44' '0.5' '7.' '.5' '123 \t\r\n' 'max \n'; do
	text value "$s"
done

files timestamps $FX/*/cg $FX/*/proc -maxdepth 1 -name timestamps
text timestamps '100 1796000000\n102 1796000002 5\n104.5\t1796000004\t7\n'
text timestamps '0.000000001\n1e3\n1e4 -1\n'

for s in 1536 1.5K 2GiB 512mb 64M 1.5G 0 1 200 201 16E 1T 0.999999999T \
	 '+256M' '-1G' '+10%' '-10%' '+1000%' '-100%' max MAX unlimited -1 \
	 '64M swappiness=10' '1G  swappiness=200' ' 512M ' \
	 18446744073709551615 9223372036854775807 17179869183.999G \
	 0.0000000000009094947017729282379150390625T 0.0000001K; do
	text size "$s"
done

for f in themes/*.theme; do
	[ -f "$f" ] && add theme "$f"
done
text theme 'row=default default\nheader = bright-cyan 236 bold underline # c\n'
text theme 'oom = 255 0 reverse standout dim\nrow = red blue\nrow = red blue\n'

text config '# memcgtop settings, written by the setup screen (w).\n# Command-line options override them.\ninterval = 2\nsort = -usage\ncolumns = memory\ncustom = usage,limit,failcnt\ntheme = light\nfolded = /system.slice\nfolded = /user.slice/user-1000.slice\n'
text config 'interval=0.05\nsort=+name\n\n   # comment\ntheme = /etc/memcgtop/x.theme\n'
text config 'interval = 86400.0001\n'
text config 'unknown = 1\n'
text config 'folded = relative\n'

# memory.numa_stat (shown as raw lines) and group names go through
# fmt_escape and the output writers.
files escape "${CG0[@]}" -name memory.numa_stat
text escape 'web/frontend'
text escape 'caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xb3 \\ "q" a,b\r\n'
text escape '\x1b[31mred\x7f\xc2\x85\xc2\xa0\xed\xa0\x80\xf4\x90\x80\x80\xc0\xaf\xe0\x80\xaf\xff'
text escape 'truncated \xe2\x82'

for t in $targets; do
	printf '%-12s %3d files %6d bytes\n' "$t" "$(count "$t")" \
		"$(cat "$C/$t"/* | wc -c)"
done
