"""connect(config={'enable_external_access': False, 'allowed_directories': [...],
'allowed_paths': [...]}) (docs/security.md): the settings apply to the database,
in the order that makes them valid, and unknown keys are refused."""
import pytest

import lakestream


def write_parquet(con, path):
    con.execute(f"COPY (SELECT 1 AS x) TO '{path}'")


def test_config_limits_reads_to_allowed_places(tmp_path):
    allowed, other = tmp_path / "allowed", tmp_path / "other"
    allowed.mkdir()
    other.mkdir()
    setup = lakestream.connect()
    write_parquet(setup, allowed / "a.parquet")
    write_parquet(setup, other / "b.parquet")
    write_parquet(setup, tmp_path / "one.parquet")
    setup.close()

    con = lakestream.connect(config={"enable_external_access": False, "allowed_directories": [str(allowed)],
                                     "allowed_paths": [tmp_path / "one.parquet"]})
    assert con.execute(f"SELECT x FROM read_parquet('{allowed / 'a.parquet'}')").fetchall() == [(1,)]
    assert con.execute(f"SELECT x FROM read_parquet('{tmp_path / 'one.parquet'}')").fetchall() == [(1,)]
    with pytest.raises(lakestream.Error, match="Permission Error: read_parquet cannot read .*b.parquet"):
        con.execute(f"SELECT x FROM read_parquet('{other / 'b.parquet'}')")
    with pytest.raises(lakestream.Error, match="cannot be turned back on"):
        con.execute("SET enable_external_access = true")
    rows = dict((n, v) for n, v, _ in con.execute("SELECT * FROM lakestream_settings()").fetchall())
    assert rows["enable_external_access"] == "false"
    assert str(allowed) in rows["allowed_directories"]


def test_config_rejects_unknown_keys_and_bad_values():
    with pytest.raises(lakestream.NotSupportedError, match="unknown setting 'max_widgets'"):
        lakestream.connect(config={"max_widgets": "1GB"})
    with pytest.raises(lakestream.InterfaceError, match="must be True or False"):
        lakestream.connect(config={"enable_external_access": "no"})
