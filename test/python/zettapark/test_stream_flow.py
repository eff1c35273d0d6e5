"""The issue's Zettapark scenario: a table stream read with a DataFrame,
written with save_as_table (consumes it), then a MERGE upsert of a later
change through Table.merge (consumes it again)."""

import importlib.util
from decimal import Decimal

from conftest import rows, stream_offset
from lakestream.zettapark import functions as F

CHANGED = ["INSERT", "UPDATE_AFTER"]


def setup_stream(session, mode="STANDARD"):
    session.sql("CREATE TABLE orders (id INT, item VARCHAR, amount DECIMAL(10,2))").collect()
    session.sql("ALTER TABLE orders SET PROPERTIES ('change_tracking' = 'true')").collect()
    session.sql("CREATE TABLE STREAM orders_stream ON TABLE orders "
                "WITH PROPERTIES ('TABLE_STREAM_MODE' = '%s')" % mode).collect()


def test_stream_to_table_then_merge_upsert(session):
    setup_stream(session)
    session.sql("INSERT INTO orders VALUES (1, 'apple', 1.50), (2, 'pear', 2.00), (3, 'fig', 3.25)").collect()
    session.sql("UPDATE orders SET amount = 2.50 WHERE id = 2").collect()
    session.sql("DELETE FROM orders WHERE id = 3").collect()

    changes = session.table("orders_stream")
    assert set(changes.columns) >= {"id", "item", "amount", "__change_type", "__commit_version"}
    # the net change since the stream was created: 1 and 2 inserted (2 with its final amount), 3 gone
    df = (changes.filter(F.col("`__change_type`").isin(CHANGED))
          .select("id", "item", "amount"))

    offset_before = stream_offset(session, "orders_stream")
    first = rows(df)
    assert first == [(1, "apple", Decimal("1.50")), (2, "pear", Decimal("2.50"))]
    # reading does not move the offset: the same rows come back
    assert rows(df) == first
    assert df.count() == 2
    df.show()
    assert df.first() is not None and df.schema.names == ["id", "item", "amount"]
    assert [r.id for r in df.to_local_iterator()] != []
    if importlib.util.find_spec("pandas") is not None:
        assert len(df.to_pandas()) == 2
    assert stream_offset(session, "orders_stream") == offset_before
    assert rows(df) == first

    df.write.save_as_table("orders_target", mode="append")
    assert rows(session.table("orders_target")) == first
    # the write consumed the stream in its commit
    assert stream_offset(session, "orders_stream") > offset_before
    assert session.table("orders_stream").count() == 0
    assert session.table("orders_target").schema["amount"].datatype.sql() == "DECIMAL(10,2)"

    # a later change, applied to the target as an upsert
    session.sql("UPDATE orders SET amount = 9.99, item = 'APPLE' WHERE id = 1").collect()
    session.sql("INSERT INTO orders VALUES (4, 'kiwi', 0.75)").collect()
    target = session.table("orders_target")
    src = session.table("orders_stream").filter(F.col("`__change_type`").isin(CHANGED))
    result = target.merge(
        src, target["id"] == src["id"],
        [F.when_matched().update({"item": src["item"], "amount": src["amount"]}),
         F.when_not_matched().insert({"id": src["id"], "item": src["item"], "amount": src["amount"]})])
    assert (result.rows_inserted, result.rows_updated, result.rows_deleted) == (1, 1, 0)
    assert rows(session.table("orders_target")) == [
        (1, "APPLE", Decimal("9.99")), (2, "pear", Decimal("2.50")), (4, "kiwi", Decimal("0.75"))]
    assert session.table("orders_stream").count() == 0

    # nothing new: a second merge changes nothing
    again = target.merge(src, target["id"] == src["id"],
                         [F.when_matched().update({"amount": src["amount"]})])
    assert tuple(again) == (0, 0, 0)
    assert len(rows(session.table("orders_target"))) == 3


def test_deletes_merged_with_a_condition(session):
    setup_stream(session)
    session.sql("INSERT INTO orders VALUES (1, 'a', 1), (2, 'b', 2)").collect()
    session.table("orders_stream").select("id", "item", "amount").write.save_as_table("t2", mode="append")
    session.sql("DELETE FROM orders WHERE id = 1").collect()
    t2 = session.table("t2")
    src = session.table("orders_stream")
    res = t2.merge(src, t2["id"] == src["id"],
                   [F.when_matched(src["__change_type"] == "DELETE").delete()])
    assert res.rows_deleted == 1
    assert rows(session.table("t2")) == [(2, "b", Decimal("2.00"))]
    assert session.table("orders_stream").count() == 0


def test_append_only_stream_and_failed_write_keeps_offset(session):
    setup_stream(session, "APPEND_ONLY")
    session.sql("INSERT INTO orders VALUES (1, 'a', 1)").collect()
    session.sql("UPDATE orders SET amount = 5 WHERE id = 1").collect()
    df = session.table("orders_stream").select("id", "amount", "__change_type")
    assert rows(df) == [(1, Decimal("1.00"), "INSERT")]
    before = stream_offset(session, "orders_stream")
    session.sql("CREATE TABLE narrow (id INT)").collect()
    import lakestream
    try:
        df.write.save_as_table("narrow", mode="append")  # 3 columns into 1: the engine refuses
        raise AssertionError("the write should have failed")
    except lakestream.Error:
        pass
    assert stream_offset(session, "orders_stream") == before
    assert rows(df) == [(1, Decimal("1.00"), "INSERT")]


def test_overwrite_and_create_consume_the_stream(session):
    setup_stream(session)
    session.sql("INSERT INTO orders VALUES (1, 'a', 1)").collect()
    df = session.table("orders_stream").select("id", "item")
    df.write.save_as_table("snap", mode="errorifexists")  # CREATE TABLE AS
    assert rows(session.table("snap")) == [(1, "a")]
    assert session.table("orders_stream").count() == 0
    session.sql("INSERT INTO orders VALUES (2, 'b', 2)").collect()
    df.write.save_as_table("snap", mode="overwrite")  # INSERT OVERWRITE
    assert rows(session.table("snap")) == [(2, "b")]
    assert session.table("orders_stream").count() == 0
    # ignore on an existing table reads nothing, so the stream keeps its rows
    session.sql("INSERT INTO orders VALUES (3, 'c', 3)").collect()
    df.write.save_as_table("snap", mode="ignore")
    assert rows(session.table("snap")) == [(2, "b")]
    assert rows(session.table("orders_stream").select("id")) == [(3,)]


def test_a_write_that_keeps_no_row_still_consumes(session):
    setup_stream(session)
    session.sql("INSERT INTO orders VALUES (1, 'a', 1)").collect()
    before = stream_offset(session, "orders_stream")
    none = session.table("orders_stream").filter(F.col("`__change_type`") == "DELETE").select("id")
    none.write.save_as_table("deleted_ids", mode="append")
    assert session.table("deleted_ids").count() == 0
    assert stream_offset(session, "orders_stream") > before
    assert session.table("orders_stream").count() == 0


def test_parameters_in_session_sql(session):
    setup_stream(session)
    session.sql("INSERT INTO orders VALUES (1, 'a', 1), (2, 'b', 2)").collect()
    df = session.sql("SELECT id, item FROM orders_stream WHERE id > ?", params=[1])
    assert rows(df) == [(2, "b")]
    df.filter(F.col("item") == "b").write.save_as_table("from_params", mode="append")
    assert rows(session.table("from_params")) == [(2, "b")]
    assert session.table("orders_stream").count() == 0


def test_joins_aggregates_and_unions_over_a_stream_consume_it_once(session):
    setup_stream(session)
    session.sql("CREATE TABLE fruit (item VARCHAR, color VARCHAR)").collect()
    session.sql("INSERT INTO fruit VALUES ('apple', 'red'), ('pear', 'green')").collect()
    session.sql("INSERT INTO orders VALUES (1, 'apple', 1), (2, 'pear', 2), (3, 'apple', 4)").collect()
    changes = session.table("orders_stream").filter(F.col("`__change_type`") == "INSERT")
    fruit = session.table("fruit")
    per_color = (changes.join(fruit, "item")
                 .group_by("color").agg(F.sum("amount").alias("total"), F.count("*").alias("n")))
    # the stream appears twice in this statement; both reads see the same rows
    both = per_color.union_all(per_color.filter(F.col("n") > 1))
    before = stream_offset(session, "orders_stream")
    assert rows(both) == [("green", Decimal("2.00"), 1), ("red", Decimal("5.00"), 2),
                          ("red", Decimal("5.00"), 2)]
    assert stream_offset(session, "orders_stream") == before
    both.write.save_as_table("color_totals", mode="append")
    assert rows(session.table("color_totals")) == [("green", Decimal("2.00"), 1), ("red", Decimal("5.00"), 2),
                                                   ("red", Decimal("5.00"), 2)]
    assert stream_offset(session, "orders_stream") > before
    assert session.table("orders_stream").count() == 0
