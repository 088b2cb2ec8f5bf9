#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build-deps.sh - plain "make" checks the build's Debian packages first.
#
# Runs this checkout's Makefile as a user who is not root (nobody, by
# setpriv, when the test runs as root) with BUILD_DEBS naming a package no
# archive has: the default target must stop before compiling anything,
# with the one line that says what to install and make's status 2.  A
# named build-variant target is not held up by the check; without
# dpkg-query (not a Debian system) nothing is checked.  Nothing is built:
# the runs that would build are in an empty folder or dry runs (-n).
# Prints PASS:/FAIL:/SKIP: lines and "build-deps: N passed, M failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/count.sh"
NAME=build-deps
FAKE=memcgtop-no-such-package
FAKE2=memcgtop-no-such-package-2

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "SKIP: $NAME: no dpkg-query (not a Debian system)"
	exit 77
fi
if [ "$(id -u)" = 0 ]; then
	if ! command -v setpriv >/dev/null 2>&1; then
		echo "SKIP: $NAME: root without setpriv (util-linux): no way to run as another user"
		exit 77
	fi
	user() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
else
	user() { "$@"; }
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
mkdir "$T/empty" && chmod 755 "$T/empty"

# run NAME ARGS...: make ARGS as the user, stdout, stderr and the status
# kept in $T/NAME.{out,err,rc}; as a make of its own, also under make
# check (whose MAKELEVEL would make the error line "make[1]: ...").
run() {
	local n=$1
	shift
	user env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS LC_ALL=C \
		make --no-print-directory "$@" >"$T/$n.out" 2>"$T/$n.err"
	echo $? >"$T/$n.rc"
}

# expect NAME RC FIRST-STDERR-LINE DESC: the status, the first line of
# stderr exactly, and nothing on stdout.
expect() {
	local rc line
	rc=$(cat "$T/$1.rc")
	line=$(head -n1 "$T/$1.err")
	if [ "$rc" = "$2" ] && [ "$line" = "$3" ] && [ ! -s "$T/$1.out" ]; then
		pass "$4"
	else
		fail "$4: status $rc (want $2), stderr '$(head -c 300 "$T/$1.err")', stdout '$(head -c 300 "$T/$1.out")'"
	fi
}

# The default target in an empty folder: the check comes first, so
# nothing is looked for (no "No rule to make target 'src/main.c'").
run one -C "$T/empty" -f "$top/Makefile" BUILD="$T/empty/build" \
	BUILD_DEBS="make $FAKE"
expect one 2 "memcgtop: missing packages; as root run: apt-get install $FAKE" \
	"make, one package missing, not root: the apt-get install line, status 2"
if [ "$(sed -n 2p "$T/one.err")" = "make: *** [$top/Makefile:$(grep -n '^deps:' "$top/Makefile" | cut -d: -f1 | awk '{ print $1 + 1 }'): deps] Error 1" ] &&
   [ "$(wc -l <"$T/one.err")" = 2 ] && [ ! -e "$T/empty/build" ]; then
	pass "make, one package missing: make's own error line for deps, then nothing (no build folder)"
else
	fail "make, one package missing: stderr '$(cat "$T/one.err")', build folder: $(ls -d "$T/empty/build" 2>&1)"
fi

# Two missing, in the order given; an installed one (make) is left out.
run two -C "$T/empty" -f "$top/Makefile" BUILD="$T/empty/build" \
	BUILD_DEBS="$FAKE2 make $FAKE"
expect two 2 "memcgtop: missing packages; as root run: apt-get install $FAKE2 $FAKE" \
	"make, two packages missing: both on the one line, in order, the installed one left out"

# Everything installed: the check says nothing and lets make go on.
run ok -C "$T/empty" -f "$top/Makefile" BUILD_DEBS="make"  deps
if [ "$(cat "$T/ok.rc")" = 0 ] && [ ! -s "$T/ok.err" ] && [ ! -s "$T/ok.out" ]; then
	pass "make deps, every package installed: no output, status 0"
else
	fail "make deps, every package installed: status $(cat "$T/ok.rc"), '$(cat "$T/ok.err" "$T/ok.out")'"
fi
# The Makefile's own list on this host, which built this checkout.
run real -C "$T/empty" -f "$top/Makefile" deps
if [ "$(cat "$T/real.rc")" = 0 ] && [ ! -s "$T/real.err" ]; then
	pass "make deps with BUILD_DEBS as shipped: every build package installed here"
else
	fail "make deps with BUILD_DEBS as shipped: status $(cat "$T/real.rc"), '$(cat "$T/real.err")'"
fi

# A named variant target is not checked (make check and the package build
# name theirs): a dry run lists the compiler's commands, status 0.
run variant -n -C "$top" BUILD="$T/asan" BUILD_DEBS="$FAKE" \
	EXTRA_CFLAGS=-fsanitize=address "$T/asan/memcgtop"
if [ "$(cat "$T/variant.rc")" = 0 ] && grep -q -- "-fsanitize=address -o $T/asan/memcgtop " "$T/variant.out" &&
   ! grep -q "$FAKE" "$T/variant.out" "$T/variant.err"; then
	pass "make BUILD=... variant target: built without the check (dry run links $T/asan/memcgtop)"
else
	fail "make BUILD=... variant target: status $(cat "$T/variant.rc"), '$(head -c 300 "$T/variant.err")'"
fi

# Not a Debian system: no dpkg-query on PATH, nothing checked, no error.
mkdir "$T/bin" && chmod 755 "$T/bin"
for c in sh awk id; do ln -s "$(command -v $c)" "$T/bin/$c"; done
run nodpkg -C "$T/empty" -f "$top/Makefile" BUILD_DEBS="$FAKE" \
	PATH="$T/bin" SHELL=/bin/sh deps
if [ "$(cat "$T/nodpkg.rc")" = 0 ] && [ ! -s "$T/nodpkg.err" ]; then
	pass "make deps without dpkg-query: nothing checked, status 0"
else
	fail "make deps without dpkg-query: status $(cat "$T/nodpkg.rc"), '$(cat "$T/nodpkg.err")'"
fi

echo "$NAME: $npass passed, $nfail failed"
[ "$nfail" = 0 ]
