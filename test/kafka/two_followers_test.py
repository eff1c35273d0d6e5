#!/usr/bin/env python3
"""Two `lakestream sink DB s --follow` processes on one sink, and writers
meanwhile (sink/sink_lease.hpp): a pass delivers under the sink's lease and
takes the database's write lock only to record its progress.

1. A follower stopped in the middle of a pass (LAKESTREAM_PAUSE_POINT
   sink.after_produce: messages handed to the producer, progress not yet
   recorded) keeps no writer out: INSERTs commit meanwhile. It keeps a
   second pass of the same sink out: RUN SINK from another process waits
   for the lease and gives up naming the holder.
2. Three followers of one sink deliver every change exactly once while a
   writer commits, one of them killed in the middle of a pass (the kernel drops its lease, the other one resumes from the
   recorded position). kcat reads the topic back: no duplicates, no gaps.

Usage: two_followers_test.py LAKESTREAM MOCK_KAFKA"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kafka_test_lib import Checker, MockBroker, Shell, read_topic, verify_exactly_once  # noqa: E402
from pause_point_lib import wait_stopped  # noqa: E402


def caught_up(sh):
    return sh.rows("SHOW SINKS", readonly=True)[0][5] == "0"


def main():
    lakestream, mock = sys.argv[1], sys.argv[2]
    check = Checker()
    broker = MockBroker(mock, [("events", 2)])
    tmp = tempfile.mkdtemp(prefix="sink-two-followers-")
    procs = []

    def follower(pause=False):
        env = dict(os.environ)
        if pause:
            env["LAKESTREAM_PAUSE_POINT"] = "sink.after_produce"
        p = subprocess.Popen([lakestream, "sink", db, "out", "--follow", "--interval", "0.1"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        procs.append(p)
        return p

    try:
        db = os.path.join(tmp, "db")
        sh = Shell(lakestream, db)
        sh.run("CREATE TABLE events (id INT, val INT, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')")
        sh.run("CREATE SINK out FROM events INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 'events', "
               "'format' = 'upsert')" % broker.bootstrap)
        sh.run("INSERT INTO events VALUES (0, 0), (1, 0)")

        # 1. A pass stopped between producing and recording its progress.
        paused = follower(pause=True)
        check.true("the follower stops in the middle of its pass", wait_stopped(paused))
        start = time.time()
        p = sh.run("INSERT INTO events VALUES (2, 0)", check=False)
        check.eq("an INSERT commits while a sink pass is under way", (p.returncode, p.stderr.decode()), (0, ""))
        check.true("without waiting for the pass", time.time() - start < 4, "took %.1f s" % (time.time() - start))
        p = sh.run("RUN SINK out", check=False)
        err = p.stderr.decode()
        check.true("a second pass of the sink waits for the lease and names its holder",
                   p.returncode != 0 and ("process %d" % paused.pid) in err and "is being delivered" in err, err)
        paused.send_signal(signal.SIGCONT)
        deadline = time.time() + 30
        while time.time() < deadline and not caught_up(sh):
            time.sleep(0.1)
        check.true("the resumed follower caught up", caught_up(sh))

        # 2. Two more followers (three in all), a writer, and a kill of one
        # of them stopped in the middle of a pass.
        follower()
        doomed = follower(pause=True)
        killed = False
        failed = []
        for i in range(3, 83):
            sql = ("INSERT INTO events VALUES (%d, 0)" % i) if i % 4 else ("UPDATE events SET val = val + 1 WHERE id < %d" % i)
            p = sh.run(sql, check=False)
            if p.returncode != 0:
                failed.append(p.stderr.decode())
            if not killed and wait_stopped(doomed, timeout=0.05):
                doomed.kill()
                doomed.wait()
                killed = True
            time.sleep(0.01)
        check.eq("every write committed while three followers ran", failed, [])
        check.true("a follower was killed in the middle of a pass", killed)
        deadline = time.time() + 60
        while time.time() < deadline and not caught_up(sh):
            time.sleep(0.1)
        check.true("the followers caught up", caught_up(sh))
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                proc.wait(30)
        verify_exactly_once(check, sh, "events", read_topic(broker.bootstrap, "events"), "two followers")
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
