# SPDX-License-Identifier: GPL-2.0-or-later
# series.sh - sourced by the screen's tests: a recorded v1 series written
# by hand, with values chosen by the test (what --root DIR replays).
#
#   series_stamps DIR N       DIR/timestamps: sample k at MONO 100+k,
#                             WALL 1796000000+k (dt = 1 s)
#   series_group DIR KEY=VALUE...
#                             a v1 memory group at DIR: usage, limit
#                             (default unlimited), oom_kill, failcnt,
#                             pgscan, pgsteal (memory.stat's total_pgscan
#                             and total_pgsteal, as a recording of the bpf
#                             collector keeps them), refault (file
#                             refaults), rss
SERIES_UNL=9223372036854771712

series_stamps() {
	local k
	: >"$1/timestamps"
	for ((k = 0; k < $2; k++)); do
		printf '%d.000000000 %d\n' $((100 + k)) $((1796000000 + k)) \
			>>"$1/timestamps"
	done
}

series_group() {
	local dir=$1 kv
	shift
	local -A V=([usage]=0 [limit]=$SERIES_UNL [oom_kill]=0 [failcnt]=0
		[pgscan]=0 [pgsteal]=0 [refault]=0 [rss]=0)
	for kv; do
		V[${kv%%=*}]=${kv#*=}
	done
	mkdir -p "$dir"
	echo "${V[usage]}" >"$dir/memory.usage_in_bytes"
	echo "${V[usage]}" >"$dir/memory.max_usage_in_bytes"
	echo "${V[usage]}" >"$dir/memory.memsw.usage_in_bytes"
	echo "${V[limit]}" >"$dir/memory.limit_in_bytes"
	echo "$SERIES_UNL" >"$dir/memory.memsw.limit_in_bytes"
	echo "$SERIES_UNL" >"$dir/memory.soft_limit_in_bytes"
	echo "${V[failcnt]}" >"$dir/memory.failcnt"
	echo 60 >"$dir/memory.swappiness"
	echo 1 >"$dir/memory.use_hierarchy"
	printf 'oom_kill_disable 0\nunder_oom 0\noom_kill %s\n' \
		"${V[oom_kill]}" >"$dir/memory.oom_control"
	printf '%s\n' "rss ${V[rss]}" "cache 0" "total_rss ${V[rss]}" \
		"total_cache 0" "total_workingset_refault_anon 0" \
		"total_workingset_refault_file ${V[refault]}" \
		"hierarchical_memory_limit ${V[limit]}" \
		"total_pgscan ${V[pgscan]}" "total_pgsteal ${V[pgsteal]}" \
		>"$dir/memory.stat"
	: >"$dir/cgroup.procs"
}
