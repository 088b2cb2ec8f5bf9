#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/tui-v2.sh - the interactive screen's edit dialog against live
# cgroup v2 groups in the qemu test VM (tests/vm/vm.sh), driven in tmux.
#
#   tests/vm/tui-v2.sh
#
# In the guest (VM_BINS: memcgtop and tmux with their libraries), below
# /sys/fs/cgroup/tui:
#   knobs   empty: limit (100000001, not a page multiple), high, low
#           (1000000, not a page multiple), min and swap.max set through
#           the dialog
#   cache   64 MiB of page cache (a never-written zram device read through
#           a descriptor that stays open): reclaim=16M through the dialog,
#           with memory.current and memory.stat pgsteal before and after
# A tmux server in the guest runs "memcgtop --audit-log FILE --follow 0 -d 60
# /tui" (no follow-up: tests/tui/preview.sh has it) at 100x30; the guest
# presses the keys (/name Enter to select a group, e, Down..., Enter, the
# value, Enter, y), waits for each screen by polling
# capture-pane and saves it into the share with the kernel's files before
# and after.  The host checks each screen against the man page's EDITING
# formats:
#
#   pick     a box from line 1, the full width of the screen:
#            ┌ Edit PATH  (Up/Down choose, Enter edits, Esc cancels) ──┐
#            │ KNOB FILE VALUE HELP                                     │
#                                                 (one row per v2 knob)
#            ├──────────────────────────────────────────────────────────┤
#            │ KNOB of PATH (now X):              (the prompt, typing)  │
#            └──────────────────────────────────────────────────────────┘
#   status   Enter asks to confirm; Enter on an empty line keeps the
#            value; Esc cancels                   (while typing)
#   confirm  Change KNOB (FILE)
#              PATH: OLD -> NEW   (sizes: HUMAN [BYTES])
#                  WARNING                        (reclaim)
#            Apply to 1 group? y applies, any other key cancels
#   result   Changed KNOB (FILE)
#              PATH: done, the kernel holds NOW   (reclaim: PATH: done,
#                                                  as --set prints it)
#            N done, M refused; any key returns[ (u undoes)]
#
# and the kernel's files (sizes rounded down to pages, as the kernel holds
# them), that pgsteal grew with the reclaim, and the --audit-log lines.
#
# Output: one "PASS: ..." / "FAIL: ..." line per check (a failing screen
# check shows the screen), then "tui-v2: N passed, M failed"; exit 1 on any
# failure.  Without qemu, the kernel package, tmux or a static libc (and no
# way to get them) it prints "SKIP: tui v2: REASON" and exits 77 -- unless
# CI=true, where that is a failure.  A VM that does not boot is a failure.
#
# Environment:
#   MEMCGTOP          binary to test (default: REPO/memcgtop, rebuilt with
#                     make first)
#   TUI_V2_TIMEOUT    VM timeout in seconds (default 150)
#   TUI_V2_KEEP=1     keep the share folder (it is always kept on failure)
#   VM_BUILD, VM_VERBOSE  as for tests/vm/vm.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=${TUI_V2_TIMEOUT:-150}
t0=$(date +%s.%N)
W=100 H=30

npass=0 nfail=0
SCREEN=''
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
	if [ -n "$SCREEN" ]; then
		echo "  screen:"
		printf '%s\n' "$SCREEN" | sed 's/^/    |/'
	fi
}
NAME="tui v2"
. "$HERE/lib.sh"
vm_host_ready
TMUX_BIN=$(command -v tmux 2>/dev/null) || skip "tmux not found"
TMUX_BIN=$(readlink -f "$TMUX_BIN")
vm_binary

share=$(mktemp -d "$BUILD/tui-v2-share.XXXXXX") || skip "cannot create a share below $BUILD"
mkdir -p "$share/out"

# ---------------------------------------------------------------- guest --
cat > "$share/guest.sh" <<EOF
MEMCGTOP=$bin
TMUX_BIN=$TMUX_BIN
W=$W H=$H
EOF
cat >> "$share/guest.sh" <<'EOF'
# runs in the VM (busybox sh as root), cwd = the 9p share
set -u
H_=/mnt/host
CG=/sys/fs/cgroup
S=$CG/tui
O=$H_/out
export LC_ALL=C.UTF-8
fail() { echo "GUEST-FAIL: $*"; echo "$*" > $O/guest-fail; exit 1; }
w() { echo "$2" > "$1" || fail "write $2 > $1"; }
note() { echo "guest: $*"; }
t() { $TMUX_BIN -L tui -f /dev/null "$@"; }

uname -r > $O/uname
# tmux needs pseudo-terminals
if ! grep -q ' /dev/pts devpts ' /proc/mounts; then
	mkdir -p /dev/pts
	mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts 2>/dev/null ||
		mount -t devpts devpts /dev/pts || fail "cannot mount devpts"
	[ -e /dev/ptmx ] || ln -s pts/ptmx /dev/ptmx
fi

w $CG/cgroup.subtree_control +memory
mkdir -p $S/knobs $S/cache || fail "mkdir"
w $S/cgroup.subtree_control +memory
# cache: 64 MiB of page cache of a never-written zram device, kept by the
# open descriptor 3 of a sleeping shell
w /sys/block/zram1/disksize 64M
sh -c 'echo $$ > "$0/cgroup.procs" && exec 3< /dev/zram1 && cat <&3 > /dev/null &&
	touch /tmp/cache.ready && exec sleep 1000' $S/cache &
i=0
until [ -e /tmp/cache.ready ]; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "cache load not ready after 60 s"
	sleep 0.1
done
note "cache ready: $(cat $S/cache/memory.current)"
# every knob's value before the dialog opens (the pick screens show them)
for g in knobs cache; do
	for f in memory.max memory.high memory.low memory.min memory.swap.max memory.oom.group; do
		cat $S/$g/$f > $O/init.$g.$f
	done
done

t new-session -d -s m -x $W -y $H "env TERM=xterm-256color LANG=C.UTF-8 HOME=/tmp $MEMCGTOP --audit-log $O/audit.log --follow 0 -d 60 /tui; echo EXIT=\$?; exec cat" ||
	fail "tmux new-session failed"

# shot NAME EREGEX [TENTHS]: polls the screen until a line matches, saves
# it as NAME.txt (also when it never matches: NAME goes to timeouts)
shot() {
	n=0
	while [ $n -lt ${3:-150} ]; do
		t capture-pane -p -t m > /tmp/scr 2>/dev/null
		if grep -qE -- "$2" /tmp/scr; then
			cp /tmp/scr $O/$1.txt
			return 0
		fi
		n=$((n + 1))
		sleep 0.1
	done
	cp /tmp/scr $O/$1.txt
	echo "$1" >> $O/timeouts
	return 1
}
keys() { t send-keys -t m "$@"; }
lit() { t send-keys -t m -l "$1"; }
search() { keys /; lit "$1"; keys Enter; }
tree() { shot "$1" '^  ▼USAGE  LIMIT    LOW '; }

tree start
# edit GROUP KNOB DOWNS VALUE FILE...: one change through the dialog;
# screens and files (before and after) into the share
edit() {
	g=$1 k=$2 downs=$3 v=$4
	shift 4
	for f in "$@"; do cat $S/$g/$f > $O/$k.$f.before; done
	[ "$k" = reclaim ] && cat $S/$g/memory.stat > $O/$k.stat.before
	search "/$g"
	keys e
	shot $k.pick "^┌ Edit /tui/$g "
	i=0
	while [ $i -lt $downs ]; do keys Down; i=$((i + 1)); done
	keys Enter
	shot $k.prompt "^│ $k of /tui/$g \\(now "
	lit "$v"
	keys Enter
	shot $k.confirm '^Apply to '
	keys y
	shot $k.result 'any key returns'
	for f in "$@"; do cat $S/$g/$f > $O/$k.$f.after; done
	[ "$k" = reclaim ] && cat $S/$g/memory.stat > $O/$k.stat.after
	keys x
	tree $k.tree
}
edit knobs limit 0 100000001 memory.max
edit knobs high 1 50M memory.high
edit knobs low 2 1000000 memory.low
edit knobs min 3 4M memory.min
edit knobs swap.max 4 32M memory.swap.max
edit cache reclaim 6 16M memory.current
lit q
shot quit '^EXIT='
t kill-server
note "done"
echo 1 > $S/cache/cgroup.kill 2>/dev/null
sync
echo "GUEST-OK"
EOF

# ------------------------------------------------------------------ run --
set +e
vm_guest_run "$share" "$TMO" "$TMUX_BIN"

# --------------------------------------------------------------- checks --
O=$share/out
PAGE=4096
audit_exp=()
echo "  note: guest kernel $(cat "$O/uname" 2>/dev/null)"
if [ -n "$vmsecs" ] && awk -v s="$vmsecs" 'BEGIN { exit !(s < 90) }'; then
	pass "the VM step took $vmsecs s (under 90 s)"
else
	fail "the VM step took ${vmsecs:-?} s (over 90 s)"
fi
if [ -s "$O/timeouts" ]; then
	fail "the guest waited in vain for the screens: $(tr '\n' ' ' <"$O/timeouts")"
else
	pass "the guest saw every screen it waited for"
fi

human() {
	awk -v v="$1" 'BEGIN {
		if (v !~ /^[0-9]+$/ || v + 0 < 1024) exit
		u = "KMGTPE"; x = v + 0; i = 0
		while (x >= 1024 && i < 6) { x /= 1024; i++ }
		if (x < 99.95) printf " (%.1f%s)", x, substr(u, i, 1)
		else printf " (%.0f%s)", x, substr(u, i, 1)
	}'
}
# shown VALUE: a value as the dialog shows it: max, - and small numbers as
# they are, a size in human units with its exact bytes in brackets
shown() {
	local h
	h=$(human "$1" | tr -d ' ()')
	if [ -n "$h" ]; then printf '%s [%s]' "$h" "$1"; else printf '%s' "$1"; fi
}
clip() {
	local l
	while IFS= read -r l || [ -n "$l" ]; do
		l=${l:0:$W}
		printf '%s\n' "${l%"${l##*[! ]}"}"
	done
}
norm() { tr '\n' ' ' | tr -s ' \t' '  ' | sed 's/^ //; s/ $//'; }
rd() { cat "$O/$1" 2>/dev/null; }
# load NAME: SCREEN = the saved screen; BODY = above the status line,
# trailing empty lines dropped; STATUS = the status line (line H; counted
# from the top, as capture-pane leaves out empty lines at the bottom)
load() {
	SCREEN=$(rd "$1.txt")
	# without the confirmation's preview lines (tests/vm/preview-v2.sh and
	# tests/tui/preview.sh check the preview)
	BODY=$(sed -n "1,$((H - 1))p" <<<"$SCREEN" |
		awk '/^      preview: / { skip = 1; next }
		     /^(Apply |No syslog|Nothing |  [^ ])/ { skip = 0 }
		     !skip' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}')
	STATUS=$(sed -n "${H}p" <<<"$SCREEN")
}
# check_dialog NAME EXPECTED DESC: the dialog shows exactly these lines; a
# line wider than the screen may be wrapped, never cut
check_dialog() {
	local long=0 l
	load "$1"
	while IFS= read -r l; do [ ${#l} -gt $W ] && long=1; done <<<"$2"
	if [ "$BODY" = "$2" ]; then
		pass "$3"
	elif [ "$long" = 1 ] && [ "$(norm <<<"$BODY")" = "$(norm <<<"$2")" ]; then
		pass "$3 (lines wider than $W columns wrapped)"
	elif [ "$long" = 1 ] && [ "$BODY" = "$(clip <<<"$2")" ]; then
		fail "$3: every line is right but those wider than the $W-column screen are cut at its edge, not wrapped; the full lines:"
		printf '%s\n' "$2" | sed 's/^/    >/'
	else
		fail "$3: expected:"
		printf '%s\n' "$2" | sed 's/^/    >/'
	fi
}

# The box of the pick screen (as tests/tui/edit.sh checks it on v1): seven
# knob rows on v2, the rule on line 9, the prompt on line 10.
NK=7
HINT="Enter asks to confirm; Enter on an empty line keeps the value; Esc cancels"
reps() { local i r=; for ((i = 0; i < $2; i++)); do r+=$1; done; printf '%s' "$r"; }
# boxline TEXT: a line inside the box, TEXT from column 3
boxline() { printf '│ %s%s │' "$1" "$(reps ' ' $((W - 4 - ${#1})))"; }
# rule LEFT RIGHT: a border line of the box
rule() { printf '%s%s%s' "$1" "$(reps ─ $((W - 2)))" "$2"; }
# box_title TEXT: the top border with the title (cut at W-4 columns)
box_title() {
	local t=${1:0:$((W - 4))}
	printf '┌ %s %s┐' "$t" "$(reps ─ $((W - 4 - ${#t})))"
}
# check_prompt NAME PROMPT DESC: the screen NAME shows the box with its
# rule, the PROMPT line under it, its bottom border; the status line says
# what the keys do
check_prompt() {
	load "$1"
	if [ "$(sed -n "$((NK + 2)),$((NK + 4))p" <<<"$SCREEN")" = "$(rule ├ ┤)
$(boxline "$2")
$(rule └ ┘)" ] && [ "$STATUS" = "$HINT" ]; then
		pass "$3"
	else
		fail "$3: lines $((NK + 2))..$((NK + 4)) are not the rule, '│ $2' and the bottom border, or the status line is not '$HINT'"
	fi
}

V2_KNOBS="limit:memory.max high:memory.high low:memory.low min:memory.min swap.max:memory.swap.max oom.group:memory.oom.group reclaim:memory.reclaim"
# check_pick NAME GROUP VALUES...: the header and one row per v2 knob with
# the value the guest read before (reclaim: -) and a help text
check_pick() {
	local name=$1 g=$2 ok=1 r=2 kf k f v want l
	shift 2
	load "$name"
	[ "$(sed -n 1p <<<"$BODY")" = "$(box_title "$(printf 'Edit /tui/%s  (Up/Down choose, Enter edits, Esc cancels)' "$g")")" ] || ok=0
	for kf in $V2_KNOBS; do
		k=${kf%%:*} f=${kf#*:} v=$1
		shift
		[ "$k" = oom.group ] || v=$(shown "$v")
		want=$(printf '│ %-11s %-28s %-20s ' "$k" "$f" "$v")
		l=$(sed -n "${r}p" <<<"$BODY")
		[[ $l == "$want"?*" │" ]] || ok=0
		case ${l:${#want}} in
		"no permission"* | "--readonly"* | "no such group"* | "this group has no such file"* | "the root group"*) ok=0 ;;
		esac
		r=$((r + 1))
	done
	# under the list: the rule, an empty line, the bottom border
	[ "$(sed -n '9,$p' <<<"$BODY")" = "$(rule ├ ┤)
$(boxline "")
$(rule └ ┘)" ] || ok=0
	if [ "$ok" = 1 ]; then
		pass "$name: Edit /tui/$g lists limit, high, low, min, swap.max, oom.group, reclaim with their values and help"
	else
		fail "$name: expected the box with the title 'Edit /tui/$g  (...)', the seven v2 knob rows with the values $*, the rule, an empty line and the bottom border"
	fi
}

# knob KNOB FILE VALUE-TYPED NEW-WRITTEN: the screens and files of one change
# of /tui/knobs
knob() {
	local k=$1 f=$2 typed=$3 new=$4 old now want
	old=$(rd "$k.$f.before") now=$(rd "$k.$f.after")
	check_prompt "$k.prompt" "$k of /tui/knobs (now $(shown "$old")): " "$k: the prompt in the box under the list: '$k of /tui/knobs (now $(shown "$old")): '"
	check_dialog "$k.confirm" "Change $k ($f)
  /tui/knobs: $(shown "$old") -> $(shown "$new")
Apply to 1 group? y applies, any other key cancels" "$k=$typed: the confirmation"
	want=$(( new / PAGE * PAGE ))
	check_dialog "$k.result" "Changed $k ($f)
  /tui/knobs: done, the kernel holds $want
1 done, 0 refused; any key returns (u undoes)" "$k=$typed: the result: the kernel holds $want"
	load "$k.result"
	if [ "$STATUS" = "change $k: 1 done, 0 refused" ]; then
		pass "$k=$typed: the status line '$STATUS'"
	else
		fail "$k=$typed: the status line is not 'change $k: 1 done, 0 refused'"
	fi
	SCREEN=''
	if [ "$now" = "$want" ]; then
		pass "$k=$typed: $f holds $want (was $old)"
	else
		fail "$k=$typed: $f holds '$now' (was '$old'), expected $want"
	fi
	audit_exp+=("uid=0 group=/tui/knobs file=$f old=$old new=$new result=ok now=$now")
}

# init G: the values of G's knobs as the guest read them at the start
init() {
	local f
	for f in memory.max memory.high memory.low memory.min memory.swap.max memory.oom.group; do
		printf '%s\n' "$(rd "init.$1.$f")"
	done
	echo -
}
mapfile -t iv < <(init knobs)
check_pick limit.pick knobs "${iv[@]}"
knob limit memory.max 100000001 100000001
knob high memory.high 50M 52428800
knob low memory.low 1000000 1000000
knob min memory.min 4M 4194304
knob swap.max memory.swap.max 32M 33554432
load limit.tree
lim=$(human "$(rd limit.memory.max.after)" | tr -d ' ()')
if grep -qE "^ +[^ ]+ +${lim//./\\.} .* knobs\$" <<<"$SCREEN"; then
	pass "after limit: back in the tree, the row of knobs shows LIMIT $lim at once (-d 60)"
else
	fail "after limit: the tree row of knobs does not show LIMIT $lim"
fi

# ---- reclaim on cache
mapfile -t iv < <(init cache)
check_pick reclaim.pick cache "${iv[@]}"
check_prompt reclaim.prompt "reclaim of /tui/cache (now write-only): " "reclaim: the prompt in the box: 'reclaim of /tui/cache (now write-only): '"
check_dialog reclaim.confirm "Change reclaim (memory.reclaim)
  /tui/cache: - -> 16.0M [16777216]
      the kernel reclaims this much from the group now
Apply to 1 group? y applies, any other key cancels" "reclaim=16M: the confirmation with the warning line"
cb=$(rd reclaim.memory.current.before) ca=$(rd reclaim.memory.current.after)
sb=$(awk '$1 == "pgsteal" { print $2 }' "$O/reclaim.stat.before")
sa=$(awk '$1 == "pgsteal" { print $2 }' "$O/reclaim.stat.after")
load reclaim.result
if grep -q 'refused: Resource temporarily unavailable' <<<"$BODY"; then
	# the kernel may not get the whole amount: EAGAIN, as --set reports it
	check_dialog reclaim.result "Changed reclaim (memory.reclaim)
  /tui/cache: refused: Resource temporarily unavailable: the kernel could not reclaim the whole amount
0 done, 1 refused; any key returns" "reclaim=16M: the result (EAGAIN; u not offered: memory.reclaim is not undone)"
	res=EAGAIN
else
	# as --set prints it: "done", no value held for a write-only file
	check_dialog reclaim.result "Changed reclaim (memory.reclaim)
  /tui/cache: done
1 done, 0 refused; any key returns" "reclaim=16M: the result line says done (memory.reclaim holds no value; u not offered: it is not undone)"
	res=ok
fi
SCREEN=''
if [ -n "$sb" ] && [ -n "$sa" ] && [ "$sa" -gt "$sb" ]; then
	pass "reclaim=16M: memory.stat pgsteal grew from $sb to $sa (+$((sa - sb)) pages)"
else
	fail "reclaim=16M: memory.stat pgsteal did not grow ('$sb' -> '$sa')"
fi
if [ "$cb" -gt "$ca" ] && { [ $res = EAGAIN ] || [ $((cb - ca)) -ge $((15 << 20)) ]; }; then
	pass "reclaim=16M: memory.current dropped from $cb to $ca (by $(( (cb - ca) >> 20 )) MiB)"
else
	fail "reclaim=16M: memory.current $cb -> $ca, expected a drop of about 16 MiB"
fi
audit_exp+=("uid=0 group=/tui/cache file=memory.reclaim old=- new=16777216 result=$res now=-")

load quit
grep -q '^EXIT=0$' <<<"$SCREEN" && { SCREEN=''; pass "q quits with status 0"; } ||
	fail "q: memcgtop did not exit with status 0"

SCREEN=''
printf '%s\n' "${audit_exp[@]}" >"$share/audit.exp"
if cmp -s "$share/audit.exp" "$O/audit.log"; then
	pass "--audit-log: exactly the ${#audit_exp[@]} expected lines, one per write"
else
	fail "--audit-log: differs from the expected ${#audit_exp[@]} lines:"$'\n'"$(diff "$share/audit.exp" "$O/audit.log" | head -n 20)"
fi

echo "tui-v2: run time $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s (qemu ${vmsecs:-?} s)" >&2
echo "tui-v2: $npass passed, $nfail failed"
if [ "$nfail" = 0 ] && [ "${TUI_V2_KEEP:-0}" != 1 ]; then
	rm -rf "$share"
else
	echo "tui-v2: output kept in $share" >&2
fi
[ "$nfail" = 0 ]
