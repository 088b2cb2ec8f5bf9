# tests/vm/lib.sh - what the VM tests share, sourced after they set NAME
# (e.g. "live v2"), HERE, ROOT and BUILD: the SKIP/FAIL conventions, the
# host tools (installed as root when missing), the kernel and initramfs
# (tests/vm/vm.sh prepare), and the memcgtop binary to run in the guest.
TAG=${NAME// /-}

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
	local missing= c prep
	command -v python3 >/dev/null 2>&1 || skip "python3 not found"
	command -v gcc >/dev/null 2>&1 || skip "gcc not found"
	for c in qemu-system-x86_64 busybox cpio xz timeout; do
		command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
	done
	if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "$TAG: installing qemu-system-x86 busybox-static cpio xz-utils (missing:$missing)" >&2
		{ DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			qemu-system-x86 busybox-static cpio xz-utils ||
		  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends qemu-system-x86 busybox-static cpio xz-utils; }; } \
			>"${TMPDIR:-/tmp}/$TAG-apt.log" 2>&1
		missing=
		for c in qemu-system-x86_64 busybox cpio xz timeout; do
			command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
		done
	fi
	[ -z "$missing" ] || skip "missing host tools:$missing (apt-get install qemu-system-x86 busybox-static cpio xz-utils)"
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
