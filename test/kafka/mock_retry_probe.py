#!/usr/bin/env python3
"""Shows that lakestream-mock-kafka (librdkafka 2.0's mock cluster) appends a
retried produce request again after a simulated outage, with librdkafka's own
idempotent producer and no lakestream code: the reason outage_test.py allows
one re-appended run per partition. Not in ctest (a diagnosis, not a check).

    test/kafka/mock_retry_probe.py [BUILD_DIR] [RUNS]

Prints, per run, the duplicates and each duplicate run as (first index,
length, whether it equals the run just before it)."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from kafka_test_lib import MockBroker  # noqa: E402

build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../build/release")
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
probe = os.path.join(tempfile.mkdtemp(prefix="mock-retry-"), "mock_retry_probe")
subprocess.run(["cc", "-O1", "-o", probe, os.path.join(HERE, "mock_retry_probe.c"), "-lrdkafka"], check=True)
for run in range(runs):
    broker = MockBroker(os.path.join(build, "lakestream-mock-kafka"), [("t", 1)])
    try:
        subprocess.run([probe, broker.bootstrap, "300000", str(broker.proc.pid)], check=True)
        out = subprocess.run(["kcat", "-C", "-b", broker.bootstrap, "-t", "t", "-e", "-q", "-f", "%s\n"],
                             capture_output=True, check=True).stdout.decode().split()
    finally:
        broker.stop()
    values = [int(x) for x in out]
    seen, duplicates, shapes, start, previous = set(), 0, [], 0, False
    for i, v in enumerate(values + [None]):
        dup = v in seen
        duplicates += dup
        if dup and not previous:
            start = i
        if previous and not dup:
            n = i - start
            shapes.append((start, n, values[start - n:start] == values[start:i]))
        previous = dup
        seen.add(v)
    print("run %d: %d messages, %d distinct, %d duplicates, duplicate runs %s" %
          (run + 1, len(values), len(seen) - 1, duplicates, shapes))
