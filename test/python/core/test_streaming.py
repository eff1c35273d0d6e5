"""Connection.sql() of a SELECT streams (Connection::SendQuery): df() and
fetchnumpy() copy each chunk into the arrays as it arrives. The Relation
still behaves as a materialized result: every method sees every row, late
errors raise where the rows are read, and other statements never wait on
or break an unread Relation."""
import threading
import time

import pytest

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")

import lakestream  # noqa: E402

N = 10000  # five chunks of 2048 rows


@pytest.fixture
def numbers(con):
    # NULLs only from row 7000 on: the mask starts after several chunks without one.
    con.execute("CREATE TABLE n (i BIGINT, k INTEGER, d DOUBLE, b BOOLEAN, m DECIMAL(10,2), dt DATE)")
    con.execute(f"""INSERT INTO n SELECT range,
        CASE WHEN range >= 7000 AND range % 5 = 0 THEN NULL ELSE CAST(range % 1000 AS INTEGER) END,
        CASE WHEN range >= 7000 AND range % 7 = 0 THEN NULL ELSE range / 4.0 END,
        CASE WHEN range >= 9000 AND range % 3 = 0 THEN NULL ELSE range % 2 = 0 END,
        CAST(range AS DECIMAL(10,2)) / 8,
        CAST('2024-01-01' AS DATE) + CAST(range % 400 AS INTEGER)
        FROM range({N})""")
    return con


def expected_rows(con):
    # The materialized path (execute) is the reference.
    return con.execute("SELECT * FROM n ORDER BY i").fetchall()


def test_df_of_a_stream_equals_the_rows(numbers):
    rows = expected_rows(numbers)
    df = numbers.sql("SELECT * FROM n ORDER BY i").df()
    assert len(df) == N
    assert [str(t) for t in df.dtypes] == ["int64", "Int32", "float64", "boolean", "float64", "datetime64[ns]"]
    for r in (0, 2047, 2048, 6999, 7000, 7007, 9000, 9999):
        i, k, d, b, m, dt = rows[r]
        assert df["i"][r] == i
        assert (pd.isna(df["k"][r]) and k is None) or df["k"][r] == k
        assert (np.isnan(df["d"][r]) and d is None) or df["d"][r] == d
        assert (pd.isna(df["b"][r]) and b is None) or bool(df["b"][r]) == b
        assert df["m"][r] == float(m)
        assert df["dt"][r] == pd.Timestamp(dt)
    assert int(df["k"].isna().sum()) == sum(1 for r in rows if r[1] is None) > 0
    assert int(df["d"].isna().sum()) == sum(1 for r in rows if r[2] is None) > 0
    assert int(df["b"].isna().sum()) == sum(1 for r in rows if r[3] is None) > 0


def test_fetchnumpy_of_a_stream_masks_late_nulls(numbers):
    cols = numbers.sql("SELECT i, k FROM n ORDER BY i").fetchnumpy()
    assert cols["i"].dtype == np.int64 and cols["i"].tolist() == list(range(N))
    k = cols["k"]
    assert isinstance(k, np.ma.MaskedArray) and k.dtype == np.int32
    assert not k.mask[:7000].any()
    assert k.mask.tolist() == [r >= 7000 and r % 5 == 0 for r in range(N)]


def test_a_streamed_relation_can_be_read_again(numbers):
    rel = numbers.sql("SELECT i, d FROM n")
    first = rel.df()
    second = rel.df()
    assert first.equals(second) and len(first) == N
    assert len(rel) == N
    assert len(rel.fetchall()) == N
    assert rel.fetchnumpy()["i"].sum() == sum(range(N))
    # Arrays of one df() are their own memory.
    first.loc[0, "i"] = -1
    assert second["i"][0] != -1


def test_empty_and_tiny_streams(con):
    con.execute("CREATE TABLE e (a BIGINT, b DOUBLE)")
    df = con.sql("SELECT * FROM e").df()
    assert len(df) == 0 and list(df.columns) == ["a", "b"]
    assert [str(t) for t in df.dtypes] == ["int64", "float64"]
    assert con.sql("SELECT 7 AS x").fetchnumpy()["x"].tolist() == [7]


def test_error_in_a_late_row_raises_where_rows_are_read(numbers):
    rel = numbers.sql("SELECT CAST(CASE WHEN i = 9000 THEN 'x' ELSE CAST(i AS VARCHAR) END AS BIGINT) AS v FROM n")
    with pytest.raises(lakestream.ConversionException):
        rel.df()
    with pytest.raises(lakestream.ConversionException):  # and again: the rows are incomplete
        len(rel)
    assert numbers.execute("SELECT count(*) FROM n").fetchall() == [(N,)]


def test_other_statements_finish_an_unread_stream(numbers):
    rel = numbers.sql("SELECT i FROM n")
    # The same connection, then another connection of the database: neither
    # waits on the stream nor breaks it; the Relation keeps the rows it had.
    numbers.execute("INSERT INTO n (i) VALUES (-1)")
    other = numbers.cursor()
    other.execute("INSERT INTO n (i) VALUES (-2)")
    assert len(rel.df()) == N
    rel2 = numbers.sql("SELECT i FROM n")
    other.execute("DELETE FROM n WHERE i < 0")
    assert sorted(rel2.fetchnumpy()["i"].tolist())[:2] == [-2, -1]
    rel3 = numbers.sql("SELECT i FROM n")
    numbers.close()
    assert len(rel3.df()) == N


def test_interrupt_while_df_pulls(con):
    # The first chunk comes at once (sql() returns), then a count that runs for hours.
    rel = con.sql("SELECT range AS x FROM range(5000) UNION ALL "
                  "SELECT count(*) FROM range(1000000) a, range(1000000) b")
    outcome = {}

    def target():
        try:
            outcome["df"] = rel.df()
        except BaseException as e:  # checked below
            outcome["error"] = e

    t = threading.Thread(target=target, daemon=True)
    t.start()
    time.sleep(0.3)
    assert t.is_alive(), "df() finished before it could be interrupted"
    con.interrupt()
    t.join(10)
    assert not t.is_alive(), "interrupt did not stop df() within 10 s"
    assert isinstance(outcome.get("error"), lakestream.InterruptException)
    assert con.sql("SELECT 1 AS one").fetchall() == [(1,)]
