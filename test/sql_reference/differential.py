#!/usr/bin/env python3
"""Differential test against DuckDB: seeded random tables and queries from a
small grammar (diff_grammar.py, diff_features*.py), answered by DuckDB
(@duckdb/node-api from bench/) and written as sqllogictest files, so ctest
checks lakestream against DuckDB's answers without DuckDB installed.

  differential.py generate [--seed S] [--features LIST] [--quarantine]
      Writes each READY feature to test/sql/differential/<feature>_<n>.test
      and each PENDING one to test/sql_reference/pending/<feature>/.
      --features: names, or ready / pending / all (default all).
      --promote: write every chosen feature to test/sql/differential/.
      --quarantine: afterwards run lakestream on the files under test/sql and
      move each query it answers differently to
      test/sql_reference/pending/divergences/ (printing it).
  differential.py live [--seed S] [--features LIST] [--per-file N]
      A new seed, files in a temporary directory, run by lakestream at once;
      prints every query whose answer differs from DuckDB's. Exit status 1
      when any differs. Not in ctest (needs node and DuckDB).
  differential.py promote [FILE_OR_DIR...]
      After a feature is merged: runs lakestream on the pending files (default
      all) and moves each query it answers like DuckDB into
      test/sql/differential/<same name>; the others stay in pending/ and are
      printed. Exit status 1 while any still differ. No DuckDB needed.
  differential.py check FILE_OR_DIR...
      Runs lakestream's sqllogictest runner on generated files and prints,
      per file, how many queries failed (for pending features after a merge).

Options shared: --runner PATH (default build/release/test/lakestream_sqllogictest),
--per-file N queries per file (default 100), --files N files per feature.
"""
import argparse
import decimal
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '../..'))
sys.path.insert(0, HERE)
import diff_features as F  # noqa: E402
import diff_features_pending as P  # noqa: E402
from diff_grammar import make_large_setup, make_setup  # noqa: E402

# name: (generator, ready today, files at --per-file queries each)
FEATURES = {
    'select': (F.q_select, True, 4),
    'aggregate': (F.q_aggregate, True, 4),
    'join': (F.q_join, True, 4),
    'subquery': (F.q_subquery, True, 4),
    'union': (F.q_union, True, 4),
    'window': (P.q_window, False, 4),
    'outer_join': (F.q_outer_join, False, 3),
    'correlated': (F.q_correlated, False, 3),
    'quantified': (F.q_quantified, True, 2),
    'setop': (F.q_setop, False, 3),
    'grouping': (P.q_grouping, False, 3),
    'time': (P.q_time, False, 2),
    'large': (F.q_large, True, 2),
    'large_window': (P.q_large_window, False, 2),
    'large_mixed': (P.q_large_mixed, False, 2),
}
DEFAULT_SEED = 20
MAX_ROWS = 40  # answers longer than this are skipped (file size)
READY_DIR = os.path.join(ROOT, 'test/sql/differential')
PENDING_DIR = os.path.join(HERE, 'pending')


def double_text(x):
    """lakestream's DoubleToString: "%.1f" for whole numbers, else the shortest
    round-trip text as std::to_chars writes it (fixed or scientific, whichever
    is shorter)."""
    if math.isnan(x):
        return 'nan'
    if math.isinf(x):
        return 'inf' if x > 0 else '-inf'
    if x == math.floor(x) and abs(x) < 1e15:
        return '%.1f' % x
    t = decimal.Decimal(repr(x)).as_tuple()
    digits, exp = ''.join(map(str, t.digits)), t.exponent  # value = digits * 10**exp
    while len(digits) > 1 and digits.endswith('0'):
        digits, exp = digits[:-1], exp + 1
    sign = '-' if t.sign else ''
    if exp >= 0:
        fixed = digits + '0' * exp
    else:
        pos = len(digits) + exp
        fixed = digits[:pos] + '.' + digits[pos:] if pos > 0 else '0.' + '0' * (-pos) + digits
    e = len(digits) - 1 + exp
    sci = digits[0] + ('.' + digits[1:] if len(digits) > 1 else '') + 'e' + ('-' if e < 0 else '+') + '%02d' % abs(e)
    return sign + (fixed if len(fixed) <= len(sci) else sci)


def cell(v, duck_type):
    if v is None:
        return 'NULL'
    if v is True or v is False:
        return 'true' if v else 'false'
    if duck_type in ('DOUBLE', 'FLOAT'):
        return double_text(float(v))
    s = str(v)
    return s if s else '(empty)'


def type_letter(duck_type):
    if duck_type in ('TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UBIGINT', 'UINTEGER'):
        return 'I'
    if duck_type in ('DOUBLE', 'FLOAT') or duck_type.startswith('DECIMAL'):
        return 'R'
    return 'B' if duck_type == 'BOOLEAN' else 'T'


def duckdb_answers(groups):
    """[[answer, ...], ...] for [{setup, queries}, ...] (differential_duckdb.mjs)."""
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump(groups, f)
    try:
        p = subprocess.run(['node', os.path.join(HERE, 'differential_duckdb.mjs'), f.name], capture_output=True,
                           text=True)
    finally:
        os.unlink(f.name)
    if p.returncode != 0:
        sys.exit('DuckDB failed (needs node and bench/node_modules/@duckdb/node-api):\n' + p.stderr)
    return json.loads(p.stdout)


def without_limit(sql):
    """(sql without a final LIMIT/OFFSET, limit, offset). DuckDB 1.5 answers
    some ORDER BY + LIMIT over UNION ALL wrongly (e.g. `SELECT w FROM t2 UNION
    ALL SELECT pk FROM t2 ORDER BY 1 LIMIT 5` gives rows of the first branch
    only), so it sorts the whole result and the limit is applied here: ORDER
    BY names every column, so the sorted rows have one order."""
    m = re.search(r' LIMIT (\d+)(?: OFFSET (\d+))?$', sql)
    if not m:
        return sql, None, 0
    return sql[:m.start()], int(m.group(1)), int(m.group(2) or 0)


def plan_file(seed, feature, n, per_file):
    """The setup and candidate queries of one file: the same for the same seed."""
    gen = FEATURES[feature][0]
    r = random.Random('%s:%s:%d' % (seed, feature, n))
    setup = (make_large_setup if feature.startswith('large') else make_setup)(r)
    seen, cands = set(), []
    while len(cands) < per_file * 3 // 2:
        q = gen(r)
        if q.lake not in seen:
            seen.add(q.lake)
            cands.append(q)
    return setup, cands


def render(path, feature, seed, n, setup, records):
    """records: [(query, answer)]; returns the line of each query header."""
    # Named by where it runs in ctest, also while it waits in pending/.
    rel = 'test/sql/differential/' + os.path.basename(path)
    lines = ['# name: ' + rel,
             '# description: differential test (%s, seed %s, file %d): answers computed by DuckDB' % (feature, seed, n),
             '# generated by test/sql_reference/differential.py; do not edit, regenerate',
             '# group: [differential]', '']
    for s in setup:
        lines += ['statement ok', s, '']
    headers = []
    for q, a in records:
        letters = ''.join(type_letter(t) for t in a['types'])
        headers.append(len(lines) + 1)
        lines += ['query ' + letters + ('' if q.sort == 'nosort' else ' ' + q.sort), q.lake, '----']
        lines += ['\t'.join(cell(v, t) for v, t in zip(row, a['types'])) for row in a['rows']]
        lines.append('')
    with open(path, 'w') as f:
        f.write('\n'.join(lines).rstrip() + '\n')
    return headers


def generate(seed, features, per_file, files_override, out_dir_for):
    """Writes the files; returns [(path, feature, n, setup, records, headers)]."""
    plans = []
    for feature in features:
        files = files_override or FEATURES[feature][2]
        for n in range(1, files + 1):
            plans.append((feature, n) + plan_file(seed, feature, n, per_file))
    answers = duckdb_answers([{'setup': s, 'queries': [without_limit(q.duck)[0] for q in c]}
                              for _, _, s, c in plans])
    written = []
    for (feature, n, setup, cands), ans in zip(plans, answers):
        for q, a in zip(cands, ans):
            _, limit, offset = without_limit(q.duck)
            if limit is not None and 'rows' in a:
                a['rows'] = a['rows'][offset:offset + limit]
        records = [(q, a) for q, a in zip(cands, ans) if 'error' not in a and len(a['rows']) <= MAX_ROWS]
        records = records[:per_file]
        out_dir = out_dir_for(feature)
        os.makedirs(out_dir, exist_ok=True)
        path = os.path.join(out_dir, '%s_%d.test' % (feature, n))
        headers = render(path, feature, seed, n, setup, records)
        written.append((path, feature, n, setup, records, headers))
        print('%s: %d queries (%d candidates, %d refused by DuckDB)' % (
            os.path.relpath(path, ROOT), len(records), len(cands), sum(1 for a in ans if 'error' in a)))
    return written


def run_runner(runner, path):
    """(failed header lines, output) of one file run by lakestream_sqllogictest."""
    p = subprocess.run([runner, path], capture_output=True, text=True, cwd=ROOT)
    out = p.stdout + p.stderr
    failed = [int(m.group(1)) for m in re.finditer(r'^\S+\.test:(\d+)\b', out, re.M)]
    return failed, out


def failing_records(runner, item):
    path, _, _, _, records, headers = item
    failed, out = run_runner(runner, path)
    bad = set()
    for line in failed:
        idx = max((i for i, h in enumerate(headers) if h <= line), default=None)
        if idx is not None:
            bad.add(idx)
    return sorted(bad), out


def feature_list(spec):
    if spec in ('all', None):
        return list(FEATURES)
    if spec == 'ready':
        return [f for f in FEATURES if FEATURES[f][1]]
    if spec == 'pending':
        return [f for f in FEATURES if not FEATURES[f][1]]
    names = spec.split(',')
    for f in names:
        if f not in FEATURES:
            sys.exit('unknown feature %r; known: %s' % (f, ', '.join(FEATURES)))
    return names


def cmd_generate(args):
    features = feature_list(args.features)

    def out_dir(feature):
        return READY_DIR if FEATURES[feature][1] or args.promote else os.path.join(PENDING_DIR, feature)
    written = generate(args.seed, features, args.per_file, args.files, out_dir)
    if not args.quarantine:
        return 0
    total = 0
    for item in written:
        path, feature, n, setup, records, headers = item
        if not path.startswith(READY_DIR):
            continue
        bad, out = failing_records(args.runner, item)
        if not bad:
            continue
        total += len(bad)
        print(out)
        keep = [rec for i, rec in enumerate(records) if i not in bad]
        render(path, feature, args.seed, n, setup, keep)
        qdir = os.path.join(PENDING_DIR, 'divergences')
        os.makedirs(qdir, exist_ok=True)
        render(os.path.join(qdir, os.path.basename(path)), feature, args.seed, n, setup,
               [rec for i, rec in enumerate(records) if i in bad])
    print('%d queries moved to %s' % (total, os.path.relpath(os.path.join(PENDING_DIR, 'divergences'), ROOT)))
    return 0


def cmd_live(args):
    tmp = tempfile.mkdtemp(prefix='lakestream_diff_')
    try:
        written = generate(args.seed, feature_list(args.features), args.per_file, args.files or 1, lambda f: tmp)
        bad_total = queries = 0
        for item in written:
            bad, out = failing_records(args.runner, item)
            queries += len(item[4])
            bad_total += len(bad)
            if bad:
                print(out)
        print('seed %s: %d queries, %d differ from DuckDB' % (args.seed, queries, bad_total))
        return 1 if bad_total else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def split_blocks(path):
    """The records of a generated file as text blocks with their first line."""
    blocks, line = [], 1
    for b in open(path).read().rstrip('\n').split('\n\n'):
        blocks.append((line, b))
        line += b.count('\n') + 2
    return blocks


def cmd_promote(args):
    """Moves the queries of pending files that lakestream now answers like
    DuckDB into test/sql/differential/; the rest stay pending (and are printed)."""
    paths = []
    for p in args.paths or [os.path.join(PENDING_DIR, f) for f in FEATURES if not FEATURES[f][1]]:
        if os.path.isdir(p):
            paths += sorted(os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs if f.endswith('.test'))
        elif os.path.exists(p):
            paths.append(p)
    moved = kept = 0
    for p in paths:
        failed, out = run_runner(args.runner, p)
        blocks = split_blocks(p)
        starts = [line for line, _ in blocks]
        bad = {max(i for i, s in enumerate(starts) if s <= line) for line in failed}
        queries = [i for i, (_, b) in enumerate(blocks) if b.startswith('query ')]
        good_q = [i for i in queries if i not in bad]
        if failed:
            print(out)
        fixed = [b for i, (_, b) in enumerate(blocks) if i not in queries]
        if good_q:
            os.makedirs(READY_DIR, exist_ok=True)
            target = os.path.join(READY_DIR, os.path.basename(p))
            # Queries promoted earlier from the same file (same setup) stay.
            head = [b for _, b in split_blocks(target)] if os.path.exists(target) else fixed
            with open(target, 'w') as f:
                f.write('\n\n'.join(head + [blocks[i][1] for i in good_q]) + '\n')
        rest = [i for i in queries if i in bad]
        if rest:
            with open(p, 'w') as f:
                f.write('\n\n'.join(fixed + [blocks[i][1] for i in rest]) + '\n')
        else:
            os.unlink(p)
        moved += len(good_q)
        kept += len(rest)
        print('%s: %d queries moved to test/sql/differential, %d still differ' % (os.path.relpath(p, ROOT),
                                                                               len(good_q), len(rest)))
    print('%d queries moved, %d still differ (left where they were)' % (moved, kept))
    return 1 if kept else 0


def cmd_check(args):
    paths = []
    for p in args.paths:
        if os.path.isdir(p):
            paths += sorted(os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs if f.endswith('.test'))
        else:
            paths.append(p)
    failed_files = 0
    for p in paths:
        out = subprocess.run([args.runner, p], capture_output=True, text=True, cwd=ROOT).stdout
        if args.verbose:
            print(out)
        summary = [line for line in out.splitlines() if ' queries, ' in line]
        print(summary[-1] if summary else p + ': no summary (crashed?)')
        failed_files += 0 if summary and summary[-1].endswith(' 0 failed') else 1
    print('%d of %d files have failures' % (failed_files, len(paths)))
    return 1 if failed_files else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('mode', choices=['generate', 'live', 'check', 'promote'])
    ap.add_argument('paths', nargs='*')
    ap.add_argument('--seed', default=None)
    ap.add_argument('--features', default=None)
    ap.add_argument('--per-file', type=int, default=100)
    ap.add_argument('--files', type=int, default=None)
    ap.add_argument('--promote', action='store_true')
    ap.add_argument('--quarantine', action='store_true')
    ap.add_argument('--verbose', action='store_true')
    ap.add_argument('--runner', default=os.path.join(ROOT, 'build/release/test/lakestream_sqllogictest'))
    args = ap.parse_intermixed_args()
    if args.mode == 'live' and args.seed is None:
        args.seed = str(random.randrange(1 << 30))
    args.seed = args.seed if args.seed is not None else str(DEFAULT_SEED)
    if (args.mode != 'generate' or args.quarantine) and not os.access(args.runner, os.X_OK):
        sys.exit('no sqllogictest runner at %s: build it (cmake --build build/release) or pass --runner PATH'
                 % args.runner)
    if args.mode == 'live' and args.features is None:
        args.features = 'ready'
    sys.exit({'generate': cmd_generate, 'live': cmd_live, 'check': cmd_check, 'promote': cmd_promote}[args.mode](args))


if __name__ == '__main__':
    main()
