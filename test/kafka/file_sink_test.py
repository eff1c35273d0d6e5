#!/usr/bin/env python3
"""FILE sinks: the exact JSON lines of each format, and exactly-once resume
(the start of the sink's own line past the durable size, as a crash
mid-write leaves it, is cut back and written again once).

Usage: file_sink_test.py LAKESTREAM [MOCK_KAFKA (unused)]"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import Checker, Shell  # noqa: E402


def lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f.read().splitlines()]


def main():
    lakestream = sys.argv[1]
    check = Checker()
    tmp = tempfile.mkdtemp(prefix="sink-file-")
    try:
        sh = Shell(lakestream, os.path.join(tmp, "db"))
        sh.run("CREATE TABLE t (id INT, name STRING, d DATE, ts TIMESTAMP, amount DECIMAL(10,2), ok BOOLEAN, "
               "PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')")
        paths = {f: os.path.join(tmp, f + ".jsonl") for f in ("append", "upsert", "debezium")}
        for f, path in paths.items():
            sh.run("CREATE SINK %s FROM t INTO FILE '%s' WITH ('format' = '%s'%s)"
                   % (f, path, f, ", 'on_change' = 'skip'" if f == "append" else ""))
        sh.run("INSERT INTO t VALUES (1, 'a\"b', DATE '2024-01-31', TIMESTAMP '2024-01-31 10:00:00.5', 12.30, true), "
               "(2, NULL, NULL, NULL, NULL, NULL)")
        sh.run("UPDATE t SET name = 'x' WHERE id = 2")
        sh.run("DELETE FROM t WHERE id = 1")
        for f in paths:
            sh.run("RUN SINK " + f)
        r1 = {"id": 1, "name": 'a"b', "d": "2024-01-31", "ts": "2024-01-31T10:00:00.5Z", "amount": "12.30", "ok": True}
        r2 = {"id": 2, "name": None, "d": None, "ts": None, "amount": None, "ok": None}
        r2x = dict(r2, name="x")
        check.eq("append lines: the inserted rows, types encoded as documented", lines(paths["append"]), [r1, r2])
        check.eq("upsert lines: key and value, null value for a delete", lines(paths["upsert"]),
                 [{"key": "1", "value": r1}, {"key": "2", "value": r2}, {"key": "2", "value": r2x},
                  {"key": "1", "value": None}])
        ops = [(m["op"], m["before"], m["after"], m["source"]["version"]) for m in lines(paths["debezium"])]
        check.eq("debezium lines (no tombstones in files)", ops,
                 [("c", None, r1, 1), ("c", None, r2, 1), ("u", r2, r2x, 2), ("d", r1, None, 3)])

        # A crash in the middle of a write leaves the start of the sink's next
        # line after the recorded size: those bytes are the sink's own, so they
        # are cut back and the line is written whole, once.
        with open(paths["upsert"], "a") as f:
            f.write('{"key":"3","value":{"id":3,"na')
        sh.run("INSERT INTO t VALUES (3, 'c', NULL, NULL, 1.00, false)")
        check.eq("resume after a torn tail: one more message", sh.rows("RUN SINK upsert"), [["1", "0", "4"]])
        got = lines(paths["upsert"])
        check.eq("torn bytes gone, new line once", got[-1], {"key": "3", "value": {"id": 3, "name": "c", "d": None,
                                                                              "ts": None, "amount": "1.00", "ok": False}})
        check.eq("file holds every change exactly once", len(got), 5)

        # start = earliest: the rows as of CREATE SINK first (debezium op "r"), then later changes.
        early = os.path.join(tmp, "early.jsonl")
        sh.run("CREATE SINK early FROM t INTO FILE '%s' WITH ('format' = 'debezium', 'start' = 'earliest')" % early)
        sh.run("UPDATE t SET ok = true WHERE id = 3")
        check.eq("earliest: 2 snapshot rows + 1 update", sh.rows("RUN SINK early")[0][0], "3")
        ops = [(m["op"], (m["after"] or {}).get("id")) for m in lines(early)]
        check.eq("earliest: snapshot as op r, then the update", sorted(ops[:2]) + ops[2:], [("r", 2), ("r", 3), ("u", 3)])

        # VACUUM RETAIN 0 HOURS between a change and its delivery keeps what
        # the sinks still need (an undelivered snapshot, removed files, change
        # files): the lines are the ones a sink run before the VACUUM writes.
        late = os.path.join(tmp, "late.jsonl")
        sh.run("CREATE SINK late FROM t INTO FILE '%s' WITH ('format' = 'debezium', 'start' = 'earliest')" % late)
        sh.run("UPDATE t SET name = 'c2' WHERE id = 3")
        sh.run("DELETE FROM t WHERE id = 2")
        # One process: each sh.run is a shell of its own, and SET lasts a session.
        sh.run("SET spark.databricks.delta.retentionDurationCheck.enabled = false; VACUUM t RETAIN 0 HOURS")
        sh.run("RUN SINK upsert")
        sh.run("RUN SINK late")
        r3 = {"id": 3, "name": "c", "d": None, "ts": None, "amount": "1.00", "ok": True}
        r3x = dict(r3, name="c2")
        check.eq("after VACUUM: upsert delivers the update and the delete", lines(paths["upsert"])[-2:],
                 [{"key": "3", "value": r3x}, {"key": "2", "value": None}])
        ops = [(m["op"], m["before"], m["after"]) for m in lines(late)]
        check.eq("after VACUUM: the snapshot of the removed files, then the update and the delete",
                 sorted(ops[:2], key=lambda o: o[2]["id"]) + ops[2:],
                 [("r", None, r2x), ("r", None, r3), ("u", r3, r3x), ("d", r2x, None)])

        # A sink on a SHOW_INITIAL_ROWS stream never read: the rows as of the
        # stream's offset first, netted with the changes after it, as inserts.
        initial = os.path.join(tmp, "initial.jsonl")
        sh.run("CREATE STREAM t_all ON TABLE t SHOW_INITIAL_ROWS = TRUE")
        sh.run("CREATE SINK initial FROM t_all INTO FILE '%s' WITH ('format' = 'upsert')" % initial)
        sh.run("UPDATE t SET name = 'c3' WHERE id = 3")
        check.eq("initial rows: one message per row as of now", sh.rows("RUN SINK initial")[0][0], "1")
        check.eq("initial rows: the current rows as upserts", lines(initial), [{"key": "3", "value": dict(r3x, name="c3")}])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
