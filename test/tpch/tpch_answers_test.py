#!/usr/bin/env python3
"""TPC-H answers: lakestream against DuckDB on the same generated data.

Generates TPC-H at a small scale factor (bench/tpch/tpch_gen.hpp, through
`lakestream_bench_tpch generate`), loads the same Parquet files into an
in-memory lakestream (lakestream_bench_tpch, the bench line protocol) and an
in-memory DuckDB (bench/lib/duckdb_server.mjs), runs the 22 queries of
bench/tpch/queries on both and compares the answers row by row
(bench/tpch/compare_answers.py: numeric tolerance, order as ORDER BY gives).

The queries listed in test/tpch/expected_failures.txt must still fail; one
that now passes fails the test, so the list is shortened when the engine is
fixed. A query that runs longer than --timeout seconds on lakestream fails
(the server is killed and started again).

Exit 0: every query as expected; 1: a difference; 77 (ctest SKIP): node or
@duckdb/node-api is not available.

    tpch_answers_test.py --bench-bin build/release/bench/lakestream_bench_tpch [--sf 0.1] [--timeout 20]

Scale factors whose tables do not fit in memory in both engines at once (SF 10
needs ~35 GB that way) run with --on-disk: lakestream's tables are Delta tables
in a database directory, DuckDB reads the Parquet files through views. Outside
CI (docs/benchmarks.md has the command and its last figures):

    tpch_answers_test.py --bench-bin ... --sf 10 --data DIR --on-disk --timeout 900
"""
import argparse
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "tpch"))
import compare_answers  # noqa: E402

TABLES = ["region", "nation", "supplier", "part", "partsupp", "customer", "orders", "lineitem"]
SKIP = 77


class Server:
    """One bench protocol server (bench/lib/bench_server.hpp) on pipes."""

    def __init__(self, name, argv, cwd, log):
        self.name = name
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True)

    def call(self, line, timeout):
        """The reply without its "ok "; raises RuntimeError on "error ..." and TimeoutError."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            raise TimeoutError(f"no answer within {timeout:g} s")
        reply = self.proc.stdout.readline().rstrip("\n")
        if not reply:
            raise RuntimeError(f"{self.name} exited (code {self.proc.wait()})")
        if reply.startswith("ok "):
            return reply[3:]
        raise RuntimeError(reply.removeprefix("error "))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()  # the server this test started, by its pid
        self.proc.wait()


def expected_failures(path):
    listed = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                query, _, why = line.partition(" ")
                listed[query] = why.strip()
    return listed


def duckdb_available(bench_dir):
    if shutil.which("node") is None:
        return "node is not installed"
    probe = subprocess.run(["node", "-e", "import('@duckdb/node-api').then(()=>process.exit(0),()=>process.exit(1))"],
                           cwd=bench_dir, capture_output=True)
    if probe.returncode != 0:
        return "@duckdb/node-api is not installed (cd bench && npm install)"
    return None


def select_queries(query_dir, listed, only):
    """The query names (files NAME.sql) of `query_dir`, only those in the
    comma-separated `only` when given; None (after saying why) when the
    expected-failures list names a query that does not exist."""
    queries = sorted(f[:-4] for f in os.listdir(query_dir) if f.endswith(".sql"))
    if only:
        queries = [q for q in queries if q in only.split(",")]
    unknown = set(listed) - set(queries) if not only else set()
    if unknown:
        print(f"FAIL: expected_failures.txt names queries that do not exist: {sorted(unknown)}")
        return None
    return queries


def check_answers(bench_bin, bench_dir, load, queries, query_dir, listed, listed_file, work, log, timeout, start, compare,
                  load_timeout=600):
    """Loads `load` into DuckDB and lakestream (bench servers; a path, or a dict
    of a path per system), runs each query of `query_dir` on both and compares the answers with compare(sql_path,
    expected_tsv, actual_tsv) -> reason or None. Queries in `listed` must still
    fail. Returns 0, or 1 naming each problem; `work` is removed on success."""
    servers = {}

    def start_server(name):
        argv = [bench_bin] if name == "lakestream" else ["node", os.path.join(bench_dir, "lib", "duckdb_server.mjs")]
        server = Server(name, argv, bench_dir, log)
        server.call(f"run load {load[name] if isinstance(load, dict) else load}", load_timeout)
        servers[name] = server
        return server

    try:
        duck = start_server("duckdb")
        lake = start_server("lakestream")
        problems = []
        for q in queries:
            sql = os.path.join(query_dir, f"{q}.sql")
            expected_out, actual_out = os.path.join(work, f"{q}.duckdb.tsv"), os.path.join(work, f"{q}.lakestream.tsv")
            duck.call(f"run {q} {sql} {expected_out}", max(600, timeout))
            began = time.monotonic()
            try:
                lake.call(f"run {q} {sql} {actual_out}", timeout)
                reason = compare(sql, expected_out, actual_out)
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
                    problems.append(f"{q} now gives DuckDB's answer: delete its line from {listed_file}")
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench-bin", required=True, help="lakestream_bench_tpch")
    ap.add_argument("--sf", default="0.1", help="scale factor (default 0.1)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per query on lakestream (default 20)")
    ap.add_argument("--only", default="", help="comma-separated queries (q01,q05), default all 22")
    ap.add_argument("--data", default="", help="an existing `lakestream_bench_tpch generate` directory (default: generate --sf)")
    ap.add_argument("--on-disk", action="store_true",
                    help="lakestream loads Delta tables in a database directory (LAKESTREAM_BENCH_DB) and DuckDB "
                    "reads the Parquet files through views: for scale factors whose tables do not fit in memory twice")
    args = ap.parse_args()
    args.bench_bin = os.path.abspath(args.bench_bin)

    bench_dir = os.path.join(ROOT, "bench")
    missing = duckdb_available(bench_dir)
    if missing:
        print(f"SKIP: DuckDB is unavailable: {missing}")
        return SKIP
    listed = expected_failures(os.path.join(ROOT, "test", "tpch", "expected_failures.txt"))
    queries = select_queries(os.path.join(bench_dir, "tpch", "queries"), listed, args.only)
    if queries is None:
        return 1

    work = tempfile.mkdtemp(prefix="lakestream-tpch-test.")
    log = open(os.path.join(work, "servers.log"), "w")
    try:
        start = time.monotonic()
        data = os.path.abspath(args.data) if args.data else os.path.join(work, "data")
        if not args.data:
            subprocess.run([args.bench_bin, "generate", args.sf, data], check=True)
            print(f"generated SF {args.sf} in {time.monotonic() - start:.1f} s")
        load = {}
        for system in ("lakestream", "duckdb"):
            kind = "VIEW" if args.on_disk and system == "duckdb" else "TABLE"
            load[system] = os.path.join(work, f"load.{system}.sql")
            with open(load[system], "w") as f:
                for t in TABLES:
                    f.write(f"CREATE {kind} {t} AS SELECT * FROM read_parquet('{data}/{t}.parquet');\n")
                f.write("SELECT COUNT(*) FROM lineitem;\n")
        if args.on_disk:
            os.environ["LAKESTREAM_BENCH_DB"] = os.path.join(work, "db")

        return check_answers(args.bench_bin, bench_dir, load, queries, os.path.join(bench_dir, "tpch", "queries"), listed,
                             "test/tpch/expected_failures.txt", work, log, args.timeout, start,
                             lambda sql, expected, actual: compare_answers.compare(compare_answers.read_rows(expected),
                                                                                   compare_answers.read_rows(actual)),
                             load_timeout=max(600, 60 * float(args.sf)))
    finally:
        log.close()


if __name__ == "__main__":
    sys.exit(main())
