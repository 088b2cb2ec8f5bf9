# SPDX-License-Identifier: GPL-2.0-or-later
# tests/listen_hostile.py MODE PORT PID WANT [CAP] - the clients of
# tests/listen-hostile.sh, on the loopback only, against memcgtop --listen
# 127.0.0.1:PORT (pid PID) whose every scrape is WANT's bytes (WANT "-":
# a live tree's, an exposition with memcgtop_usage_bytes).  A scrape is a
# new connection with 1 s (SCRAPE_TIMEOUT) for the connection and the
# whole answer.
#
# attack: 2,000 idle connections and 16 that trickle half a request (a
# byte every 2 s), from 127.0.0.1 like the scrapes, each opened again
# IDLE_REOPEN / TRICKLE_REOPEN s (default 1) after memcgtop closes it,
# from a thread of their own; from the main one, while they are held,
# SCRAPES scrapes (default 12) 1 s apart, and five odd requests (300
# query parameters, a 20,000-byte path, 64 KiB of headers, request lines
# without a space) with 2 s each for their exact status line; memcgtop's
# descriptors (/proc/PID/fd) counted after every scrape.
#
# lines: request lines libmicrohttpd 0.9.75 closes without a status (no
# space, a space first) and others, sent whole and a byte at a time: each
# its exact status line (memcgtop's 400 with its exact bytes), a good
# request trickled or after empty lines 200; a connection serves one
# request: a scrape's answer says "Connection: close" and memcgtop closes
# the connection after it (a line without a space cannot follow on it to
# be closed unanswered), a second request sent with the first too.
#
# spread: 60 idle connections from each of 20 addresses (127.0.0.10 to
# 127.0.0.29), 1,200, none above the per-address cap (64) but more than
# CAP in all: memcgtop holds CAP of them (its descriptors) and closes the
# rest (waited for, 10 s at most: a connect the full listen queue dropped
# while memcgtop was not running is sent again by the kernel 1 s later,
# then 3 s, then 7 s), and three scrapes from 127.0.0.1 are answered.
#
# Prints a PASS:/FAIL: line a check and INFO: lines; exits 0.  Bounded:
# it ends after its last request, every socket closed.
import errno
import os
import resource
import selectors
import socket
import sys
import threading
import time

MODE, PORT, PID, WANT = sys.argv[1], int(sys.argv[2]), sys.argv[3], \
    sys.argv[4]
IDLE, TRICKLE = 2000, 16
SCRAPES = int(os.environ.get("SCRAPES", "12"))
TRICKLE_EVERY = 2.0     # s between a trickler's bytes
# s from memcgtop's close to the next connect, by kind (0: never)
REOPEN = {"idle": float(os.environ.get("IDLE_REOPEN", "1")),
          "trickle": float(os.environ.get("TRICKLE_REOPEN", "1"))}
# s for a scrape: connect, request, whole answer
SCRAPE_TIMEOUT = float(os.environ.get("SCRAPE_TIMEOUT", "1"))
ODD_TIMEOUT = 2.0       # s for an odd request's status line
HEAD = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: "
SCRAPE = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n"
SPREAD_ADDRS, SPREAD_EACH = 20, 60

want = open(WANT, "rb").read() if WANT != "-" else b""


def say(kind, msg):
    print("%s: %s" % (kind, msg), flush=True)


# The client's descriptors: the attack's sockets and a few more.
need = IDLE + TRICKLE + 64
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if soft < need:
    if hard != resource.RLIM_INFINITY and hard < need:
        say("FAIL", "RLIMIT_NOFILE's hard limit %d is below the %d sockets "
            "the clients need (ulimit -Hn)" % (hard, need))
        sys.exit(0)
    resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))


def fds():
    try:
        return len(os.listdir("/proc/%s/fd" % PID))
    except OSError:
        return -1


def request(req, timeout, whole):
    """(status line, body, seconds, seconds to connect); whole: read the
    answer to its end (Content-Length), else only its status line."""
    t0 = time.monotonic()
    end = t0 + timeout
    data = b""
    try:
        s = socket.create_connection(("127.0.0.1", PORT), timeout)
    except OSError as e:
        secs = time.monotonic() - t0
        return "(no connection: %s)" % e, b"", secs, secs
    up = time.monotonic() - t0
    try:
        s.settimeout(max(end - time.monotonic(), 0.001))
        s.sendall(req)
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise socket.timeout("timed out")
            s.settimeout(left)
            d = s.recv(65536)
            if not d:
                break
            data += d
            head, sep, body = data.partition(b"\r\n\r\n")
            if sep and not whole:
                break
            if sep:
                n = [ln.split(b":", 1)[1] for ln in head.split(b"\r\n")
                     if ln.lower().startswith(b"content-length:")]
                if n and len(body) >= int(n[0]):
                    break
    except OSError as e:
        if not data:
            s.close()
            return "(%s)" % (e or "timed out"), b"", \
                time.monotonic() - t0, up
    except ValueError:
        pass
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    line = head.split(b"\r\n")[0].decode("latin-1") or "(closed, nothing)"
    return line, body, time.monotonic() - t0, up


def scrape_ok(line, body):
    if not line.startswith("HTTP/1.1 200 "):
        return False
    if WANT == "-":
        # a live tree: an exposition, its values of the moment
        return body.startswith(b"# HELP memcgtop_") and \
            b"\nmemcgtop_usage_bytes{" in body
    return body == want


def scrape_bad(i, line, body, secs):
    return "scrape %d: '%s' in %.2f s, %d of %d bytes%s" % (
        i + 1, line, secs, len(body), len(want),
        ", other bytes" if body and body != want else "")


class Attack(threading.Thread):
    """The idle and trickling connections, opened again when closed."""

    def __init__(self):
        super().__init__(daemon=True)
        self.sel = selectors.DefaultSelector()
        self.stop = threading.Event()
        self.lock = threading.Lock()
        # by kind: connected now, closed by memcgtop, longest life (s)
        self.held = {"idle": 0, "trickle": 0}
        self.closed = {"idle": 0, "trickle": 0}
        self.life = {"idle": 0.0, "trickle": 0.0}
        self.refused = 0
        self.connected_once = 0
        self.reopen = []        # (when, kind)

    def again(self, kind):
        if REOPEN[kind] and not self.stop.is_set():
            self.reopen.append((time.monotonic() + REOPEN[kind], kind))

    def open(self, kind):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        r = s.connect_ex(("127.0.0.1", PORT))
        if r not in (0, errno.EINPROGRESS):
            s.close()
            self.refused += 1
            self.again(kind)
            return
        self.sel.register(s, selectors.EVENT_WRITE,
                          {"kind": kind, "up": None, "next": 0.0})

    def gone(self, s, d, by_server):
        self.sel.unregister(s)
        s.close()
        if d["up"] is not None:
            with self.lock:
                self.held[d["kind"]] -= 1
                if by_server:
                    self.closed[d["kind"]] += 1
                    life = time.monotonic() - d["up"]
                    self.life[d["kind"]] = max(self.life[d["kind"]], life)
        elif by_server:
            self.refused += 1
        if by_server:
            self.again(d["kind"])

    def connected(self, s, d):
        if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
            self.gone(s, d, True)
            return
        d["up"] = time.monotonic()
        with self.lock:
            self.held[d["kind"]] += 1
            self.connected_once += 1
        self.sel.modify(s, selectors.EVENT_READ, d)
        if d["kind"] == "trickle":
            try:
                s.send(HEAD)
            except OSError:
                self.gone(s, d, True)
                return
            d["next"] = d["up"] + TRICKLE_EVERY

    def run(self):
        for i in range(IDLE + TRICKLE):
            self.open("idle" if i < IDLE else "trickle")
        while not self.stop.is_set():
            now = time.monotonic()
            due = [k for t, k in self.reopen if t <= now]
            self.reopen = [(t, k) for t, k in self.reopen if t > now]
            for k in due:
                self.open(k)
            for key, _ in self.sel.select(0.05):
                s, d = key.fileobj, key.data
                if d["up"] is None:
                    self.connected(s, d)
                    continue
                try:
                    data = s.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    self.gone(s, d, True)
            now = time.monotonic()
            for key in list(self.sel.get_map().values()):
                d = key.data
                if d["kind"] == "trickle" and d["up"] is not None and \
                        d["next"] <= now:
                    try:
                        key.fileobj.send(b"a")
                    except OSError:
                        self.gone(key.fileobj, d, True)
                        continue
                    d["next"] = now + TRICKLE_EVERY
        for key in list(self.sel.get_map().values()):
            self.gone(key.fileobj, key.data, False)


OK = "HTTP/1.1 200 OK"
BAD = "HTTP/1.1 400 Bad Request"
# memcgtop's own answer to a line without a space, every byte
BAD_LINE = (b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\n"
            b"Content-Length: 56\r\n\r\n"
            b"memcgtop: bad request line: want METHOD TARGET HTTP/1.x\n")
ODD = [
    ("300 query parameters",
     b"GET /metrics?" + b"&".join(b"p%d=%d" % (i, i) for i in range(300)) +
     b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", OK),
    ("a 20,000-byte path",
     b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
     "HTTP/1.1 414 URI Too Long"),
    ("64 KiB of headers",
     b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
     b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 60) for i in range(1000)) +
     b"\r\n", "HTTP/1.1 431 Request Header Fields Too Large"),
    ("'GET' alone", b"GET\r\n\r\n", BAD),
    ("a line without a space", b"\x16\x03\x01garbage\r\n", BAD),
]


def attack():
    base = fds()
    a = Attack()
    a.start()
    # The attack in place: every socket connected once (or 5 s).
    t0 = time.monotonic()
    while a.connected_once < IDLE + TRICKLE and time.monotonic() - t0 < 5:
        time.sleep(0.1)
    say("INFO", "%d of %d attack connections made in %.1f s; memcgtop's "
        "descriptors %d before" % (a.connected_once, IDLE + TRICKLE,
                                   time.monotonic() - t0, base))
    times, ups, bad, most = [], [], [], 0
    odd = list(ODD)
    for i in range(SCRAPES):
        t = time.monotonic()
        line, body, secs, up = request(SCRAPE, SCRAPE_TIMEOUT, True)
        times.append(secs)
        ups.append(up)
        if not scrape_ok(line, body):
            bad.append(scrape_bad(i, line, body, secs))
        most = max(most, fds())
        if i % 2 == 1 and odd:
            name, req, ok = odd.pop(0)
            line, _, secs, _ = request(req, ODD_TIMEOUT, False)
            if line == ok:
                say("PASS", "during the attack, %s: '%s' in %.2f s" %
                    (name, line, secs))
            else:
                say("FAIL", "during the attack, %s: '%s' in %.2f s (want "
                    "'%s')" % (name, line, secs, ok))
        time.sleep(max(0.0, t + 1.0 - time.monotonic()))
    with a.lock:
        held, closed, life = dict(a.held), dict(a.closed), dict(a.life)
    a.stop.set()
    a.join(10)
    for name, _, _ in odd:
        say("FAIL", "%s was not sent (fewer scrapes than odd requests)" %
            name)
    say("INFO", "scrape times (s): " + " ".join("%.3f" % t for t in times) +
        "; connecting at most %.3f s" % max(ups))
    say("INFO", "attack connections held at the end: %d idle, %d "
        "trickling; closed by memcgtop: %d idle, %d trickling (held at "
        "most %.1f and %.1f s); %d refused" % (
            held["idle"], held["trickle"], closed["idle"],
            closed["trickle"], life["idle"], life["trickle"], a.refused))
    if bad:
        say("FAIL", "%d of %d scrapes during the attack failed: %s" %
            (len(bad), SCRAPES, "; ".join(bad[:4])))
    else:
        say("PASS", "%d scrapes during the attack (2,000 idle and 16 "
            "trickling connections from the scraper's address, opened "
            "again as closed): each 200 with the %d bytes of -b -n 1 -F "
            "prometheus, in at most %.3f s (bound 1 s)" %
            (SCRAPES, len(want), max(times)))
    if closed["idle"] and closed["trickle"]:
        say("PASS", "memcgtop closed attack connections as they came "
            "rather than queue them: %d idle, %d trickling" %
            (closed["idle"], closed["trickle"]))
    else:
        say("FAIL", "memcgtop closed %d idle and %d trickling attack "
            "connections (want some of each)" % (closed["idle"],
                                                  closed["trickle"]))
    # At most 64 from one address, and those closing (64 more).
    if 0 <= most - base <= 128:
        say("PASS", "memcgtop's descriptors during the attack: at most %d, "
            "%d over its %d before (bound 128: 64 an address, 64 "
            "closing)" % (most, most - base, base))
    else:
        say("FAIL", "memcgtop's descriptors during the attack: %d, %d over "
            "its %d before (bound 128)" % (most, most - base, base))


def spread(cap):
    base = fds()
    sel = selectors.DefaultSelector()
    socks = []
    for a in range(SPREAD_ADDRS):
        for _ in range(SPREAD_EACH):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.%d" % (10 + a), 0))
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", PORT))
            socks.append(s)
            sel.register(s, selectors.EVENT_READ)
    # Until memcgtop holds cap and has closed the rest (or 10 s).
    closed = set()
    n = SPREAD_ADDRS * SPREAD_EACH
    t0 = time.monotonic()
    while True:
        for key, _ in sel.select(0.05):
            try:
                d = key.fileobj.recv(16)
            except OSError:
                d = b""
            if not d:
                sel.unregister(key.fileobj)
                closed.add(key.fileobj)
        held = fds() - base
        done = cap - 4 <= held <= cap + 4 and len(closed) >= n - cap - 4
        if done or time.monotonic() - t0 > 10:
            break
    say("INFO", "%d idle connections from %d addresses: memcgtop holds %d "
        "(descriptors %d, %d before), closed %d, after %.2f s" % (
            n, SPREAD_ADDRS, held, held + base, base, len(closed),
            time.monotonic() - t0))
    if done:
        say("PASS", "%d idle connections from %d addresses (%d each, below "
            "the cap of 64 an address): memcgtop holds %d (its limit %d) "
            "and closed %d" % (n, SPREAD_ADDRS, SPREAD_EACH, held, cap,
                               len(closed)))
    else:
        say("FAIL", "%d idle connections from %d addresses: memcgtop holds "
            "%d (want %d), closed %d (want %d)" % (
                n, SPREAD_ADDRS, held, cap, len(closed), n - cap))
    bad, times = [], []
    for i in range(3):
        line, body, secs, _ = request(SCRAPE, SCRAPE_TIMEOUT, True)
        times.append(secs)
        if not scrape_ok(line, body):
            bad.append(scrape_bad(i, line, body, secs))
    if bad:
        say("FAIL", "scrapes from 127.0.0.1 beside them: " + "; ".join(bad))
    else:
        say("PASS", "3 scrapes from 127.0.0.1 beside them: 200 with %s, "
            "in at most %.3f s (bound %g s)" % (
                "an exposition" if WANT == "-" else "the bytes of -b -n 1",
                max(times), SCRAPE_TIMEOUT))
    for s in socks:
        s.close()


LINES = [
    ("'GET' alone", b"GET\r\n\r\n", BAD_LINE),
    ("'GET' alone, bare LFs", b"GET\n\n", BAD_LINE),
    ("bytes without a space", b"\x16\x03\x01\x02\x00\x01\x00\r\n", BAD_LINE),
    ("a space first", b" /metrics HTTP/1.1\r\n\r\n", BAD_LINE),
    ("'GET' after two empty lines", b"\r\n\nGET\r\n\r\n", BAD_LINE),
    ("a CR, then CRLF", b"\r\r\n\r\n", BAD_LINE),
    ("no HTTP version (libmicrohttpd's)", b"GET /metrics\r\n\r\n", BAD),
    ("HTTP/2.0 (libmicrohttpd's)", b"GET /metrics HTTP/2.0\r\n\r\n",
     "HTTP/1.1 505 HTTP Version Not Supported"),
    ("20,000 bytes, no space, no line end", b"a" * 20000,
     "HTTP/1.1 414 URI Too Long"),
    ("a scrape after two empty lines", b"\r\n\r\n" + SCRAPE, OK),
]


def exchange(req, slow):
    """(status line, every byte memcgtop sent until it closed or 2 s):
    req whole, or (slow) a byte every 20 ms until an answer starts."""
    s = socket.create_connection(("127.0.0.1", PORT), ODD_TIMEOUT)
    sel = selectors.DefaultSelector()
    sel.register(s, selectors.EVENT_READ)
    data = b""
    try:
        if not slow:
            s.sendall(req)
        for b in req if slow else b"":
            s.send(bytes([b]))
            if sel.select(0.02):
                break
        end = time.monotonic() + ODD_TIMEOUT
        while time.monotonic() < end and sel.select(end - time.monotonic()):
            d = s.recv(65536)
            if not d:
                break
            data += d
    except OSError as e:
        data += ("(%s)" % e).encode()
    sel.close()
    s.close()
    return data.split(b"\r\n")[0].decode("latin-1"), data


def until_closed(s):
    """Every byte memcgtop sends on s until it closes (2 s at most), and
    whether it closed."""
    data, end = b"", time.monotonic() + ODD_TIMEOUT
    try:
        while time.monotonic() < end:
            s.settimeout(end - time.monotonic())
            d = s.recv(65536)
            if not d:
                return data, True
            data += d
    except OSError:
        pass
    return data, False


def one_request():
    """A scrape's answer says Connection: close and the connection ends
    with it; a request sent behind it gets nothing more."""
    for name, req in [("a scrape", SCRAPE),
                      ("a scrape and 'GET' alone behind it, sent at once",
                       SCRAPE + b"GET\r\n\r\n")]:
        s = socket.create_connection(("127.0.0.1", PORT), ODD_TIMEOUT)
        s.sendall(req)
        data, eof = until_closed(s)
        note = ""
        if not eof and req == SCRAPE:
            # the old way: kept alive, a line without a space next
            try:
                s.sendall(b"GET\r\n\r\n")
                more, eof = until_closed(s)
                note = "; then 'GET' alone: %r, %s" % (
                    more[:80], "closed" if eof else "open")
            except OSError:
                pass
        s.close()
        head, _, body = data.partition(b"\r\n\r\n")
        hl = head.split(b"\r\n")
        ok = eof and hl[0] == OK.encode() and \
            b"connection: close" in [h.lower() for h in hl[1:]] and \
            scrape_ok(OK, body)
        say("PASS" if ok else "FAIL", "%s on one connection: %s" % (
            name, "200 with 'Connection: close', the exposition, and "
            "memcgtop closed the connection" if ok else
            "want 200, Connection: close and the close; got %s, head %r%s" % (
                "a close" if eof else "no close (2 s)", head[:200], note)))


def lines():
    """Each of LINES sent whole (memcgtop's 400: every byte it sends until
    it closes), three a byte at a time; then memcgtop's descriptors."""
    base = fds()
    for name, req, want_ in LINES:
        if isinstance(want_, bytes):
            line, whole = exchange(req, False)
            ok = whole == want_
        else:
            line, body, _, _ = request(req, ODD_TIMEOUT, True)
            ok = line == want_ and (want_ != OK or scrape_ok(line, body))
            whole = body
        say("PASS" if ok else "FAIL", "%s: '%s'%s" % (
            name, line, "" if ok else " (want %r, got %r)" % (
                want_, whole[:200])))
    for name, req, want_ in [LINES[0], LINES[3], ("a scrape", SCRAPE, OK)]:
        line, whole = exchange(req, True)
        ok = whole == want_ if isinstance(want_, bytes) else line == want_
        say("PASS" if ok else "FAIL", "%s, a byte every 20 ms: '%s'%s" % (
            name, line, "" if ok else " (want %r, got %r)" % (
                want_, whole[:200])))
    one_request()
    t0 = time.monotonic()
    while fds() > base and time.monotonic() - t0 < 5:
        time.sleep(0.1)
    say("PASS" if fds() <= base else "FAIL", "after them memcgtop holds %d "
        "descriptors (before: %d)" % (fds(), base))


if MODE == "attack":
    attack()
elif MODE == "lines":
    lines()
elif MODE == "spread":
    spread(int(sys.argv[5]))
else:
    say("FAIL", "listen_hostile.py: no mode %s" % MODE)
