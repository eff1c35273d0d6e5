#!/usr/bin/env python3
"""Compares two query results written by `run <label> <sql> <result-file>`
(bench/lib/bench_server.hpp, bench/lib/duckdb_server.mjs): one row a line,
values separated by tabs.

Rows are compared in order (every TPC-H query orders its result completely or
returns one row). Two values are equal when their text is equal, or when both
are numbers within the tolerance below: sums of DECIMALs are exact in DuckDB
but may be summed in another order, or as DOUBLE, elsewhere, and averages are
DOUBLE or DECIMAL depending on the system. The tolerance is a relative 1e-9
(a sum of millions of money values differs in its last binary digits) or an
absolute 1e-6 (an average of hundredths printed with six decimals).

    compare_answers.py EXPECTED ACTUAL   exit 0 if equal, 1 (and why) if not
"""
import math
import sys

REL_TOL = 1e-9
ABS_TOL = 1e-6


def _number(text):
    try:
        x = float(text)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def values_equal(expected, actual):
    if expected == actual:
        return True
    a, b = _number(expected), _number(actual)
    if a is None or b is None:
        return False
    return abs(a - b) <= max(REL_TOL * max(abs(a), abs(b)), ABS_TOL)


def read_rows(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f]


def compare(expected_rows, actual_rows):
    """None if the results are equal, else a one-line reason."""
    if len(expected_rows) != len(actual_rows):
        return f"{len(actual_rows)} rows, expected {len(expected_rows)}"
    for i, (e, a) in enumerate(zip(expected_rows, actual_rows)):
        if len(e) != len(a):
            return f"row {i + 1}: {len(a)} columns, expected {len(e)}"
        for col, (x, y) in enumerate(zip(e, a)):
            if not values_equal(x, y):
                # Same rows in another order is reported as such: the query's
                # ORDER BY was not honoured (or ties broke differently).
                if sorted(map(tuple, expected_rows)) == sorted(map(tuple, actual_rows)):
                    return f"same rows in a different order (first difference at row {i + 1})"
                return f"row {i + 1} column {col + 1}: {y!r}, expected {x!r}"
    return None


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    reason = compare(read_rows(argv[1]), read_rows(argv[2]))
    if reason:
        print(reason)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
