#!/usr/bin/env python3
"""Randomized crash soak (issue 14): one writer process runs a mixed workload
and is SIGKILLed at random points, again and again; after every kill a fresh
process reopens the database and checks every invariant.

The workload is a fixed sequence of statements derived from --seed alone
(never from where the kills land): INSERT/UPDATE/DELETE/MERGE on two tables
with change data feed on (`src`, `dim`), a consumption of the table stream
`src_s` by a MERGE that mirrors `src` into `tgt`, `RUN SINK` of two FILE sinks
(debezium JSON lines of `src`, and of the auto-refreshed aggregate view `agg`
over `src`). The writer (test/integration/crash_writer, public C++ API)
acknowledges each statement after it returns. The statements that did not
commit before a kill are run again by the next writer, so the database always
follows one deterministic history. Kills land after a random delay (from the
writer's start, which also hits open and recovery, or from the moment it has
opened the database), or at the stream consumption's crash points
(LAKESTREAM_CRASH_POINT, src/common/crash_point.hpp).

After each kill:
  tables   src, dim and tgt equal a Python model of the first k statements,
           k = the acknowledged ones, or one more if the statement in flight
           committed; that statement is all or nothing;
  view     agg equals its query run against src (or says it is stale);
  stream   tgt equals `src VERSION AS OF <the stream's offset>`: every change
           consumed exactly once, none skipped;
  sinks    each sink file, up to the size its committed progress records, is
           whole JSON lines that are exactly the source's change feed from the
           sink's start to its delivered version (no duplicate, no gap); bytes
           after that size (a torn tail a restart cuts off) are only counted.
At the end a clean writer consumes and delivers everything; the whole files
then hold every change exactly once.

Short run (ctest): --kills 30. Long run: --kills 500 (docs/ci.md). A failure
prints the seed, the kill number, the statements around the kill point and
the command that replays the same statements and kill schedule; the database
is kept (--keep) for inspection. --skip-view-staleness turns the view check
into a count (for the known bug: a view left behind by a kill between its
source's commit and its refresh).
"""
import argparse
import collections
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

VIEW_QUERY = "SELECT g, COUNT(*) AS n, SUM(v) AS total, MAX(v) AS hi FROM src GROUP BY g"
SINKS = {"src_out": ("src", ["id"]), "agg_out": ("agg", ["g"])}
CONSUME = ("MERGE INTO tgt t USING (SELECT id, g, v, s, __change_type AS ct FROM src_s "
           "WHERE __change_type <> 'UPDATE_BEFORE') c ON t.id = c.id "
           "WHEN MATCHED AND c.ct = 'DELETE' THEN DELETE "
           "WHEN MATCHED THEN UPDATE SET g = c.g, v = c.v, s = c.s "
           "WHEN NOT MATCHED AND c.ct <> 'DELETE' THEN INSERT (id, g, v, s) VALUES (c.id, c.g, c.v, c.s)")
CRASH_POINTS = ["stream.before_target_commit", "stream.after_target_commit"]


def schema(work):
    return [
        "CREATE TABLE src (id INT, g INT, v INT, s STRING, PRIMARY KEY (id)) "
        "TBLPROPERTIES ('change_tracking' = 'true')",
        "CREATE TABLE dim (k INT, n INT, PRIMARY KEY (k)) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
        "CREATE TABLE tgt (id INT, g INT, v INT, s STRING, PRIMARY KEY (id))",
        "CREATE STREAM src_s ON TABLE src",
        f"CREATE MATERIALIZED VIEW agg AS {VIEW_QUERY}",
        f"CREATE SINK src_out FROM src INTO FILE '{os.path.join(work, 'src_out.jsonl')}' "
        "WITH ('format' = 'debezium')",
        f"CREATE SINK agg_out FROM agg INTO FILE '{os.path.join(work, 'agg_out.jsonl')}' "
        "WITH ('format' = 'debezium', 'key' = 'g')",
    ]


class Workload:
    """The statement sequence of a seed and the model after each prefix.
    models[k] = (src, dim, tgt) after the first k statements; every statement
    on src or dim changes at least one row, so a prefix is told by its rows."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.stmts = []
        self.kinds = []
        self.models = [({}, {}, {})]
        self.next_id = 1
        self.next_k = 1

    def extend_to(self, n):
        while len(self.stmts) < n:
            self._one()

    def end_with_consume(self, n):
        """Cuts the sequence after n statements and appends one consumption."""
        del self.stmts[n:], self.kinds[n:], self.models[n + 1:]
        src, dim, _ = self.models[n]
        self.stmts.append(CONSUME)
        self.kinds.append("consume")
        self.models.append((src, dim, dict(src)))

    def _one(self):
        rng = self.rng
        src, dim, tgt = (dict(m) for m in self.models[-1])
        r = rng.random()
        big = len(src) > 80
        if len(src) < 8 or r < (0.14 if big else 0.26):
            rows = []
            for _ in range(rng.randint(1, 4)):
                rows.append((self.next_id, rng.randint(0, 5), rng.randint(0, 999), f"s{self.next_id}"))
                self.next_id += 1
            sql = "INSERT INTO src VALUES " + ", ".join(f"({i}, {g}, {v}, '{s}')" for i, g, v, s in rows)
            for i, g, v, s in rows:
                src[i] = (g, v, s)
            kind = "insert"
        elif r < 0.40:
            pick = rng.sample(sorted(src), rng.randint(1, 3))
            d = rng.randint(1, 50)
            regroup = rng.random() < 0.3
            sets = f"v = v + {d}, s = s || 'u'" + (", g = (g + 1) % 6" if regroup else "")
            sql = f"UPDATE src SET {sets} WHERE id IN ({', '.join(map(str, pick))})"
            for i in pick:
                g, v, s = src[i]
                src[i] = ((g + 1) % 6 if regroup else g, v + d, s + "u")
            kind = "update"
        elif r < (0.56 if big else 0.48):
            pick = rng.sample(sorted(src), rng.randint(1, 3))
            sql = f"DELETE FROM src WHERE id IN ({', '.join(map(str, pick))})"
            for i in pick:
                del src[i]
            kind = "delete"
        elif r < 0.60:
            up, de = rng.sample(sorted(src), 2)
            new, nv = self.next_id, rng.randint(0, 999)
            self.next_id += 1
            sql = ("MERGE INTO src USING (SELECT * FROM (VALUES "
                   f"({up}, {nv}, 'U'), ({de}, 0, 'D'), ({new}, {nv}, 'I')) AS m(id, v, op)) m ON src.id = m.id "
                   "WHEN MATCHED AND m.op = 'D' THEN DELETE "
                   "WHEN MATCHED THEN UPDATE SET v = m.v, s = src.s || 'm' "
                   f"WHEN NOT MATCHED THEN INSERT (id, g, v, s) VALUES (m.id, {new % 6}, m.v, 'm{new}')")
            g, _, s = src[up]
            src[up] = (g, nv, s + "m")
            del src[de]
            src[new] = (new % 6, nv, f"m{new}")
            kind = "merge"
        elif r < 0.70:
            if dim and rng.random() < 0.5:
                k = rng.choice(sorted(dim))
                if rng.random() < 0.5:
                    sql = f"UPDATE dim SET n = n + 1 WHERE k = {k}"
                    dim[k] += 1
                else:
                    sql = f"DELETE FROM dim WHERE k = {k}"
                    del dim[k]
            else:
                k, n = self.next_k, rng.randint(0, 9)
                self.next_k += 1
                sql = f"INSERT INTO dim VALUES ({k}, {n})"
                dim[k] = n
            kind = "dim"
        elif r < 0.85:
            sql = CONSUME
            tgt = dict(src)
            kind = "consume"
        else:
            name = "src_out" if rng.random() < 0.5 else "agg_out"
            sql = f"RUN SINK {name}"
            kind = "sink"
        self.stmts.append(sql)
        self.kinds.append(kind)
        self.models.append((src, dim, tgt))


class Db:
    """The lakestream shell on the soak's database, -json results."""

    def __init__(self, shell, path):
        self.shell, self.path = shell, path

    def queries(self, *sqls, timeout=120):
        args = [self.shell, self.path, "-json"]
        for s in sqls:
            args += ["-c", s]
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        if p.returncode != 0:
            raise RuntimeError(f"lakestream {sqls!r} failed (rc {p.returncode}): {p.stderr.strip()}")
        out, dec, pos, results = p.stdout, json.JSONDecoder(), 0, []
        while True:
            while pos < len(out) and out[pos].isspace():
                pos += 1
            if pos >= len(out):
                break
            value, pos = dec.raw_decode(out, pos)
            results.append(value)
        if len(results) != len(sqls):
            raise RuntimeError(f"expected {len(sqls)} results from {sqls!r}, got {len(results)}: {out[:500]}")
        return results


def rows_of(result, key, cols):
    return {tuple(r[k] for k in key): tuple(r[c] for c in cols) for r in result}


def model_rows(model):
    src, dim, tgt = model
    return ({(i,): v for i, v in src.items()}, {(k,): (n,) for k, n in dim.items()},
            {(i,): v for i, v in tgt.items()})


def diff(got, want, limit=6):
    keys = sorted(set(got) | set(want), key=repr)
    return [(k, got.get(k), want.get(k)) for k in keys if got.get(k) != want.get(k)][:limit]


def sink_state(db_path, name):
    """The sink's committed progress (start_version, delivered_version, file_size) from the catalog."""
    with open(os.path.join(db_path, "_lakestream", "catalog.json")) as f:
        catalog = json.load(f)
    for sink in catalog.get("sinks", []):
        if sink.get("name") == name:
            return sink.get("state", {})
    raise RuntimeError(f"sink {name} is missing from {db_path}/_lakestream/catalog.json")


def says_stale(info):
    """Whether a SHOW MATERIALIZED VIEWS row reports the view stale or behind."""
    for col, v in info.items():
        text = str(v).lower()
        if "stale" in text or "behind" in text or "failed" in text:
            return True
        if any(w in col.lower() for w in ("stale", "status", "behind")) and v not in (
                None, False, 0, "", "ok", "fresh", "up to date", "current"):
            return True
    return False


def expected_messages(feed, key):
    """Debezium messages (version, op, before, after) of a change feed."""
    by = collections.defaultdict(dict)
    for r in feed:
        row = {c: v for c, v in r.items() if not c.startswith("_")}
        by[(r["_commit_version"], tuple(row[k] for k in key))][r["_change_type"]] = row
    out = collections.Counter()
    for (ver, _), ch in by.items():
        if "insert" in ch and "delete" in ch:
            out[(ver, "d", json.dumps(ch["delete"], sort_keys=True), "null")] += 1
            out[(ver, "c", "null", json.dumps(ch["insert"], sort_keys=True))] += 1
        elif "insert" in ch:
            out[(ver, "c", "null", json.dumps(ch["insert"], sort_keys=True))] += 1
        elif "delete" in ch:
            out[(ver, "d", json.dumps(ch["delete"], sort_keys=True), "null")] += 1
        else:
            out[(ver, "u", json.dumps(ch.get("update_preimage"), sort_keys=True),
                 json.dumps(ch.get("update_postimage"), sort_keys=True))] += 1
    return out


class Soak:
    def __init__(self, args):
        self.args = args
        self.work = tempfile.mkdtemp(prefix="lakestream_soak_")
        self.dbp = os.path.join(self.work, "db")
        self.db = Db(args.shell, self.dbp)
        self.wl = Workload(args.seed)
        self.sched = random.Random(args.seed * 7919 + 1)
        self.failures = []
        self.known = collections.Counter()
        self.checks = collections.Counter()
        self.stats = collections.Counter()
        self.kill = 0
        self.where = ""

    # --- failures -------------------------------------------------------
    def fail(self, invariant, msg, fatal=True):
        text = (f"[seed {self.args.seed}, kill {self.kill}] {invariant}: {msg}\n    {self.where}\n"
                f"    reproduce: python3 {os.path.abspath(__file__)} --shell {os.path.abspath(self.args.shell)} "
                f"--writer {os.path.abspath(self.args.writer)} --seed {self.args.seed} --kills {self.kill} --keep")
        seen = sum(1 for inv, _ in self.failures if inv == invariant)
        if seen < 3:
            print("FAIL " + text, flush=True)
        else:
            print(f"FAIL [seed {self.args.seed}, kill {self.kill}] {invariant} (again)", flush=True)
        self.failures.append((invariant, text))
        if fatal or not self.args.keep_going:
            raise StopIteration

    # --- the writer -----------------------------------------------------
    def run_writer(self, first):
        """Runs statements from index `first`; returns (acknowledged count, killed, how)."""
        self.wl.extend_to(first + self.args.batch)
        ops = os.path.join(self.work, "ops.sql")
        ack = os.path.join(self.work, "ack")
        with open(ops, "w") as f:
            f.write("\n".join(self.wl.stmts[first:first + self.args.batch]) + "\n")
        if os.path.exists(ack):
            os.remove(ack)
        env = dict(os.environ)
        env.pop("LAKESTREAM_CRASH_POINT", None)
        mode = self.sched.random()
        delay = self.sched.uniform(0.0, self.args.max_delay)
        early = self.sched.uniform(0.0, 0.08)
        point = self.sched.choice(CRASH_POINTS)
        if mode < 0.15:
            how = f"crash point {point}"
            env["LAKESTREAM_CRASH_POINT"] = point
        elif mode < 0.30:
            how = f"{early:.3f}s after start"
        else:
            how = f"{delay:.3f}s after open"
        p = subprocess.Popen([self.args.writer, self.dbp, ops, ack, str(first)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if how.endswith("after start"):
            time.sleep(early)
        elif how.endswith("after open"):
            deadline = time.time() + 60
            while time.time() < deadline and p.poll() is None:
                if os.path.exists(ack) and os.path.getsize(ack) > 0:
                    break
                time.sleep(0.002)
            time.sleep(delay)
        else:
            try:
                p.wait(timeout=120)
            except subprocess.TimeoutExpired:
                pass
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
        p.wait()
        err = p.stderr.read().decode(errors="replace")
        p.stderr.close()
        acks = []
        if os.path.exists(ack):
            with open(ack) as f:
                acks = [ln.split(" ", 2) for ln in f.read().splitlines()]
        killed = p.returncode == -signal.SIGKILL
        errors = [a for a in acks if a[0] == "error"]
        if errors or (not killed and p.returncode != 0):
            idx = int(errors[0][1]) if errors else first
            self.where = f"statement {idx}: {self.wl.stmts[idx] if idx < len(self.wl.stmts) else '?'}"
            self.fail("workload", f"the writer failed (rc {p.returncode}): "
                      f"{' '.join(errors[0]) if errors else err.strip()[-800:]}")
        committed = [int(a[1]) for a in acks if a[0] == "committed"]
        if committed != list(range(first, first + len(committed))):
            self.fail("workload", f"acknowledgements out of order: {committed[:10]}")
        return len(committed), killed, how

    # --- the checks -----------------------------------------------------
    def check(self, acked_to, killed, final=False):
        # The view is read first: every statement but a SELECT ends by refreshing stale
        # views, which would hide a view the kill left behind.
        res = self.db.queries(
            "SELECT * FROM agg", VIEW_QUERY, "SHOW MATERIALIZED VIEWS",
            "SELECT id, g, v, s FROM src", "SELECT k, n FROM dim", "SELECT id, g, v, s FROM tgt",
            "DESCRIBE STREAM src_s", "SHOW SINKS")
        res = res[3:7] + res[0:3] + res[7:]
        src = rows_of(res[0], ["id"], ["g", "v", "s"])
        dim = rows_of(res[1], ["k"], ["n"])
        tgt = rows_of(res[2], ["id"], ["g", "v", "s"])
        got = (src, dim, tgt)
        # Tables: a committed prefix of the statement sequence.
        cands = [acked_to + 1, acked_to] if killed and acked_to < len(self.wl.stmts) else [acked_to]
        k = next((c for c in cands if got == model_rows(self.wl.models[c])), None)
        self.checks["tables"] += 1
        if k is None:
            want = model_rows(self.wl.models[acked_to])
            names = ("src", "dim", "tgt")
            bad = {names[i]: diff(got[i], want[i]) for i in range(3) if got[i] != want[i]}
            self.fail("tables equal a committed prefix",
                      f"rows match neither {acked_to} statements (acknowledged) nor {acked_to + 1}; "
                      f"differences (key, got, model after {acked_to}): {bad}")
        if k == acked_to + 1 and self.wl.models[k] != self.wl.models[acked_to]:
            self.stats["kills after the in-flight statement had committed"] += 1
        # Stream: the target mirrors src as of the stream's offset.
        offset = res[3][0]["offset_version"]
        at = self.db.queries(f"SELECT id, g, v, s FROM src VERSION AS OF {offset}")[0]
        self.checks["stream"] += 1
        if rows_of(at, ["id"], ["g", "v", "s"]) != tgt:
            self.fail("stream consumed exactly once",
                      f"tgt differs from src VERSION AS OF {offset} (the stream's offset): "
                      f"{diff(tgt, rows_of(at, ['id'], ['g', 'v', 's']))}")
        # View: equals its query, or says it is behind.
        view = collections.Counter(json.dumps(r, sort_keys=True) for r in res[4])
        query = collections.Counter(json.dumps(r, sort_keys=True) for r in res[5])
        self.checks["view"] += 1
        if view != query:
            info = [r for r in res[6] if str(r.get("name", "")).lower() == "agg"]
            if any(says_stale({c: v for c, v in r.items() if c != "name"}) for r in info):
                self.stats["view reported itself stale"] += 1
            elif self.args.skip_view_staleness:
                self.known["view silently stale (known bug, --skip-view-staleness)"] += 1
            else:
                self.fail("view equals its query", "agg differs from its query and does not say it is stale "
                          f"(view-only rows {sorted((view - query).elements())[:4]}, query-only rows "
                          f"{sorted((query - view).elements())[:4]}; SHOW MATERIALIZED VIEWS: {info})",
                          fatal=False)
        # Sinks: the durable prefix of each file is its source's feed, once.
        shows = {r["name"]: r for r in res[7]}
        for name, (source, key) in SINKS.items():
            self.check_sink(name, source, key, shows[name], final)
        return k

    def check_sink(self, name, source, key, show, final):
        self.checks["sink " + name] += 1
        state = sink_state(self.dbp, name)
        start, delivered = state["start_version"], state["delivered_version"]
        if show["delivered_version"] != delivered:
            self.fail("sink exactly once", f"{name}: SHOW SINKS says delivered version {show['delivered_version']}, "
                      f"the catalog {delivered}", fatal=False)
        size = state.get("file_size", 0 if delivered == start else None)
        if size is None:
            self.fail("sink exactly once", f"{name}: delivered version {delivered} but no file_size recorded",
                      fatal=False)
            return
        path = os.path.join(self.work, name + ".jsonl")
        data = open(path, "rb").read() if os.path.exists(path) else b""
        if len(data) < size:
            self.fail("sink exactly once", f"{name}: the file has {len(data)} bytes, fewer than the {size} its "
                      "progress records as durable", fatal=False)
            return
        if len(data) > size:
            self.stats[f"sink {name}: torn or undelivered tail after a kill"] += 1
            if final:
                self.fail("sink exactly once", f"{name}: after a clean run the file has {len(data) - size} bytes "
                          "past its recorded size", fatal=False)
        prefix = data[:size]
        if prefix and not prefix.endswith(b"\n"):
            self.fail("sink exactly once", f"{name}: the durable prefix ends inside a line: {prefix[-80:]!r}",
                      fatal=False)
            return
        got = collections.Counter()
        for n, line in enumerate(prefix.decode("utf-8", errors="replace").splitlines()):
            try:
                m = json.loads(line)
                got[(m["source"]["version"], m["op"], json.dumps(m["before"], sort_keys=True),
                     json.dumps(m["after"], sort_keys=True))] += 1
            except (ValueError, KeyError, TypeError) as e:
                self.fail("sink exactly once", f"{name}: line {n + 1} is not a whole debezium message ({e}): "
                          f"{line[:160]!r}", fatal=False)
                return
        feed = []
        if delivered > start:
            feed = self.db.queries(f"SELECT * FROM table_changes('{source}', {start + 1}, {delivered})")[0]
        want = expected_messages(feed, key)
        if got != want:
            dup = [m for m, c in got.items() if c > 1][:3]
            extra = list((got - want).elements())[:3]
            missing = list((want - got).elements())[:3]
            self.fail("sink exactly once", f"{name} (delivered version {delivered}, {sum(got.values())} lines, "
                      f"{sum(want.values())} changes): duplicates {dup}; not in the feed {extra}; missing {missing}",
                      fatal=False)
        self.stats[f"sink {name} lines checked (summed over checks)"] += sum(got.values())

    # --- the run ----------------------------------------------------------
    def run(self):
        start = time.time()
        for sql in schema(self.work):
            run_plain(self.args.shell, self.dbp, sql)
        done = runs = 0
        try:
            while self.kill < self.args.kills:
                if time.time() - start > self.args.max_seconds:
                    self.fail("time budget", f"{self.args.max_seconds}s passed after {self.kill} kills")
                runs += 1
                n, killed, how = self.run_writer(done)
                self.kill += killed
                self.stats["runs that finished before their kill"] += not killed
                acked = f"statements {done}..{done + n - 1} acknowledged" if n else f"none acknowledged from {done}"
                self.where = (f"run {runs}, kill {how}; {acked}; in flight "
                              f"{done + n}: {self.wl.stmts[done + n][:200] if done + n < len(self.wl.stmts) else '-'}")
                try:
                    k = self.check(done + n, killed)
                except (RuntimeError, subprocess.TimeoutExpired, OSError, ValueError) as e:
                    self.fail("database reopens and answers", str(e)[-1500:])
                if killed and done + n < len(self.wl.kinds):
                    self.stats["kills while running a " + self.wl.kinds[done + n]] += 1
                done = k
                if self.args.verbose:
                    print(f"kill {self.kill}: {self.where}; ok at statement {k}", flush=True)
            # Finally a clean pass consumes the stream and drains both sinks.
            self.where = "final clean pass"
            try:
                run_plain(self.args.shell, self.dbp, CONSUME)
                self.wl.end_with_consume(done)
                for name in SINKS:
                    run_plain(self.args.shell, self.dbp, f"RUN SINK {name}")
                self.check(done + 1, False, final=True)
            except (RuntimeError, subprocess.TimeoutExpired, OSError, ValueError) as e:
                self.fail("final clean pass", str(e)[-1500:])
        except StopIteration:
            pass
        took = time.time() - start
        print(f"soak: seed {self.args.seed}, {self.kill} kills in {runs} runs, {done} statements verified, "
              f"{sum(self.checks.values())} invariant checks ({dict(self.checks)}), {took:.1f}s")
        for what, n in sorted(self.stats.items()):
            print(f"  {what}: {n}")
        for what, n in sorted(self.known.items()):
            print(f"  KNOWN {what}: {n}")
        if self.failures:
            by = collections.Counter(inv for inv, _ in self.failures)
            print(f"soak: FAILED ({dict(by)}); database kept in {self.work}")
            return 1
        print("soak: OK")
        return 0


def run_plain(shell, db, sql):
    p = subprocess.run([shell, db, "-csv", "-c", sql], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"lakestream {sql!r} failed (rc {p.returncode}): {p.stderr.strip()}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shell", required=True, help="the lakestream shell binary")
    ap.add_argument("--writer", required=True, help="test/integration/crash_writer binary")
    ap.add_argument("--kills", type=int, default=int(os.environ.get("LAKESTREAM_SOAK_KILLS", "30")),
                    help="SIGKILLs in all (env LAKESTREAM_SOAK_KILLS; default 30, the long run is 500)")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("LAKESTREAM_SOAK_SEED", "14")))
    ap.add_argument("--batch", type=int, default=40, help="statements handed to each writer")
    ap.add_argument("--max-delay", type=float, default=0.6, help="longest kill delay after open, seconds")
    ap.add_argument("--max-seconds", type=float, default=float(os.environ.get("LAKESTREAM_SOAK_MAX_SECONDS", "3600")))
    ap.add_argument("--keep", action="store_true", help="keep the database directory even when all passes")
    ap.add_argument("--keep-going", action="store_true",
                    help="after a view or sink failure, go on and count (table and stream failures still stop)")
    ap.add_argument("--skip-view-staleness", action="store_true",
                    default=os.environ.get("LAKESTREAM_SOAK_SKIP_VIEW_STALENESS") == "1",
                    help="count a silently stale view instead of failing (known bug; default: fail)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    soak = Soak(args)
    rc = 1
    try:
        rc = soak.run()
    finally:
        if rc == 0 and not args.keep:
            shutil.rmtree(soak.work, ignore_errors=True)
        else:
            print(f"soak: work directory {soak.work}")
    sys.exit(rc)


if __name__ == "__main__":
    main()
