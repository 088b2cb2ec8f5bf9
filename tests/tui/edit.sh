#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# edit.sh - the interactive screen's edit dialog (e / F7, u, Space tags)
# against this host's live cgroup v1 memory controller, driven in tmux.
#
# Usage (as root):  tests/tui/edit.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# Builds a uniquely named tree /sys/fs/cgroup/memory/memcgtop-edit-$$-$RANDOM
# with idle1, idle2, idle3 (empty) and load (memload anon 64: 64 MiB of
# anonymous memory that cannot be reclaimed without swap), starts
# "memcgtop --audit-log FILE --follow 0 -d 60 /TREE" at 100x30 in a
# private tmux server (its socket in the temporary folder; no follow-up of
# the changes but the no-syslog session's, whose result says it follows
# the default 5 s: tests/tui/preview.sh checks the reports), selects
# groups by search (/name Enter) and checks, after every step, the screen lines (the man
# page's EDITING formats and the dialog's texts) and the kernel's files:
#
#   pick     a box from line 1, the full width of the screen:
#            ┌ Edit PATH  (Up/Down choose, Enter edits, Esc cancels) ──┐
#            │ KNOB FILE VALUE HELP-OR-REASON                           │
#                                                 (one row per v1 knob)
#            ├──────────────────────────────────────────────────────────┤
#            │ KNOB of PATH (now X): TYPED       (the prompt, typing)   │
#            │ MESSAGE                (the edit's messages, wrapped)    │
#            └──────────────────────────────────────────────────────────┘
#   status   Enter asks to confirm; Enter on an empty line keeps the
#            value; Esc cancels                   (while typing)
#   confirm  Change KNOB (FILE)[: undo]
#              PATH: OLD -> NEW                   (sizes: HUMAN [BYTES])
#                  WARNING                        (limit above usage,
#                                                  memsw below limit)
#            Apply to 1 group? y applies, any other key cancels
#            (Apply to these N groups? ... with tags)
#   result   Changed KNOB (FILE)
#              PATH: done, the kernel holds NOW
#              PATH: refused: STRERROR: MEANING
#            N done, M refused; any key returns[ (u undoes)]
#
# Steps: an empty Enter (the box stays, says nothing changed; the file is
# not written), soft=32M, u (undo), a malformed limit (12abc), sizes that
# are no whole number of bytes (0.1, 0.0000001K) and -1x on max (said as
# --set says them, in the box under the prompt), then 100M, an empty Enter
# on that limit (kept), the prompt at 80x24, at 80x7 and 80x5 (the list cut,
# the prompt kept), at 30x6 (the wrapped prompt's last lines) and back,
# resized while typing,
# swappiness (n cancels, then 30), limit=16M below what load can reclaim to
# (EBUSY: the warning, the refusal, the old limit kept; also at 200 columns;
# u there undoes nothing), memsw=64M below the limit (the warning; n),
# three tagged groups (12abc: one error, wrapped in the box at 80 columns; then
# limit=48M and its undo), --readonly, nobody (no permission), with no
# syslog and no --audit-log the confirm dialog's notice, y waiting while
# flock(1) holds the group's directory, and the --audit-log file (mode
# 0600, one line per attempted write, in the AUDIT format).
#
# A dialog line longer than the screen must still be readable: the check
# compares the whitespace-normalised text of the screen with the expected
# lines, so a wrapped line passes and a line cut at the screen's edge fails.
# The knob table of the pick screen is a table: its rows are compared as cut
# at the screen width.
#
# Each check prints "PASS: ..." or "FAIL: ..." (a failure shows the screen);
# the last line is "tui-edit: N passed, M failed"; exit 1 on any failure.
# Without root, a writable v1 memory mount, tmux, gcc or setpriv:
# "SKIP: tui edit: REASON", exit 77 (CI=true: FAIL, exit 1).  The tmux
# server, the load, the groups and the temporary folder are removed on
# exit, also on failure or interrupt; only the pids the test started are
# killed.
set -u
LC_ALL=C.UTF-8
export -n LC_ALL
export TZ=UTC
unset TMUX TMUX_PANE

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
CGM=/sys/fs/cgroup/memory
W=100 H=30
t_start=$(date +%s.%N)

NAME="tui edit"
. "$here/../live/lib.sh"
# A failure shows the screen it was judged on.
SCREEN=''
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
	if [ -n "$SCREEN" ]; then
		echo "  screen:"
		printf '%s\n' "$SCREEN" | sed 's/^/    |/'
	fi
}
summary() {
	SCREEN=''
	echo "$TAG: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
v1_host_ready
for tool in tmux gcc setpriv; do
	command -v "$tool" >/dev/null 2>&1 || cannot_run "$tool not installed"
done
id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null 2>&1 ||
	cannot_run "no user nobody / group nogroup"

# ---- state and cleanup ------------------------------------------------------
TNAME=memcgtop-edit-$$-$RANDOM
TROOT=$CGM/$TNAME
T=/$TNAME
TMPD=
pids=()

. "$top/tests/lib/tmux.sh"

cleanup() { clean_up "$TROOT"; }
trap_cleanup

abort() {
	SCREEN=''
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

TMPD=$(mktemp -d /tmp/memcgtop-edit.XXXXXX) || abort "mktemp failed"
chmod 755 "$TMPD"
# the tmux server's socket lives in TMPD, removed with it
tmux_private -S "$TMPD/tmux.sock"
mkdir -p "$TMPD/config" "$TMPD/home"
chmod 755 "$TMPD/config" "$TMPD/home"

[ -x "$MEMCGTOP" ] || abort "memcgtop binary $MEMCGTOP not found (run make)"
gcc -O2 -static -o "$TMPD/memload" "$top/tests/load/memload.c" 2>"$TMPD/gcc.log" ||
	abort "cannot build memload: $(head -n 1 "$TMPD/gcc.log")"

UNL=$(cat "$CGM/memory.limit_in_bytes")    # the kernel's "unlimited"
HAS_MEMSW=0
[ -f "$CGM/memory.memsw.limit_in_bytes" ] && HAS_MEMSW=1

# ---- the tree and the load --------------------------------------------------
mkdir "$TROOT" "$TROOT/idle1" "$TROOT/idle2" "$TROOT/idle3" "$TROOT/load" ||
	abort "mkdir in $TROOT"
start_load "$TROOT/load" "$TMPD/memload"
pass "setup: $T/{idle1,idle2,idle3,load}, anon 64M resident in load (rss $rss)"

# ---- helpers -----------------------------------------------------------------
AUD=$TMPD/audit.log
audit_exp=()

# kval GROUP FILE: the file's value as memcgtop shows it ("max" for unlimited)
kval() {
	local v
	v=$(cat "$CGM$1/$2" 2>/dev/null) || { printf -- -; return; }
	[ "$v" = "$UNL" ] && v=max
	printf '%s' "$v"
}
# snapshot: every knob file of every test group, one "group file value" a line
snapshot() {
	local g k
	for g in "$T" "$T/idle1" "$T/idle2" "$T/idle3" "$T/load"; do
		for k in limit soft memsw swappiness; do
			echo "$g $(file_of $k) $(kval "$g" "$(file_of $k)")"
		done
	done
}
# check_file GROUP KNOB WANT DESC: the kernel file holds WANT (kval form)
check_file() {
	local f got
	f=$(file_of "$2")
	got=$(kval "$1" "$f")
	if [ "$got" = "$3" ]; then
		pass "$4: $1/$f holds $3"
	else
		SCREEN='' fail "$4: $1/$f holds $got, expected $3"
	fi
}
# audit GROUP KNOB OLD NEW RESULT NOW: one expected audit line
audit() {
	audit_exp+=("uid=0 group=$1 file=$(file_of "$2") old=$3 new=$4 result=$5 now=$6")
}

width() { tm display -p -t "$1" '#{window_width}'; }

# start NAME ENV-WORDS -- ARGS...: a W x H window running memcgtop ARGS
# (cwd /) with the environment ENV, then "EXIT=status"; the pane stays.
# PREFIX (a global array) is put before the binary (setpriv).
PREFIX=()
start() {
	local name=$1 envs=$2 cmd
	shift 2
	cmd="cd / || exit; env -u LC_ALL -u LC_CTYPE XDG_CONFIG_HOME=$TMPD/config HOME=$TMPD/home TERM=xterm-256color LANG=C.UTF-8 $envs $(printf '%q ' "${PREFIX[@]}" "$MEMCGTOP" "$@")"
	cmd+="; echo EXIT=\$?; exec cat"
	tm new-session -d -s "$name" -x "$W" -y "$H" "bash --norc --noprofile -c $(printf %q "$cmd")"
}

# status_of: the status line (line H) of SCREEN
# (capture-pane leaves out empty lines at the bottom: count from the top)
status_of() { sed -n "${H}p" <<<"$SCREEN"; }
# check_status NAME TEXT DESC [SECONDS]: the status line is exactly TEXT
# (capture-pane drops trailing blanks: so does the comparison)
check_status() {
	local i n=$(( ${4:-5} * 20 )) want=$2
	want=${want%"${want##*[! ]}"}
	for ((i = 0; i < n; i++)); do
		SCREEN=$(cap "$1")
		[ "$(status_of)" = "$want" ] && { pass "$3"; return 0; }
		sleep 0.05
	done
	fail "$3: the status line is not '$2'"
	return 1
}

# clip: each line cut to the screen width, trailing blanks dropped (as
# capture-pane shows a line that was cut at the edge)
clip() {
	local l w=$1
	while IFS= read -r l || [ -n "$l" ]; do
		l=${l:0:$w}
		printf '%s\n' "${l%"${l##*[! ]}"}"
	done
}
# body: the screen above the status line (line H), trailing empty lines
# dropped; without the confirmation's preview lines, whose figures
# tests/tui/preview.sh checks
body() {
	sed -n "1,$((H - 1))p" <<<"$SCREEN" |
		awk '/^      preview: / { skip = 1; next }
		     /^(Apply |No syslog|Nothing |  [^ ])/ { skip = 0 }
		     !skip' |
		sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}
norm() { tr '\n' ' ' | tr -s ' \t' '  ' | sed 's/^ //; s/ $//'; }

# check_dialog NAME EXPECTED-LINES DESC [SECONDS]: the dialog (the screen
# above the status line) shows exactly these lines.  A line wider than the
# screen may be wrapped, never cut: the whitespace-normalised texts must be
# equal.
check_dialog() {
	local name=$1 want=$2 desc=$3 i n=$(( ${4:-5} * 20 )) got w long=0 l
	w=$(width "$name")
	while IFS= read -r l; do
		[ ${#l} -gt "$w" ] && long=1
	done <<<"$want"
	for ((i = 0; i < n; i++)); do
		SCREEN=$(cap "$name")
		got=$(body)
		[ "$got" = "$want" ] && { pass "$desc"; return 0; }
		if [ "$long" = 1 ] && [ "$(norm <<<"$got")" = "$(norm <<<"$want")" ]; then
			pass "$desc (lines wider than $w columns wrapped)"
			return 0
		fi
		# the whole dialog is there, with its long lines cut: final
		[ "$long" = 1 ] && [ "$got" = "$(clip "$w" <<<"$want")" ] && break
		sleep 0.05
	done
	if [ "$long" = 1 ] && [ "$got" = "$(clip "$w" <<<"$want")" ]; then
		fail "$desc: every line is right but those wider than the $w-column screen are cut at its edge, not wrapped, so their ends cannot be read; the full lines:"
	else
		fail "$desc: expected:"
	fi
	printf '%s\n' "$want" | sed 's/^/    >/'
	return 1
}

# shown VALUE: a value as the dialog shows it: max and small numbers as
# they are, a size in human units with its exact bytes in brackets
shown() {
	local h
	h=$(human "$1" | tr -d ' ()')
	if [ -n "$h" ]; then printf '%s [%s]' "$h" "$1"; else printf '%s' "$1"; fi
}

# ---- the box ------------------------------------------------------------------
# The pick screen is a box from line 1 over the full width: line 1 its top
# border with the title, lines 2..NK+1 the knob rows (NK: 4 on v1), line
# NK+2 a rule, then the prompt line (while a value is typed), the message
# lines (at least one line under the rule), the bottom border.  Column 1
# and column W are the borders.
NK=4
HINT="Enter asks to confirm; Enter on an empty line keeps the value; Esc cancels"
# The box's lines (--ascii: - | +)
box_utf8() { BH=─ BV=│ BTL=┌ BTR=┐ BML=├ BMR=┤ BBL=└ BBR=┘; }
box_ascii() { BH=- BV='|' BTL=+ BTR=+ BML=+ BMR=+ BBL=+ BBR=+; }
box_utf8
# reps TEXT N: TEXT N times
reps() { local i r=; for ((i = 0; i < $2; i++)); do r+=$1; done; printf '%s' "$r"; }
# boxline W TEXT: a line inside the box, TEXT from column 3
boxline() { printf '%s %s%s %s' "$BV" "$2" "$(reps ' ' $(($1 - 4 - ${#2})))" "$BV"; }
# rule W LEFT RIGHT: a border line
rule() { printf '%s%s%s' "$2" "$(reps "$BH" $(($1 - 2)))" "$3"; }
# box_under W PROMPT MSG-LINES: the lines from the rule to the bottom border
box_under() {
	local w=$1 l
	rule "$w" "$BML" "$BMR"
	echo
	if [ -n "$2" ]; then boxline "$w" "$2"; echo; fi
	if [ -n "$3" ]; then
		while IFS= read -r l; do boxline "$w" "$l"; echo; done <<<"$3"
	elif [ -z "$2" ]; then
		boxline "$w" ""
		echo
	fi
	rule "$w" "$BBL" "$BBR"
}
# box_title W TEXT: the top border with the title (cut at W-4 columns)
box_title() {
	local t=${2:0:$(($1 - 4))}
	printf '%s %s %s%s' "$BTL" "$t" "$(reps "$BH" $(($1 - 4 - ${#t})))" "$BTR"
}
# box_ok NAME PROMPT MSG-LINES [STATUS] [NKNOBS] [H]: the screen (in
# SCREEN) is the box with NKNOBS knob rows (default NK), its rule, the
# PROMPT line (if any), the MSG-LINES, its bottom border, nothing under it,
# and the status line STATUS (default: HINT while a prompt is shown, else
# empty); while typing, the cursor is right after the typed text.  Sets
# WHY to what differs.
box_ok() {
	local name=$1 prompt=$2 msg=$3 st nk=${5:-$NK} h=${6:-$H} w i l want under n cur
	st=${4-}
	[ $# -lt 4 ] && { [ -n "$prompt" ] && st=$HINT || st=''; }
	w=$(width "$name")
	l=$(sed -n 1p <<<"$SCREEN")
	if [ "${l:0:7}" != "$BTL Edit " ] || [ "${l: -1}" != "$BTR" ] || [ ${#l} != "$w" ]; then
		WHY="line 1 is not the box's top border with the title, $w columns"
		return 1
	fi
	for ((i = 2; i <= nk + 1; i++)); do
		l=$(sed -n "${i}p" <<<"$SCREEN")
		if [ "${l:0:2}" != "$BV " ] || [ "${l: -2}" != " $BV" ] || [ ${#l} != "$w" ]; then
			WHY="line $i is not a knob row inside the box ($BV ... $BV, $w columns)"
			return 1
		fi
	done
	under=$(box_under "$w" "$prompt" "$msg")
	n=$(wc -l <<<"$under")
	if [ "$(sed -n "$((nk + 2)),$((nk + 1 + n))p" <<<"$SCREEN")" != "$under" ]; then
		WHY="lines $((nk + 2))..$((nk + 1 + n)) are not the rule, prompt '$prompt', message and bottom border"
		return 1
	fi
	if [ $((nk + 2 + n)) -le $((h - 1)) ] &&
		[ -n "$(sed -n "$((nk + 2 + n)),$((h - 1))p" <<<"$SCREEN" | tr -d ' \n')" ]; then
		WHY="something is drawn under the box"
		return 1
	fi
	want=${st%"${st##*[! ]}"}
	if [ "$(sed -n "${h}p" <<<"$SCREEN")" != "$want" ]; then
		WHY="the status line is not '$want'"
		return 1
	fi
	if [ -n "$prompt" ]; then
		cur=$(tm display -p -t "$name" '#{cursor_x},#{cursor_y}')
		if [ "$cur" != "$((2 + ${#prompt})),$((nk + 2))" ]; then
			WHY="the cursor is at $cur (x,y from 0), not $((2 + ${#prompt})),$((nk + 2)): after the typed text"
			return 1
		fi
	fi
	return 0
}
# check_box NAME PROMPT MSG-LINES DESC [STATUS]: waits for box_ok
check_box() {
	local name=$1 prompt=$2 msg=$3 desc=$4 i
	shift 4
	for ((i = 0; i < 100; i++)); do
		SCREEN=$(cap "$name")
		box_ok "$name" "$prompt" "$msg" "$@" && { pass "$desc"; return 0; }
		sleep 0.05
	done
	fail "$desc: $WHY"
	return 1
}
# check_prompt NAME PROMPT DESC: the box asks PROMPT, no message
check_prompt() { check_box "$1" "$2" "" "$3"; }

# pick_row KNOB VALUE [REASON]: the start of the knob's row in the pick
# screen, after the left border (" %-11s %-28s %-20s "); REASON: the text
# after it
pick_row() {
	printf ' %-11s %-28s %-20s %s' "$1" "$(file_of "$1")" "$2" "${3:-}"
}
# check_pick NAME GROUP HEADER-PATH REASON DESC: the pick screen: the box
# with the title and one row per v1 knob with the current value of GROUP
# and either the REASON (every knob disabled) or a help text (not a
# reason), cut at the box's inside like a table, and nothing under the
# list (no prompt, no message).
check_pick() {
	local name=$1 group=$2 hdr=$3 reason=$4 desc=$5 i w got want k v ok r l
	w=$(width "$name")
	for ((i = 0; i < 100; i++)); do
		SCREEN=$(cap "$name")
		got=$(body)
		ok=1
		want=$(box_title "$w" "$(printf 'Edit %s  (Up/Down choose, Enter edits, Esc cancels)' "$hdr")")
		[ "$(sed -n 1p <<<"$got")" = "$want" ] || ok=0
		r=2
		for k in limit soft memsw swappiness; do
			v=$(shown "$(kval "$group" "$(file_of $k)")")
			l=$(sed -n "${r}p" <<<"$got")
			if [ $k = memsw ] && [ "$HAS_MEMSW" = 0 ]; then
				want=$(pick_row $k - "this group has no such file (not this kernel, or swap accounting is off)")
				[ "$l" = "$BV$(printf '%-*s' $((w - 3)) "${want:0:$((w - 3))}") $BV" ] || ok=0
			elif [ -n "$reason" ]; then
				want=$(pick_row $k "$v" "$reason")
				[ "$l" = "$BV$(printf '%-*s' $((w - 3)) "${want:0:$((w - 3))}") $BV" ] || ok=0
			else
				want=$(pick_row $k "$v")
				# a help text, not one of the reasons a knob is disabled
				[[ $l == "$BV$want"?*" $BV" ]] || ok=0
				case ${l:$((1 + ${#want}))} in
				"no permission"* | "--readonly"* | "no such group"* | "this group has no such file"* | "the root group"*) ok=0 ;;
				esac
			fi
			r=$((r + 1))
		done
		[ "$(sed -n '6,$p' <<<"$got")" = "$(box_under "$w" "" "")" ] || ok=0
		[ "$ok" = 1 ] && { pass "$desc"; return 0; }
		sleep 0.05
	done
	fail "$desc: expected the box with the title 'Edit $hdr  (...)', rows limit, soft, memsw, swappiness with the values of $group$([ -n "$reason" ] && echo " and '$reason'"), and nothing under the rule"
	return 1
}

# search NAME TEXT: "/" TEXT Enter; then the tree is back
search() {
	keys "$1" /
	lit "$1" "$2"
	keys "$1" Enter
}
# tree NAME DESC: the tree is shown (not a dialog)
tree_shown() { wait_for "$1" '^  ▼USAGE  LIMIT   SOFT ' "${2:-5}"; }

# ---- the main session ----------------------------------------------------------
S=main
start $S "" --audit-log "$AUD" --follow 0 -d 60 "$T" ||
	abort "cannot start tmux"
check_has $S "^ .* ▾ $T\$" "start: memcgtop shows $T at ${W}x$H"
check_has $S '^ .*     load$' "start: the tree shows load"

# ---- an empty Enter keeps the value -------------------------------------------------
search $S /load
keys $S e
# The swappiness row says when the host has no swap (this one has none
# or some: /proc/meminfo decides what it must say).
if [ "$(awk '$1 == "SwapTotal:" { print $2 }' /proc/meminfo)" = 0 ]; then
	check_has $S '^│ swappiness .* the host has no swap' \
		"swappiness, no swap on the host: the knob's line says a new value changes nothing"
else
	check_has $S '^│ swappiness ' "swappiness: listed (the host has swap)"
fi
keys $S Down Enter
check_prompt $S "soft of $T/load (now max): " "empty Enter: the prompt for soft in the box, under the list (line $((NK + 3)), columns 3.., the cursor after it)"
keys $S Enter
check_box $S "" "nothing changed: soft stays as it is" "empty Enter: the box stays on the list and says nothing changed under it (no error)"
check_file "$T/load" soft max "empty Enter: soft stays max"
keys $S Escape
tree_shown $S && pass "Esc on the list after the empty Enter: the tree" ||
	fail "Esc on the list after the empty Enter: the tree is not shown"
check_status $S "edit cancelled" "Esc on the list: edit cancelled"

# ---- soft=32M on load --------------------------------------------------------------
keys $S e
check_pick $S "$T/load" "$T/load" "" "e on load: Edit $T/load lists limit, soft, memsw, swappiness with their values and help"
keys $S Down Enter
check_prompt $S "soft of $T/load (now max): " "Down Enter: the box asks for soft of $T/load (now max)"
lit $S 32M
keys $S Enter
check_dialog $S "Change soft (memory.soft_limit_in_bytes)
  $T/load: max -> 32.0M [33554432]
Apply to 1 group? y applies, any other key cancels" "soft=32M: the confirmation"
check_file "$T/load" soft max "soft=32M: nothing written before y"
keys $S y
check_dialog $S "Changed soft (memory.soft_limit_in_bytes)
  $T/load: done, the kernel holds 33554432
1 done, 0 refused; any key returns (u undoes)" "soft=32M: y: the result"
check_status $S "change soft: 1 done, 0 refused" "soft=32M: the status line sums it up"
check_file "$T/load" soft 33554432 "soft=32M"
audit "$T/load" soft max 33554432 ok 33554432

# ---- u undoes it ------------------------------------------------------------------
# The result screen says "(u undoes)": u there should bring the undo's
# confirmation.
undo_conf="Change soft (memory.soft_limit_in_bytes): undo
  $T/load: 32.0M [33554432] -> max
Apply to 1 group? y applies, any other key cancels"
keys $S u
if check_dialog $S "$undo_conf" "u on the result screen (it says 'u undoes'): the undo's confirmation" 3; then
	:
else
	# the documented key of the tree
	if tree_shown $S 1; then
		keys $S u
		check_dialog $S "$undo_conf" "u in the tree: the undo's confirmation"
	fi
fi
keys $S y
check_dialog $S "Changed soft (memory.soft_limit_in_bytes)
  $T/load: done, the kernel holds max
1 done, 0 refused; any key returns" "undo: y: the result (soft back to max; nothing more to undo)"
check_file "$T/load" soft max "undo"
audit "$T/load" soft 33554432 -1 ok max
keys $S x
tree_shown $S && pass "x on the result screen returns to the tree" ||
	fail "x on the result screen: the tree is not shown"
keys $S u
check_status $S "nothing to undo" "u after the undo: nothing to undo"

# ---- a malformed limit, then 100M ----------------------------------------------------
keys $S e
check_pick $S "$T/load" "$T/load" "" "e again: the pick screen (soft back to max)"
keys $S Enter
check_prompt $S "limit of $T/load (now max): " "Enter on limit: the prompt"
lit $S 12abc
keys $S Enter
# (wrapped at the box's inside, 96 columns at 100)
check_box $S "limit of $T/load (now max): 12abc" "limit: '12abc' is not a value for memory.limit_in_bytes; it takes a size (bytes, or a number
with K, M, G or T, e.g. 512M or 1.5G), max (also unlimited or -1), or a change +SIZE, -SIZE,
+N%, -N%" "12abc: the error in the box under the prompt, which keeps the text"
if ! grep -q '^Change limit' <<<"$(cap $S)"; then
	pass "12abc: no confirmation"
else
	fail "12abc: a confirmation for a malformed value"
fi
check_file "$T/load" limit max "12abc: nothing written"
keys $S BSpace BSpace BSpace BSpace BSpace
check_prompt $S "limit of $T/load (now max): " "12abc: the prompt is kept, the error gone with the next key; Backspace x5 empties the typed text"
# A size that is no whole number of bytes, and a change that is no value
# while the current one is max: refused at once, said (as --set says it)
# in the box under the prompt, which keeps the text; nothing written.
refused_value() { # TYPED MESSAGE-LINES
	local i
	lit $S "$1"
	keys $S Enter
	check_box $S "limit of $T/load (now max): $1" "$2" "$1: refused in the box under the prompt, the text kept: $(norm <<<"$2")"
	grep -q '^Change limit' <<<"$SCREEN" && fail "$1: a confirmation for a value refused" || pass "$1: no confirmation"
	check_file "$T/load" limit max "$1: nothing written"
	for ((i = 0; i < ${#1}; i++)); do keys $S BSpace; done
}
refused_value 0.1 "limit: '0.1' is not a whole number of bytes"
refused_value 0.0000001K "limit: '0.0000001K' is not a whole number of bytes"
refused_value -1x "limit: '-1x' is not a value for memory.limit_in_bytes; it takes a size (bytes, or a number with
K, M, G or T, e.g. 512M or 1.5G), max (also unlimited or -1), or a change +SIZE, -SIZE, +N%, -N%"
check_prompt $S "limit of $T/load (now max): " "the refused values erased: the prompt again"
lit $S 100M
keys $S Enter
check_dialog $S "Change limit (memory.limit_in_bytes)
  $T/load: max -> 100M [104857600]
Apply to 1 group? y applies, any other key cancels" "limit=100M: the confirmation (usage $(human "$(cat "$TROOT/load/memory.usage_in_bytes")" | tr -d ' ()') is below: no warning)"
if grep -qF "limit: '12abc'" <<<"$(status_of)"; then
	fail "limit=100M: the confirmation's status line still shows the error about 12abc, a value no longer typed"
else
	pass "limit=100M: the confirmation's status line holds no stale error about 12abc"
fi
keys $S y
check_dialog $S "Changed limit (memory.limit_in_bytes)
  $T/load: done, the kernel holds 104857600
1 done, 0 refused; any key returns (u undoes)" "limit=100M: y: the result"
check_file "$T/load" limit 104857600 "limit=100M"
audit "$T/load" limit max 104857600 ok 104857600
keys $S x
tree_shown $S || fail "limit=100M: x does not return to the tree"

# ---- the prompt at 80x24 and lower, resized while typing; an empty Enter keeps 100M ----
naud=$(wc -l <"$AUD")
keys $S e
check_pick $S "$T/load" "$T/load" "" "e: the pick screen shows limit 100M [104857600]"
keys $S Enter
p100="limit of $T/load (now 100M [104857600]): "
check_prompt $S "$p100" "Enter on limit: the prompt shows now 100M [104857600]"
lit $S 5
check_prompt $S "${p100}5" "5 typed: in the box after the prompt, the cursor after it"
tm resize-window -t $S -x 80 -y 24
check_box $S "${p100}5" "" "resized to 80x24 while typing: the box 80 columns wide, the prompt and 5 kept" "$HINT" $NK 24
tm resize-window -t $S -x 80 -y 7
check_box $S "${p100}5" "" "80x7: the list cut to 2 rows, the prompt kept" "$HINT" 2 7
l=$(sed -n 2p <<<"$SCREEN")
[ "${l:0:8}" = "│ limit " ] && pass "80x7: the rows shown start at the selected knob, limit" ||
	fail "80x7: line 2 is not limit's row: $l"
tm resize-window -t $S -x 80 -y 5
check_box $S "${p100}5" "" "80x5: no room for the list: the title, the rule, the prompt, the bottom border" "$HINT" 0 5
# 30x6: the prompt wraps at 26 columns into more lines than fit; its last
# two lines stay, the last with the typed 5 and the cursor after it. Where
# the wrap falls depends on the group's name: the expected lines come from
# the documented rule (break at the last space that fits, else after 26
# characters), so a name that leaves "5" alone on the last line is tested
# as such.
read -r w1 w2 < <(python3 - "${p100}5" <<'PY'
import sys
s, out = sys.argv[1], []
while s:
    if len(s) <= 26:
        out.append(s)
        break
    if s[26] == ' ':
        out.append(s[:26]); s = s[27:]; continue
    sp = s[:26].rfind(' ')
    if sp <= 0:
        out.append(s[:26]); s = s[26:]; continue
    out.append(s[:sp]); s = s[sp + 1:]
print(out[-2].replace(' ', '\x01'), out[-1].replace(' ', '\x01'))
PY
)
w1=${w1//$'\x01'/ } w2=${w2//$'\x01'/ }
tm resize-window -t $S -x 30 -y 6
ok=0
for ((i = 0; i < 100; i++)); do
	SCREEN=$(cap $S)
	cur=$(tm display -p -t $S '#{cursor_x},#{cursor_y}')
	if [ "$(sed -n 1p <<<"$SCREEN")" = "$(box_title 30 "Edit $T/load  (Up/Down choose, Enter edits, Esc cancels)")" ] &&
		[ "$(sed -n 2p <<<"$SCREEN")" = "$(rule 30 ├ ┤)" ] &&
		[ "$(sed -n 3p <<<"$SCREEN")" = "$(printf '│ %-26s │' "$w1")" ] &&
		[ "$(sed -n 4p <<<"$SCREEN")" = "$(printf '│ %-26s │' "$w2")" ] &&
		[ "$(sed -n 5p <<<"$SCREEN")" = "$(rule 30 └ ┘)" ] &&
		[ "$cur" = "$((${#w2} + 2)),3" ]; then
		ok=1
		break
	fi
	sleep 0.05
done
[ "$ok" = 1 ] && pass "30x6: the wrapped prompt's last two lines in the box ('$w1' / '$w2') and the cursor after the 5 ($cur)" ||
	fail "30x6: not the title, the rule, the prompt's last two lines ('$w1' / '$w2'), the cursor after the 5 (at $cur) and the bottom border"
tm resize-window -t $S -x $W -y $H
check_prompt $S "${p100}5" "back at ${W}x$H: the whole box, the prompt and 5 kept"
keys $S BSpace Enter
check_box $S "" "nothing changed: limit stays as it is" "empty Enter on limit 100M: the box says nothing changed"
check_file "$T/load" limit 104857600 "empty Enter on limit 100M: the file is not written"
[ "$(wc -l <"$AUD")" = "$naud" ] && pass "empty Enter: no audit line (no write attempted)" ||
	fail "empty Enter: an audit line was written"
keys $S Escape
tree_shown $S || fail "Esc after the empty Enter: the tree is not shown"

# ---- swappiness: n cancels, then 30 ---------------------------------------------------------
sw0=$(kval "$T/load" memory.swappiness)
keys $S e
check_pick $S "$T/load" "$T/load" "" "e: the pick screen shows limit 100M [104857600]"
keys $S Down Down Down Enter
check_prompt $S "swappiness of $T/load (now $sw0): " "Down x3 Enter: the prompt for swappiness (now $sw0)"
lit $S 30
keys $S Enter
check_dialog $S "Change swappiness (memory.swappiness)
  $T/load: $sw0 -> 30
Apply to 1 group? y applies, any other key cancels" "swappiness=30: the confirmation"
keys $S n
check_status $S "nothing changed" "swappiness=30: n cancels: nothing changed"
tree_shown $S && pass "n: back to the tree" || fail "n: the tree is not shown"
check_file "$T/load" swappiness "$sw0" "n: nothing written"
keys $S e
check_pick $S "$T/load" "$T/load" "" "e: the pick screen"
keys $S Down Down Down Enter
check_prompt $S "swappiness of $T/load (now $sw0): " "the prompt for swappiness again"
lit $S 30
keys $S Enter y
check_dialog $S "Changed swappiness (memory.swappiness)
  $T/load: done, the kernel holds 30
1 done, 0 refused; any key returns (u undoes)" "swappiness=30: y: the result"
check_file "$T/load" swappiness 30 "swappiness=30"
audit "$T/load" swappiness "$sw0" 30 ok 30
keys $S x
tree_shown $S || fail "swappiness: x does not return to the tree"

# ---- limit=16M below what load can reclaim to: EBUSY -----------------------------------------
u0=$(cat "$TROOT/load/memory.usage_in_bytes")
keys $S e
check_pick $S "$T/load" "$T/load" "" "e: the pick screen shows swappiness 30"
keys $S Enter
check_prompt $S "limit of $T/load (now 100M [104857600]): " "Enter on limit: the prompt shows now 100M [104857600]"
lit $S 16M
keys $S Enter
# the usage in the warning is read when the change is planned: find the
# number shown and check it against the kernel's usage
wait_for $S '^      usage [0-9.]+M is above it' 5
shown=$(sed -n 's/^      usage \([0-9.]*M\) is above it.*/\1/p' <<<"$SCREEN" | head -n 1)
u1=$(cat "$TROOT/load/memory.usage_in_bytes")
if [ -n "$shown" ] && awk -v s="${shown%M}" -v a="$u0" -v b="$u1" 'BEGIN {
	lo = (a < b ? a : b) / 1048576 - 0.1; hi = (a > b ? a : b) / 1048576 + 0.1
	exit !(s >= lo && s <= hi) }'; then
	pass "limit=16M: the warning names the usage $shown (the kernel: $u0 .. $u1 bytes)"
else
	fail "limit=16M: the warning's usage '${shown:-none}' is not the kernel's $u0 .. $u1 bytes"
	shown=$(human "$u1" | tr -d ' ()')
fi
check_dialog $S "Change limit (memory.limit_in_bytes)
  $T/load: 100M [104857600] -> 16.0M [16777216]
      usage $shown is above it: the kernel reclaims now, and refuses the change (EBUSY) if it cannot get below
Apply to 1 group? y applies, any other key cancels" "limit=16M: the confirmation with the warning line"
keys $S y
ebusy_result="Changed limit (memory.limit_in_bytes)
  $T/load: refused: Device or resource busy: the kernel could not reclaim the group down to the new limit and kept the old one
0 done, 1 refused; any key returns"
check_dialog $S "$ebusy_result" "limit=16M: y: the refusal line, no u offered (nothing changed)" 30
check_status $S "change limit: 0 done, 1 refused" "limit=16M: the status line counts the refusal"
check_file "$T/load" limit 104857600 "limit=16M refused: the old limit kept"
kill -0 "$loadpid" 2>/dev/null && pass "limit=16M: the load still runs (v1 refuses, no OOM kill)" ||
	SCREEN='' fail "limit=16M: the load died"
audit "$T/load" limit 104857600 16777216 EBUSY 104857600
# the same screen at 200 columns: every line whole
tm resize-window -t $S -x 200 -y $H
check_dialog $S "$ebusy_result" "limit=16M: at 200 columns the result lines are whole"
tm resize-window -t $S -x $W -y $H
# u there returns: it would undo the swappiness change before, which this
# screen never offered
keys $S u
if tree_shown $S && ! grep -q '^Change ' <<<"$SCREEN"; then
	pass "EBUSY: u on the result screen returns to the tree, undoing nothing"
else
	fail "EBUSY: u on the result screen did not just return to the tree"
fi
check_file "$T/load" swappiness 30 "EBUSY: u undid nothing"

# ---- memsw below the memory limit: the confirmation warns ------------------------------------
if [ "$HAS_MEMSW" = 1 ]; then
	keys $S e
	check_pick $S "$T/load" "$T/load" "" "e: the pick screen"
	keys $S Down Down Enter
	check_prompt $S "memsw of $T/load (now max): " "Down x2 Enter: the prompt for memsw"
	lit $S 64M
	keys $S Enter
	check_dialog $S "Change memsw (memory.memsw.limit_in_bytes)
  $T/load: max -> 64.0M [67108864]
      the memory limit 100M is above it: the kernel refuses the change (EINVAL); lower limit first
Apply to 1 group? y applies, any other key cancels" "memsw=64M below the limit 100M: the confirmation warns of the refusal"
	keys $S n
	check_status $S "nothing changed" "memsw=64M: n cancels"
	check_file "$T/load" memsw max "memsw=64M: nothing written"
fi

# ---- three tagged groups: limit=48M, and its undo -------------------------------------------
for g in idle1 idle2 idle3; do
	search $S "/$g"
	keys $S Space
done
for g in idle1 idle2 idle3; do
	check_has $S "^\*.* $g\$" "Space: $g is tagged (* in the first column)"
done
if grep -qE '^\*.* (load|'"$TNAME"')$' <<<"$SCREEN"; then
	fail "Space: a group other than idle1..3 is tagged"
else
	pass "Space: only idle1, idle2, idle3 are tagged"
fi
keys $S e
wait_for $S '^┌ Edit ' 5
first=$(sed -n "s|^┌ Edit $T/\(idle[123]\) and the other tagged groups.*|\1|p" <<<"$SCREEN")
if [ -n "$first" ]; then
	check_pick $S "$T/$first" "$T/$first and the other tagged groups" "" "e with tags: Edit $T/$first and the other tagged groups"
else
	fail "e with tags: the header does not name a tagged group 'and the other tagged groups'"
	first=idle1
fi
keys $S Enter
check_prompt $S "limit of $T/$first and the tagged (now max): " "Enter on limit: the prompt names $T/$first and the tagged"
# A malformed value for three groups: refused at once, said once, and at
# 80 columns wrapped at spaces in the box (76 columns inside), under the
# prompt, the line kept.
tm resize-window -t $S -x 80 -y $H
lit $S 12abc
keys $S Enter
check_box $S "limit of $T/$first and the tagged (now max): 12abc" "limit: '12abc' is not a value for memory.limit_in_bytes; it takes a size
(bytes, or a number with K, M, G or T, e.g. 512M or 1.5G), max (also
unlimited or -1), or a change +SIZE, -SIZE, +N%, -N%" "12abc with 3 tags at 80 columns: the error in 3 lines wrapped at spaces in the box under the prompt"
n=$(grep -c "is not a value" <<<"$SCREEN")
[ "$n" = 1 ] && pass "12abc with 3 tags: the error is said once" ||
	fail "12abc with 3 tags: the error is said $n times"
grep -q '^Change limit' <<<"$SCREEN" && fail "12abc with 3 tags: a confirmation for a malformed value" ||
	pass "12abc with 3 tags: no confirmation"
tm resize-window -t $S -x $W -y $H
keys $S BSpace BSpace BSpace BSpace BSpace
check_prompt $S "limit of $T/$first and the tagged (now max): " "12abc with 3 tags: the prompt is kept; Backspace x5 empties it"
lit $S 48M
keys $S Enter
# the order of the groups is the program's; the lines are what is checked
wait_for $S '^Apply to these 3 groups\? y applies, any other key cancels$' 5
order=$(sed -n "s|^  $T/\(idle[123]\): max -> 48.0M \[50331648\]\$|\1|p" <<<"$SCREEN" | tr '\n' ' ')
if [ "$(tr ' ' '\n' <<<"$order" | sed '/^$/d' | sort | tr '\n' ' ')" = "idle1 idle2 idle3 " ]; then
	pass "limit=48M with tags: the confirmation lists idle1, idle2, idle3 (in the order $order)"
else
	fail "limit=48M with tags: the confirmation does not list each of idle1..3 once ('$order')"
	order="idle1 idle2 idle3 "
fi
want="Change limit (memory.limit_in_bytes)"
for g in $order; do want+=$'\n'"  $T/$g: max -> 48.0M [50331648]"; done
want+=$'\n'"Apply to these 3 groups? y applies, any other key cancels"
check_dialog $S "$want" "limit=48M with tags: the confirmation screen"
for g in idle1 idle2 idle3; do check_file "$T/$g" limit max "limit=48M: nothing written before y"; done
keys $S y
want="Changed limit (memory.limit_in_bytes)"
for g in $order; do want+=$'\n'"  $T/$g: done, the kernel holds 50331648"; done
want+=$'\n'"3 done, 0 refused; any key returns (u undoes)"
check_dialog $S "$want" "limit=48M with tags: y: three result lines"
check_status $S "change limit: 3 done, 0 refused" "limit=48M with tags: the status line"
for g in idle1 idle2 idle3; do check_file "$T/$g" limit 50331648 "limit=48M with tags"; done
for g in $order; do audit "$T/$g" limit max 50331648 ok 50331648; done
check_file "$T/load" limit 104857600 "limit=48M with tags: the untagged load"
keys $S x
tree_shown $S || fail "tags: x does not return to the tree"
keys $S u
want="Change limit (memory.limit_in_bytes): undo"
for g in $order; do want+=$'\n'"  $T/$g: 48.0M [50331648] -> max"; done
want+=$'\n'"Apply to these 3 groups? y applies, any other key cancels"
check_dialog $S "$want" "u: the undo of the tagged change lists the three groups"
keys $S y
want="Changed limit (memory.limit_in_bytes)"
for g in $order; do want+=$'\n'"  $T/$g: done, the kernel holds max"; done
want+=$'\n'"3 done, 0 refused; any key returns"
check_dialog $S "$want" "undo with tags: y: three result lines"
for g in idle1 idle2 idle3; do check_file "$T/$g" limit max "undo with tags"; done
for g in $order; do audit "$T/$g" limit 50331648 -1 ok max; done
keys $S x
tree_shown $S || fail "undo with tags: x does not return to the tree"
keys $S U
check_status $S "all tags cleared" "U: all tags cleared"
if wait_for $S '^\*' 1; then fail "U: a row is still tagged"; else pass "U: no row tagged"; fi

lit $S q
check_has $S '^EXIT=0$' "q quits with status 0"
tm kill-session -t $S

# ---- --readonly ---------------------------------------------------------------------------
before=$(snapshot)
naud=$(wc -l <"$AUD" 2>/dev/null || echo 0)
S=ro
start $S "" --readonly --audit-log "$AUD" -d 60 "$T"
check_has $S '^ .*     load$' "--readonly: the tree shows load"
search $S /load
keys $S e
check_status $S "editing is disabled: --readonly" "--readonly: e says editing is disabled: --readonly"
tree_shown $S 1 && pass "--readonly: e opens no dialog" || fail "--readonly: the tree is not shown after e"
keys $S x
keys $S F7
check_status $S "editing is disabled: --readonly" "--readonly: F7 says the same"
lit $S u
check_status $S "nothing to undo" "--readonly: u: nothing to undo"
lit $S q
check_has $S '^EXIT=0$' "--readonly: q quits with status 0"
tm kill-session -t $S
after=$(snapshot)
[ "$before" = "$after" ] && SCREEN='' pass "--readonly: no knob of the test groups changed" ||
	SCREEN='' fail "--readonly: knobs changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | tr '\n' ' ')"
n2=$(wc -l <"$AUD" 2>/dev/null || echo 0)
[ "$n2" = "$naud" ] && SCREEN='' pass "--readonly: no audit line" ||
	SCREEN='' fail "--readonly: $((n2 - naud)) audit lines appended"

# ---- nobody -------------------------------------------------------------------------------
ubin=$MEMCGTOP
nb=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
if ! "${nb[@]}" test -x "$ubin"; then
	mkdir -p "$TMPD/bin" && cp "$MEMCGTOP" "$TMPD/bin/memcgtop" &&
		chmod 755 "$TMPD/bin" "$TMPD/bin/memcgtop" || abort "cannot copy memcgtop for nobody"
	ubin=$TMPD/bin/memcgtop
fi
before=$(snapshot)
S=nobody
PREFIX=("${nb[@]}")
saved=$MEMCGTOP MEMCGTOP=$ubin
start $S "" -d 60 "$T"
PREFIX=() MEMCGTOP=$saved
check_has $S '^ .*     load$' "nobody: the tree shows load"
search $S /load
keys $S e
check_pick $S "$T/load" "$T/load" "no permission to write it" "nobody: e: every knob row says no permission to write it"
keys $S Enter
check_box $S "" "limit: no permission to write it" "nobody: Enter on limit refuses in the box: limit: no permission to write it" ""
if wait_for $S ' of .* \(now ' 1; then fail "nobody: a value prompt appeared"; else pass "nobody: no value prompt"; fi
keys $S Down Down Down Enter
check_box $S "" "swappiness: no permission to write it" "nobody: Enter on swappiness refuses too, in the box" ""
lit $S q
tree_shown $S && pass "nobody: q leaves the dialog" || fail "nobody: q does not leave the dialog"
lit $S q
check_has $S '^EXIT=0$' "nobody: q quits with status 0"
tm kill-session -t $S
after=$(snapshot)
[ "$before" = "$after" ] && SCREEN='' pass "nobody: no knob of the test groups changed" ||
	SCREEN='' fail "nobody: knobs changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | tr '\n' ' ')"

# ---- no syslog and no --audit-log; the group's lock ----------------------------------------------
# MEMCGTOP_SYSLOG_SOCKET names a socket no one listens on: the confirm
# dialog says the change would be recorded nowhere.  Then flock(1) holds
# idle1's directory: y waits on that lock (its waiter shows in /proc/locks)
# and writes nothing until the lock is free.
# (This session runs with --ascii: the box is drawn with - | +.)
S=nolog
start $S "MEMCGTOP_SYSLOG_SOCKET=$TMPD/nolog" --ascii -d 60 "$T"
check_has $S '^ .*     idle1$' "no syslog: the tree shows idle1"
search $S /idle1
keys $S e
box_ascii
check_pick $S "$T/idle1" "$T/idle1" "" "--ascii: the pick screen's box drawn with - | +"
keys $S Enter
old1=$(kval "$T/idle1" memory.limit_in_bytes)
check_prompt $S "limit of $T/idle1 (now $old1): " "no syslog, --ascii: Enter asks for limit of $T/idle1 (now $old1) in the box"
box_utf8
lit $S 20M
keys $S Enter
check_dialog $S "Change limit (memory.limit_in_bytes)
  $T/idle1: $old1 -> 20.0M [20971520]
No syslog is listening on $TMPD/nolog: this change is recorded nowhere (--audit-log FILE or a syslog daemon keeps it)
Apply to 1 group? y applies, any other key cancels" "no syslog, no --audit-log: the confirm dialog says the change is recorded nowhere"
ino=$(stat -c %i "$TROOT/idle1")
flock "$TROOT/idle1" -c "touch '$TMPD/held'; while [ ! -e '$TMPD/release' ]; do sleep 0.05; done" &
holder=$!
pids+=("$holder")
for i in $(seq 200); do [ -e "$TMPD/held" ] && break; sleep 0.05; done
keys $S y
blocked=0
for i in $(seq 200); do
	grep -Eq "^[0-9]+: -> FLOCK +ADVISORY +WRITE +[0-9]+ [0-9a-f]+:[0-9a-f]+:$ino " /proc/locks &&
		{ blocked=1; break; }
	sleep 0.05
done
v=$(kval "$T/idle1" memory.limit_in_bytes)
if [ "$blocked" = 1 ] && [ "$v" = "$old1" ]; then
	SCREEN='' pass "lock held elsewhere: y waits on the flock of $T/idle1 (in /proc/locks), limit still $v"
else
	SCREEN='' fail "lock held elsewhere: y did not wait on the flock of $TROOT/idle1 (waiter seen: $blocked; limit $v, want $old1)"
fi
touch "$TMPD/release"
wait "$holder"
check_dialog $S "Changed limit (memory.limit_in_bytes)
  $T/idle1: done, the kernel holds 20971520
1 done, 0 refused; any key returns (u undoes)
Following the change 5s: the report comes here and in the detail pane (d)" "lock released: the change is made, followed 5 s (the default --follow)"
check_file "$T/idle1" limit 20971520 "lock released"
keys $S Escape
lit $S q
check_has $S '^EXIT=0$' "no syslog: q quits with status 0"
tm kill-session -t $S

# ---- the audit log ---------------------------------------------------------------------------
SCREEN=''
m=$(stat -c %a "$AUD" 2>/dev/null)
[ "$m" = 600 ] && pass "--audit-log: created with mode 0600" || fail "--audit-log: mode ${m:-missing}, expected 600"
printf '%s\n' "${audit_exp[@]}" >"$TMPD/audit.exp"
if cmp -s "$TMPD/audit.exp" "$AUD"; then
	pass "--audit-log: exactly the ${#audit_exp[@]} expected lines, one per attempted write, in order"
else
	fail "--audit-log: differs from the expected ${#audit_exp[@]} lines:"$'\n'"$(diff "$TMPD/audit.exp" "$AUD" | head -n 30)"
fi
grep -q "^uid=0 group=$T/load file=memory.limit_in_bytes old=104857600 new=16777216 result=EBUSY now=104857600\$" "$AUD" &&
	pass "--audit-log: the EBUSY refusal is logged: $(grep -m1 'result=EBUSY' "$AUD")" ||
	fail "--audit-log: no line for the EBUSY refusal"

# ---- cleanup and its verification --------------------------------------------------------------
started=("${pids[@]}")
cleanup
left=()
for p in "${started[@]}"; do
	kill -0 "$p" 2>/dev/null && left+=("$p")
done
if [ ! -e "$TROOT" ] && [ ${#left[@]} = 0 ] && [ ! -e "$TMPD" ]; then
	pass "cleanup: test tree, temp dir, tmux server and the load are gone"
else
	fail "cleanup: left behind: $([ -e "$TROOT" ] && echo "$TROOT ")$([ -e "$TMPD" ] && echo "$TMPD ")pids ${left[*]}"
fi
echo "tui-edit: run time $(awk -v a="$t_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s" >&2
summary
