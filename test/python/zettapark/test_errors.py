"""Misuse gets a clear error naming what was wrong; engine errors come
through as lakestream exceptions with the engine's message."""

import pytest

import lakestream
from lakestream.zettapark import functions as F


@pytest.fixture
def t(session):
    session.sql("CREATE TABLE t (id INT, name VARCHAR)").collect()
    session.sql("INSERT INTO t VALUES (1, 'a')").collect()
    return session.table("t")


def test_unknown_column_is_the_engines_error_with_the_name(t):
    with pytest.raises(lakestream.ProgrammingError, match="nosuch"):
        t.select("nosuch").collect()
    with pytest.raises(lakestream.ProgrammingError, match="nosuch"):
        t.filter(F.col("nosuch") > 1).count()
    with pytest.raises(lakestream.ProgrammingError, match="nosuch"):
        t.select("nosuch").schema
    with pytest.raises(AttributeError, match="no attribute or column 'nosuch'"):
        t.nosuch


def test_unknown_table(session):
    with pytest.raises(lakestream.CatalogException, match="missing_table"):
        session.table("missing_table").collect()


def test_bad_save_mode_names_the_value_and_the_choices(t):
    with pytest.raises(ValueError, match="'upsert' is not one of: append, overwrite, errorifexists, ignore"):
        t.write.save_as_table("x", mode="upsert")
    with pytest.raises(ValueError, match="'upsert' is not one of"):
        t.write.mode("upsert")
    with pytest.raises(ValueError, match="column_order 'pos'"):
        t.write.save_as_table("x", mode="append", column_order="pos")


def test_errorifexists_is_the_engines_error(session, t):
    with pytest.raises(lakestream.CatalogException, match="(?s)already exists.*mode='append'"):
        t.write.save_as_table("t")  # Snowpark's default mode is errorifexists
    assert t.count() == 1


def test_features_not_built_say_so(session, t):
    with pytest.raises(NotImplementedError, match="temporary"):
        t.write.save_as_table("x", mode="append", table_type="temporary")
    # a [db, schema, t] name is resolved by the engine: the one catalog is the database (docs/sql-schemas.md)
    with pytest.raises(lakestream.CatalogException, match="Catalog db does not exist.*the one catalog is this database, lake"):
        t.write.save_as_table(["db", "schema", "x"], mode="append")
    with pytest.raises(NotImplementedError, match="drop_duplicates"):
        t.drop_duplicates("id")
    with pytest.raises(NotImplementedError, match="block=False"):
        t.collect(block=False)
    with pytest.raises(NotImplementedError, match="block=False"):
        t.write.save_as_table("x", mode="append", block=False)
    assert t.collect(statement_params={"QUERY_TAG": "x"}) == [(1, "a")]


def test_misuse_of_columns_and_frames(t):
    with pytest.raises(TypeError, match="Column expression"):
        t.filter(42)
    with pytest.raises(lakestream.ParserException, match="syntax error"):
        t.filter("id >").collect()  # SQL text is the engine's to check
    with pytest.raises(ValueError, match="at least one column"):
        t.select()
    with pytest.raises(ValueError, match="no column 'nope'"):
        t.with_column_renamed("nope", "x")
    with pytest.raises(ValueError, match="every column"):
        t.drop("id", "name")
    with pytest.raises(TypeError, match="no truth value"):
        if F.col("id") > 1:
            pass
    with pytest.raises(ValueError, match="the right DataFrame has no such column"):
        t.join(t.select(F.col("id").alias("k")), "id")


def test_merge_misuse(session, t):
    src = session.table("t")
    with pytest.raises(ValueError, match="at least one"):
        t.merge(src, t["id"] == src["id"], [])
    with pytest.raises(ValueError, match="needs .update"):
        t.merge(src, t["id"] == src["id"], [F.when_matched()])
    with pytest.raises(TypeError, match="non-empty dict"):
        F.when_matched().update({})
    with pytest.raises(ValueError, match="both sides of the merge"):
        t.merge(t, t["id"] == t["id"], [F.when_matched().delete()])
    with pytest.raises(ValueError, match=r"ambiguous in the merge.*target\['id'\] or source\['id'\]"):
        t.merge(src, F.col("id") == F.col("id"), [F.when_matched().delete()])


def test_a_failed_statement_changes_nothing_and_the_session_goes_on(session, t):
    with pytest.raises(lakestream.Error):
        t.select("id", "name", F.lit(1).alias("extra")).write.save_as_table("t", mode="append")
    assert t.count() == 1
    assert t.collect() == [(1, "a")]
