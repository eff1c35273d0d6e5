"""Loading a pandas DataFrame: lakestream's replacement scan (SELECT/CREATE
TABLE AS from the variable by name) against pandas' to_sql into Python's
sqlite3 (DuckDB has no Python package here) and the VALUES text from_df()
used before, all in one run. The VALUES path is measured on a slice and
scaled (it is linear and would take minutes on the whole frame).

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python/df_scan.py [rows]
"""
import datetime
import sqlite3
import sys
import time

import numpy as np
import pandas as pd

import lakestream

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
VALUES_ROWS = 20_000


def best(fn, reps=3):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def frame(n):
    rng = np.random.default_rng(1)
    x = rng.random(n)
    x[::97] = np.nan
    names = np.array(["item-%d" % i for i in range(1000)], dtype=object)[rng.integers(0, 1000, n)]
    names[::101] = None
    return pd.DataFrame({"id": np.arange(n, dtype=np.int64), "x": x, "name": names,
                         "ts": pd.Timestamp("2024-01-01") + pd.to_timedelta(np.arange(n), unit="s"),
                         "ok": np.arange(n) % 3 == 0})


def values_sql(df):
    """The VALUES text from_df() built before (one literal per cell)."""
    from lakestream._frame.sql import literal, quote_name

    def cell(v):
        if v is None or (isinstance(v, float) and v != v) or v is pd.NaT:
            return None
        if isinstance(v, pd.Timestamp):
            return v.to_pydatetime()
        return v.item() if type(v).__module__ == "numpy" else v
    rows = ["(" + ", ".join(literal(cell(v)) for v in r) + ")" for r in df.itertuples(index=False, name=None)]
    return "SELECT * FROM (VALUES %s) AS %s(%s)" % (", ".join(rows), quote_name("df"),
                                                    ", ".join(quote_name(c) for c in df.columns))


def main():
    df = frame(ROWS)
    con = lakestream.connect()

    def ls_create():
        con.execute("CREATE OR REPLACE TABLE t AS SELECT * FROM df")

    def ls_scan():
        con.sql("SELECT count(*), sum(x), count(name) FROM df").fetchall()

    def sqlite_create():
        lite = sqlite3.connect(":memory:")
        df.to_sql("t", lite, index=False)
        lite.close()

    small = df.iloc[:VALUES_ROWS]

    def values_create():
        con.execute("CREATE OR REPLACE TABLE v AS " + values_sql(small))

    results = {
        "lakestream CREATE TABLE AS SELECT * FROM df": best(ls_create),
        "lakestream SELECT aggregates FROM df": best(ls_scan),
        "pandas to_sql -> sqlite3 (:memory:)": best(sqlite_create),
        "lakestream old VALUES path (scaled from %d rows)" % VALUES_ROWS: best(values_create, 1) * ROWS / VALUES_ROWS,
    }
    assert con.sql("SELECT count(*) FROM t").fetchall() == [(ROWS,)]
    print("rows: %d (int64, float64 with NaN, str with None, datetime64, bool)" % ROWS)
    base = results["lakestream CREATE TABLE AS SELECT * FROM df"]
    for name, seconds in results.items():
        print("%-58s %8.3f s  %6.1fx" % (name, seconds, seconds / base))


if __name__ == "__main__":
    main()
