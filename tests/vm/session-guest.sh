# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/session-guest.sh - the guest's side of tests/vm/session.sh
# (busybox sh, run by the VM's init with the cache folder at /mnt/host),
# after the lines that set C (the session's folder there) and IDLE.
#
# Takes the requests C/q/*.req in order (each names a suite's share),
# renames one .run, unpacks the share's bins.cpio at /, binds the share
# over /mnt/host and runs its guest.sh there as init would; the console
# gets "=== session: begin ID" and "=== session: end ID STATUS" around it
# (the host cuts the suite's console.log out of it), and the share gets
# guest.rc.  Then it puts the guest back as the boot left it: the suite's
# processes killed, its mounts, groups, binaries and /tmp files removed,
# the root's cgroup.subtree_control, lru_gen, transparent_hugepage,
# /etc/passwd and /etc/group restored, zram1..3 reset, the zram swap made
# anew, the page cache dropped.  Where that fails it powers off (the next
# suite boots a new guest).  It powers off too on C/quit or after IDLE
# seconds without a request.
set -u
M=/mnt/session
CG=/sys/fs/cgroup
K=/etc/session
up() { cut -d" " -f1 /proc/uptime; }
say() { echo "session: $(up) s: $*"; }
mkdir -p $M $K
mount -o bind /mnt/host $M || { say "cannot bind /mnt/host at $M"; exit 1; }
Q=$M/$C/q

# the state that the boot left
cp /etc/passwd /etc/group $K/
ls -A /tmp > $K/tmp
cut -d" " -f2 /proc/mounts > $K/mounts
cat $CG/cgroup.subtree_control > $K/subtree
cat /sys/kernel/mm/lru_gen/enabled > $K/lru_gen 2>/dev/null
sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled > $K/thp 2>/dev/null

# the processes that are not the kernel's, init or this shell
others() {
	local d p st pp
	for d in /proc/[0-9]*; do
		p=${d#/proc/}
		[ "$p" = 1 ] || [ "$p" = $$ ] && continue
		read -r st < $d/stat 2>/dev/null || continue
		# "PID (COMM) STATE PPID ...": no fork per process (slow under TCG)
		st=${st##*) }
		pp=${st#* }
		pp=${pp%% *}
		# the kernel's threads (children of kthreadd, 2) and zombies
		[ "$pp" != 0 ] && [ "$pp" != 2 ] && [ "${st%% *}" != Z ] || continue
		echo "$p"
	done
}

# kill_all: the suite's processes, in groups or not
kill_all() {
	local i f
	for i in 1 2 3 4 5 6 7 8 9 10; do
		for f in $CG/*/cgroup.kill; do
			[ -e "$f" ] && echo 1 > "$f" 2>/dev/null
		done
		others > $K/pids
		[ -s $K/pids ] || return 0
		kill -KILL $(cat $K/pids) 2>/dev/null
		sleep 0.2
	done
	say "processes left: $(cat $K/pids | tr '\n' ' ')"
	return 1
}

# unmount what the suite mounted, the last first
unmount_all() {
	local m
	for m in $(cut -d" " -f2 /proc/mounts | sed -n '1!G;h;$p'); do
		grep -qxF "$m" $K/mounts || umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
			{ say "cannot unmount $m"; return 1; }
	done
}

clean() {
	local i d c z
	# groups, the deepest first
	for i in $(seq 50); do
		find $CG -mindepth 1 -depth -type d | while IFS= read -r d; do
			rmdir "$d" 2>/dev/null
		done
		[ -z "$(find $CG -mindepth 1 -type d | head -n 1)" ] && break
		sleep 0.2
	done
	d=$(find $CG -mindepth 1 -type d | head -n 3 | tr '\n' ' ')
	[ -z "$d" ] || { say "groups left: $d"; return 1; }
	for c in $(cat $CG/cgroup.subtree_control); do
		echo "-$c" > $CG/cgroup.subtree_control
	done
	for c in $(cat $K/subtree); do
		echo "+$c" > $CG/cgroup.subtree_control
	done
	[ "$(cat $CG/cgroup.subtree_control)" = "$(cat $K/subtree)" ] || { say "cgroup.subtree_control not restored"; return 1; }
	[ -s $K/lru_gen ] && { echo "$(cat $K/lru_gen)" > /sys/kernel/mm/lru_gen/enabled || return 1; }
	[ -s $K/thp ] && echo "$(cat $K/thp)" > /sys/kernel/mm/transparent_hugepage/enabled
	cp $K/passwd $K/group /etc/
	for d in /tmp/* /tmp/.[!.]*; do
		[ -e "$d" ] || [ -L "$d" ] || continue
		grep -qxF "${d#/tmp/}" $K/tmp || rm -rf "$d"
	done
	# swap and the zram devices: as init made them
	swapoff -a 2>/dev/null
	for z in /sys/block/zram*; do
		[ -e $z/reset ] || continue
		echo 1 > $z/reset || { say "cannot reset ${z##*/}"; return 1; }
	done
	if [ -e /sys/block/zram0 ]; then
		echo 256M > /sys/block/zram0/disksize && mkswap /dev/zram0 >/dev/null && swapon /dev/zram0 ||
			{ say "zram swap setup failed"; return 1; }
	fi
	sync
	echo 3 > /proc/sys/vm/drop_caches
	echo 1 > /proc/sys/vm/compact_memory 2>/dev/null
	# the removed groups' memory cgroups, freed with their pages
	for i in $(seq 25); do
		grep -q '^nr_dying_descendants 0$' $CG/cgroup.stat && break
		sleep 0.2
	done
	say "clean ($(grep nr_dying_descendants $CG/cgroup.stat), $(awk '/^MemFree:/ { print $2 " kB free" }' /proc/meminfo))"
}

say "up"
echo "$(up)" > $M/$C/up
last=$(up)
while :; do
	r=
	for f in $Q/*.req; do
		[ -e "$f" ] && { r=$f; break; }
	done
	if [ -z "$r" ]; then
		[ -e $M/$C/quit ] && { say "asked to stop"; break; }
		awk -v a="$last" -v b="$(up)" -v t="$IDLE" 'BEGIN { exit !(b - a > t) }' &&
			{ say "no suite for $IDLE s"; break; }
		sleep 0.2
		continue
	fi
	id=${r##*/}
	id=${id%.req}
	S=$M/$(cat "$r")
	mv "$r" "$Q/$id.run" || continue
	echo "=== session: begin $id $(up) s"
	: > $K/bins
	if [ -f "$S/bins.cpio" ]; then
		# copied 1 MiB at a time: cpio's small reads cost a 9p round
		# trip each (seconds under a loaded host)
		dd if="$S/bins.cpio" of=$K/bins.cpio bs=1M 2>/dev/null || say "cannot copy $S/bins.cpio"
		(cd / && cpio -idmu < $K/bins.cpio 2>/dev/null) || say "cannot unpack $S/bins.cpio"
		# the archive's folders (0755) include /tmp for a tree below it
		chmod 1777 /tmp
		cpio -t < $K/bins.cpio > $K/bins 2>/dev/null
		rm -f $K/bins.cpio
		say "unpacked $(wc -l < $K/bins) files"
	fi
	[ -d /lib/terminfo ] && export TERMINFO_DIRS=/lib/terminfo:/usr/share/terminfo
	mount -o bind "$S" /mnt/host || say "cannot bind $S"
	cd /mnt/host
	sh /mnt/host/guest.sh
	rc=$?
	cd /
	ok=1
	say "guest.sh exited $rc"
	kill_all || ok=
	umount /mnt/host || { say "cannot unmount the share"; ok=; }
	unmount_all || ok=
	# one rm (a fork each is slow under TCG); the folders stay
	(cd / && tr '\n' '\0' < $K/bins | xargs -0 rm -f 2>/dev/null)
	say "the suite's processes, mounts and binaries removed"
	echo "=== session: end $id $rc $(up) s"
	echo "$rc" > "$S/guest.rc"
	[ -n "$ok" ] && clean || { say "cannot restore the guest: stopping"; rm -f "$Q/$id.run"; break; }
	rm -f "$Q/$id.run"
	last=$(up)
done
