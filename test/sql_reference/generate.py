#!/usr/bin/env python3
"""Writes a sqllogictest file from a spec, with the rows lakestream returns,
after checking them against DuckDB.

    test/sql_reference/generate.py SPEC.py OUT.test [LAKESTREAM_BINARY]

A spec (specs/*.py) defines NAME, DESCRIPTION, GROUP, SETUP (statements run
before every query) and CASES, each one of
    ('IIT', sql[, 'rowsort'])  a query: lakestream's rows are written as the
                               expected rows; a difference from DuckDB's rows
                               (compared as numbers where both are numbers) is
                               reported and makes the exit status 1
    ('error', sql, substring)  lakestream must fail with `substring`
    ('comment', text)
Where lakestream follows Spark and DuckDB differs, the spec says so in a
comment and DuckDB's answer is only reported. Needs node and bench's
@duckdb/node-api (cd bench && npm install).
"""
import json
import os
import runpy
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run_lakestream(binary, setup, query):
    p = subprocess.run([binary, '-json', '-c', ';\n'.join(setup + [query])], capture_output=True, text=True)
    text = (p.stdout + p.stderr).strip()
    decoder = json.JSONDecoder()
    docs, i = [], 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        if text[i] != '[':
            return {'error': text[i:].strip()}
        doc, i = decoder.raw_decode(text, i)
        docs.append(doc)
    # -json prints objects keyed by column name: select distinct names.
    return {'rows': [list(r.values()) for r in docs[-1]]}


def cell(v):
    if v is None:
        return 'NULL'
    if v is True or v is False:
        return 'true' if v else 'false'
    if isinstance(v, float):
        return repr(v)
    if v == '':
        return '(empty)'  # the runner's spelling of the empty string
    return str(v)


def comparable(v):
    if v is None or isinstance(v, bool):
        return cell(v)
    try:
        return repr(float(v))
    except (TypeError, ValueError):
        return str(v)


def main():
    spec = runpy.run_path(sys.argv[1])
    out_path = sys.argv[2]
    binary = sys.argv[3] if len(sys.argv) > 3 else os.path.join(HERE, '../../build/release/lakestream')
    setup, cases = spec['SETUP'], spec['CASES']
    runnable = [c for c in cases if c[0] != 'comment']
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump([{'setup': setup, 'query': c[1]} for c in runnable], f)
    duck = json.loads(subprocess.run(['node', os.path.join(HERE, 'duckdb_rows.mjs'), f.name], capture_output=True,
                                     text=True, check=True).stdout)
    os.unlink(f.name)
    lines = ['# name: ' + spec['NAME'], '# description: ' + spec['DESCRIPTION'], '# group: [' + spec['GROUP'] + ']', '']
    for s in setup:
        lines += ['statement ok', s, '']
    problems, k = 0, 0
    for c in cases:
        if c[0] == 'comment':
            lines += ['# ' + c[1], '']
            continue
        theirs, k = duck[k], k + 1
        mine = run_lakestream(binary, setup, c[1])
        if c[0] == 'error':
            if 'error' not in mine or c[2] not in mine['error']:
                print('expected an error containing %r: %s\n  got %s' % (c[2], c[1], mine))
                problems += 1
            lines += ['statement error', c[1], '----', c[2], '']
            continue
        if 'error' in mine:
            print('lakestream failed: %s\n  %s' % (c[1], mine['error']))
            problems += 1
            continue
        sort = c[2] if len(c) > 2 else None
        if 'error' in theirs:
            print('DuckDB failed (check by hand): %s\n  %s' % (c[1], theirs['error']))
        else:
            a = [[comparable(v) for v in row] for row in mine['rows']]
            b = [[comparable(v) for v in row] for row in theirs['rows']]
            if sort == 'rowsort':
                a, b = sorted(a), sorted(b)
            if a != b:
                print('differs from DuckDB: %s\n  lakestream %s\n  duckdb     %s' % (c[1], a, b))
                problems += 1
        lines += ['query ' + c[0] + (' ' + sort if sort else ''), c[1], '----']
        lines += ['\t'.join(cell(v) for v in row) for row in mine['rows']]
        lines += ['']
    with open(out_path, 'w') as f:
        f.write('\n'.join(lines).rstrip() + '\n')
    print('%d cases, %d problems' % (k, problems))
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
