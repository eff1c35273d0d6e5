#!/usr/bin/env python3
"""Crash safety of materialized view refresh (issue 6): a writer runs random
DML on a CDF-enabled source under three auto-refreshed views (an incremental
aggregate with MIN/MAX, an incremental filter/projection, and a top-N that is
recomputed and diffed) and is SIGKILLed at random moments, at least --kills
times (fixed seed). Most of a statement's time is spent refreshing the views,
so most kills land inside a refresh: before, during or after the view's commit
and its state file. After each kill, in a fresh process:
  * each (auto) view already equals its query when first read: a view left
    behind by the kill is caught up before it is read (issue 14);
  * REFRESH MATERIALIZED VIEW brings each view up to date;
  * each view equals its query recomputed from the source: a change applied
    twice (or lost) would show in COUNT/SUM;
  * each view's change feed replayed from its first version gives its rows;
  * a REFRESH ... FULL afterwards changes nothing (0 rows).

Before that, one deterministic kill at the crash point between a statement's
commit to the source and its views' refresh (view.after_source_commit): in
the next process the auto view is caught up before it is read, the manual one
is reported behind on read and in SHOW MATERIALIZED VIEWS, and REFRESH
catches it up instead of answering "up to date". --kills 0 runs only that.
"""
import argparse
import collections
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from delta_log_check import csv_rows, shell  # noqa: E402

VIEWS = {
    "agg": "SELECT g, COUNT(*) AS n, SUM(v) AS s, MIN(v) AS lo, MAX(v) AS hi FROM t GROUP BY g",
    "big": "SELECT id, g, v FROM t WHERE v > 50",
    "top": "SELECT g, SUM(v) AS s FROM t GROUP BY g ORDER BY s DESC, g LIMIT 3",
}


def gen_ops(rng, n, first_id):
    ops, next_id = [], first_id
    for _ in range(n):
        k = rng.random()
        if k < 0.45:
            rows = []
            for _ in range(rng.randint(1, 4)):
                rows.append(f"({next_id}, {rng.randint(0, 9)}, {rng.randint(0, 9999) / 100:.2f})")
                next_id += 1
            ops.append("INSERT INTO t VALUES " + ", ".join(rows))
        elif k < 0.75:
            ids = ", ".join(str(rng.randrange(max(1, next_id))) for _ in range(3))
            ops.append(f"UPDATE t SET v = v + {rng.randint(1, 40)} WHERE id IN ({ids})")
        else:
            ids = ", ".join(str(rng.randrange(max(1, next_id))) for _ in range(2))
            ops.append(f"DELETE FROM t WHERE id IN ({ids})")
    return ops, next_id


def multiset(rows):
    return collections.Counter(tuple(r) for r in rows)


MARKER = "end-of-result"


def results(binary, db, *sqls):
    """Runs the statements in one process and returns each one's CSV rows
    (without its header), in order: a marker query after each statement
    splits the output, so a check costs one process start, not one per
    statement (the databases' opens dominated this test's time)."""
    args = []
    for sql in sqls:
        args += [sql, f"SELECT '{MARKER}' AS marker"]
    out = shell(binary, db, *args)
    chunks = out.split(f"marker\n{MARKER}\n")
    if len(chunks) != len(sqls) + 1 or chunks[-1] != "":
        raise AssertionError(f"expected {len(sqls)} results split by markers, got {len(chunks) - 1}: {out[:500]!r}")
    return [csv_rows(chunk) for chunk in chunks[:-1]]


def check(binary, db, kill_no):
    # The first reads of each view, in a fresh process: an auto view left
    # behind by the kill must be caught up before it is read (issue 14).
    first = results(binary, db, *[s for name, q in VIEWS.items() for s in (f"SELECT * FROM {name}", q)])
    for i, name in enumerate(VIEWS):
        view_rows, query_rows = first[2 * i][1], first[2 * i + 1][1]
        if multiset(view_rows) != multiset(query_rows):
            raise AssertionError(f"kill {kill_no}: view {name} was read behind its source (not caught up on open)")
    statements = [f"REFRESH MATERIALIZED VIEW {name}" for name in VIEWS]
    for name, query in VIEWS.items():
        statements += [f"SELECT * FROM {name}", query,
                       f"SELECT * FROM table_changes('{name}', 0) ORDER BY _commit_version",
                       f"REFRESH MATERIALIZED VIEW {name} FULL"]
    after = results(binary, db, *statements)[len(VIEWS):]
    for i, name in enumerate(VIEWS):
        (_, view_rows), (_, query_rows), (header, feed), (_, full) = after[4 * i:4 * i + 4]
        if multiset(view_rows) != multiset(query_rows):
            raise AssertionError(f"kill {kill_no}: view {name} differs from its query\n view={sorted(view_rows)}\n query={sorted(query_rows)}")
        width = len(header) - 3
        replay = collections.Counter()
        for row in feed:
            key, kind = tuple(row[:width]), row[width]
            if kind in ("insert", "update_postimage"):
                replay[key] += 1
            else:
                replay[key] -= 1
                if replay[key] < 0:
                    raise AssertionError(f"kill {kill_no}: view {name}'s feed removes {key} it never added")
        replay = +replay
        if replay != multiset(view_rows):
            raise AssertionError(f"kill {kill_no}: view {name}'s change feed replayed differs from its rows")
        if full and any(int(x) != 0 for x in full[0][1:]):
            raise AssertionError(f"kill {kill_no}: REFRESH {name} FULL after recovery still changed rows: {full}")


def run(binary, db, sql, env=None):
    return subprocess.run([binary, db, "-csv", "-c", sql], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, **(env or {})))


def crash_point_phase(binary, work, point="view.after_source_commit"):
    """Kills the UPDATE's process at `point`: after its source commit, before
    the auto view's refresh (view.after_source_commit) or with the view's
    files and the source's _delta_log/ durable but the view's commit not yet
    linked (commit.after_dependencies_durable). Either way the source keeps
    the UPDATE and the view is caught up when next read."""
    db = os.path.join(work, "crash_point_db_" + point.replace(".", "_"))
    shell(binary, db,
          "CREATE TABLE src (g INT, v BIGINT) TBLPROPERTIES (delta.enableChangeDataFeed = true)",
          "INSERT INTO src SELECT range % 4, 1000000 FROM range(12)",
          "CREATE MATERIALIZED VIEW gold AS SELECT g, SUM(v) AS total FROM src GROUP BY g",
          "CREATE MATERIALIZED VIEW gold_m TBLPROPERTIES ('refresh' = 'manual') AS SELECT g, SUM(v) AS total FROM src GROUP BY g")
    p = run(binary, db, "UPDATE src SET v = v + 500000 WHERE g = 0", {"LAKESTREAM_CRASH_POINT": point})
    if p.returncode != -signal.SIGKILL:
        raise AssertionError(f"crash point {point} did not kill the UPDATE (rc {p.returncode}): {p.stderr}")
    source = csv_rows(shell(binary, db, "SELECT SUM(v) FROM src"))[1][0][0]
    if source != "13500000":
        raise AssertionError(f"the UPDATE before the crash point did not commit: source sums to {source}")
    p = run(binary, db, "SELECT SUM(total) FROM gold")
    if p.returncode != 0 or csv_rows(p.stdout)[1][0][0] != source:
        raise AssertionError(f"auto view gold was not caught up on open: {p.stdout!r} {p.stderr!r}, source {source}")
    p = run(binary, db, "SELECT SUM(total) FROM gold_m")
    if csv_rows(p.stdout)[1][0][0] != "12000000" or "gold_m is behind its source src" not in p.stderr:
        raise AssertionError(f"manual view gold_m read behind without saying so: {p.stdout!r} {p.stderr!r}")
    _, shown = csv_rows(shell(binary, db, "SHOW MATERIALIZED VIEWS"))
    status = {row[0]: row[4] for row in shown}
    if status != {"gold": "current", "gold_m": "stale"}:
        raise AssertionError(f"SHOW MATERIALIZED VIEWS after the crash: {shown}")
    _, out = csv_rows(shell(binary, db, "REFRESH MATERIALIZED VIEW gold_m"))
    if out[0][0] == "up to date" or out[0][2] != "1":
        raise AssertionError(f"REFRESH of the view left behind answered {out}")
    p = run(binary, db, "SELECT SUM(total) FROM gold_m")
    if csv_rows(p.stdout)[1][0][0] != source or p.stderr:
        raise AssertionError(f"gold_m after REFRESH: {p.stdout!r} {p.stderr!r}, source {source}")
    print(f"crash point {point}: ok", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shell", required=True)
    ap.add_argument("--writer", required=True)
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--seed", type=int, default=6)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="ivm_kill_")
    db = os.path.join(work, "db")
    try:
        crash_point_phase(args.shell, work)
        crash_point_phase(args.shell, work, "commit.after_dependencies_durable")
        shell(args.shell, db,
              "CREATE TABLE t (id INT, g INT, v DECIMAL(10,2)) TBLPROPERTIES (delta.enableChangeDataFeed = true)",
              *[f"CREATE MATERIALIZED VIEW {n} AS {q}" for n, q in VIEWS.items()])
        next_id, kills, finished = 0, 0, 0
        while kills < args.kills:
            # Enough statements that the writer is still running when the kill comes
            # (with 40, half the runs finished first and only cost time).
            ops, next_id = gen_ops(rng, 120, next_id)
            ops_file = os.path.join(work, "ops.sql")
            ack_file = os.path.join(work, "ack")
            with open(ops_file, "w") as f:
                f.write("\n".join(ops) + "\n")
            if os.path.exists(ack_file):
                os.remove(ack_file)
            p = subprocess.Popen([args.writer, db, ops_file, ack_file], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            # Wait until the writer has opened the database, then let it run a random while.
            deadline = time.time() + 30
            while time.time() < deadline and p.poll() is None:
                if os.path.exists(ack_file) and open(ack_file).read().startswith("opened"):
                    break
                time.sleep(0.005)
            time.sleep(rng.uniform(0.0, 1.5))
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                kills += 1
            else:
                finished += 1
                if p.returncode != 0:
                    raise AssertionError(f"writer failed: {p.stderr.read().decode()}")
            p.wait()
            check(args.shell, db, kills)
            print(f"kill {kills}: ok", flush=True)
        print(f"ok: {kills} kills ({finished} runs finished before their kill), views equal their queries")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
