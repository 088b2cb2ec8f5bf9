#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# btf.sh - live: an unusable kernel BTF is named as such, not taken for an
# old kernel.  In a private mount namespace (unshare -m), a file is
# bind-mounted over /sys/kernel/btf/vmlinux: empty, cut short (its first
# 4 KiB), and whole but for a broken magic number.  For each:
#   - --collector bpf exits 1 with "memcgtop: bpf collector: the kernel's
#     BTF (/sys/kernel/btf/vmlinux) is empty" or "... is not valid BTF (cut
#     short or corrupt)";
#   - auto prints the tree with the files collector (exit 0, nothing on
#     stderr) and -VV says "collector: files (bpf: <the same reason>)";
#   - the reclaim events' loader (BPFEVDUMP, tests/bpf/bpfevdump.c) gives
#     the same reason.
# Usage (as root):  tests/live/btf.sh
#   MEMCGTOP   the binary to test (default: ./memcgtop of this checkout)
#   BPFEVDUMP  the events' test tool (default: build/default/bpfevdump)
#   CI=true    a host that cannot run the test is a failure, not a skip
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live unusable BTF"
. "$here/lib.sh"
live_tree_setup btf
BTF=/sys/kernel/btf/vmlinux
BPFEVDUMP=${BPFEVDUMP:-$top/build/default/bpfevdump}
[ -r "$BTF" ] || cannot_run "no $BTF"
command -v unshare >/dev/null 2>&1 || cannot_run "no unshare (util-linux)"
[ -x "$BPFEVDUMP" ] || { fail "no bpfevdump at $BPFEVDUMP"; summary; exit 1; }
T=$CGM/$TNAME
mkdir "$T" "$T/a" || { fail "cannot make $T/a"; summary; exit 1; }

: >"$TMPD/empty"
head -c 4096 "$BTF" >"$TMPD/cut"
cp "$BTF" "$TMPD/magic"
printf '\x00\x00' | dd of="$TMPD/magic" bs=1 seek=0 conv=notrunc status=none

# inside FILE CMD...: CMD with FILE in place of the kernel's BTF
inside() {
	local f=$1
	shift
	unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
		sh "$f" "$BTF" "$@"
}
for kind in empty cut magic; do
	if [ $kind = empty ]; then
		reason="the kernel's BTF ($BTF) is empty"
	else
		reason="the kernel's BTF ($BTF) is not valid BTF (cut short or corrupt)"
	fi
	inside "$TMPD/$kind" "$MEMCGTOP" -b -n 1 -F csv --collector bpf -c path,usage \
		"/$TNAME" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	got=$(cat "$TMPD/err")
	if [ $rc = 1 ] && [ "$got" = "memcgtop: bpf collector: $reason" ]; then
		pass "$kind BTF, bpf: exit 1, '$reason'"
	else
		fail "$kind BTF, bpf: exit $rc, '$got' (want 1, 'memcgtop: bpf collector: $reason')"
	fi
	inside "$TMPD/$kind" "$MEMCGTOP" -b -n 1 -F csv -c path,usage \
		"/$TNAME" >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	rows=$(grep -c "^[^,]*,1,/$TNAME" "$TMPD/out")
	if [ $rc = 0 ] && [ "$rows" = 2 ] && [ ! -s "$TMPD/err" ]; then
		pass "$kind BTF, auto: the files collector, both groups"
	else
		fail "$kind BTF, auto: exit $rc, $rows rows, stderr '$(cat "$TMPD/err")'"
	fi
	got=$(inside "$TMPD/$kind" "$MEMCGTOP" -VV "/$TNAME" 2>&1 | grep '^collector:')
	if [ "$got" = "collector: files (bpf: $reason)" ]; then
		pass "$kind BTF, -VV: '$got'"
	else
		fail "$kind BTF, -VV: '$got' (want 'collector: files (bpf: $reason)')"
	fi
	got=$(echo | inside "$TMPD/$kind" "$BPFEVDUMP" 2>&1 | tail -1)
	if [[ $got == "bpfevdump: btf: $reason" ]]; then
		pass "$kind BTF, the reclaim events: '$got'"
	else
		fail "$kind BTF, the reclaim events: '$got' (want 'bpfevdump: btf: $reason')"
	fi
done
# the real BTF, for contrast: bpf loads
"$MEMCGTOP" -b -n 1 -F csv --collector bpf -c path,usage "/$TNAME" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
if [ $rc = 0 ] && [ "$(grep -c "^[^,]*,1,/$TNAME" "$TMPD/out")" = 2 ]; then
	pass "the kernel's BTF: bpf loads"
else
	fail "the kernel's BTF: bpf exit $rc, '$(cat "$TMPD/err")'"
fi
live_tree_done
