#!/usr/bin/env python3
"""Nothing is lost across kills, DROP and re-creation (issue 28). Each phase
takes seconds:

  ctas     CREATE TABLE t AS SELECT is SIGKILLed at the crash point between its
           Delta commit and the catalog save that registers it
           (ctas.before_register), and at random moments of a larger one: t is
           then either absent or complete, never registered and empty, so
           CREATE TABLE IF NOT EXISTS t AS ... fills it. A CTAS that consumed a
           stream and was killed leaves the stream unconsumed.
  drop     DROP TABLE t CASCADE (t has a FILE sink) is SIGKILLed after the
           catalog save that forgets t and its sink (drop.after_catalog_save):
           both are gone, the name can be used again (the leftover folder is
           removed), and a sink on the new t delivers exactly the new rows.
  recreate a FILE sink with pending changes whose attached source is deleted
           and created again by another database stops with the named error
           and delivers nothing of the new table; repositioned, it delivers
           all of it (before: the new table's first versions were skipped).

Usage: lineage_kill_test.py --shell LAKESTREAM [--seed N]
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from delta_log_check import csv_rows, shell  # noqa: E402


def run(binary, db, sql, crash_point=None):
    env = dict(os.environ)
    if crash_point:
        env["LAKESTREAM_CRASH_POINT"] = crash_point
    return subprocess.run([binary, db, "-csv", "-c", sql], capture_output=True, text=True, timeout=60, env=env)


def scalar(binary, db, sql):
    return csv_rows(shell(binary, db, sql))[1][0][0]


def tables(binary, db):
    return {row[0] for row in csv_rows(shell(binary, db, "SHOW TABLES"))[1]}


def sink_ids(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return sorted(json.loads(line)["id"] for line in f.read().splitlines())


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def ctas_phase(binary, work, rng):
    db = os.path.join(work, "ctas_db")
    shell(binary, db,
          "CREATE TABLE src (id BIGINT, v STRING) TBLPROPERTIES ('change_tracking' = 'true')",
          "INSERT INTO src SELECT range, 'v' || range FROM range(1000)",
          "CREATE STREAM st ON TABLE src",
          "INSERT INTO src SELECT range, 'w' FROM range(1000, 1010)")
    p = run(binary, db, "CREATE TABLE t AS SELECT * FROM src", "ctas.before_register")
    expect(p.returncode == -signal.SIGKILL, f"ctas.before_register did not kill the CTAS (rc {p.returncode}): {p.stderr}")
    expect("t" not in tables(binary, db), "a CTAS killed before its registration left table t in the catalog")
    shell(binary, db, "CREATE TABLE IF NOT EXISTS t AS SELECT * FROM src")
    n = scalar(binary, db, "SELECT count(*) FROM t")
    expect(n == "1010", f"CREATE TABLE IF NOT EXISTS after the kill kept t with {n} rows instead of 1010")

    # The stream a killed CTAS read is not consumed: its rows go to the next one.
    p = run(binary, db, "CREATE TABLE u AS SELECT id FROM st", "ctas.before_register")
    expect(p.returncode == -signal.SIGKILL, f"ctas.before_register did not kill the stream CTAS: {p.stderr}")
    expect("u" not in tables(binary, db), "a killed CTAS over a stream left table u registered")
    expect(scalar(binary, db, "SELECT count(*) FROM st") == "10", "a killed CTAS moved the stream's offset")
    shell(binary, db, "CREATE TABLE u AS SELECT id FROM st")
    expect(scalar(binary, db, "SELECT count(*) FROM u") == "10", "the CTAS after the kill did not get the stream's rows")
    expect(scalar(binary, db, "SELECT count(*) FROM st") == "0", "the CTAS after the kill did not consume the stream")

    # Random moments of a larger CTAS: never registered with fewer rows than its query.
    rows = 400000
    outcomes = {"absent": 0, "complete": 0}
    for attempt in range(4):
        name = f"big{attempt}"
        p = subprocess.Popen([binary, db, "-c", f"CREATE TABLE {name} AS SELECT range AS id, 'x' || range AS s "
                              f"FROM range({rows})"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.05, 0.6))
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
        p.wait()
        if name in tables(binary, db):
            n = scalar(binary, db, f"SELECT count(*) FROM {name}")
            expect(n == str(rows), f"kill {attempt}: {name} is registered with {n} rows of {rows}")
            outcomes["complete"] += 1
        else:
            outcomes["absent"] += 1
        # The name is free again (the leftover folder goes) and the CTAS completes.
        shell(binary, db, f"CREATE TABLE IF NOT EXISTS {name} AS SELECT range AS id, 'x' || range AS s FROM range({rows})")
        expect(scalar(binary, db, f"SELECT count(*) FROM {name}") == str(rows), f"{name} after the kill is incomplete")
    print(f"ctas: ok ({outcomes['absent']} killed before registration, {outcomes['complete']} after)", flush=True)


def drop_phase(binary, work):
    db = os.path.join(work, "drop_db")
    first, second = os.path.join(work, "first.jsonl"), os.path.join(work, "second.jsonl")
    shell(binary, db,
          "CREATE TABLE t (id INT) TBLPROPERTIES ('change_tracking' = 'true')",
          "INSERT INTO t VALUES (1), (2)",
          f"CREATE SINK k FROM t INTO FILE '{first}' WITH ('start' = 'earliest')",
          "RUN SINK k",
          "INSERT INTO t VALUES (3)")  # pending for k
    p = run(binary, db, "DROP TABLE t")
    expect(p.returncode != 0 and "Cannot drop table t: sink k reads it" in p.stderr,
           f"DROP TABLE under a sink was not refused: {p.stderr}")
    p = run(binary, db, "DROP TABLE t CASCADE", "drop.after_catalog_save")
    expect(p.returncode == -signal.SIGKILL, f"drop.after_catalog_save did not kill the DROP (rc {p.returncode}): {p.stderr}")
    expect("t" not in tables(binary, db), "t is still in the catalog after its DROP's catalog save")
    expect(csv_rows(shell(binary, db, "SHOW SINKS"))[1] == [], "the sink on t survived DROP TABLE t CASCADE")
    # The folder the kill left is removed by the next CREATE of the name.
    shell(binary, db,
          "CREATE TABLE t (id INT) TBLPROPERTIES ('change_tracking' = 'true')",
          "INSERT INTO t VALUES (10), (20)",
          f"CREATE SINK k FROM t INTO FILE '{second}' WITH ('start' = 'version 0')",
          "RUN SINK k")
    expect(sink_ids(first) == [1, 2], f"the first sink's file changed: {sink_ids(first)}")
    expect(sink_ids(second) == [10, 20], f"the new sink delivered {sink_ids(second)}, not the new table's rows")
    print("drop: ok", flush=True)


def recreate_phase(binary, work):
    db, other = os.path.join(work, "db1"), os.path.join(work, "db2")
    location = os.path.join(work, "shared_t")
    out = os.path.join(work, "recreate.jsonl")
    shell(binary, db,
          f"CREATE TABLE t (id INT) LOCATION '{location}' TBLPROPERTIES ('change_tracking' = 'true')",
          "INSERT INTO t VALUES (1)",
          "INSERT INTO t VALUES (2)",
          "INSERT INTO t VALUES (3)",
          f"CREATE SINK k FROM t INTO FILE '{out}' WITH ('start' = 'version 0')",
          "RUN SINK k",
          "INSERT INTO t VALUES (4)")  # pending when the table goes
    # Another database deletes the table and creates a new one at the same place.
    shutil.rmtree(location)
    shell(binary, other,
          f"CREATE TABLE t2 (id INT) LOCATION '{location}' TBLPROPERTIES ('change_tracking' = 'true')",
          *[f"INSERT INTO t2 VALUES ({100 + i})" for i in range(6)])
    p = run(binary, db, "RUN SINK k")
    expect(p.returncode != 0 and "source table t was dropped and re-created (table id" in p.stderr,
           f"RUN SINK on a re-created source did not stop with the named error: rc {p.returncode} {p.stderr}")
    expect(sink_ids(out) == [1, 2, 3], f"the sink delivered rows of the new table: {sink_ids(out)}")
    shell(binary, db, "ALTER SINK k SET ('start' = 'version 0')", "RUN SINK k")
    expect(sink_ids(out) == [1, 2, 3] + [100 + i for i in range(6)],
           f"repositioned on the new table, the sink delivered {sink_ids(out)}")
    print("recreate: ok", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shell", required=True)
    ap.add_argument("--seed", type=int, default=28)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="lineage_kill_")
    try:
        ctas_phase(args.shell, work, random.Random(args.seed))
        drop_phase(args.shell, work)
        recreate_phase(args.shell, work)
        print("ok")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
