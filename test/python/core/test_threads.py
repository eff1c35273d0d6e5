"""connect(config={'threads': N}) (docs/python.md): the connection's queries
use N threads (SET threads = N), shown by lakestream_settings() and EXPLAIN,
with the answers of one thread; bad values are refused naming the range."""
import pytest

import lakestream


def threads_setting(con):
    return con.execute("SELECT value FROM lakestream_settings() WHERE name = 'threads'").fetchall()[0][0]


def test_config_threads_sets_the_connection_threads():
    con = lakestream.connect(config={"threads": 3})
    assert threads_setting(con) == "3"
    con.execute("CREATE TABLE m AS SELECT range AS i, range % 10 AS g FROM range(0, 200000)")
    plan = con.execute("EXPLAIN SELECT g, sum(i) FROM m GROUP BY g").fetchall()[0][0]
    assert "[3 threads]" in plan
    parallel = sorted(con.execute("SELECT g, count(*), sum(i) FROM m GROUP BY g").fetchall())
    con.execute("SET threads = 1")
    assert "threads]" not in con.execute("EXPLAIN SELECT g, sum(i) FROM m GROUP BY g").fetchall()[0][0]
    assert sorted(con.execute("SELECT g, count(*), sum(i) FROM m GROUP BY g").fetchall()) == parallel
    assert parallel[7] == (7, 20000, sum(range(7, 200000, 10)))
    con.close()


def test_config_threads_rejects_bad_values():
    with pytest.raises(lakestream.InterfaceError, match="whole number from 1 to 1024"):
        lakestream.connect(config={"threads": "four"})
    with pytest.raises(lakestream.Error, match="from 1 to 1024"):
        lakestream.connect(config={"threads": 0})


def test_a_cursor_keeps_the_connections_threads():
    con = lakestream.connect(config={"threads": 3})
    cur = con.cursor()
    assert threads_setting(cur) == "3"
    assert threads_setting(cur.cursor()) == "3"
    con.close()
