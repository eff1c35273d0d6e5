"""DB-API 2.0 (PEP 249): module globals, cursors, description, rowcount,
executemany, commit/rollback, type objects."""
import datetime
import decimal
import threading

import pytest

import lakestream


def test_module_globals():
    assert lakestream.apilevel == "2.0"
    assert lakestream.threadsafety == 1
    assert lakestream.paramstyle == "qmark"
    for name in ["Warning", "Error", "InterfaceError", "DatabaseError", "DataError", "OperationalError",
                 "IntegrityError", "InternalError", "ProgrammingError", "NotSupportedError"]:
        assert issubclass(getattr(lakestream, name), Exception)
    assert issubclass(lakestream.DatabaseError, lakestream.Error)
    assert issubclass(lakestream.InterfaceError, lakestream.Error)


def test_cursor_description_and_rowcount(con):
    cur = con.cursor()
    cur.execute("CREATE TABLE t (id BIGINT, price DECIMAL(10,2), name VARCHAR, d DATE)")
    assert cur.description is None
    cur.execute("INSERT INTO t VALUES (1, 9.99, 'a', DATE '2024-01-02'), (2, 0.5, 'b', NULL)")
    assert cur.rowcount == 2
    assert cur.description is None
    cur.execute("UPDATE t SET name = 'c' WHERE id = 2")
    assert cur.rowcount == 1
    cur.execute("SELECT * FROM t ORDER BY id")
    assert cur.rowcount == 2
    desc = cur.description
    assert [d[0] for d in desc] == ["id", "price", "name", "d"]
    assert [d[1] for d in desc] == ["BIGINT", "DECIMAL(10,2)", "VARCHAR", "DATE"]
    assert desc[1][4:6] == (10, 2)
    assert desc[0][4:6] == (None, None)
    assert all(len(d) == 7 for d in desc)
    assert desc[0][1] == lakestream.NUMBER and desc[1][1] == lakestream.NUMBER
    assert desc[2][1] == lakestream.STRING and desc[3][1] == lakestream.DATETIME
    assert desc[2][1] != lakestream.NUMBER
    assert cur.fetchall() == [(1, decimal.Decimal("9.99"), "a", datetime.date(2024, 1, 2)),
                              (2, decimal.Decimal("0.50"), "c", None)]
    cur.execute("DELETE FROM t")
    assert cur.rowcount == 2


def test_fetchmany_uses_arraysize(con):
    cur = con.cursor()
    cur.execute("SELECT range FROM range(10)")
    assert cur.fetchmany() == [(0,)]
    cur.arraysize = 4
    assert cur.fetchmany() == [(1,), (2,), (3,), (4,)]
    assert [r[0] for r in cur] == [5, 6, 7, 8, 9]


def test_fetch_before_execute_is_a_programming_error(con):
    with pytest.raises(lakestream.ProgrammingError, match="execute"):
        con.cursor().fetchone()


def test_executemany_inserts_every_row_and_counts(con):
    con.execute("CREATE TABLE t (id BIGINT, name VARCHAR)")
    cur = con.cursor()
    cur.executemany("INSERT INTO t VALUES (?, ?)", [(i, f"n{i}") for i in range(50)])
    assert cur.rowcount == 50
    assert con.execute("SELECT count(*), sum(id) FROM t").fetchall() == [(50, sum(range(50)))]
    cur.executemany("INSERT INTO t VALUES ($1, $2)", iter([]))
    assert cur.rowcount == -1


def test_executemany_stops_at_the_first_error(con):
    con.execute("CREATE TABLE t (id BIGINT NOT NULL)")
    with pytest.raises(lakestream.ConstraintException):
        con.executemany("INSERT INTO t VALUES (?)", [(1,), (None,), (3,)])
    # Each statement commits on its own: the row before the error stays.
    assert con.execute("SELECT id FROM t").fetchall() == [(1,)]


def test_commit_and_rollback_are_no_ops_statements_autocommit(con):
    con.execute("CREATE TABLE t (a INTEGER)")
    con.execute("INSERT INTO t VALUES (1)")
    con.rollback()  # nothing to roll back: the INSERT committed when it completed
    con.commit()
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(1,)]


def test_cursor_shares_the_database_and_closes_alone(con):
    con.execute("CREATE TABLE t (a INTEGER)")
    cur = con.cursor()
    assert cur.connection is con
    cur.execute("INSERT INTO t VALUES (1)")
    cur.close()
    assert cur.closed and not con.closed
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(1,)]


def test_cursors_run_in_parallel_threads(con):
    con.execute("CREATE TABLE t (a BIGINT)")
    errors = []

    def work(k):
        try:
            cur = con.cursor()
            for i in range(20):
                cur.execute("INSERT INTO t VALUES (?)", [k * 100 + i])
            cur.close()
        except Exception as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert con.execute("SELECT count(*), count(DISTINCT a) FROM t").fetchall() == [(80, 80)]


def test_same_connection_from_two_threads_is_serialized_not_corrupted(con):
    # threadsafety = 1 says not to share connections; doing it anyway must
    # still give right answers (statements take turns).
    results = []

    def work():
        for _ in range(20):
            results.append(con.sql("SELECT sum(range) FROM range(10000)").fetchall())

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [[(sum(range(10000)),)]] * 60


def test_pep249_constructors():
    assert lakestream.Date(2024, 1, 2) == datetime.date(2024, 1, 2)
    assert lakestream.Timestamp(2024, 1, 2, 3, 4, 5) == datetime.datetime(2024, 1, 2, 3, 4, 5)
    assert lakestream.Binary(bytearray(b"ab")) == b"ab"
