"""Schemas through the PySpark facade (docs/sql-schemas.md): the names a
Databricks notebook writes, "deal_stream_test.deal_gold1" and catalog.schema.t."""
import pytest

from conftest import rows
from lakestream.pyspark import AnalysisException


@pytest.fixture
def deals(spark):
    spark.sql("CREATE SCHEMA deal_stream_test")
    spark.sql("CREATE TABLE deal_stream_test.deal_gold1 (id INT, amount INT) "
              "TBLPROPERTIES (delta.enableChangeDataFeed = true)")
    spark.sql("INSERT INTO deal_stream_test.deal_gold1 VALUES (1, 10), (2, 20)")
    spark.sql("CREATE TABLE deal_gold1 (id INT, amount INT)")  # main's, another table
    return spark


def test_table_and_save_as_table_take_schema_and_catalog_names(deals):
    spark = deals
    assert rows(spark.table("deal_stream_test.deal_gold1")) == [(1, 10), (2, 20)]
    assert rows(spark.table("lake.deal_stream_test.deal_gold1")) == [(1, 10), (2, 20)]
    assert spark.table("default.deal_gold1").count() == 0
    spark.table("deal_stream_test.deal_gold1").where("id = 2").write.saveAsTable("deal_stream_test.copy")
    assert rows(spark.sql("SELECT * FROM deal_stream_test.copy")) == [(2, 20)]
    spark.table("deal_stream_test.copy").write.mode("append").saveAsTable("`deal_stream_test`.`copy`")
    assert spark.sql("SELECT count(*) FROM deal_stream_test.copy").collect()[0][0] == 2
    assert "copy" not in [t.name for t in spark.catalog.listTables()]  # the current schema is main


def test_catalog_lists_schemas_and_follows_use(deals):
    spark = deals
    assert sorted(d.name for d in spark.catalog.listDatabases()) == ["deal_stream_test", "default"]
    assert spark.catalog.databaseExists("deal_stream_test") and not spark.catalog.databaseExists("nope")
    assert [t.name for t in spark.catalog.listTables("deal_stream_test")] == ["deal_gold1"]
    assert spark.catalog.tableExists("deal_stream_test.deal_gold1")
    assert not spark.catalog.tableExists("deal_stream_test.nope")
    assert spark.catalog.currentCatalog() == "lake"
    spark.catalog.setCurrentDatabase("deal_stream_test")
    assert spark.catalog.currentDatabase() == "deal_stream_test"
    assert spark.table("deal_gold1").count() == 2
    with pytest.raises(AnalysisException, match="SCHEMA_NOT_FOUND.*deal_stream_test"):
        spark.catalog.listTables("nope")


def test_read_stream_table_of_a_schema(deals, tmp_path):
    spark = deals
    df = spark.readStream.table("deal_stream_test.deal_gold1")
    q = (df.writeStream.format("delta").option("checkpointLocation", str(tmp_path / "ck"))
         .trigger(availableNow=True).toTable("deal_stream_test.gold_copy"))
    q.awaitTermination()
    assert rows(spark.table("deal_stream_test.gold_copy")) == [(1, 10), (2, 20)]
