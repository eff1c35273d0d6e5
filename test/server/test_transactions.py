"""BEGIN / COMMIT / ROLLBACK as psycopg uses them, in both of its modes
(docs/server.md, "Transactions"): lakestream commits each statement when it
runs, so COMMIT keeps what ran, a ROLLBACK after a write is refused, and the
transaction status byte of ReadyForQuery follows PostgreSQL ('I', 'T', 'E')."""
import psycopg
import pytest
from conftest import Server  # noqa: F401
from psycopg.pq import TransactionStatus as TS


def connect(server, **kw):
    return psycopg.connect(host="127.0.0.1", port=server.port, user="tester", dbname="lake", **kw)


def test_default_mode_reads_and_writes_then_commit(server):
    with connect(server) as con:
        assert con.info.transaction_status == TS.IDLE
        con.execute("CREATE TABLE t (a INT, b VARCHAR)")
        assert con.info.transaction_status == TS.INTRANS  # psycopg sent BEGIN first
        con.execute("INSERT INTO t VALUES (%s, %s)", (1, "one"))
        con.cursor().executemany("INSERT INTO t VALUES (%s, %s)", [(2, "two"), (3, "three")])
        assert con.execute("SELECT count(*) FROM t").fetchone() == (3,)
        con.commit()
        assert con.info.transaction_status == TS.IDLE
    with connect(server) as other:  # a new session sees the committed rows
        assert other.execute("SELECT a FROM t ORDER BY a").fetchall() == [(1,), (2,), (3,)]
        assert other.info.transaction_status == TS.INTRANS
    # Leaving the `with` block committed (psycopg sends COMMIT).


def test_default_mode_error_fails_the_block_until_rollback(server):
    with connect(server) as con:
        con.execute("SELECT 1")
        with pytest.raises(psycopg.errors.UndefinedTable):
            con.execute("SELECT * FROM nosuch")
        assert con.info.transaction_status == TS.INERROR
        for sql in ["SELECT 1", "CREATE TABLE x (a INT)", "DECLARE c CURSOR FOR SELECT 1"]:
            with pytest.raises(psycopg.errors.InFailedSqlTransaction, match="commands ignored until end"):
                con.execute(sql)
            assert con.info.transaction_status == TS.INERROR
        con.rollback()  # nothing was written: an honest ROLLBACK
        assert con.info.transaction_status == TS.IDLE
        assert con.execute("SELECT 2").fetchone() == (2,)
        # An error with an unknown server-side answer (a parser error) fails the block too.
        with pytest.raises(psycopg.errors.SyntaxError):
            con.execute("SELEC 1")
        assert con.info.transaction_status == TS.INERROR
        con.commit()  # COMMIT of a failed block ends it (PostgreSQL answers ROLLBACK)
        assert con.info.transaction_status == TS.IDLE


def test_rollback_after_a_write_is_refused_not_faked(server):
    with connect(server) as con:
        con.execute("CREATE TABLE kept (a INT)")
        con.execute("INSERT INTO kept VALUES (1)")
        with pytest.raises(psycopg.errors.FeatureNotSupported, match="ROLLBACK of statements that wrote"):
            con.rollback()
        assert con.info.transaction_status == TS.IDLE
        assert con.execute("SELECT a FROM kept").fetchall() == [(1,)]  # still there, as the error said
        con.commit()


def test_autocommit_mode_and_explicit_blocks(server):
    with connect(server, autocommit=True) as con:
        con.execute("CREATE TABLE t (a INT)")
        assert con.info.transaction_status == TS.IDLE
        with con.transaction():  # BEGIN ... COMMIT
            con.execute("INSERT INTO t VALUES (1)")
            assert con.info.transaction_status == TS.INTRANS
        assert con.info.transaction_status == TS.IDLE
        with con.transaction():
            # A nested transaction() block would send SAVEPOINT: refused, and the block fails.
            with pytest.raises(psycopg.errors.FeatureNotSupported, match="savepoints"):
                con.execute("SAVEPOINT inner_block")
            assert con.info.transaction_status == TS.INERROR
        assert con.info.transaction_status == TS.IDLE  # the outer block's exit rolled back (nothing written)
        with pytest.raises(psycopg.errors.UndefinedColumn):
            with con.transaction():
                con.execute("SELECT nosuch FROM t")
        assert con.info.transaction_status == TS.IDLE
        assert con.execute("SELECT a FROM t").fetchall() == [(1,)]


def test_rollback_to_savepoint_does_not_end_the_block(server):
    with connect(server, autocommit=True) as con:
        cur = con.cursor()
        cur.execute("BEGIN")
        with pytest.raises(psycopg.errors.FeatureNotSupported, match="savepoints"):
            cur.execute("ROLLBACK TO SAVEPOINT s")
        assert con.info.transaction_status == TS.INERROR
        cur.execute("ROLLBACK")
        assert con.info.transaction_status == TS.IDLE
