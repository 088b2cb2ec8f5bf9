# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/guest-lib.sh - shell functions for a VM test's guest.sh (busybox
# sh in the guest), put at its top by the host script (tests/vm/bpf-v2.sh,
# tests/vm/reclaim-v2.sh) after the lines that set its variables.
#
#   fail MSG               GUEST-FAIL on the console, MSG in out/guest-fail
#   w FILE VALUE           echo VALUE > FILE, or fail
#   wait_for WHAT N CMD..  runs CMD every 0.1 s until it succeeds; fail
#                          after N tries
#   bracket NAME DIR CMD.. copies every file below DIR (cp -a, one process:
#                          a fork per file is slow under TCG) and the
#                          inode numbers of its directories, runs CMD with
#                          stdout in NAME.out, stderr in NAME.err and its
#                          status in NAME.rc, and copies the files again:
#                          whatever CMD read lies between the two copies.
#                          Any command fits (bpfdump, memcgtop -b -F json).
#   save_brackets          the brackets into out/br.tar (one file,
#                          written 1 MiB at a time: small writes over the
#                          9p share are slow)
set -u
H=/mnt/host
CG=/sys/fs/cgroup
PATH=$H/bin:$PATH
fail() { echo "GUEST-FAIL: $*"; echo "$*" > $H/out/guest-fail; exit 1; }
w() { echo "$2" > "$1" || fail "write $2 > $1"; }
wait_for() {
	local what=$1 n=$2 i=0
	shift 2
	echo "guest: $(cut -d" " -f1 /proc/uptime) s: waiting for $what"
	until "$@" 2>/dev/null; do
		i=$((i + 1))
		[ $i -le "$n" ] || fail "timed out waiting for $what"
		sleep 0.1
	done
}
snap() {
	mkdir -p "$2"
	cp -a "$1" "$2/" 2>/dev/null
	{ stat -c '%i %n' $CG; find "$1" -type d -exec stat -c '%i %n' {} +; } > "$2.ids"
}
bracket() {
	local name=$1 dir=$2
	shift 2
	echo "guest: $(cut -d" " -f1 /proc/uptime) s: bracket $name: $*"
	mkdir -p /tmp/br
	echo "$dir" > /tmp/br/$name.dir
	snap "$dir" /tmp/br/$name.before
	"$@" > /tmp/br/$name.out 2> /tmp/br/$name.err
	echo $? > /tmp/br/$name.rc
	snap "$dir" /tmp/br/$name.after
}
save_brackets() {
	echo "guest: $(cut -d" " -f1 /proc/uptime) s: saving the brackets"
	# 1 MiB writes: tar's 512-byte ones cost a 9p round trip each
	tar -cf /tmp/br.tar -C /tmp br && dd if=/tmp/br.tar of=$H/out/br.tar bs=1M 2>/dev/null ||
		fail "cannot archive the brackets into the share"
	rm -f /tmp/br.tar
	echo "guest: $(cut -d" " -f1 /proc/uptime) s: saved"
}
