#!/usr/bin/env python3
"""Exact Kafka messages (key, value, headers) of the append, upsert and
debezium formats for INSERT, UPDATE, DELETE and MERGE, read back with kcat
from a lakestream-mock-kafka broker.

Usage: formats_test.py LAKESTREAM MOCK_KAFKA"""
import datetime
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import Checker, MockBroker, Shell, read_topic  # noqa: E402


def commit_ms(shell, version):
    rows = shell.rows("SELECT DISTINCT _commit_timestamp FROM table_changes('orders', %d, %d)" % (version, version))
    text = rows[0][0]
    fmt = "%Y-%m-%d %H:%M:%S.%f" if "." in text else "%Y-%m-%d %H:%M:%S"
    ts = datetime.datetime.strptime(text, fmt).replace(tzinfo=datetime.timezone.utc)
    return int(ts.timestamp() * 1000)


def row(id_, name, amount, status):
    return {"id": id_, "name": name, "amount": amount, "status": status}


def simplify(messages):
    """(key, value as JSON or None, version, seq) per message; checks the table header."""
    out = []
    for m in messages:
        value = None if m["value"] is None else json.loads(m["value"])
        out.append((m["key"], value, m["headers"].get("lakestream.table"), int(m["headers"]["lakestream.version"]),
                    int(m["headers"]["lakestream.seq"])))
    return out


def null_keys(check, sh, bs, tmp):
    """One key encoding for every key (Kafka Connect's converters): a NULL in a
    one-column text key is a message without a key, in every format; a
    debezium update of such a row still pairs its before and after images;
    no tombstone is sent for it (it would delete nothing). A text key that
    looks like JSON stays text in a FILE sink's line."""
    sh.run("CREATE TABLE items (id INT, category STRING) TBLPROPERTIES ('change_tracking' = 'true')")
    for name, topic, fmt in [("n_up", "t_null_up", "upsert"), ("n_dbz", "t_null_dbz", "debezium")]:
        sh.run("CREATE SINK %s FROM items INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = '%s', "
               "'format' = '%s', 'key' = 'category')" % (name, bs, topic, fmt))
    path = os.path.join(tmp, "null_keys.jsonl")
    sh.run("CREATE SINK n_file FROM items INTO FILE '%s' WITH ('format' = 'upsert', 'key' = 'category')" % path)
    sh.run("INSERT INTO items VALUES (1, 'books'), (2, NULL), (3, '{x')")  # v1
    sh.run("UPDATE items SET id = 20 WHERE id = 2")  # v2
    sh.run("DELETE FROM items WHERE id = 20")  # v3
    for name in ["n_up", "n_dbz", "n_file"]:
        sh.run("RUN SINK " + name)
    books, null2, brace, null20 = ({"id": 1, "category": "books"}, {"id": 2, "category": None},
                                   {"id": 3, "category": "{x"}, {"id": 20, "category": None})
    check.eq("upsert: a NULL key is a message without a key",
             [(k, v, ver) for k, v, _, ver, _ in simplify(read_topic(bs, "t_null_up"))],
             [("books", books, 1), (None, null2, 1), ("{x", brace, 1), (None, null20, 2), (None, None, 3)])
    dbz = [(k, v and (v["op"], v["before"], v["after"]), ver) for k, v, _, ver, _ in simplify(read_topic(bs, "t_null_dbz"))]
    check.eq("debezium: NULL-key changes keyless, the update paired, no tombstone",
             dbz, [("books", ("c", None, books), 1), (None, ("c", None, null2), 1), ("{x", ("c", None, brace), 1),
                   (None, ("u", null2, null20), 2), (None, ("d", null20, None), 3)])
    with open(path) as f:
        lines = [json.loads(line) for line in f]
    check.eq("FILE upsert lines: null key, text keys as strings",
             [(line["key"], line["value"]) for line in lines],
             [("books", books), (None, null2), ("{x", brace), (None, null20), (None, None)])


def main():
    lakestream, mock = sys.argv[1], sys.argv[2]
    check = Checker()
    topics = ["t_append", "t_skip", "t_upsert", "t_debezium", "t_nots", "t_cols", "t_null_up", "t_null_dbz"]
    broker = MockBroker(mock, [(t, 1) for t in topics])
    tmp = tempfile.mkdtemp(prefix="sink-formats-")
    try:
        sh = Shell(lakestream, os.path.join(tmp, "db"))
        sh.run("CREATE TABLE orders (id INT, name STRING, amount DECIMAL(10,2), status STRING, PRIMARY KEY (id)) "
               "TBLPROPERTIES ('change_tracking' = 'true')")
        bs = broker.bootstrap
        for name, topic, extra in [("s_append", "t_append", "'format' = 'append'"),
                                   ("s_skip", "t_skip", "'format' = 'append', 'on_change' = 'skip'"),
                                   ("s_upsert", "t_upsert", "'format' = 'upsert'"),
                                   ("s_debezium", "t_debezium", "'format' = 'debezium', 'key' = 'id'"),
                                   ("s_nots", "t_nots", "'format' = 'debezium', 'tombstones' = 'false'"),
                                   ("s_cols", "t_cols", "'format' = 'upsert', 'key' = 'id, name', "
                                                        "'value.columns' = 'amount', 'decimal.format' = 'number'")]:
            sh.run("CREATE SINK %s FROM orders INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = '%s', %s)"
                   % (name, bs, topic, extra))
        sh.run("INSERT INTO orders VALUES (1, 'Alice', 1000.00, 'active'), (2, 'Bob', 2000.00, 'active')")  # v1
        out = sh.rows("RUN SINK s_append")
        check.eq("RUN SINK returns the message count", out, [["2", "0", "1"]])
        sh.run("UPDATE orders SET amount = 1500.00 WHERE id = 1")  # v2
        sh.run("DELETE FROM orders WHERE id = 2")  # v3
        sh.run("MERGE INTO orders t USING (SELECT 1 AS id, 'Alice' AS name, 1600.00 AS amount, 'gold' AS status "
               "UNION ALL SELECT 3, 'Carol', 500.00, 'new') s ON t.id = s.id "
               "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *")  # v4
        check.eq("append + skip: 3 inserts delivered, 3 changes skipped", sh.rows("RUN SINK s_skip"), [["3", "3", "4"]])
        for s in ["s_upsert", "s_debezium", "s_nots", "s_cols"]:
            sh.run("RUN SINK " + s)
        p = sh.run("RUN SINK s_append", check=False)
        err = p.stderr.decode()
        check.true("append refuses an update", p.returncode != 0 and
                   "cannot deliver an UPDATE of orders at version 2" in err and "'upsert'" in err and
                   "'debezium'" in err and "'on_change' = 'skip'" in err, err)
        show = {r[0]: r for r in sh.rows("SHOW SINKS")}
        check.eq("append sink keeps version 1 delivered", show["s_append"][4], "1")
        check.true("append sink error visible in SHOW SINKS", "UPDATE of orders at version 2" in ",".join(show["s_append"][8:]))
        check.eq("upsert sink: nothing pending", show["s_upsert"][5:8], ["0", "0", "6"])

        t1, t2, t3, t4 = (commit_ms(sh, v) for v in (1, 2, 3, 4))
        alice = row(1, "Alice", "1000.00", "active")
        bob = row(2, "Bob", "2000.00", "active")
        alice2 = row(1, "Alice", "1500.00", "active")
        alice3 = row(1, "Alice", "1600.00", "gold")
        carol = row(3, "Carol", "500.00", "new")

        # append's key is the primary key when the source has one (so a key's messages stay in one partition).
        check.eq("append: inserts of version 1 only", simplify(read_topic(bs, "t_append")),
                 [("1", alice, "orders", 1, 0), ("2", bob, "orders", 1, 1)])
        check.eq("append + on_change=skip: every insert, changes skipped", simplify(read_topic(bs, "t_skip")),
                 [("1", alice, "orders", 1, 0), ("2", bob, "orders", 1, 1), ("3", carol, "orders", 4, 0)])
        check.eq("upsert: new rows, tombstone for the delete", simplify(read_topic(bs, "t_upsert")),
                 [("1", alice, "orders", 1, 0), ("2", bob, "orders", 1, 1), ("1", alice2, "orders", 2, 0),
                  ("2", None, "orders", 3, 0), ("1", alice3, "orders", 4, 0), ("3", carol, "orders", 4, 1)])

        def dbz(before, after, op, ts, version):
            return {"before": before, "after": after, "op": op, "ts_ms": ts,
                    "source": {"name": "lakestream", "table": "orders", "version": version}}
        want = [("1", dbz(None, alice, "c", t1, 1), "orders", 1, 0), ("2", dbz(None, bob, "c", t1, 1), "orders", 1, 1),
                ("1", dbz(alice, alice2, "u", t2, 2), "orders", 2, 0),
                ("2", dbz(bob, None, "d", t3, 3), "orders", 3, 0), ("2", None, "orders", 3, 1),
                ("1", dbz(alice2, alice3, "u", t4, 4), "orders", 4, 0), ("3", dbz(None, carol, "c", t4, 4), "orders", 4, 1)]
        check.eq("debezium: before/after/op/ts_ms/source, tombstone after a delete",
                 simplify(read_topic(bs, "t_debezium")), want)
        check.eq("debezium with tombstones=false", simplify(read_topic(bs, "t_nots")),
                 [w for w in want if w[1] is not None and (w[3], w[4]) != (3, 1)])
        check.eq("composite key as a JSON object, value.columns, decimal as a number",
                 simplify(read_topic(bs, "t_cols")),
                 [('{"id":1,"name":"Alice"}', {"amount": 1000.00}, "orders", 1, 0),
                  ('{"id":2,"name":"Bob"}', {"amount": 2000.00}, "orders", 1, 1),
                  ('{"id":1,"name":"Alice"}', {"amount": 1500.00}, "orders", 2, 0),
                  ('{"id":2,"name":"Bob"}', None, "orders", 3, 0),
                  ('{"id":1,"name":"Alice"}', {"amount": 1600.00}, "orders", 4, 0),
                  ('{"id":3,"name":"Carol"}', {"amount": 500.00}, "orders", 4, 1)])
        headers = read_topic(bs, "t_upsert")[0]["headers"]
        check.eq("every message names table, version, seq and sink", sorted(headers),
                 ["lakestream.seq", "lakestream.sink", "lakestream.table", "lakestream.version"])
        # Running again delivers nothing new.
        check.eq("RUN SINK with nothing pending", sh.rows("RUN SINK s_upsert"), [["0", "0", "4"]])
        check.eq("no duplicates after a second run", len(read_topic(bs, "t_upsert")), 6)
        null_keys(check, sh, bs, tmp)
    finally:
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
