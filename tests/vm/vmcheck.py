# SPDX-License-Identifier: GPL-2.0-or-later
"""vmcheck.py - what the VM tests' host-side checkers share: PASS/FAIL
counting, the summary line, a crash counted as a failure, and reading a
file the guest left in the share.

    import vmcheck
    c = vmcheck.Checks("listing-v2", OUTDIR)
    c.report(ok, "what", "detail when it failed")
    text = c.rd("name")          # None when missing or unreadable
    c.finish()                   # summary line, exit 1 on any failure
"""
import os
import sys
import traceback


class Checks:
    def __init__(self, tag, out):
        self.tag, self.out = tag, out
        self.npass = self.nfail = 0
        sys.excepthook = self._crashed

    def report(self, ok, what, detail=""):
        if ok:
            self.npass += 1
            print("PASS: " + what)
        else:
            self.nfail += 1
            print("FAIL: " + what + (": " + detail if detail else ""))

    def rd(self, name):
        try:
            with open(os.path.join(self.out, name)) as f:
                return f.read()
        except OSError:
            return None

    def finish(self):
        print("%s: %d passed, %d failed" % (self.tag, self.npass, self.nfail))
        sys.exit(1 if self.nfail else 0)

    def _crashed(self, t, v, tb):
        traceback.print_exception(t, v, tb)
        self.report(False, "checker crashed", "%s: %s" % (t.__name__, v))
        self.finish()
