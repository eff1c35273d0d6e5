#!/usr/bin/env python3
"""Redefining a Kafka sink keeps its position (issue 14): CREATE OR REPLACE
SINK after an append-mode error delivers the pending versions in the new
format, once, tagged with the same sink id; ALTER SINK SET changes format and
options the same way; a new topic needs 'start'; a format change is refused
while the topic holds messages of the sink that its progress does not count.

Usage: replace_test.py LAKESTREAM MOCK_KAFKA"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import Checker, MockBroker, Shell, read_topic  # noqa: E402


def simplify(messages):
    return [(m["key"], None if m["value"] is None else json.loads(m["value"]),
             int(m["headers"]["lakestream.version"]), int(m["headers"]["lakestream.seq"])) for m in messages]


def describe(sh, name):
    return {k: v for k, v in sh.rows("DESCRIBE SINK " + name)}


def main():
    lakestream, mock = sys.argv[1], sys.argv[2]
    check = Checker()
    broker = MockBroker(mock, [("t1", 1), ("t2", 1)])
    tmp = tempfile.mkdtemp(prefix="sink-replace-")
    try:
        sh = Shell(lakestream, os.path.join(tmp, "db"))
        bs = broker.bootstrap
        sh.run("CREATE TABLE o (id INT, amount INT, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')")
        sh.run("CREATE SINK s FROM o INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 't1', 'format' = 'append')" % bs)
        sink_id = describe(sh, "s")["id"]
        sh.run("INSERT INTO o VALUES (1, 10), (2, 20)")  # v1
        sh.run("UPDATE o SET amount = 11 WHERE id = 1")  # v2
        sh.run("DELETE FROM o WHERE id = 2")             # v3
        p = sh.run("RUN SINK s", check=False)
        check.true("append stops at version 2", p.returncode != 0 and "UPDATE of o at version 2" in p.stderr.decode(),
                   p.stderr.decode())

        # The error's advice, followed: the pending versions 2 and 3 go out as upserts.
        sh.run("CREATE OR REPLACE SINK s FROM o INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 't1', "
               "'format' = 'upsert')" % bs)
        check.eq("replace keeps the sink id that tags its messages", describe(sh, "s")["id"], sink_id)
        check.eq("replace keeps the position", describe(sh, "s")["next_version"], "2")
        check.eq("RUN SINK after replace delivers versions 2 and 3", sh.rows("RUN SINK s"), [["2", "0", "3"]])
        t1 = read_topic(bs, "t1")
        check.eq("t1: version 1 as append, versions 2 and 3 as upsert, each once", simplify(t1),
                 [("1", {"id": 1, "amount": 10}, 1, 0), ("2", {"id": 2, "amount": 20}, 1, 1),
                  ("1", {"id": 1, "amount": 11}, 2, 0), ("2", None, 3, 0)])
        check.eq("every message carries the one sink id", {m["headers"]["lakestream.sink"] for m in t1}, {sink_id})
        check.eq("nothing more to send", sh.rows("RUN SINK s"), [["0", "0", "3"]])
        check.eq("t1 unchanged by the empty run", len(read_topic(bs, "t1")), 4)

        # ALTER SINK SET: validated as CREATE; a new topic needs 'start'.
        p = sh.run("ALTER SINK s SET ('acks' = 'sometimes')", check=False)
        check.true("ALTER checks Kafka properties", p.returncode != 0 and
                   "Sink s: bad value for Kafka property 'acks'" in p.stderr.decode(), p.stderr.decode())
        p = sh.run("ALTER SINK s SET ('topic' = 'no_such_topic', 'start' = 'latest')", check=False)
        check.true("ALTER checks the topic exists", p.returncode != 0 and "create the topic first" in p.stderr.decode(),
                   p.stderr.decode())
        p = sh.run("ALTER SINK s SET ('topic' = 't2')", check=False)
        err = p.stderr.decode()
        check.true("a new topic without 'start' is refused, naming both topics and the choices",
                   p.returncode != 0 and "Kafka topic t1 to Kafka topic t2" in err and "'start' = 'version 4'" in err
                   and "'latest'" in err, err)
        sh.run("ALTER SINK s SET ('topic' = 't2', 'start' = 'version 2')")
        check.eq("on t2 from version 2", sh.rows("RUN SINK s"), [["2", "0", "3"]])
        check.eq("t2: versions 2 and 3", [(k, v, ver) for k, v, ver, _ in simplify(read_topic(bs, "t2"))],
                 [("1", {"id": 1, "amount": 11}, 2), ("2", None, 3)])

        sh.run("ALTER SINK s SET ('format' = 'debezium', 'tombstones' = 'false')")
        sh.run("INSERT INTO o VALUES (3, 30)")  # v4
        check.eq("after ALTER format: the next version in debezium", sh.rows("RUN SINK s"), [["1", "0", "4"]])
        last = simplify(read_topic(bs, "t2"))[-1]
        check.eq("t2: version 4 as a debezium create", (last[0], last[1]["op"], last[1]["after"], last[2]),
                 ("3", "c", {"id": 3, "amount": 30}, 4))

        # A message of this sink that its progress does not count (as an
        # interrupted run leaves it): changing the format now is refused.
        t2_id = describe(sh, "s")["id"]
        subprocess.run(["kcat", "-P", "-b", bs, "-t", "t2", "-k", "4", "-H", "lakestream.sink=" + t2_id,
                        "-H", "lakestream.version=5", "-H", "lakestream.seq=0", "-H", "lakestream.table=o"],
                       input=b"{}\n", check=True, timeout=60)
        p = sh.run("ALTER SINK s SET ('format' = 'upsert')", check=False)
        err = p.stderr.decode()
        check.true("format change refused over uncounted messages", p.returncode != 0 and
                   "holds messages of version 5 from an interrupted run" in err and "RUN SINK s" in err, err)
        check.eq("the refused ALTER changed nothing", describe(sh, "s")["option format"], "debezium")
        rows = {r[0]: r for r in sh.rows("SHOW SINKS")}
        check.eq("SHOW SINKS: next_version", rows["s"][-1], "5")
    finally:
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
