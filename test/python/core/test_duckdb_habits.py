"""DuckDB's Python habits (issue 31): module-level sql/execute/table on a
default in-memory connection, and read_parquet/read_csv/read_json on a
connection and on the module, each keyword honoured or refused by name."""
import pytest

import lakestream


def test_module_level_sql_uses_one_default_in_memory_connection():
    assert lakestream.sql("SELECT 40 + 2 AS answer").fetchall() == [(42,)]
    lakestream.execute("CREATE TABLE habits (a INT)")
    lakestream.execute("INSERT INTO habits VALUES (?), (?)", [1, 2])
    assert lakestream.table("habits").fetchall() == [(1,), (2,)]
    assert lakestream.default_connection() is lakestream.default_connection()
    assert lakestream.sql("SELECT count(*) FROM habits").fetchall() == [(2,)]
    # A connection of its own does not see the default one's tables.
    with pytest.raises(lakestream.CatalogException):
        lakestream.connect().sql("SELECT * FROM habits")


def test_read_csv_with_header_and_separator(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("id;name\n1;books\n2;games\n")
    con = lakestream.connect()
    rel = con.read_csv(str(path), header=True, sep=";")
    assert rel.columns == ["id", "name"]
    assert rel.fetchall() == [(1, "books"), (2, "games")]
    assert lakestream.read_csv(path, header=False, delimiter=";").fetchall()[0] == ("id", "name")
    # As DuckDB: without header= and sep= both are sniffed from the file.
    sniffed = con.read_csv(str(path))
    assert sniffed.columns == ["id", "name"]
    assert sniffed.fetchall() == [(1, "books"), (2, "games")]
    assert lakestream.read_csv(path, header=False, delimiter=";").columns == ["column0", "column1"]
    with pytest.raises(lakestream.NotSupportedError, match=r"read_csv\(dtype=...\) is not supported yet; read_csv takes header"):
        con.read_csv(str(path), dtype={"id": "INT"})
    with pytest.raises(lakestream.ProgrammingError, match="one character"):
        con.read_csv(str(path), sep=";;")
    with pytest.raises(lakestream.ProgrammingError, match="give the separator once"):
        con.read_csv(str(path), sep=";", delim=",")


def test_read_parquet_and_json(tmp_path):
    con = lakestream.connect()
    con.execute(f"COPY (SELECT range AS id FROM range(3)) TO '{tmp_path / 'a.parquet'}'")
    con.execute(f"COPY (SELECT 10 + range AS id FROM range(2)) TO '{tmp_path / 'b.parquet'}'")
    assert sorted(con.read_parquet(str(tmp_path / "a.parquet")).fetchall()) == [(0,), (1,), (2,)]
    both = con.read_parquet([str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet")])
    assert sorted(r[0] for r in both.fetchall()) == [0, 1, 2, 10, 11]
    assert lakestream.read_parquet(str(tmp_path / "*.parquet")).fetchall().__len__() == 5
    (tmp_path / "e.json").write_text('{"k": "a", "v": 1}\n{"k": "b", "v": 2}\n')
    assert sorted(con.read_json(str(tmp_path / "e.json")).fetchall()) == [("a", 1), ("b", 2)]
    with pytest.raises(lakestream.ProgrammingError, match="the list of paths is empty"):
        con.read_parquet([])


def test_from_df_copies_a_small_pandas_frame():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"k": ["a", "b", None], "v": [1.5, float("nan"), 3.0], "n": [1, 2, 3],
                          "ts": pd.to_datetime(["2024-01-31 10:00", None, "2024-02-01"])})
    rel = lakestream.connect().from_df(frame)
    assert rel.columns == ["k", "v", "n", "ts"]
    got = rel.fetchall()
    assert [r[:3] for r in got] == [("a", 1.5, 1), ("b", None, 2), (None, 3.0, 3)]
    assert got[1][3] is None and got[0][3].year == 2024
    assert lakestream.from_df(frame).fetchall()[2][2] == 3
    # The columns' types come from the dtypes, so a frame without rows has them too.
    empty = lakestream.from_df(frame.iloc[0:0])
    assert empty.fetchall() == [] and empty.types == ["VARCHAR", "DOUBLE", "BIGINT", "TIMESTAMP"]
    with pytest.raises(lakestream.ProgrammingError, match="a pandas DataFrame"):
        lakestream.from_df([1, 2])
