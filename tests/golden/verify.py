#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""verify.py - independent checker for memcgtop batch output on a fixture.

Usage: verify.py FIXTURE_DIR --json FILE [--csv FILE] [--om FILE]
                 [--root-arg STR] [--iterations N] [--recursiveprot]

FIXTURE_DIR holds cg/ and proc/ series (cg/timestamps, cg/0, cg/1, ...).
The checker reads the fixture's raw kernel-shaped files itself and recomputes
every value of every group in every iteration as /tmp/memcgtop-spec.md
describes (the memcgtop output spec); it never takes a value from memcgtop's
output as truth.  Numbers are formatted like the program (%.3f rates, %.2f
use_pct and PSI, %.4f reclaim_eff) and compared as exact strings.

--root-arg is the --root argument memcgtop was given (it is echoed in the
JSON "root" key); default FIXTURE_DIR/cg.  --iterations is the -n given to
memcgtop; default all of them (samples - 1).

Prints one line per mismatch and finally
  verify: N values checked, M mismatches
and exits 1 on any mismatch (2 on a usage error).  Python 3 standard library
only.
"""
import argparse
import csv
import io
import json
import os
import re
import sys
import time
import unicodedata
from decimal import Decimal, ROUND_HALF_EVEN

V1_MAX = 0x7FFFFFFFFFF00000
U64 = 1 << 64
MAX = 'max'

KEYS = """path depth usage limit high low min soft excess eff_min eff_low
eff_limit use_pct
swap swap_limit swappiness anon file shmem kernel active_anon inactive_anon
active_file inactive_file unevictable file_mapped file_dirty file_writeback
swapcached anon_thp file_thp slab_reclaimable slab_unreclaimable kernel_stack
pagetables sock pgscan pgscan_per_s pgsteal
pgsteal_per_s pgscan_kswapd pgscan_kswapd_per_s pgscan_direct
pgscan_direct_per_s pgsteal_kswapd pgsteal_kswapd_per_s pgsteal_direct
pgsteal_direct_per_s reclaim_eff refault_anon refault_anon_per_s refault_file
refault_file_per_s pgfault pgfault_per_s pgmajfault pgmajfault_per_s ev_low
ev_low_per_s ev_high ev_high_per_s ev_max ev_max_per_s ev_oom ev_oom_per_s
ev_oom_kill ev_oom_kill_per_s failcnt failcnt_per_s failcnt_tree
failcnt_tree_per_s psi_some_avg10
psi_full_avg10 procs peak swap_peak usage_swap workingset zswap zswapped
ev_low_local ev_low_local_per_s ev_high_local ev_high_local_per_s
ev_max_local ev_max_local_per_s ev_oom_local ev_oom_local_per_s
ev_oom_kill_local ev_oom_kill_local_per_s swap_ev_high swap_ev_high_per_s
swap_ev_max swap_ev_max_per_s swap_ev_fail swap_ev_fail_per_s dying
scan_prio soft_tree_excess soft_rank eff_min_last eff_low_last
stats_pending""".split()

# counters: each has a <key>_per_s rate column right after it
COUNTERS = """pgscan pgsteal pgscan_kswapd pgscan_direct pgsteal_kswapd
pgsteal_direct refault_anon refault_file pgfault pgmajfault ev_low ev_high
ev_max ev_oom ev_oom_kill failcnt failcnt_tree ev_low_local ev_high_local ev_max_local
ev_oom_local ev_oom_kill_local swap_ev_high swap_ev_max swap_ev_fail""".split()

BYTES = """usage limit high low min soft excess eff_min eff_low eff_limit swap
swap_limit anon
file shmem kernel active_anon inactive_anon active_file inactive_file
unevictable file_mapped file_dirty file_writeback swapcached anon_thp file_thp
slab_reclaimable slab_unreclaimable kernel_stack pagetables sock peak swap_peak usage_swap workingset zswap zswapped
soft_tree_excess eff_min_last eff_low_last""".split()
GAUGES = """swappiness procs use_pct reclaim_eff psi_some_avg10 psi_full_avg10
dying scan_prio soft_rank stats_pending""".split()
LRU = ('active_anon', 'inactive_anon', 'active_file', 'inactive_file')
V2_ONLY_SIZES = ('file_thp', 'slab_reclaimable', 'slab_unreclaimable',
                 'kernel_stack', 'pagetables', 'sock')
LOCAL_EVENTS = ('low', 'high', 'max', 'oom', 'oom_kill')
SWAP_EVENTS = ('high', 'max', 'fail')

SYSTEM_KEYS = """mem_total mem_available mem_free wmark_low wmark_high
swap_total swap_free pgscan_per_s
pgsteal_per_s psi_some_avg10 psi_full_avg10 pgscan_kswapd_per_s
pgscan_direct_per_s pgscan_khugepaged_per_s pgscan_proactive_per_s
pgscan_memcg_per_s oom_kills""".split()
# pgscan's parts, which add up to it: the reclaimers' own vmstat counters
# and memcg-targeted reclaim, the rest of pgscan_anon + pgscan_file
SCAN_PARTS = ('pgscan_kswapd', 'pgscan_direct', 'pgscan_khugepaged',
              'pgscan_proactive', 'pgscan_memcg')
OOMLOG_MAX = 64
TOP_KEYS = "time iteration interval_s mode memcg collector root system groups".split()

# Names of control files: a directory with one of these names is not a group
# (the kernel cannot create such a group: the name is taken by the file).
CONTROL_NAMES = set("""
cgroup.procs cgroup.controllers cgroup.subtree_control cgroup.type
cgroup.events cgroup.threads cgroup.max.depth cgroup.max.descendants
cgroup.stat cgroup.freeze cgroup.kill cgroup.pressure cgroup.event_control
cgroup.clone_children tasks notify_on_release release_agent
memory.usage_in_bytes memory.max_usage_in_bytes memory.limit_in_bytes
memory.soft_limit_in_bytes memory.failcnt memory.swappiness
memory.use_hierarchy memory.move_charge_at_immigrate memory.oom_control
memory.memsw.usage_in_bytes memory.memsw.max_usage_in_bytes
memory.memsw.limit_in_bytes memory.memsw.failcnt memory.kmem.usage_in_bytes
memory.kmem.max_usage_in_bytes memory.kmem.limit_in_bytes memory.kmem.failcnt
memory.kmem.tcp.usage_in_bytes memory.kmem.tcp.max_usage_in_bytes
memory.kmem.tcp.limit_in_bytes memory.kmem.tcp.failcnt memory.kmem.slabinfo
memory.numa_stat memory.stat memory.force_empty memory.pressure_level
memory.current memory.peak memory.max memory.high memory.low memory.min
memory.oom.group memory.swap.current memory.swap.max memory.swap.high
memory.swap.peak memory.swap.events memory.zswap.current memory.zswap.max
memory.zswap.writeback memory.events memory.events.local memory.pressure
memory.reclaim
""".split())


class Num(str):
    """A JSON number literal, kept as its text."""


def num(v):
    return Num(str(v))


# --------------------------------------------------------------------------
# raw file readers

def read_lines(path):
    """Complete lines of a file (a last line without newline is dropped), or
    None when the file cannot be read (missing, a directory, ...)."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    lines = data.split(b'\n')
    lines.pop()          # '' after the final newline, or a truncated line
    return [l.decode('latin-1') for l in lines]


def parse_u64(s):
    if not re.fullmatch(r'[0-9]+', s):
        return None
    v = int(s)
    return v if v < U64 else None


def parse_value(s, v1):
    if s == 'max' and not v1:
        return MAX
    v = parse_u64(s)
    if v is not None and v1 and v >= V1_MAX:
        return MAX
    return v


def read_value(path, v1):
    lines = read_lines(path)
    if not lines:
        return None
    return parse_value(lines[0], v1)


def read_kv(path):
    """'key value' lines; first occurrence wins; value None if not a u64.
    None when the file cannot be read."""
    lines = read_lines(path)
    if lines is None:
        return None
    d = {}
    for l in lines:
        p = l.split()
        if len(p) != 2 or p[0] in d:
            continue
        d[p[0]] = parse_u64(p[1])
    return d


def fmt2(x):
    return num(Decimal(x).quantize(Decimal('0.01'), rounding=ROUND_HALF_EVEN))


def read_psi(path):
    """(some avg10, full avg10) as %.2f literals, None where absent."""
    lines = read_lines(path)
    out = {'some': None, 'full': None}
    if lines is None:
        return out
    for l in lines:
        p = l.split()
        if not p or p[0] not in out or out[p[0]] is not None:
            continue
        for f in p[1:]:
            if f.startswith('avg10='):
                try:
                    out[p[0]] = fmt2(f[6:])
                except Exception:
                    pass
    return out


def count_lines(path):
    lines = read_lines(path)
    return None if lines is None else len(lines)


# --------------------------------------------------------------------------
# one sample of the hierarchy

def walk(root):
    """[(path, dir)] of every group under root (root first)."""
    out = [('/', root)]

    def rec(d, path):
        try:
            names = sorted(os.listdir(os.fsencode(d)))
        except OSError:
            return
        for nb in names:
            full = os.path.join(os.fsencode(d), nb)
            if not os.path.isdir(full) or os.path.islink(full):
                continue
            name = nb.decode('utf-8', 'surrogateescape')
            if name in CONTROL_NAMES:
                continue
            p = (path if path != '/' else '') + '/' + name
            out.append((p, os.fsdecode(full)))
            rec(os.fsdecode(full), p)
    rec(root, '/')
    return out


def encode_name(s):
    """a path as memcgtop prints it in every format (the man page's NAMES):
    control bytes, DEL, C1 controls, bytes that are not UTF-8 and the
    bytes of format characters as \\xHH, a backslash doubled"""
    b = s.encode('utf-8', 'surrogateescape')
    out = []
    i = 0
    while i < len(b):
        ch = None
        for n in (1, 2, 3, 4):
            try:
                ch = b[i:i + n].decode('utf-8')
                break
            except UnicodeDecodeError:
                continue
        if ch is None or len(ch) != 1:
            out.append('\\x%02X' % b[i])
            i += 1
            continue
        raw = ch.encode('utf-8')
        cp = ord(ch)
        if cp < 0x20 or 0x7F <= cp <= 0x9F or \
                unicodedata.category(ch) in ('Cf', 'Zl', 'Zp'):
            out.extend('\\x%02X' % x for x in raw)
        elif ch == '\\':
            out.append('\\\\')
        else:
            out.append(ch)
        i += len(raw)
    return ''.join(out)


def parent_of(path):
    if path == '/':
        return None
    i = path.rfind('/')
    return '/' if i == 0 else path[:i]


def ancestors(path):
    """path itself and all its ancestors, root last."""
    out = []
    while path is not None:
        out.append(path)
        path = parent_of(path)
    return out


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def v1_group(d, path, limits):
    """raw (non-rate) values of a v1 group; limits: path -> limit value."""
    val = lambda f: read_value(os.path.join(d, f), True)
    g = {}
    g['usage'] = val('memory.usage_in_bytes')
    g['limit'] = val('memory.limit_in_bytes')
    limits[path] = g['limit']
    g['high'] = g['low'] = g['min'] = None
    g['soft'] = val('memory.soft_limit_in_bytes')
    u, s = g['usage'], g['soft']
    if s == MAX and u is not None:
        g['excess'] = 0
    elif is_int(u) and is_int(s):
        g['excess'] = max(0, u - s)
    else:
        g['excess'] = None
    stat = read_kv(os.path.join(d, 'memory.stat'))
    st = lambda k: None if stat is None else stat.get(k)
    # the smallest memory.limit_in_bytes of self and ancestors (what
    # memory.stat calls hierarchical_memory_limit; not read from there)
    lims = [limits.get(p) for p in ancestors(path)]
    nums = [l for l in lims if is_int(l)]
    if any(l is None for l in lims):
        g['eff_limit'] = None
    else:
        g['eff_limit'] = min(nums) if nums else MAX
    memsw_path = os.path.join(d, 'memory.memsw.usage_in_bytes')
    if read_lines(memsw_path) is not None:
        m = read_value(memsw_path, True)
        g['swap'] = max(0, m - u) if is_int(m) and is_int(u) else None
    else:
        g['swap'] = st('total_swap')
    g['swap_limit'] = None
    g['swappiness'] = val('memory.swappiness')
    g['anon'] = st('total_rss')
    g['file'] = st('total_cache')
    g['shmem'] = st('total_shmem')
    g['kernel'] = val('memory.kmem.usage_in_bytes')
    # The v1 root: the kernel's usage (global file + anon pages) plus its
    # kmem counter, the kernel memory of the whole hierarchy; swap above
    # came from the kernel's usage.
    if path == '/' and is_int(u) and is_int(g['kernel']):
        g['usage'] = u + g['kernel']
        if is_int(s):
            g['excess'] = 0 if s == MAX else max(0, g['usage'] - s)
    for k in ('active_anon', 'inactive_anon', 'active_file', 'inactive_file',
              'unevictable'):
        g[k] = st('total_' + k)
    # v1's memory.stat names of v2's keys; the others v1 has not.
    for k, v1k in (('file_mapped', 'mapped_file'), ('file_dirty', 'dirty'),
                   ('file_writeback', 'writeback'),
                   ('swapcached', 'swapcached'), ('anon_thp', 'rss_huge')):
        g[k] = st('total_' + v1k)
    for k in V2_ONLY_SIZES:
        g[k] = None
    for k in ('pgscan', 'pgsteal', 'pgscan_kswapd', 'pgscan_direct',
              'pgsteal_kswapd', 'pgsteal_direct'):
        g[k] = None
    g['refault_anon'] = st('total_workingset_refault_anon')
    g['refault_file'] = st('total_workingset_refault_file')
    g['pgfault'] = st('total_pgfault')
    g['pgmajfault'] = st('total_pgmajfault')
    for k in ('ev_low', 'ev_high', 'ev_max', 'ev_oom'):
        g[k] = None
    oc = read_kv(os.path.join(d, 'memory.oom_control'))
    g['ev_oom_kill'] = None if oc is None else oc.get('oom_kill')
    g['failcnt'] = val('memory.failcnt')
    # The soft-limit tree: the BPF pass's alone, none in a copy's files.
    g['soft_tree_excess'] = g['soft_rank'] = None
    # The BPF pass's alone (the kernel's page counters and vmstats).
    g['eff_min_last'] = g['eff_low_last'] = g['stats_pending'] = None
    g['psi_some_avg10'] = g['psi_full_avg10'] = None
    g['procs'] = count_lines(os.path.join(d, 'cgroup.procs'))
    g['peak'] = val('memory.max_usage_in_bytes')
    g['swap_peak'] = None
    # memsw; the root's, like its usage, plus its kmem
    m = read_value(memsw_path, True)
    if is_int(m):
        g['usage_swap'] = m
        if path == '/' and is_int(u) and is_int(g['kernel']):
            g['usage_swap'] = m + g['kernel']
    else:
        g['usage_swap'] = None
    g['zswap'] = g['zswapped'] = None
    for k in LOCAL_EVENTS:
        g['ev_%s_local' % k] = None
    for k in SWAP_EVENTS:
        g['swap_ev_' + k] = None
    g['dying'] = None
    # the group's own lists: memory.stat's keys without total_
    g['_own'] = [st(k) for k in LRU]
    g['_room'] = None
    return g


def v2_group(d, path, limits):
    root = path == '/'
    val = lambda f: None if root else read_value(os.path.join(d, f), False)
    g = {}
    stat = read_kv(os.path.join(d, 'memory.stat'))
    st = lambda k: None if stat is None else stat.get(k)
    if root:
        parts = [st(k) for k in ('anon', 'file', 'kernel', 'sock')]
        g['usage'] = sum(parts) if all(is_int(p) for p in parts) else None
    else:
        g['usage'] = read_value(os.path.join(d, 'memory.current'), False)
    g['limit'] = val('memory.max')
    limits[path] = g['limit']
    g['high'] = val('memory.high')
    g['low'] = val('memory.low')
    g['min'] = val('memory.min')
    g['soft'] = None
    u, lo = g['usage'], g['low']
    if root:
        g['excess'] = None
    elif lo == MAX and u is not None:
        g['excess'] = 0
    elif is_int(u) and is_int(lo):
        g['excess'] = max(0, u - lo)
    else:
        g['excess'] = None
    if root:
        g['eff_limit'] = None
    else:
        nums = [limits.get(p) for p in ancestors(path) if p != '/']
        nums = [l for l in nums if is_int(l)]
        g['eff_limit'] = min(nums) if nums else MAX
    g['swap'] = val('memory.swap.current')
    g['swap_limit'] = val('memory.swap.max')
    g['swappiness'] = None
    for k in ('anon', 'file', 'shmem', 'kernel', 'active_anon',
              'inactive_anon', 'active_file', 'inactive_file', 'unevictable',
              'pgscan', 'pgsteal', 'pgscan_kswapd', 'pgscan_direct',
              'pgsteal_kswapd', 'pgsteal_direct', 'pgfault', 'pgmajfault',
              'file_mapped', 'file_dirty', 'file_writeback', 'swapcached',
              'anon_thp') + V2_ONLY_SIZES:
        g[k] = st(k)
    g['refault_anon'] = st('workingset_refault_anon')
    g['refault_file'] = st('workingset_refault_file')
    ev = None if root else read_kv(os.path.join(d, 'memory.events'))
    for k in ('low', 'high', 'max', 'oom', 'oom_kill'):
        g['ev_' + k] = None if ev is None else ev.get(k)
    g['failcnt'] = None
    g['soft_tree_excess'] = g['soft_rank'] = None
    # The BPF pass's alone (the kernel's page counters and vmstats).
    g['eff_min_last'] = g['eff_low_last'] = g['stats_pending'] = None
    psi = read_psi(os.path.join(d, 'memory.pressure'))
    g['psi_some_avg10'] = psi['some']
    g['psi_full_avg10'] = psi['full']
    g['procs'] = count_lines(os.path.join(d, 'cgroup.procs'))
    g['peak'] = val('memory.peak')
    g['swap_peak'] = val('memory.swap.peak')
    sw = g['swap']
    g['usage_swap'] = u + sw if is_int(u) and is_int(sw) else None
    g['zswap'] = val('memory.zswap.current')
    g['zswapped'] = st('zswapped')
    el = None if root else read_kv(os.path.join(d, 'memory.events.local'))
    for k in LOCAL_EVENTS:
        g['ev_%s_local' % k] = None if el is None else el.get(k)
    se = None if root else read_kv(os.path.join(d, 'memory.swap.events'))
    for k in SWAP_EVENTS:
        g['swap_ev_' + k] = None if se is None else se.get(k)
    cs = read_kv(os.path.join(d, 'cgroup.stat'))     # the root has one too
    g['dying'] = None if cs is None else cs.get('nr_dying_descendants')
    g['_own'] = None        # hierarchical stat: see scan_prio()
    sl = g['swap_limit']
    if is_int(sw) and sl == MAX:
        g['_room'] = MAX
    elif is_int(sw) and is_int(sl):
        g['_room'] = max(0, sl - sw)
    else:
        g['_room'] = None
    return g


def protection(v1, groups, recursive=False):
    """eff_min and eff_low of every v2 group: what reclaim from the
    hierarchy root protects, top-down as the kernel's page_counter.c does
    it, in 4 KiB pages with unsigned 64-bit arithmetic: a top-level group
    its own memory.min/low; below, min(usage, setting), scaled down by
    parent_eff / (what all siblings claim) when they claim more than the
    parent has, and with memory_recursiveprot the parent's unclaimed rest
    shared by unprotected usage.  0 for a group using nothing; None for v1,
    the root and where a parent's or a sibling's values are missing.  v2's
    excess then becomes usage - eff_low."""
    page, pcmax = 4096, (2 ** 63 - 1) // 4096
    for g in groups.values():
        g['eff_min'] = g['eff_low'] = None
    if v1:
        return

    def pages(v):
        return pcmax if v == MAX else v // page

    def eff(usage, pusage, setting, peff, sib):
        prot = min(usage, setting)
        if sib > peff:
            return (prot * peff % U64) // sib
        if not recursive:
            return prot
        ep = prot
        if peff > sib and pusage > sib and usage > prot:
            ep = (ep + ((peff - sib) * (usage - prot) % U64) // (pusage - sib)) % U64
        return ep

    def known(g):
        return all(is_int(g[k]) or (k != 'usage' and g[k] == MAX)
                   for k in ('usage', 'min', 'low'))
    kids = {}
    for p in groups:
        if p != '/':
            kids.setdefault(parent_of(p), []).append(p)
    claim = {}
    for p, ks in kids.items():
        if all(known(groups[k]) for k in ks):
            claim[p] = [sum(min(pages(groups[k]['usage']), pages(groups[k][w]))
                            for k in ks) for w in ('min', 'low')]
    ep = {}
    for p in sorted(groups, key=lambda x: 0 if x == '/' else x.count('/')):
        g = groups[p]
        if p == '/' or not known(g):
            continue
        use = pages(g['usage'])
        par = parent_of(p)
        if use == 0:
            e = [0, 0]
        elif par == '/':
            e = [pages(g['min']), pages(g['low'])]
        elif par in ep and par in claim:
            pu = pages(groups[par]['usage'])
            e = [eff(use, pu, pages(g[w]), ep[par][i], claim[par][i])
                 for i, w in enumerate(('min', 'low'))]
        else:
            continue
        ep[p] = e
        g['eff_min'], g['eff_low'] = [MAX if x >= pcmax else x * page for x in e]
        g['excess'] = 0 if g['eff_low'] == MAX else max(0, g['usage'] - g['eff_low'])


def failcnt_tree(v1, groups):
    """v1: each group's memory.failcnt with its descendants', None unless
    every member of the subtree has one; None on v2."""
    for g in groups.values():
        g['failcnt_tree'] = None if v1 is False else 0
    if not v1:
        return
    for path, g in groups.items():
        for a in ancestors(path):
            if a in groups and groups[a]['failcnt_tree'] is not None:
                groups[a]['failcnt_tree'] = groups[a]['failcnt_tree'] + g['failcnt'] \
                    if is_int(g['failcnt']) else None


def scan_prio(v1, groups, system):
    """scan_prio of every group: min(12, floor(log2(P))), P the largest own
    evictable list in 4 KiB pages; file lists always, anon lists where swap
    can take pages (free host swap; on v2 swap.max - swap.current > 0 on
    the group and every ancestor); v2 own lists are the group's memory.stat
    less its children's; None for P = 0 or under the multi-gen LRU."""
    mglru = system['lru_gen'] is not None and system['lru_gen'] != 0
    host_swap = is_int(system['swap_free']) and system['swap_free'] > 0
    kids = {}
    for p in groups:
        if p != '/':
            kids.setdefault(parent_of(p), []).append(p)
    swap_ok = {}
    for p in sorted(groups, key=lambda x: (0 if x == '/' else x.count('/'))):
        g = groups[p]
        par = parent_of(p)
        ok = swap_ok[par] if par is not None else host_swap
        if g['_room'] is not None and g['_room'] != MAX and g['_room'] == 0:
            ok = False
        swap_ok[p] = ok
        g['scan_prio'] = None
        if mglru:
            continue
        if v1:
            own = g['_own']
            if any(not is_int(x) for x in own):
                continue
        else:
            hier = [g[k] for k in LRU]
            ks = [[groups[c][k] for k in LRU] for c in kids.get(p, [])]
            if any(not is_int(x) for x in hier) or \
                    any(not is_int(x) for k in ks for x in k):
                continue
            own = [max(0, hier[i] - sum(k[i] for k in ks)) for i in range(4)]
        lists = own if ok else own[2:]
        pages = max(lists) // 4096
        g['scan_prio'] = min(12, pages.bit_length() - 1) if pages else None


def read_sample(d):
    v1 = not os.path.exists(os.path.join(d, 'cgroup.controllers'))
    limits = {}
    groups = {}
    for path, gd in walk(d):
        g = (v1_group if v1 else v2_group)(gd, path, limits)
        # cadvisor's working set: usage less the inactive file list
        u, i = g['usage'], g['inactive_file']
        g['workingset'] = max(0, u - i) if is_int(u) and is_int(i) else None
        groups[path] = g
    return v1, groups


def read_system(d):
    s = {}
    mi = {}
    for l in read_lines(os.path.join(d, 'meminfo')) or []:
        p = l.split()
        if len(p) >= 2 and p[0].endswith(':') and p[0][:-1] not in mi:
            v = parse_u64(p[1])
            if v is not None and len(p) >= 3 and p[2] == 'kB':
                v *= 1024
            mi[p[0][:-1]] = v
    for k, m in (('mem_total', 'MemTotal'), ('mem_available', 'MemAvailable'),
                 ('mem_free', 'MemFree'),
                 ('swap_total', 'SwapTotal'), ('swap_free', 'SwapFree')):
        s[k] = mi.get(m)
    # kswapd's watermarks: every zone's "low" and "high" pages of zoneinfo
    # (not the per-CPU "high:"), summed, in 4 KiB pages.
    wl = wh = None
    for l in read_lines(os.path.join(d, 'zoneinfo')) or []:
        p = l.split()
        if len(p) == 2 and p[0] in ('low', 'high') and parse_u64(p[1]) is not None:
            if p[0] == 'low':
                wl = (wl or 0) + parse_u64(p[1]) * 4096
            else:
                wh = (wh or 0) + parse_u64(p[1]) * 4096
    s['wmark_low'], s['wmark_high'] = wl, wh
    vm = read_kv(os.path.join(d, 'vmstat')) or {}

    def total(kind):
        a, f = vm.get(kind + '_anon'), vm.get(kind + '_file')
        k, dr = vm.get(kind + '_kswapd'), vm.get(kind + '_direct')
        cands = []
        if is_int(a) and is_int(f):
            cands.append(a + f)
        if is_int(k) and is_int(dr):
            cands.append(k + dr)
        return max(cands) if cands else None
    s['pgscan'] = total('pgscan')
    s['pgsteal'] = total('pgsteal')
    # the reclaimers' own counters (memcg-targeted reclaim counts in
    # none up to 7.2), and the rest of anon + file
    kd = is_int(vm.get('pgscan_kswapd')) and is_int(vm.get('pgscan_direct'))
    for k in ('pgscan_kswapd', 'pgscan_direct'):
        s[k] = vm.get(k) if kd else None
    hp = all(is_int(vm.get(k)) or k not in vm
             for k in ('pgscan_khugepaged', 'pgscan_proactive'))
    for k in ('pgscan_khugepaged', 'pgscan_proactive'):
        s[k] = vm.get(k) if kd and hp and is_int(vm.get(k)) else None
    a, f = vm.get('pgscan_anon'), vm.get('pgscan_file')
    s['pgscan_memcg'] = None
    if kd and is_int(a) and is_int(f):
        s['pgscan_memcg'] = max(0, a + f - sum(s[k] or 0 for k in SCAN_PARTS[:4]))
    psi = read_psi(os.path.join(d, 'pressure', 'memory'))
    s['psi_some_avg10'] = psi['some']
    s['psi_full_avg10'] = psi['full']
    # /sys/kernel/mm/lru_gen/enabled, given with the proc files
    lg = read_lines(os.path.join(d, 'lru_gen', 'enabled'))
    s['lru_gen'] = None
    if lg and re.fullmatch(r'0[xX][0-9a-fA-F]{1,15}', lg[0]):
        s['lru_gen'] = int(lg[0], 16)
    return s


def read_timestamps(path):
    out = []
    for l in read_lines(path) or []:
        p = l.split()
        out.append((p[0], int(p[1])))
    return out


# --------------------------------------------------------------------------
# expected output model

def rate(cur, prev, dt):
    if not (is_int(cur) and is_int(prev)) or cur < prev:
        return None
    return num('%.3f' % ((cur - prev) / dt))


def jval(v):
    """expected JSON value: None, 'max' or a Num literal."""
    if v is None or v == MAX or isinstance(v, Num):
        return v
    return num(v)


def sort_key(item):
    path, g = item
    u = g['usage']
    pb = path.encode('utf-8', 'surrogateescape')
    if u == MAX:
        return (0, 0, pb)
    if is_int(u):
        return (1, -u, pb)
    return (2, 0, pb)


def tree_order(groups):
    children = {}
    for p in groups:
        if p != '/':
            children.setdefault(parent_of(p), []).append(p)
    out = []

    def rec(p):
        out.append(p)
        kids = sorted(((c, groups[c]) for c in children.get(p, [])),
                      key=sort_key)
        for c, _ in kids:
            rec(c)
    if '/' in groups:
        rec('/')
    return out


def expected_oom_kills(samples, ts, nit):
    """system.oom_kills of iterations 1..nit: each rise of a group's
    oom_kill counter between two samples is a kill at the later one's
    time (v2's counter has the subtree's: less the children's rises),
    without the process; newest first, at most OOMLOG_MAX."""
    log, out = [], []
    for k in range(1, nit + 1):
        v1, cur = samples[k][0], samples[k][1]
        prev = samples[k - 1][1]
        rise = {}
        for path, g in cur.items():
            p = prev.get(path)
            c = g.get('ev_oom_kill')
            o = p.get('ev_oom_kill') if p else None
            rise[path] = c - o if is_int(c) and is_int(o) and c > o else 0
        if not v1:
            own = dict(rise)
            for path in rise:
                par = path.rsplit('/', 1)[0] or '/'
                if path != '/' and par in own:
                    own[par] = max(0, own[par] - rise[path])
            rise = own
        t = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(ts[k][1]))
        for path in tree_order(cur):
            lim = cur[path].get('limit')
            for _ in range(min(rise[path], OOMLOG_MAX)):
                log.insert(0, [('time', t), ('path', encode_name(path)),
                               ('pid', None), ('comm', None), ('rss', None),
                               ('limit', jval(lim) if lim is not None else None)])
        del log[OOMLOG_MAX:]
        out.append([list(e) for e in log])
    return out


def expected_iteration(k, samples, ts, root_arg):
    """dict with the expected top-level values and an ordered group list."""
    v1, cur = samples[k][0], samples[k][1]
    prev = samples[k - 1][1]
    dt = float(ts[k][0]) - float(ts[k - 1][0])
    it = {}
    it['time'] = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(ts[k][1]))
    it['iteration'] = num(k)
    it['interval_s'] = num('%.3f' % dt)
    it['mode'] = it['memcg'] = 'v1' if v1 else 'v2'
    # A copy or a recording is always read from its files.
    it['collector'] = 'files'
    it['root'] = encode_name(root_arg)
    sc, sp = samples[k][2], samples[k - 1][2]
    sysd = {}
    for key in ('mem_total', 'mem_available', 'mem_free', 'wmark_low',
                'wmark_high', 'swap_total', 'swap_free'):
        sysd[key] = jval(sc[key])
    sysd['pgscan_per_s'] = rate(sc['pgscan'], sp['pgscan'], dt)
    sysd['pgsteal_per_s'] = rate(sc['pgsteal'], sp['pgsteal'], dt)
    sysd['psi_some_avg10'] = sc['psi_some_avg10']
    sysd['psi_full_avg10'] = sc['psi_full_avg10']
    for k in SCAN_PARTS:
        sysd[k + '_per_s'] = rate(sc[k], sp[k], dt)
    it['system'] = sysd
    it['system_raw'] = sc
    # failcnt_tree's rate: the members' own rates that are known (present
    # in both samples, not gone back), summed.
    fr = {p: 0.0 for p in cur}
    for path, g in cur.items():
        p = prev.get(path)
        if p is not None and is_int(g['failcnt']) and is_int(p['failcnt']) \
                and g['failcnt'] >= p['failcnt']:
            for a in ancestors(path):
                if a in fr:
                    fr[a] += (g['failcnt'] - p['failcnt']) / dt
    groups = []
    for path in tree_order(cur):
        g = cur[path]
        p = prev.get(path)
        e = {'path': encode_name(path), 'depth': num(0 if path == '/' else path.count('/'))}
        for key in KEYS[2:]:
            if key.endswith('_per_s') or key in ('use_pct', 'reclaim_eff'):
                continue
            e[key] = jval(g[key])
        for c in COUNTERS:
            e[c + '_per_s'] = rate(g[c], p[c], dt) if p is not None else None
        e['failcnt_tree_per_s'] = num('%.3f' % fr[path]) if (
            v1 and g['failcnt_tree'] is not None and
            e['failcnt_per_s'] is not None) else None
        u, el = g['usage'], g['eff_limit']
        if is_int(u) and is_int(el) and el > 0:
            e['use_pct'] = num('%.2f' % (100.0 * u / el))
        else:
            e['use_pct'] = None
        if (e['pgscan_per_s'] is not None and e['pgsteal_per_s'] is not None
                and g['pgscan'] != p['pgscan']):
            # Capped at 1: the kernel counts a batch's steal after its
            # scan, so one interval can see more stolen than scanned.
            e['reclaim_eff'] = num('%.4f' % min(1.0, (g['pgsteal'] - p['pgsteal']) /
                                                (g['pgscan'] - p['pgscan'])))
        else:
            e['reclaim_eff'] = None
        groups.append(e)
    it['groups'] = groups
    return it


# --------------------------------------------------------------------------
# checking

class Checker:
    def __init__(self):
        self.checked = 0
        self.bad = 0

    def eq(self, where, exp, got):
        self.checked += 1
        same = (exp is None and got is None) or (
            exp is not None and got is not None and
            isinstance(exp, Num) == isinstance(got, Num) and
            str(exp) == str(got))
        if not same:
            self.fail('%s: expected %s, got %s' % (where, show(exp), show(got)))
        return same

    def fail(self, msg):
        self.bad += 1
        print('MISMATCH ' + msg.encode('unicode_escape').decode('ascii')
              if not msg.isprintable() else 'MISMATCH ' + msg)


def show(v):
    if v is None:
        return 'null'
    if isinstance(v, Num):
        return str(v)
    return json.dumps(v)


def check_json(ck, text, exp_iters):
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    else:
        ck.fail('json: output does not end with a newline')
    ck.eq('json: number of iterations', num(len(exp_iters)), num(len(lines)))
    for n, (line, it) in enumerate(zip(lines, exp_iters), 1):
        w = 'json line %d' % n
        try:
            obj = json.loads(line, parse_int=Num, parse_float=Num,
                             object_pairs_hook=list)
        except ValueError as e:
            ck.fail('%s: invalid JSON: %s' % (w, e))
            continue
        top = dict(obj)
        ck.eq(w + ': top-level keys', ' '.join(TOP_KEYS),
              ' '.join(k for k, _ in obj))
        for key in TOP_KEYS[:7]:
            ck.eq('%s: %s' % (w, key), it[key], top.get(key))
        sysd = dict(top.get('system') or [])
        ck.eq(w + ': system keys', ' '.join(SYSTEM_KEYS),
              ' '.join(k for k, _ in (top.get('system') or [])))
        for key in SYSTEM_KEYS:
            ck.eq('%s: system.%s' % (w, key), it['system'][key], sysd.get(key))
        got_groups = [dict(g) for g in (top.get('groups') or [])]
        exp_paths = [g['path'] for g in it['groups']]
        got_paths = [g.get('path') for g in got_groups]
        if not ck.eq(w + ': group paths in tree order', json.dumps(exp_paths),
                     json.dumps(got_paths)):
            missing = set(exp_paths) - set(got_paths)
            extra = set(got_paths) - set(exp_paths)
            if missing or extra:
                ck.fail('%s: missing groups %s, unexpected groups %s' %
                        (w, sorted(missing), sorted(extra, key=str)))
        byp = {g.get('path'): (g, raw) for g, raw in
               zip(got_groups, top.get('groups') or [])}
        for e in it['groups']:
            if e['path'] not in byp:
                continue
            g, raw = byp[e['path']]
            gw = '%s: group %s' % (w, e['path'])
            ck.eq(gw + ': keys', ' '.join(KEYS), ' '.join(k for k, _ in raw))
            for key in KEYS:
                ck.eq('%s: %s' % (gw, key), e[key], g.get(key))


def csv_field(v):
    if v is None:
        return ''
    s = str(v)
    if any(c in s for c in ',"\r\n'):
        s = '"' + s.replace('"', '""') + '"'
    return s


def check_csv(ck, data, exp_iters):
    text = data.decode('utf-8', 'surrogateescape')
    # the exact bytes: RFC 4180 quoting, CRLF record ends
    exp_records = [','.join(['time', 'iteration'] + KEYS)]
    exp_rows = []
    for it in exp_iters:
        for e in it['groups']:
            row = [it['time'], it['iteration']] + [e[k] for k in KEYS]
            exp_rows.append(row)
            exp_records.append(','.join(csv_field(v) for v in row))
    exp_text = ''.join(r + '\r\n' for r in exp_records)
    ck.checked += 1
    if exp_text != text:
        el = exp_text.split('\r\n')
        gl = text.split('\r\n')
        for i in range(max(len(el), len(gl))):
            a = el[i] if i < len(el) else '<none>'
            b = gl[i] if i < len(gl) else '<none>'
            if a != b:
                c = next((j for j in range(min(len(a), len(b)))
                          if a[j] != b[j]), min(len(a), len(b)))
                lo = max(0, c - 40)
                ck.fail('csv bytes: record %d differs at char %d: expected '
                        '...%r..., got ...%r...' %
                        (i, c + 1, a[lo:c + 40], b[lo:c + 40]))
                break
    # field by field through the csv module
    try:
        rows = list(csv.reader(io.StringIO(text, newline=''), strict=True))
    except csv.Error as e:
        ck.fail('csv: does not parse: %s' % e)
        return
    if not rows:
        ck.fail('csv: empty')
        return
    header = rows[0]
    ck.eq('csv: header', ','.join(['time', 'iteration'] + KEYS), ','.join(header))
    ck.eq('csv: number of rows', num(len(exp_rows)), num(len(rows) - 1))
    for i, (row, exp) in enumerate(zip(rows[1:], exp_rows), 1):
        if len(row) != len(header):
            ck.fail('csv row %d: %d fields, header has %d' %
                    (i, len(row), len(header)))
            continue
        w = 'csv row %d (iteration %s, group %s)' % (i, exp[1], exp[2])
        for name, ev, gv in zip(header, exp, row):
            ck.eq('%s: %s' % (w, name), csv_field(ev) if ev is not None
                  else '', csv_field(gv) if gv != '' else '')


def om_escape(s):
    return s.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n')


def om_value(v):
    if v == MAX:
        return '+Inf'
    return str(v)


def expected_om(it):
    """[(family, type, unit, [sample lines])] for one iteration."""
    fams = []
    sc = it['system_raw']
    for key in ('mem_total', 'mem_available', 'mem_free', 'wmark_low',
                'wmark_high', 'swap_total', 'swap_free'):
        if sc[key] is not None:
            n = 'memcgtop_system_%s_bytes' % key
            fams.append((n, 'gauge', 'bytes', ['%s %s' % (n, sc[key])]))
    for key in ('pgscan', 'pgsteal'):
        if sc[key] is not None:
            n = 'memcgtop_system_' + key
            fams.append((n, 'counter', None, ['%s_total %s' % (n, sc[key])]))
    for key in ('psi_some_avg10', 'psi_full_avg10'):
        if sc[key] is not None:
            n = 'memcgtop_system_' + key
            fams.append((n, 'gauge', None, ['%s %s' % (n, sc[key])]))
    for key in SCAN_PARTS:
        if sc[key] is not None:
            n = 'memcgtop_system_' + key
            fams.append((n, 'counter', None, ['%s_total %s' % (n, sc[key])]))
    for key in KEYS:
        if key in BYTES:
            fam, typ, unit, sname = ('memcgtop_%s_bytes' % key, 'gauge',
                                     'bytes', 'memcgtop_%s_bytes' % key)
        elif key in COUNTERS:
            fam, typ, unit, sname = ('memcgtop_' + key, 'counter', None,
                                     'memcgtop_%s_total' % key)
        elif key in GAUGES:
            fam, typ, unit, sname = ('memcgtop_' + key, 'gauge', None,
                                     'memcgtop_' + key)
        else:
            continue        # path, depth, *_per_s: not exported
        samples = ['%s{cgroup="%s"} %s' % (sname, om_escape(e['path']),
                                           om_value(e[key]))
                   for e in it['groups'] if e[key] is not None]
        if samples:
            fams.append((fam, typ, unit, samples))
    return fams


def parse_om_block(ck, w, lines):
    """[(family, type, unit, help, [sample lines])] from one exposition."""
    fams = []
    cur = None
    meta_re = re.compile(r'# (HELP|TYPE|UNIT) ([a-zA-Z_:][a-zA-Z0-9_:]*)(?: (.*))?$')
    sample_re = re.compile(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{cgroup="(?:[^"\\\n]|\\[\\"n])*"\})? (\S+)$')
    for l in lines:
        m = meta_re.match(l)
        if m:
            kind, name, rest = m.groups()
            if cur is None or cur['name'] != name:
                if any(f['name'] == name for f in fams):
                    ck.fail('%s: family %s appears twice' % (w, name))
                cur = {'name': name, 'TYPE': None, 'UNIT': None,
                       'HELP': None, 'samples': []}
                fams.append(cur)
            elif cur['samples']:
                ck.fail('%s: %s line for %s after its samples' % (w, kind, name))
            if cur[kind] is not None:
                ck.fail('%s: second %s line for %s' % (w, kind, name))
            cur[kind] = rest if rest is not None else ''
            continue
        m = sample_re.match(l)
        if m and cur is not None:
            cur['samples'].append(l)
            continue
        ck.fail('%s: unparsable line %r' % (w, l))
    return fams


def check_om(ck, text, exp_iters):
    blocks = text.split('# EOF\n')
    if blocks[-1] != '':
        ck.fail('om: output does not end with "# EOF"')
    blocks.pop()
    ck.eq('om: number of iterations', num(len(exp_iters)), num(len(blocks)))
    for n, (block, it) in enumerate(zip(blocks, exp_iters), 1):
        w = 'om iteration %d' % n
        got = parse_om_block(ck, w, block.split('\n')[:-1])
        exp = expected_om(it)
        ck.eq(w + ': families', ' '.join(f[0] for f in exp),
              ' '.join(f['name'] for f in got))
        gmap = {f['name']: f for f in got}
        for fam, typ, unit, samples in exp:
            g = gmap.get(fam)
            if g is None:
                continue
            ck.eq('%s: %s TYPE' % (w, fam), typ, g['TYPE'])
            ck.eq('%s: %s UNIT' % (w, fam), unit, g['UNIT'])
            ck.checked += 1
            if not g['HELP']:
                ck.fail('%s: %s has no HELP text' % (w, fam))
            gs = {s.rsplit(' ', 1)[0]: s for s in g['samples']}
            es = {s.rsplit(' ', 1)[0]: s for s in samples}
            for key, line in es.items():
                ck.eq('%s: %s' % (w, key), line, gs.get(key))
            for key in gs:
                if key not in es:
                    ck.fail('%s: unexpected sample %r' % (w, gs[key]))
            if set(gs) == set(es) and len(gs) == len(g['samples']):
                ck.eq('%s: %s sample order' % (w, fam),
                      ' '.join(s.rsplit(' ', 1)[0] for s in samples),
                      ' '.join(s.rsplit(' ', 1)[0] for s in g['samples']))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('fixture')
    ap.add_argument('--json', required=True)
    ap.add_argument('--csv')
    ap.add_argument('--om')
    ap.add_argument('--root-arg')
    ap.add_argument('--iterations', type=int)
    ap.add_argument('--recursiveprot', action='store_true',
                    help='the v2 mount has memory_recursiveprot')
    a = ap.parse_args()
    F = a.fixture
    root_arg = a.root_arg if a.root_arg is not None else os.path.join(F, 'cg')
    ts = read_timestamps(os.path.join(F, 'cg', 'timestamps'))
    if len(ts) < 2:
        print('verify: %s/cg/timestamps has fewer than 2 samples' % F)
        return 2
    nit = len(ts) - 1 if a.iterations is None else min(a.iterations, len(ts) - 1)
    samples = []
    for k in range(nit + 1):
        v1, groups = read_sample(os.path.join(F, 'cg', str(k)))
        system = read_system(os.path.join(F, 'proc', str(k)))
        # No group has more swap than the host: none where it has none.
        total = system['swap_total']
        for g in groups.values():
            if is_int(total) and is_int(g['swap']) and g['swap'] > total:
                g['swap'] = total
        scan_prio(v1, groups, system)
        protection(v1, groups, a.recursiveprot)
        failcnt_tree(v1, groups)
        samples.append((v1, groups, system))
    exp = [expected_iteration(k, samples, ts, root_arg)
           for k in range(1, nit + 1)]
    for it, kills in zip(exp, expected_oom_kills(samples, ts, nit)):
        it['system']['oom_kills'] = kills
    ck = Checker()
    with open(a.json, 'rb') as f:
        check_json(ck, f.read().decode('utf-8', 'surrogateescape'), exp)
    if a.csv:
        with open(a.csv, 'rb') as f:
            check_csv(ck, f.read(), exp)
    if a.om:
        with open(a.om, 'rb') as f:
            check_om(ck, f.read().decode('utf-8', 'surrogateescape'), exp)
    print('verify: %d values checked, %d mismatches' % (ck.checked, ck.bad))
    return 1 if ck.bad else 0


if __name__ == '__main__':
    sys.exit(main())
