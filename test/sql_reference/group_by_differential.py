#!/usr/bin/env python3
"""Random GROUP BY queries that name each column with its table, its alias or
neither (in SELECT, GROUP BY and HAVING, any letter case), run by lakestream
and DuckDB; prints every query whose answer (or success) differs.

    test/sql_reference/group_by_differential.py [SEED] [COUNT] [LAKESTREAM_BINARY]

Exit status 1 when any query differs. Needs node and bench's @duckdb/node-api.
Not in ctest (it starts one lakestream per query); run it after binder changes.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate as gen  # noqa: E402

random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 400
L = sys.argv[3] if len(sys.argv) > 3 else os.path.join(HERE, '../../build/release/lakestream')
SETUP = ['CREATE TABLE tab0 (col0 INTEGER, col1 INTEGER, col2 INTEGER)',
 'INSERT INTO tab0 VALUES (83,0,38),(26,0,79),(43,81,24),(NULL,5,NULL)',
 'CREATE TABLE tab1 (col0 INTEGER, col1 INTEGER, col2 INTEGER)',
 'INSERT INTO tab1 VALUES (22,6,8),(28,57,45),(82,44,71),(22,NULL,8)']
def col(q, c):
    r = random.random()
    if r < 0.33: return c
    if r < 0.66: return q + '.' + c
    return q.upper() + '.' + c.upper()
qs = []
for i in range(COUNT):
    t = random.choice(['tab0', 'tab1']); alias = random.choice([None, 'cor0'])
    q = alias or t
    frm = t + (' AS cor0' if alias else '')
    g = random.sample(['col0', 'col1', 'col2'], random.randint(1, 2))
    sel = []
    for _ in range(random.randint(1, 2)):
        c = random.choice(g)
        k = random.random()
        if k < 0.4: sel.append(col(q, c))
        elif k < 0.6: sel.append('- ' + col(q, c))
        elif k < 0.8: sel.append(col(q, c) + ' * ' + str(random.randint(1, 9)) + ' + ' + col(q, c))
        else: sel.append(random.choice(['SUM', 'COUNT', 'MAX', 'AVG']) + '(' + random.choice(['', 'DISTINCT ', 'ALL ']) + col(q, random.choice(['col0', 'col1', 'col2'])) + ')')
    distinct = random.choice(['', 'DISTINCT ', 'ALL '])
    gb = ', '.join(col(q, c) for c in g)
    having = ''
    if random.random() < 0.3: having = ' HAVING ' + col(q, random.choice(g)) + ' IS NOT NULL'
    if random.random() < 0.2: having = ' HAVING SUM(' + col(q, 'col1') + ') > 10'
    star = random.random() < 0.1
    body = ('*' if star else ', '.join(sel))
    qs.append('SELECT ' + distinct + body + ' FROM ' + frm + ' GROUP BY ' + gb + having)
with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
    json.dump([{'setup': SETUP, 'query': q} for q in qs], f)
duck = json.loads(subprocess.run(['node', os.path.join(HERE, 'duckdb_rows.mjs'), f.name], capture_output=True, text=True,
                                 check=True).stdout)
os.unlink(f.name)
bad = ok = both_err = 0
for q, d in zip(qs, duck):
    m = gen.run_lakestream(L, SETUP, q)
    if 'error' in m and 'error' in d:
        both_err += 1
        continue
    if 'error' in m or 'error' in d:
        bad += 1
        print('only one fails:', q, '\n  lakestream:', m.get('error', 'ok'), '\n  duckdb:', d.get('error', 'ok'))
        continue
    a = sorted([[gen.comparable(v) for v in r] for r in m['rows']])
    b = sorted([[gen.comparable(v) for v in r] for r in d['rows']])
    if a and b and len(a[0]) != len(b[0]):
        ok += 1  # -json keys rows by column name: repeated names collapse
        continue
    if a != b:
        bad += 1
        print('differs:', q, '\n  lakestream', a, '\n  duckdb    ', b)
    else:
        ok += 1
print('%d same, %d failing in both, %d different' % (ok, both_err, bad))
sys.exit(1 if bad else 0)
