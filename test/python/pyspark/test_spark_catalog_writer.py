"""spark.catalog basics, df.cache(), and df.write honouring or refusing
every option (format, options, partitionBy, parquet, json, csv) (issue 31)."""
import os

import pytest

from conftest import rows
from lakestream.pyspark import AnalysisException


@pytest.fixture
def orders(spark):
    spark.sql("CREATE TABLE orders (id INT, category STRING, amount INT)")
    spark.sql("INSERT INTO orders VALUES (1, 'books', 10), (2, 'games', 5), (3, 'books', 7)")
    return spark.table("orders")


def test_catalog_lists_tables_columns_and_the_one_database(spark, orders):
    assert spark.catalog.currentDatabase() == "default"
    assert [d.name for d in spark.catalog.listDatabases()] == ["default"]
    assert [t.name for t in spark.catalog.listTables()] == ["orders"]
    assert spark.catalog.tableExists("orders") and not spark.catalog.tableExists("nope")
    assert [(c.name, c.dataType) for c in spark.catalog.listColumns("orders")] == [
        ("id", "integer"), ("category", "varchar"), ("amount", "integer")]
    with pytest.raises(AnalysisException, match="SCHEMA_NOT_FOUND"):
        spark.catalog.listTables("sales")
    orders.createOrReplaceTempView("v")
    assert spark.table("v").count() == 3
    spark.catalog.dropTempView("v")
    with pytest.raises(Exception):
        spark.table("v").count()


def test_cache_is_a_hint_and_reads_the_tables_at_each_action(spark, orders):
    cached = orders.filter("amount > 6").cache()
    assert cached.count() == 2
    spark.sql("INSERT INTO orders VALUES (4, 'toys', 9)")
    assert cached.count() == 3
    assert cached.persist() is cached and cached.unpersist() is cached


def test_save_as_table_partitioned_and_options_refused_by_name(spark, orders):
    orders.write.partitionBy("category").saveAsTable("by_category")
    assert spark.sql("DESCRIBE DETAIL by_category").collect()[0]["partitionColumns"] == "[category]"
    orders.write.mode("append").partitionBy("category").saveAsTable("by_category")
    assert spark.table("by_category").count() == 6
    with pytest.raises(ValueError, match="partitioned by \\(category\\), not \\(id\\)"):
        orders.write.mode("append").partitionBy("id").saveAsTable("by_category")
    with pytest.raises(AnalysisException, match="write option 'compresion' is not supported for format delta"):
        orders.write.option("compresion", "zstd").saveAsTable("x")
    with pytest.raises(AnalysisException, match="mergeSchema = true is not supported yet"):
        orders.write.mode("append").option("mergeSchema", "true").saveAsTable("by_category")
    with pytest.raises(AnalysisException, match="write option 'linesep' is not supported for format json"):
        orders.write.option("lineSep", "\n").json("/tmp/x")
    with pytest.raises(AnalysisException, match="write.format\\('avro'\\) is not supported yet"):
        orders.write.format("avro").save("/tmp/x")
    with pytest.raises(AnalysisException, match="save\\(path\\) is not supported yet"):
        orders.write.format("delta").save("/tmp/somewhere")


def test_write_parquet_and_read_it_back(spark, orders, tmp_path):
    path = str(tmp_path / "orders.parquet")
    orders.write.parquet(path, compression="zstd")
    assert sorted(rows(spark.read.parquet(path))) == [(1, "books", 10), (2, "games", 5), (3, "books", 7)]
    with pytest.raises(AnalysisException, match="PATH_ALREADY_EXISTS"):
        orders.write.parquet(path)
    orders.filter("id = 1").write.mode("overwrite").format("parquet").save(path)
    assert rows(spark.read.parquet(path)) == [(1, "books", 10)]
    orders.write.mode("ignore").parquet(path)
    assert spark.read.parquet(path).count() == 1
    with pytest.raises(AnalysisException, match="mode append is not supported yet"):
        orders.write.mode("append").parquet(path)
    assert os.path.isfile(path)


def test_write_json_and_csv_and_read_them_back(spark, orders, tmp_path):
    path = str(tmp_path / "orders.json")
    orders.write.json(path)
    assert sorted(rows(spark.read.json(path).select("id", "category", "amount"))) == [
        (1, "books", 10), (2, "games", 5), (3, "books", 7)]
    with pytest.raises(AnalysisException, match="PATH_ALREADY_EXISTS"):
        orders.write.format("json").save(path)
    with pytest.raises(AnalysisException, match="compression is not supported yet for json"):
        orders.write.mode("overwrite").json(path, compression="gzip")

    csv = str(tmp_path / "orders.csv")
    orders.write.csv(csv, sep=";")  # Spark: no header line unless asked
    with open(csv) as f:
        assert sorted(f.read().splitlines()) == ["1;books;10", "2;games;5", "3;books;7"]
    orders.filter("id = 2").write.mode("overwrite").option("header", True).csv(csv)
    with open(csv) as f:
        assert f.read().splitlines() == ["id,category,amount", "2,games,5"]
    assert rows(spark.read.csv(csv, header=True, inferSchema=True)) == [(2, "games", 5)]
