#!/usr/bin/env python3
"""Kill test: a sink with a backlog of more than 100k changes (inserts,
updates, deletes over many versions) is SIGKILLed at random points at least
20 times and restarted; more changes are committed between kills. In the
end the topic (3 partitions, read with kcat) holds every change exactly
once, in commit order per key, and replaying it yields the table.

Usage: kill_test.py LAKESTREAM MOCK_KAFKA [KILLS]"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import Checker, MockBroker, Shell, read_topic, topic_end, verify_exactly_once  # noqa: E402


def main():
    lakestream, mock = sys.argv[1], sys.argv[2]
    kills_wanted = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    rng = random.Random(int(os.environ.get("KILL_TEST_SEED", "7")))
    check = Checker()
    # The mock broker keeps about 5 MB per partition (older messages are
    # dropped, like retention); 16 partitions hold everything this test sends.
    partitions = 16
    broker = MockBroker(mock, [("events", partitions)])
    tmp = tempfile.mkdtemp(prefix="sink-kill-")
    try:
        db = os.path.join(tmp, "db")
        sh = Shell(lakestream, db)
        sh.run("CREATE TABLE events (id INT, val INT, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')")
        # Small producer batches make each run long enough to be killed in the middle.
        sh.run("CREATE SINK out FROM events INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 'events', "
               "'format' = 'upsert', 'batch.num.messages' = '100', 'linger.ms' = '5')" % broker.bootstrap)
        sh.run("INSERT INTO events SELECT CAST(range AS INT), 0 FROM range(40000)")
        for k in range(10):
            sh.run("UPDATE events SET val = val + 1 WHERE id %% 10 = %d" % k)
        for k in range(10):
            sh.run("INSERT INTO events SELECT CAST(range AS INT), 0 FROM range(%d, %d)" % (40000 + k * 2000, 42000 + k * 2000))
        sh.run("DELETE FROM events WHERE id % 7 = 0")
        backlog = int(sh.rows("SHOW SINKS")[0][6])
        check.true("backlog of at least 100k changes", backlog >= 100000, str(backlog))

        kills = mid_delivery = 0
        attempts = 0
        # Until both the kills and the kills mid-delivery are enough: on a slow
        # machine (a sanitizer build, a loaded host) more random-time kills land
        # in start-up, so more runs may be needed.
        while (kills < kills_wanted or mid_delivery < 20) and attempts < kills_wanted * 3:
            attempts += 1
            before = topic_end(broker.bootstrap, "events", partitions)
            p = subprocess.Popen([lakestream, "sink", db, "out"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            # Kill at a random point: usually once a random number of messages
            # reached the topic (however long start-up takes), sometimes at a
            # random time (which may fall in start-up or the resume scan).
            wait = rng.uniform(0.1, 3.0)
            goal = before + rng.randint(1, 6000) if rng.random() < 0.8 else None
            deadline = time.time() + (wait if goal is None else 120)
            while p.poll() is None and time.time() < deadline:
                if goal is not None and topic_end(broker.bootstrap, "events", partitions) >= goal:
                    break
                time.sleep(0.01)
            if p.poll() is None:
                p.kill()
                p.wait()
                kills += 1
                # Mid-delivery: the topic grew during this run and the run did not get to the end.
                if topic_end(broker.bootstrap, "events", partitions) > before:
                    mid_delivery += 1
            else:
                err = p.stderr.read().decode()
                check.true("an unkilled run succeeds", p.returncode == 0, err)
            # More changes while the sink is down: updates of a random slice, an insert and a delete.
            k = rng.randrange(5)
            sh.run("UPDATE events SET val = val + 1 WHERE id %% 5 = %d" % k)
            if attempts % 5 == 0:
                base = 100000 + attempts * 100
                sh.run("INSERT INTO events SELECT CAST(range AS INT), 7 FROM range(%d, %d)" % (base, base + 100))
                sh.run("DELETE FROM events WHERE id %% 31 = %d" % rng.randrange(31))
        check.true("killed at least 20 times", kills >= 20, "kills=%d" % kills)
        check.true("at least 20 kills landed with work pending", mid_delivery >= 20, "mid=%d" % mid_delivery)
        p = subprocess.run([lakestream, "sink", db, "out"], capture_output=True, timeout=300)
        check.eq("final run succeeds", p.returncode, 0)
        show = sh.rows("SHOW SINKS")[0]
        check.eq("nothing pending, no error", (show[5], show[6], show[8]), ("0", "0", ""))
        messages = read_topic(broker.bootstrap, "events")
        print("kills=%d mid_delivery=%d messages=%d" % (kills, mid_delivery, len(messages)))
        # Messages a killed run delivered after its last progress record are
        # counted when a later run finds them on the topic.
        check.eq("SHOW SINKS counts every message on the topic", int(show[7]), len(messages))
        verify_exactly_once(check, sh, "events", messages, "after %d kills" % kills)
    finally:
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
