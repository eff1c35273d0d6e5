"""connect(config={'memory_limit': ..., 'temp_directory': ...}) (docs/memory.md):
the settings reach the database, a GROUP BY over the limit spills to the
temp directory and gives the unlimited answer, the folder is empty after;
bad values are refused naming the setting."""
import os

import pytest

import lakestream


def setting(con, name):
    return con.execute(f"SELECT value FROM lakestream_settings() WHERE name = '{name}'").fetchall()[0][0]


def test_config_memory_limit_spills_to_the_temp_directory(tmp_path):
    spill = tmp_path / "spill"
    con = lakestream.connect(config={"memory_limit": "2MB", "temp_directory": spill})
    assert setting(con, "memory_limit") == "1.9 MiB"
    assert setting(con, "temp_directory") == str(spill)
    query = "SELECT count(*), sum(c), sum(s) FROM (SELECT range % 200000 AS g, count(*) AS c, sum(range) AS s FROM range(0, 1000000) GROUP BY g)"
    plan = con.execute("EXPLAIN ANALYZE " + query).fetchall()[0][0]
    assert "spilled" in plan
    assert con.execute(query).fetchall() == [(200000, 1000000, 999999 * 1000000 // 2)]
    assert os.listdir(spill) == []
    con.execute("RESET memory_limit")
    assert "spilled" not in con.execute("EXPLAIN ANALYZE " + query).fetchall()[0][0]
    con.close()


def test_config_memory_limit_rejects_bad_values():
    with pytest.raises(lakestream.InterfaceError, match="memory_limit must be a str"):
        lakestream.connect(config={"memory_limit": 2000000})
    with pytest.raises(lakestream.Error, match=r"SET memory_limit = 'lots': expected a size with a unit, e.g. '2GB'"):
        lakestream.connect(config={"memory_limit": "lots"})
