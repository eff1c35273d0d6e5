#!/usr/bin/env python3
"""The 'raw' sink format (Spark's Kafka sink: the `key` and `value` columns'
text as they are), read back with kcat from a lakestream-mock-kafka broker:
exact keys, values and headers, NULL key and NULL value, a stream source,
updates refused or skipped, and every refused definition with its message.

Usage: raw_format_test.py LAKESTREAM MOCK_KAFKA"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import Checker, MockBroker, Shell, read_topic  # noqa: E402


def simplify(messages):
    return [(m["key"], m["value"], m["headers"].get("lakestream.table"), int(m["headers"]["lakestream.version"]),
             int(m["headers"]["lakestream.seq"])) for m in messages]


def main():
    lakestream, mock = sys.argv[1], sys.argv[2]
    check = Checker()
    broker = MockBroker(mock, [("t_raw", 1), ("t_named", 1), ("t_stream", 1), ("t_skip", 1), ("t_err", 1)])
    tmp = tempfile.mkdtemp(prefix="sink-raw-")
    try:
        sh = Shell(lakestream, os.path.join(tmp, "db"))
        bs = broker.bootstrap
        sh.run("CREATE TABLE out (id INT, key STRING, value STRING, topic STRING) "
               "TBLPROPERTIES ('change_tracking' = 'true')")
        sink = "CREATE SINK %s FROM %s INTO KAFKA WITH ('bootstrap.servers' = '" + bs + "', 'topic' = '%s', %s)"
        sh.run(sink % ("s_raw", "out", "t_raw", "'format' = 'raw'"))
        sh.run(sink % ("s_named", "out", "t_named", "'format' = 'raw', 'key' = 'topic', 'value.columns' = 'key'"))
        sh.run(sink % ("s_skip", "out", "t_skip", "'format' = 'RAW', 'on_change' = 'skip'"))
        sh.run("INSERT INTO out VALUES (1, 'books', '{\"category\":\"books\",\"n\":3}', 'ignored'), "
               "(2, NULL, 'no key', 'x'), (3, 'tomb', NULL, NULL), (4, '', 'h\u00e9llo \"world\"\nline2', 'y')")  # v1
        check.eq("RUN SINK counts 4 messages", sh.rows("RUN SINK s_raw"), [["4", "0", "1"]])
        got = simplify(read_topic(bs, "t_raw"))
        check.eq("raw: key and value text verbatim, NULL key -> no key, NULL value -> null payload", got,
                 [("books", '{"category":"books","n":3}', "out", 1, 0), (None, "no key", "out", 1, 1),
                  ("tomb", None, "out", 1, 2), ("", 'h\u00e9llo "world"\nline2', "out", 1, 3)])
        sh.run("RUN SINK s_named")
        got = [(k, v) for k, v, _, _, _ in simplify(read_topic(bs, "t_named"))]
        check.eq("raw: 'key' and 'value.columns' name other columns", got,
                 [("ignored", "books"), ("x", None), (None, "tomb"), ("y", "")])

        sh.run("UPDATE out SET value = 'changed' WHERE id = 1")  # v2
        sh.run("INSERT INTO out VALUES (5, 'k5', 'v5', NULL)")  # v3
        p = sh.run("RUN SINK s_raw", check=False)
        err = p.stderr.decode()
        check.true("raw refuses an update, naming the table, version and remedy",
                   p.returncode != 0 and "format 'raw' cannot deliver an UPDATE of out at version 2" in err and
                   "'on_change' = 'skip'" in err, err)
        check.eq("raw: nothing of version 2 or 3 sent", len(read_topic(bs, "t_raw")), 4)
        check.eq("raw + on_change skip: the update counted, the insert sent", sh.rows("RUN SINK s_skip"), [["5", "1", "3"]])
        check.eq("raw + skip: version 3's insert", simplify(read_topic(bs, "t_skip"))[-1], ("k5", "v5", "out", 3, 0))
        sh.run("RUN SINK s_skip")
        check.eq("raw + skip: a second run sends nothing", len(read_topic(bs, "t_skip")), 5)

        # A stream of an append-only table: each batch's rows once, identities (batch version, seq).
        sh.run("CREATE TABLE staged (key STRING, value STRING) TBLPROPERTIES ('change_tracking' = 'true')")
        sh.run("CREATE TABLE STREAM st ON TABLE staged WITH PROPERTIES ('TABLE_STREAM_MODE' = 'APPEND_ONLY')")
        sh.run(sink % ("s_stream", "st", "t_stream", "'format' = 'raw'"))
        sh.run("INSERT INTO staged VALUES ('a', '1'), ('b', '2')")
        sh.run("INSERT INTO staged VALUES ('a', '3')")
        sh.run("RUN SINK s_stream")
        sh.run("RUN SINK s_stream")
        got = simplify(read_topic(bs, "t_stream"))
        check.eq("raw from a stream: one batch, each row once", got,
                 [("a", "1", "st", 2, 0), ("b", "2", "st", 2, 1), ("a", "3", "st", 2, 2)])
        check.eq("raw from a stream: the offset moved", sh.rows("SELECT count(*) FROM st"), [["0"]])

        # Refused definitions: each names the sink, what is wrong and the fix.
        sh.run("CREATE TABLE nov (id INT, payload STRING) TBLPROPERTIES ('change_tracking' = 'true')")
        sh.run("CREATE TABLE intv (key STRING, value INT) TBLPROPERTIES ('change_tracking' = 'true')")
        sh.run("CREATE TABLE part (key STRING, value STRING, partition INT) TBLPROPERTIES ('change_tracking' = 'true')")
        sh.run("CREATE TABLE hdr (value STRING, headers STRING) TBLPROPERTIES ('change_tracking' = 'true')")
        for source, extra, wants in [
                ("nov", "'format' = 'raw'", ["Sink s_err", "column \"value\"", "'value.columns'", "id, payload"]),
                ("intv", "'format' = 'raw'", ["Sink s_err", "\"value\"", "must be a VARCHAR, not INTEGER", "CAST"]),
                ("out", "'format' = 'raw', 'key' = 'id'", ["Sink s_err", "key column \"id\"", "VARCHAR"]),
                ("part", "'format' = 'raw'", ["Sink s_err", "column \"partition\"", "drop or rename"]),
                ("hdr", "'format' = 'raw'", ["Sink s_err", "column \"headers\"", "drop or rename"]),
                ("out", "'format' = 'raw', 'value.columns' = 'key, value'", ["Sink s_err", "one column"]),
                ("out", "'format' = 'raw', 'value.columns' = 'vlaue'", ["Sink s_err", "\"vlaue\"", "did you mean"]),
                ("out", "'format' = 'rwa'", ["Sink s_err", "unknown format 'rwa'", "'raw'"])]:
            p = sh.run(sink % ("s_err", source, "t_err", extra), check=False)
            err = p.stderr.decode()
            check.true("refused: %s %s" % (source, extra), p.returncode != 0 and all(w in err for w in wants), err)
        p = sh.run("CREATE SINK s_file FROM out INTO FILE '%s' WITH ('format' = 'raw')" % os.path.join(tmp, "x.jsonl"),
                   check=False)
        err = p.stderr.decode()
        check.true("raw refused for a FILE sink", p.returncode != 0 and "Kafka sinks only" in err, err)
        check.eq("no refused sink was created", sorted(r[0] for r in sh.rows("SHOW SINKS")),
                 ["s_named", "s_raw", "s_skip", "s_stream"])
    finally:
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
