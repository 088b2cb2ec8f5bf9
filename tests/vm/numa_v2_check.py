# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/vm/numa_v2_check.py - the checks of tests/vm/numa-v2.sh on the
guest's outputs: python3 numa_v2_check.py OUT_DIR."""
import json
import os
import sys

out = sys.argv[1]
passed = failed = 0
LISTS = ('active_anon', 'inactive_anon', 'active_file', 'inactive_file',
         'unevictable')
GROUPS = {'/nu': ['/nu/a', '/nu/b'], '/nu/a': [], '/nu/b': ['/nu/b/c', '/nu/b/d'],
          '/nu/b/c': [], '/nu/b/d': []}


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print('PASS: numa v2: ' + what)
    else:
        failed += 1
        print('FAIL: numa v2: ' + what)


def read(name):
    try:
        with open(os.path.join(out, name)) as f:
            return f.read()
    except OSError:
        return ''


def numa_files(text):
    """{group: {node: {key: bytes}}} of a copy of every memory.numa_stat."""
    groups, g = {}, None
    for line in text.splitlines():
        if line.startswith('== '):
            g = groups.setdefault(line[3:], {})
            continue
        p = line.split()
        if g is None or not p or p[0] not in LISTS:
            continue
        for w in p[1:]:
            node, v = w.split('=')
            g.setdefault(node, {})[p[0]] = int(v)
    return groups


print('INFO: numa v2: kernel %s, nodes %s' %
      (read('uname').strip(), ' '.join(read('nodes').split())))
ok(len(read('nodes').split()) == 2, 'the guest has two NUMA nodes')
for phase, name, src in (('y', 'multi-gen LRU', 'lrugen'),
                         ('n', 'classic LRU', 'lru_zone_size')):
    lg = read(phase + '.lru_gen').strip()
    if lg == 'none' or (phase == 'y' and lg in ('0x0000', '')):
        print('INFO: numa v2: no %s phase (lru_gen: %s)' % (name, lg or '?'))
        continue
    tag = '%s (lru_gen %s)' % (name, lg)
    vv = read(phase + '.vv')
    ok('LRU lists per NUMA node: the pass reads them' in vv and
       'own lists from ' + src in vv,
       '%s: -VV says the pass reads the lists, own ones from %s: %s' %
       (tag, src, [l for l in vv.splitlines() if 'NUMA' in l][:1]))
    err = read(phase + '.err').strip()
    ok(read(phase + '.rc').strip() == '0' and err == '',
       '%s: the bpf run exited 0 and said nothing (stderr %r)' % (tag, err[:200]))
    lines = read(phase + '.json').splitlines()
    if not lines:
        ok(False, '%s: no JSON' % tag)
        continue
    last = json.loads(lines[-1])
    ok(last.get('collector') == 'bpf', '%s: the bpf collector' % tag)
    got = {g['path']: g['numa'] for g in last['groups']}
    before = numa_files(read(phase + '.before'))
    after = numa_files(read(phase + '.after'))
    n = bad = moved = 0
    msgs = []
    for g, kids in GROUPS.items():
        if g not in got or not isinstance(got[g], dict):
            bad += 1
            msgs.append('%s: no numa object' % g)
            continue
        for node in ('N0', 'N1'):
            j = got[g].get(node, {})
            for k in LISTS:
                fb = before.get(g, {}).get(node, {}).get(k)
                fa = after.get(g, {}).get(node, {}).get(k)
                own_b = None if fb is None else fb - sum(
                    before.get(c, {}).get(node, {}).get(k, 0) for c in kids)
                own_a = None if fa is None else fa - sum(
                    after.get(c, {}).get(node, {}).get(k, 0) for c in kids)
                for key, b, a in ((k, fb, fa), ('own_' + k, own_b, own_a)):
                    if b != a:
                        moved += 1
                        continue
                    n += 1
                    if j.get(key) != a:
                        bad += 1
                        msgs.append('%s %s %s: %s, file %s' % (g, node, key, j.get(key), a))
            for s, parts in (('anon', ('active_anon', 'inactive_anon')),
                             ('file', ('active_file', 'inactive_file'))):
                n += 1
                if j.get(s) != sum(j.get(p, 0) for p in parts):
                    bad += 1
                    msgs.append('%s %s %s: %s is not the sum of its lists' % (g, node, s, j.get(s)))
    if moved:
        print('INFO: numa v2: %s: %d values moved between the copies, left out' % (tag, moved))
    ok(n + moved == 120 and n >= 100 and bad == 0, '%s: %d values of 5 groups, 2 nodes: %d differ from memory.numa_stat %s' %
       (tag, n, bad, '; '.join(msgs[:6])))
    MIB = 1 << 20

    def own(g, node, kind):
        o = got.get(g, {}).get(node, {})
        return o.get('own_active_' + kind, 0) + o.get('own_inactive_' + kind, 0)
    ok(own('/nu/a', 'N0', 'anon') >= 16 * MIB and own('/nu/b/c', 'N1', 'anon') >= 16 * MIB and
       own('/nu/b/d', 'N1', 'file') >= 8 * MIB,
       '%s: a\'s anon on node 0 (%d MiB), c\'s on node 1 (%d MiB), d\'s page cache on node 1 (%d MiB)' %
       (tag, own('/nu/a', 'N0', 'anon') // MIB, own('/nu/b/c', 'N1', 'anon') // MIB,
        own('/nu/b/d', 'N1', 'file') // MIB))
print('numa-v2: %d passed, %d failed' % (passed, failed))
sys.exit(1 if failed or not passed else 0)
