#!/usr/bin/env python3
"""SSB and ClickBench answers: lakestream against DuckDB on the same data.

The second benchmark beside TPC-H (issue 29): the 13 Star Schema Benchmark
queries over SSB tables derived from generated TPC-H data, and ClickBench's 43
queries over a synthetic `hits` table (bench/ssb_clickbench: gen.mjs, ssb.sql,
hits.sql, queries/). Both systems load the same Parquet files into memory;
each query's answers are compared by bench/ssb_clickbench/compare.py (numeric
tolerance; ties of ORDER BY ... LIMIT allowed where the query file says so).

Queries listed in test/ssb_clickbench/expected_failures.txt must still fail
(one that passes fails the test: delete its line). A query over --timeout
seconds on lakestream fails.

Exit 0: all as expected; 1: a difference; 77 (ctest SKIP): no node or
@duckdb/node-api.

    answers_test.py --bench-bin build/release/bench/lakestream_bench_tpch [--sf 0.05] [--hits 200000]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "bench")
HERE = os.path.join(BENCH, "ssb_clickbench")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "tpch"))
import compare  # noqa: E402
from tpch_answers_test import SKIP, check_answers, duckdb_available, expected_failures, select_queries  # noqa: E402

TPCH_TABLES = ["region", "nation", "supplier", "part", "partsupp", "customer", "orders", "lineitem"]
SSB_TABLES = ["lineorder", "customer", "supplier", "part", "date"]


def load_script(path, ssb, hits):
    """The load file both servers run: SSB's five tables and hits."""
    with open(path, "w") as f:
        for t in SSB_TABLES:
            f.write(f'CREATE TABLE "{t}" AS SELECT * FROM read_parquet(\'{ssb}/{t}.parquet\');\n')
        f.write(f"CREATE TABLE hits AS SELECT * FROM read_parquet('{hits}/hits.parquet');\n")
        f.write("SELECT COUNT(*) FROM hits;\n")


def compare_query(sql, expected_out, actual_out):
    """compare.py's verdict (it reads the query's ties rule from its text)."""
    with open(sql, encoding="utf-8") as f:
        sql_text = f.read()
    return compare.compare(sql_text, compare.compare_answers.read_rows(expected_out),
                           compare.compare_answers.read_rows(actual_out))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench-bin", required=True, help="lakestream_bench_tpch (serves the bench protocol)")
    ap.add_argument("--sf", default="0.05", help="TPC-H scale factor the SSB tables derive from")
    ap.add_argument("--hits", default="200000", help="rows of the synthetic hits table")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per query on lakestream")
    ap.add_argument("--only", default="", help="comma-separated queries (ssb_q1.1,cb_q05), default all")
    args = ap.parse_args()
    args.bench_bin = os.path.abspath(args.bench_bin)

    missing = duckdb_available(BENCH)
    if missing:
        print(f"SKIP: DuckDB is unavailable: {missing}")
        return SKIP
    listed = expected_failures(os.path.join(ROOT, "test", "ssb_clickbench", "expected_failures.txt"))
    queries = select_queries(os.path.join(HERE, "queries"), listed, args.only)
    if queries is None:
        return 1

    work = tempfile.mkdtemp(prefix="lakestream-ssb-clickbench-test.")
    log = open(os.path.join(work, "servers.log"), "w")
    try:
        start = time.monotonic()
        tpch, ssb, hits = (os.path.join(work, d) for d in ("tpch", "ssb", "hits"))
        subprocess.run([args.bench_bin, "generate", args.sf, tpch], check=True)
        subprocess.run(["node", os.path.join(HERE, "gen.mjs"), "ssb", tpch, ssb], check=True)
        subprocess.run(["node", os.path.join(HERE, "gen.mjs"), "hits", args.hits, hits], check=True)
        load = os.path.join(work, "load.sql")
        load_script(load, ssb, hits)
        print(f"generated SSB (TPC-H SF {args.sf}) and {args.hits} hits in {time.monotonic() - start:.1f} s")

        return check_answers(args.bench_bin, BENCH, load, queries, os.path.join(HERE, "queries"), listed,
                             "test/ssb_clickbench/expected_failures.txt", work, log, args.timeout, start, compare_query)
    finally:
        log.close()


if __name__ == "__main__":
    sys.exit(main())
