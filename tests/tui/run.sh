#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - drives the real memcgtop binary in tmux and checks the text a
# person sees on the interactive screen.
#
# Usage:  tests/tui/run.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the live cgroup v1 part is a failure,
#             not a skip
#
# Every check prints "PASS: ..." or "FAIL: ..." (a failure shows the
# captured screen, indented); the last line is "tui: N passed, M failed";
# exit 1 on any failure.  A private tmux server (-L memcgtop-test-$$) runs
# fixed-size windows; it, the temporary directory and the live test's
# cgroup and sleep process are removed on exit.
#
# Expected values are computed here from the fixture files (recorded series
# of tests/fixtures/v2-live and v1-live), never taken from the program.
# With -d 30 the screen stays on sample 0 while keys are pressed.
set -u
# The script itself counts characters in UTF-8; the panes get their own
# LANG (LC_ALL is not exported to them).
LC_ALL=C.UTF-8
export -n LC_ALL
export TZ=UTC
unset TMUX TMUX_PANE

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
cd "$top" || exit 1

V2=tests/fixtures/v2-live
V1=tests/fixtures/v1-live
. tests/lib/count.sh
. tests/lib/cleanup.sh
. tests/lib/tmux.sh
tmux_private test
PROMPT='tui-test$ '
PROMPT_RE='^tui-test\$ ?$'
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memcgtop-tui.XXXXXX")
mkdir -p "$tmp/config" "$tmp/home"
LIVE_CG='' LIVE_PID='' LIVE_PID2=''

cleanup() {
	tmux_stop
	stop_pids $LIVE_PID $LIVE_PID2
	remove_tree "$LIVE_CG"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

SCREEN=''
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
	if [ -n "$SCREEN" ]; then
		echo "  screen:"
		printf '%s\n' "$SCREEN" | sed 's/^/    |/'
	fi
}

# start NAME W H 'ENV=... ...' ARGS...: a shell in a W x H window runs
# memcgtop ARGS with the environment ENV, then prints EXIT=status, saves
# `stty -a` and gives a prompt.
start() {
	local name=$1 w=$2 h=$3 envs=$4 cmd
	shift 4
	cmd="cd $(printf %q "$top") || exit; env -u LC_ALL -u LC_CTYPE XDG_CONFIG_HOME=$tmp/config HOME=$tmp/home $envs $(printf '%q ' "$MEMCGTOP" "$@")"
	cmd+="; echo EXIT=\$?; stty -a > $tmp/stty.$name; exec env PS1=$(printf %q "$PROMPT") bash --norc --noprofile -i"
	tm new-session -d -s "$name" -x "$w" -y "$h" "bash --norc --noprofile -c $(printf %q "$cmd")"
}

# wait_line NAME N TEXT: polls until screen line N is exactly TEXT.
wait_line() {
	local i
	for ((i = 0; i < 100; i++)); do
		SCREEN=$(cap "$1")
		[ "$(sed -n "$2p" <<<"$SCREEN")" = "$3" ] && return 0
		sleep 0.05
	done
	return 1
}

# check_line NAME N TEXT DESC
check_line() {
	if wait_line "$1" "$2" "$3"; then
		pass "$4"
	else
		fail "$4: line $2 is not '$3'"
	fi
}

# check_lines NAME FIRST EXPECTED-TEXT DESC [end]: screen lines FIRST...
# equal the lines of EXPECTED-TEXT; with "end", the line after them is
# empty too (no extra row).
check_lines() {
	local want n i got extra=0
	want=$3
	n=$(printf '%s\n' "$want" | wc -l)
	[ "${5:-}" = end ] && extra=1
	for ((i = 0; i < 100; i++)); do
		SCREEN=$(cap "$1")
		got=$(sed -n "$2,$(($2 + n - 1 + extra))p" <<<"$SCREEN")
		[ "$got" = "$want" ] && break
		sleep 0.05
	done
	if [ "$got" = "$want" ]; then
		pass "$4"
	else
		fail "$4: expected lines $2..$(($2 + n - 1)):"
		printf '%s\n' "$want" | sed 's/^/    >/'
	fi
}

# The style of the first cell of each line of a capture-pane -e: "N fg bg
# rev bold" (colours as numbers or d for the terminal's default).
sgr_lines() {
	awk '
	function apply(p,   n, a, i, v) {
		if (p == "") p = "0"
		n = split(p, a, /[;:]/)
		for (i = 1; i <= n; i++) {
			v = a[i] + 0
			if (v == 0) { fg = "d"; bg = "d"; rev = 0; bold = 0 }
			else if (v == 1) bold = 1
			else if (v == 22) bold = 0
			else if (v == 7) rev = 1
			else if (v == 27) rev = 0
			else if (v >= 30 && v <= 37) fg = v - 30
			else if (v == 39) fg = "d"
			else if (v >= 40 && v <= 47) bg = v - 40
			else if (v == 49) bg = "d"
			else if (v >= 90 && v <= 97) fg = v - 82
			else if (v >= 100 && v <= 107) bg = v - 92
			else if (v == 38 || v == 48) {
				if (a[i + 1] == 5) {
					if (v == 38) fg = a[i + 2]; else bg = a[i + 2]
					i += 2
				} else if (a[i + 1] == 2) i += 4
			}
		}
	}
	BEGIN { fg = "d"; bg = "d"; rev = 0; bold = 0; E = sprintf("%c", 27) }
	{
		s = $0
		while (match(s, "^" E "\\[[0-9;:]*m")) {
			apply(substr(s, 3, RLENGTH - 3)); s = substr(s, RLENGTH + 1)
		}
		print NR, fg, bg, rev, bold
		while (match(s, E "\\[[0-9;:]*m")) {
			apply(substr(s, RSTART + 2, RLENGTH - 3))
			s = substr(s, RSTART + RLENGTH)
		}
	}'
}

# selected_rows NAME 'FG BG REV': the names (last word) of the tree rows
# (lines 5 .. LINES-1) whose first cell has that style.
selected_rows() {
	local plain styled
	plain=$(cap "$1")
	styled=$(cap_e "$1" | sgr_lines)
	awk -v want="$2" -v last="$(($(wc -l <<<"$plain") - 1))" '
		NR == FNR { st[$1] = $2 " " $3 " " $4; next }
		FNR >= 5 && FNR < last && NF > 0 && st[FNR] == want { print $NF }
	' <(printf '%s\n' "$styled") <(printf '%s\n' "$plain")
}

# check_selected NAME GROUP-NAME DESC [STYLE]: exactly one tree row has the
# selected style (default theme: black on white) and it is GROUP-NAME.
check_selected() {
	local got i
	for ((i = 0; i < 60; i++)); do
		got=$(selected_rows "$1" "${4:-0 7 0}" | tr '\n' ' ')
		[ "$got" = "$2 " ] && break
		sleep 0.05
	done
	SCREEN=$(cap "$1")
	if [ "$got" = "$2 " ]; then
		pass "$3"
	else
		fail "$3: the selected rows are '$got', expected '$2'"
	fi
}

# --- expected values, from the fixture files --------------------------

# human BYTES: K/M/G... (powers of 1024), one decimal below 99.95.
human() {
	awk -v v="$1" 'BEGIN {
		if (v == "max" || v == "-") { print v; exit }
		if (v < 1024) { printf "%d\n", v; exit }
		u = 0; x = v
		while (x >= 1024 && u < 6) { x /= 1024; u++ }
		if (x < 99.95) printf "%.1f%s\n", x, substr("KMGTPE", u, 1)
		else printf "%.0f%s\n", x, substr("KMGTPE", u, 1)
	}'
}

# rate X: like the program's rates: one decimal below 99.95, then k, M.
human_rate() {
	awk -v v="$1" 'BEGIN {
		if (v < 99.95) { printf "%.1f\n", v; exit }
		u = 0; x = v
		while (x >= 999.95 && u < 6) { x /= 1000; u++ }
		if (u == 0) printf "%.0f\n", x
		else if (x < 99.95) printf "%.1f%s\n", x, substr("kMGTPE", u, 1)
		else printf "%.0f%s\n", x, substr("kMGTPE", u, 1)
	}'
}

statkey() { awk -v k="$2" '$1 == k { print $2; exit }' "$1/memory.stat"; }
readv() { [ -f "$1" ] && head -n1 "$1" || echo -; }

wall() { sed -n "$(($2 + 1))p" "$1/cg/timestamps" | awk '{ print $2 }'; }
mono() { sed -n "$(($2 + 1))p" "$1/cg/timestamps" | awk '{ print $1 }'; }
clock() { date -d "@$(wall "$1" "$2")" +%H:%M:%S; }

# Groups of a sample: "path<TAB>depth", in directory order (unsorted).
groups_of() {
	local d=$1
	(cd "$d" && find . -mindepth 1 -type d ! -name 'memory.*' | sed 's|^\.||') |
		awk 'BEGIN { print "/\t0" } { n = gsub("/", "/"); print $0 "\t" n }'
}

# rate KEY PREVDIR DIR DT: (cur - prev) / dt of a memory.stat key, "-"
# when either sample lacks it or it went backwards.
rate() {
	local a b
	a=$(statkey "$2" "$1" 2>/dev/null) b=$(statkey "$3" "$1" 2>/dev/null)
	if [ -z "$a" ] || [ -z "$b" ] || [ "$b" -lt "$a" ]; then echo -; return; fi
	awk -v a="$a" -v b="$b" -v t="$4" 'BEGIN { printf "%.6f\n", (b - a) / t }'
}

# v2_load SERIES K: the values of sample K per group into the arrays U
# (usage), L (max), LO (low), X (excess), P (use%), S (swap), EFF
# (effective limit), RS/RT (pgscan/pgsteal per second from sample K-1)
# keyed by path.
declare -A U L LO X P S EFF DEPTH RS RT
v2_load() {
	local d=$1/cg/$2 prev=$1/cg/$(($2 - 1)) path dep dir a f k s e dt
	dt=$(awk -v a="$(mono "$1" $(($2 - 1)))" -v b="$(mono "$1" "$2")" 'BEGIN { printf "%.9f", b - a }')
	U=() L=() LO=() X=() P=() S=() EFF=() DEPTH=() RS=() RT=()
	while IFS=$'\t' read -r path dep; do
		dir=$d$path
		DEPTH[$path]=$dep
		RS[$path]=$(rate pgscan "$prev$path" "$dir" "$dt")
		RT[$path]=$(rate pgsteal "$prev$path" "$dir" "$dt")
		if [ "$path" = / ]; then
			a=0
			for k in anon file kernel sock; do
				a=$((a + $(statkey "$dir" $k)))
			done
			U[/]=$a L[/]=- LO[/]=- X[/]=- P[/]=- S[/]=- EFF[/]=max
			continue
		fi
		U[$path]=$(readv "$dir/memory.current")
		L[$path]=$(readv "$dir/memory.max")
		LO[$path]=$(readv "$dir/memory.low")
		S[$path]=$(readv "$dir/memory.swap.current")
		# excess: usage above the effective low (below)
		# effective limit: the smallest memory.max up to the root
		e=max s=$path
		while [ "$s" != "" ]; do
			f=$(readv "$d$s/memory.max")
			if [ "$f" != max ] && { [ "$e" = max ] || [ "$f" -lt "$e" ]; }; then
				e=$f
			fi
			s=${s%/*}
		done
		EFF[$path]=$e
		if [ "$e" = max ]; then
			P[$path]=-
		else
			P[$path]=$(awk -v u="${U[$path]}" -v e="$e" 'BEGIN { printf "%.1f", 100 * u / e }')
		fi
	done < <(groups_of "$d")
	# v2 excess is usage above the effective low, which the golden
	# checker computes top-down from the files by the kernel's rules
	# (tests/golden/verify.py: protection()).
	while IFS=$'\t' read -r path e; do
		X[$path]=$e
	done < <(python3 - "$top/tests/golden" "$d" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import verify
v1, groups = verify.read_sample(sys.argv[2])
verify.protection(v1, groups)
for p, g in groups.items():
    if p != '/':
        print("%s\t%s" % (p, g['excess']))
EOF
)
}
hrate() { if [ "$1" = - ]; then echo -; else human_rate "$1"; fi; }

# tree_order KEYARRAY DIR(desc|asc): the paths in tree order, siblings
# sorted by the values of KEYARRAY ("-" sorts last, "max" above every
# number), ties by path.
tree_order() {
	local -n K=$1
	local dir=$2
	_emit() {
		local p=$1 c v
		echo "$p"
		for c in "${!DEPTH[@]}"; do
			[ "$c" = / ] && continue
			[ "${c%/*}" = "${p%/}" ] || continue
			v=${K[$c]}
			case $v in
			-) printf '2\t0\t%s\n' "$c" ;;
			max) printf '1\tinf\t%s\n' "$c" ;;
			*) printf '1\t%s\t%s\n' "$v" "$c" ;;
			esac
		done | if [ "$dir" = desc ]; then
			LC_ALL=C sort -t $'\t' -k1,1n -k2,2gr -k3,3
		else
			LC_ALL=C sort -t $'\t' -k1,1n -k2,2g -k3,3
		fi | cut -f3 | while read -r c; do _emit "$c"; done
	}
	_emit /
}

# kids PATH: whether a group has children.
haskids() {
	local c
	for c in "${!DEPTH[@]}"; do
		[ "$c" != / ] && [ "${c%/*}" = "${1%/}" ] && return 0
	done
	return 1
}

# v2_row PATH [GLYPH-OVERRIDE]: the overview row of a group, sample 0;
# EXCESS is XW columns wide.
XW=6
v2_row() {
	local p=$1 name glyph ind
	name=${p##*/}
	[ "$p" = / ] && name=/
	if haskids "$p"; then glyph=${2:-▾}' '; else glyph='  '; fi
	printf -v ind '%*s' $((2 * DEPTH[$p])) ''
	printf '  %6s %6s %6s %*s %5s %6s %7s %7s %s%s%s\n' \
		"$(human "${U[$p]}")" "$(human "${L[$p]}")" "$(human "${LO[$p]}")" \
		"$XW" "$(human "${X[$p]}")" "${P[$p]}" "$(human "${S[$p]}")" \
		"$(hrate "${RS[$p]}")" "$(hrate "${RT[$p]}")" \
		"$ind" "$glyph" "$name"
}

# rows PATH...: the overview rows of those groups.
rows() {
	local p
	for p in "$@"; do v2_row "$p"; done
}

meminfo() { awk -v k="$2:" '$1 == k { print $2 * 1024 }' "$1/meminfo"; }
psi_avg10() { awk -v k="$2" '$1 == k { sub("avg10=", "", $2); print $2 }' "$1/pressure/memory"; }
# vmstat_pg DIR pgscan|pgsteal: the system counter (anon + file, else
# kswapd + direct).
vmstat_pg() {
	awk -v k="$2" '$1 == k "_anon" || $1 == k "_file" { af += $2; n++ }
		$1 == k "_kswapd" || $1 == k "_direct" { kd += $2 }
		END { print n ? af : kd }' "$1/vmstat"
}
# mem_line SERIES K: header line 2 for sample K (rates from K-1).
mem_line() {
	local p=$1/proc/$2 q=$1/proc/$(($2 - 1)) tot av st sf sc stl dt
	tot=$(meminfo "$p" MemTotal) av=$(meminfo "$p" MemAvailable)
	st=$(meminfo "$p" SwapTotal) sf=$(meminfo "$p" SwapFree)
	dt=$(awk -v a="$(mono "$1" $(($2 - 1)))" -v b="$(mono "$1" "$2")" 'BEGIN { printf "%.9f", b - a }')
	sc=$(human_rate "$(awk -v a="$(vmstat_pg "$q" pgscan)" -v b="$(vmstat_pg "$p" pgscan)" -v t="$dt" 'BEGIN { print (b - a) / t }')")
	stl=$(human_rate "$(awk -v a="$(vmstat_pg "$q" pgsteal)" -v b="$(vmstat_pg "$p" pgsteal)" -v t="$dt" 'BEGIN { print (b - a) / t }')")
	local line split
	printf -v line 'Mem %s avail %s  Swap %s/%s  Scan %s/s Steal %s/s PSI %s/%s' \
		"$(human "$tot")" "$(human "$av")" "$(human $((st - sf)))" \
		"$(human "$st")" "$sc" "$stl" "$(psi_avg10 "$p" some)" "$(psi_avg10 "$p" full)"
	# Then who scanned: each reclaimer's vmstat counter ("-" where the
	# kernel has none), and memcg-targeted reclaim, the rest of anon +
	# file (at least 0).
	split=$(awk -v t="$dt" '
		FNR == 1 { f++ }
		{ v[f, $1] = $2; has[f, $1] = 1 }
		function d(k) { return v[2, k] - v[1, k] }
		END {
			all = d("pgscan_anon") + d("pgscan_file"); rest = all
			n = split("kswapd direct khugepaged proactive", r, " ")
			for (i = 1; i <= n; i++) {
				k = "pgscan_" r[i]
				if (has[2, k]) { rest -= d(k); out[i] = d(k) / t }
				else out[i] = "-"
			}
			if (rest < 0) rest = 0
			for (i = 1; i <= n; i++) print out[i]
			print rest / t
		}' "$q/vmstat" "$p/vmstat" | while read -r x; do
			if [ "$x" = - ]; then echo -; else human_rate "$x"; fi
		done | tr '\n' ' ')
	set -- $split
	printf '%s  Scan: kswapd %s direct %s khugepaged %s proactive %s memcg %s/s' \
		"$line" "$1" "$2" "$3" "$4" "$5" | cut -c1-"${MEM_LINE_W:-80}"
}

# clip W: each line cut to W characters, trailing blanks dropped (as
# capture-pane shows it).
clip() {
	local l
	while IFS= read -r l; do
		l=${l:0:$1}
		printf '%s\n' "${l%"${l##*[! ]}"}"
	done
}

HOSTNODE=$(uname -n)
KREL=$(uname -r)
HINT='F1 help  Tab columns  < > sort  / search  \ filter  d detail  q quit'
TITLES_V2='  ▼USAGE  LIMIT    LOW EXCESS  USE%   SWAP  SCAN/s STEAL/s GROUP'

# --- checks --------------------------------------------------------------

if [ ! -x "$MEMCGTOP" ]; then
	echo "FAIL: no binary at $MEMCGTOP (run make)"
	echo "tui: 0 passed, 1 failed"
	exit 1
fi

# memcgtop shows sample 0 at start and takes sample 1 within a second (so
# that rates show); with a long -d it then stays on sample 1.
# A session that lives for the whole run, so that the server does not exit
# (and race a new session) whenever a test's session is killed.
tm new-session -d -s keeper -x 80 -y 24 'exec cat' || { echo "FAIL: cannot start tmux"; exit 1; }

v2_load "$V2" 1
mapfile -t ORDER_USAGE < <(tree_order U desc)
ALL_ROWS=$(rows "${ORDER_USAGE[@]}")
T0=$(clock "$V2" 1)

# up NAME DESC: the screen is drawn and shows sample 1 of the v2 series.
up() {
	check_has "$1" "^memcgtop $T0  " "$2: the screen comes up and shows sample 1 ($T0)"
}

echo "== v2 recorded series at 80x24"
A=v2main
start $A 80 24 "TERM=tmux-256color LANG=C.UTF-8" -d 60 --root "$V2/cg" --proc "$V2/proc"
up $A "v2"
l1=$(sed -n 1p <<<"$SCREEN")
if [[ $l1 == "memcgtop $T0  "* && $l1 == *"v2 files $V2/cg"* && $l1 == *"every 60.0s"* ]]; then
	pass "v2 80x24: header line 1 shows time $T0, mode, collector (files: a recording) and root, every 60.0s"
else
	fail "v2 80x24: header line 1 lacks 'memcgtop $T0', 'v2 files $V2/cg' or 'every 60.0s' (a line of an 80-column screen must keep them)"
fi
check_line $A 2 "$(mem_line "$V2" 1)" "v2 80x24: Mem/Swap/Reclaim/PSI line complete"
check_line $A 3 "Columns: overview  Sort: usage desc  Groups: 11 shown of 11" "v2: header line 3"
check_line $A 4 "$TITLES_V2" "v2: column titles with ▼ on USAGE"
check_lines $A 5 "$ALL_ROWS" "v2: every tree row (values, rates, indentation, ▾ glyphs, usage order)" end
check_line $A 24 "$HINT" "v2: status line hints"
for g in /fixture/work/reclaim /fixture/work/deep/leaf; do
	if grep -qxF -- "$(v2_row $g)" <<<"$SCREEN"; then
		pass "v2: $g shows usage $(human "${U[$g]}"), limit $(human "${L[$g]}"), low $(human "${LO[$g]}"), use% ${P[$g]}, SCAN/s $(hrate "${RS[$g]}")"
	else
		fail "v2: $g row: expected '$(v2_row $g)'"
	fi
done
if [ "$(tm display -p -t $A '#{alternate_on}')" = 1 ]; then
	pass "v2: the screen uses the alternate screen"
else
	fail "v2: alternate screen not on"
fi

# Selection moves: Down, j, Up, k.
check_selected $A / "select: the root is selected at start"
keys $A Down
check_selected $A fixture "select: Down moves to fixture"
lit $A j
check_selected $A bulk "select: j moves to bulk"
keys $A Up
check_selected $A fixture "select: Up moves to fixture"
lit $A j; lit $A j
check_selected $A work "select: j j moves to work"
lit $A k
check_selected $A bulk "select: k moves to bulk"
lit $A j
keys $A Enter
check_line $A 14 "Detail of /fixture/work  (J/K scroll, d closes)" "detail: Enter opens the pane titled with the selected path"
lit $A d
check_lines $A 5 "$ALL_ROWS" "detail: d closes the pane (the tree has its rows back)" end

# Fold, unfold.
keys $A Left
check_line $A 3 "Columns: overview  Sort: usage desc  Groups: 7 shown of 11" "fold: Left on work: Groups: 7 shown of 11"
check_lines $A 5 "$(rows / /fixture /fixture/bulk; v2_row /fixture/work ▸; rows /fixture/protected /fixture/idle /fixture/oom)" "fold: work shows ▸ and its children are hidden" end
keys $A Right
check_line $A 3 "Columns: overview  Sort: usage desc  Groups: 11 shown of 11" "unfold: Right on work: 11 shown"
check_lines $A 5 "$ALL_ROWS" "unfold: every row is back" end
lit $A '*'
check_lines $A 5 "$(rows /; v2_row /fixture ▸)" "fold all: * leaves / and ▸ fixture" end
check_line $A 3 "Columns: overview  Sort: usage desc  Groups: 2 shown of 11" "fold all: Groups: 2 shown of 11"
check_line $A 24 "all groups folded" "fold all: status says all groups folded"
check_selected $A fixture "fold all: the selection moves to the folded ancestor"
lit $A '*'
check_lines $A 5 "$ALL_ROWS" "unfold all: * shows every row" end
check_line $A 24 "all groups unfolded" "unfold all: status says all groups unfolded"

# Backspace: parent.  fixture -> / ; then to leaf and back to deep.
keys $A End
check_selected $A oom "select: End selects the last row"
keys $A Home
check_selected $A / "select: Home selects the first row"
for _ in 1 2 3 4 5 6 7; do keys $A Down; done
check_selected $A leaf "select: 7 x Down reaches leaf"
keys $A BSpace
check_selected $A deep "Backspace selects the parent (deep)"
keys $A BSpace
check_selected $A work "Backspace again selects work"

# Sort keys.
lit $A '>'
check_line $A 4 '   USAGE ▼LIMIT    LOW EXCESS  USE%   SWAP  SCAN/s STEAL/s GROUP' "sort: > moves the marker to LIMIT, next to its title"
check_line $A 3 "Columns: overview  Sort: limit desc  Groups: 11 shown of 11" "sort: > header says Sort: limit desc"
check_lines $A 5 "$(rows $(tree_order L desc))" "sort: limit desc row order (max first, ties by path)" end
lit $A '<'
check_line $A 4 "$TITLES_V2" "sort: < moves the marker back to USAGE"
keys $A F6
check_line $A 3 "Columns: overview  Sort: limit desc  Groups: 11 shown of 11" "sort: F6 sorts by the column to the right (limit)"
lit $A '<'
check_line $A 3 "Columns: overview  Sort: usage desc  Groups: 11 shown of 11" "sort: < back to usage"
lit $A I
check_line $A 4 '  ▲USAGE  LIMIT    LOW EXCESS  USE%   SWAP  SCAN/s STEAL/s GROUP' "sort: I shows ▲ on USAGE"
check_line $A 3 "Columns: overview  Sort: usage asc  Groups: 11 shown of 11" "sort: I header says Sort: usage asc"
check_lines $A 5 "$(rows $(tree_order U asc))" "sort: I reverses the sibling order" end
lit $A E
check_line $A 3 "Columns: overview  Sort: excess desc  Groups: 11 shown of 11" "sort: E header says Sort: excess desc"
# EXCESS fills its width: the sort column grows by one for the marker, so
# that a space separates it from LOW.
check_line $A 4 '   USAGE  LIMIT    LOW ▼EXCESS  USE%   SWAP  SCAN/s STEAL/s GROUP' "sort: E marks EXCESS (one column wider, a space before the marker)"
XW=7
check_lines $A 5 "$(rows $(tree_order X desc))" "sort: E row order by excess, EXCESS 7 wide" end
XW=6
lit $A R
check_line $A 3 "Columns: overview  Sort: pgscan_per_s desc  Groups: 11 shown of 11" "sort: R header says Sort: pgscan_per_s desc"
check_line $A 4 '   USAGE  LIMIT    LOW EXCESS  USE%   SWAP ▼SCAN/s STEAL/s GROUP' "sort: R marks SCAN/s"
check_lines $A 5 "$(rows $(tree_order RS desc))" "sort: R row order by pages scanned per second" end
lit $A M
check_line $A 3 "Columns: overview  Sort: usage desc  Groups: 11 shown of 11" "sort: M header says Sort: usage desc"
check_lines $A 5 "$ALL_ROWS" "sort: M restores the usage order" end

# Search.
keys $A Home
lit $A /
check_line $A 24 "Search:" "search: / opens the prompt"
lit $A 'work/'
check_line $A 24 "Search: work/" "search: typed text is shown"
check_selected $A reclaim "search: typing work/ selects the first match (reclaim)"
keys $A Enter
lit $A n
check_selected $A cache "search: n selects the next match (cache)"
lit $A n
check_selected $A deep "search: n again selects deep"
lit $A N
check_selected $A cache "search: N selects the previous match (cache)"
lit $A /
lit $A zzz
check_line $A 24 "Search: zzz" "search: a string with no match is shown"
keys $A Escape
check_line $A 24 "cancelled" "search: Esc cancels"

# Filter.
lit $A '\'
lit $A deep
keys $A Enter
check_line $A 3 "Columns: overview  Sort: usage desc  Groups: 5 shown of 11  Filter: deep" "filter: header says 5 shown and the filter"
check_lines $A 5 "$(rows / /fixture /fixture/work /fixture/work/deep /fixture/work/deep/leaf)" "filter: matches and their ancestors only" end
lit $A '\'
keys $A BSpace BSpace BSpace BSpace Enter
check_line $A 3 "Columns: overview  Sort: usage desc  Groups: 11 shown of 11" "filter: emptied, every group is back"
check_line $A 24 "filter cleared" "filter: status says filter cleared"

# Tags.
keys $A Home
keys $A Space
check_has $A '^\*   .* ▾ /$' "tag: Space tags the root (row starts with *)"
check_selected $A fixture "tag: Space moves the selection down"
keys $A Space
check_lines $A 5 "$(printf '%s\n' "$ALL_ROWS" | sed '1,2s/^ /*/')" "tag: / and fixture tagged, the other rows not" end
lit $A U
check_lines $A 5 "$ALL_ROWS" "untag: U clears every tag" end
check_line $A 24 "all tags cleared" "untag: status says all tags cleared"

# Detail pane of /fixture/work.
keys $A Home; keys $A Down Down Down
check_selected $A work "detail: work selected"
lit $A d
W=$V2/cg/1/fixture/work
dl() {
	local v h
	v=$(head -n1 "$W/$1")
	if [ "$v" != max ] && [ "$v" -ge 1024 ]; then h="  ($(human "$v"))"; else h=''; fi
	printf '%-28s %s%s\n' "$1" "$v" "$h"
}
check_line $A 14 "Detail of /fixture/work  (J/K scroll, d closes)" "detail: d opens 'Detail of /fixture/work'"
# First its effective protection, computed top-down from the files by
# the golden checker (tests/golden/verify.py: protection()).
EP=$(python3 - "$top/tests/golden" "$V2/cg/1" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import verify
v1, groups = verify.read_sample(sys.argv[2])
verify.protection(v1, groups)
g = groups["/fixture/work"]
print("%s %s" % (g["eff_min"], g["eff_low"]))
EOF
)
EPLINE=$(printf '  %-28s min %s, low %s, recursiveprot assumed off' "effective protection" "$(human ${EP% *})" "$(human ${EP#* })")
# The pane opens with the verdict (tests/tui/verdict.sh checks its words).
check_line $A 15 "Verdict" "detail: the verdict first"
VLINE=$(printf '  Below its limit: usage %s of %s (%s%%).' "$(human $(cat $W/memory.current))" "$(human $(cat $W/memory.max))" "$(awk -v u=$(cat $W/memory.current) -v l=$(cat $W/memory.max) 'BEGIN { printf "%.1f", 100 * u / l }')")
check_line $A 16 "$VLINE" "detail: the verdict's first sentence"
# J until the effective protection shows (the verdict's lines above it
# wrap at 80 columns), then memory.current right below it.
for ((i = 0; i < 12; i++)); do
	SCREEN=$(cap $A)
	grep -qxF -- "$EPLINE" <<<"$SCREEN" &&
		grep -qxF -- "$(dl memory.current)" <<<"$SCREEN" && break
	lit $A J
done
n=$(grep -nxF -- "$EPLINE" <<<"$SCREEN" | cut -d: -f1)
if [ -n "$n" ] && [ "$(sed -n "$((n + 1))p" <<<"$SCREEN")" = "$(dl memory.current)" ]; then
	pass "detail: the effective protection (eff_min ${EP% *}, eff_low ${EP#* } from the files), then memory.current"
else
	fail "detail: no '$EPLINE' followed by '$(dl memory.current)' after $i J"
fi
for f in memory.current memory.max memory.high memory.low memory.min memory.swap.current; do
	want=$(dl $f)
	for ((i = 0; i < 12; i++)); do
		grep -qxF -- "$want" <<<"$(cap $A)" && break
		lit $A J
	done
	if wait_for $A "^$(sed 's/[].()[*^$]/\\&/g' <<<"$want")\$" 2; then
		pass "detail: line '$want'"
	else
		fail "detail: no line '$want'"
	fi
done
check_lines $A 5 "$(rows / /fixture /fixture/bulk /fixture/work /fixture/work/reclaim /fixture/work/cache /fixture/work/deep /fixture/work/deep/leaf /fixture/protected)" "detail: the tree keeps 9 rows above the pane"
# K back to the top, then one J, one K.
for ((i = 0; i < 40; i++)); do
	lit $A K
done
check_lines $A 14 "Detail of /fixture/work  (J/K scroll, d closes)
Verdict" "detail: K scrolls back to the verdict"
lit $A J
check_lines $A 14 "Detail of /fixture/work  (J/K scroll, d closes)
$VLINE" "detail: J scrolls the pane below its title, which stays"
lit $A K
check_lines $A 14 "Detail of /fixture/work  (J/K scroll, d closes)
Verdict" "detail: K scrolls back"
lit $A d
lit $A p
check_line $A 14 "Processes of /fixture/work" "process pane: p opens 'Processes of /fixture/work'"
check_has $A "^not shown: a copy or a recording; its pids are not this host's processes$" "process pane: says the pids are not this host's"
if grep -qF "its pids are not this host's processes" <<<"$SCREEN"; then
	pass "process pane: the whole message is readable at 80 columns"
else
	fail "process pane: the message is cut at 80 columns (the word 'processes' is lost)"
fi
lit $A p
check_lines $A 5 "$ALL_ROWS" "process pane: p closes it" end

# Help.
mapfile -t KEYLINES < <("$MEMCGTOP" --list-keys)
HELPTITLE="memcgtop keys (Up/Down scroll, any other key returns)"
for k in h '?' F1; do
	if [ "$k" = F1 ]; then keys $A F1; else lit $A "$k"; fi
	check_line $A 1 "$HELPTITLE" "help: $k opens the help screen"
	lit $A x
	check_line $A 4 "$TITLES_V2" "help: a key returns from the help ($k)"
done
lit $A h
wait_line $A 1 "$HELPTITLE"
seen=$(cap $A)
# The help shows 21 bindings at 24 lines: the rest a page (21 steps down)
# at a time, the last page after N-21 steps in all.
for ((down = 0; down < ${#KEYLINES[@]} - 21; )); do
	keys $A Down
	down=$((down + 1))
	if [ $((down % 21)) = 0 ] && [ $down -lt $((${#KEYLINES[@]} - 21)) ]; then
		wait_for $A "^ $(sed 's/[].()[*^$\\]/\\&/g' <<<"${KEYLINES[$((down + 20))]}")\$" 3
		seen+=$'\n'$(cap $A)
	fi
done
wait_for $A "^ $(sed 's/[].()[*^$\\]/\\&/g' <<<"${KEYLINES[-1]}")\$" 3
seen+=$'\n'$(cap $A)
missing=0 cut=0
for l in "${KEYLINES[@]}"; do
	if grep -qxF -- " $l" <<<"$seen"; then continue; fi
	if grep -qxF -- "$(clip 80 <<<" $l")" <<<"$seen"; then
		cut=1; echo "  cut at 80 columns in the help: '$l'"
	else
		missing=1; echo "  missing from help: '$l'"
	fi
done
SCREEN=$seen
if [ $missing = 0 ] && [ ${#KEYLINES[@]} -ge 30 ]; then
	pass "help: every binding of --list-keys is on the help screen"
else
	fail "help: some bindings of --list-keys are not on the help screen"
fi
missing=$cut
SCREEN=$seen
if [ $missing = 0 ] && [ ${#KEYLINES[@]} -ge 30 ]; then
	pass "help: every help line is readable in full at 80 columns"
else
	fail "help: some help lines are cut at 80 columns (not readable in full)"
fi
lit $A x
check_line $A 4 "$TITLES_V2" "help: closed"

# Ctrl-L, edit key, then quit.
# Scribble on the terminal behind memcgtop's back; Ctrl-L must repaint.
before=$(cap $A)
printf '\033[8;20HSCRIBBLE-SCRIBBLE\033[20;1HSCRIBBLE' >"$(tm display -p -t $A '#{pane_tty}')"
if wait_for $A 'SCRIBBLE-SCRIBBLE' 2; then
	keys $A C-l
	check_lines $A 1 "$before" "Ctrl-L: redraws the whole screen (stray text on the terminal is gone)"
else
	fail "Ctrl-L: could not write to the pane's terminal"
fi
lit $A q
check_has $A '^EXIT=0' "q: memcgtop quits with status 0"
check_has $A "$PROMPT_RE" "q: the shell prompt returns"
sleep 0.1
if [ "$(tm display -p -t $A '#{alternate_on} #{cursor_flag} #{keypad_cursor_flag}')" = "0 1 0" ]; then
	pass "q: alternate screen off, cursor visible, keypad mode off"
else
	fail "q: terminal modes not restored (alternate cursor keypad = $(tm display -p -t $A '#{alternate_on} #{cursor_flag} #{keypad_cursor_flag}'))"
fi
stty_sane() {
	local f=$tmp/stty.$1
	for _ in $(seq 40); do [ -s "$f" ] && break; sleep 0.05; done
	if [ -s "$f" ] && grep -qw -- echo "$f" && grep -qw -- icanon "$f" &&
	   grep -qw -- icrnl "$f" && grep -qw -- onlcr "$f" && grep -qw -- isig "$f" &&
	   ! grep -qw -- -echo "$f" && ! grep -qw -- -icanon "$f"; then
		pass "$2: stty shows echo icanon isig icrnl onlcr"
	else
		SCREEN=$(cat "$f" 2>/dev/null)
		fail "$2: stty not sane after memcgtop"
	fi
}
stty_sane $A "q"
lit $A 'echo typed-back'
keys $A Enter
check_has $A '^typed-back$' "q: the shell echoes typed text again"
tm kill-session -t $A

echo "== column sets (v2, 120 columns)"
B=v2sets
start $B 120 24 "TERM=tmux-256color LANG=C.UTF-8" -d 60 --root "$V2/cg" --proc "$V2/proc"
up $B "sets"
check_line $B 1 "memcgtop $T0  every 60.0s  sample 2/5  v2 files $V2/cg  $HOSTNODE $KREL" "header line 1 in full: time, interval, mode, collector, root, host, kernel"
check_line $B 2 "$(MEM_LINE_W=120 mem_line "$V2" 1)" "header line 2 in full: Mem/Swap from meminfo, system reclaim from vmstat, PSI"
SETS=(overview memory LRU reclaim events limits custom)
TITLES=(
"$TITLES_V2"
'  ▼USAGE   PEAK   WSET   SWAP MEM+SW  ZSWAP   ANON   FILE GROUP'
'  ▼USAGE A-ANON I-ANON A-FILE I-FILE UNEVIC   RFA/s   RFF/s GROUP'
'   SCNK/s  SCND/s  STLK/s  STLD/s   EFF   RFA/s   RFF/s  PSI-S  PSI-F PFLOOR PRIO STALL/s  ELOWL  EMINL GROUP'
'   EVOOM OOMKILL  KILL/s   KILLL   EVMAX   MAX/s  MAXL/s  EVHIGH  HIGH/s  SWMX/s  SWFL/s GROUP'
'  ▼USAGE  LIMIT   HIGH    LOW    MIN   ELOW   EMIN EFFLIM SWPMAX GROUP'
'  GROUP'
)
for i in 1 2 3 4 5 6 0; do
	keys $B Tab
	check_line $B 4 "${TITLES[$i]}" "sets: Tab to ${SETS[$i]}: column titles"
	check_line $B 3 "Columns: ${SETS[$i]}  Sort: usage desc  Groups: 11 shown of 11" "sets: header names ${SETS[$i]}"
	# The custom set starts empty: the status line says how to fill it.
	[ "${SETS[$i]}" = custom ] && check_line $B 24 "columns: custom, empty: S (setup) chooses its columns" "sets: the empty custom set says how to add columns"
done
if [ "$(sed -n 1p <<<"$SCREEN" | cut -c1-17)" = "memcgtop $T0" ]; then
	pass "sets: Tab does not consume samples of the recorded series (still $T0)"
else
	fail "sets: after Tab through the sets the header time is no longer $T0 (each Tab that needs new fields re-reads, which takes the next sample of the series)"
fi
for i in 6 5 4 3 2 1 0; do
	keys $B BTab
	check_line $B 4 "${TITLES[$i]}" "sets: Shift-Tab back to ${SETS[$i]}"
done
tm kill-session -t $B

echo "== pause with a recorded series"
B=v2pause
start $B 120 24 "TERM=xterm-256color LANG=C.UTF-8" -d 30 --root "$V2/cg" --proc "$V2/proc"
up $B "pause"
lit $B Z
check_line $B 1 "memcgtop $T0  every 30.0s [paused]  sample 2/5  v2 files $V2/cg  $HOSTNODE $KREL" "Z: header shows [paused]"
check_line $B 24 "paused: sampling stopped (Z resumes)" "Z: status says paused"
keys $B Tab
check_line $B 4 "${TITLES[1]}" "pause: Tab while paused"
if [ "$(sed -n 1p <<<"$SCREEN" | cut -c1-17)" = "memcgtop $T0" ]; then
	pass "pause: no sample is read while paused (header time still $T0)"
else
	fail "pause: Tab read a new sample while paused (header time changed from $T0)"
fi
keys $B BTab
lit $B Z
check_line $B 24 "sampling resumed" "Z again: sampling resumed"
check_has $B "^memcgtop $T0  every 30\.0s  sample 2/5  v2 " "Z again: [paused] is gone"

# Interval prompt.
lit $B s
check_line $B 24 "Interval in seconds: 30" "s: prompt with the current interval"
keys $B BSpace BSpace
lit $B 2
keys $B Enter
check_has $B "^memcgtop [0-9:]*  every 2\.0s  " "s: 2 Enter gives every 2.0s"
check_line $B 24 "refresh every 2 s" "s: status confirms the new interval"
lit $B s
keys $B BSpace
lit $B abc
keys $B Enter
check_line $B 24 "interval: 'abc' is not a number of seconds from 0.05 to 86400 (decimal, e.g. 2 or 0.5)" "s: an invalid value shows the error in the status line"
check_has $B "^memcgtop [0-9:]*  every 2\.0s  " "s: the interval is kept after an invalid value"
sgr=$(cap_e $B | sgr_lines | sed -n 24p)
if [ "$(awk '{ print $2, $4 }' <<<"$sgr")" = "1 0" ]; then
	pass "s: the error is drawn in the error style (red)"
else
	fail "s: the error line's style is '$sgr', expected red"
fi
lit $B s
keys $B BSpace
lit $B 0.01
keys $B Enter
check_line $B 24 "interval: '0.01' is not a number of seconds from 0.05 to 86400 (decimal, e.g. 2 or 0.5)" "s: 0.01 is out of range"
tm kill-session -t $B

echo "== end of the series"
B=v2end
start $B 120 24 "TERM=xterm-256color LANG=C.UTF-8" -d 0.1 --root "$V2/cg" --proc "$V2/proc"
check_line $B 24 "end of the recorded series" "series: the screen says end of the recorded series"
last=$(($(wc -l <"$V2/cg/timestamps") - 1))
check_has $B "^memcgtop $(clock "$V2" $last)  " "series: the header shows the last sample's time $(clock "$V2" $last)"
# SCAN/s of /fixture/work/reclaim over the last interval.
r=$(awk -v a="$(statkey "$V2/cg/$((last - 1))/fixture/work/reclaim" pgscan)" \
	-v b="$(statkey "$V2/cg/$last/fixture/work/reclaim" pgscan)" \
	-v t0="$(mono "$V2" $((last - 1)))" -v t1="$(mono "$V2" $last)" \
	'BEGIN { print (b - a) / (t1 - t0) }')
check_has $B " $(human_rate "$r") +[^ ]+         reclaim$" "series: reclaim's SCAN/s is $(human_rate "$r") from the last two samples"
tm kill-session -t $B

echo "== MEMCGTOP_FRAME_STATS"
# Every sample read is followed by one frame (the first included); the
# series ends after its last sample, so the count is exact.
B=v2frames
n=$(wc -l <"$V2/cg/timestamps")
start $B 120 24 "TERM=xterm-256color LANG=C.UTF-8 MEMCGTOP_FRAME_STATS=$tmp/frames" -d 0.1 --root "$V2/cg" --proc "$V2/proc"
check_line $B 24 "end of the recorded series" "frame stats: the series plays to its end"
lit $B q
wait_for $B '^EXIT=0$' || fail "frame stats: q did not end memcgtop"
f=$(cat "$tmp/frames" 2>/dev/null)
if [[ $f =~ ^frames\ $n\ median_us\ ([0-9]+)\ p90_us\ ([0-9]+)\ max_us\ ([0-9]+)$ ]] &&
	[ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] &&
	[ "${BASH_REMATCH[2]}" -le "${BASH_REMATCH[3]}" ] && [ "${BASH_REMATCH[3]}" -gt 0 ]; then
	pass "frame stats: one line, $n frames for $n samples, median <= p90 <= max"
else
	fail "frame stats: file holds '$f' (wanted frames $n median_us M p90_us P max_us X)"
fi
tm kill-session -t $B

echo "== stepping through a recording"
B=v2step
start $B 120 24 "TERM=tmux-256color LANG=C.UTF-8" -d 60 --root "$V2/cg" --proc "$V2/proc"
up $B "step"
last=$(($(wc -l <"$V2/cg/timestamps") - 1))
lit $B '}'
check_has $B "^memcgtop $(clock "$V2" $last)  every 60\.0s \[paused\]  sample $((last + 1))/$((last + 1))  v2 " "}: the last sample, paused"
check_line $B 24 "sample $((last + 1)) of $((last + 1)) (paused; t T step, { } first and last)" "}: the status names the sample"
lit $B t
check_has $B "^memcgtop $(clock "$V2" $((last - 1)))  every 60\.0s \[paused\]  sample $last/$((last + 1))  " "t: one sample back"
# The rates shown are those between the sample and the one before it.
r=$(awk -v a="$(statkey "$V2/cg/$((last - 2))/fixture/work/reclaim" pgscan)" \
	-v b="$(statkey "$V2/cg/$((last - 1))/fixture/work/reclaim" pgscan)" \
	-v t0="$(mono "$V2" $((last - 2)))" -v t1="$(mono "$V2" $((last - 1)))" \
	'BEGIN { print (b - a) / (t1 - t0) }')
check_has $B " $(human_rate "$r") +[^ ]+         reclaim$" "t: reclaim's SCAN/s is $(human_rate "$r"), from samples $((last - 1)) and $last"
lit $B '{'
check_has $B "^memcgtop $(clock "$V2" 0)  every 60\.0s \[paused\]  sample 1/$((last + 1))  " "{: the first sample"
check_line $B 24 "sample 1 of $((last + 1)) (paused; no rates: none before it; t T step, { } first and last)" "{: the status says the first sample has no rates"
check_has $B "^ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +- +- +reclaim$" "{: reclaim's SCAN/s and STEAL/s are - (no sample before the first)"
lit $B t
check_has $B "^memcgtop $(clock "$V2" 0)  every 60\.0s \[paused\]  sample 1/$((last + 1))  " "t: at the first sample it stays"
lit $B T
check_has $B "^memcgtop $(clock "$V2" 1)  every 60\.0s \[paused\]  sample 2/$((last + 1))  " "T: one sample forward, the first with rates"
# A set with new columns while paused: the sample and the one before are
# read again with them, so their rates show (not -), the sample stays.
keys $B Tab Tab
check_has $B " [0-9.]+[kM]? +[0-9.]+[kM]? +reclaim$" "paused, Tab to LRU: reclaim's RFA/s and RFF/s are rates, not -"
check_has $B "^memcgtop $(clock "$V2" 1)  every 60\.0s \[paused\]  sample 2/$((last + 1))  " "paused, Tab to LRU: still sample 2"
tm kill-session -t $B

echo "== panes, search, status line and help"
P=panes
start $P 80 24 "TERM=tmux-256color LANG=C.UTF-8" -d 60 --root "$V2/cg" --proc "$V2/proc"
up $P "panes"
# Search opens folds: after * only / and fixture are shown.
lit $P '*'
check_line $P 3 "Columns: overview  Sort: usage desc  Groups: 2 shown of 11" "search in folds: * folds every group"
lit $P /
lit $P leaf
check_selected $P leaf "search in folds: /leaf finds the folded leaf and selects it"
check_line $P 24 "Search: leaf" "search in folds: no 'no match' while a group matches"
keys $P Enter
# Only the path to leaf opened: fixture, work and deep; bulk and the
# others stay folded (they have no children, so no glyph shows it).
check_lines $P 5 "$ALL_ROWS" "search in folds: fixture, work and deep unfolded, every row shown" end
lit $P N
check_selected $P leaf "search in folds: N comes round to leaf again (the only match)"
# Messages go at the next key, and by themselves after a few seconds.
lit $P /
lit $P zzz
check_line $P 24 "Search: zzz" "status: a search with no match"
keys $P Enter
lit $P n
check_line $P 24 "no match for 'zzz'" "status: n with no match says so"
keys $P Down
check_line $P 24 "$HINT" "status: the next key (Down) takes the message away; the hints are back"
lit $P n
check_line $P 24 "no match for 'zzz'" "status: n again says no match"
if wait_line $P 24 "$HINT" && wait_for $P "^$(sed 's/[].()[*^$\\]/\\&/g' <<<"$HINT")\$" 15; then
	pass "status: the message goes by itself (no key) within 15 s"
else
	fail "status: 'no match for 'zzz'' still on the status line after 15 s without a key"
fi
lit $P n
check_line $P 24 "no match for 'zzz'" "status: n says no match once more"
lit $P h
check_line $P 1 "memcgtop keys (Up/Down scroll, any other key returns)" "status: h opens the help"
check_line $P 24 "" "status: the help screen does not carry the tree's message"
# Help: the colour legend, and the scroll ends at its last line.
HELP_ALL=$("$MEMCGTOP" --list-keys | sed 's/^/ /')
LEGEND=' 
 Colours
 near_limit       USAGE, USE%: 90% or more of the effective limit
 excess           EXCESS where a soft limit (v1) or memory.low (v2) is set
 reclaim          pages scanned or stolen per second: reclaim now
 oom              the name: an OOM kill not yet seen (o, O); KILL/s
 tagged           the name and *: tagged with Space'
HELP_ALL+=$'\n'$LEGEND
for _ in $(seq 60); do lit $P j; done
check_lines $P 3 "$(printf '%s\n' "$HELP_ALL" | tail -n 21 | sed 's/ *$//')" "help: 60 x j stops with the last legend line on the last row (no blank space)" end
check_line $P 1 "memcgtop keys (Up/Down scroll, any other key returns)" "help: the title stays"
# The names of the legend are drawn in their theme colours (default theme).
colour_no() { case $1 in black) echo 0;; red) echo 1;; green) echo 2;; yellow) echo 3;; blue) echo 4;; magenta) echo 5;; cyan) echo 6;; white) echo 7;; default) echo d;; esac; }
theme_style() { # ELEMENT: "fg bg bold" from themes/default.theme
	local l
	l=$(awk -v e="$1" '$1 == e && $2 == "=" { print $3, $4, ($5 == "bold") }' themes/default.theme)
	set -- $l
	echo "$(colour_no "$1") $(colour_no "$2") 0 $3"
}
styled=$(cap_e $P | sgr_lines)
SCREEN=$(cap $P)
for el in near_limit excess reclaim tagged; do
	n=$(grep -n "^ $el " <<<"$SCREEN" | cut -d: -f1)
	got=$(awk -v n="$n" '$1 == n { print $2, $3, $4, $5 }' <<<"$styled")
	if [ -n "$n" ] && [ "$got" = "$(theme_style $el)" ]; then
		pass "help: '$el' is drawn in its theme style ($got)"
	else
		fail "help: '$el' (line ${n:-none}) has style '$got', expected '$(theme_style $el)'"
	fi
done
lit $P k
check_line $P 23 " oom              the name: an OOM kill not yet seen (o, O); KILL/s" "help: one k after the end moves one line up"
lit $P x
check_lines $P 5 "$ALL_ROWS" "help: another key returns to the tree" end
# A filter shows the matches below a folded group: its glyph is ▾ then.
keys $P Home Down Down Down
check_selected $P work "filter glyph: work selected"
keys $P Left
check_lines $P 5 "$(rows / /fixture /fixture/bulk; v2_row /fixture/work ▸; rows /fixture/protected /fixture/idle /fixture/oom)" "filter glyph: work folded shows ▸" end
lit $P '\'
lit $P deep
keys $P Enter
check_lines $P 5 "$(rows / /fixture /fixture/work /fixture/work/deep /fixture/work/deep/leaf)" "filter glyph: with the filter on, the folded work shows ▾ above its listed children" end
lit $P q
check_has $P '^EXIT=0' "panes: q quits with status 0"
tm kill-session -t $P

# The detail pane of a v1 group: no limit is max; the title stays; the
# scroll ends at the last line.
P=v1pane
VW=$V1/cg/1/fixture/web
start $P 80 24 "TERM=xterm-256color LANG=C.UTF-8" -d 60 --root "$V1/cg" --proc "$V1/proc"
check_has $P "^memcgtop $(clock "$V1" 1)  " "v1 pane: the screen comes up"
keys $P Down Down
lit $P d
check_line $P 14 "Detail of /fixture/web  (J/K scroll, d closes)" "v1 pane: d opens the detail of /fixture/web"
# below the verdict: J until the memsw limit shows
for ((i = 0; i < 12; i++)); do
	grep -q '^memory\.memsw\.limit_in_bytes ' <<<"$(cap $P)" && break
	lit $P J
done
if [ "$(cat "$VW/memory.memsw.limit_in_bytes")" -ge 9223372036854771712 ]; then
	check_has $P "^memory\.memsw\.limit_in_bytes  max\$" "v1 pane: memsw limit $(cat "$VW/memory.memsw.limit_in_bytes") (no limit) shows as max"
	if grep -q 9223372036854771712 <<<"$SCREEN"; then fail "v1 pane: the raw no-limit number is shown"; else pass "v1 pane: the raw no-limit number is not shown"; fi
else
	fail "v1 pane: fixture $VW/memory.memsw.limit_in_bytes is not v1's no limit"
fi
for _ in $(seq 300); do lit $P J; done
# The last file of a v1 detail is memory.numa_stat: its lines end the pane
# (9 rows below the title: the name and 8 lines).
check_lines $P 14 "Detail of /fixture/web  (J/K scroll, d closes)
memory.numa_stat
$(sed 's/^/  /' "$VW/memory.numa_stat")" "v1 pane: 300 x J: the title stays, the last line is on the pane's last row" 
lit $P K
# The per-node table comes before it: its last row is node 0's.
check_lines $P 14 "Detail of /fixture/web  (J/K scroll, d closes)" "v1 pane: one K after the end: the title stays"
# Node 0's row: the group's own lists, then the hierarchical ones, in
# pages of the host's size.
n0=$(printf '  %-6s' N0
for k in anon file unevictable hierarchical_anon hierarchical_file hierarchical_unevictable; do
	p=$(sed -n "s/^$k=[0-9]* N0=\([0-9]*\).*/\1/p" "$VW/memory.numa_stat")
	printf ' %7s' "$(human $((p * $(getconf PAGESIZE))))"
done)
check_line $P 15 "$n0" "v1 pane: one K after the end shows the per-node table's row of node 0"
check_lines $P 16 "memory.numa_stat
$(sed 's/^/  /' "$VW/memory.numa_stat" | head -n 7)" "v1 pane: one K after the end moves one line up"
lit $P q
check_has $P '^EXIT=0' "v1 pane: q quits with status 0"
tm kill-session -t $P

echo "== v1 recorded series"
C=v1main
T1=$(clock "$V1" 1)
start $C 80 24 "TERM=screen-256color LANG=C.UTF-8" -d 30 --root "$V1/cg" --proc "$V1/proc"
check_has $C "^memcgtop $T1  " "v1: the screen comes up and shows sample 1 ($T1)"
l1=$(sed -n 1p <<<"$SCREEN")
if [[ $l1 == "memcgtop $T1  "* && $l1 == *"v1 files $V1/cg"* && $l1 == *"every 30.0s"* ]]; then
	pass "v1 80x24: header line 1 shows time $T1, mode v1, collector files and root, every 30.0s"
else
	fail "v1 80x24: header line 1 lacks 'memcgtop $T1', 'v1 files $V1/cg' or 'every 30.0s'"
fi
check_line $C 4 '  ▼USAGE  LIMIT   SOFT EXCESS  USE%   SWAP  FAIL/s OOMKILL GROUP' "v1: column titles (SOFT in place of LOW; FAIL/s and OOMKILL, as v1 has no pgscan or pgsteal)"
# v1_row DIR K PATH [scan]: the v1 overview row of PATH in sample K of
# the series DIR: soft limit, excess = usage - soft, eff limit from the
# stat file, failcnt (and with "scan", total_pgscan) per second from
# samples K-1 and K, the OOM kills.
v1_row() {
	local dir=$1 k=$2 p=$3 d=$1/cg/$2$3 q=$1/cg/$(($2 - 1))$3 u l s x e pct sw ms dt fr sc='' ok glyph='  '
	dt=$(awk -v a="$(mono "$dir" $((k - 1)))" -v b="$(mono "$dir" "$k")" 'BEGIN { printf "%.9f", b - a }')
	fr=$(awk -v a="$(readv "$q/memory.failcnt")" -v b="$(readv "$d/memory.failcnt")" -v t="$dt" 'BEGIN { print (b - a) / t }')
	[ "${4:-}" = scan ] && sc=$(printf ' %7s' "$(human_rate "$(rate total_pgscan "$q" "$d" "$dt")")")
	u=$(readv "$d/memory.usage_in_bytes")
	l=$(readv "$d/memory.limit_in_bytes"); [ "$l" -ge 9223372036854771712 ] && l=max
	s=$(readv "$d/memory.soft_limit_in_bytes"); [ "$s" -ge 9223372036854771712 ] && s=max
	if [ "$s" = max ]; then x=0; else x=$(( u > s ? u - s : 0 )); fi
	e=$(statkey "$d" hierarchical_memory_limit)
	if [ "$e" -ge 9223372036854771712 ]; then pct=-; else
		pct=$(awk -v u="$u" -v e="$e" 'BEGIN { printf "%.1f", 100 * u / e }'); fi
	ms=$(readv "$d/memory.memsw.usage_in_bytes")
	sw=$(( ms > u ? ms - u : 0 ))
	ok=$(awk '$1 == "oom_kill" { print $2; exit }' "$d/memory.oom_control")
	[ -n "$(find "$d" -mindepth 1 -maxdepth 1 -type d ! -name 'memory.*' -print -quit)" ] && glyph='▾ '
	printf '  %6s %6s %6s %6s %5s %6s%s %7s %7s %*s%s%s\n' "$(human "$u")" "$(human "$l")" \
		"$(human "$s")" "$(human "$x")" "$pct" "$(human "$sw")" "$sc" \
		"$(human_rate "$fr")" "$ok" $((2 * $(tr -cd / <<<"$p" | wc -c))) '' "$glyph" "${p##*/}"
}
for g in /fixture/web/frontend /fixture/web/backend /fixture/batch/hog /fixture/batch/cache; do
	want=$(v1_row "$V1" 1 $g)
	check_has $C "^$(sed 's/[].()[*^$]/\\&/g' <<<"$want")\$" "v1: row of $g"
done
V1_TITLES=(
'  ▼USAGE  LIMIT   SOFT EXCESS  USE%   SWAP  FAIL/s OOMKILL GROUP'
'  ▼USAGE   PEAK   WSET   SWAP MEM+SW   ANON   FILE GROUP'
'  ▼USAGE A-ANON I-ANON A-FILE I-FILE UNEVIC   RFA/s   RFF/s GROUP'
'   SCNK/s  SCND/s  STLK/s  STLD/s   EFF PRIO   RFA/s   RFF/s PFLOOR GROUP'
'  OOMKILL  KILL/s  FAILCNT  FAIL/s   HFAILS HFAIL/s GROUP'
'  ▼USAGE  LIMIT   SOFT EXCESS  STREE SRANK  SSCN/s  SSTL/s SWPNS GROUP'
'  GROUP'
)
for i in 1 2 3 4 5 6 0; do
	keys $C Tab
	check_line $C 4 "${V1_TITLES[$i]}" "v1 sets: Tab to ${SETS[$i]}: column titles"
done
lit $C R
check_line $C 3 "Columns: overview  Sort: failcnt_per_s desc  Groups: 11 shown of 11" "v1: R sorts by failcnt per second (v1 has no pgscan)"
check_line $C 4 '   USAGE  LIMIT   SOFT EXCESS  USE%   SWAP ▼FAIL/s OOMKILL GROUP' "v1: R marks FAIL/s"
lit $C q
check_has $C '^EXIT=0' "v1: q quits with status 0"
tm kill-session -t $C

# A v1 series the BPF pass recorded (info: collector bpf) carries the
# kernel's pgscan as memory.stat's total_pgscan: the overview shows SCAN/s,
# and R sorts by it, not by FAIL/s.  The copy of v1-live gets total_pgscan
# K * W in sample K, W per group in an order that is not failcnt's (only
# cache has limit hits, the rest tie and go by name).
echo "== v1 recorded with the BPF pass: R sorts by SCAN/s"
VB=$tmp/v1-bpf
cp -r "$V1" "$VB"
echo "collector bpf" >"$VB/cg/info"
declare -A SCANW=([/]=20000 [/fixture]=12000 [/fixture/web]=9000
	[/fixture/web/frontend]=5000 [/fixture/web/backend]=1000
	[/fixture/idle]=3000 [/fixture/batch]=2000 [/fixture/batch/hog]=1500
	[/fixture/batch/deep]=800 [/fixture/batch/deep/leaf]=700
	[/fixture/batch/cache]=100)
for k in 0 1 2 3 4; do
	for g in "${!SCANW[@]}"; do
		echo "total_pgscan $((k * SCANW[$g]))" >>"$VB/cg/$k$g/memory.stat"
	done
done
declare -A VSCAN=() VFAIL=()
DEPTH=()
while IFS=$'\t' read -r path dep; do
	DEPTH[$path]=$dep
	VSCAN[$path]=$(rate total_pgscan "$VB/cg/0$path" "$VB/cg/1$path" 1)
	VFAIL[$path]=$(( $(readv "$VB/cg/1$path/memory.failcnt") - $(readv "$VB/cg/0$path/memory.failcnt") ))
done < <(groups_of "$VB/cg/1")
by_scan=$(tree_order VSCAN desc | tr '\n' ' ')
by_fail=$(tree_order VFAIL desc | tr '\n' ' ')
if [ "$by_scan" != "$by_fail" ]; then
	pass "v1 bpf series: the tree's order by pgscan ($by_scan) is not its order by failcnt"
else
	fail "v1 bpf series: the two orders are the same ($by_scan): the test cannot tell them apart"
fi
# The rows below the root in pgscan's order, for each sample the screen
# may show (the root's usage is not its usage file's: left out).
declare -A VROWS=()
for k in 1 2 3 4; do
	VROWS[$k]=$(for p in $by_scan; do [ "$p" = / ] || v1_row "$VB" "$k" "$p" scan; done)
done
VBS=v1bpf
start $VBS 100 24 "TERM=screen-256color LANG=C.UTF-8" -d 30 --root "$VB/cg" --proc "$VB/proc"
check_has $VBS "^memcgtop $T1  .* v1 bpf $VB/cg" "v1 bpf series: the screen shows sample 1, read as the pass's"
check_line $VBS 4 '  ▼USAGE  LIMIT   SOFT EXCESS  USE%   SWAP  SCAN/s  FAIL/s OOMKILL GROUP' "v1 bpf series: the overview shows SCAN/s beside FAIL/s"
lit $VBS R
check_line $VBS 3 "Columns: overview  Sort: pgscan_per_s desc  Groups: 11 shown of 11" "v1 bpf series: R sorts by pgscan_per_s (the pass has pgscan)"
check_line $VBS 4 '   USAGE  LIMIT   SOFT EXCESS  USE%   SWAP ▼SCAN/s  FAIL/s OOMKILL GROUP' "v1 bpf series: R marks SCAN/s"
# Rows 6.. (below the root's) against the sample the header names.
for ((i = 0; i < 100; i++)); do
	SCREEN=$(cap $VBS)
	k=$(sed -n '1s|.*  sample \([0-9]*\)/5 .*|\1|p' <<<"$SCREEN")
	got=$(sed -n 6,15p <<<"$SCREEN")
	[ -n "$k" ] && [ "$got" = "${VROWS[$((k - 1))]:-}" ] &&
		[ -z "$(sed -n 16p <<<"$SCREEN")" ] && break
	sleep 0.05
done
if [ -n "$k" ] && [ "$got" = "${VROWS[$((k - 1))]:-}" ]; then
	pass "v1 bpf series: R's row order is by pages scanned per second (sample $((k - 1)))"
else
	fail "v1 bpf series: R's row order is not by pages scanned per second; expected for sample $((k - 1)):"
	printf '%s\n' "${VROWS[$((k - 1))]:-}" | sed 's/^/    >/'
fi
lit $VBS q
check_has $VBS '^EXIT=0' "v1 bpf series: q quits with status 0"
tm kill-session -t $VBS

echo "== resize"
D=resize
start $D 80 24 "TERM=xterm-256color LANG=C.UTF-8" -d 30 --root "$V2/cg" --proc "$V2/proc"
up $D "resize"
tm resize-window -t $D -x 40 -y 12
check_line $D 1 "$(clip 40 <<<"memcgtop $T0  every 30.0s  sample 2/5  v2 $V2/cg")" "resize 40x12: header cut at 40 columns"
# At 40 columns the columns that do not fit are left out, not the names:
# USAGE, LIMIT and LOW (the tag and 3 x 7 columns), then GROUP.
cols40() { local l; while IFS= read -r l; do printf '%s%s\n' "${l:0:22}" "${l:58}"; done; }
check_line $D 4 "$(cols40 <<<"$TITLES_V2")" "resize 40x12: titles USAGE LIMIT LOW GROUP"
check_lines $D 5 "$(printf '%s\n' "$ALL_ROWS" | head -7 | cols40)" "resize 40x12: 7 tree rows fit, each with its name"
check_line $D 12 "$(clip 40 <<<"$HINT")" "resize 40x12: status line on the last line"
tm resize-window -t $D -x 20 -y 5
check_lines $D 1 "terminal too narrow
(need 24 columns)" "resize 20x5: terminal too narrow (need 24 columns), no broken table" end
tm resize-window -t $D -x 24 -y 5
check_line $D 4 "  ▼USAGE GROUP" "resize 24x5: the table from 24 columns: USAGE and GROUP"
tm resize-window -t $D -x 23 -y 5
check_lines $D 1 "terminal too narrow
(need 24 columns)" "resize 23x5: terminal too narrow below 24 columns" end
tm resize-window -t $D -x 30 -y 4
check_line $D 1 "terminal too small (30x4)" "resize 30x4: terminal too small (30x4)"
tm resize-window -t $D -x 80 -y 24
check_line $D 4 "$TITLES_V2" "resize back to 80x24: column titles"
check_lines $D 5 "$ALL_ROWS" "resize back to 80x24: every row" end
check_line $D 24 "$HINT" "resize back to 80x24: status line"
if ! grep -q '^EXIT=' <<<"$(cap $D)"; then pass "resize: memcgtop still runs"; else fail "resize: memcgtop exited"; fi
lit $D q
check_has $D '^EXIT=0' "resize: q quits with status 0"
tm kill-session -t $D

echo "== table layout: deep tree, narrow terminal, column scroll, GROUP"
# A 13-level chain /level01/.../level13 and, beside level13, a long name;
# every group has the files of edge-v2's leaf /app/worker.
DEEP=$tmp/deep
mkdir -p "$DEEP/cg"
cp tests/fixtures/edge-v2/cg/0/* "$DEEP/cg/" 2>/dev/null
cp -r tests/fixtures/edge-v2/proc/0 "$DEEP/proc"
LONG=a-rather-long-name-of-a-service.scope
p=$DEEP/cg
for i in 01 02 03 04 05 06 07 08 09 10 11 12 13; do
	p=$p/level$i
	mkdir "$p"
	cp tests/fixtures/edge-v2/cg/0/app/worker/* "$p/"
done
mkdir "${p%/*}/$LONG"
cp tests/fixtures/edge-v2/cg/0/app/worker/* "${p%/*}/$LONG/"
# name_cell W DEPTH GLYPH NAME: the group cell of W columns as the man page
# says: indent, glyph, name; else a shorter indent and "…/" before the
# name; else the glyph and "…" with the end of the name.
name_cell() {
	local w=$1 ind=$((2 * $2)) g=$3 n=$4
	if ((ind + 2 + ${#n} <= w)); then
		printf '%*s%s%s\n' "$ind" '' "$g" "$n"
	elif ((ind > 0 && 4 + ${#n} <= w)); then
		printf '%*s%s…/%s\n' $((w - 4 - ${#n})) '' "$g" "$n"
	else
		printf '%s…%s\n' "$g" "${n: -$((w - 3))}"
	fi
}
# deep_names W: the group cells of the deep tree's rows, in screen order.
deep_names() {
	local i
	name_cell "$1" 0 '▾ ' /
	for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
		name_cell "$1" $((10#$i)) '▾ ' level$i
	done
	name_cell "$1" 13 '  ' "$LONG"
	name_cell "$1" 13 '  ' level13
}
# names_from NAME COL: lines 5..19 of the screen from character COL on.
names_from() {
	local l
	SCREEN=$(cap "$1")
	sed -n 5,19p <<<"$SCREEN" | while IFS= read -r l; do printf '%s\n' "${l:$2}"; done
}
check_names() { # NAME COL W DESC
	local got want i
	want=$(deep_names "$3" | sed 's/^/ /')
	for ((i = 0; i < 60; i++)); do
		got=$(names_from "$1" "$2")
		[ "$got" = "$want" ] && break
		sleep 0.05
	done
	if [ "$got" = "$want" ]; then
		pass "$4"
	else
		fail "$4: the group cells from column $2 are not:"
		printf '%s\n' "$want" | sed 's/^/    >/'
	fi
}
L=layout
start $L 80 24 "TERM=tmux-256color LANG=C.UTF-8" -d 60 --root "$DEEP/cg" --proc "$DEEP/proc"
check_line $L 3 "Columns: overview  Sort: usage desc  Groups: 15 shown of 15" "deep 80x24: 15 groups, 13 levels"
check_line $L 4 "$TITLES_V2" "deep 80x24: titles"
check_names $L 58 21 "deep 80x24: every row ends with its name; levels 7-13 as …/NAME, the long name as …of-a-service.scope"
tm resize-window -t $L -x 40 -y 20
check_line $L 4 "$(cols40 <<<"$TITLES_V2")" "deep 40x20: titles USAGE LIMIT LOW GROUP"
check_names $L 22 17 "deep 40x20: every row ends with its name (…/ from level 5)"
lit $L q
check_has $L '^EXIT=0' "deep: q quits with status 0"
tm kill-session -t $L

# ] and [ scroll by whole columns; ] stops when the last one is in view.
L=hscroll
start $L 40 20 "TERM=tmux-256color LANG=C.UTF-8" -d 60 --root "$V2/cg" --proc "$V2/proc"
up $L "hscroll"
for _ in 1 2 3 4 5 6 7 8 9 10; do lit $L ']'; done
# 5 columns scrolled off: SWAP, SCAN/s and STEAL/s (the last) with GROUP.
scrolled() { local l; while IFS= read -r l; do printf '%s%s%s\n' "${l:0:1}" "${l:35:23}" "${l:58}"; done; }
check_line $L 4 "$(scrolled <<<"$TITLES_V2")" "]: ten presses stop with STEAL/s, the last column, in view"
check_lines $L 5 "$(printf '%s\n' "$ALL_ROWS" | head -14 | scrolled)" "]: the rows show SWAP, SCAN/s, STEAL/s and every name" end
for _ in 1 2 3 4; do lit $L '['; done
check_line $L 4 '   LIMIT    LOW EXCESS GROUP' "[: four presses back: LIMIT LOW EXCESS"
lit $L '['; lit $L '['
check_line $L 4 "$(cols40 <<<"$TITLES_V2")" "[: back at the first column, and no further"
tm kill-session -t $L

# -c without path: the screen adds GROUP last, as text output does.
L=nopath
start $L 80 24 "TERM=tmux-256color LANG=C.UTF-8" -d 60 -c usage,limit --root "$V2/cg" --proc "$V2/proc"
up $L "-c usage,limit"
check_line $L 4 "  ▼USAGE  LIMIT GROUP" "-c usage,limit: the screen shows GROUP last"
check_lines $L 5 "$(printf '%s\n' "$ALL_ROWS" | while IFS= read -r l; do printf '%s%s\n' "${l:0:15}" "${l:58}"; done)" "-c usage,limit: every row has its name" end
# The setup screen adds path (last), then moves it before limit: the
# screen follows.
lit $L S
keys $L Space
lit $L -
keys $L Escape
mid() { # ROW: USAGE, the group cell padded to 15 columns, LIMIT
	local l=$1 n=${1:59}
	printf '%s %s%*s%s\n' "${l:0:8}" "$n" $((15 - ${#n})) '' "${l:8:7}"
}
check_line $L 4 "  ▼USAGE GROUP            LIMIT" "setup: path moved before limit: GROUP between USAGE and LIMIT"
check_lines $L 5 "$(printf '%s\n' "$ALL_ROWS" | while IFS= read -r l; do mid "$l"; done)" "setup: the rows follow, GROUP as wide as the widest name" end
lit $L '>'
check_line $L 4 "   USAGE ▲GROUP           LIMIT" "sort by path (ascending): the marker on GROUP, the cell as wide"
tm kill-session -t $L

# The screen derives every value, not only what its columns show (batch
# does): with USAGE, LOW and MIN (GROUP last), which no derived value
# needs, the detail pane of /fixture/work still gives its effective
# protection, a pass over the groups no column asked for.
L=derive
start $L 80 24 "TERM=tmux-256color LANG=C.UTF-8" -d 60 -c usage,low,min --root "$V2/cg" --proc "$V2/proc"
up $L "-c usage,low,min"
keys $L Home; keys $L Down Down Down
check_selected $L work "-c usage,low,min: work selected"
lit $L d
for ((i = 0; i < 12; i++)); do
	grep -qxF -- "$EPLINE" <<<"$(cap $L)" && break
	lit $L J
done
if grep -qxF -- "$EPLINE" <<<"$(cap $L)"; then
	pass "-c usage,low,min: the detail pane's effective protection (eff_low ${EP#* })"
else
	fail "-c usage,low,min: no '$EPLINE' in the detail pane after $i J"
fi
tm kill-session -t $L

# The sort marker touches its own title in ASCII without colour too.
L=marker
start $L 80 24 "TERM=xterm-256color LANG=C.UTF-8" --ascii --no-color -o limit -d 60 --root "$V2/cg" --proc "$V2/proc"
check_line $L 4 '   USAGE vLIMIT    LOW EXCESS  USE%   SWAP  SCAN/s STEAL/s GROUP' "--ascii --no-color -o limit: vLIMIT"
lit $L '<'
check_line $L 4 '  vUSAGE  LIMIT    LOW EXCESS  USE%   SWAP  SCAN/s STEAL/s GROUP' "--ascii --no-color: < moves the marker onto USAGE"
tm kill-session -t $L

echo "== signals"
ln -s "$top/tests/fixtures" "$tmp/fx"
for sig in TERM INT HUP; do
	E=sig$sig
	uniq=$tmp/fx/v2-live/proc
	start $E 80 24 "TERM=xterm-256color LANG=C.UTF-8" -d 30 --root "$V2/cg" --proc "$uniq"
	up $E "SIG$sig"
	# Only the program itself: its command line starts with the binary
	# (the wrapping shell's and tmux's hold the command too).
	pid=$(pgrep -f -- "^$MEMCGTOP .*--proc $uniq")
	if [ -z "$pid" ] || [ "$(wc -w <<<"$pid")" != 1 ]; then
		fail "SIG$sig: not exactly one memcgtop process found ('$pid')"
		tm kill-session -t $E
		continue
	fi
	kill -s "$sig" "$pid"
	signum=$(kill -l "$sig")
	check_has $E "^EXIT=$((128 + signum))\$" "SIG$sig: memcgtop dies of the signal (status $((128 + signum)))"
	check_has $E "$PROMPT_RE" "SIG$sig: the shell prompt returns"
	for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
	if kill -0 "$pid" 2>/dev/null; then fail "SIG$sig: process $pid is still there"; else pass "SIG$sig: the process is gone"; fi
	if [ "$(tm display -p -t $E '#{alternate_on} #{cursor_flag}')" = "0 1" ]; then
		pass "SIG$sig: alternate screen off, cursor visible"
	else
		fail "SIG$sig: terminal modes not restored"
	fi
	stty_sane $E "SIG$sig"
	tm kill-session -t $E
done

echo "== TERM values"
for term in xterm-256color screen-256color tmux-256color linux vt100; do
	F=term-${term//[^a-z0-9]/}
	lang=C.UTF-8
	[ $term = vt100 ] && lang=C
	start $F 80 24 "TERM=$term LANG=$lang" -d 30 --root "$V2/cg" --proc "$V2/proc"
	up $F "TERM=$term"
	if [ $term = vt100 ]; then
		check_line $F 4 "${TITLES_V2/▼/v}" "TERM=$term LANG=C: titles with the ASCII marker v"
		check_lines $F 5 "$(printf '%s\n' "$ALL_ROWS" | sed 's/▾/-/')" "TERM=$term LANG=C: rows with ASCII glyphs -"
		if cap_e $F | grep -qE $'\e\\[([0-9;]*;)?(3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]'; then
			SCREEN=$(cap_e $F | cat -v)
			fail "TERM=$term: colour sequences on a terminal without colour"
		else
			pass "TERM=$term: no colour sequences"
		fi
		check_selected $F / "TERM=$term: the selection is shown in reverse video" "d d 1"
	else
		check_line $F 4 "$TITLES_V2" "TERM=$term: column titles"
		check_lines $F 5 "$ALL_ROWS" "TERM=$term: every row"
	fi
	keys $F Down
	check_selected $F fixture "TERM=$term: Down moves the selection" "$([ $term = vt100 ] && echo 'd d 1' || echo '0 7 0')"
	lit $F q
	check_has $F '^EXIT=0' "TERM=$term: q quits with status 0"
	stty_sane $F "TERM=$term"
	tm kill-session -t $F
done
out=$(cd "$tmp" && script -qec "env TERM=dumb LANG=C.UTF-8 $(printf %q "$MEMCGTOP") --root $(printf %q "$top/$V2/cg"); echo EXIT=\$?" /dev/null | tr -d '\r')
want="memcgtop: terminal 'dumb' cannot position the cursor; use -b for batch output
EXIT=1"
SCREEN=$out
if [ "$out" = "$want" ]; then
	pass "TERM=dumb: exit 1 with the one-line error"
else
	fail "TERM=dumb: expected exactly: $want"
fi

echo "== --ascii, LANG=C, colours, themes"
G=ascii
start $G 80 24 "TERM=xterm-256color LANG=C.UTF-8" --ascii -d 30 --root "$V2/cg" --proc "$V2/proc"
check_line $G 4 "${TITLES_V2/▼/v}" "--ascii: sort marker v"
check_lines $G 5 "$(printf '%s\n' "$ALL_ROWS" | sed 's/▾/-/')" "--ascii: unfolded glyph -"
keys $G Down Down Down Left
check_has $G '^ .*  \+ work$' "--ascii: folded glyph +"
lit $G I
check_line $G 4 "${TITLES_V2/▼/^}" "--ascii: ascending marker ^"
lit $G q; check_has $G '^EXIT=0' "--ascii: q quits"
tm kill-session -t $G
G=langc
start $G 80 24 "TERM=xterm-256color LANG=C LC_ALL=C" -d 30 --root "$V2/cg" --proc "$V2/proc"
check_line $G 4 "${TITLES_V2/▼/v}" "LANG=C: ASCII sort marker v"
check_lines $G 5 "$(printf '%s\n' "$ALL_ROWS" | sed 's/▾/-/')" "LANG=C: ASCII glyphs"
lit $G q; check_has $G '^EXIT=0' "LANG=C: q quits"
tm kill-session -t $G

no_colour() { # NAME DESC
	local e
	e=$(cap_e "$1")
	SCREEN=$(cat -v <<<"$e")
	if grep -qE $'\e\\[([0-9;]*;)?(3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]' <<<"$e"; then
		fail "$2: colour escape sequences on the screen"
	elif ! grep -qE $'\e\\[([0-9;]*;)?(1|7)[;m]' <<<"$e"; then
		fail "$2: no attributes (bold/reverse) on the screen"
	else
		pass "$2: attributes only, no colour sequences"
	fi
}
for how in --no-color NO_COLOR; do
	G=nocolor-${how#--}
	if [ $how = NO_COLOR ]; then
		start $G 80 24 "TERM=xterm-256color LANG=C.UTF-8 NO_COLOR=1" -d 30 --root "$V2/cg" --proc "$V2/proc"
	else
		start $G 80 24 "TERM=xterm-256color LANG=C.UTF-8" --no-color -d 30 --root "$V2/cg" --proc "$V2/proc"
	fi
	check_line $G 4 "$TITLES_V2" "$how: the screen comes up"
	no_colour $G "$how"
	check_selected $G / "$how: the selection is in reverse video" "d d 1"
	lit $G q; check_has $G '^EXIT=0' "$how: q quits"
	tm kill-session -t $G
done
G=nocolor-empty
start $G 80 24 "TERM=xterm-256color LANG=C.UTF-8 NO_COLOR=" -d 30 --root "$V2/cg" --proc "$V2/proc"
check_line $G 4 "$TITLES_V2" "NO_COLOR empty: the screen comes up"
if cap_e $G | grep -qE $'\e\\[([0-9;]*;)?(3[0-7]|4[0-7])[;m]'; then
	pass "NO_COLOR empty: colours stay on"
else
	fail "NO_COLOR empty: no colours (an empty NO_COLOR must not turn them off)"
fi
tm kill-session -t $G

for th in default light mono high-contrast; do
	G=theme-$th
	start $G 80 24 "TERM=xterm-256color LANG=C.UTF-8" -t $th -d 30 --root "$V2/cg" --proc "$V2/proc"
	check_line $G 4 "$TITLES_V2" "-t $th: starts and draws the titles"
	check_lines $G 5 "$ALL_ROWS" "-t $th: draws every row"
	[ $th = mono ] && no_colour $G "-t mono"
	lit $G q; check_has $G '^EXIT=0' "-t $th: q quits"
	tm kill-session -t $G
done

# Malformed theme files: exit 2, one line "memcgtop: -t: FILE: line N: ...".
mkdir -p "$tmp/th"
bad_theme() { # CONTENT LINE-REGEX DESC
	local f=$tmp/th/bad.theme out rc
	printf '%s' "$1" >"$f"
	out=$(cd "$tmp" && script -qec "$(printf %q "$MEMCGTOP") -t $(printf %q "$f") --root $(printf %q "$top/$V2/cg") 2>&1; echo EXIT=\$?" /dev/null | tr -d '\r')
	SCREEN=$out
	if [ "$(wc -l <<<"$out")" = 2 ] && [ "$(tail -n1 <<<"$out")" = EXIT=2 ] &&
	   grep -qE -- "^memcgtop: -t: $f: $2\$" <<<"$(head -n1 <<<"$out")"; then
		pass "$3"
	else
		fail "$3: expected exit 2 and one line 'memcgtop: -t: $f: $2'"
	fi
}
bad_theme $'# my theme\nheader = cyan default bold\nrow = purple default\n' \
	"line 3, column 7: unknown colour( \(.*\))?" "bad theme: unknown colour names line 3 and its column"
bad_theme $'header = cyan default bold\n\n\nrow = default default blink\n' \
	"line 4, column 23: unknown attribute( \(.*\))?" "bad theme: unknown attribute names line 4 and its column"
bad_theme $'rows = default default\n' \
	"line 1, column 1: unknown element( \(.*\))?" "bad theme: unknown element names line 1 and its column"
bad_theme $'# c\nheader = 256 default\n' \
	"line 2, column 10: colour number out of range \(0-255\)" "bad theme: colour 256 is out of range"
bad_theme $'header cyan default\n' \
	"line 1: missing '=' after 'header'.*" "bad theme: missing ="
out=$(cd "$tmp" && "$MEMCGTOP" -b -t "$tmp/th/bad.theme" --root "$top/$V2/cg" 2>&1 >/dev/null; echo "EXIT=$?")
SCREEN=$out
if [ "$(tail -n1 <<<"$out")" = EXIT=2 ] && grep -q "^memcgtop: -t: $tmp/th/bad.theme: line 1" <<<"$out"; then
	pass "bad theme: a usage error in batch mode too"
else
	fail "bad theme: batch mode should exit 2 with the error"
fi

echo "== live cgroup v1"
CGM=/sys/fs/cgroup/memory
live_reason=''
if [ "$(id -u)" != 0 ]; then
	live_reason="not root"
elif ! grep -qE "^[^ ]+ $CGM cgroup [^ ]*\brw\b[^ ]*memory" /proc/mounts &&
     ! awk -v m="$CGM" '$2 == m && $3 == "cgroup" && $4 ~ /(^|,)rw(,|$)/ && $4 ~ /memory/ { f = 1 } END { exit !f }' /proc/mounts; then
	live_reason="$CGM is not a writable cgroup v1 memory mount"
fi
if [ -n "$live_reason" ]; then
	SCREEN=''
	if [ "${CI:-}" = true ]; then
		fail "live v1: $live_reason (CI=true: not skipping)"
	else
		echo "SKIP: live v1: $live_reason"
	fi
else
	name=memcgtop-tui-$$-$RANDOM
	LIVE_CG=$CGM/$name
	if mkdir "$LIVE_CG"; then
		sleep 300 &
		LIVE_PID=$!
		echo "$LIVE_PID" >"$LIVE_CG/cgroup.procs"
		H=live
		start $H 100 24 "TERM=xterm-256color LANG=C.UTF-8" -d 1 "/$name"
		check_has $H "^ .* /$name\$" "live v1: the group /$name is shown"
		lit $H p
		check_has $H "^Processes of /$name: 1  \(by RSS; J/K scroll, p closes\)\$" "live v1: p opens the process pane of /$name with 1 process"
		rss=$(awk '$1 == "VmRSS:" { print $2 * 1024 }' "/proc/$LIVE_PID/status")
		user=$(id -un)
		check_has $H "^ *$LIVE_PID $user +[0-9.]+[KMG]? +0 sleep( 300)?\$" "live v1: the row shows pid $LIVE_PID, $user and the command sleep"
		want=$(printf '%8d %-12.12s %8s %8s' "$LIVE_PID" "$user" "$(human "$rss")" 0)
		check_has $H "^$want sleep( 300)?\$" "live v1: RSS $(human "$rss") from /proc/$LIVE_PID/status"
		lit $H q
		check_has $H '^EXIT=0' "live v1: q quits with status 0"
		tm kill-session -t $H
		# A command line wider than the screen: its row is cut at
		# the edge (the table keeps its shape) and the whole line
		# follows the table.  sleep adds up its arguments.
		sleep 300 $(printf '0 %.0s' $(seq 35)) &
		LIVE_PID2=$!
		echo "$LIVE_PID2" >"$LIVE_CG/cgroup.procs"
		long="sleep 300$(printf ' 0%.0s' $(seq 35))"
		H=livelong
		start $H 100 24 "TERM=xterm-256color LANG=C.UTF-8" -d 1 "/$name"
		check_has $H "^ .* /$name\$" "live v1 long: the group /$name is shown"
		lit $H p
		check_has $H "^Processes of /$name: 2  \(by RSS; J/K scroll, p closes\)\$" "live v1 long: p lists 2 processes"
		rss=$(awk '$1 == "VmRSS:" { print $2 * 1024 }' "/proc/$LIVE_PID2/status")
		row=$(printf '%8d %-12.12s %8s %8s %s' "$LIVE_PID2" "$user" "$(human "$rss")" 0 "$long")
		# (capture-pane drops the blanks at a line's end)
		cut=${row:0:100}
		cut=${cut%"${cut##*[! ]}"}
		if wait_for $H "^$(sed 's/[].()[*^$\\]/\\&/g' <<<"$cut")\$"; then
			pass "live v1 long: the row of pid $LIVE_PID2 is cut at 100 columns"
		else
			fail "live v1 long: no row '$cut'"
		fi
		if grep -qxF -- "${row:100}" <<<"$SCREEN"; then
			fail "live v1 long: the rest of the row wrapped to column 0 ('${row:100}')"
		else
			pass "live v1 long: nothing of the row wrapped to column 0"
		fi
		full=$(printf '%8d %s' "$LIVE_PID2" "$long")
		if grep -A1 -x 'Command lines cut above' <<<"$SCREEN" | tail -n 1 | grep -qxF -- "$full"; then
			pass "live v1 long: below the table, 'Command lines cut above' and the whole command of $LIVE_PID2"
		else
			fail "live v1 long: no 'Command lines cut above' followed by '$full'"
		fi
		lit $H q
		check_has $H '^EXIT=0' "live v1 long: q quits with status 0"
		tm kill-session -t $H
	else
		SCREEN=''
		fail "live v1: cannot create $LIVE_CG"
		LIVE_CG=''
	fi
fi

SCREEN=''
echo "tui: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
