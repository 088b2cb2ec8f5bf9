#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make-edge.sh - write the hand-made edge-case fixtures.
#
# Usage: tests/capture/make-edge.sh OUTDIR [NAME...]
#   Writes OUTDIR/NAME/cg/{0,1[,2],timestamps} and OUTDIR/NAME/proc/{...}
#   for each NAME (default: all of them), replacing what was there.
#   NAME is one of: edge-vanish edge-reset edge-unlimited edge-names
#   edge-broken edge-v2.
#
# The output is deterministic: same bytes on every run, no clock, no host
# state.  The committed copies under tests/fixtures/ were made with
#   tests/capture/make-edge.sh tests/fixtures edge-vanish edge-reset \
#       edge-unlimited edge-broken edge-v2
# edge-names holds group names git cannot carry portably (newline, ESC,
# backslash, double quote), so tests generate it into a temporary directory:
#   tests/capture/make-edge.sh "$tmpdir" edge-names
#
# Numbers are round so that expected values can be computed by hand; see
# tests/fixtures/README.md for the values each fixture is meant to produce.
# Timestamps: sample k is at MONO 100+2k, WALL 1796000000+2k, so dt = 2 s.
set -eu
export LC_ALL=C
umask 022

ALL=(edge-vanish edge-reset edge-unlimited edge-names edge-broken edge-v2)
MiB=1048576
UNL=9223372036854771712   # v1 "unlimited": PAGE_COUNTER_MAX * 4096

die() { echo "make-edge: $*" >&2; exit 1; }

# put FILE LINE...: write the lines, each with a trailing newline.
put() {
	local f=$1
	shift
	printf '%s\n' "$@" >"$f"
}

timestamps() {  # timestamps FILE NSAMPLES
	local k
	: >"$1"
	for ((k = 0; k < $2; k++)); do
		printf '%d.000000000 %d\n' $((100 + 2 * k)) $((1796000000 + 2 * k)) >>"$1"
	done
}

# --- v1 group --------------------------------------------------------------
# v1grp DIR KEY=VALUE...: a v1 memory group with the file set of a 6.18
# group (minus the unreadable files and memory.kmem.slabinfo).  Keys:
#   usage limit soft swappiness failcnt oom_kill under_oom kmem swap
#   memsw_limit max_usage hier_limit hier_memsw_limit procs (comma list)
#   and any memory.stat counter (rss, cache, pgfault, ...) for the group's
#   own value; total_<counter> for the hierarchical value (default: the
#   group's own, as for a leaf).
# memory.memsw.usage_in_bytes = usage + swap, as the kernel counts it.
V1_STAT=(cache rss rss_huge shmem mapped_file dirty writeback
	workingset_refault_anon workingset_refault_file swap swapcached
	pgpgin pgpgout pgfault pgmajfault inactive_anon active_anon
	inactive_file active_file unevictable)

v1grp() {
	local dir=$1 kv k
	shift
	local -A V=()
	for kv; do
		V[${kv%%=*}]=${kv#*=}
	done
	mkdir -p "$dir"
	: "${V[usage]:=0}" "${V[limit]:=$UNL}" "${V[soft]:=$UNL}"
	: "${V[swappiness]:=60}" "${V[failcnt]:=0}" "${V[oom_kill]:=0}"
	: "${V[under_oom]:=0}" "${V[kmem]:=0}" "${V[swap]:=0}"
	: "${V[memsw_limit]:=$UNL}" "${V[max_usage]:=${V[usage]}}"
	: "${V[hier_limit]:=${V[limit]}}" "${V[hier_memsw_limit]:=$UNL}"
	: "${V[procs]:=}"
	for k in "${V1_STAT[@]}"; do
		: "${V[$k]:=}"
	done
	# Own counters: unset ones are 0, except the LRU split which follows
	# rss/cache/shmem (anon LRU = rss + shmem, file LRU = the rest, halved).
	: "${V[rss]:=0}" "${V[cache]:=0}" "${V[shmem]:=0}"
	[ -n "${V[active_anon]}" ] || V[active_anon]=${V[rss]}
	[ -n "${V[inactive_anon]}" ] || V[inactive_anon]=${V[shmem]}
	[ -n "${V[active_file]}" ] || V[active_file]=$(((V[cache] - V[shmem]) / 2))
	[ -n "${V[inactive_file]}" ] || V[inactive_file]=$(((V[cache] - V[shmem]) / 2))
	[ -n "${V[pgpgin]}" ] || V[pgpgin]=$(((V[rss] + V[cache]) / 4096))
	for k in "${V1_STAT[@]}"; do
		[ -n "${V[$k]}" ] || V[$k]=0
		[ -n "${V[total_$k]:-}" ] || V[total_$k]=${V[$k]}
	done

	put "$dir/memory.usage_in_bytes" "${V[usage]}"
	put "$dir/memory.max_usage_in_bytes" "${V[max_usage]}"
	put "$dir/memory.limit_in_bytes" "${V[limit]}"
	put "$dir/memory.soft_limit_in_bytes" "${V[soft]}"
	put "$dir/memory.failcnt" "${V[failcnt]}"
	put "$dir/memory.swappiness" "${V[swappiness]}"
	put "$dir/memory.use_hierarchy" 1
	put "$dir/memory.move_charge_at_immigrate" 0
	put "$dir/memory.oom_control" "oom_kill_disable 0" \
		"under_oom ${V[under_oom]}" "oom_kill ${V[oom_kill]}"
	if [[ ${V[usage]} =~ ^[0-9]+$ ]]; then
		put "$dir/memory.memsw.usage_in_bytes" $((V[usage] + V[swap]))
		put "$dir/memory.memsw.max_usage_in_bytes" $((V[max_usage] + V[swap]))
	else
		put "$dir/memory.memsw.usage_in_bytes" "${V[usage]}"
		put "$dir/memory.memsw.max_usage_in_bytes" "${V[usage]}"
	fi
	put "$dir/memory.memsw.limit_in_bytes" "${V[memsw_limit]}"
	put "$dir/memory.memsw.failcnt" 0
	put "$dir/memory.kmem.usage_in_bytes" "${V[kmem]}"
	put "$dir/memory.kmem.max_usage_in_bytes" "${V[kmem]}"
	put "$dir/memory.kmem.limit_in_bytes" "$UNL"
	put "$dir/memory.kmem.failcnt" 0
	put "$dir/memory.kmem.tcp.usage_in_bytes" 0
	put "$dir/memory.kmem.tcp.max_usage_in_bytes" 0
	put "$dir/memory.kmem.tcp.limit_in_bytes" "$UNL"
	put "$dir/memory.kmem.tcp.failcnt" 0
	{
		for k in "${V1_STAT[@]}"; do
			printf '%s %s\n' "$k" "${V[$k]}"
		done
		printf 'hierarchical_memory_limit %s\n' "${V[hier_limit]}"
		printf 'hierarchical_memsw_limit %s\n' "${V[hier_memsw_limit]}"
		for k in "${V1_STAT[@]}"; do
			printf 'total_%s %s\n' "$k" "${V[total_$k]}"
		done
	} >"$dir/memory.stat"
	local a=$(((V[active_anon] + V[inactive_anon]) / 4096))
	local f=$(((V[active_file] + V[inactive_file]) / 4096))
	local u=$((V[unevictable] / 4096))
	local ta=$(((V[total_active_anon] + V[total_inactive_anon]) / 4096))
	local tf=$(((V[total_active_file] + V[total_inactive_file]) / 4096))
	local tu=$((V[total_unevictable] / 4096))
	put "$dir/memory.numa_stat" \
		"total=$((a + f + u)) N0=$((a + f + u))" "file=$f N0=$f" \
		"anon=$a N0=$a" "unevictable=$u N0=$u" \
		"hierarchical_total=$((ta + tf + tu)) N0=$((ta + tf + tu))" \
		"hierarchical_file=$tf N0=$tf" "hierarchical_anon=$ta N0=$ta" \
		"hierarchical_unevictable=$tu N0=$tu"
	if [ -n "${V[procs]}" ]; then
		printf '%s\n' "${V[procs]}" | tr , '\n' >"$dir/cgroup.procs"
	else
		: >"$dir/cgroup.procs"
	fi
}

# --- procfs sample ---------------------------------------------------------
# procs DIR K [old] [nopsi]: /proc files for sample K.  Counters grow
# linearly with K; with dt = 2 s the system rates are
#   pgscan (pgscan_anon + pgscan_file)         2000.000 /s
#   pgsteal (pgsteal_anon + pgsteal_file)      1000.000 /s
#   fallback pgscan_kswapd + pgscan_direct      500.000 /s
#   fallback pgsteal_kswapd + pgsteal_direct    250.000 /s
# "old" leaves out pgscan_anon/file and pgsteal_anon/file (kernels before
# 5.8), so only the fallback applies.  "nopsi" leaves out pressure/memory.
procs() {
	local d=$1/$2 k=$2 old=0 psi=1 o
	shift 2
	for o; do
		case $o in
		old) old=1 ;;
		nopsi) psi=0 ;;
		esac
	done
	mkdir -p "$d"
	local free=$((8388608 - 262144 * k)) avail=$((12582912 - 262144 * k))
	put "$d/meminfo" \
		"MemTotal:       16777216 kB" \
		"MemFree:        $free kB" \
		"MemAvailable:   $avail kB" \
		"Buffers:          131072 kB" \
		"Cached:          4194304 kB" \
		"SwapCached:        65536 kB" \
		"Active:          4194304 kB" \
		"Inactive:        2097152 kB" \
		"Active(anon):    2097152 kB" \
		"Inactive(anon):   524288 kB" \
		"Active(file):    2097152 kB" \
		"Inactive(file):  1572864 kB" \
		"Unevictable:       16384 kB" \
		"Mlocked:           16384 kB" \
		"SwapTotal:       4194304 kB" \
		"SwapFree:        3145728 kB" \
		"Zswap:                 0 kB" \
		"Zswapped:              0 kB" \
		"Dirty:              1024 kB" \
		"Writeback:             0 kB" \
		"AnonPages:       2621440 kB" \
		"Mapped:           524288 kB" \
		"Shmem:             65536 kB" \
		"KReclaimable:     262144 kB" \
		"Slab:             393216 kB" \
		"SReclaimable:     262144 kB" \
		"SUnreclaim:       131072 kB" \
		"KernelStack:       16384 kB" \
		"PageTables:        32768 kB" \
		"SecPageTables:         0 kB" \
		"NFS_Unstable:          0 kB" \
		"Bounce:                0 kB" \
		"WritebackTmp:          0 kB" \
		"CommitLimit:    12582912 kB" \
		"Committed_AS:    6291456 kB" \
		"VmallocTotal:   34359738367 kB" \
		"VmallocUsed:       65536 kB" \
		"VmallocChunk:          0 kB" \
		"Percpu:             8192 kB" \
		"HardwareCorrupted:     0 kB" \
		"AnonHugePages:         0 kB" \
		"ShmemHugePages:        0 kB" \
		"ShmemPmdMapped:        0 kB" \
		"FileHugePages:         0 kB" \
		"FilePmdMapped:         0 kB" \
		"Unaccepted:            0 kB" \
		"HugePages_Total:       0" \
		"HugePages_Free:        0" \
		"HugePages_Rsvd:        0" \
		"HugePages_Surp:        0" \
		"Hugepagesize:       2048 kB" \
		"Hugetlb:               0 kB" \
		"DirectMap4k:      262144 kB" \
		"DirectMap2M:    16515072 kB"
	{
		printf '%s\n' \
			"nr_free_pages $((free / 4))" \
			"nr_zone_inactive_anon 131072" \
			"nr_zone_active_anon 524288" \
			"nr_zone_inactive_file 393216" \
			"nr_zone_active_file 524288" \
			"nr_zone_unevictable 4096" \
			"nr_inactive_anon 131072" \
			"nr_active_anon 524288" \
			"nr_inactive_file 393216" \
			"nr_active_file 524288" \
			"nr_unevictable 4096" \
			"nr_anon_pages 655360" \
			"nr_mapped 131072" \
			"nr_file_pages 1048576" \
			"nr_dirty 256" \
			"nr_writeback 0" \
			"nr_shmem 16384" \
			"workingset_refault_anon $((100 + 50 * k))" \
			"workingset_refault_file $((1000 + 500 * k))" \
			"pgpgin $((4000000 + 100000 * k))" \
			"pgpgout $((2000000 + 50000 * k))" \
			"pswpin $((1000 + 100 * k))" \
			"pswpout $((2000 + 200 * k))" \
			"pgfault $((50000000 + 1000000 * k))" \
			"pgmajfault $((10000 + 100 * k))" \
			"pgsteal_kswapd $((5000 + 500 * k))" \
			"pgsteal_direct 1000" \
			"pgsteal_khugepaged 0" \
			"pgscan_kswapd $((6000 + 1000 * k))" \
			"pgscan_direct 2000" \
			"pgscan_khugepaged 0" \
			"pgscan_direct_throttle 0"
		if [ $old = 0 ]; then
			printf '%s\n' \
				"pgscan_anon $((1000 + 1000 * k))" \
				"pgscan_file $((9000 + 3000 * k))" \
				"pgsteal_anon $((500 + 500 * k))" \
				"pgsteal_file $((7500 + 1500 * k))"
		fi
		printf '%s\n' "oom_kill $k"
	} >"$d/vmstat"
	if [ $psi = 1 ]; then
		mkdir -p "$d/pressure"
		put "$d/pressure/memory" \
			"some avg10=$((2 * k + 2)).50 avg60=1.00 avg300=0.50 total=$((1000000 + 1000000 * k))" \
			"full avg10=$((k + 1)).25 avg60=0.50 avg300=0.25 total=$((500000 + 500000 * k))"
	fi
}

# proc_series OUT N [old] [nopsi]
proc_series() {
	local out=$1 n=$2 k
	shift 2
	mkdir -p "$out/proc"
	for ((k = 0; k < n; k++)); do
		procs "$out/proc" $k "$@"
	done
	timestamps "$out/proc/timestamps" "$n"
}

# A v1 root as the capture stores it: cgroup.procs empty.
v1root() {  # v1root DIR K
	v1grp "$1" usage=$((1024 * MiB + 64 * MiB * $2)) \
		rss=$((256 * MiB)) cache=$((256 * MiB)) kmem=$((16 * MiB)) \
		total_rss=$((512 * MiB)) total_cache=$((448 * MiB + 64 * MiB * $2)) \
		pgfault=$((100000 * ($2 + 1))) total_pgfault=$((1000000 * ($2 + 1)))
}

# --- the fixtures ----------------------------------------------------------
gen_edge_vanish() {
	local o=$1 c=$1/cg
	v1root "$c/0" 0
	v1grp "$c/0/a" usage=$((300 * MiB)) limit=$((512 * MiB)) \
		rss=$((200 * MiB)) cache=$((100 * MiB)) failcnt=10 \
		pgfault=2000 total_pgfault=20000 procs=101 \
		total_rss=$((250 * MiB)) total_cache=$((150 * MiB))
	v1grp "$c/0/a/b" usage=$((100 * MiB)) hier_limit=$((512 * MiB)) \
		rss=$((50 * MiB)) cache=$((50 * MiB)) pgfault=18000 procs=102
	v1root "$c/1" 1
	v1grp "$c/1/a" usage=$((200 * MiB)) limit=$((512 * MiB)) \
		rss=$((150 * MiB)) cache=$((50 * MiB)) failcnt=30 \
		pgfault=30000 procs=101
	v1grp "$c/1/c" usage=$((50 * MiB)) rss=$((50 * MiB)) failcnt=7 \
		pgfault=1000 procs=103
	timestamps "$c/timestamps" 2
	proc_series "$o" 2
}

gen_edge_reset() {
	local o=$1 c=$1/cg k
	local fs=(100 300 500) pfs=(10000 12000 14000) mjs=(10 30 50)
	local fr=(5000 10 210) pfr=(900000 500 2500) mjr=(4000 2 22)
	local pid=(1001 2001 2001)
	for k in 0 1 2; do
		v1root "$c/$k" $k
		v1grp "$c/$k/steady" usage=$((64 * MiB)) limit=$((128 * MiB)) \
			rss=$((48 * MiB)) cache=$((16 * MiB)) failcnt="${fs[k]}" \
			pgfault="${pfs[k]}" pgmajfault="${mjs[k]}" procs=900
		v1grp "$c/$k/reset" usage=$((32 * MiB)) limit=$((64 * MiB)) \
			rss=$((24 * MiB)) cache=$((8 * MiB)) failcnt="${fr[k]}" \
			pgfault="${pfr[k]}" pgmajfault="${mjr[k]}" procs="${pid[k]}"
	done
	timestamps "$c/timestamps" 3
	proc_series "$o" 3
}

gen_edge_unlimited() {
	local o=$1 c=$1/cg k
	for k in 0 1; do
		v1grp "$c/$k" usage=$((1024 * MiB)) rss=$((512 * MiB)) \
			cache=$((512 * MiB)) pgfault=$((1000000 + 100000 * k))
		v1grp "$c/$k/u" usage=$((256 * MiB)) rss=$((64 * MiB)) \
			cache=$((64 * MiB)) total_rss=$((192 * MiB)) \
			total_cache=$((64 * MiB)) pgfault=$((1000 + 1000 * k)) \
			total_pgfault=$((5000 + 3000 * k)) procs=500
		v1grp "$c/$k/u/v" usage=$((128 * MiB)) rss=$((128 * MiB)) \
			pgfault=$((4000 + 2000 * k)) procs=501,502
	done
	timestamps "$c/timestamps" 2
	proc_series "$o" 2 old
}

gen_edge_names() {
	local o=$1 c=$1/cg k i
	local names=("my group" 'quo"te' "com,ma" 'back\slash' $'new\nline'
		$'esc\033[31mred' "café")
	for k in 0 1; do
		v1root "$c/$k" $k
		for i in "${!names[@]}"; do
			v1grp "$c/$k/${names[i]}" usage=$(((i + 1) * 10 * MiB)) \
				rss=$(((i + 1) * 10 * MiB)) \
				pgfault=$((1000 * (i + 1) * (k + 1))) procs=$((300 + i))
		done
		v1grp "$c/$k/my group/inner" usage=$((5 * MiB)) rss=$((5 * MiB)) \
			pgfault=$((500 * (k + 1))) procs=399
	done
	timestamps "$c/timestamps" 2
	proc_series "$o" 2
}

gen_edge_broken() {
	local o=$1 c=$1/cg k g
	for k in 0 1; do
		v1root "$c/$k" $k
		for g in good trunc garbage huge statdir emptylimit nostat; do
			v1grp "$c/$k/$g" usage=$((10 * MiB)) limit=$((100 * MiB)) \
				rss=$((8 * MiB)) cache=$((2 * MiB)) failcnt=$((10 * k)) \
				pgfault=$((1000 + 1000 * k)) procs=700
		done
		# Cut in the middle of a key, after a complete total_inactive_file
		# line, with no trailing newline.
		sed -n '1,/^total_inactive_file /p' "$c/$k/trunc/memory.stat" \
			>"$c/$k/trunc/memory.stat.tmp"
		printf 'total_active_fi' >>"$c/$k/trunc/memory.stat.tmp"
		mv "$c/$k/trunc/memory.stat.tmp" "$c/$k/trunc/memory.stat"
		put "$c/$k/garbage/memory.usage_in_bytes" 12abc
		put "$c/$k/huge/memory.usage_in_bytes" 99999999999999999999
		sed -i 's/^total_pgfault .*/total_pgfault 99999999999999999999/' \
			"$c/$k/huge/memory.stat"
		# A directory where memory.stat should be; the placeholder inside
		# lets git carry it (git does not store empty directories).
		rm "$c/$k/statdir/memory.stat"
		mkdir "$c/$k/statdir/memory.stat"
		: >"$c/$k/statdir/memory.stat/.keep"
		: >"$c/$k/emptylimit/memory.limit_in_bytes"
		rm "$c/$k/nostat/memory.stat"
	done
	timestamps "$c/timestamps" 2
	proc_series "$o" 2 nopsi
}

# --- v2 --------------------------------------------------------------------
V2_STAT=(anon file kernel kernel_stack pagetables sec_pagetables percpu sock
	vmalloc shmem zswap zswapped file_mapped file_dirty file_writeback
	swapcached anon_thp file_thp shmem_thp inactive_anon active_anon
	inactive_file active_file unevictable slab_reclaimable
	slab_unreclaimable slab workingset_refault_anon workingset_refault_file
	workingset_activate_anon workingset_activate_file
	workingset_restore_anon workingset_restore_file workingset_nodereclaim
	pgscan pgsteal pgscan_kswapd pgscan_direct pgsteal_kswapd pgsteal_direct
	pgfault pgmajfault pgrefill pgactivate pgdeactivate pglazyfree
	pglazyfreed zswpin zswpout thp_fault_alloc thp_collapse_alloc)

# v2stat FILE KEY=VALUE...: memory.stat with the 6.1 keys; unset ones 0,
# the LRU split follows anon/file (anon all active, file halved), slab =
# slab_reclaimable + slab_unreclaimable.
v2stat() {
	local f=$1 kv k
	shift
	local -A S=()
	for kv; do
		S[${kv%%=*}]=${kv#*=}
	done
	: "${S[anon]:=0}" "${S[file]:=0}"
	: "${S[active_anon]:=${S[anon]}}" "${S[inactive_anon]:=0}"
	: "${S[active_file]:=$((S[file] / 2))}" "${S[inactive_file]:=$((S[file] / 2))}"
	: "${S[slab_reclaimable]:=0}" "${S[slab_unreclaimable]:=0}"
	: "${S[slab]:=$((S[slab_reclaimable] + S[slab_unreclaimable]))}"
	for k in "${V2_STAT[@]}"; do
		printf '%s %s\n' "$k" "${S[$k]:-0}"
	done >"$f"
}

# v2grp DIR KEY=VALUE... [-- STAT KEY=VALUE...]: a v2 child group.  Keys:
#   current max high low min swap swap_max events (6 numbers: low high max
#   oom oom_kill oom_group_kill) events_local psi ("S F" avg10 pair or
#   "none" for no memory.pressure) procs subtree peak (default current)
#   swap_peak (no memory.swap.peak unless given, as before 6.5)
#   swap_events (3 numbers: high max fail) zswap dying (cgroup.stat
#   nr_dying_descendants)
v2grp() {
	local dir=$1 kv
	shift
	local -A V=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		V[${1%%=*}]=${1#*=}
		shift
	done
	[ $# -gt 0 ] && shift
	mkdir -p "$dir"
	: "${V[max]:=max}" "${V[high]:=max}" "${V[low]:=0}" "${V[min]:=0}"
	: "${V[swap]:=0}" "${V[swap_max]:=max}" "${V[events]:=0 0 0 0 0 0}"
	: "${V[events_local]:=${V[events]}}" "${V[psi]:=0.00 0.00}"
	: "${V[procs]:=}" "${V[subtree]:=}" "${V[peak]:=${V[current]}}"
	: "${V[swap_events]:=0 0 0}" "${V[zswap]:=0}" "${V[dying]:=0}"
	put "$dir/cgroup.controllers" "memory pids"
	put "$dir/cgroup.subtree_control" "${V[subtree]}"
	[ -n "${V[subtree]}" ] || : >"$dir/cgroup.subtree_control"
	put "$dir/cgroup.type" domain
	put "$dir/cgroup.events" "populated 1" "frozen 0"
	if [ -n "${V[procs]}" ]; then
		printf '%s\n' "${V[procs]}" | tr , '\n' >"$dir/cgroup.procs"
	else
		: >"$dir/cgroup.procs"
	fi
	put "$dir/memory.current" "${V[current]}"
	put "$dir/memory.peak" "${V[peak]}"
	put "$dir/cgroup.stat" "nr_descendants 0" "nr_dying_descendants ${V[dying]}"
	put "$dir/memory.max" "${V[max]}"
	put "$dir/memory.high" "${V[high]}"
	put "$dir/memory.low" "${V[low]}"
	put "$dir/memory.min" "${V[min]}"
	put "$dir/memory.oom.group" 0
	put "$dir/memory.swap.current" "${V[swap]}"
	put "$dir/memory.swap.max" "${V[swap_max]}"
	put "$dir/memory.swap.high" max
	[ -z "${V[swap_peak]:-}" ] || put "$dir/memory.swap.peak" "${V[swap_peak]}"
	local e l p w
	read -ra w <<<"${V[swap_events]}"
	put "$dir/memory.swap.events" "high ${w[0]}" "max ${w[1]}" "fail ${w[2]}"
	put "$dir/memory.zswap.current" "${V[zswap]}"
	put "$dir/memory.zswap.max" max
	read -ra e <<<"${V[events]}"
	read -ra l <<<"${V[events_local]}"
	put "$dir/memory.events" "low ${e[0]}" "high ${e[1]}" "max ${e[2]}" \
		"oom ${e[3]}" "oom_kill ${e[4]}" "oom_group_kill ${e[5]}"
	put "$dir/memory.events.local" "low ${l[0]}" "high ${l[1]}" \
		"max ${l[2]}" "oom ${l[3]}" "oom_kill ${l[4]}" \
		"oom_group_kill ${l[5]}"
	if [ "${V[psi]}" != none ]; then
		read -ra p <<<"${V[psi]}"
		put "$dir/memory.pressure" \
			"some avg10=${p[0]} avg60=1.00 avg300=0.20 total=4000000" \
			"full avg10=${p[1]} avg60=0.50 avg300=0.10 total=2000000"
	fi
	v2stat "$dir/memory.stat" "$@"
}

gen_edge_v2() {
	local o=$1 c=$1/cg k r
	for k in 0 1; do
		r=$c/$k
		mkdir -p "$r"
		put "$r/cgroup.controllers" "cpu memory pids"
		put "$r/cgroup.subtree_control" "memory pids"
		: >"$r/cgroup.procs"
		put "$r/cgroup.stat" "nr_descendants 2" \
			"nr_dying_descendants $((3 + 2 * k))"
		v2stat "$r/memory.stat" anon=$((1024 * MiB)) \
			file=$((2048 * MiB + 256 * MiB * k)) kernel=$((256 * MiB)) \
			sock=$((1 * MiB)) pgscan=$((100000 + 20000 * k)) \
			pgsteal=$((50000 + 10000 * k)) pgfault=$((10000000 * (k + 1)))
		put "$r/memory.pressure" \
			"some avg10=$((k + 1)).00 avg60=0.80 avg300=0.30 total=$((8000000 + 2000000 * k))" \
			"full avg10=0.$((k + 1))0 avg60=0.40 avg300=0.15 total=$((3000000 + 1000000 * k))"
		put "$r/memory.numa_stat" "anon $((1024 * MiB)) N0=$((1024 * MiB))" \
			"file $((2048 * MiB + 256 * MiB * k)) N0=$((2048 * MiB + 256 * MiB * k))"
		v2grp "$r/app" current=$((512 * MiB)) max=$((1024 * MiB)) \
			high=$((768 * MiB)) low=$((256 * MiB)) min=$((64 * MiB)) \
			swap=$((16 * MiB)) subtree="memory pids" procs=1000 \
			peak=$((900 * MiB)) swap_peak=$((40 * MiB)) \
			zswap=$((3 * MiB)) dying=$((1 + k)) \
			swap_events="$((7 + 3 * k)) $((2 + 2 * k)) $((1 + 5 * k))" \
			events="0 $((10 + 20 * k)) $((6 + 8 * k)) $((1 + k)) $((1 + k)) 0" \
			events_local="0 $((10 + 20 * k)) $((2 + 4 * k)) 0 0 0" \
			psi="$((5 + k)).00 $((2 + k)).00" -- \
			anon=$((384 * MiB)) file=$((112 * MiB)) kernel=$((16 * MiB)) \
			zswap=$((3 * MiB)) zswapped=$((9 * MiB)) \
			pgscan=$((10000 + 4000 * k)) pgsteal=$((6000 + 2000 * k)) \
			pgscan_kswapd=$((4000 + 1000 * k)) pgscan_direct=$((6000 + 3000 * k)) \
			pgsteal_kswapd=$((3000 + 500 * k)) pgsteal_direct=$((3000 + 1500 * k)) \
			workingset_refault_anon=$((100 + 100 * k)) \
			workingset_refault_file=$((2000 + 1000 * k)) \
			pgfault=$((200000 + 20000 * k)) pgmajfault=$((100 + 10 * k))
		v2grp "$r/app/worker" current=$((256 * MiB)) swap=$((8 * MiB)) \
			swap_max=$((64 * MiB)) procs=1001,1002 \
			swap_peak=$((12 * MiB)) swap_events="0 $((1 + k)) $((3 * k))" \
			events="0 0 $((4 + 4 * k)) $((1 + k)) $((1 + k)) 0" \
			psi="$((3 + k)).00 $((1 + k)).00" -- \
			anon=$((192 * MiB)) file=$((56 * MiB)) kernel=$((8 * MiB)) \
			pgscan=$((2000 + 2000 * k)) pgsteal=$((1000 + 500 * k)) \
			pgscan_kswapd=$((1000 + 500 * k)) pgscan_direct=$((1000 + 1500 * k)) \
			pgsteal_kswapd=$((500 + 250 * k)) pgsteal_direct=$((500 + 250 * k)) \
			workingset_refault_anon=$((50 + 50 * k)) \
			workingset_refault_file=$((1000 + 500 * k)) \
			pgfault=$((100000 + 10000 * k)) pgmajfault=$((50 + 5 * k))
		v2grp "$r/sys" current=$((64 * MiB)) max=$((128 * MiB)) swap_max=0 \
			procs=1 psi=none -- \
			anon=$((32 * MiB)) file=$((24 * MiB)) kernel=$((8 * MiB)) \
			pgfault=$((5000 + 1000 * k))
	done
	timestamps "$c/timestamps" 2
	proc_series "$o" 2
}

# --- main ------------------------------------------------------------------
[ $# -ge 1 ] || die "usage: make-edge.sh OUTDIR [NAME...]"
outdir=$1
shift
[ $# -gt 0 ] || set -- "${ALL[@]}"
for n; do
	case " ${ALL[*]} " in
	*" $n "*) ;;
	*) die "unknown fixture '$n' (known: ${ALL[*]})" ;;
	esac
done
mkdir -p "$outdir"
for n; do
	rm -rf "${outdir:?}/$n"
	mkdir "$outdir/$n"
	"gen_${n//-/_}" "$outdir/$n"
done
