#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# layers.sh - the screen (src/tui) reads the model only: none of its files
# includes cgfs.h, reclaim.h or a header of the source or BPF layer
# (src/source, src/bpf), and none calls a cgfs_ function.  What a pane
# shows of a group the collector reads into the model (pipeline_focus,
# model.focus); edits go through edit.h.
# Prints PASS:/FAIL: lines and "layers: N passed, M failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
ok()  { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# The headers the screen must not include: the source's interface, the
# reclaim events', and every header of src/source and src/bpf, by its
# name or its path below src/.
lower=$(cd "$top/src" && ls source/*.h bpf/*.h | sed 's,.*/,,' | sort -u |
	sed 's/\./\\./g' | paste -sd'|')
hdr_re="^[[:space:]]*#[[:space:]]*include[[:space:]]*\"((bpf|source)/[^\"]*|cgfs\\.h|reclaim\\.h|$lower)\""

# The include lines of the .c and .h files in DIR that name one.
includes() {
	grep -nE "$hdr_re" "$1"/*.c "$1"/*.h 2>/dev/null
}

# The lines of the .c and .h files in DIR that call a cgfs_ function
# (comment lines left out).
calls() {
	grep -nE '(^|[^A-Za-z0-9_])cgfs_[A-Za-z0-9_]*[[:space:]]*\(' \
		"$1"/*.c "$1"/*.h 2>/dev/null |
		grep -vE '^[^:]*:[0-9]+:[[:space:]]*(\*|/\*|//)'
}

out=$(includes "$top/src/tui")
if [ -z "$out" ]; then
	ok "src/tui includes no header of the source or BPF layer"
else
	bad "src/tui includes a header of the source or BPF layer: $out"
fi
out=$(calls "$top/src/tui")
if [ -z "$out" ]; then
	ok "src/tui calls no cgfs_ function"
else
	bad "src/tui calls the source layer: $out"
fi

# The checks themselves find what is planted, in a copy.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp "$top"/src/tui/*.c "$top"/src/tui/*.h "$T"/
for h in cgfs.h reclaim.h bpf/bpfoom.h source/sysinfo.h cgfs_int.h \
	 memcg_rec.h; do
	for f in pane.c tui_int.h; do
		cp "$top/src/tui/$f" "$T/$f"
		sed -i "1a #include \"$h\"" "$T/$f"
		if includes "$T" | grep -q "/$f:2:"; then
			ok "a planted #include \"$h\" in $f is found"
		else
			bad "a planted #include \"$h\" in $f is not found"
		fi
		cp "$top/src/tui/$f" "$T/$f"
	done
done
for c in 'n = cgfs_pids(t->cg, p, &pids, &n);' \
	 'if (cgfs_read_knob (cg, p, f, b, sizeof(b)) < 0)'; do
	printf '%s\n' "$c" >> "$T/draw.c"
	if calls "$T" | grep -qF "$c"; then
		ok "a planted call '$c' is found"
	else
		bad "a planted call '$c' is not found"
	fi
	cp "$top/src/tui/draw.c" "$T/draw.c"
done
# ... and not a comment that names one, nor a type (in a file alone).
mkdir "$T/alone"
printf '%s\n' ' * as cgfs_detail() reads them' 'struct cgfs_opts o;' \
	'x = my_cgfs_pids(1);' > "$T/alone/a.c"
if [ -z "$(calls "$T/alone")" ]; then
	ok "a comment, a type or another name with cgfs_ in it is no call"
else
	bad "taken for a call: $(calls "$T/alone")"
fi

echo "layers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
