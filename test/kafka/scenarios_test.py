#!/usr/bin/env python3
"""The two user scenarios of issue 7, against a mock broker, read with kcat.

DLT: a table that receives updates after its first load. An append sink
delivers the load, then stops at the update with the clear error (exit 1
from `lakestream sink --follow`, no crash loop, no partial version on the
topic); an upsert sink delivers exactly the changed rows.

Gold: a materialized view of SUM/COUNT per category into an upsert topic;
after more silver inserts the topic gains exactly one message per changed
category. (Skipped, and said so, while materialized views are not built.)

Usage: scenarios_test.py LAKESTREAM MOCK_KAFKA"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import Checker, MockBroker, Shell, read_topic  # noqa: E402


def main():
    lakestream, mock = sys.argv[1], sys.argv[2]
    check = Checker()
    broker = MockBroker(mock, [("silver_append", 3), ("silver_upsert", 3), ("gold", 2), ("from_stream", 2)])
    tmp = tempfile.mkdtemp(prefix="sink-scenarios-")
    bs = broker.bootstrap
    try:
        db = os.path.join(tmp, "db")
        sh = Shell(lakestream, db)
        sh.run("CREATE TABLE silver (id INT, category STRING, amount DECIMAL(10,2), PRIMARY KEY (id)) "
               "TBLPROPERTIES ('change_tracking' = 'true')")
        sh.run("CREATE SINK to_append FROM silver INTO KAFKA WITH ('bootstrap.servers' = '%s', "
               "'topic' = 'silver_append', 'format' = 'append')" % bs)
        sh.run("INSERT INTO silver VALUES (1, 'books', 10.00), (2, 'games', 20.00), (3, 'books', 30.00), "
               "(4, 'toys', 40.00)")
        sh.run("CREATE SINK to_upsert FROM silver INTO KAFKA WITH ('bootstrap.servers' = '%s', "
               "'topic' = 'silver_upsert', 'format' = 'upsert')" % bs)
        p = subprocess.run([lakestream, "sink", db, "to_append"], capture_output=True, timeout=60)
        check.eq("first load delivered by `lakestream sink`", (p.returncode, p.stdout.decode().strip()), (0, "4"))
        sh.run("UPDATE silver SET amount = amount + 1 WHERE category = 'books'")  # version 2: two rows
        sh.run("INSERT INTO silver VALUES (5, 'toys', 50.00)")  # version 3
        p = subprocess.run([lakestream, "sink", db, "to_append", "--follow"], capture_output=True, timeout=60)
        err = p.stderr.decode()
        check.true("append + update: --follow exits 1 with the clear error instead of looping",
                   p.returncode == 1 and "cannot deliver an UPDATE of silver at version 2" in err, err)
        values = [json.loads(m["value"])["id"] for m in read_topic(bs, "silver_append")]
        check.eq("append topic: the first load only, nothing of version 2", sorted(values), [1, 2, 3, 4])
        show = {r[0]: r for r in sh.rows("SHOW SINKS")}
        check.eq("append sink stays at version 1 with its error", (show["to_append"][4], "version 2" in show["to_append"][8]),
                 ("1", True))
        check.eq("upsert delivers the 2 updated rows and the insert", sh.rows("RUN SINK to_upsert"), [["3", "0", "3"]])
        got = sorted((m["key"], json.loads(m["value"])["amount"], m["headers"]["lakestream.version"])
                     for m in read_topic(bs, "silver_upsert"))
        check.eq("upsert topic: exactly the changed rows", got, [("1", "11.00", "2"), ("3", "31.00", "2"), ("5", "50.00", "3")])

        # Gold: an incrementally maintained view into an upsert topic.
        p = sh.run("CREATE MATERIALIZED VIEW gold AS SELECT category, SUM(amount) AS total_amount, "
                   "COUNT(*) AS transaction_count FROM silver GROUP BY category", check=False)
        if p.returncode != 0 and b"not supported yet" in p.stderr:
            print("SKIP: gold scenario: materialized views are not built yet (%s)" % p.stderr.decode().strip())
        else:
            check.true("CREATE MATERIALIZED VIEW", p.returncode == 0, p.stderr.decode())
            sh.run("CREATE SINK gold_out FROM gold INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 'gold', "
                   "'format' = 'upsert', 'key' = 'category', 'start' = 'earliest')" % bs)
            sh.run("RUN SINK gold_out")
            before = len(read_topic(bs, "gold"))
            check.eq("gold: one message per category to start", before, 3)
            sh.run("INSERT INTO silver VALUES (6, 'books', 5.00), (7, 'games', 7.00), (8, 'books', 1.00)")
            sh.run("REFRESH MATERIALIZED VIEW gold", check=False)  # a no-op when the view refreshes itself
            sh.run("RUN SINK gold_out")
            first = min(int(m["headers"]["lakestream.version"]) for m in read_topic(bs, "gold"))
            new = [m for m in read_topic(bs, "gold") if int(m["headers"]["lakestream.version"]) > first]
            got = sorted((m["key"], json.loads(m["value"])["total_amount"], json.loads(m["value"])["transaction_count"])
                         for m in new)
            check.eq("gold: exactly one message per changed category", got,
                     [("books", "48.00", 4), ("games", "27.00", 2)])

        # A stream source: net changes since the stream's offset, which moves only after delivery.
        sh.run("CREATE STREAM silver_changes ON TABLE silver")
        sh.run("CREATE SINK stream_out FROM silver_changes INTO KAFKA WITH ('bootstrap.servers' = '%s', "
               "'topic' = 'from_stream', 'format' = 'debezium')" % bs)
        sh.run("INSERT INTO silver VALUES (100, 'music', 1.00)")
        sh.run("UPDATE silver SET amount = 2.00 WHERE id = 100")  # collapses with the insert: one INSERT of 2.00
        sh.run("DELETE FROM silver WHERE id = 2")
        check.eq("stream sink: 2 net changes (+1 tombstone)", sh.rows("RUN SINK stream_out")[0][0], "3")
        got = [(m["key"], None if m["value"] is None else json.loads(m["value"])["op"]) for m in read_topic(bs, "from_stream")]
        check.eq("stream sink: net insert, delete and its tombstone", sorted(got, key=str),
                 sorted([("100", "c"), ("2", "d"), ("2", None)], key=str))
        streams = {r[0]: r for r in sh.rows("SHOW STREAMS")}
        check.true("the stream's offset moved to the delivered version", "silver_changes" in streams)
        check.eq("stream sink: nothing more", sh.rows("RUN SINK stream_out")[0][0], "0")
    finally:
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
