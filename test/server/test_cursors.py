"""SQL cursors over the wire (DECLARE / FETCH / MOVE / CLOSE; docs/server.md):
psycopg's named (server-side) cursors in both transaction modes, and the raw
statements through the simple query protocol."""
import psycopg
import pytest
from conftest import Server  # noqa: F401 (the fixture's module)


def connect(server, **kw):
    return psycopg.connect(host="127.0.0.1", port=server.port, user="tester", dbname="lake", **kw)


@pytest.fixture
def table(server):
    with connect(server, autocommit=True) as con:
        con.execute("CREATE TABLE t AS SELECT range AS a, 'v' || range AS b FROM range(1000)")
    return server


def test_named_cursor_in_batches(table):
    with connect(table) as con:  # psycopg's default: BEGIN is implicit
        with con.cursor(name="big") as cur:
            cur.itersize = 64
            cur.execute("SELECT a, b FROM t WHERE a >= %s ORDER BY a", (100,))
            assert [d.name for d in cur.description] == ["a", "b"]
            assert cur.fetchone() == (100, "v100")
            assert cur.fetchmany(2) == [(101, "v101"), (102, "v102")]
            cur.scroll(10)  # MOVE 10: forward only
            assert cur.fetchone() == (113, "v113")
            rest = list(cur)  # FETCH FORWARD 64 ... until empty
            assert rest[0] == (114, "v114") and rest[-1] == (999, "v999") and len(rest) == 886
        # Other statements run between FETCHes on the same session.
        with con.cursor(name="c2") as cur:
            cur.execute("SELECT a FROM t ORDER BY a")
            assert cur.fetchmany(3) == [(0,), (1,), (2,)]
            assert con.execute("SELECT count(*) FROM t").fetchone() == (1000,)
            assert cur.fetchmany(2) == [(3,), (4,)]
        con.commit()


def test_binary_named_cursor_and_parameters(table):
    with connect(table) as con:
        with con.cursor(name="bin", binary=True) as cur:
            cur.execute("SELECT a, b FROM t WHERE b = %s OR a = %s", ("v7", 9))
            assert sorted(cur.fetchall()) == [(7, "v7"), (9, "v9")]


def test_cursor_lifetime_follows_the_transaction(table):
    with connect(table, autocommit=True) as con:
        # Without a transaction block only WITH HOLD cursors live (as in PostgreSQL).
        with pytest.raises(psycopg.errors.NoActiveSqlTransaction, match="WITH HOLD"):
            with con.cursor(name="nohold") as cur:
                cur.execute("SELECT 1")
        with con.cursor(name="held", withhold=True) as cur:
            cur.execute("SELECT a FROM t ORDER BY a LIMIT 4")
            con.execute("INSERT INTO t VALUES (5000, 'late')")  # a commit between DECLARE and FETCH
            assert cur.fetchall() == [(0,), (1,), (2,), (3,)]
    with connect(table) as con:
        cur = con.cursor()
        cur.execute("DECLARE c CURSOR FOR SELECT a FROM t ORDER BY a")
        con.commit()  # a cursor WITHOUT HOLD ends with its transaction
        with pytest.raises(psycopg.errors.InvalidCursorName, match='cursor "c" does not exist'):
            cur.execute("FETCH 1 FROM c")
        assert con.info.transaction_status == psycopg.pq.TransactionStatus.INERROR
        con.rollback()


def test_cursor_statements_over_simple_query(table):
    with connect(table, autocommit=True) as con:
        cur = con.cursor()
        cur.execute("BEGIN")
        cur.execute('DECLARE "Mixed" NO SCROLL CURSOR WITHOUT HOLD FOR SELECT a FROM t ORDER BY a')
        assert cur.statusmessage == "DECLARE CURSOR"
        cur.execute('FETCH FORWARD 3 FROM "Mixed"')
        assert cur.fetchall() == [(0,), (1,), (2,)] and cur.statusmessage == "FETCH 3"
        cur.execute('MOVE 990 IN "Mixed"')
        assert cur.statusmessage == "MOVE 990"
        cur.execute('FETCH ALL "Mixed"')
        assert cur.fetchall() == [(993,), (994,), (995,), (996,), (997,), (998,), (999,)]
        cur.execute('FETCH NEXT FROM "Mixed"')
        assert cur.fetchall() == [] and cur.statusmessage == "FETCH 0"
        cur.execute('CLOSE "Mixed"')
        assert cur.statusmessage == "CLOSE CURSOR"
        cur.execute("DECLARE a CURSOR FOR SELECT 1; DECLARE b CURSOR FOR SELECT 2")
        cur.execute("CLOSE ALL")
        with pytest.raises(psycopg.errors.InvalidCursorName):
            cur.execute("FETCH a")
        cur.execute("ROLLBACK")
        # DISCARD ALL (connection pools send it) closes WITH HOLD cursors too.
        cur.execute("DECLARE kept CURSOR WITH HOLD FOR SELECT 1")
        cur.execute("DISCARD ALL")
        with pytest.raises(psycopg.errors.InvalidCursorName):
            cur.execute("FETCH kept")


@pytest.mark.parametrize("sql, match", [
    ("DECLARE s SCROLL CURSOR FOR SELECT 1", "not supported yet: SCROLL cursors"),
    ("FETCH BACKWARD 2 FROM c", "not supported yet: BACKWARD"),
    ("FETCH PRIOR FROM c", "not supported yet: PRIOR"),
    ("FETCH ABSOLUTE 3 FROM c", "not supported yet: ABSOLUTE"),
    ("FETCH -1 FROM c", "not supported yet: a negative count"),
    ("MOVE LAST IN c", "not supported yet: LAST"),
])
def test_backward_and_scroll_are_refused(table, sql, match):
    with connect(table) as con:
        con.execute("DECLARE c CURSOR FOR SELECT a FROM t")
        with pytest.raises(psycopg.errors.FeatureNotSupported, match=match):
            con.execute(sql)


def test_cursor_errors(table):
    with connect(table) as con:
        con.execute("DECLARE c CURSOR FOR SELECT a FROM t")
        with pytest.raises(psycopg.errors.DuplicateCursor, match="CLOSE c first"):
            con.execute("DECLARE c CURSOR FOR SELECT 1")
        con.rollback()
        with pytest.raises(psycopg.errors.SyntaxError, match="takes a query"):
            con.execute("DECLARE d CURSOR FOR INSERT INTO t VALUES (1, 'x')")
        con.rollback()
        with pytest.raises(psycopg.errors.UndefinedColumn):
            con.execute("DECLARE d CURSOR FOR SELECT nosuch FROM t")
        assert con.info.transaction_status == psycopg.pq.TransactionStatus.INERROR
        con.rollback()
        with pytest.raises(psycopg.errors.InvalidCursorName):
            con.execute("CLOSE nosuch")


def test_pg_cursors_lists_the_session_cursors(table):
    with connect(table) as con:
        con.execute("SELECT 1")
        # A named cursor closed unused: psycopg asks pg_catalog.pg_cursors whether to CLOSE it.
        with con.cursor(name="never_used"):
            pass
        con.execute("DECLARE a CURSOR FOR SELECT a FROM t")
        con.execute("DECLARE b BINARY CURSOR WITH HOLD FOR SELECT 1")
        rows = con.execute("SELECT name, is_holdable, is_binary, is_scrollable FROM pg_catalog.pg_cursors "
                           "ORDER BY name").fetchall()
        assert rows == [("a", False, False, False), ("b", True, True, False)]
        assert con.execute("SELECT statement FROM pg_cursors WHERE name = %s", ("a",)).fetchone() == \
            ("SELECT a FROM t",)
        con.commit()
        assert con.execute("SELECT name FROM pg_cursors").fetchall() == [("b",)]
