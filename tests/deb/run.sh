#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - the Debian package: build it, check it with lintian, install it,
# run the installed program, remove it.
#
# Usage (as root):  tests/deb/run.sh
#   CI=true   a host that cannot run the test is a failure, not a skip
#   KEEP=DIR  copy the built .deb files to DIR
#
# 1. Installs what the build needs if missing (dpkg-dev, debhelper,
#    lintian and the Build-Depends of debian/control), with apt-get, and
#    ends an interrupted dpkg run (dpkg --configure -a) when
#    dpkg-checkbuilddeps still finds them unmet.
# 2. Copies the source tree (without .git, build/ and ./memcgtop) to a
#    temporary directory and runs dpkg-buildpackage -us -uc -b there.
# 3. Checks the .deb's files and Depends, and runs lintian on it: no E:
#    line (W: and I: lines are listed).
# 4. dpkg -i; memcgtop -V; memcgtop -b -n 1 -d 0.2; the man page and the
#    four themes installed; -t light found in the installed themes folder
#    (from a folder with no themes, HOME and XDG_CONFIG_HOME empty); the
#    bash completion and the systemd unit installed.
# 5. dpkg -r memcgtop: nothing of the package left.
#
# Each check prints "PASS: ..." or "FAIL: ..."; the last line is
# "deb: N passed, M failed"; exit 1 on any failure.  Not root, or a memcgtop
# already installed in /usr (by a package or by hand), prints "SKIP: ..."
# and exits 77 (with CI=true: FAIL, exit 1): the test leaves the system as it
# found it, apart from the build packages it installed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

npass=0
nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
summary() {
	echo "deb: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
cannot_run() {
	if [ "${CI:-}" = true ]; then
		fail "deb: $1 (CI=true: not skipping)"
		summary
		exit 1
	fi
	echo "SKIP: deb: $1"
	exit 77
}

[ "$(id -u)" = 0 ] || cannot_run "not root (dpkg -i)"
[ -f "$top/debian/control" ] || cannot_run "no debian/ in $top"
status() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null; }
case $(status memcgtop) in
*installed* | *config-files* | *unpacked* | *half*)
	cannot_run "package memcgtop already on this system ($(status memcgtop))" ;;
esac
for f in /usr/bin/memcgtop /usr/share/memcgtop /usr/share/man/man1/memcgtop.1.gz \
	/usr/share/bash-completion/completions/memcgtop \
	/lib/systemd/system/memcgtop-textfile.service \
	/lib/systemd/system/memcgtop-exporter.service; do
	[ -e "$f" ] && cannot_run "$f exists already"
done

# ---- packages -------------------------------------------------------------------
bdeps=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' "$top/debian/control" |
	sed 's/^Build-Depends://; /^[A-Z]/d' | tr ',' '\n' |
	sed 's/(.*)//; s/^ *//; s/ *$//' | grep -v '^debhelper-compat$' | grep .)
missing=""
for p in dpkg-dev debhelper lintian gcc make $bdeps; do
	case $(status "$p") in *"ok installed"*) ;; *) missing="$missing $p" ;; esac
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	apt-get update -qq >/dev/null 2>&1
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >/dev/null 2>&1 ||
		cannot_run "apt-get install$missing failed"
fi
# dpkg-checkbuilddeps reads /var/lib/dpkg/status alone, not dpkg's
# journal (/var/lib/dpkg/updates) as dpkg-query does: after an
# interrupted dpkg run (a machine image made so: debhelper "installed" in
# the journal, "unpacked" in the file) the build refuses what is there.
# dpkg --configure -a merges the journal and ends the run.
if ! (cd "$top" && dpkg-checkbuilddeps) >/dev/null 2>&1; then
	echo "dpkg-checkbuilddeps: $(cd "$top" && dpkg-checkbuilddeps 2>&1 | head -n 1); dpkg --configure -a"
	DEBIAN_FRONTEND=noninteractive dpkg --configure -a >/dev/null 2>&1
	(cd "$top" && dpkg-checkbuilddeps) >/dev/null 2>&1 ||
		cannot_run "build dependencies unmet after dpkg --configure -a: $(cd "$top" && dpkg-checkbuilddeps 2>&1 | head -n 1)"
fi

# ---- state and cleanup ----------------------------------------------------------
T=
installed=
cleanup() {
	# Only if the test installed it and did not remove it yet.
	if [ -n "$installed" ]; then
		dpkg -P memcgtop >/dev/null 2>&1
		installed=
	fi
	[ -n "$T" ] && rm -rf "$T"
	T=
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
T=$(mktemp -d /tmp/memcgtop-deb.XXXXXX) || { fail "mktemp"; summary; exit 1; }
chmod 755 "$T"

# ---- build ----------------------------------------------------------------------------
mkdir "$T/memcgtop-0.1"
tar -C "$top" --exclude=./.git --exclude=./build --exclude=./memcgtop \
	--exclude=./memcgtop.tmp --exclude=./debian/memcgtop \
	--exclude=./debian/.debhelper --exclude='./debian/*.substvars' \
	--exclude=./debian/files --exclude='./debian/*debhelper*' \
	-cf - . | tar -C "$T/memcgtop-0.1" -xf - ||
	{ fail "copy of the source tree"; summary; exit 1; }
start=$(date +%s)
(cd "$T/memcgtop-0.1" && dpkg-buildpackage -us -uc -b) >"$T/build.log" 2>&1
rc=$?
arch=$(dpkg --print-architecture)
DEB=$T/memcgtop_0.1-1_${arch}.deb
if [ "$rc" = 0 ] && [ -f "$DEB" ]; then
	pass "dpkg-buildpackage -us -uc -b: $(basename "$DEB") in $(($(date +%s) - start)) s"
else
	fail "dpkg-buildpackage -us -uc -b: exit $rc"
	tail -25 "$T/build.log" | sed 's/^/  /'
	summary
	exit 1
fi
grep -q 'make.*check' "$T/build.log" && fail "the build ran make check" ||
	pass "the build did not run make check"
grep -q -- '-D_FORTIFY_SOURCE=2' "$T/build.log" &&
	pass "dpkg-buildflags reached the compiler (-D_FORTIFY_SOURCE=2)" ||
	fail "dpkg-buildflags' CPPFLAGS not on the compiler lines"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP" && cp "$T"/*.deb "$KEEP"/ && echo "  kept: $(ls "$KEEP")"
fi

# ---- the .deb -------------------------------------------------------------------------
dpkg-deb -c "$DEB" | awk '{print $6}' | sed 's|^\./|/|' >"$T/files"
miss=""
for f in /usr/bin/memcgtop /usr/share/man/man1/memcgtop.1.gz \
	/usr/share/memcgtop/themes/default.theme /usr/share/memcgtop/themes/light.theme \
	/usr/share/memcgtop/themes/mono.theme /usr/share/memcgtop/themes/high-contrast.theme \
	/usr/share/bash-completion/completions/memcgtop \
	/lib/systemd/system/memcgtop-textfile.service \
	/lib/systemd/system/memcgtop-exporter.service \
	/usr/share/doc/memcgtop/copyright /usr/share/doc/memcgtop/changelog.Debian.gz; do
	grep -qx "$f" "$T/files" || miss="$miss $f"
done
[ -z "$miss" ] && pass "the .deb holds the binary, man page, 4 themes, completion, units, copyright" ||
	fail "missing from the .deb:$miss"
stray=$(grep -v '/$' "$T/files" | grep -v '^/usr/bin/memcgtop$\|^/usr/share/man/man1/memcgtop\.1\.gz$\|^/usr/share/memcgtop/themes/[a-z-]*\.theme$\|^/usr/share/bash-completion/completions/memcgtop$\|^/lib/systemd/system/memcgtop-textfile\.service$\|^/lib/systemd/system/memcgtop-exporter\.service$\|^/usr/share/doc/memcgtop/')
[ -z "$stray" ] && pass "nothing else in the .deb" || fail "unexpected files in the .deb: $stray"
dep=$(dpkg-deb -f "$DEB" Depends)
miss=""
for lib in libc6 libncursesw6 libtinfo6 libcgroup libproc2 libmicrohttpd; do
	echo "$dep" | grep -q "$lib" || miss="$miss $lib"
done
[ -z "$miss" ] && pass "Depends from shlibs: $dep" || fail "Depends '$dep' lacks$miss"

lintian --no-cfg "$DEB" >"$T/lintian.out" 2>&1
errs=$(grep '^E:' "$T/lintian.out")
[ -z "$errs" ] && pass "lintian: no errors" || fail "lintian errors:
$errs"
grep '^[WIP]:' "$T/lintian.out" | sed 's/^/  lintian /'

# ---- installed --------------------------------------------------------------------------
if dpkg -i "$DEB" >"$T/dpkg-i.log" 2>&1; then
	installed=1
	pass "dpkg -i $(basename "$DEB")"
else
	fail "dpkg -i: $(tail -5 "$T/dpkg-i.log")"
	dpkg -P memcgtop >/dev/null 2>&1
	summary
	exit 1
fi
v=$(/usr/bin/memcgtop -V 2>&1)
rc=$?
[ "$rc" = 0 ] && echo "$v" | grep -q '0\.1' && pass "memcgtop -V: $v" ||
	fail "memcgtop -V: exit $rc, '$v'"
# From an empty folder, with an empty HOME: only the installed files count.
mkdir "$T/home" "$T/empty"
run() { (cd "$T/empty" && env -u XDG_CONFIG_HOME HOME="$T/home" /usr/bin/memcgtop "$@"); }
out=$(run -b -n 1 -d 0.2 2>&1 >"$T/b.out")
rc=$?
[ "$rc" = 0 ] && [ -s "$T/b.out" ] && [ -z "$out" ] &&
	pass "memcgtop -b -n 1 -d 0.2: exit 0, $(wc -l <"$T/b.out") lines" ||
	fail "memcgtop -b -n 1 -d 0.2: exit $rc, stderr '$out'"
if [ -f /usr/share/man/man1/memcgtop.1.gz ] &&
	zcat /usr/share/man/man1/memcgtop.1.gz | grep -q '^\.TH MEMCGTOP 1'; then
	w=$(man -w memcgtop 2>/dev/null)
	pass "man page installed${w:+ (man -w: $w)}"
else
	fail "no man page /usr/share/man/man1/memcgtop.1.gz"
fi
n=$(ls /usr/share/memcgtop/themes/*.theme 2>/dev/null | wc -l)
[ "$n" = 4 ] && pass "4 themes in /usr/share/memcgtop/themes" ||
	fail "$n themes in /usr/share/memcgtop/themes"
out=$(run -t light -b -n 1 -d 0.2 2>&1 >/dev/null)
rc=$?
[ "$rc" = 0 ] && [ -z "$out" ] && pass "memcgtop -t light -b -n 1: theme found (exit 0)" ||
	fail "memcgtop -t light -b -n 1: exit $rc, '$out'"
out=$(run -t no-such-theme -b -n 1 -d 0.2 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ] && pass "memcgtop -t no-such-theme: exit 2 ($out)" ||
	fail "memcgtop -t no-such-theme: exit $rc, '$out'"
c=$(bash --norc -c '. /usr/share/bash-completion/completions/memcgtop && complete -p memcgtop' 2>&1)
[ "$c" = "complete -F _memcgtop memcgtop" ] && pass "bash completion installed: $c" ||
	fail "bash completion: '$c'"
if command -v systemd-analyze >/dev/null 2>&1; then
	for u in memcgtop-textfile memcgtop-exporter; do
		out=$(systemd-analyze verify /lib/systemd/system/$u.service 2>&1)
		[ -z "$out" ] && pass "systemd-analyze verify $u.service: clean" ||
			fail "systemd-analyze verify $u.service: $out"
	done
fi

# ---- removed ----------------------------------------------------------------------------
if dpkg -r memcgtop >"$T/dpkg-r.log" 2>&1; then
	pass "dpkg -r memcgtop"
else
	fail "dpkg -r memcgtop: $(tail -3 "$T/dpkg-r.log")"
fi
# No conffiles: removal leaves nothing; purge drops any state left.
st=$(status memcgtop)
case $st in *config-files*) dpkg -P memcgtop >/dev/null 2>&1 ;; esac
installed=
left=""
for f in $(grep -v '/$' "$T/files") /usr/share/memcgtop; do
	[ -e "$f" ] && left="$left $f"
done
st=$(status memcgtop)
case $st in
"" | *not-installed*) [ -z "$left" ] && pass "nothing of the package left (status: ${st:-not known to dpkg})" ||
	fail "left after dpkg -r:$left" ;;
*) fail "package state after removal: $st" ;;
esac

cleanup
summary
