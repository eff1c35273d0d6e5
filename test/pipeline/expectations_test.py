#!/usr/bin/env python3
"""Expectations, the event log and full refresh through `lakestream run`.

On test/pipeline/expectations.sql: random order records (some with a NULL id,
a non-positive or NULL amount, a NULL or malformed email) land in batches.
After each run the expectation metrics the event log holds for that update
must equal the counts computed here from the records of the batch (streaming
tables: the new rows only; the materialized view: its whole input), DROP ROW
must have left exactly the violating rows out, and a schema evolution of a
streaming table must be logged. A FAIL UPDATE violation must fail the run,
name the expectation, the table and the row, and leave that table exactly as
it was. --full-refresh of one table and --full-refresh-all must give the
tables a fresh run over the same files gives; an unknown name is refused.

Usage: expectations_test.py --shell LAKESTREAM"""
import argparse
import csv
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE_QUERIES = {
    "orders_raw": "SELECT id, amount, email FROM orders_raw ORDER BY id, amount, email",
    "orders": "SELECT id, amount, email FROM orders ORDER BY id, amount, email",
    "strict_orders": "SELECT id, amount FROM strict_orders ORDER BY id, amount",
    "order_stats": "SELECT id, amount, email FROM order_stats ORDER BY id, amount, email",
    "extras": "SELECT k, v, added FROM extras ORDER BY k",
}


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def query(ls, db, sql):
    out = subprocess.run([ls, db, "-readonly", "-csv", "-c", sql], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise RuntimeError(f"query failed: {sql}\n{out.stderr}")
    return list(csv.reader(io.StringIO(out.stdout)))[1:]


def history(ls, db, table):
    out = subprocess.run([ls, db, "-readonly", "-csv", "-c", f"DESCRIBE HISTORY {table}"], capture_output=True,
                         text=True, timeout=60)
    if out.returncode != 0:
        raise RuntimeError(f"DESCRIBE HISTORY {table} failed: {out.stderr}")
    rows = list(csv.reader(io.StringIO(out.stdout)))
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def run(ls, work, db, *args):
    return subprocess.run([ls, "run", os.path.join(work, "expectations.sql"), "--db", db, "--plain", *args],
                          capture_output=True, text=True, timeout=120)


def write_batch(work, name, records):
    landing = os.path.join(work, "landing")
    os.makedirs(landing, exist_ok=True)
    tmp = os.path.join(landing, "." + name)
    with open(tmp, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    os.rename(tmp, os.path.join(landing, name))


def random_records(rng, first_id, count):
    out = []
    for i in range(count):
        out.append({
            "id": None if rng.random() < 0.15 else first_id + i,
            "amount": None if rng.random() < 0.1 else rng.randint(-5, 40),
            "email": rng.choice([None, "a@example.com", "b@example.org", "not-an-address", ""]),
        })
    return out


# The model: a row passes an expectation when its condition is TRUE (NULL fails).
CHECKS = {
    "valid_id": lambda r: r["id"] is not None,
    "positive_amount": lambda r: r["amount"] is not None and r["amount"] > 0,
    "has_email": lambda r: r["email"] is not None and "@" in r["email"],
    "known_email": lambda r: r["email"] is not None,
    "big_order": lambda r: r["amount"] is not None and r["amount"] >= 10,
}


def expected_quality(records, names, drops):
    exp = {n: {"passed_records": sum(1 for r in records if CHECKS[n](r)),
               "failed_records": sum(1 for r in records if not CHECKS[n](r))} for n in names}
    dropped = sum(1 for r in records if any(not CHECKS[n](r) for n in drops))
    return exp, dropped


def last_update(ls, db):
    rows = query(ls, db, "SELECT update_id FROM event_log WHERE event_type = 'create_update' ORDER BY timestamp DESC, id DESC LIMIT 1")
    return rows[0][0]


def events(ls, db, update_id, event_type):
    rows = query(ls, db, f"SELECT origin, level, message, details FROM event_log WHERE update_id = '{update_id}' "
                         f"AND event_type = '{event_type}' ORDER BY id")
    return [{"origin": r[0], "level": r[1], "message": r[2], "details": json.loads(r[3])} for r in rows]


def check_quality(ls, db, dataset, records, names, drops, what):
    update = last_update(ls, db)
    progress = [e for e in events(ls, db, update, "flow_progress") if e["origin"] == dataset]
    if len(progress) != 1:
        fail(f"{what}: one flow_progress event of {dataset} expected, got {progress}")
    quality = progress[0]["details"]["flow_progress"].get("data_quality")
    if quality is None:
        fail(f"{what}: flow_progress of {dataset} has no data_quality: {progress[0]}")
    exp, dropped = expected_quality(records, names, drops)
    got = {e["name"]: {"passed_records": e["passed_records"], "failed_records": e["failed_records"]}
           for e in quality["expectations"]}
    if got != exp:
        fail(f"{what}: expectation metrics of {dataset}: got {got}, expected {exp}")
    if [e["name"] for e in quality["expectations"]] != names:
        fail(f"{what}: expectations of {dataset} should be listed in declaration order {names}")
    if any(e["dataset"] != dataset for e in quality["expectations"]):
        fail(f"{what}: every expectation of {dataset} should name it as its dataset")
    if quality["dropped_records"] != dropped:
        fail(f"{what}: dropped_records of {dataset}: got {quality['dropped_records']}, expected {dropped}")
    warned = any(v["failed_records"] for v in exp.values())
    if (progress[0]["level"] == "WARN") != warned:
        fail(f"{what}: {dataset}'s flow_progress level should be WARN exactly when an expectation failed: {progress[0]}")


def snapshot(ls, db):
    return {t: query(ls, db, q) for t, q in TABLE_QUERIES.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shell", required=True)
    ap.add_argument("--seed", type=int, default=int(os.environ.get("LAKESTREAM_TEST_SEED", "17")))
    args = ap.parse_args()
    ls = os.path.abspath(args.shell)
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="lakestream-expectations-")
    try:
        shutil.copy(os.path.join(HERE, "expectations.sql"), work)
        db = os.path.join(work, "db")
        os.makedirs(os.path.join(work, "extras"))
        os.makedirs(os.path.join(work, "out"))
        with open(os.path.join(work, "extras", "a.json"), "w") as f:
            f.write('{"k": 1, "v": "x"}\n')
        all_records = []
        for n, count in enumerate([120, 80], start=1):
            batch = random_records(rng, n * 1000, count)
            all_records += batch
            write_batch(work, f"b{n}.json", batch)
            if n == 2:
                with open(os.path.join(work, "extras", "b.json"), "w") as f:
                    f.write('{"k": 2, "v": "y", "added": 2.5}\n')
            out = run(ls, work, db)
            if out.returncode != 0:
                fail(f"run {n} failed:\n{out.stdout}\n{out.stderr}")
            what = f"run {n}"
            # Streaming tables: the metrics of the rows this update read.
            check_quality(ls, db, "orders", batch, ["valid_id", "positive_amount", "has_email"], ["valid_id"], what)
            kept = [r for r in all_records if r["id"] is not None]
            got = query(ls, db, "SELECT count(*), count(email), count(amount) FROM orders")[0]
            want = [str(len(kept)), str(sum(1 for r in kept if r["email"] is not None)),
                    str(sum(1 for r in kept if r["amount"] is not None))]
            if got != want:
                fail(f"{what}: orders should keep the rows with an id (count, emails, amounts) {want}, got {got}")
            # The materialized view: its whole input, every update.
            check_quality(ls, db, "order_stats", kept, ["known_email", "big_order"], ["known_email"], what)
            got = query(ls, db, "SELECT count(*) FROM order_stats")[0][0]
            if int(got) != sum(1 for r in kept if r["email"] is not None):
                fail(f"{what}: order_stats should leave out the rows without an email, has {got}")
            update = last_update(ls, db)
            kinds = [e["details"] for e in events(ls, db, update, "update_progress")]
            if kinds != [{"update_progress": {"state": "COMPLETED", "pass": 1}}]:
                fail(f"{what}: one update_progress COMPLETED event expected, got {kinds}")
        # The second extras file added a column: a schema_change event of that update.
        changes = events(ls, db, last_update(ls, db), "schema_change")
        if len(changes) != 1 or changes[0]["origin"] != "extras" or \
                changes[0]["details"]["schema_change"]["added_columns"] != [{"name": "added", "type": "DOUBLE"}]:
            fail(f"the evolution of extras should be one schema_change event adding added DOUBLE, got {changes}")

        # The event log is an append-only Delta table: history, and no DELETE.
        ops = {h["operation"] for h in history(ls, db, "event_log")}
        if not ops <= {"CREATE TABLE", "WRITE"}:
            fail(f"the event log should only be created and appended to, has {ops}")
        out = subprocess.run([ls, db, "-c", "DELETE FROM event_log"], capture_output=True, text=True)
        if out.returncode == 0:
            fail("DELETE FROM event_log should be refused (delta.appendOnly)")

        # Full refresh of one table: the same rows as a fresh run over the same files.
        # (In a copy of the pipeline folder: the sink's file is relative to it.)
        fresh_dir = os.path.join(work, "fresh_run")
        os.makedirs(os.path.join(fresh_dir, "out"))
        shutil.copy(os.path.join(work, "expectations.sql"), fresh_dir)
        for folder in ("landing", "extras"):
            shutil.copytree(os.path.join(work, folder), os.path.join(fresh_dir, folder))
        fresh = os.path.join(fresh_dir, "db")
        out = run(ls, fresh_dir, fresh)
        if out.returncode != 0:
            fail(f"fresh run failed: {out.stderr}")
        expected = snapshot(ls, fresh)
        before = snapshot(ls, db)
        if before != expected:
            fail("the incremental runs and a fresh run should agree before any full refresh")
        out = run(ls, work, db, "--full-refresh", "nosuch")
        if out.returncode == 0 or "--full-refresh names nosuch, which the pipeline does not declare" not in out.stderr \
                or "orders_raw, orders, strict_orders, order_stats, extras" not in out.stderr:
            fail(f"an unknown --full-refresh name should be refused naming it and the tables: {out.stderr}")
        sink_file = os.path.join(work, "out", "orders.jsonl")
        orders_rows = int(query(ls, db, "SELECT count(*) FROM orders")[0][0])
        if sum(1 for _ in open(sink_file)) != orders_rows:
            fail(f"the sink should have delivered the {orders_rows} rows of orders once")
        out = run(ls, work, db, "--full-refresh", "orders")
        if out.returncode != 0:
            fail(f"--full-refresh orders failed: {out.stdout}{out.stderr}")
        if snapshot(ls, db) != expected:
            fail("--full-refresh orders should give what a fresh run gives")
        # The sink of the rebuilt table delivered it again from its start.
        if sum(1 for _ in open(sink_file)) != 2 * orders_rows:
            fail(f"after the full refresh the sink should have delivered orders' {orders_rows} rows again")
        # Recomputed from every row of orders_raw: the metrics cover them all.
        check_quality(ls, db, "orders", all_records, ["valid_id", "positive_amount", "has_email"], ["valid_id"],
                      "full refresh")
        created = events(ls, db, last_update(ls, db), "create_update")[0]["details"]["create_update"]
        # order_stats reads orders: it is recomputed with it.
        if created["full_refresh_selection"] != ["orders", "order_stats"]:
            fail(f"create_update should record the full refresh selection and what reads it: {created}")
        versions = len(history(ls, db, "orders_raw"))
        out = run(ls, work, db, "--full-refresh-all")
        if out.returncode != 0:
            fail(f"--full-refresh-all failed: {out.stdout}{out.stderr}")
        if snapshot(ls, db) != expected:
            fail("--full-refresh-all should give what a fresh run gives")
        if len(history(ls, db, "orders_raw")) >= versions:
            fail("--full-refresh-all should have rebuilt orders_raw (a new table, a shorter history)")

        # FAIL UPDATE: the run fails, names the expectation, the table and the row;
        # strict_orders is unchanged; the other tables take the batch.
        strict_before = query(ls, db, TABLE_QUERIES["strict_orders"])
        strict_version = len(history(ls, db, "strict_orders"))
        bad = [{"id": 9001, "amount": 5, "email": "c@example.com"}, {"id": 9002, "amount": 5000, "email": None}]
        write_batch(work, "b3.json", bad)
        out = run(ls, work, db)
        if out.returncode != 1:
            fail(f"a FAIL UPDATE violation should fail the run (exit 1), got {out.returncode}")
        for part in ["Expectation below_limit of streaming table strict_orders", "amount: 5000", "id: 9002"]:
            if part not in out.stdout + out.stderr:
                fail(f"the FAIL UPDATE error should contain '{part}':\n{out.stdout}{out.stderr}")
        if query(ls, db, TABLE_QUERIES["strict_orders"]) != strict_before or \
                len(history(ls, db, "strict_orders")) != strict_version:
            fail("strict_orders should be unchanged after its FAIL UPDATE violation")
        if query(ls, db, "SELECT count(*) FROM orders WHERE id IN (9001, 9002)")[0][0] != "2":
            fail("orders (no FAIL UPDATE expectation) should take the batch")
        update = last_update(ls, db)
        failed = [e for e in events(ls, db, update, "flow_progress") if e["origin"] == "strict_orders"]
        if len(failed) != 1 or failed[0]["level"] != "ERROR" or \
                failed[0]["details"]["flow_progress"]["status"] != "FAILED" or \
                "below_limit" not in failed[0]["details"]["flow_progress"]["error"]:
            fail(f"the event log should hold strict_orders' failure: {failed}")
        if events(ls, db, update, "update_progress")[0]["details"]["update_progress"]["state"] != "FAILED":
            fail("the update should be logged as FAILED")
        # The stream offset was not advanced: the next run fails the same way.
        if run(ls, work, db).returncode != 1 or query(ls, db, TABLE_QUERIES["strict_orders"]) != strict_before:
            fail("strict_orders should keep failing on the same row, unchanged")
        print("expectations_test: OK")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
