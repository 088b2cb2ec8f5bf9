#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/smoke.sh - boot the test VM and check that it has a cgroup v2
# hierarchy with the memory controller.  Prints PASS/FAIL; exit 0 on PASS.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${VM_BUILD:-$ROOT/build/vm}

"$HERE/vm.sh" prepare
share=$BUILD/smoke-share
rm -rf "$share"
mkdir -p "$share"
cat > "$share/guest.sh" <<'EOF'
set -u
cg=/sys/fs/cgroup
fail() { echo "GUEST-FAIL: $*"; exit 1; }
echo "controllers: $(cat $cg/cgroup.controllers)"
grep -qw memory $cg/cgroup.controllers || fail "memory not in $cg/cgroup.controllers"
echo +memory > $cg/cgroup.subtree_control || fail "cannot enable +memory at the root"
mkdir -p $cg/smoke/child
echo +memory > $cg/smoke/cgroup.subtree_control || fail "cannot enable +memory in smoke"
[ -r $cg/smoke/child/memory.current ] || fail "no memory.current in a child group"
echo "child memory.current: $(cat $cg/smoke/child/memory.current)"
grep -q zram0 /proc/swaps || fail "no zram swap"
echo "GUEST-OK"
EOF
set +e
"$HERE/vm.sh" run "$share" "${1:-120}"
rc=$?
set -e
if [ "$rc" = 0 ] && grep -q GUEST-OK "$share/console.log"; then
	echo "PASS: vm boots with cgroup v2 memory"
	exit 0
fi
why=$(grep -m1 -e GUEST-FAIL -e 'vm.sh: FAIL' "$share/console.log" 2>/dev/null || true)
echo "FAIL: vm smoke test (status $rc) ${why:-see $share/console.log}"
exit 1
