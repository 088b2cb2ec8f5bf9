# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/lib.sh - what the VM tests share, sourced after they set NAME
# (e.g. "live v2") and HERE (tests/vm): ROOT, the kernel (VM_KERNEL, 6.1
# by default, or 7) and its cache folder BUILD (VM_BUILD, as
# tests/vm/vm.sh has it), the SKIP/FAIL conventions, the host tools
# (installed as root when missing), the kernel and initramfs
# (tests/vm/vm.sh prepare), the memcgtop binary to run in the guest, the
# share and the guest's run (in a session: tests/vm/session.sh).
TAG=${NAME// /-}
ROOT=$(cd "$HERE/../.." && pwd)
export VM_KERNEL=${VM_KERNEL:-6.1}
BUILD=$("$HERE/vm.sh" dir) || exit 2
export VM_BUILD=$BUILD

# An unusable environment: SKIP, but a failure on CI.
skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: $NAME: environment not usable on CI: $*"
		echo "$TAG: 0 passed, 1 failed"
		exit 1
	fi
	echo "SKIP: $NAME: $*"
	exit 77
}

fail_early() {
	echo "FAIL: $NAME: $*"
	echo "$TAG: 0 passed, 1 failed"
	exit 1
}

# The host's tools, the kernel and the initramfs (the kernel .deb is
# downloaded once and cached in $BUILD).
vm_host_ready() {
	local missing= c prep tools="qemu-system-x86_64 busybox cpio xz timeout"
	local debs="qemu-system-x86 busybox-static cpio xz-utils"
	command -v python3 >/dev/null 2>&1 || skip "python3 not found"
	command -v gcc >/dev/null 2>&1 || skip "gcc not found"
	# Debian's 7.x kernels compress the image and modules with zstd
	case ${VM_KERNEL:-6.1} in 7*) tools="$tools zstd" debs="$debs zstd" ;; esac
	for c in $tools; do
		command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "$TAG: installing $debs (missing:$missing)" >&2
		{ DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			$debs ||
		  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends $debs; }; } \
			>"${TMPDIR:-/tmp}/$TAG-apt.log" 2>&1
		missing=
		for c in $tools; do
			command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
		done
	fi
	[ -z "$missing" ] || skip "missing host tools:$missing (apt-get install $debs)"
	mkdir -p "$BUILD" 2>/dev/null || skip "cannot create $BUILD"
	if ! prep=$("$HERE/vm.sh" prepare 2>&1); then
		skip "vm.sh prepare failed: $(printf '%s\n' "$prep" | tail -n 1)"
	fi
}

# $bin: $MEMCGTOP, or the repository's ./memcgtop made up to date.
vm_binary() {
	if [ -n "${MEMCGTOP:-}" ]; then
		bin=$MEMCGTOP
		case $bin in /*) ;; *) bin=$ROOT/$bin ;; esac
	else
		make -C "$ROOT" -s memcgtop >&2 || fail_early "make memcgtop failed"
		bin=$ROOT/memcgtop
	fi
	[ -x "$bin" ] || fail_early "memcgtop binary $bin not found or not executable"
	bin=$(readlink -f "$bin")
}

# vm_tool VAR TOOL: sets VAR to the path of a test tool: $VAR if set, else
# build/default/TOOL, made (again) so that it embeds the objects of this
# tree.
vm_tool() {
	local path=${!1:-$ROOT/build/default/$2}

	case $path in /*) ;; *) path=$ROOT/$path ;; esac
	if [ "$path" = "$ROOT/build/default/$2" ]; then
		make -C "$ROOT" -s "build/default/$2" >&2 || fail_early "make build/default/$2 failed"
	fi
	[ -x "$path" ] || fail_early "no $2 at $path"
	printf -v "$1" '%s' "$(readlink -f "$path")"
}

# vm_share NAME: $share, an empty $BUILD/NAME-share with out/ and a static
# memload in bin/ (tests/load/memload.c).
vm_share() {
	share=$BUILD/$1-share
	rm -rf "$share"
	mkdir -p "$share/bin" "$share/out"
	gcc -O2 -static -o "$share/bin/memload" "$ROOT/tests/load/memload.c" 2>"$share/gcc.log" ||
		skip "cannot build a static memload (static libc missing?): $(head -n 1 "$share/gcc.log")"
}

# vm_guest_run SHARE TIMEOUT [EXTRA_BINS]: runs SHARE/guest.sh in the VM
# with $bin and EXTRA_BINS: in the guest of the session VM_SESSION (the
# owner's pid; tests/run-all.sh gives its own, by default this script's:
# tests/vm/session.sh), or, with VM_SESSION=off, in a VM of its own
# (tests/vm/vm.sh run).  Sets vmsecs: the guest's run time (guest.sh's in
# a session, qemu's start to exit without one).  A VM that fails, times
# out or whose guest.sh never printed GUEST-OK is one FAIL line with the
# guest's reason, the console's tail and vm.sh's messages, then "$TAG: 0
# passed, 1 failed" and exit 1; the share is left for inspection.
vm_guest_run() {
	local share=$1 tmo=$2 tv rc why run=session.sh
	tv=$(date +%s.%N)
	[ "${VM_SESSION:-}" != off ] || run=vm.sh
	VM_BINS="$bin${3:+ $3}" VM_SESSION=${VM_SESSION:-$$} "$HERE/$run" run "$share" "$tmo" 2> "$share/vm.err"
	rc=$?
	# A kernel that panicked while it booted, before the guest's script
	# ran (7.3 under TCG: an int3 oops as it patched its text, in one CI
	# run twice running, vm.sh's own boot again too) is booted once
	# more; what the suite checks had not begun.
	if [ "$rc" = 125 ] && grep -q 'Kernel panic' "$share/console.log" 2>/dev/null &&
	   ! grep -q '^init: running ' "$share/console.log" 2>/dev/null; then
		echo "INFO: $NAME: the guest's kernel panicked while booting: booted again" >&2
		cp "$share/console.log" "$share/console.panic.log" 2>/dev/null
		VM_BINS="$bin${3:+ $3}" VM_SESSION=${VM_SESSION:-$$} "$HERE/$run" run "$share" "$tmo" 2> "$share/vm.err"
		rc=$?
	fi
	# the guest's own run time when vm.sh or session.sh tells it, else the
	# host's wall time
	vmsecs=$(sed -n 's/.*\(qemu\|guest\) ran \([0-9.]*\) s.*/\2/p' "$share/vm.err")
	[ -n "$vmsecs" ] ||
		vmsecs=$(awk -v a="$tv" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	if [ "$rc" != 0 ] || ! grep -q GUEST-OK "$share/console.log" 2>/dev/null; then
		why=$(cat "$share/out/guest-fail" 2>/dev/null || echo "see $share/console.log")
		case $rc in
		124) why="VM timed out after $tmo s: $why" ;;
		125) why="VM did not boot or guest.sh never finished: $why" ;;
		esac
		echo "FAIL: $NAME: guest status $rc: $why"
		tail -n 20 "$share/console.log" 2>/dev/null | tr -d '\r\033' | sed -e 's/^/  console: /' -e '$a\'
		sed 's/^/  vm.sh: /' "$share/vm.err" 2>/dev/null
		echo "$TAG: 0 passed, 1 failed"
		echo "$TAG: output kept in $share" >&2
		exit 1
	fi
	echo "VM step: $vmsecs s ($(grep -o -e 'qemu ran.*' -e 'guest ran.*' "$share/vm.err"))"
}
