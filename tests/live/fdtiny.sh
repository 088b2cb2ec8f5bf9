#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fdtiny.sh - live cgroup v1: a tiny RLIMIT_NOFILE never gives a partial
# tree or a false reason.  On a tree of 81 groups, `memcgtop -b -n 1` with
# a column read from memory.stat (anon) runs under RLIMIT_NOFILE 6 to 24
# with each collector; every run either prints all 81 groups (exit 0) or
# exits 1 with one line naming what ran short:
#   files, auto: "memcgtop: ROOT/T: Too many open files (RLIMIT_NOFILE is N)"
#   bpf: "memcgtop: bpf collector: too few file descriptors left to load the
#     program (it needs about K; RLIMIT_NOFILE is N)", or "... reading the
#     groups' files: ROOT/T: Too many open files (RLIMIT_NOFILE is N)", or
#     "... reading the cgroup iterator: Too many open files (RLIMIT_NOFILE
#     is N)" (each chunk of the pass opens the iterator anew)
# and auto is never worse than files: where files prints the tree, auto does
# (a BPF pass that runs short says so and the files collector goes on).
# Usage (as root):  tests/live/fdtiny.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
set -u
here=$(cd "$(dirname "$0")" && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live tiny fd limit"
. "$here/lib.sh"
live_tree_setup fdtiny
command -v prlimit >/dev/null 2>&1 || cannot_run "no prlimit (util-linux)"
T=$CGM/$TNAME
mkdir "$T" || { fail "cannot make $T"; summary; exit 1; }
for i in $(seq 40); do
	mkdir -p "$T/g$i/h" || { fail "cannot make $T/g$i/h"; summary; exit 1; }
done
all=81
partial= wrong= worse= other= notes=0
for n in $(seq 6 24); do
	declare -A ok=()
	for c in files auto bpf; do
		prlimit --nofile=$n "$MEMCGTOP" -b -n 1 -F csv --collector $c \
			-c path,usage,anon "/$TNAME" >"$TMPD/out" 2>"$TMPD/err"
		rc=$?
		rows=$(grep -c "^[^,]*,1,/$TNAME" "$TMPD/out")
		err=$(cat "$TMPD/err")
		files_re="^memcgtop: $T: Too many open files \\(RLIMIT_NOFILE is $n\\)\$"
		bpf_re="^memcgtop: bpf collector: (too few file descriptors left to load the program \\(it needs about [0-9]+; RLIMIT_NOFILE is $n\\)|reading the groups' files: $T: Too many open files \\(RLIMIT_NOFILE is $n\\)|reading the cgroup iterator: Too many open files \\(RLIMIT_NOFILE is $n\\))\$"
		note_re="^memcgtop: bpf collector: reading (the groups' files: $T|the cgroup iterator): Too many open files \\(RLIMIT_NOFILE is $n\\); the files collector from now on\$"
		case $rc in
		0)
			ok[$c]=1
			[ "$rows" = $all ] || partial+=" $c@$n:$rows"
			if [ -n "$err" ]; then
				if [ $c = auto ] && [[ $err =~ $note_re ]]; then
					notes=$((notes + 1))
				else
					wrong+=" $c@$n:exit0:'$err'"
				fi
			fi
			;;
		1)
			ok[$c]=0
			[ "$(wc -l <"$TMPD/err")" = 1 ] || wrong+=" $c@$n:'$err'"
			if [ $c = bpf ]; then
				[[ $err =~ $bpf_re ]] || wrong+=" $c@$n:'$err'"
			else
				[[ $err =~ $files_re ]] || wrong+=" $c@$n:'$err'"
			fi
			[ "$rows" = 0 ] || partial+=" $c@$n:$rows-then-exit1"
			;;
		*) other+=" $c@$n:$rc" ;;
		esac
	done
	[ "${ok[files]}" = 1 ] && [ "${ok[auto]}" != 1 ] && worse+=" $n"
	unset ok
done
if [ -z "$partial" ]; then
	pass "N=6..24, three collectors: no partial tree"
else
	fail "partial trees (collector@N:rows):$partial"
fi
if [ -z "$wrong" ]; then
	pass "every failure names what ran short, with RLIMIT_NOFILE"
else
	fail "wrong reasons:$(echo "$wrong" | cut -c1-600)"
fi
if [ -z "$worse" ]; then
	pass "auto is never worse than files"
else
	fail "auto fails where files works at N=$worse"
fi
if [ -z "$other" ]; then
	pass "exit status 0 or 1 only"
else
	fail "other exit status:$other"
fi
echo "auto notes (the pass ran short, files went on): $notes"
live_tree_done
