"""Shared helpers of the Kafka sink tests: a mock broker per test, the
lakestream shell, and kcat (a client we did not write) to read topics back."""
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time


class MockBroker:
    """lakestream-mock-kafka on an ephemeral loopback port."""

    def __init__(self, binary, topics):
        self.dir = tempfile.mkdtemp(prefix="mock-kafka-")
        bootstrap_file = os.path.join(self.dir, "bootstrap")
        args = [binary, "--bootstrap-file", bootstrap_file]
        for name, partitions in topics:
            args += ["--topic", "%s:%d" % (name, partitions)]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 10
        while not os.path.exists(bootstrap_file):
            if self.proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("mock broker did not start: " + self.proc.stderr.read().decode())
            time.sleep(0.02)
        with open(bootstrap_file) as f:
            self.bootstrap = f.read().strip()

    def down(self):
        self.proc.send_signal(signal.SIGUSR1)

    def up(self):
        self.proc.send_signal(signal.SIGUSR2)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def read_topic(bootstrap, topic):
    """Every message of `topic` (all partitions) via kcat -J, as dicts with
    partition, offset, key, value (None for a tombstone) and headers (a dict)."""
    out = subprocess.run(["kcat", "-C", "-b", bootstrap, "-t", topic, "-e", "-J", "-q"],
                         check=True, capture_output=True, timeout=120).stdout.decode()
    messages = []
    for line in out.splitlines():
        if not line.strip():
            continue
        m = json.loads(line)
        h = m.get("headers") or []
        headers = {h[i]: h[i + 1] for i in range(0, len(h), 2)}
        messages.append({"partition": m["partition"], "offset": m["offset"], "key": m.get("key"),
                         "value": m.get("payload"), "headers": headers})
    messages.sort(key=lambda m: (m["partition"], m["offset"]))
    return messages


def topic_end(bootstrap, topic, partitions):
    """The sum of the partitions' end offsets (kcat -Q with timestamp -1)."""
    args = ["kcat", "-Q", "-b", bootstrap]
    for p in range(partitions):
        args += ["-t", "%s:%d:-1" % (topic, p)]
    out = subprocess.run(args, check=True, capture_output=True, timeout=60).stdout.decode()
    return sum(int(line.rsplit(" ", 1)[1]) for line in out.splitlines() if " offset " in line)


class Shell:
    """Runs SQL in a database directory with the lakestream binary."""

    def __init__(self, binary, db):
        self.binary = binary
        self.db = db

    def run(self, sql, check=True, readonly=False):
        args = [self.binary] + (["-readonly"] if readonly else []) + ["-csv", self.db, "-c", sql]
        p = subprocess.run(args, capture_output=True, timeout=300)
        if check and p.returncode != 0:
            raise AssertionError("SQL failed (%d): %s\n%s" % (p.returncode, sql, p.stderr.decode()))
        return p

    def rows(self, sql, readonly=False):
        """CSV rows of the last result, header dropped."""
        out = self.run(sql, readonly=readonly).stdout.decode()
        return list(csv.reader(io.StringIO(out)))[1:]


class Checker:
    def __init__(self):
        self.failures = 0

    def eq(self, name, got, want):
        if got == want:
            print("PASS: " + name)
        else:
            self.failures += 1
            print("FAIL: %s\n  want: %r\n  got:  %r" % (name, want, got))

    def true(self, name, cond, detail=""):
        if cond:
            print("PASS: " + name)
        else:
            self.failures += 1
            print("FAIL: %s %s" % (name, detail))

    def exit(self):
        print("%d failure(s)" % self.failures)
        sys.exit(1 if self.failures else 0)


def identity(message):
    return (int(message["headers"]["lakestream.version"]), int(message["headers"]["lakestream.seq"]))


def drop_mock_retry_runs(messages, max_runs_per_partition):
    """The local broker (librdkafka 2.0's mock cluster) does not keep the
    idempotent producer's sequence numbers, so a produce request that it
    appended but whose answer was lost when its connection was cut (a
    simulated outage) is appended again when the producer retries it. A real
    broker answers that retry with DUPLICATE_SEQUENCE_NUMBER and appends
    nothing. Such a re-append has one exact shape: in one partition, a
    contiguous run of messages identical, identity by identity, to the run
    just before it (the in-flight batches, sent again in order). This removes
    at most `max_runs_per_partition` runs of exactly that shape and returns
    (kept messages, list of (partition, first offset, length)); any other
    duplicate stays and fails the checks."""
    kept, runs = [], []
    by_partition = {}
    for m in messages:  # sorted by partition, offset
        by_partition.setdefault(m["partition"], []).append(m)
    for partition, ms in sorted(by_partition.items()):
        seen, i, dropped = set(), 0, 0
        while i < len(ms):
            if identity(ms[i]) not in seen or dropped >= max_runs_per_partition:
                seen.add(identity(ms[i]))
                kept.append(ms[i])
                i += 1
                continue
            j = i
            while j < len(ms) and identity(ms[j]) in seen:
                j += 1
            n = j - i
            before = [identity(m) for m in ms[i - n:i]] if i >= n else None
            if before != [identity(m) for m in ms[i:j]]:
                kept.extend(ms[i:j])  # not a retried batch: left for the checks to find
            else:
                runs.append((partition, ms[i]["offset"], n))
                dropped += 1
            i = j
    kept.sort(key=lambda m: (m["partition"], m["offset"]))
    return kept, runs


def verify_exactly_once(check, shell, table, messages, label):
    """Checks an upsert topic fed by a sink created at version 0 of `table`
    (columns id INT primary key, val INT): every change exactly once (the
    identities (version, seq) of each version are 0..n-1, no duplicates), in
    commit order per key, and replaying it gives the table's final rows."""
    want = {}
    for version, count in shell.rows("SELECT _commit_version, count(*) FROM table_changes('%s', 1) "
                                     "WHERE _change_type <> 'update_preimage' GROUP BY 1" % table):
        want[int(version)] = int(count)
    seen = {}
    duplicates = 0
    for m in messages:
        ident = identity(m)
        if ident in seen:
            duplicates += 1
        seen[ident] = m
    check.eq(label + ": no duplicate messages", duplicates, 0)
    got = {}
    for version, _ in seen:
        got[version] = got.get(version, 0) + 1
    check.eq(label + ": message count per version", got, want)
    missing = [(v, s) for v, n in want.items() for s in range(n) if (v, s) not in seen]
    check.eq(label + ": no gaps in (version, seq)", missing[:10], [])
    # Per key, offsets must follow commit order.
    last = {}
    disorder = 0
    for m in messages:  # sorted by partition, offset
        ident = identity(m)
        if m["key"] in last and last[m["key"]] >= ident:
            disorder += 1
        last[m["key"]] = ident
    check.eq(label + ": per-key commit order", disorder, 0)
    state = {}
    for m in messages:
        if m["value"] is None:
            state.pop(m["key"], None)
        else:
            state[m["key"]] = json.loads(m["value"])["val"]
    rows = {r[0]: int(r[1]) for r in shell.rows("SELECT id, val FROM %s" % table)}
    check.eq(label + ": replaying the topic gives the table (rows)", len(state), len(rows))
    check.true(label + ": replaying the topic gives the table (values)", state == rows)
