"""The Python side of bench/python (see driver): lakestream's Python package
against Python's sqlite3 module (fetchall) and against the C++ API
(to_pandas, whose C++ times come from lakestream_bench_python).

    python_bench.py fetchall ROWS REPS      -> lines for lakestream and sqlite3
    python_bench.py to_pandas ROWS REPS     -> lines for lakestream

Each output line: system kind rep seconds rows checksum. Timings cover
running the query and converting every row (fetchall: a list of tuples;
to_pandas: a DataFrame); checksums are computed afterwards, untimed.
"""
import gc
import sqlite3
import sys
import time

import lakestream

# Keep in step with python_bench.cpp.
TO_PANDAS_LOAD = ("CREATE TABLE t AS SELECT range AS a, CAST(range % 1000 AS INTEGER) AS b, CAST(range AS DOUBLE) * 0.5 AS c, "
                  "range * 7 AS d FROM range({n})")


def emit(system, kind, rep, seconds, rows, checksum):
    print(f"{system}\t{kind}\t{rep}\t{seconds:.6f}\t{rows}\t{checksum}", flush=True)


def rows_checksum(rows):
    a = b = d = 0
    c = 0.0
    for r in rows:
        a += r[0]
        c += r[1]
        b += len(r[2])
        d += r[3]
    return f"rows:{len(rows)},sums:{a}/{int(c * 2)}/{b}/{d}"


def timed(fn):
    gc.collect()
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def bench_fetchall(n, reps):
    # 4 columns: BIGINT, DOUBLE, VARCHAR, BIGINT; the same values in both.
    con = lakestream.connect()
    con.execute("CREATE TABLE t AS SELECT range AS i, CAST(range AS DOUBLE) * 0.5 AS d, 'name-' || CAST(range AS VARCHAR) AS s, "
                f"range % 1000 AS j FROM range({n})")
    lite = sqlite3.connect(":memory:")
    lite.execute("CREATE TABLE t (i INTEGER, d REAL, s TEXT, j INTEGER)")
    lite.execute("WITH RECURSIVE r(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM r WHERE x < ?) "
                 "INSERT INTO t SELECT x, x * 0.5, 'name-' || x, x % 1000 FROM r", (n - 1,))
    lite.commit()
    systems = {
        "lakestream": lambda: con.execute("SELECT * FROM t").fetchall(),
        "sqlite3": lambda: lite.execute("SELECT * FROM t").fetchall(),
    }
    for rep in range(reps + 1):
        # Alternate which system goes first, so slow phases of a noisy machine hit both.
        order = list(systems) if rep % 2 == 0 else list(reversed(systems))
        for system in order:
            seconds, rows = timed(systems[system])
            emit(system, "warmup" if rep == 0 else "query", rep, seconds, len(rows), rows_checksum(rows))
            del rows


def bench_to_pandas(n, reps):
    con = lakestream.connect()
    con.execute(TO_PANDAS_LOAD.format(n=n))
    for rep in range(reps + 1):
        seconds, df = timed(lambda: con.sql("SELECT * FROM t").df())
        checksum = (f"rows:{len(df)},sums:{int(df['a'].sum())}/{int(df['b'].astype('int64').sum())}/"
                    f"{int(df['c'].sum() * 2)}/{int(df['d'].sum())}")
        emit("lakestream", "warmup" if rep == 0 else "query", rep, seconds, len(df), checksum)
        del df


if __name__ == "__main__":
    what, n, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    {"fetchall": bench_fetchall, "to_pandas": bench_to_pandas}[what](n, reps)
