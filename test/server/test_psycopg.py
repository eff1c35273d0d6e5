"""psycopg 3 against `lakestream serve`: parameters, types, prepared
statements, errors with SQLSTATEs, transaction status (docs/server.md)."""
import datetime
import decimal
import threading
import time

import psycopg
import pytest
from conftest import Server
from psycopg.pq import TransactionStatus


def connect(server, **kw):
    return psycopg.connect(host="127.0.0.1", port=server.port, user="tester", dbname="lake", **kw)


def test_parameters_and_types_round_trip(server):
    with connect(server, autocommit=True) as con:
        assert con.info.parameter_status("client_encoding") == "UTF8"
        assert con.info.server_version == 160000
        con.execute("CREATE TABLE t (id BIGINT, name VARCHAR, d DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, "
                    "m DECIMAL(10,2), b BOOLEAN, x DOUBLE, i INT)")
        row = (1, "zoë", datetime.date(2024, 1, 2),
               datetime.datetime(2024, 1, 2, 3, 4, 5, 600000, tzinfo=datetime.timezone.utc),
               datetime.datetime(2024, 5, 6, 7, 8, 9), decimal.Decimal("-1234.25"), True, 0.1, -7)
        cur = con.execute("INSERT INTO t VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)", row)
        assert cur.rowcount == 1
        con.execute("INSERT INTO t VALUES (%s, %s, NULL, NULL, NULL, NULL, NULL, NULL, NULL)", (2, None))
        rows = con.execute("SELECT * FROM t ORDER BY id").fetchall()
        assert rows[0] == row
        assert rows[1] == (2,) + (None,) * 8
        assert con.execute("SELECT name FROM t WHERE id = %s", (1,)).fetchone() == ("zoë",)
        assert con.execute("SELECT %s::BIGINT * 2", (21,)).fetchone() == (42,)
        nested = con.execute("SELECT list_value(1, 2) AS l").fetchone()[0]
        assert nested == [1, 2]  # json (OID 114) decoded by psycopg
        cur = con.execute("UPDATE t SET name = %s WHERE id >= %s", ("n", 1))
        assert cur.rowcount == 2
        assert con.execute("DELETE FROM t WHERE id = 2").rowcount == 1


def test_binary_results(server):
    with connect(server, autocommit=True) as con:
        con.execute("CREATE TABLE bt (id BIGINT, i INT, name VARCHAR, d DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, "
                    "m DECIMAL(12,4), z DECIMAL(10,2), b BOOLEAN, x DOUBLE)")
        row = (-5, 7, "zoë", datetime.date(1999, 12, 31),
               datetime.datetime(2024, 1, 2, 3, 4, 5, 600000, tzinfo=datetime.timezone.utc),
               datetime.datetime(1969, 5, 6, 7, 8, 9), decimal.Decimal("-12345678.0125"), decimal.Decimal("0.00"),
               False, -0.25)
        con.execute("INSERT INTO bt VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", row)
        con.execute("INSERT INTO bt VALUES (1, NULL, NULL, NULL, NULL, NULL, 10000, 0.5, NULL, NULL)")
        rows = con.execute("SELECT * FROM bt ORDER BY id", binary=True).fetchall()
        assert rows[0] == row
        assert rows[1] == (1, None, None, None, None, None, decimal.Decimal("10000.0000"), decimal.Decimal("0.50"),
                           None, None)
        assert con.execute("SELECT list_value(1, 2) AS l", binary=True).fetchone() == ([1, 2],)


def test_prepared_statements(server):
    with connect(server, autocommit=True) as con:
        con.execute("CREATE TABLE r AS SELECT * FROM range(5000)")
        cur = con.cursor()
        for i in (3, 4, 3):
            cur.execute("SELECT count(*) FROM r WHERE range < %s", (i,), prepare=True)
            assert cur.fetchone() == (i,)


def test_errors_carry_sqlstate(server):
    with connect(server, autocommit=True) as con:
        with pytest.raises(psycopg.errors.UndefinedTable):
            con.execute("SELECT * FROM nosuch")
        with pytest.raises(psycopg.errors.SyntaxError):
            con.execute("SELEC 1")
        with pytest.raises(psycopg.errors.UndefinedColumn):
            con.execute("SELECT nosuch")
        with pytest.raises(psycopg.errors.FeatureNotSupported, match="SUBSCRIBE in the extended"):
            con.execute("SUBSCRIBE TO orders", prepare=True)  # prepare: the extended protocol
        with pytest.raises(psycopg.errors.FeatureNotSupported, match="SCROLL cursors"):
            con.execute("DECLARE c SCROLL CURSOR WITH HOLD FOR SELECT 1")
        # The session goes on after errors.
        assert con.execute("SELECT 1 + 1").fetchone() == (2,)


def test_transaction_status(server):
    with connect(server) as con:  # not autocommit: psycopg sends BEGIN
        assert con.info.transaction_status == TransactionStatus.IDLE
        con.execute("SELECT 1")
        assert con.info.transaction_status == TransactionStatus.INTRANS
        with pytest.raises(psycopg.errors.UndefinedColumn):
            con.execute("SELECT nosuch")
        assert con.info.transaction_status == TransactionStatus.INERROR
        with pytest.raises(psycopg.errors.InFailedSqlTransaction):
            con.execute("SELECT 1")
        con.rollback()
        assert con.info.transaction_status == TransactionStatus.IDLE
        # Writes commit when they run: a ROLLBACK after one is refused, not faked.
        con.execute("CREATE TABLE w (a INT)")
        with pytest.raises(psycopg.errors.FeatureNotSupported, match="ROLLBACK"):
            con.rollback()
        assert con.info.transaction_status == TransactionStatus.IDLE


def test_settings_and_version(server):
    with connect(server, autocommit=True) as con:
        con.execute("SET application_name = 'bi'")
        assert con.info.parameter_status("application_name") == "bi"  # ParameterStatus after SET
        con.execute("SET extra_float_digits = 3")
        assert con.execute("SHOW application_name").fetchone() == ("bi",)
        assert "lakestream" in con.execute("SELECT version()").fetchone()[0]
        with pytest.raises(psycopg.errors.FeatureNotSupported):
            con.execute("SET client_encoding = 'LATIN1'")


def test_cancel_interrupts_running_query(server):
    with connect(server, autocommit=True) as con:
        threading.Timer(0.5, con.cancel).start()
        start = time.time()
        with pytest.raises(psycopg.errors.QueryCanceled):
            con.execute("SELECT count(*) FROM range(100000000000)")
        assert time.time() - start < 10
        assert con.execute("SELECT 1").fetchone() == (1,)


def test_password_and_readonly(tmp_path):
    pw = tmp_path / "passwords"
    pw.write_text("# user:password\nalice:s3cret\n")
    s = Server(tmp_path, "--password-file", str(pw))
    try:
        with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
            psycopg.connect(host="127.0.0.1", port=s.port, user="alice", password="wrong", dbname="x")
        with psycopg.connect(host="127.0.0.1", port=s.port, user="alice", password="s3cret", dbname="x",
                             autocommit=True) as con:
            con.execute("CREATE TABLE kept (a INT)")
            con.execute("INSERT INTO kept VALUES (1)")
    finally:
        s.stop()
    # The same database read-only: reads work, writes fail with 25006.
    ro = Server(tmp_path, "--readonly")
    try:
        with psycopg.connect(host="127.0.0.1", port=ro.port, user="bob", dbname="x", autocommit=True) as con:
            assert con.execute("SELECT a FROM kept").fetchall() == [(1,)]
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                con.execute("INSERT INTO kept VALUES (2)")
    finally:
        ro.stop()


def test_sessions_are_independent(server):
    with connect(server, autocommit=True) as a, connect(server, autocommit=True) as b:
        a.execute("CREATE TABLE shared (v INT)")
        b.execute("INSERT INTO shared VALUES (1), (2)")
        a.execute("SET application_name = 'a'")
        assert a.execute("SELECT sum(v) FROM shared").fetchone() == (3,)
        assert b.execute("SHOW application_name").fetchone() == ("",)
        assert a.info.backend_pid != b.info.backend_pid
        cur = b.execute("CREATE MATERIALIZED VIEW mv AS SELECT count(*) AS n FROM shared")
        assert cur.statusmessage == "CREATE MATERIALIZED VIEW"


def test_subscribe_streams_committed_changes_until_cancel(server):
    with connect(server, autocommit=True) as con, connect(server, autocommit=True) as writer:
        con.execute("CREATE TABLE s (a INT, b VARCHAR) TBLPROPERTIES (delta.enableChangeDataFeed = true)")
        con.execute("INSERT INTO s VALUES (1, 'before')")  # committed before SUBSCRIBE: not sent

        def write_then_cancel():
            time.sleep(0.4)
            writer.execute("INSERT INTO s VALUES (2, 'new'), (3, NULL)")
            writer.execute("UPDATE s SET b = 'x' WHERE a = 1")
            time.sleep(0.6)
            con.cancel()

        threading.Thread(target=write_then_cancel).start()
        got = []
        with pytest.raises(psycopg.errors.QueryCanceled):
            with con.cursor().copy("SUBSCRIBE TO s") as copy:
                for row in copy.rows():
                    got.append(row[:4])
        assert got == [("2", "new", "insert", "2"), ("3", None, "insert", "2"),
                       ("1", "before", "update_preimage", "3"), ("1", "x", "update_postimage", "3")]
        # From a version: the history again, then the session ends it by cancel.
        threading.Timer(0.5, con.cancel).start()
        got = []
        with pytest.raises(psycopg.errors.QueryCanceled):
            with con.cursor().copy("SUBSCRIBE s FROM VERSION 1") as copy:
                for row in copy.rows():
                    got.append(row[:3])
        assert got[0] == ("1", "before", "insert") and len(got) == 5
        assert con.execute("SELECT count(*) FROM s").fetchone() == (3,)
        with pytest.raises(psycopg.errors.UndefinedTable):
            with con.cursor().copy("SUBSCRIBE nosuch") as copy:
                list(copy.rows())


def subscribe_rows(con, sql, width, cancel_after=0.8, during=None):
    """The rows a SUBSCRIBE sends until it is cancelled after `cancel_after` s (`during` runs meanwhile)."""
    def act():
        if during:
            time.sleep(0.3)
            during()
        time.sleep(cancel_after)
        con.cancel()
    threading.Thread(target=act).start()
    got = []
    with pytest.raises(psycopg.errors.QueryCanceled):
        with con.cursor().copy(sql) as copy:
            for row in copy.rows():
                got.append(row[:width])
    return got


def test_subscribe_to_streams_and_materialized_views(server):
    with connect(server, autocommit=True) as con, connect(server, autocommit=True) as writer:
        con.execute("CREATE TABLE src (id INT, g VARCHAR) TBLPROPERTIES (delta.enableChangeDataFeed = true)")
        con.execute("CREATE STREAM all_changes ON TABLE src")
        con.execute("CREATE STREAM appends ON TABLE src APPEND_ONLY = TRUE")
        con.execute("CREATE MATERIALIZED VIEW per_g AS SELECT g, count(*) AS n FROM src GROUP BY g")
        con.execute("INSERT INTO src VALUES (1, 'a'), (2, 'b')")  # pending in both streams
        con.execute("DELETE FROM src WHERE id = 2")
        # A stream: its pending changes from its offset, change by change, then new ones; nothing consumed.
        got = subscribe_rows(con, "SUBSCRIBE TO all_changes", 3,
                             during=lambda: writer.execute("INSERT INTO src VALUES (3, 'a')"))
        assert sorted(got) == sorted([("1", "a", "insert"), ("2", "b", "insert"), ("2", "b", "delete"),
                                      ("3", "a", "insert")])
        assert con.execute("SELECT count(*) FROM all_changes").fetchone()[0] > 0  # still pending
        # An APPEND_ONLY stream sends inserts only.
        got = subscribe_rows(con, "SUBSCRIBE appends", 3, cancel_after=0.5)
        assert sorted(got) == [("1", "a", "insert"), ("2", "b", "insert"), ("3", "a", "insert")]
        # A materialized view's own minimal changes as they commit.
        got = subscribe_rows(con, "SUBSCRIBE per_g", 3,
                             during=lambda: writer.execute("INSERT INTO src VALUES (4, 'a')"))
        assert got == [("a", "2", "update_preimage"), ("a", "3", "update_postimage")]
        with pytest.raises(psycopg.errors.SyntaxError, match="starts at the stream's offset"):
            with con.cursor().copy("SUBSCRIBE all_changes FROM VERSION 1") as copy:
                list(copy.rows())


def test_information_schema_lists_every_schema(server):
    """BI tools list tables through information_schema: every schema (main
    as public), filtered by the client's own parameters."""
    with connect(server, autocommit=True) as con:
        con.execute("CREATE TABLE top (id INT)")
        con.execute("CREATE SCHEMA deal_stream_test")
        con.execute("CREATE TABLE deal_stream_test.deal_gold1 (deal_id BIGINT, total DOUBLE)")
        schemas = con.execute("SELECT schema_name FROM information_schema.schemata ORDER BY 1").fetchall()
        assert schemas == [("deal_stream_test",), ("public",)]
        tables = con.execute("SELECT table_schema, table_name FROM information_schema.tables "
                             "WHERE table_type = %s ORDER BY 1, 2", ("BASE TABLE",)).fetchall()
        assert tables == [("deal_stream_test", "deal_gold1"), ("public", "top")]
        columns = con.execute("SELECT column_name, data_type FROM information_schema.columns "
                              "WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position",
                              ("deal_stream_test", "deal_gold1")).fetchall()
        assert columns == [("deal_id", "bigint"), ("total", "double precision")]


def test_scram_login_and_read_only_users(tmp_path):
    import socket
    import struct
    import subprocess

    from conftest import SHELL
    verifier = subprocess.run([SHELL, "serve", "--scram-verifier"], input="r3ader\n", capture_output=True, text=True,
                              check=True).stdout.strip()
    assert verifier.startswith("SCRAM-SHA-256$4096:")
    pw = tmp_path / "passwords"
    pw.write_text(f"writer:wr1ter\nreader:{verifier}\n")
    pw.chmod(0o600)
    s = Server(tmp_path, "--password-file", str(pw), "--readonly-user", "reader")
    try:
        # The server asks for SCRAM-SHA-256 (AuthenticationSASL, 10): no password crosses the wire.
        with socket.create_connection(("127.0.0.1", s.port)) as raw:
            body = struct.pack("!i", 196608) + b"user\0writer\0database\0x\0\0"
            raw.sendall(struct.pack("!i", len(body) + 4) + body)
            head = raw.recv(9)
            assert head[:1] == b"R" and struct.unpack("!i", head[5:9])[0] == 10
        def login(user, password):
            return psycopg.connect(host="127.0.0.1", port=s.port, user=user, password=password, dbname="x",
                                   autocommit=True)
        with login("writer", "wr1ter") as con:
            con.execute("CREATE TABLE kept (a INT)")
            con.execute("INSERT INTO kept VALUES (1)")
        with login("reader", "r3ader") as con:
            assert con.execute("SELECT a FROM kept").fetchall() == [(1,)]
            assert con.execute("SHOW transaction_read_only").fetchone() == ("on",)
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                con.execute("INSERT INTO kept VALUES (2)")
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                con.execute("DROP TABLE kept")
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                with con.cursor().copy("COPY kept FROM STDIN") as copy:
                    copy.write("2\n")
            with login("writer", "wr1ter") as writer:
                writer.execute("INSERT INTO kept VALUES (3)")
            # The reader's session sees the writer's later commits.
            assert con.execute("SELECT a FROM kept ORDER BY a").fetchall() == [(1,), (3,)]
        for user, password in [("reader", "wr1ter"), ("writer", "r3ader"), ("nobody", "r3ader")]:
            with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
                login(user, password)
    finally:
        s.stop()
