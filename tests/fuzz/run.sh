#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# libFuzzer targets for the pure parsers and writers (tests/fuzz/fuzz_*.c).
#
#   tests/fuzz/run.sh             about 3 s per target (make check)
#   tests/fuzz/run.sh RUNS        RUNS executions per target
#   tests/fuzz/run.sh --time SECS SECS seconds per target
#   tests/fuzz/run.sh --long      60 s per target (make fuzz)
#   TARGETS="stat psi" tests/fuzz/run.sh ...   only these targets
#
# Builds each target with clang -fsanitize=fuzzer,address,undefined into
# build/fuzz/, replays every input in tests/fuzz/regressions/ (named
# TARGET-N) through its target, then fuzzes each target from its seed
# corpus tests/fuzz/corpus/TARGET/ (new inputs go to build/fuzz/corpus/,
# never to the committed seeds).  Prints PASS:/FAIL:/SKIP: lines; a crash
# input is copied to tests/fuzz/crashes/.  Exits 1 on any failure, 77 when
# clang has no libFuzzer (a FAIL with CI=true).
set -u
cd "$(dirname "$0")/../.." || exit 1

CC_FUZZ=${FUZZ_CC:-clang}
OUT=build/fuzz
FZ=tests/fuzz
CFLAGS_FUZZ=(-g -O1 '-fsanitize=fuzzer,address,undefined' -fno-sanitize-recover=all
	     -fno-omit-frame-pointer -D_GNU_SOURCE -Iinclude -Isrc)
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

limit=(-max_total_time=3)
case "${1:-}" in
"") ;;
--long) limit=(-max_total_time=60) ;;
--time)
	[[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "usage: $0 [RUNS|--time SECS|--long]" >&2; exit 2; }
	limit=(-max_total_time="$2") ;;
*)
	[[ "$1" =~ ^[0-9]+$ ]] || { echo "usage: $0 [RUNS|--time SECS|--long]" >&2; exit 2; }
	limit=(-runs="$1") ;;
esac

# target:source.  Every target links all the pure modules: they need no
# system state, and a module that starts to need more fails to link here.
PURE="util/parse edit/knob util/fmt tui/theme tui/config util/xalloc util/atomicfile util/trust"
ALL="stat:fuzz_stat
events:fuzz_stat
oom_control:fuzz_stat
psi:fuzz_psi
meminfo:fuzz_meminfo
value:fuzz_value
timestamps:fuzz_timestamps
size:fuzz_size
theme:fuzz_theme
config:fuzz_config
escape:fuzz_escape"

skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL: fuzz: $1"
		exit 1
	fi
	echo "SKIP: fuzz: $1"
	exit 77
}

mkdir -p "$OUT"
probe=$OUT/.probe
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$probe.c"
if ! command -v "$CC_FUZZ" >/dev/null 2>&1 ||
   ! "$CC_FUZZ" -fsanitize=fuzzer,address,undefined -o "$probe" "$probe.c" \
	>/dev/null 2>&1; then
	rm -f "$probe.c"
	skip "clang -fsanitize=fuzzer not available"
fi
rm -f "$probe" "$probe.c"

fail=0
declare -A bin built broken

# build SOURCE: build/fuzz/SOURCE, rebuilt when an input is newer.
build() {
	local src=$1 exe=$OUT/$1 files=("$FZ/$1.c") m f stale=0
	for m in $PURE; do files+=("src/$m.c"); done
	[ -x "$exe" ] || stale=1
	for f in "${files[@]}" "$FZ/fuzz.h" include/*.h src/*/*.h; do
		[ "$f" -nt "$exe" ] && stale=1
	done
	[ "$stale" = 0 ] && return 0
	"$CC_FUZZ" "${CFLAGS_FUZZ[@]}" -o "$exe.tmp" "${files[@]}" -lm \
		>"$OUT/$src.build.log" 2>&1 && mv -f "$exe.tmp" "$exe"
}

selected() {
	[ -z "${TARGETS:-}" ] && return 0
	[[ " $TARGETS " == *" $1 "* ]]
}

# Build every selected target.
while IFS=: read -r t src; do
	selected "$t" || continue
	if [ -z "${built[$src]:-}" ]; then
		if build "$src"; then
			built[$src]=ok
		else
			built[$src]=fail
			echo "FAIL: fuzz $src: build failed:"
			sed 's/^/    /' "$OUT/$src.build.log" | head -20
			fail=1
		fi
	fi
	[ "${built[$src]}" = ok ] && bin[$t]=$OUT/$src
done <<<"$ALL"

# report LOG: the error and the stack frames in memcgtop's own code.
report() {
	grep -E 'ERROR: |runtime error|invariant failed|SUMMARY|#[0-9]+ .*(src|tests/fuzz)/[a-z_/]+\.c:' "$1" |
		grep -v 'deadly signal' | head -20 | sed 's/^ */    /'
}

# save_crash TARGET LOG: copies the inputs libFuzzer wrote to crashes/.
save_crash() {
	local t=$1 log=$2 a
	mkdir -p "$FZ/crashes"
	for a in "$OUT/artifacts/$t"-*; do
		[ -f "$a" ] || continue
		cp "$a" "$FZ/crashes/" && echo "    input: $FZ/crashes/${a##*/}"
		rm -f "$a"
	done
	report "$log"
}

# Regression inputs first: each file TARGET-N once through its target.
for r in "$FZ"/regressions/*; do
	[ -f "$r" ] || continue
	name=${r##*/}
	t=${name%-*}
	selected "$t" || continue
	if [ -z "${bin[$t]:-}" ]; then
		echo "FAIL: fuzz regression $name: no target $t"
		fail=1
		continue
	fi
	log=$OUT/regression-$name.log
	if "${bin[$t]}" "$r" >"$log" 2>&1; then
		echo "PASS: fuzz regression $name"
	else
		echo "FAIL: fuzz regression $name:"
		report "$log"
		fail=1
		broken[$t]=1
	fi
done

mkdir -p "$OUT/artifacts"
while IFS=: read -r t src; do
	selected "$t" || continue
	[ -n "${bin[$t]:-}" ] || continue
	# A known bug would only be found again: fix it first.
	if [ -n "${broken[$t]:-}" ]; then
		echo "SKIP: fuzz $t: a regression input fails"
		continue
	fi
	work=$OUT/corpus/$t
	log=$OUT/$t.log
	mkdir -p "$work"
	# New units go to the first directory (build/), seeds are read only.
	"${bin[$t]}" -error_exitcode=1 -timeout=10 -rss_limit_mb=1024 \
		-max_len=4096 -print_final_stats=1 \
		-artifact_prefix="$OUT/artifacts/$t-" "${limit[@]}" \
		"$work" "$FZ/corpus/$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	[ -n "$execs" ] || execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
	if [ "$rc" = 0 ] && grep -q '^Done [0-9]* runs' "$log"; then
		echo "PASS: fuzz $t (${execs:-?} execs)"
	else
		reason=$(grep -m1 -oE 'ERROR: [A-Za-z]+: [a-z-]+|runtime error: .*|invariant failed: .*|deadly signal|timeout|out-of-memory' "$log")
		echo "FAIL: fuzz $t: ${reason:-exit status $rc} (log $log)"
		save_crash "$t" "$log"
		fail=1
	fi
done <<<"$ALL"

exit "$fail"
