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
import shutil
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
from tpch_answers_test import SKIP, Server, duckdb_available, expected_failures  # noqa: E402

TPCH_TABLES = ["region", "nation", "supplier", "part", "partsupp", "customer", "orders", "lineitem"]
SSB_TABLES = ["lineorder", "customer", "supplier", "part", "date"]


def load_script(path, ssb, hits):
    """The load file both servers run: SSB's five tables and hits."""
    with open(path, "w") as f:
        for t in SSB_TABLES:
            f.write(f'CREATE TABLE "{t}" AS SELECT * FROM read_parquet(\'{ssb}/{t}.parquet\');\n')
        f.write(f"CREATE TABLE hits AS SELECT * FROM read_parquet('{hits}/hits.parquet');\n")
        f.write("SELECT COUNT(*) FROM hits;\n")


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
    queries = sorted(f[:-4] for f in os.listdir(os.path.join(HERE, "queries")) if f.endswith(".sql"))
    if args.only:
        queries = [q for q in queries if q in args.only.split(",")]
    unknown = set(listed) - set(queries) if not args.only else set()
    if unknown:
        print(f"FAIL: expected_failures.txt names queries that do not exist: {sorted(unknown)}")
        return 1

    work = tempfile.mkdtemp(prefix="lakestream-ssb-clickbench-test.")
    log = open(os.path.join(work, "servers.log"), "w")
    servers = {}
    try:
        start = time.monotonic()
        tpch, ssb, hits = (os.path.join(work, d) for d in ("tpch", "ssb", "hits"))
        subprocess.run([args.bench_bin, "generate", args.sf, tpch], check=True)
        subprocess.run(["node", os.path.join(HERE, "gen.mjs"), "ssb", tpch, ssb], check=True)
        subprocess.run(["node", os.path.join(HERE, "gen.mjs"), "hits", args.hits, hits], check=True)
        load = os.path.join(work, "load.sql")
        load_script(load, ssb, hits)
        print(f"generated SSB (TPC-H SF {args.sf}) and {args.hits} hits in {time.monotonic() - start:.1f} s")

        def start_server(name):
            argv = [args.bench_bin] if name == "lakestream" else ["node", os.path.join(BENCH, "lib", "duckdb_server.mjs")]
            server = Server(name, argv, BENCH, log)
            server.call(f"run load {load}", 600)
            servers[name] = server
            return server

        duck = start_server("duckdb")
        lake = start_server("lakestream")
        problems = []
        for q in queries:
            sql = os.path.join(HERE, "queries", f"{q}.sql")
            with open(sql, encoding="utf-8") as f:
                sql_text = f.read()
            expected_out, actual_out = os.path.join(work, f"{q}.duckdb.tsv"), os.path.join(work, f"{q}.lakestream.tsv")
            duck.call(f"run {q} {sql} {expected_out}", 600)
            began = time.monotonic()
            try:
                lake.call(f"run {q} {sql} {actual_out}", args.timeout)
                reason = compare.compare(sql_text, compare.compare_answers.read_rows(expected_out),
                                         compare.compare_answers.read_rows(actual_out))
                outcome = f"wrong answer: {reason}" if reason else None
            except TimeoutError as e:
                outcome = f"timeout: {e}"
                lake.stop()
                lake = start_server("lakestream")
            except RuntimeError as e:
                outcome = f"error: {e}"
                if lake.proc.poll() is not None:
                    lake = start_server("lakestream")
            seconds = time.monotonic() - began
            if q in listed:
                if outcome is None:
                    problems.append(f"{q} now gives DuckDB's answer: delete its line from test/ssb_clickbench/expected_failures.txt")
                    print(f"{q}: PASSES but is listed as an expected failure ({listed[q]})")
                else:
                    print(f"{q}: expected failure ({listed[q]}): {outcome}")
            elif outcome is None:
                print(f"{q}: ok ({seconds:.2f} s)")
            else:
                problems.append(f"{q}: {outcome}")
                print(f"{q}: FAIL {outcome}")
        print(f"{len(queries)} queries in {time.monotonic() - start:.1f} s")
        if problems:
            print("FAILED:\n  " + "\n  ".join(problems))
            print(f"results kept in {work}")
            return 1
        shutil.rmtree(work, ignore_errors=True)
        return 0
    finally:
        for server in servers.values():
            server.stop()
        log.close()


if __name__ == "__main__":
    sys.exit(main())
