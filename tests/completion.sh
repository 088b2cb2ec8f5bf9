#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# completion.sh - the bash completion contrib/bash-completion/memcgtop.
#
# Sources it in this bash (without bash-completion), fills COMP_LINE,
# COMP_POINT, COMP_WORDS and COMP_CWORD the way bash does for a command
# line (words split at blanks and at ":" and "=", which are in
# COMP_WORDBREAKS), calls _memcgtop and compares COMPREPLY.  Group paths
# come from small v1 and v2 trees made in a temporary directory (--root),
# and from the live hierarchy when this host has one.
#   MEMCGTOP  the binary to complete for (default: ./memcgtop)
# Prints PASS:/FAIL: lines and "completion: N passed, M failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=${MEMCGTOP:-$top/memcgtop}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
pass=0 fail=0
ok()  { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# "memcgtop" on PATH is the binary under test.
mkdir "$T/bin" && ln -s "$BIN" "$T/bin/memcgtop"
PATH=$T/bin:$PATH
export XDG_CONFIG_HOME=$T/config
mkdir -p "$XDG_CONFIG_HOME/memcgtop/themes"
printf 'header = white blue bold\n' >"$XDG_CONFIG_HOME/memcgtop/themes/mine.theme"
# A v1-shaped and a v2-shaped tree.
mkdir -p "$T/v1/a" "$T/v1/b/c" "$T/v1/b/d" "$T/v2/sys.slice/x" "$T/v2/user.slice"
touch "$T/v1/memory.usage_in_bytes" "$T/v2/cgroup.controllers"

# shellcheck source=../contrib/bash-completion/memcgtop
. "$top/contrib/bash-completion/memcgtop" || { bad "sourcing the completion"; exit 1; }
complete -p memcgtop >/dev/null 2>&1 && ok "complete -F _memcgtop memcgtop registered" ||
	bad "no completion registered for memcgtop"

# comp LINE: runs the completion for LINE (cursor at its end); the result
# is in COMPREPLY, sorted, one line each in $got.
comp() {
	local line=$1 w
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMP_WORDS=()
	# Blanks separate words; each run of ":" or "=" is a word of its own.
	for w in $line; do
		while [[ -n $w ]]; do
			if [[ $w =~ ^([:=]+)(.*)$ ]] || [[ $w =~ ^([^:=]+)(.*)$ ]]; then
				COMP_WORDS+=("${BASH_REMATCH[1]}")
				w=${BASH_REMATCH[2]}
			fi
		done
	done
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_memcgtop memcgtop "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>"$T/err"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	got=${got% }
}

# expect LINE WANT: the candidates are exactly WANT (sorted, blank-separated).
expect() {
	comp "$1"
	if [ "$got" = "$2" ] && [ ! -s "$T/err" ]; then
		ok "'$1' -> $2"
	else
		bad "'$1' -> '$got' (want '$2')$( [ -s "$T/err" ] && echo "; stderr: $(head -c 200 "$T/err")")"
	fi
}
# has LINE WORD...: the candidates include every WORD.
has() {
	local line=$1 w miss=
	shift
	comp "$line"
	for w in "$@"; do
		[[ " $got " == *" $w "* ]] || miss="$miss $w"
	done
	[ -z "$miss" ] && [ ! -s "$T/err" ] && ok "'$line' offers $*" ||
		bad "'$line' lacks$miss (got '$(echo "$got" | cut -c1-200)')"
}

# Options, formats, columns, themes.
expect 'memcgtop -F j' 'json'
expect 'memcgtop -F ' 'csv json openmetrics prometheus text'
expect 'memcgtop --format=p' 'prometheus'
expect 'memcgtop --collector ' 'auto bpf files'
expect 'memcgtop --collector=b' 'bpf'
expect 'memcgtop --compat ' 'cadvisor'
expect 'memcgtop -c us' "$(memcgtop --list-columns | awk '$1 ~ /^us/ {print $1}' | sort | tr '\n' ' ' | sed 's/ $//')"
expect 'memcgtop -c usage,li' 'usage,limit'
expect 'memcgtop -c usage,limit,lim' ''
expect 'memcgtop -c usage,limit,usa' 'usage,limit,usage_swap'
expect 'memcgtop -o -exc' '-excess'
expect 'memcgtop --sort +pgscan_p' '+pgscan_per_s'
expect 'memcgtop --th' '--theme'
expect 'memcgtop -t hi' 'high-contrast'
expect 'memcgtop --theme mi' 'mine'
has 'memcgtop -t ' default light mono high-contrast mine
expect 'memcgtop --list-c' '--list-columns'
# Every option of --help is offered.
want=$(memcgtop --help | grep -o -- '--[a-z][a-z-]*' | sort -u | tr '\n' ' ')
# shellcheck disable=SC2086
has 'memcgtop --' $want
has 'memcgtop -' -b -n -d -o -c -F -f -r -t -h -V
if memcgtop --help | grep -q -- '--output'; then
	expect 'memcgtop --outp' '--output'
	mkdir "$T/out.d" && touch "$T/out.d/node.prom"
	expect "memcgtop -F prometheus --output $T/out.d/no" "$T/out.d/node.prom"
fi
# Numbers are not completed.
expect 'memcgtop -n ' ''

# --set and CGROUP paths (bash replaces only the part after the last ":" or
# "=", or that ":" or "=" itself when it is the last character) on the trees, v1 and v2 knobs.
expect "memcgtop --root $T/v1 --set /" '/ /a /b'
expect "memcgtop --root $T/v1 --set /b" '/b /b:'
expect "memcgtop --root $T/v1 --set /b/" '/b/c /b/d'
expect "memcgtop --root $T/v1 --set /b:s" 'soft= swappiness='
expect "memcgtop --root $T/v1 --set /b:" ':limit= :memsw= :soft= :swappiness='
expect "memcgtop --root $T/v1 --set /b:limit=" '=max'
expect "memcgtop --root=$T/v2 --set /sys.slice:sw" 'swap.max='
expect "memcgtop --root $T/v2 --set /sys.slice:oom.group=" '=0 =1'
expect "memcgtop --root $T/v2 --set /sys.slice:h" 'high='
expect "memcgtop --root $T/v2 /s" '/sys.slice'
expect "memcgtop --root $T/v2 -b /sys.slice/" '/sys.slice/x'
expect "memcgtop --root $T/v1 /b/c" '/b/c'
has "memcgtop --root $T/" "$T/v1/" "$T/v2/"

# The live hierarchy: top-level groups of this host.
if [ -e /sys/fs/cgroup/memory/memory.usage_in_bytes ]; then
	live=/sys/fs/cgroup/memory
elif [ -e /sys/fs/cgroup/cgroup.controllers ]; then
	live=/sys/fs/cgroup
else
	live=
fi
if [ -n "$live" ]; then
	want=$(cd "$live" && for d in */; do [ -d "$d" ] && echo "/${d%/}"; done | head -20)
	# shellcheck disable=SC2086
	has 'memcgtop --set /' / $want
fi

echo "completion: $pass passed, $fail failed"
[ "$fail" = 0 ]
