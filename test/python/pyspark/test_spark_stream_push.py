"""A streaming query with the default trigger starts its next micro-batch
when the source commits (issue 30, push delivery), not at its next poll: the
poll is set to 30 s here, so only the commit notification (in-process, or
inotify for another process's commit) can deliver within 10 s."""
import os
import subprocess
import time

from conftest import rows


def wait_until(predicate, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_default_trigger_wakes_on_commit(spark, tmp_path):
    spark.sql("CREATE TABLE src (id INT, name STRING, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')")
    spark.sql("INSERT INTO src VALUES (1, 'a')")
    writer = spark.readStream.table("src").writeStream.option("checkpointLocation", str(tmp_path / "ck"))
    assert writer._trigger[0] == "default"  # no trigger() given
    writer._trigger = ("default", 30.0)  # the fallback poll
    q = writer.toTable("dst")
    try:
        assert wait_until(lambda: q.status["message"] == "Waiting for next trigger", 10), q.status
        assert rows(spark.table("dst")) == [(1, "a")]

        # A commit of this process.
        start = time.monotonic()
        spark.sql("INSERT INTO src VALUES (2, 'b')")
        assert wait_until(lambda: spark.table("dst").count() == 2, 10), "not delivered by the in-process notification"
        assert time.monotonic() - start < 10

        # A commit of another process (the shell): inotify on src's _delta_log.
        shell = os.environ.get("LAKESTREAM_SHELL")
        if shell:
            assert wait_until(lambda: q.status["message"] == "Waiting for next trigger", 10)
            database = spark.conf.get("lakestream.database")
            for _ in range(100):  # the query may hold the write lock for a moment
                p = subprocess.run([shell, database, "-c", "INSERT INTO src VALUES (3, 'c')"], capture_output=True)
                if p.returncode == 0:
                    break
                time.sleep(0.05)
            assert p.returncode == 0, p.stderr
            assert wait_until(lambda: spark.table("dst").count() == 3, 10), "not delivered by the file notification"
        assert q.exception() is None
    finally:
        start = time.monotonic()
        q.stop()
        # stop() wakes the wait instead of letting the 30 s poll run out.
        assert time.monotonic() - start < 10
    assert rows(spark.table("dst"))[:2] == [(1, "a"), (2, "b")]
