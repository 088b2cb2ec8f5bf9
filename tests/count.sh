# SPDX-License-Identifier: GPL-2.0-or-later
# tests/count.sh - kept for the scripts that source it here: the counting
# is tests/lib/count.sh.
. "$(dirname "${BASH_SOURCE[0]}")/lib/count.sh"
