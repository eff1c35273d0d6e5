#!/usr/bin/env python3
"""The object-storage walk-through (docs/walkthrough-s3-kafka.md), end to end:
a Spark-written Delta table with a change data feed (inserts, updates, a
delete) lies in a bucket of the local S3 test server; lakestream attaches it
where it is, and a Kafka sink delivers its change feed as Debezium envelopes.
The topic, read back with kcat, must hold exactly what the same sink sends
from the same table on local disk; a commit made to the table on S3 later (as
another writer would) reaches the topic once; a rerun sends nothing again.

Usage: s3_table_test.py LAKESTREAM MOCK_KAFKA"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import Checker, MockBroker, Shell, read_topic  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("LAKESTREAM_SHARED_DIR", os.path.join(os.path.dirname(ROOT), "shared"))
TABLE = os.path.join(SHARED, "delta-tables", "cdf-table-non-partitioned")


class S3Server:
    """tools/s3_test_server on an ephemeral loopback port, serving `root`."""

    def __init__(self, root):
        port_file = os.path.join(root, ".port")
        self.proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "tools", "s3_test_server", "s3_test_server.py"),
                                      "--root", root, "--port-file", port_file],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while not (os.path.exists(port_file) and open(port_file).read().strip()):
            if self.proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("S3 test server did not start")
            time.sleep(0.05)
        self.endpoint = "http://127.0.0.1:" + open(port_file).read().strip()

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


def main():
    lakestream, mock = os.path.abspath(sys.argv[1]), sys.argv[2]
    if not os.path.isdir(TABLE):
        print("no Delta test tables at %s: set LAKESTREAM_SHARED_DIR" % TABLE)
        return 1
    check = Checker()
    broker = MockBroker(mock, [("gold_s3", 1), ("gold_disk", 1)])
    tmp = tempfile.mkdtemp(prefix="kafka-s3-")
    server = None
    try:
        bucket = os.path.join(tmp, "s3", "lake")
        os.makedirs(bucket)
        shutil.copytree(TABLE, os.path.join(bucket, "gold"))
        local_copy = os.path.join(tmp, "gold_local")
        shutil.copytree(TABLE, local_copy)
        server = S3Server(os.path.join(tmp, "s3"))

        def sink_sql(topic):
            return ("CREATE SINK %s_sink FROM gold INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = '%s', "
                    "'format' = 'debezium', 'key' = 'id', 'start' = 'version 0')" % (topic, broker.bootstrap, topic))

        # The walk-through's steps, as a user types them.
        remote = Shell(lakestream, os.path.join(tmp, "remote.db"))
        remote.run("CREATE PERSISTENT SECRET lake (TYPE s3, KEY_ID 'test-key', SECRET 'test-secret', "
                   "ENDPOINT '%s', SCOPE 's3://lake/')" % server.endpoint)
        remote.run("CREATE TABLE gold LOCATION 's3://lake/gold'")
        check.eq("the attached table reads its rows from S3", remote.rows("SELECT count(*) FROM gold"), [["11"]])
        remote.run(sink_sql("gold_s3"))
        remote.run("RUN SINK gold_s3_sink")

        disk = Shell(lakestream, os.path.join(tmp, "disk.db"))
        disk.run("CREATE TABLE gold LOCATION '%s'" % local_copy)
        disk.run(sink_sql("gold_disk"))
        disk.run("RUN SINK gold_disk_sink")

        def envelopes(topic):
            return [(m["key"], json.loads(m["value"]) if m["value"] else None) for m in read_topic(broker.bootstrap, topic)]

        from_s3, from_disk = envelopes("gold_s3"), envelopes("gold_disk")
        changes = int(disk.rows("SELECT count(*) FROM table_changes('gold', 0) WHERE _change_type <> 'update_preimage'")[0][0])
        check.eq("the S3 table's change feed reaches Kafka as from disk", from_s3, from_disk)
        deletes = int(disk.rows("SELECT count(*) FROM table_changes('gold', 0) WHERE _change_type = 'delete'")[0][0])
        check.eq("one envelope per change (an update is one)", len([v for _, v in from_s3 if v]), changes)
        check.eq("a tombstone after each delete", len([v for _, v in from_s3 if v is None]), deletes)
        ops = sorted({v["op"] for _, v in from_s3 if v})
        check.eq("inserts, updates and the delete all arrive", ops, ["c", "d", "u"])

        # Another writer commits to the table on S3 (here lakestream itself,
        # through the same conditional PUT any writer must win).
        remote.run("INSERT INTO gold (id, name) VALUES (100, 'late')")
        remote.run("RUN SINK gold_s3_sink")
        after = envelopes("gold_s3")
        check.eq("the new commit reaches the topic once", len(after), len(from_s3) + 1)
        check.eq("as an insert of id 100", (after[-1][1]["op"], after[-1][1]["after"]["id"]), ("c", 100))
        remote.run("RUN SINK gold_s3_sink")
        check.eq("a rerun sends nothing again", len(envelopes("gold_s3")), len(after))
        check.true("the commit is a new Delta version in the bucket",
                   os.path.exists(os.path.join(bucket, "gold", "_delta_log", "%020d.json" % 5)))
    finally:
        if server:
            server.stop()
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
