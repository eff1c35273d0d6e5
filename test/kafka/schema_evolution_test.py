#!/usr/bin/env python3
"""Schema evolution end to end into Kafka: a pipeline ingests JSON files with
read_files into a streaming table that has a Kafka sink; a later file brings a
new nested field and a new top-level column. The topic, read back with kcat,
must carry the new field in exactly the messages of the rows that have it,
every row once, with the version/seq headers of the commit that added it.

Usage: schema_evolution_test.py LAKESTREAM MOCK_KAFKA"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import Checker, MockBroker, Shell, read_topic  # noqa: E402


def write_lines(path, records):
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")


def main():
    lakestream, mock = os.path.abspath(sys.argv[1]), sys.argv[2]
    check = Checker()
    broker = MockBroker(mock, [("bronze_events", 1)])
    tmp = tempfile.mkdtemp(prefix="kafka-evolution-")
    try:
        landing = os.path.join(tmp, "landing")
        os.makedirs(landing)
        db = os.path.join(tmp, "pipeline.db")
        pipeline = os.path.join(tmp, "pipeline.sql")
        with open(pipeline, "w") as f:
            f.write("CREATE OR REFRESH STREAMING TABLE bronze\n"
                    "AS SELECT * FROM read_files('landing/', format => 'json');\n\n"
                    "CREATE SINK bronze_kafka FROM bronze INTO KAFKA WITH (\n"
                    "  'bootstrap.servers' = '%s', 'topic' = 'bronze_events',\n"
                    "  'format' = 'append', 'start' = 'earliest');\n" % broker.bootstrap)

        def run_pipeline(label):
            p = subprocess.run([lakestream, "run", pipeline, "--db", db, "--plain"], cwd=tmp, capture_output=True)
            check.true(label, p.returncode == 0, p.stderr.decode()[-2000:])

        first = [{"id": 1, "doc": {"owner": 7, "name": "a"}}, {"id": 2, "doc": {"owner": 8, "name": "b"}}]
        write_lines(os.path.join(landing, "f1.jsonl"), first)
        run_pipeline("first run ingests f1 and delivers it")
        got = [json.loads(m["value"]) for m in read_topic(broker.bootstrap, "bronze_events")]
        check.eq("first run: the two rows as nested JSON", got, first)

        # f2: a new nested field (doc.region) and a new top-level column (source).
        second = [{"id": 3, "doc": {"owner": 9, "name": "c", "region": "eu"}, "source": "app"}]
        write_lines(os.path.join(landing, "f2.jsonl"), second)
        run_pipeline("second run evolves bronze and delivers f2")
        messages = read_topic(broker.bootstrap, "bronze_events")
        got = [json.loads(m["value"]) for m in messages]
        check.eq("every row once, in order", [r["id"] for r in got], [1, 2, 3])
        check.eq("the new row carries the new nested field and the new column", got[2], second[0])
        check.eq("rows written before the evolution keep their first shape", got[:2], first)
        versions = [int(m["headers"]["lakestream.version"]) for m in messages]
        check.true("the evolved row comes from a later bronze version", versions[2] > versions[0], versions)

        sh = Shell(lakestream, db)
        check.eq("bronze's evolved schema reads old rows with NULLs",
                 sh.rows("SELECT id, doc.region, source FROM bronze ORDER BY id"),
                 [["1", "", ""], ["2", "", ""], ["3", "eu", "app"]])

        run_pipeline("a third run with nothing new")
        check.eq("nothing is sent twice", len(read_topic(broker.bootstrap, "bronze_events")), 3)
    finally:
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
