#!/usr/bin/env python3
"""Two processes append to one Delta table: the table lives at its own location
and is attached from two different database directories (CREATE TABLE t
LOCATION '...'), so the per-database write lock does not serialize them; only
Delta's optimistic concurrency (put-if-absent commit files) does. Each process
runs --per-writer single-row INSERTs. Expected: no errors (blind appends never
conflict), 2 * per-writer append commits after the create, every row present
exactly once, each commit adding exactly one file, log intact."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from delta_log_check import check_log, csv_rows, shell  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--writer", required=True)
    ap.add_argument("--shell", required=True)
    ap.add_argument("--per-writer", type=int, default=500)
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    n = args.per_writer
    work = tempfile.mkdtemp(prefix="lakestream_2w_")
    loc = os.path.join(work, "shared_table")
    dbs = [os.path.join(work, "db_a"), os.path.join(work, "db_b")]
    failures = []
    start = time.time()
    try:
        shell(args.shell, dbs[0], f"CREATE TABLE t (w INT, i INT) LOCATION '{loc}'")
        shell(args.shell, dbs[1], f"CREATE TABLE t LOCATION '{loc}'")
        procs = []
        for w, db in enumerate(dbs):
            ops = os.path.join(work, f"ops_{w}.sql")
            with open(ops, "w") as f:
                for i in range(n):
                    f.write(f"INSERT INTO t VALUES ({w}, {i})\n")
            ack = os.path.join(work, f"ack_{w}.log")
            procs.append((subprocess.Popen([args.writer, db, ops, ack], stderr=subprocess.PIPE), ack))
        for w, (p, ack) in enumerate(procs):
            try:
                p.wait(timeout=max(1.0, args.timeout - (time.time() - start)))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                failures.append(f"writer {w} did not finish within {args.timeout}s")
            err = p.stderr.read().decode(errors="replace").strip()
            with open(ack) as f:
                lines = f.read().splitlines()
            done = sum(1 for ln in lines if ln.startswith("committed "))
            errs = [ln for ln in lines if ln.startswith("error ")]
            if p.returncode != 0 or done != n:
                failures.append(f"writer {w}: exit {p.returncode}, {done}/{n} INSERTs committed; first error: {errs[0] if errs else err}")
        latest, files, problems, versions = check_log(loc)
        if problems:
            failures.append(f"log problems: {problems[:5]}")
        appends = 0
        for v in range(1, latest + 1):
            acts = versions.get(v, [])
            adds = [a for a in acts if "add" in a]
            removes = [a for a in acts if "remove" in a]
            ops = [a["commitInfo"].get("operation") for a in acts if "commitInfo" in a]
            if len(adds) == 1 and not removes and ops == ["WRITE"]:
                appends += 1
            else:
                failures.append(f"version {v} is not a single-file append: {len(adds)} adds, {len(removes)} removes, operations {ops}")
                break
        if latest != 2 * n or appends != 2 * n:
            failures.append(f"latest version {latest}, {appends} append commits; expected {2 * n} after the create")
        for w, db in enumerate(dbs):
            _, rows = csv_rows(shell(args.shell, db, "SELECT w, i FROM t ORDER BY w, i"))
            got = [(int(a), int(b)) for a, b in rows]
            want = [(x, i) for x in range(2) for i in range(n)]
            if got != want:
                missing = sorted(set(want) - set(got))[:10]
                dup = len(got) - len(set(got))
                failures.append(f"read through database {w}: {len(got)} rows, missing {missing}, {dup} duplicates")
        print(f"two_writers: latest version {latest}, {appends} append commits, {time.time() - start:.1f}s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        for f in failures:
            print("FAIL:", f)
        sys.exit(1)
    print("two_writers: OK")


if __name__ == "__main__":
    main()
