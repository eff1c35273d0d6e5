"""TIMESTAMP_NTZ and the session time zone from Python (docs/sql-time.md, "Python"):
both timestamp types come back naive; TIMESTAMP as its UTC wall clock whatever
the session zone, TIMESTAMP_NTZ as its own wall clock."""
import datetime

import pytest

import lakestream


@pytest.fixture
def ntz(con):
    con.execute("CREATE TABLE t (w TIMESTAMP_NTZ, ts TIMESTAMP)")
    con.execute("SET TIME ZONE 'America/New_York'")
    # The same text: a wall clock for w, an instant read in New York (17:00 UTC) for ts.
    con.execute("INSERT INTO t VALUES (TIMESTAMP_NTZ '2024-01-15 12:00:00.000001', TIMESTAMP '2024-01-15 12:00:00'), "
                "(NULL, NULL)")
    return con


def test_fetchall_gives_naive_datetimes(ntz):
    rows = ntz.execute("SELECT w, ts FROM t ORDER BY w NULLS LAST").fetchall()
    assert rows[0] == (datetime.datetime(2024, 1, 15, 12, 0, 0, 1), datetime.datetime(2024, 1, 15, 17, 0))
    assert rows[0][0].tzinfo is None and rows[0][1].tzinfo is None
    assert rows[1] == (None, None)


def test_session_zone_shows_in_text_not_in_values(ntz):
    # CAST to text follows the session zone for TIMESTAMP only.
    assert ntz.execute("SELECT CAST(w AS VARCHAR), CAST(ts AS VARCHAR), current_timezone() FROM t "
                       "WHERE w IS NOT NULL").fetchall() == [
        ("2024-01-15 12:00:00.000001", "2024-01-15 12:00:00", "America/New_York")]
    ntz.execute("SET TIME ZONE 'UTC'")
    assert ntz.execute("SELECT CAST(ts AS VARCHAR) FROM t WHERE w IS NOT NULL").fetchall() == [("2024-01-15 17:00:00",)]


def test_fetchnumpy_and_df_are_naive(ntz):
    np = pytest.importorskip("numpy")
    cols = ntz.sql("SELECT w, ts FROM t ORDER BY w NULLS LAST").fetchnumpy()
    assert cols["w"].dtype == np.dtype("datetime64[us]")
    assert cols["w"][0] == np.datetime64("2024-01-15T12:00:00.000001")
    assert cols["ts"][0] == np.datetime64("2024-01-15T17:00:00")
    pd = pytest.importorskip("pandas")
    df = ntz.sql("SELECT w, ts FROM t ORDER BY w NULLS LAST").df()
    assert str(df["w"].dtype) == "datetime64[ns]" and str(df["ts"].dtype) == "datetime64[ns]"
    assert df["w"][0] == pd.Timestamp("2024-01-15 12:00:00.000001")
    assert pd.isna(df["w"][1])


def test_description_names_the_types(ntz):
    cur = ntz.execute("SELECT w, ts FROM t")
    assert "TIMESTAMP_NTZ" in str(cur.description[0][1]).upper()


def test_unknown_zone_is_an_error_naming_it(con):
    with pytest.raises(lakestream.Error, match="unknown time zone 'Atlantis/Capital'"):
        con.execute("SET TIME ZONE 'Atlantis/Capital'")
