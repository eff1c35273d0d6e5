#!/usr/bin/env python3
"""`lakestream sink DB NAME --follow`: releases the database between passes
so another process can keep writing the source, delivers each new commit,
and prints its progress line.

Usage: follow_test.py LAKESTREAM MOCK_KAFKA"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import Checker, MockBroker, Shell, read_topic, verify_exactly_once  # noqa: E402


def main():
    lakestream, mock = sys.argv[1], sys.argv[2]
    check = Checker()
    broker = MockBroker(mock, [("events", 2)])
    tmp = tempfile.mkdtemp(prefix="sink-follow-")
    follow = None
    try:
        db = os.path.join(tmp, "db")
        sh = Shell(lakestream, db)
        sh.run("CREATE TABLE events (id INT, val INT, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')")
        sh.run("CREATE SINK out FROM events INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 'events', "
               "'format' = 'upsert')" % broker.bootstrap)
        log_path = os.path.join(tmp, "follow.log")
        log = open(log_path, "w")
        follow = subprocess.Popen([lakestream, "sink", db, "out", "--follow", "--interval", "0.1"],
                                  stdout=subprocess.DEVNULL, stderr=log)
        writes = 0
        for i in range(12):
            sql = ("INSERT INTO events VALUES (%d, 0)" % i) if i % 3 else ("UPDATE events SET val = val + 1 WHERE id < %d" % i)
            for _ in range(100):  # the follower holds the write lock during a pass; wait for our turn
                p = sh.run(sql, check=False)
                if p.returncode == 0:
                    writes += 1
                    break
                if b"already open for writing" not in p.stderr:
                    raise AssertionError(p.stderr.decode())
                time.sleep(0.05)
            time.sleep(0.05)
        check.eq("every write got the lock between passes", writes, 12)
        deadline = time.time() + 30
        while time.time() < deadline and sh.rows("SHOW SINKS", readonly=True)[0][5] != "0":
            time.sleep(0.1)
        check.eq("the follower caught up", sh.rows("SHOW SINKS", readonly=True)[0][5], "0")
        follow.send_signal(signal.SIGINT)
        check.eq("stops on SIGINT", follow.wait(30), 0)
        follow = None
        log.close()
        progress = open(log_path).read().splitlines()
        check.true("progress lines", any(l.startswith("sink out: ") and "lag 0 versions" in l for l in progress),
                   "\n".join(progress[-5:]))
        verify_exactly_once(check, sh, "events", read_topic(broker.bootstrap, "events"), "follow")

        # A broker that is down when a pass starts: the pass fails (metadata
        # times out), and --follow says it is retrying instead of passing on
        # RUN SINK's advice to run it again; its lag counts the versions not
        # delivered yet.
        for i in range(3):
            sh.run("INSERT INTO events VALUES (%d, 1)" % (100 + i))
        broker.down()
        log = open(log_path, "w")
        follow = subprocess.Popen([lakestream, "sink", db, "out", "--follow", "--interval", "0.1"],
                                  stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.time() + 60
        while time.time() < deadline and "retrying in" not in open(log_path).read():
            time.sleep(0.2)
        broker.up()
        deadline = time.time() + 60
        while time.time() < deadline and sh.rows("SHOW SINKS", readonly=True)[0][5] != "0":
            time.sleep(0.2)
        follow.send_signal(signal.SIGINT)
        check.eq("stops on SIGINT after the outage", follow.wait(30), 0)
        follow = None
        log.close()
        progress = open(log_path).read().splitlines()
        failed = [line for line in progress if "error:" in line]
        check.true("a failed pass says it is retrying", failed and all("retrying in" in line for line in failed),
                   "\n".join(progress[-5:]))
        check.true("and not to run the sink again", not any("again once the target is reachable" in line for line in failed),
                   "\n".join(failed[-3:]))
        check.true("the lag counts the 3 undelivered versions", any("lag 3 versions" in line for line in failed),
                   "\n".join(failed[-3:]))
        verify_exactly_once(check, sh, "events", read_topic(broker.bootstrap, "events"), "follow after the outage")
    finally:
        if follow:
            follow.kill()
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
