"""A PySpark streaming query to Kafka SIGKILLed at least 20 times (at random
moments, and at the crash points between staging a batch and delivering it
and after delivering it), then drained: every row of the source is on the
topic exactly once (read back with kcat).

LAKESTREAM_PYSPARK_KILLS sets the number of random kills (default 20)."""
import json
import os
import random
import signal
import subprocess
import sys
import time

from conftest import topic

CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kill_child.py")


def child(args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.Popen([sys.executable, CHILD] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e)


def test_kill_streaming_query_exactly_once(broker, tmp_path):
    db, ck = str(tmp_path / "lake"), str(tmp_path / "ck")
    args = [db, ck, broker.bootstrap, "events"]
    rng = random.Random(int(os.environ.get("LAKESTREAM_PYSPARK_KILL_SEED", time.time())))
    kills = crash_points = 0
    plan = ["after_stage", "after_sink", "after_stage"] + [None] * int(os.environ.get("LAKESTREAM_PYSPARK_KILLS", 20))
    rng.shuffle(plan)
    for point in plan:
        p = child(args + ["run"], {"LAKESTREAM_PYSPARK_CRASH_POINT": point} if point else None)
        if point:
            p.wait(60)  # kills itself at the crash point of its first batch
            assert p.returncode == -signal.SIGKILL, p.stderr.read().decode()
            crash_points += 1
            continue
        first = p.stdout.readline()  # the query started; kill it somewhere in what follows
        assert first.strip() == b"started", first + p.stderr.read()
        time.sleep(rng.uniform(0.0, 0.8))
        p.kill()
        p.wait()
        assert p.returncode == -signal.SIGKILL
        kills += 1
    final = child(args + ["final"])
    out, err = final.communicate(timeout=120)
    assert final.returncode == 0, err.decode()
    ids = json.loads(out.decode().strip().splitlines()[-1])
    messages = topic(broker, "events")
    got = [int(m["key"]) for m in messages]
    duplicates = sorted({i for i in got if got.count(i) > 1})
    print("%d random kills, %d crash points, %d rows, %d messages" % (kills, crash_points, len(ids), len(messages)))
    assert kills >= 20 and crash_points == 3
    assert len(ids) > 0 and len(set(ids)) == len(ids)
    assert duplicates == [], "ids sent twice: %s" % duplicates[:20]
    assert sorted(got) == sorted(ids), "missing: %s" % sorted(set(ids) - set(got))[:20]
    for m in messages:
        assert json.loads(m["value"])["id"] == int(m["key"])
    assert len({m["headers"]["lakestream.sink"] for m in messages}) == 1
