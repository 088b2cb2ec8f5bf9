#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# fake_api.py PORT - a Prometheus API server that answers badly, for the
# error cases of tests/prometheus/source.sh.  The first path component
# of the request chooses how (URL http://127.0.0.1:PORT/MODE):
#   500      HTTP 500, a text body
#   garbage  HTTP 200, a body that is not JSON
#   notapi   HTTP 200, JSON without "status"
#   apierr   HTTP 400, the API's error object
#   slow     an answer after 30 s (the client gives up before)
#   mid      a vector of one series for the first 2 queries, then garbage
import http.server
import json
import sys
import time

VECTOR = json.dumps({"status": "success", "data": {
    "resultType": "vector", "result": [{
        "metric": {"__name__": "memcgtop_usage_bytes", "cgroup": "/",
                   "instance": "h1"},
        "value": [1.0, "5"]}]}}).encode()
mid_count = 0


class Handler(http.server.BaseHTTPRequestHandler):
    def answer(self, code, body):
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        global mid_count
        n = int(self.headers.get("Content-Length", 0))
        self.rfile.read(n)
        mode = self.path.split("/")[1]
        if mode == "500":
            self.answer(500, b"oops\n")
        elif mode == "garbage":
            self.answer(200, b"hello, not json\n")
        elif mode == "notapi":
            self.answer(200, b'{"x": 1}')
        elif mode == "apierr":
            self.answer(400, b'{"status":"error","errorType":"bad_data",'
                        b'"error":"parse error at char 3"}')
        elif mode == "slow":
            time.sleep(30)
            self.answer(200, VECTOR)
        elif mode == "mid":
            mid_count += 1
            self.answer(200, VECTOR if mid_count <= 2 else b"<html>")
        else:
            self.answer(404, b"no such mode\n")

    def log_message(self, *args):
        pass


srv = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])),
                                      Handler)
srv.daemon_threads = True
srv.serve_forever()
