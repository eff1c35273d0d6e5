#!/usr/bin/env python3
"""Broker outage: `lakestream sink --follow` is delivering a backlog when
the mock broker's brokers go down; SHOW SINKS (from another process, read
only) shows the outage while it lasts; the brokers come back and the sink
finishes on its own, with every change on the topic exactly once.

Usage: outage_test.py LAKESTREAM MOCK_KAFKA"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import (Checker, MockBroker, Shell, drop_mock_retry_runs, read_topic, topic_end,  # noqa: E402
                            verify_exactly_once)


def wait_for(what, predicate, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting for " + what)


def main():
    lakestream, mock = sys.argv[1], sys.argv[2]
    check = Checker()
    partitions = 4
    broker = MockBroker(mock, [("events", partitions)])
    tmp = tempfile.mkdtemp(prefix="sink-outage-")
    follow = None
    try:
        db = os.path.join(tmp, "db")
        sh = Shell(lakestream, db)
        sh.run("CREATE TABLE events (id INT, val INT, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')")
        sh.run("CREATE SINK out FROM events INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 'events', "
               "'format' = 'upsert', 'batch.num.messages' = '100', 'linger.ms' = '5')" % broker.bootstrap)
        sh.run("INSERT INTO events SELECT CAST(range AS INT), 0 FROM range(30000)")
        for k in range(6):
            sh.run("UPDATE events SET val = val + 1 WHERE id %% 3 = %d" % (k % 3))
        sh.run("DELETE FROM events WHERE id % 11 = 0")
        log = open(os.path.join(tmp, "follow.log"), "w")
        follow = subprocess.Popen([lakestream, "sink", db, "out", "--follow", "--interval", "0.2"],
                                  stdout=subprocess.DEVNULL, stderr=log)
        wait_for("the first messages", lambda: topic_end(broker.bootstrap, "events", partitions) > 5000, 60)
        broker.down()
        down_at = time.time()

        def outage_shown():
            row = sh.rows("SHOW SINKS", readonly=True)[0]
            return row if "unreachable" in ",".join(row[8:]) else None
        row = wait_for("the outage in SHOW SINKS", outage_shown, 20)
        print("SHOW SINKS during the outage: " + ",".join(row))
        check.true("SHOW SINKS names the outage while it lasts", "Kafka broker unreachable, retrying" in ",".join(row[8:]))
        check.true("work is pending during the outage", int(row[5]) > 0)
        time.sleep(max(0, 3 - (time.time() - down_at)))
        check.true("still shown after 3 s", outage_shown() is not None)
        broker.up()

        def done():
            row = sh.rows("SHOW SINKS", readonly=True)[0]
            return row if row[5] == "0" and row[8] == "" else None
        row = wait_for("delivery to finish after the outage", done, 120)
        check.eq("caught up, error cleared", (row[5], row[6], row[8]), ("0", "0", ""))
        follow.send_signal(signal.SIGTERM)
        check.eq("--follow stops on SIGTERM", follow.wait(30), 0)
        follow = None
        log.close()
        with open(os.path.join(tmp, "follow.log")) as f:
            progress = f.read()
        check.true("progress line with messages, rate and lag", " msg/s, delivered up to version " in progress and
                   " lag " in progress, progress[-500:])
        messages, retried = drop_mock_retry_runs(read_topic(broker.bootstrap, "events"), 1)
        for partition, offset, n in retried:
            print("the mock broker appended a retried batch again (partition %d, offsets %d..%d): %d messages "
                  "identical to the %d before them; a real broker rejects that retry" %
                  (partition, offset, offset + n - 1, n, n))
        verify_exactly_once(check, sh, "events", messages, "after the outage")
    finally:
        if follow:
            follow.kill()
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
