"""COPY ... FROM STDIN and COPY ... TO STDOUT through psycopg 3's copy API
against `lakestream serve` (docs/server.md): text and CSV formats, NULLs and
escapes, all-or-nothing loads, errors naming the line and column."""
import datetime
import decimal

import psycopg
import pytest
from conftest import Server


def connect(server, **kw):
    return psycopg.connect(host="127.0.0.1", port=server.port, user="tester", dbname="lake", **kw)


AWKWARD = ["plain", "tab\there", "new\nline", "back\\slash", "", "comma, \"quoted\"", "\\N", "ünï"]


def test_write_rows_round_trip_every_awkward_string(server):
    with connect(server, autocommit=True) as con:
        con.execute("CREATE TABLE t (id BIGINT, s VARCHAR, ok BOOLEAN, d DATE, m DECIMAL(10,2), x DOUBLE)")
        rows = [(i, s, i % 2 == 0, datetime.date(2024, 1, 1 + i), decimal.Decimal(i) / 4, i * 0.5)
                for i, s in enumerate(AWKWARD)]
        rows.append((99, None, None, None, None, None))
        with con.cursor() as cur:
            with cur.copy("COPY t (id, s, ok, d, m, x) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            assert cur.rowcount == len(rows)
        got = con.execute("SELECT id, s, ok, d, m, x FROM t ORDER BY id").fetchall()
        assert got == [(i, s, ok, d, decimal.Decimal(m).quantize(decimal.Decimal("0.01")) if m is not None else None, x)
                       for i, s, ok, d, m, x in rows]


def test_csv_with_header_quotes_and_nulls(server):
    data = 'id,name\n1,"a,b"\n2,\n3,""\n4,"multi\nline ""q"""\n'
    with connect(server, autocommit=True) as con:
        con.execute("CREATE TABLE c (id INTEGER, name VARCHAR)")
        with con.cursor() as cur:
            with cur.copy("COPY c FROM STDIN WITH (FORMAT csv, HEADER true)") as copy:
                copy.write(data)
        assert con.execute("SELECT id, name FROM c ORDER BY id").fetchall() == [
            (1, "a,b"), (2, None), (3, ""), (4, 'multi\nline "q"')]
        # The same rows back out as CSV with a header: what went in comes out.
        with con.cursor() as cur:
            with cur.copy("COPY (SELECT id, name FROM c ORDER BY id) TO STDOUT (FORMAT csv, HEADER)") as copy:
                out = b"".join(bytes(chunk) for chunk in copy).decode()
        assert out == data


def test_legacy_options_and_other_delimiter(server):
    with connect(server, autocommit=True) as con:
        con.execute("CREATE TABLE p (a INTEGER, b VARCHAR)")
        with con.cursor() as cur:
            with cur.copy("COPY p FROM STDIN DELIMITER '|' NULL 'nil' CSV") as copy:
                copy.write("1|x\n2|nil\n3|'y'\n")
        assert con.execute("SELECT a, b FROM p ORDER BY a").fetchall() == [(1, "x"), (2, None), (3, "'y'")]
        with con.cursor() as cur:
            with cur.copy("COPY p (b, a) TO STDOUT WITH DELIMITER ';' NULL 'nil'") as copy:
                lines = sorted(bytes(chunk).decode() for chunk in copy)
        assert lines == ["'y';3\n", "nil;2\n", "x;1\n"]


def test_a_bad_value_loads_nothing_and_names_line_and_column(server):
    with connect(server, autocommit=True) as con:
        con.execute("CREATE TABLE n (id BIGINT, d DATE)")
        with pytest.raises(psycopg.errors.InvalidTextRepresentation, match=r"line 3, column d: 'tomorrow'"):
            with con.cursor() as cur:
                with cur.copy("COPY n FROM STDIN") as copy:
                    copy.write("1\t2024-01-01\n2\t2024-01-02\n3\ttomorrow\n")
        with pytest.raises(psycopg.errors.BadCopyFileFormat, match=r"line 2: extra data"):
            with con.cursor() as cur:
                with cur.copy("COPY n FROM STDIN") as copy:
                    copy.write("1\t2024-01-01\n2\t2024-01-02\textra\n")
        assert con.execute("SELECT count(*) FROM n").fetchone() == (0,)


def test_client_failure_loads_nothing_and_the_session_goes_on(server):
    with connect(server, autocommit=True) as con:
        con.execute("CREATE TABLE f (id BIGINT)")
        with pytest.raises(psycopg.errors.QueryCanceled, match="nothing loaded"):
            with con.cursor() as cur:
                with cur.copy("COPY f FROM STDIN") as copy:
                    copy.write_row((1,))
                    raise RuntimeError("the producer broke")  # psycopg sends CopyFail
        assert con.execute("SELECT count(*) FROM f").fetchone() == (0,)


def test_copy_in_a_transaction_block_is_a_write_like_insert(server):
    # lakestream commits each statement when it runs (docs/server.md): COPY
    # is one INSERT, so a ROLLBACK after it is refused as after an INSERT.
    with connect(server) as con:
        con.execute("CREATE TABLE r (id BIGINT)")
        con.commit()
        with con.cursor() as cur:
            with cur.copy("COPY r FROM STDIN") as copy:
                copy.write("1\n2\n")
        assert con.execute("SELECT count(*) FROM r").fetchone() == (2,)
        with pytest.raises(psycopg.errors.FeatureNotSupported, match="ROLLBACK of statements that wrote"):
            con.execute("ROLLBACK")


def test_refusals_come_before_any_data(server):
    with connect(server, autocommit=True) as con:
        with pytest.raises(psycopg.errors.UndefinedTable):
            with con.cursor() as cur:
                with cur.copy("COPY nosuch FROM STDIN") as copy:
                    copy.write("1\n")
        con.execute("CREATE TABLE b (id BIGINT)")
        with pytest.raises(psycopg.errors.FeatureNotSupported, match="FORMAT binary"):
            with con.cursor() as cur:
                with cur.copy("COPY b FROM STDIN (FORMAT binary)") as copy:
                    copy.write(b"")
        with pytest.raises(psycopg.errors.InvalidParameterValue, match="only in CSV mode"):
            with con.cursor() as cur:
                with cur.copy("COPY b FROM STDIN (QUOTE '\"')") as copy:
                    copy.write("1\n")


def test_readonly_server_refuses_copy_in(tmp_path):
    s = Server(tmp_path)
    try:
        with connect(s, autocommit=True) as con:
            con.execute("CREATE TABLE b (id BIGINT)")
    finally:
        s.stop()
    ro = Server(tmp_path, "--readonly")
    try:
        with connect(ro, autocommit=True) as con:
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction, match="read-only"):
                with con.cursor() as cur:
                    with cur.copy("COPY b FROM STDIN") as copy:
                        copy.write("1\n")
            assert con.execute("SELECT count(*) FROM b").fetchone() == (0,)
    finally:
        ro.stop()


def test_rows_land_in_the_input_order(server):
    ids = [(i * 7919) % 20011 for i in range(20011)]  # a permutation, so no sort can pass for the input order
    with connect(server, autocommit=True) as con:
        con.execute("CREATE TABLE o (id BIGINT)")
        with con.cursor() as cur:
            with cur.copy("COPY o FROM STDIN") as copy:
                copy.write("".join(f"{i}\n" for i in ids))
        con.execute("SET threads = 1")
        assert [row[0] for row in con.execute("SELECT id FROM o").fetchall()] == ids
