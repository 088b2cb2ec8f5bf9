#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - memcgtop over ssh: on a terminal that ssh gives it, when that
# connection drops, and in batch mode without a terminal.
#
# Usage (as root):  tests/ssh/run.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a missing prerequisite is a failure, not a skip
#
# Installs openssh-server and openssh-client when missing (apt-get, with a
# policy-rc.d that keeps the package from starting the system's sshd while
# it installs, when the host has none).  Starts a private sshd on
# 127.0.0.1 and a free port (sshd -f CONFIG -D) with a throwaway host key
# and a throwaway client key in a temporary directory (UsePAM no,
# StrictModes no, PermitRootLogin yes, AuthorizedKeysFile in that
# directory); the system's sshd, /etc/ssh and ~/.ssh are not touched (the
# client runs with -F /dev/null and its own known_hosts file).  Loopback
# only.
#
# (a) In a private tmux server (100x30), `ssh -tt root@127.0.0.1` runs
#     memcgtop on the v2-live series (-d 60, a --root path unique to this
#     run); after Down and Tab the screen must equal that of a memcgtop
#     started locally in the same way (header, column set, every row).
#     Then the ssh client is killed (SIGKILL): within 5 s no process with
#     the unique argument is left on the server side, and none of the
#     private sshd's session processes.
# (b) `ssh root@127.0.0.1 memcgtop -b -F json --root ... -n 1` (no tty):
#     exit 0, one line of valid JSON with the fixture's groups, empty
#     stderr; and the same without -b (batch implied: stdout is not a
#     terminal).
#
# Each check prints "PASS: ..." or "FAIL: ..."; the last line is "ssh: N
# passed, M failed"; exit 1 on any failure.  Without root, or when the
# packages cannot be installed: SKIP (exit 77; with CI=true a FAIL).  sshd,
# the tmux server and the temporary directory are removed on exit; only
# processes the test started are killed.
set -u
LC_ALL=C.UTF-8
export -n LC_ALL
export TZ=UTC
unset TMUX TMUX_PANE

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
V2=$top/tests/fixtures/v2-live
. "$top/tests/lib/tmux.sh"
tmux_private ssh
t_start=$SECONDS

npass=0 nfail=0
SCREEN=''
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
	if [ -n "$SCREEN" ]; then
		echo "  screen:"
		printf '%s\n' "$SCREEN" | sed 's/^/    |/'
	fi
	SCREEN=''
}
summary() {
	echo "time: $((SECONDS - t_start)) s"
	echo "ssh: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
cannot_run() {
	if [ "${CI:-}" = true ]; then
		fail "$1 (CI=true: not skipping)"
		summary
		exit 1
	fi
	echo "SKIP: ssh: $1"
	exit 77
}

[ "$(id -u)" = 0 ] || cannot_run "not root (sshd with PermitRootLogin, package install)"
for tool in tmux python3; do
	command -v "$tool" >/dev/null 2>&1 || cannot_run "$tool not installed"
done
if [ ! -x "$MEMCGTOP" ]; then
	fail "no binary at $MEMCGTOP (run make)"
	summary
	exit 1
fi

# ---- packages ----------------------------------------------------------------
missing=''
for p in openssh-server openssh-client; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=" $p"
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	made_policy=''
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		# Keep the package from starting the system's sshd.
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d &&
			chmod 755 /usr/sbin/policy-rc.d && made_policy=1
	fi
	# shellcheck disable=SC2086
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $missing; } \
		>/tmp/memcgtop-ssh-apt.$$ 2>&1
	rc=$?
	[ -n "$made_policy" ] && rm -f /usr/sbin/policy-rc.d
	if [ $rc != 0 ]; then
		tail -5 /tmp/memcgtop-ssh-apt.$$
		rm -f /tmp/memcgtop-ssh-apt.$$
		cannot_run "apt-get install$missing failed"
	fi
	rm -f /tmp/memcgtop-ssh-apt.$$
fi
SSHD=/usr/sbin/sshd
[ -x "$SSHD" ] || cannot_run "no $SSHD after installing openssh-server"
command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1 ||
	cannot_run "no ssh / ssh-keygen after installing openssh-client"

# ---- state and cleanup ---------------------------------------------------------
tmp=$(mktemp -d /tmp/memcgtop-ssh.XXXXXX)
chmod 755 "$tmp"
SSHD_PID='' made_privsep=''
cleanup() {
	local i
	tmux_stop
	if [ -n "$SSHD_PID" ]; then
		kill -TERM "$SSHD_PID" 2>/dev/null
		for i in $(seq 50); do kill -0 "$SSHD_PID" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$SSHD_PID" 2>/dev/null
		wait "$SSHD_PID" 2>/dev/null
	fi
	[ -n "$made_privsep" ] && rmdir /run/sshd 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ---- a private sshd --------------------------------------------------------------
ssh-keygen -q -t ed25519 -N '' -f "$tmp/hostkey" -C memcgtop-test-host &&
	ssh-keygen -q -t ed25519 -N '' -f "$tmp/clientkey" -C memcgtop-test-client &&
	cp "$tmp/clientkey.pub" "$tmp/authorized_keys" || {
	fail "ssh-keygen failed"
	summary
	exit 1
}
# sshd needs its privilege separation directory.
if [ ! -d /run/sshd ]; then
	mkdir -m 755 /run/sshd && made_privsep=1
fi
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
SSH=()
for _ in 1 2 3; do
	PORT=$(free_port)
	cat >"$tmp/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $tmp/hostkey
PidFile $tmp/sshd.pid
AuthorizedKeysFile $tmp/authorized_keys
UsePAM no
StrictModes no
PermitRootLogin yes
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PrintMotd no
PrintLastLog no
X11Forwarding no
AllowTcpForwarding no
ClientAliveInterval 0
LogLevel VERBOSE
EOF
	"$SSHD" -t -f "$tmp/sshd_config" >"$tmp/sshd-t.log" 2>&1 || {
		fail "sshd -t rejects the test config: $(head -3 "$tmp/sshd-t.log")"
		summary
		exit 1
	}
	"$SSHD" -f "$tmp/sshd_config" -D -E "$tmp/sshd.log" &
	SSHD_PID=$!
	SSH=(ssh -F /dev/null -p "$PORT" -i "$tmp/clientkey" -o IdentitiesOnly=yes
		-o BatchMode=yes -o StrictHostKeyChecking=no
		-o UserKnownHostsFile="$tmp/known_hosts" -o ConnectTimeout=5
		-o LogLevel=ERROR root@127.0.0.1)
	ok=''
	for ((i = 0; i < 100; i++)); do
		kill -0 "$SSHD_PID" 2>/dev/null || break
		if grep -q "Server listening on 127.0.0.1 port $PORT" "$tmp/sshd.log" 2>/dev/null &&
			"${SSH[@]}" true </dev/null >/dev/null 2>"$tmp/ssh-probe.err"; then
			ok=1
			break
		fi
		sleep 0.1
	done
	[ -n "$ok" ] && break
	kill "$SSHD_PID" 2>/dev/null
	wait "$SSHD_PID" 2>/dev/null
	SSHD_PID=''
done
if [ -z "$ok" ]; then
	fail "the private sshd did not accept a login: $(tail -3 "$tmp/sshd.log" 2>/dev/null | tr '\n' '|') $(head -c 300 "$tmp/ssh-probe.err" 2>/dev/null)"
	summary
	exit 1
fi
pass "private sshd on 127.0.0.1:$PORT (pid $SSHD_PID) accepts the test key"

# ---- (a) interactive over ssh -tt, then the connection drops ----------------------------
echo "== (a) interactive over ssh -tt"
# A --root path unique to this run: the server-side processes are found by it.
uniq=$tmp/fx-ssh-$$
ref=$tmp/fx-ref-$$
ln -s "$top/tests/fixtures" "$uniq"
ln -s "$top/tests/fixtures" "$ref"
remote="cd $(printf %q "$tmp") && env TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/config HOME=$tmp $(printf '%q ' "$MEMCGTOP" -d 60 --root "$uniq/v2-live/cg" --proc "$V2/proc"); echo REMOTE-EXIT=\$?"
local_cmd="cd $(printf %q "$tmp") && env TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$tmp/config HOME=$tmp $(printf '%q ' "$MEMCGTOP" -d 60 --root "$ref/v2-live/cg" --proc "$V2/proc"); echo EXIT=\$?; exec cat"
mkdir -p "$tmp/config"
tm new-session -d -s keeper -x 80 -y 24 'exec cat'
tm new-session -d -s remote -x 100 -y 30 "exec $(printf '%q ' "${SSH[@]}" -tt) $(printf %q "$remote")"
tm new-session -d -s local -x 100 -y 30 "bash --norc --noprofile -c $(printf %q "$local_cmd")"

# The series: sample 0 at the start, sample 1 within a second, then -d 60.
T1=$(date -d "@$(sed -n 2p "$V2/cg/timestamps" | awk '{ print $2 }')" +%H:%M:%S)
up=1
for s in remote local; do
	if ! wait_for "$s" "^memcgtop $T1  every 60.0s  .*v2 " 10; then
		fail "(a) $s: the screen did not come up on sample 1 ($T1)"
		up=''
	fi
done
if [ -n "$up" ]; then
	SCREEN=$(cap remote)
	l1=$(sed -n 1p <<<"$SCREEN")
	# The root as far as the 100 columns show it (the run's folder name
	# holds a pid: its length varies).
	shown=${l1#*" v2 files "}
	shown=${shown%% *}
	if [[ $l1 == "memcgtop $T1  every 60.0s  "* && $l1 == *" v2 files "* &&
	      ${#shown} -ge ${#uniq} && "$uniq/v2-live/cg" == "$shown"* ]]; then
		pass "(a) over ssh -tt: header line 1: time $T1, every 60.0s, v2, the collector and the root"
	else
		fail "(a) over ssh -tt: header line 1 is '$l1'"
	fi
	if grep -qE '^ +[0-9.]+[KMG]? +(max|[0-9.]+[KMG]?) .* ▾ fixture$' <<<"$SCREEN"; then
		pass "(a) over ssh -tt: the row of /fixture with its values"
	else
		fail "(a) over ssh -tt: no row for /fixture"
	fi
	for s in remote local; do
		tm send-keys -t "$s" Down
		tm send-keys -t "$s" Tab
	done
	wait_for remote '^Columns: memory ' 5
	wait_for local '^Columns: memory ' 5
	same=''
	for ((i = 0; i < 60; i++)); do
		want=$(cap local | sed "s|$ref/|$uniq/|")
		got=$(cap remote)
		[ "$got" = "$want" ] && { same=1; break; }
		sleep 0.05
	done
	if [ -n "$same" ] && grep -q '^Columns: memory ' <<<"$got"; then
		pass "(a) over ssh -tt: after Down and Tab the screen equals a local memcgtop's (memory set, $(grep -c . <<<"$got") lines)"
	else
		SCREEN=$got
		fail "(a) over ssh -tt: the screen differs from a local memcgtop's: $(diff <(echo "$want") <(echo "$got") | head -8 | tr '\n' '|')"
	fi
	# the server side: memcgtop under the private sshd
	rpid=$(pgrep -f -- "^$MEMCGTOP .*--root $uniq/")
	cpid=$(tm display -p -t remote '#{pane_pid}')
	if [ -n "$rpid" ] && [ "$(wc -w <<<"$rpid")" = 1 ] && [ "$(ps -o comm= -p "$cpid")" = ssh ]; then
		pass "(a) server side: memcgtop is pid $rpid, the ssh client pid $cpid"
		kill -KILL "$cpid"
		left=''
		for ((i = 0; i < 100; i++)); do
			left=$(pgrep -f -- "$uniq/")
			[ -z "$left" ] && break
			sleep 0.05
		done
		if [ -z "$left" ]; then
			pass "(a) ssh client killed: no process with the run's unique argument within $((i / 20)).$((i % 20 * 5)) s"
		else
			fail "(a) ssh client killed: still there after 5 s: $(ps -o pid=,stat=,pcpu=,args= -p "$(echo $left | tr ' ' ,)")"
			kill -KILL $left 2>/dev/null
		fi
		kids=''
		for ((i = 0; i < 60; i++)); do
			kids=$(pgrep -P "$SSHD_PID")
			[ -z "$kids" ] && break
			sleep 0.05
		done
		if [ -z "$kids" ]; then
			pass "(a) ssh client killed: the private sshd has no session process left"
		else
			fail "(a) ssh client killed: sshd session processes left: $(ps -o pid=,args= -p "$(echo $kids | tr ' ' ,)")"
		fi
	else
		fail "(a) server side: memcgtop '$rpid' or the ssh client '$cpid' not found"
	fi
fi
tm kill-server 2>/dev/null

# ---- (b) batch over ssh without a tty ---------------------------------------------------------
echo "== (b) batch over ssh, no tty"
ngroups=$(cd "$V2/cg/1" && find . -type d ! -name 'memory.*' | wc -l)
for how in "-b" ""; do
	desc="(b) ssh memcgtop ${how:+$how }-F json --root ... -n 1"
	"${SSH[@]}" "$(printf '%q ' "$MEMCGTOP" $how -F json --root "$V2/cg" --proc "$V2/proc" -n 1)" \
		</dev/null >"$tmp/b.out" 2>"$tmp/b.err"
	rc=$?
	if [ "$rc" = 0 ] && [ ! -s "$tmp/b.err" ]; then
		pass "$desc: exit 0, stderr empty"
	else
		fail "$desc: exit $rc, stderr: $(head -c 300 "$tmp/b.err")"
	fi
	if python3 - "$tmp/b.out" "$ngroups" <<'EOF'; then
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
assert lines[-1] == "", "no final newline"
lines = lines[:-1]
assert len(lines) == 1, "%d lines" % len(lines)
d = json.loads(lines[0])
assert d["iteration"] == 1 and d["mode"] == "v2", (d.get("iteration"), d.get("mode"))
paths = [g["path"] for g in d["groups"]]
assert len(paths) == int(sys.argv[2]) and "/" in paths and "/fixture" in paths, paths
EOF
		pass "$desc: one line of valid JSON, iteration 1, $ngroups groups"
	else
		fail "$desc: output is not one valid JSON line with the fixture's groups: $(head -c 300 "$tmp/b.out")"
	fi
done

# ---- the end ---------------------------------------------------------------------------------
kill -TERM "$SSHD_PID"
for ((i = 0; i < 50; i++)); do kill -0 "$SSHD_PID" 2>/dev/null || break; sleep 0.1; done
if ! kill -0 "$SSHD_PID" 2>/dev/null && [ -z "$(pgrep -f -- "$tmp/sshd_config")" ]; then
	pass "the private sshd stopped, no process of it left"
	wait "$SSHD_PID" 2>/dev/null
	SSHD_PID=''
else
	fail "the private sshd did not stop"
fi
summary
