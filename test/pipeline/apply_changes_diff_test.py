#!/usr/bin/env python3
"""APPLY CHANGES against a reference model, with the process killed.

Random keyed upsert/delete events (unique sequence per event, unique value per
event) land as JSON files, shuffled (events arrive in later files than their
sequence suggests) and duplicated, over --runs runs of `lakestream run
--once` of a pipeline with an SCD type 1 and an SCD type 2 target. Some runs
are SIGKILLed at a random moment, some at the crash point between the state
file and the commit (apply_changes.before_commit); the next run completes.
After every completed run both targets must equal the model (a Python dict
over every event landed so far: type 1 = the newest event per key unless it
is a delete; type 2 = the versions that replaying the events in sequence order
gives). At the end each target's change feed, replayed version by version
from empty, must give the state observed after each run.

Defaults take a few seconds (20 runs, 1,000 events); LAKESTREAM_APPLY_CHANGES_RUNS
and LAKESTREAM_APPLY_CHANGES_EVENTS (per run) make it longer."""
import argparse
import collections
import csv
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PIPELINE = """
CREATE OR REFRESH STREAMING TABLE events
AS SELECT * FROM read_files('landing/', format => 'json', schema => 'id BIGINT, v BIGINT, op STRING, seq BIGINT');

CREATE OR REFRESH STREAMING TABLE scd1;
APPLY CHANGES INTO scd1 FROM STREAM(LIVE.events) KEYS (id)
  APPLY AS DELETE WHEN op = 'D' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 1;

CREATE OR REFRESH STREAMING TABLE scd2;
CREATE FLOW scd2_flow AS AUTO CDC INTO scd2 FROM STREAM(LIVE.events) KEYS (id)
  APPLY AS DELETE WHEN op = 'D' SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 2;
"""


def query(ls, db, sql):
    out = subprocess.run([ls, db, "-readonly", "-csv", "-c", sql], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise RuntimeError(f"query failed: {sql}\n{out.stderr}")
    rows = list(csv.reader(io.StringIO(out.stdout)))
    return rows[1:]


def as_int(x):
    return None if x in ("", "NULL") else int(x)


def model_scd1(events):
    latest = {}
    for e in events:
        if e["id"] not in latest or e["seq"] > latest[e["id"]]["seq"]:
            latest[e["id"]] = e
    return sorted((k, e["v"]) for k, e in latest.items() if e["op"] != "D")


def model_scd2(events):
    by_key = collections.defaultdict(list)
    for e in events:
        by_key[e["id"]].append(e)
    rows = []
    for key, evs in by_key.items():
        current = None
        for e in sorted(evs, key=lambda e: e["seq"]):
            if e["op"] == "D":
                if current:
                    current[3] = e["seq"]
                    rows.append(tuple(current))
                current = None
            else:
                if current:
                    current[3] = e["seq"]
                    rows.append(tuple(current))
                current = [key, e["v"], e["seq"], None]
        if current:
            rows.append(tuple(current))
    return sorted(rows, key=lambda r: (r[0], r[2]))


def table_state(ls, db, table):
    if table == "scd1":
        return sorted((as_int(r[0]), as_int(r[1])) for r in query(ls, db, "SELECT id, v FROM scd1"))
    return sorted(((as_int(r[0]), as_int(r[1]), as_int(r[2]), as_int(r[3]))
                   for r in query(ls, db, "SELECT id, v, __START_AT, __END_AT FROM scd2")),
                  key=lambda r: (r[0], r[2]))


def table_version(db, table):
    log = os.path.join(db, table, "_delta_log")
    return len([n for n in os.listdir(log) if n.endswith(".json") and n[:20].isdigit()]) - 1


def check_change_feed(ls, db, table, observed):
    """Replays the change feed version by version; at every version observed after a run it must give that state."""
    cols = "id, v" if table == "scd1" else "id, v, __START_AT, __END_AT"
    rows = query(ls, db, f"SELECT _commit_version, _change_type, {cols} FROM table_changes('{table}', 0) "
                         "ORDER BY _commit_version")
    changes = collections.defaultdict(list)
    for r in rows:
        changes[int(r[0])].append((r[1], tuple(as_int(x) for x in r[2:])))
    state = collections.Counter()
    last = max([v for v, _ in observed] + list(changes) + [0])
    expected = dict(observed)
    for version in range(0, last + 1):
        pre = [row for kind, row in changes.get(version, []) if kind == "update_preimage"]
        post = [row for kind, row in changes.get(version, []) if kind == "update_postimage"]
        if len(pre) != len(post):
            raise AssertionError(f"{table} v{version}: {len(pre)} preimages but {len(post)} postimages")
        for kind, row in changes.get(version, []):
            if kind in ("delete", "update_preimage"):
                if state[row] <= 0:
                    raise AssertionError(f"{table} v{version}: change feed removes {row}, which the table did not hold")
                state[row] -= 1
            elif kind in ("insert", "update_postimage"):
                state[row] += 1
            else:
                raise AssertionError(f"{table} v{version}: unexpected change type {kind}")
        if version in expected:
            replayed = sorted((+state).elements(), key=lambda r: tuple((x is None, x) for x in r))
            want = sorted(expected[version], key=lambda r: tuple((x is None, x) for x in r))
            if replayed != want:
                raise AssertionError(f"{table} v{version}: change feed replays to {replayed[:5]}..., the table held {want[:5]}...")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shell", required=True)
    ap.add_argument("--runs", type=int, default=int(os.environ.get("LAKESTREAM_APPLY_CHANGES_RUNS", "20")))
    ap.add_argument("--events", type=int, default=int(os.environ.get("LAKESTREAM_APPLY_CHANGES_EVENTS", "50")))
    ap.add_argument("--keys", type=int, default=25)
    ap.add_argument("--seed", type=int, default=int(os.environ.get("LAKESTREAM_TEST_SEED", str(int(time.time())))))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"seed {args.seed}: {args.runs} runs x {args.events} events, {args.keys} keys")
    work = tempfile.mkdtemp(prefix="lakestream_cdc_")
    db = os.path.join(work, "db")
    landing = os.path.join(work, "landing")
    os.makedirs(landing)
    with open(os.path.join(work, "pipeline.sql"), "w") as f:
        f.write(PIPELINE)
    run_cmd = [args.shell, "run", os.path.join(work, "pipeline.sql"), "--db", db, "--once", "--plain"]
    landed = []        # every event written to landing/ (duplicates included)
    backlog = []       # generated events held back to arrive late
    next_seq = 0
    kills = crashes = 0
    observed = {"scd1": [], "scd2": []}
    try:
        for run in range(args.runs):
            # This run's file: new events (sequences interleaved with the backlog's), some of the
            # backlog (late), and duplicates of events already landed.
            fresh = []
            for _ in range(args.events):
                next_seq += rng.randint(1, 3)
                fresh.append({"id": rng.randrange(args.keys), "v": next_seq * 10 + rng.randrange(10),
                              "op": "D" if rng.random() < 0.25 else "U", "seq": next_seq})
            rng.shuffle(fresh)
            hold = len(fresh) // 5
            batch, backlog = fresh[hold:] + backlog, fresh[:hold]
            batch += [dict(e) for e in rng.sample(landed, min(len(landed), args.events // 10))]
            rng.shuffle(batch)
            tmp = os.path.join(landing, f".b{run:04d}.tmp")
            with open(tmp, "w") as f:
                for e in batch:
                    f.write(json.dumps(e) + "\n")
            os.rename(tmp, os.path.join(landing, f"b{run:04d}.json"))
            landed += batch

            mode = rng.random()
            if run > 0 and mode < 0.2:
                # Killed at the crash point between the state file and the target's commit.
                env = dict(os.environ, LAKESTREAM_CRASH_POINT="apply_changes.before_commit")
                p = subprocess.run(run_cmd, capture_output=True, text=True, env=env, timeout=120)
                if p.returncode != -signal.SIGKILL:
                    raise AssertionError(f"run {run}: expected the crash point to kill the run, got {p.returncode}: {p.stderr}")
                crashes += 1
            elif run > 0 and mode < 0.45:
                # Killed at a random moment.
                p = subprocess.Popen(run_cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(rng.uniform(0.0, 0.25))
                p.send_signal(signal.SIGKILL)
                p.wait()
                kills += 1
            p = subprocess.run(run_cmd, capture_output=True, text=True, timeout=120)
            if p.returncode != 0:
                raise AssertionError(f"run {run} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
            distinct = list({e["seq"]: e for e in landed}.values())
            for table, model in (("scd1", model_scd1), ("scd2", model_scd2)):
                got = table_state(args.shell, db, table)
                want = model(distinct)
                if got != want:
                    missing = [r for r in want if r not in got][:5]
                    extra = [r for r in got if r not in want][:5]
                    raise AssertionError(f"run {run}: {table} differs from the model: missing {missing}, extra {extra}")
                observed[table].append((table_version(db, table), got))
        # Every landed event reached bronze exactly once.
        n = int(query(args.shell, db, "SELECT count(*) FROM events")[0][0])
        if n != len(landed):
            raise AssertionError(f"events holds {n} rows, {len(landed)} were landed")
        for table in ("scd1", "scd2"):
            check_change_feed(args.shell, db, table, observed[table])
        print(f"ok: {len(landed)} events ({len({e['seq'] for e in landed})} distinct) in {args.runs} runs, "
              f"{kills} random kills, {crashes} crash-point kills; scd1 {len(observed['scd1'][-1][1])} rows, "
              f"scd2 {len(observed['scd2'][-1][1])} versions; change feeds consistent")
    except Exception:
        print(f"FAILED (seed {args.seed}, work dir {work})", file=sys.stderr)
        raise
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
