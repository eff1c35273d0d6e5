"""Engine warnings with a successful statement reach Python's warnings
module (RuntimeWarning), attributed to the caller's line."""
import warnings

import pytest

import lakestream


def test_failed_view_refresh_warns_and_the_statement_succeeds(tmp_path):
    con = lakestream.connect(str(tmp_path / "lake"))  # materialized views live in a database directory
    con.execute("CREATE TABLE t (s VARCHAR)")
    con.execute("CREATE MATERIALIZED VIEW v AS SELECT CAST(s AS INTEGER) AS x FROM t")
    # The view refreshes in the background after DML (docs/views.md): the
    # INSERT succeeds; the failure shows on reads of the view.
    con.execute("INSERT INTO t VALUES ('abc')")
    assert con.rowcount == 1
    with pytest.warns(RuntimeWarning, match="v is behind its source t") as record:
        rel = con.sql("SELECT * FROM v")
    assert record[0].filename == __file__
    assert rel.fetchall() == []


def test_no_warning_for_ordinary_statements(con):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        con.execute("CREATE TABLE t (a INTEGER)")
        con.sql("SELECT * FROM t").fetchall()
