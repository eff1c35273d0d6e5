#!/usr/bin/env python3
"""Crash safety: SIGKILL a writer at random moments during a long series of
INSERT/UPDATE/DELETE/MERGE commits on a Delta table with the change data feed
on, at least --kills times (fixed seed). The writer (crash_writer, public C++
API) appends "committed k" after statement k returns. After each kill:
  * the database reopens (the dead writer's lock does not block it) and the
    table reads;
  * its latest version is the number of statements committed: every
    acknowledged statement, plus at most the one that was running (all of it
    or nothing of it);
  * its rows equal a model replaying exactly that prefix of statements;
  * no half-written commit is visible: every _delta_log JSON line parses,
    versions are contiguous, every data and cdc file the log references exists,
    _last_checkpoint (if any) names an existing checkpoint.
Every statement changes at least one row, so each is exactly one commit.
At the end table_changes(t, 1) replayed from empty must give the final rows.
"""
import argparse
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
from delta_log_check import check_log, csv_rows, shell  # noqa: E402


def gen_ops(rng, model, next_id, n):
    """n statements from the model state; returns (ops, list of model states after each, next_id)."""
    model = dict(model)
    ops, states = [], []
    for _ in range(n):
        kind = rng.choice(["insert", "insert", "update", "delete", "merge"]) if len(model) >= 6 else "insert"
        ids = sorted(model)
        if kind == "insert":
            rows = []
            for _ in range(rng.randint(1, 3)):
                rows.append((next_id, rng.randint(0, 999), f"s{next_id}"))
                next_id += 1
            ops.append("INSERT INTO t VALUES " + ", ".join(f"({i}, {v}, '{s}')" for i, v, s in rows))
            for i, v, s in rows:
                model[i] = (v, s)
        elif kind == "update":
            pick = rng.sample(ids, rng.randint(1, min(3, len(ids))))
            d = rng.randint(1, 50)
            ops.append(f"UPDATE t SET v = v + {d}, s = s || 'u' WHERE id IN ({', '.join(map(str, pick))})")
            for i in pick:
                model[i] = (model[i][0] + d, model[i][1] + "u")
        elif kind == "delete":
            pick = rng.sample(ids, rng.randint(1, 2))
            ops.append(f"DELETE FROM t WHERE id IN ({', '.join(map(str, pick))})")
            for i in pick:
                del model[i]
        else:
            up, de = rng.sample(ids, 2)
            new = next_id
            next_id += 1
            nv = rng.randint(0, 999)
            ops.append(
                "MERGE INTO t USING (SELECT * FROM (VALUES "
                f"({up}, {nv}, 'U'), ({de}, 0, 'D'), ({new}, {nv}, 'I')) AS s(id, v, op)) s ON t.id = s.id "
                "WHEN MATCHED AND s.op = 'D' THEN DELETE "
                "WHEN MATCHED THEN UPDATE SET v = s.v, s = t.s || 'm' "
                f"WHEN NOT MATCHED THEN INSERT (id, v, s) VALUES (s.id, s.v, 'm{new}')")
            model[up] = (nv, model[up][1] + "m")
            del model[de]
            model[new] = (nv, f"m{new}")
        states.append(dict(model))
    return ops, states, next_id


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--writer", required=True)
    ap.add_argument("--shell", required=True)
    ap.add_argument("--kills", type=int, default=120)
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--max-seconds", type=float, default=240)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="lakestream_crash_")
    db = os.path.join(work, "db")
    tdir = os.path.join(db, "t")
    start = time.time()
    failures = []
    try:
        shell(args.shell, db, "CREATE TABLE t (id INT, v INT, s VARCHAR) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')")
        model, version, next_id = {}, 0, 1
        kills = runs = in_flight = 0
        while kills < args.kills:
            if time.time() - start > args.max_seconds:
                failures.append(f"time budget exhausted after {kills} kills")
                break
            ops, states, next_id_after = gen_ops(rng, model, next_id, 40)
            opsf = os.path.join(work, "ops.sql")
            ackf = os.path.join(work, "ack.log")
            with open(opsf, "w") as f:
                f.write("\n".join(ops) + "\n")
            if os.path.exists(ackf):
                os.unlink(ackf)
            runs += 1
            child = subprocess.Popen([args.writer, db, opsf, ackf, "0"], stderr=subprocess.PIPE)
            delay = rng.uniform(0.0, 0.45)
            try:
                child.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                pass
            killed = False
            if child.poll() is None:
                os.kill(child.pid, signal.SIGKILL)
                killed = True
                kills += 1
            child.wait()
            err = child.stderr.read().decode(errors="replace")
            child.stderr.close()
            acks = []
            if os.path.exists(ackf):
                with open(ackf) as f:
                    acks = [ln.split() for ln in f.read().splitlines()]
            errors = [a for a in acks if a and a[0] == "error"]
            if errors or (not killed and child.returncode != 0):
                failures.append(f"run {runs}: writer failed (rc {child.returncode}): {' '.join(errors[0]) if errors else err.strip()}")
                break
            acked = sum(1 for a in acks if a and a[0] == "committed")
            # --- reopen and check ---
            try:
                hdr, hist = csv_rows(shell(args.shell, db, "DESCRIBE HISTORY t"))
                vcol = hdr.index("version")
                now = max(int(r[vcol]) for r in hist)
                _, rows = csv_rows(shell(args.shell, db, "SELECT id, v, s FROM t ORDER BY id"))
            except Exception as e:  # noqa: BLE001
                failures.append(f"run {runs} (kill after {delay:.3f}s, {acked} acked): table does not reopen: {e}")
                break
            committed = now - version
            if not (acked <= committed <= (acked + 1 if killed else acked)):
                failures.append(f"run {runs}: version {now} means {committed} statements committed, but {acked} were acknowledged (killed={killed})")
                break
            in_flight += committed == acked + 1
            expect = states[committed - 1] if committed > 0 else model
            got = {int(r[0]): (int(r[1]), r[2]) for r in rows}
            if got != expect:
                diff = sorted(set(got.items()) ^ set(expect.items()))[:6]
                failures.append(f"run {runs}: rows after {committed} statements differ from the model: {diff}")
                break
            latest, _, problems, _ = check_log(tdir)
            if latest != now:
                problems.append(f"log's latest commit file is {latest}, DESCRIBE HISTORY says {now}")
            if problems:
                failures.append(f"run {runs}: log problems: {problems[:5]}")
                break
            model = expect
            version = now
            # ids of statements that never committed may be reused safely: they never happened
            next_id = next_id_after
        # --- the change data feed replays to the final state ---
        if not failures:
            _, cdf = csv_rows(shell(args.shell, db, "SELECT id, v, s, _change_type, _commit_version FROM table_changes('t', 1) ORDER BY _commit_version, _change_type"))
            state = {}
            for vv in sorted({int(r[4]) for r in cdf}):
                for r in cdf:
                    if int(r[4]) != vv:
                        continue
                    i, key = int(r[0]), (int(r[1]), r[2])
                    if r[3] in ("delete", "update_preimage"):
                        if state.get(i) != key:
                            failures.append(f"change feed version {vv}: {r[3]} of {r} but the state holds {state.get(i)}")
                        state.pop(i, None)
                for r in cdf:
                    if int(r[4]) == vv and r[3] in ("insert", "update_postimage"):
                        state[int(r[0])] = (int(r[1]), r[2])
            if state != model:
                failures.append(f"replaying table_changes(t, 1) does not give the final rows ({len(state)} vs {len(model)} rows)")
        print(f"crash_test: {kills} kills in {runs} runs ({in_flight} times the unacknowledged statement had committed), {version} commits, {len(model)} rows, {time.time() - start:.1f}s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        for f in failures:
            print("FAIL:", f)
        sys.exit(1)
    print("crash_test: OK")


if __name__ == "__main__":
    main()
