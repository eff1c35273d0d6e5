"""The Python side of bench/python (see driver): lakestream's Python package
against Python's sqlite3 module (fetchall) and against the C++ API
(to_pandas, whose C++ side is lakestream_bench_python).

    python_bench.py fetchall ROWS REPS   -> lines "system kind rep seconds rows checksum"
                                            for lakestream and sqlite3, alternating
    python_bench.py serve                -> to_pandas as a server of the line protocol
                                            of bench/lib/bench_server.hpp (bench/run
                                            alternates it with the C++ side)

Timings cover running the query and converting every row (fetchall: a list
of tuples; to_pandas: a DataFrame); checksums are computed afterwards, untimed.
"""
import gc
import sqlite3
import sys
import time

import lakestream



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


def df_checksum(df):
    # The formula of python_bench.cpp's Checksum: per column the sum of an
    # integer column, or the sum of a float column times 2, rounded.
    parts = [f"rows:{len(df)}"]
    for i in range(df.shape[1]):
        col = df.iloc[:, i]
        parts.append(str(round(float(col.sum()) * 2) if col.dtype.kind == "f" else int(col.sum())))
    return "/".join(parts)


def serve():
    """to_pandas, alternating with the C++ side: the line protocol of
    bench/lib/bench_server.hpp. `run load FILE` runs the file's SQL; any
    other label runs it as con.sql(q).df(), timed until the DataFrame is
    built (the relation, the engine's result, is freed after the timing)."""
    con = lakestream.connect()
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "quit":
            break
        if parts[0] == "version":
            print(f"ok lakestream Python package {lakestream.__version__}", flush=True)
            continue
        try:
            label, path = parts[1], parts[2]
            with open(path) as f:
                sql = f.read()
            if label == "load":
                seconds, _ = timed(lambda: con.execute(sql))
                print(f"ok {seconds:.6f} 0 rows:0", flush=True)
                continue

            def run():
                rel = con.sql(sql)
                return rel, rel.df()

            seconds, (rel, df) = timed(run)
            del rel
            print(f"ok {seconds:.6f} {len(df)} {df_checksum(df)}", flush=True)
            del df
        except Exception as e:  # reported to the driver as an error reply
            print("error " + " ".join(str(e).split()), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve()
    else:
        bench_fetchall(int(sys.argv[2]), int(sys.argv[3]))
