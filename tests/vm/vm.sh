#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/vm.sh - boot Debian's 6.1 kernel (or a Debian 7.x one) under
# qemu (TCG) with a pure cgroup v2 hierarchy, run a script from a host
# folder, and return its status.
#
#   tests/vm/vm.sh prepare                 download + unpack the kernel, build
#                                          the initramfs (idempotent, cached
#                                          under build/vm/, build/vm7/)
#   tests/vm/vm.sh run SHARE_DIR [SECS]    boot; the guest runs
#                                          SHARE_DIR/guest.sh with sh (cwd =
#                                          /mnt/host = SHARE_DIR); exit status
#                                          = guest.sh's; killed after SECS
#                                          (default 300)
#   tests/vm/vm.sh archive OUT             the VM_BINS archive (below) into
#                                          OUT, for a guest already up
#                                          (tests/vm/session.sh)
#   tests/vm/vm.sh clean                   remove build/vm (build/vm7)
#
# Environment:
#   VM_KERNEL        6.1 (default): Debian 12's kernel, the one that
#                    linux-image-amd64 depends on, cached in build/vm;
#                    7: the newest Debian 7.x amd64 kernel in the sid and
#                    trixie-backports suites (linux-binary-KVER and
#                    linux-modules-KVER, fetched with a private apt
#                    configuration under the cache folder; the host's apt
#                    sources are not touched), cached in build/vm7;
#                    7.X.Y+debN: that one (also cached in build/vm7)
#   VM_BINS="b1 b2"  host binaries (dynamically linked) that must run in the
#                    guest: the binaries, every library ldd lists, the loader
#                    and a few terminfo entries go into an extra initramfs
#                    archive, at the same absolute paths as on the host.
#                    Also /usr/lib/locale/C.utf8 (use LC_ALL=C.UTF-8 in
#                    guest.sh for programs that want UTF-8).
#   VM_BUILD         cache folder (default: REPO/build/vm, for 7.x
#                    REPO/build/vm7); a folder holds one kernel
#   VM_MEM, VM_SMP   guest RAM (512M) and CPUs (2)
#   VM_APPEND        extra kernel command line
#   VM_QEMU_ARGS     extra qemu options, split at blanks (two NUMA nodes:
#                    tests/vm/numa-v2.sh)
#   VM_VERBOSE=1     tail the serial console while the VM runs
#   VM_GUEST         the guest's script, relative to SHARE_DIR (default
#                    guest.sh); its folder gets console.log, qemu.log,
#                    qemu.pid and guest.rc
#
# The guest's console (kernel + guest.sh output) goes to SHARE_DIR/console.log.
set -eu

ME=vm.sh
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
KERNEL=${VM_KERNEL:-6.1}
case $KERNEL in
6.1) BUILD=${VM_BUILD:-$ROOT/build/vm} ;;
7 | 7.*) BUILD=${VM_BUILD:-$ROOT/build/vm7} ;;
*) echo "vm.sh: VM_KERNEL=$KERNEL: not 6.1, 7 or 7.X.Y+debN" >&2; exit 2 ;;
esac
# What the guest loads, in this order, where the kernel has it as a module
# (7.x builds virtio, fscache and zsmalloc in); dependencies go first.
MODULES="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p zsmalloc zram"

die() { echo "$ME: $*" >&2; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

need() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || die "missing host tool: $c (apt-get install -y qemu-system-x86 busybox-static cpio xz-utils)"
	done
}

# ---------------------------------------------------------------- prepare --

kernel_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-6\.1\.0-[0-9]*-amd64\)$/\1/p' | head -n1
}

# unpack_bzimage BZIMAGE OUT: the ELF kernel inside a bzImage (qemu boots
# it directly through its PVH note, which saves the guest's slow
# decompression under TCG).  The payload is where the setup header says
# (payload_offset at 0x248 and payload_length at 0x24c, from the end of
# the (setup_sects + 1) * 512-byte setup); xz (6.1) or zstd (7.x).
unpack_bzimage() {
	local img=$1 out=$2 ss off len magic
	ss=$(od -An -tu1 -j $((0x1f1)) -N1 "$img" | tr -d ' ')
	[ "$ss" != 0 ] || ss=4
	read -r off len < <(od -An -tu4 -j $((0x248)) -N8 "$img")
	[ -n "$len" ] && [ "$len" -gt 0 ] || die "$img: no payload in the setup header"
	off=$(((ss + 1) * 512 + off))
	magic=$(tail -c +$((off + 1)) "$img" | head -c 6 | od -An -tx1 | tr -d ' \n')
	case $magic in
	fd377a585a00) tail -c +$((off + 1)) "$img" | head -c "$len" | xz -dc --single-stream > "$out" 2>/dev/null || true ;;
	28b52ffd*)
		need zstd
		# the payload ends with the 4-byte size, which zstd calls garbage
		tail -c +$((off + 1)) "$img" | head -c "$len" | zstd -dcq > "$out" 2>/dev/null || true ;;
	*) die "$img: payload of unknown compression (magic $magic)" ;;
	esac
	[ "$(head -c 4 "$out" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ] ||
		die "decompressed kernel is not an ELF file"
}

# The modules of $MODULES that MODDIR has, and what they depend on (their
# depends= field), uncompressed into $BUILD/modules (busybox's insmod takes
# plain .ko files), and their load order in $BUILD/modules/order.  A name
# without a file is built into the kernel.
extract_modules() {
	local moddir=$1 m
	[ -d "$moddir" ] || die "no module folder $moddir"
	order=
	rm -rf "$BUILD/modules"
	mkdir -p "$BUILD/modules"
	for m in $MODULES; do
		add_module "$moddir" "$m" 0
	done
	echo $order > "$BUILD/modules/order"
}

add_module() {
	local moddir=$1 m=$2 depth=$3 f d
	case " $order " in *" $m "*) return 0 ;; esac
	[ "$depth" -lt 16 ] || die "module dependencies too deep at $m"
	f=$(find "$moddir" \( -name "$m.ko" -o -name "$m.ko.*" -o -name "${m//_/-}.ko" -o -name "${m//_/-}.ko.*" \) | head -n1)
	[ -n "$f" ] || return 0
	case $f in
	*.ko) cp "$f" "$BUILD/modules/$m.ko" ;;
	*.xz) xz -dc "$f" > "$BUILD/modules/$m.ko" ;;
	*.zst) need zstd; zstd -dcq "$f" > "$BUILD/modules/$m.ko" ;;
	*.gz) gzip -dc "$f" > "$BUILD/modules/$m.ko" ;;
	*) die "$f: unknown module compression" ;;
	esac
	for d in $(tr '\0' '\n' < "$BUILD/modules/$m.ko" | sed -n 's/^depends=//p' | head -n1 | tr ',' ' '); do
		add_module "$moddir" "$d" $((depth + 1))
	done
	order="$order $m"
}

get_kernel() {
	[ -s "$BUILD/vmlinux" ] && [ -s "$BUILD/kernel.version" ] && [ -d "$BUILD/modules" ] && return 0
	case $KERNEL in
	6.1) get_kernel_61 ;;
	*) get_kernel_7 ;;
	esac
}

get_kernel_61() {
	need apt-get apt-cache dpkg-deb xz grep
	mkdir -p "$BUILD/deb"
	deb=$(ls "$BUILD"/deb/linux-image-6.1.0-*-amd64_*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$deb" ]; then
		pkg=$(kernel_pkg)
		if [ -z "$pkg" ]; then
			apt-get update -qq || true
			pkg=$(kernel_pkg)
		fi
		[ -n "$pkg" ] || die "cannot find the linux-image-6.1.0-*-amd64 package that linux-image-amd64 depends on"
		echo "$ME: downloading $pkg"
		# apt-get download as root warns that _apt cannot write here; harmless
		(cd "$BUILD/deb" && apt-get download -q "$pkg" 2>&1 | grep -v -e '^W: Download is performed unsandboxed' -e '^$' || true)
		deb=$(ls "$BUILD"/deb/"$pkg"_*.deb 2>/dev/null | head -n1 || true)
		[ -n "$deb" ] || die "apt-get download $pkg failed"
	fi
	echo "$ME: unpacking $(basename "$deb")"
	rm -rf "$BUILD/kroot" "$BUILD/modules"
	dpkg-deb -x "$deb" "$BUILD/kroot"
	vmlinuz=$(ls "$BUILD"/kroot/boot/vmlinuz-* | head -n1)
	kver=${vmlinuz##*/vmlinuz-}
	unpack_bzimage "$vmlinuz" "$BUILD/vmlinux.tmp"
	extract_modules "$BUILD/kroot/lib/modules/$kver"
	mv "$BUILD/vmlinux.tmp" "$BUILD/vmlinux"
	echo "$kver" > "$BUILD/kernel.version"
	rm -rf "$BUILD/kroot"   # keep the .deb, the ELF kernel and the modules
}

# apt-get/apt-cache with a private configuration: Debian's sid and
# trixie-backports suites, lists and downloads under $BUILD/apt.  The
# host's own sources, lists and cache are not used or changed.
apt7() {
	local cmd=$1
	shift
	"$cmd" -o Dir::Etc::sourcelist="$BUILD/apt/sources.list" \
		-o Dir::Etc::sourceparts=/dev/null \
		-o Dir::State::Lists="$BUILD/apt/lists" \
		-o Dir::Cache="$BUILD/apt/cache" \
		-o APT::Sandbox::User=root "$@"
}

# The newest linux-binary-7.*-amd64 (generic flavour: cloud has no 9p)
# whose modules package is there too, or the one VM_KERNEL names.
kernel7_version() {
	local names v
	case $KERNEL in 7.*) echo "$KERNEL-amd64"; return 0 ;; esac
	names=$(apt7 apt-cache pkgnames linux- 2>/dev/null)
	for v in $(printf '%s\n' "$names" |
		sed -n 's/^linux-binary-\(7\.[0-9]*\.[0-9]*+deb[0-9]*-amd64\)$/\1/p' | sort -rV); do
		if printf '%s\n' "$names" | grep -qxF "linux-modules-$v"; then
			echo "$v"
			return 0
		fi
	done
}

get_kernel_7() {
	local kver deb mdeb kb moddir d
	need apt-get apt-cache dpkg-deb xz grep od
	[ -r /usr/share/keyrings/debian-archive-keyring.gpg ] ||
		die "no /usr/share/keyrings/debian-archive-keyring.gpg (apt-get install debian-archive-keyring)"
	mkdir -p "$BUILD/apt/lists/partial" "$BUILD/apt/cache/archives/partial" "$BUILD/deb"
	cat > "$BUILD/apt/sources.list" <<EOF
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie-backports main
EOF
	echo "$ME: reading the sid and trixie-backports package lists (private apt configuration)"
	apt7 apt-get update -qq > "$BUILD/apt/update.log" 2>&1 ||
		die "apt-get update of sid and trixie-backports failed: $(tail -n 1 "$BUILD/apt/update.log")"
	kver=$(kernel7_version)
	[ -n "$kver" ] || die "no linux-binary-7.*-amd64 with its linux-modules package in sid or trixie-backports"
	echo "$ME: downloading linux-binary-$kver and linux-modules-$kver"
	rm -f "$BUILD"/deb/*.deb
	(cd "$BUILD/deb" && apt7 apt-get download -q "linux-binary-$kver" "linux-modules-$kver") \
		> "$BUILD/apt/download.log" 2>&1 ||
		die "apt-get download linux-binary-$kver linux-modules-$kver failed: $(tail -n 1 "$BUILD/apt/download.log")"
	deb=$(ls "$BUILD"/deb/linux-binary-"$kver"_*.deb 2>/dev/null | head -n1 || true)
	mdeb=$(ls "$BUILD"/deb/linux-modules-"$kver"_*.deb 2>/dev/null | head -n1 || true)
	[ -n "$deb" ] && [ -n "$mdeb" ] || die "apt-get download left no .deb for $kver"
	kb=$(du -kc "$deb" "$mdeb" | tail -n1 | cut -f1)
	echo "$ME: unpacking $(basename "$deb") and $(basename "$mdeb") ($((kb / 1024)) MiB)"
	rm -rf "$BUILD/kroot"
	dpkg-deb -x "$deb" "$BUILD/kroot"
	dpkg-deb -x "$mdeb" "$BUILD/kroot"
	vmlinuz=$(ls "$BUILD/kroot/usr/lib/modules/$kver/vmlinuz" "$BUILD/kroot/boot/vmlinuz-$kver" 2>/dev/null | head -n1)
	[ -n "$vmlinuz" ] || die "no vmlinuz in linux-binary-$kver"
	unpack_bzimage "$vmlinuz" "$BUILD/vmlinux.tmp"
	moddir=
	for d in "$BUILD/kroot/usr/lib/modules/$kver" "$BUILD/kroot/lib/modules/$kver"; do
		[ -d "$d/kernel" ] && moddir=$d
	done
	[ -n "$moddir" ] || die "no modules for $kver in linux-modules-$kver"
	extract_modules "$moddir"
	mv "$BUILD/vmlinux.tmp" "$BUILD/vmlinux"
	echo "$kver" > "$BUILD/kernel.version"
	echo "$(basename "$deb") $(basename "$mdeb") $kb KiB" > "$BUILD/kernel.debs"
	# keep the ELF kernel and the few modules: the modules .deb is ~100 MB
	rm -rf "$BUILD/kroot" "$BUILD/deb" "$BUILD/apt"
}

write_init() {
	cat > "$1" <<'EOF'
#!/bin/busybox sh
# PID 1 of the memcgtop test VM (generated by tests/vm/vm.sh)
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mkdir -p /proc /sys /dev /tmp /mnt/host
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# /tmp stays on the initramfs' own writable root: a tmpfs mounted there
# would hide the VM_BINS binaries of a tree checked out below /tmp.
chmod 1777 /tmp
mount -t cgroup2 -o nsdelegate,memory_recursiveprot cgroup2 /sys/fs/cgroup
for m in $(cat /lib/modules/order); do
	case $m in
	zram) insmod /lib/modules/zram.ko num_devices=4 || echo "init: insmod zram failed" ;;
	*) insmod /lib/modules/$m.ko || echo "init: insmod $m failed" ;;
	esac
done
off() {
	sync
	poweroff -f
	sleep 2
	echo o > /proc/sysrq-trigger
	sleep 10
}
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=none host0 /mnt/host; then
	echo "init: cannot mount the 9p share host0"
	off
fi
if [ -e /sys/block/zram0 ]; then
	echo 256M > /sys/block/zram0/disksize && mkswap /dev/zram0 >/dev/null && swapon /dev/zram0 ||
		echo "init: zram swap setup failed"
fi
echo madvise > /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null
echo 1 > /proc/sys/kernel/sysrq 2>/dev/null
[ -d /lib/terminfo ] && export TERMINFO_DIRS=/lib/terminfo:/usr/share/terminfo
export HOME=/tmp TERM=${TERM:-linux} VM_SHARE=/mnt/host
# vmguest= on the kernel's command line (VM_GUEST) names another script
g=${vmguest:-guest.sh}
echo "init: running $g"
cd /mnt/host
sh "/mnt/host/$g"
rc=$?
case $g in */*) d=/mnt/host/${g%/*} ;; *) d=/mnt/host ;; esac
echo "$rc" > "$d/guest.rc"
echo "init: guest.sh exited $rc"
cd /
umount /mnt/host 2>/dev/null
off
EOF
	chmod 755 "$1"
}

build_initramfs() {
	out=$BUILD/initramfs.cpio
	sum=$( (cat "$0"; ls -l /bin/busybox "$BUILD/vmlinux" "$BUILD/modules") | md5sum | cut -c1-32)
	if [ -s "$out" ] && [ "$(cat "$BUILD/initramfs.sum" 2>/dev/null)" = "$sum" ]; then
		return 0
	fi
	need busybox cpio
	[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 ||
		die "a static /bin/busybox is needed (apt-get install -y busybox-static)"
	echo "$ME: building initramfs"
	d=$BUILD/initramfs.d
	rm -rf "$d"
	mkdir -p "$d/bin" "$d/sbin" "$d/usr/bin" "$d/usr/sbin" "$d/lib/modules" \
		"$d/proc" "$d/sys" "$d/dev" "$d/tmp" "$d/mnt/host" "$d/etc" "$d/root"
	cp /bin/busybox "$d/bin/busybox"
	cp "$BUILD"/modules/*.ko "$d/lib/modules/"
	# a cache from before the order file: $MODULES, all modules then
	if [ -f "$BUILD/modules/order" ]; then
		cp "$BUILD/modules/order" "$d/lib/modules/order"
	else
		echo $MODULES > "$d/lib/modules/order"
	fi
	write_init "$d/init"
	echo "root:x:0:0:root:/root:/bin/sh" > "$d/etc/passwd"
	echo "root:x:0:" > "$d/etc/group"
	(cd "$d" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out.tmp"
	mv "$out.tmp" "$out"
	echo "$sum" > "$BUILD/initramfs.sum"
	rm -rf "$d"
}

prepare() {
	t0=$(now)
	mkdir -p "$BUILD"
	need qemu-system-x86_64 busybox cpio xz
	get_kernel
	build_initramfs
	echo "$ME: prepare done in $(elapsed "$t0") s (kernel $(cat "$BUILD/kernel.version"))"
}

# ------------------------------------------------------------ VM_BINS ------

# Extra newc archive with the VM_BINS binaries and their shared libraries at
# their host paths.  The kernel unpacks concatenated archives in order.
extra_archive() {
	out=$1
	d=$(mktemp -d "$BUILD/extra.XXXXXX")
	for b in $VM_BINS; do
		case $b in */*) p=$b ;; *) p=$(command -v "$b" || true) ;; esac
		[ -n "$p" ] && [ -f "$p" ] || die "VM_BINS: $b not found"
		p=$(readlink -f "$p")
		mkdir -p "$d$(dirname "$p")"
		cp -L "$p" "$d$p"
		# "libx.so => /path (0x...)" and "/lib64/ld-linux-x86-64.so.2 (0x...)"
		for lib in $(ldd "$p" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			mkdir -p "$d$(dirname "$lib")"
			cp -L "$lib" "$d$lib"
			# also the fully resolved name, for the loader's search path
			real=$(readlink -f "$lib")
			if [ "$real" != "$lib" ]; then
				mkdir -p "$d$(dirname "$real")"
				cp -L "$lib" "$d$real"
			fi
		done
	done
	# ncurses programs need a terminal description
	for t in l/linux v/vt100 v/vt220 x/xterm x/xterm-256color d/dumb s/screen s/screen-256color t/tmux t/tmux-256color; do
		for tdir in /lib/terminfo /usr/share/terminfo; do
			if [ -f "$tdir/$t" ]; then
				mkdir -p "$d/lib/terminfo/${t%%/*}"
				cp -L "$tdir/$t" "$d/lib/terminfo/$t"
				break
			fi
		done
	done
	# the C.UTF-8 locale (glibc), for programs that need a UTF-8 LC_CTYPE;
	# guest scripts opt in with LC_ALL=C.UTF-8
	if [ -d /usr/lib/locale/C.utf8 ]; then
		mkdir -p "$d/usr/lib/locale"
		cp -a /usr/lib/locale/C.utf8 "$d/usr/lib/locale/"
	fi
	(cd "$d" && find . ! -name . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out"
	rm -rf "$d"
}

# -------------------------------------------------------------------- run --

run() {
	[ $# -ge 1 ] || die "usage: vm.sh run SHARE_DIR [TIMEOUT_SECS]"
	share=$(cd "$1" && pwd) || die "no such folder: $1"
	tmo=${2:-300}
	guest=${VM_GUEST:-guest.sh}
	[ -f "$share/$guest" ] || die "$share/$guest does not exist"
	case $guest in */*) rundir=$share/${guest%/*} ;; *) rundir=$share ;; esac
	[ -s "$BUILD/vmlinux" ] && [ -s "$BUILD/initramfs.cpio" ] || prepare
	build_initramfs
	need qemu-system-x86_64 timeout
	initrd=$BUILD/initramfs.cpio
	tmpinitrd=
	if [ -n "${VM_BINS:-}" ]; then
		tmpinitrd=$(mktemp "$BUILD/initrd-run.XXXXXX")
		extra_archive "$tmpinitrd.extra"
		cat "$BUILD/initramfs.cpio" "$tmpinitrd.extra" > "$tmpinitrd"
		rm -f "$tmpinitrd.extra"
		initrd=$tmpinitrd
	fi
	rm -f "$rundir/guest.rc" "$rundir/console.log"
	: > "$rundir/console.log"
	tailpid=
	if [ "${VM_VERBOSE:-0}" = 1 ]; then
		tail -n +1 -f "$rundir/console.log" &
		tailpid=$!
	fi
	t0=$(now)
	boot=1
	while :; do
		set +e
		# in the background, so that qemu.pid names the timeout that
		# runs qemu (its TERM stops qemu: tests/vm/session.sh); the
		# guest's memory is taken at once, so that a running guest
		# charges no more host memory (exclusive host suites measure
		# beside it: tests/run-all.sh)
		timeout -k 5 "$tmo" qemu-system-x86_64 \
			-accel tcg,thread=multi -cpu max -m "${VM_MEM:-512M}" -smp "${VM_SMP:-2}" \
			-mem-prealloc \
			-nographic -nodefaults -no-reboot \
			-serial "file:$rundir/console.log" \
			-kernel "$BUILD/vmlinux" -initrd "$initrd" \
			-append "console=ttyS0 panic=-1 quiet loglevel=4 mitigations=off ${VM_GUEST:+vmguest=$VM_GUEST }${VM_APPEND:-}" \
			-virtfs "local,path=$share,mount_tag=host0,security_model=none,id=host0" \
			${VM_QEMU_ARGS:-} \
			</dev/null > "$rundir/qemu.log" 2>&1 &
		echo $! > "$rundir/qemu.pid"
		wait $!
		qrc=$?
		set -e
		# A kernel that panicked before init ran guest.sh (seen in CI
		# with Debian's 7.x kernel under TCG: an int3 oops in early text
		# patching) has not run the test: boot it once more.
		if [ "$boot" = 1 ] && [ ! -s "$rundir/guest.rc" ] &&
		   ! grep -q '^init: running ' "$rundir/console.log" &&
		   grep -q 'Kernel panic' "$rundir/console.log"; then
			echo "$ME: the kernel panicked before $guest ran (qemu status $qrc); booting again:" >&2
			grep -m 3 -E 'Oops|RIP:|Kernel panic' "$rundir/console.log" >&2 || true
			mv -f "$rundir/console.log" "$rundir/console.boot1.log"
			: > "$rundir/console.log"
			boot=2
			continue
		fi
		break
	done
	secs=$(elapsed "$t0")
	if [ -n "$tailpid" ]; then
		sleep 0.2
		kill "$tailpid" 2>/dev/null || true
		wait "$tailpid" 2>/dev/null || true
	fi
	[ -z "$tmpinitrd" ] || rm -f "$tmpinitrd"
	echo "$ME: qemu ran ${secs} s (start to exit)" >&2
	if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		echo "$ME: FAIL: VM killed after the ${tmo} s timeout; see $rundir/console.log" >&2
		tail -n 15 "$rundir/console.log" >&2 || true
		exit 124
	fi
	if [ ! -s "$rundir/guest.rc" ]; then
		echo "$ME: FAIL: the VM did not boot or $guest never finished (no guest.rc, qemu status $qrc); see $rundir/console.log" >&2
		tail -n 15 "$rundir/console.log" >&2 || true
		cat "$rundir/qemu.log" >&2 || true
		exit 125
	fi
	rc=$(tr -dc '0-9' < "$rundir/guest.rc")
	[ -n "$rc" ] || rc=125
	return "$rc"
}

case ${1:-} in
prepare) prepare ;;
run) shift; run "$@" ;;
archive) [ $# = 2 ] || die "usage: vm.sh archive OUT"; extra_archive "$2" ;;
dir) echo "$BUILD" ;;
clean) rm -rf "$BUILD" ;;
*) echo "usage: $0 prepare | run SHARE_DIR [TIMEOUT_SECS] | archive OUT | dir | clean" >&2; exit 2 ;;
esac
