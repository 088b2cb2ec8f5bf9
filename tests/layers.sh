#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# layers.sh - the screen (src/tui) includes no header of the source or
# BPF layer: it reads the model (model.h, model.src) and asks through the
# pipeline.  cgfs.h is still reached through tui_int.h alone, for the
# detail pane's and the dialog's reads that have not moved yet.
# Prints PASS:/FAIL: lines and "layers: N passed, M failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
ok()  { echo "PASS: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

# The include lines of the .c and .h files in DIR that name a header of
# the source or BPF layer (cgfs.h only outside tui_int.h).
offenders() {
	grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"((bpf|source)/[^"]*|reclaim\.h|bpfoom\.h|cgfs\.h|cgfs_int\.h|source\.h)"' \
		"$1"/*.c "$1"/*.h 2>/dev/null |
		grep -vE '/tui_int\.h:[0-9]+:#include "cgfs\.h"$'
}

out=$(offenders "$top/src/tui")
if [ -z "$out" ]; then
	ok "src/tui includes no header of the source or BPF layer"
else
	bad "src/tui includes a header of the source or BPF layer: $out"
fi

# The check itself finds such an include (a planted one, in a copy).
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp "$top"/src/tui/*.c "$top"/src/tui/*.h "$T"/
for h in reclaim.h bpf/bpfoom.h cgfs.h; do
	cp "$top/src/tui/pane.c" "$T/pane.c"
	sed -i "1a #include \"$h\"" "$T/pane.c"
	if offenders "$T" | grep -q "pane.c:2:"; then
		ok "a planted #include \"$h\" in pane.c is found"
	else
		bad "a planted #include \"$h\" in pane.c is not found"
	fi
done
cp "$top/src/tui/pane.c" "$T/pane.c"

echo "layers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
