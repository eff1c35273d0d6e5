"""save_as_table modes, Table.update/delete/merge on plain tables."""

import pytest

import lakestream

from conftest import rows
from lakestream.zettapark import functions as F


@pytest.fixture
def src(session):
    return session.create_dataframe([(1, "a"), (2, "b")], schema=["id", "v"])


def test_append_creates_then_appends(session, src):
    src.write.save_as_table("w", mode="append")  # missing table: created, as in Snowpark
    src.filter(F.col("id") == 1).write.save_as_table("w", mode="append")
    assert rows(session.table("w")) == [(1, "a"), (1, "a"), (2, "b")]


def test_append_by_position_and_by_name(session, src):
    session.sql("CREATE TABLE w2 (v VARCHAR, id INT)").collect()
    src.select("v", "id").write.save_as_table("w2", mode="append")  # column_order index (default)
    src.write.save_as_table("w2", mode="append", column_order="name")  # id, v matched by name
    assert rows(session.table("w2")) == [("a", 1), ("a", 1), ("b", 2), ("b", 2)]


def test_overwrite_keeps_the_table_when_columns_match(session, src):
    session.sql("CREATE TABLE w3 (id INT, v VARCHAR)").collect()
    session.sql("ALTER TABLE w3 SET PROPERTIES ('change_tracking' = 'true')").collect()
    session.sql("INSERT INTO w3 VALUES (9, 'z')").collect()
    session.sql("CREATE TABLE STREAM w3_changes ON TABLE w3").collect()
    src.write.save_as_table("w3", mode="overwrite")
    assert rows(session.table("w3")) == [(1, "a"), (2, "b")]
    props = {r[0]: r[1] for r in session.sql("SHOW TBLPROPERTIES w3").collect()}
    assert props.get("delta.enableChangeDataFeed") == "true"
    # the same table, so its stream is not stale and shows the overwrite as changes
    changes = session.table("w3_changes").select("id", "__change_type")
    assert rows(changes) == [(1, "INSERT"), (2, "INSERT"), (9, "DELETE")]


def test_overwrite_replaces_a_table_of_another_shape(session, src):
    session.sql("CREATE TABLE w4 (x DOUBLE)").collect()
    src.write.mode("overwrite").save_as_table("w4")
    assert session.table("w4").columns == ["id", "v"]
    assert rows(session.table("w4")) == [(1, "a"), (2, "b")]


def test_overwrite_from_the_table_itself(session, src):
    src.write.save_as_table("w5", mode="append")
    session.table("w5").filter(F.col("id") > 1).write.save_as_table("w5", mode="overwrite")
    assert rows(session.table("w5")) == [(2, "b")]


def test_ignore_and_errorifexists(session, src):
    src.write.save_as_table("w6", mode="ignore")  # missing: created
    src.filter(F.col("id") == 1).write.save_as_table("w6", mode="ignore")  # exists: nothing
    assert rows(session.table("w6")) == [(1, "a"), (2, "b")]
    src.write.saveAsTable("w7", mode="errorifexists")
    assert session.table("w7").count() == 2


def test_names_needing_quotes(session, src):
    name = 'odd "name"; DROP TABLE w'
    src.select(F.col("id").alias("my col"), "v").write.save_as_table(name, mode="append")
    assert session.table(name).columns == ["my col", "v"]
    assert session.table('"%s"' % name.replace('"', '""')).count() == 2  # a quoted name means the same table
    assert rows(session.table(name).select(F.col("`my col`"))) == [(1,), (2,)]


def test_update_and_delete(session, src):
    src.write.save_as_table("u", mode="append")
    t = session.table("u")
    assert t.update({"v": F.upper(F.col("v"))}, t["id"] == 2).rows_updated == 1
    assert t.update({"v": "all"}).rows_updated == 2
    assert rows(t) == [(1, "all"), (2, "all")]
    assert t.delete(t["id"] == 1).rows_deleted == 1
    assert rows(t) == [(2, "all")]
    assert t.delete().rows_deleted == 1
    assert t.count() == 0


def test_update_from_and_delete_using_a_source(session, src):
    src.write.save_as_table("uf", mode="append")
    t = session.table("uf")
    s = session.create_dataframe([(2, "two"), (3, "three")], schema=["id", "w"])
    # UPDATE ... FROM: only the target rows the condition pairs with a source row change.
    assert t.update({"v": s["w"]}, t["id"] == s["id"], source=s).rows_updated == 1
    assert rows(t) == [(1, "a"), (2, "two")]
    # Two source rows for one target row is an error, and nothing changes.
    dup = session.create_dataframe([(1, "x"), (1, "y")], schema=["id", "w"])
    with pytest.raises(lakestream.Error, match="(?i)more than one|multiple|several"):
        t.update({"v": dup["w"]}, t["id"] == dup["id"], source=dup)
    assert rows(t) == [(1, "a"), (2, "two")]
    # DELETE ... USING.
    assert t.delete(t["id"] == s["id"], source=s).rows_deleted == 1
    assert rows(t) == [(1, "a")]


def test_semi_and_anti_join_on_a_condition(session, src):
    src.write.save_as_table("sj", mode="append")
    t = session.table("sj")
    k = session.create_dataframe([(1,), (1,), (None,)], schema=["k"])
    assert rows(t.join(k, t["id"] == k["k"], how="semi")) == [(1, "a")]  # once, though k has 1 twice
    assert rows(t.join(k, t["id"] == k["k"], how="anti")) == [(2, "b")]
    assert rows(t.join(k, t["id"] > k["k"], how="leftsemi")) == [(2, "b")]


def test_merge_insert_update_delete_with_conditions(session, src):
    src.write.save_as_table("m", mode="append")
    t = session.table("m")
    s = session.create_dataframe([(1, "A", False), (2, "B", True), (3, "C", False)], schema=["id", "v", "gone"])
    res = t.merge(s, t["id"] == s["id"], [
        F.when_matched(s["gone"]).delete(),
        F.when_matched().update({"v": s["v"]}),
        F.when_not_matched(s["id"] > 2).insert([s["id"], s["v"]]),
    ])
    assert (res.rows_inserted, res.rows_updated, res.rows_deleted) == (1, 1, 1)
    assert rows(t) == [(1, "A"), (3, "C")]


def test_write_pandas(session):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"id": [1, 2], "v": ["a", "b"]})
    with pytest.raises(ValueError, match="auto_create_table=True"):
        session.write_pandas(frame, "wp")
    t = session.write_pandas(frame, "wp", auto_create_table=True)
    session.write_pandas(frame.head(1), "wp")
    assert rows(t) == [(1, "a"), (1, "a"), (2, "b")]
    session.write_pandas(frame.tail(1), "wp", overwrite=True)
    assert rows(session.table("wp")) == [(2, "b")]
