#!/usr/bin/env python3
"""Kill test for stream consumption (issue 5): a consumer running
`INSERT INTO target SELECT ... FROM stream` is SIGKILLed at random points at
least --kills times (fixed seed), while a writer keeps inserting and deleting
rows of the source between consumptions.

Kills land either at the two crash points around the one durable write of
a consumption, the target's Delta commit that holds the rows and the
stream's txn (LAKESTREAM_CRASH_POINT=stream.before_target_commit: nothing
written yet; stream.after_target_commit: the commit written), or after a
random delay. Some rounds insert a row and delete it again, so that the
consumption's net change is empty and its commit holds the txn alone.

After every kill the database reopens and at the end one clean consumption
drains the stream. Then:
  * the target holds every consumed change exactly once: no id is INSERTed
    twice or DELETEd twice;
  * replaying the target's rows in consumption order onto the empty source
    gives the source's final rows (nothing lost, nothing doubled);
  * the stream is empty and its offset is the source's latest version.
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
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from delta_log_check import csv_rows, shell  # noqa: E402

CONSUME = ("INSERT INTO target SELECT id, v, __change_type, __commit_version, "
           "(SELECT coalesce(max(batch), 0) + 1 FROM target) FROM s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shell", required=True)
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="lakestream_stream_kill_")
    db = os.path.join(work, "db")
    try:
        shell(args.shell, db,
              "CREATE TABLE src (id INT, v INT) TBLPROPERTIES ('change_tracking' = 'true')",
              "CREATE TABLE target (id INT, v INT, change STRING, version BIGINT, batch INT)",
              "CREATE STREAM s ON TABLE src")
        next_id, live = 0, []
        kills = attempts = 0
        while kills < args.kills:
            attempts += 1
            if attempts > args.kills * 6:
                sys.exit(f"FAIL: only {kills} kills in {attempts} attempts")
            # The writer: a few inserts and sometimes a delete.
            rows = []
            if rng.random() < 0.2:
                # A row inserted and deleted again: the window's net change is
                # empty and the consumption commits the stream's txn alone.
                stmts = [f"INSERT INTO src VALUES ({next_id}, 0)", f"DELETE FROM src WHERE id = {next_id}"]
                next_id += 1
            else:
                for _ in range(rng.randint(1, 4)):
                    rows.append(f"({next_id}, {rng.randint(0, 99)})")
                    live.append(next_id)
                    next_id += 1
                stmts = ["INSERT INTO src VALUES " + ", ".join(rows)]
                if len(live) > 5 and rng.random() < 0.4:
                    doomed = live.pop(rng.randrange(len(live)))
                    stmts.append(f"DELETE FROM src WHERE id = {doomed}")
            shell(args.shell, db, *stmts)
            # The consumer, killed.
            env = dict(os.environ)
            how = rng.choice(["before", "after", "delay", "delay"])
            if how != "delay":
                env["LAKESTREAM_CRASH_POINT"] = f"stream.{how}_target_commit"
            p = subprocess.Popen([args.shell, db, "-c", CONSUME], env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if how == "delay":
                time.sleep(rng.uniform(0.0, 0.06))
                try:
                    p.send_signal(signal.SIGKILL)
                except ProcessLookupError:
                    pass
            _, err = p.communicate(timeout=60)
            if p.returncode == -signal.SIGKILL:
                kills += 1
            elif p.returncode != 0:
                sys.exit(f"FAIL: consumer failed (rc {p.returncode}): {err.decode()}")
        shell(args.shell, db, CONSUME)

        _, pending = csv_rows(shell(args.shell, db, "SELECT count(*) FROM s"))
        if pending[0][0] != "0":
            sys.exit(f"FAIL: the stream still has {pending[0][0]} rows after the final consumption")
        _, offset = csv_rows(shell(args.shell, db, "DESCRIBE STREAM s"))
        _, latest = csv_rows(shell(args.shell, db, "DESCRIBE HISTORY src LIMIT 1"))
        if offset[0][4] != latest[0][0]:
            sys.exit(f"FAIL: offset {offset[0][4]} != latest version {latest[0][0]}")
        _, consumed = csv_rows(shell(args.shell, db, "SELECT id, v, change, batch FROM target ORDER BY batch, version"))
        replay, inserted, deleted = {}, set(), set()
        for id_, v, change, _ in consumed:
            if change == "INSERT":
                if id_ in inserted:
                    sys.exit(f"FAIL: id {id_} inserted twice into the target (a change consumed twice)")
                inserted.add(id_)
                replay[id_] = v
            elif change == "DELETE":
                if id_ in deleted or replay.pop(id_, None) is None:
                    sys.exit(f"FAIL: delete of id {id_} consumed twice or before its insert")
                deleted.add(id_)
            else:
                sys.exit(f"FAIL: unexpected change type {change} (the workload never updates)")
        _, final = csv_rows(shell(args.shell, db, "SELECT id, v FROM src"))
        final = {i: v for i, v in final}
        if replay != final:
            missing = set(final) - set(replay)
            extra = set(replay) - set(final)
            sys.exit(f"FAIL: replayed target != source: missing {sorted(missing)[:10]}, extra {sorted(extra)[:10]}")
        print(f"ok: {kills} kills in {attempts} consumptions; {len(consumed)} change rows consumed exactly once; "
              f"{len(final)} source rows match the replay")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
