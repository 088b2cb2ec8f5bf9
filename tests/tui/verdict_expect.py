#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/tui/verdict_expect.py CASE FIXTURES - the verdict lines the detail
pane must show for one of verdict.sh's cases, computed from the fixture's
files (the golden checker's readers and its effective protection) and the
verdict's rules as the man page states them, one line each."""
import os
import sys
from decimal import Decimal, ROUND_HALF_UP

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'golden'))
import verify as V  # noqa: E402


def fixed(x, d):
    q = Decimal(1).scaleb(-d)
    return str(Decimal(x).quantize(q, rounding=ROUND_HALF_UP))


def fbytes(v):
    if v < 1024:
        return str(v)
    x, u = float(v), -1
    while x >= 1024 and u < 5:
        x /= 1024
        u += 1
    if x >= 1023.5 and u < 5:
        x /= 1024
        u += 1
    return fixed(x, 1 if x < 99.95 else 0) + 'KMGTPE'[u]


def frate(r):
    if r < 99.95:
        return fixed(r, 1)
    u = -1
    while r >= 999.95 and u < 5:
        r /= 1000
        u += 1
    if u < 0:
        return fixed(r, 0)
    return fixed(r, 1 if r < 99.95 else 0) + 'kMGTPE'[u]


def standing(g, path, groups):
    """The first sentence: the group's own limit, or the fullest above."""
    u, lim = g['usage'], g['limit']
    if V.is_int(lim) and lim:
        pct = 100.0 * u / lim
        word = ('At its limit' if pct >= 98 else 'Close to its limit'
                if pct >= 90 else 'Below its limit')
        return '%s: usage %s of %s (%.1f%%).' % (word, fbytes(u),
                                                 fbytes(lim), pct)
    best = None
    for a in V.ancestors(path):
        if a in ('/', path):
            continue
        al = groups[a]['limit']
        if V.is_int(al) and al:
            s = 100.0 * groups[a]['usage'] / al
            if best is None or s > best[0]:
                best = (s, a)
    if best is None:
        return ("No limit on its path: only the host's memory bounds it "
                "(usage %s)." % fbytes(u))
    a = groups[best[1]]
    return ("No limit of its own (usage %s); the fullest above it is %s's: "
            "%s of %s (%.1f%%)." % (fbytes(u), best[1], fbytes(a['usage']),
                                    fbytes(a['limit']), best[0]))


def main():
    case, fx = sys.argv[1], sys.argv[2]
    ts = V.read_timestamps(os.path.join(fx, case.split(':')[0], 'cg',
                                        'timestamps'))
    name, path = case.split(':')[0], case.split(':')[1]
    d = os.path.join(fx, name, 'cg')
    # the screen's second sample (directory 1), rated against the first
    v1, cur = V.read_sample(os.path.join(d, '1'))
    _, prev = V.read_sample(os.path.join(d, '0'))
    V.protection(v1, cur)
    dt = float(ts[1][0]) - float(ts[0][0])
    g, p = cur[path], prev[path]
    out = [standing(g, path, cur)]
    if not v1 and g['eff_low'] is not None and g['usage']:
        if g['eff_min'] >= g['usage'] > 0:
            out.append('Protected by memory.min: usage %s within its '
                       'effective min %s: reclaim does not take from it.'
                       % (fbytes(g['usage']), fbytes(g['eff_min'])))
        elif g['eff_low'] >= g['usage']:
            out.append('Protected by memory.low: usage %s within its '
                       'effective low %s: reclaim takes from it only when '
                       'no unprotected memory is left.'
                       % (fbytes(g['usage']), fbytes(g['eff_low'])))
    if case.endswith(':reclaim') or case.endswith(':overview'):
        if v1:
            out.append('Reclaim: no pgscan figure in this view; the reclaim '
                       'set (Tab) shows it where it can be had.')
        else:
            scan = (g['pgscan'] - p['pgscan']) / dt
            steal = (g['pgsteal'] - p['pgsteal']) / dt
            if scan <= 0:
                out.append('Not reclaimed in the interval: 0 pages scanned, '
                           'it and its descendants.')
            else:
                split = ''
                if case.endswith(':reclaim'):
                    k = (g['pgscan_kswapd'] - p['pgscan_kswapd']) / dt
                    di = (g['pgscan_direct'] - p['pgscan_direct']) / dt
                    split = ('; kswapd scanned %s/s, allocating tasks '
                             '(direct) %s/s' % (frate(k), frate(di)))
                out.append('Reclaimed, it and its descendants: %s pages/s '
                           'scanned, %s/s taken (%.0f%%)%s.'
                           % (frate(scan), frate(steal),
                              100.0 * steal / scan, split))
                # who: these cases are at their own limit; kswapd where
                # it scanned
                pct = 100.0 * g['usage'] / g['limit'] \
                    if V.is_int(g['limit']) else 0
                assert pct >= 98, 'a case whose reclaimer is not its limit'
                who = ['its own limit']
                if split and k > 0:
                    who.append('kswapd (the host\'s free memory is below '
                               'the low watermark)')
                out.append('Reclaimed by: %s.' % ', '.join(who))
        if case.endswith(':reclaim'):
            out.append('Memory pressure (avg10): some %s%%, full %s%%.'
                       % (g['psi_some_avg10'], g['psi_full_avg10']))
    if v1 and g['anon']:
        out.append('No swap on the host: its anon (%s) cannot be reclaimed; '
                   'only its file pages (%s) can.'
                   % (fbytes(g['anon']), fbytes(g['file'])))
    whose = 'its own' if v1 else 'it and its descendants'
    # v1's overview shows OOMKILL: the model rates it between the two
    # samples; elsewhere the pane's first read of the files gives the
    # count alone
    if v1 and case.endswith(':overview') and p['ev_oom_kill'] is not None \
            and g['ev_oom_kill'] > p['ev_oom_kill']:
        d = g['ev_oom_kill'] - p['ev_oom_kill']
        out.append('OOM killer: %d kill%s in the interval, %d since the group '
                   'was made (%s).' % (d, '' if d == 1 else 's',
                                       g['ev_oom_kill'], whose))
    elif g['ev_oom_kill']:
        out.append('OOM kills: %d since the group was made (%s)%s.'
                   % (g['ev_oom_kill'], whose,
                      ', none in the interval' if v1 and
                      case.endswith(':overview') else ''))
    for line in out:
        print('  ' + line)


main()
