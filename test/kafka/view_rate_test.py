#!/usr/bin/env python3
"""Many single-row commits into the source of an auto materialized view, with
a Kafka sink on the view followed by `lakestream sink --follow` (issue 30,
the sustained case of bench/latency, without its timing).

One process runs the commits back to back (one statement each: INSERTs,
with UPDATEs and DELETEs among them), so the view's background maintainer
(src/ivm/view_maintainer.hpp) refreshes the view behind them while the
follower delivers from the view's change feed. Whatever the interleaving,
the topic must hold every view change exactly once, in commit order per
key, and replaying it must give the view; the view must equal its query.
A read after a write in the same process sees the write. Then a follower
that defers its saves (--save-interval) is killed with unsaved progress and
another one resumes: still every change exactly once.

Usage: view_rate_test.py LAKESTREAM MOCK_KAFKA"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import Checker, MockBroker, Shell, read_topic, verify_exactly_once  # noqa: E402

N = 600  # commits of the writer


def main():
    lakestream, mock = sys.argv[1], sys.argv[2]
    check = Checker()
    broker = MockBroker(mock, [("rate", 1)])
    tmp = tempfile.mkdtemp(prefix="sink-view-rate-")
    follow = None
    try:
        db = os.path.join(tmp, "db")
        sh = Shell(lakestream, db)
        sh.run("CREATE TABLE t (id INT, val INT, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')")
        sh.run("CREATE MATERIALIZED VIEW v AS SELECT id, val FROM t")
        sh.run("CREATE SINK s FROM v INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 'rate', "
               "'format' = 'upsert', 'key' = 'id')" % broker.bootstrap)
        log_path = os.path.join(tmp, "follow.log")
        log = open(log_path, "w")
        follow = subprocess.Popen([lakestream, "sink", db, "s", "--follow", "--interval", "0.2"],
                                  stdout=subprocess.DEVNULL, stderr=log)

        statements = []
        for i in range(N):
            if i % 50 == 49:
                statements.append("UPDATE t SET val = val + 1 WHERE id = %d" % (i - 10))
            elif i % 50 == 48:
                statements.append("DELETE FROM t WHERE id = %d" % (i - 20))
            else:
                statements.append("INSERT INTO t VALUES (%d, %d)" % (i, i))
        sh.run(";\n".join(statements))
        source_commits = max(int(r[0]) for r in sh.rows("DESCRIBE HISTORY t"))

        # Read-your-writes in one process: the INSERT returns before its
        # view's refresh, the SELECT after it catches the view up first.
        rows = sh.rows("INSERT INTO t VALUES (100000, 7); SELECT val FROM v WHERE id = 100000")[-1:]  # the SELECT's
        check.eq("a read after an INSERT in the same process sees it", rows, [["7"]])
        rows = sh.rows("UPDATE t SET val = 8 WHERE id = 100000; SELECT count(*), sum(val) FROM v WHERE id = 100000")[-1:]
        check.eq("a read after an UPDATE sees it", rows, [["1", "8"]])

        check.eq("the view equals its query (rows of v not in t)",
                 sh.rows("SELECT count(*) FROM (SELECT id, val FROM v EXCEPT ALL SELECT id, val FROM t)"), [["0"]])
        check.eq("the view equals its query (rows of t not in v)",
                 sh.rows("SELECT count(*) FROM (SELECT id, val FROM t EXCEPT ALL SELECT id, val FROM v)"), [["0"]])
        view_commits = max(int(r[0]) for r in sh.rows("DESCRIBE HISTORY v"))
        print("info: %d source commits, %d view commits (the maintainer coalesces)" % (source_commits, view_commits))
        check.true("no more view commits than source commits", view_commits <= source_commits + 3,
                   "%d > %d" % (view_commits, source_commits))

        deadline = time.time() + 180
        while time.time() < deadline and sh.rows("SHOW SINKS", readonly=True)[0][5] != "0":
            time.sleep(0.2)
        check.eq("the follower caught up", sh.rows("SHOW SINKS", readonly=True)[0][5], "0")
        follow.send_signal(signal.SIGINT)
        check.eq("the follower stops on SIGINT", follow.wait(60), 0)
        follow = None
        log.close()
        messages = read_topic(broker.bootstrap, "rate")
        verify_exactly_once(check, sh, "v", messages, "view sink")
        # The maintainer folds many source commits into one view commit, so a
        # row inserted and deleted within one fold never was in the view, and
        # its key may be missing from the topic; every key the view holds, and
        # only keys ever inserted, must be there.
        inserted = {str(i) for i in range(N) if i % 50 not in (48, 49)} | {"100000"}
        deleted = {str(i - 20) for i in range(N) if i % 50 == 48}
        keys = {m["key"] for m in messages}
        check.eq("every key the view holds reached the topic", sorted(inserted - deleted - keys), [])
        check.eq("only inserted keys reached the topic", sorted(keys - inserted), [])

        # Deferred saves (sink_sessions.hpp): a follower that saves its
        # position at most once an hour delivers past what the catalog
        # records; killed then, the next follower starts from the recorded
        # position and its resume scan skips what is on the topic already.
        log = open(log_path, "a")
        follow = subprocess.Popen([lakestream, "sink", db, "s", "--follow", "--interval", "0.2", "--save-interval", "3600"],
                                  stdout=subprocess.DEVNULL, stderr=log)
        topic_keys = lambda: {m["key"] for m in read_topic(broker.bootstrap, "rate")}  # noqa: E731

        def wait_for_keys(wanted):
            deadline = time.time() + 120
            while time.time() < deadline and not wanted <= topic_keys():
                time.sleep(0.2)
            return wanted <= topic_keys()

        sh.run("INSERT INTO t VALUES (200000, 0)")  # its pass saves (the first of this process)
        check.true("the first pass of the new follower delivers", wait_for_keys({"200000"}))
        sh.run(";\n".join("INSERT INTO t VALUES (%d, %d)" % (200001 + i, i) for i in range(40)))
        check.true("the next passes deliver", wait_for_keys({str(200001 + i) for i in range(40)}))
        recorded = int(sh.rows("SHOW SINKS", readonly=True)[0][4])
        view_version = max(int(r[0]) for r in sh.rows("DESCRIBE HISTORY v"))
        check.true("the catalog records less than the follower delivered (saves deferred)", recorded < view_version,
                   "recorded %d, view at %d" % (recorded, view_version))
        follow.kill()
        follow.wait(60)
        follow = subprocess.Popen([lakestream, "sink", db, "s", "--follow", "--interval", "0.2"],
                                  stdout=subprocess.DEVNULL, stderr=log)
        sh.run(";\n".join("INSERT INTO t VALUES (%d, %d)" % (300000 + i, i) for i in range(10)))
        deadline = time.time() + 180
        while time.time() < deadline and sh.rows("SHOW SINKS", readonly=True)[0][5] != "0":
            time.sleep(0.2)
        check.eq("the restarted follower caught up and saved", sh.rows("SHOW SINKS", readonly=True)[0][5], "0")
        follow.send_signal(signal.SIGINT)
        check.eq("the restarted follower stops on SIGINT", follow.wait(60), 0)
        follow = None
        log.close()
        messages = read_topic(broker.bootstrap, "rate")
        verify_exactly_once(check, sh, "v", messages, "view sink after a follower with unsaved progress was killed")
        later = {"200000"} | {str(200001 + i) for i in range(40)} | {str(300000 + i) for i in range(10)}
        keys = {m["key"] for m in messages}
        check.eq("every key of both followers reached the topic", sorted(((inserted - deleted) | later) - keys), [])
        check.eq("only inserted keys reached the topic, after the restart too", sorted(keys - inserted - later), [])
    finally:
        if follow:
            follow.kill()
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
