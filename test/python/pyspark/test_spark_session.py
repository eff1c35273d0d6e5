"""SparkSession and batch DataFrames: builder, sql, table, read, and the
DataFrame methods with Spark's names."""
import os

import pytest

import lakestream
from conftest import rows
from lakestream.pyspark import AnalysisException
from lakestream.pyspark.sql import SparkSession
from lakestream.pyspark.sql.functions import col, count, expr, lit, struct, sum, to_json, upper, when


@pytest.fixture
def orders(spark):
    spark.sql("CREATE TABLE orders (id INT, category STRING, amount INT, PRIMARY KEY (id))")
    spark.sql("INSERT INTO orders VALUES (1, 'books', 10), (2, 'books', 5), (3, 'games', 7), (4, NULL, 1)")
    return spark.table("orders")


def test_builder_get_or_create_returns_the_active_session(spark, tmp_path):
    again = SparkSession.builder.config("lakestream.database", str(tmp_path / "lake")).getOrCreate()
    assert again is spark
    assert SparkSession.getActiveSession() is spark
    with pytest.raises(AnalysisException, match="stop it"):
        SparkSession.builder.config("lakestream.database", str(tmp_path / "other")).getOrCreate()
    assert spark.conf.get("lakestream.database") == os.path.abspath(str(tmp_path / "lake"))
    spark.conf.set("spark.sql.shuffle.partitions", "4")
    assert spark.conf.get("spark.sql.shuffle.partitions") == "4"


def test_sql_ddl_runs_now_and_queries_are_lazy(spark):
    spark.sql("CREATE TABLE t (a INT)")  # no action needed, as in Spark
    spark.sql("INSERT INTO t VALUES (1), (2)")
    df = spark.sql("SELECT a * 10 AS x FROM t")
    spark.sql("INSERT INTO t VALUES (3)")
    assert rows(df) == [(10,), (20,), (30,)]  # lazy: runs at collect
    assert [r[0] for r in spark.sql("SHOW TABLES").collect()] == ["t"]
    assert spark.sql("SELECT a FROM t WHERE a > ?", [1]).count() == 2


def test_table_read_table_and_load_path(spark, orders, tmp_path):
    assert rows(spark.read.table("orders").select("id")) == [(1,), (2,), (3,), (4,)]
    path = os.path.join(str(tmp_path / "lake"), "orders")
    assert spark.read.format("delta").load(path).count() == 4
    with pytest.raises(AnalysisException, match="CREATE TABLE name LOCATION"):
        spark.read.format("delta").load(str(tmp_path / "nowhere"))
    with pytest.raises(AnalysisException, match="cannot be found"):
        spark.readStream.table("missing")


def test_dataframe_methods(spark, orders):
    df = (orders.filter(col("amount") > 1).withColumn("big", col("amount") >= 7)
          .withColumnRenamed("category", "cat").drop("nonexistent", "id"))
    assert df.columns == ["cat", "amount", "big"]
    assert rows(df.filter("cat = 'books'")) == [("books", 5, False), ("books", 10, True)]
    assert rows(orders.selectExpr("id * 2 AS twice", "upper(category) AS c").where(col("twice") < 6)) == \
        [(2, "BOOKS"), (4, "BOOKS")]
    g = orders.groupBy("category").agg(sum("amount").alias("total"), count("*").alias("n"))
    assert rows(g) == [(None, 1, 1), ("books", 15, 2), ("games", 7, 1)]
    assert rows(orders.groupBy("category").count().filter(col("category").isNotNull())) == \
        [("books", 2), ("games", 1)]
    assert rows(orders.select(when(col("amount") > 6, lit("hi")).otherwise(lit("lo")).alias("x"), "id")
                .orderBy("id")) == [("hi", 1), ("hi", 3), ("lo", 2), ("lo", 4)]
    assert orders.select(upper(col("category")).alias("u")).filter(col("u").isNull()).count() == 1
    j = orders.select(to_json(struct("id", "category")).alias("v")).filter(col("v").contains("games")).collect()
    assert [r.v for r in j] == ['{"id":3,"category":"games"}']
    assert orders.count() == 4
    assert rows(orders.withColumn("d", expr("amount * 2")).filter("d > 10 AND id < 3").select("id", "d")) == [(1, 20)]
    assert orders.orderBy(col("id").desc()).first()["id"] == 4
    assert orders.orderBy("id").first().asDict() == {"id": 1, "category": "books", "amount": 10}
    assert [r.id for r in orders.orderBy("id").take(2)] == [1, 2]
    assert orders.dtypes == [("id", "int"), ("category", "string"), ("amount", "int")]


def test_show_print_schema_and_to_pandas(spark, orders, capsys):
    orders.orderBy("id").show(2)
    out = capsys.readouterr().out
    assert "|id|category|amount|" in out.replace(" ", "") and "only showing top 2 rows" in out
    orders.printSchema()
    out = capsys.readouterr().out
    assert out.startswith("root\n |-- id: ")
    try:
        import pandas  # noqa: F401
    except ImportError:
        pytest.skip("pandas missing")
    pdf = orders.orderBy("id").toPandas()
    assert list(pdf["id"]) == [1, 2, 3, 4]


def test_write_save_as_table_and_temp_views(spark, orders):
    orders.filter(col("category") == "books").write.mode("overwrite").saveAsTable("books")
    assert rows(spark.table("books").select("id")) == [(1,), (2,)]
    orders.filter(col("id") == 3).write.insertInto("books")
    assert spark.table("books").count() == 3
    orders.filter(col("id") > 2).createOrReplaceTempView("recent")
    assert rows(spark.sql("SELECT id FROM recent")) == [(3,), (4,)]
    spark.sql("MERGE INTO books t USING recent s ON t.id = s.id WHEN MATCHED THEN UPDATE SET amount = 0 "
              "WHEN NOT MATCHED THEN INSERT *")
    assert rows(spark.table("books").select("id", "amount")) == [(1, 10), (2, 5), (3, 0), (4, 1)]
    with pytest.raises(lakestream.Error):
        spark.table("nope").collect()


def test_create_data_frame_and_range(spark):
    df = spark.createDataFrame([(1, "a"), (2, "b")], ["id", "name"])
    assert rows(df) == [(1, "a"), (2, "b")]
    assert spark.range(3).count() == 3


def test_expr_takes_a_trailing_alias_as_spark_does(spark):
    df = spark.createDataFrame([(1,), (2,)], ["a"])
    got = df.select(expr("a * 2 AS doubled"), expr("a + 1 plus_one"), expr('a * 3 AS "Big One"'))
    assert got.columns == ["doubled", "plus_one", "Big One"]
    assert rows(got) == [(2, 2, 3), (4, 3, 6)]
    # Only the text before the alias is spliced, and it must still be one expression.
    with pytest.raises(lakestream.ParserException, match="is not one SQL expression"):
        df.select(expr("a; DROP TABLE t AS x"))
