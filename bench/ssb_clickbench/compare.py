#!/usr/bin/env python3
"""Compares a query's answers from two systems (files written by `run <label>
<sql> <result-file>`, bench/lib/bench_server.hpp), as bench/tpch/compare_answers.py
does, but knowing that a ClickBench query's ORDER BY ... LIMIT may cut through
ties. The query file's first line says how to compare:

  -- answer: ties N[,M]   columns N, M (1-based) are the ORDER BY key: the key
                          sequences must be equal; rows whose key is strictly
                          inside the answer must be the same (as a multiset per
                          key); rows of the first key (when the query has an
                          OFFSET) and of the last key may be any of the tied ones.
  -- answer: any N groups LIMIT without ORDER BY: only the row count is compared.
  (none)                  rows compared in order (compare_answers.compare).

    compare.py QUERY.sql EXPECTED ACTUAL   exit 0 if equal, 1 (and why) if not
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tpch"))
import compare_answers  # noqa: E402


def rule(sql_text):
    first = sql_text.lstrip().splitlines()[0] if sql_text.strip() else ""
    m = re.match(r"--\s*answer:\s*(.*)$", first)
    return m.group(1).strip() if m else ""


def _same_row(e, a):
    return len(e) == len(a) and all(compare_answers.values_equal(x, y) for x, y in zip(e, a))


def _multiset_equal(expected, actual):
    left = list(actual)
    for e in expected:
        for j, a in enumerate(left):
            if _same_row(e, a):
                del left[j]
                break
        else:
            return False
    return not left


def compare_ties(key_cols, has_offset, expected, actual):
    if len(expected) != len(actual):
        return f"{len(actual)} rows, expected {len(expected)}"
    for i, (e, a) in enumerate(zip(expected, actual)):
        if len(e) != len(a):
            return f"row {i + 1}: {len(a)} columns, expected {len(e)}"
        for c in key_cols:
            if not compare_answers.values_equal(e[c], a[c]):
                return f"row {i + 1} sort key column {c + 1}: {a[c]!r}, expected {e[c]!r}"
    # runs of equal keys (keys are equal in both answers by now)
    runs, start = [], 0
    for i in range(1, len(expected) + 1):
        if i == len(expected) or any(expected[i][c] != expected[start][c] for c in key_cols):
            runs.append((start, i))
            start = i
    for n, (lo, hi) in enumerate(runs):
        boundary = n == len(runs) - 1 or (n == 0 and has_offset)
        if not boundary and not _multiset_equal(expected[lo:hi], actual[lo:hi]):
            return f"rows {lo + 1}-{hi} (one sort key) differ: {actual[lo]!r}, expected {expected[lo]!r}"
    return None


def compare(sql_text, expected, actual):
    """None if the answers agree under the query's rule, else a one-line reason."""
    how = rule(sql_text)
    if how.startswith("ties"):
        cols = [int(c) - 1 for c in how.split()[1].split(",")]
        has_offset = re.search(r"\bOFFSET\b", sql_text, re.IGNORECASE) is not None
        return compare_ties(cols, has_offset, expected, actual)
    if how.startswith("any"):
        return None if len(expected) == len(actual) else f"{len(actual)} rows, expected {len(expected)}"
    return compare_answers.compare(expected, actual)


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        sql_text = f.read()
    reason = compare(sql_text, compare_answers.read_rows(argv[2]), compare_answers.read_rows(argv[3]))
    if reason:
        print(reason)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
