# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/count.sh - PASS/FAIL counting for the shell tests, sourced.  Each
# check prints one "PASS: ..." or "FAIL: ..." line (tests/run-all.sh counts
# them); the test prints its own summary from npass and nfail.
npass=0
nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
# tally FILE: shows a helper's output and counts its PASS/FAIL lines.
tally() {
	local line
	while IFS= read -r line; do
		echo "$line"
		case $line in
		PASS:*) npass=$((npass + 1)) ;;
		FAIL:*) nfail=$((nfail + 1)) ;;
		esac
	done <"$1"
}
