"""writeStream.format("kafka") and streaming aggregations, read back with
kcat from a local lakestream-mock-kafka broker."""
import json

import pytest

from conftest import topic
from lakestream.pyspark import AnalysisException
from lakestream.pyspark.sql.functions import col, count, struct, sum, to_json


def silver_and_gold(spark):
    spark.sql("CREATE TABLE silver (id INT, category STRING, amount INT, PRIMARY KEY (id)) "
              "TBLPROPERTIES ('change_tracking' = 'true')")
    spark.sql("INSERT INTO silver VALUES (1, 'books', 10), (2, 'books', 5), (3, 'games', 7)")
    spark.sql("CREATE MATERIALIZED VIEW gold AS SELECT category, sum(amount) AS total, count(*) AS n "
              "FROM silver GROUP BY category")


def payloads(broker, name):
    return [(m["key"], json.loads(m["value"])) for m in topic(broker, name)]


def test_gold_change_feed_to_kafka_only_changed_groups(spark, broker, tmp_path):
    """The issue's PySpark flow: a gold aggregate's change feed, filtered to
    insert/update_postimage, keyed and to_json(struct(...))-encoded."""
    silver_and_gold(spark)

    def run():
        q = (spark.readStream.format("delta").option("readChangeFeed", "true").table("gold")
             .filter(col("_change_type").isin(["insert", "update_postimage"]))
             .select(col("category").alias("key"), to_json(struct("category", "total", "n")).alias("value"))
             .writeStream.format("kafka")
             .option("kafka.bootstrap.servers", broker.bootstrap)
             .option("topic", "gold")
             .option("checkpointLocation", str(tmp_path / "ck"))
             .trigger(availableNow=True)
             .start())
        q.awaitTermination()
        return q

    q = run()
    first = payloads(broker, "gold")
    assert sorted(first) == [("books", {"category": "books", "total": 15, "n": 2}),
                             ("games", {"category": "games", "total": 7, "n": 1})]
    assert q.lastProgress["numInputRows"] == 2
    headers = topic(broker, "gold")[0]["headers"]
    assert headers["lakestream.sink"].startswith("__lakestream_query_") and "lakestream.version" in headers
    assert headers["lakestream.table"].endswith("_staging_stream")
    spark.sql("UPDATE silver SET amount = 20 WHERE id = 3")
    run()
    assert payloads(broker, "gold")[2:] == [("games", {"category": "games", "total": 20, "n": 1})]
    q = run()
    assert len(topic(broker, "gold")) == 3 and q.lastProgress is None  # nothing the third time


def test_update_mode_aggregation_sends_changed_groups(spark, broker, tmp_path):
    silver_and_gold(spark)

    def run():
        agg = spark.readStream.table("silver").groupBy("category").agg(sum("amount").alias("total"),
                                                                       count("*").alias("n"))
        q = (agg.select(col("category").alias("key"), to_json(struct("category", "total")).alias("value"))
             .writeStream.format("kafka").outputMode("update")
             .option("kafka.bootstrap.servers", broker.bootstrap).option("topic", "agg")
             .option("checkpointLocation", str(tmp_path / "agg")).trigger(availableNow=True).start())
        q.awaitTermination()
        return q

    run()
    assert sorted(payloads(broker, "agg")) == [("books", {"category": "books", "total": 15}),
                                               ("games", {"category": "games", "total": 7})]
    spark.sql("INSERT INTO silver VALUES (4, 'books', 1), (5, 'music', 3)")
    run()
    assert sorted(payloads(broker, "agg")[2:]) == [("books", {"category": "books", "total": 16}),
                                                   ("music", {"category": "music", "total": 3})]
    run()
    assert len(topic(broker, "agg")) == 4
    views = [r[0] for r in spark.sql("SHOW MATERIALIZED VIEWS").collect()
             if r[0].startswith("__lakestream_query_") and r[0].endswith("_view")]
    assert len(views) == 1
    detail = {r[0]: r[1] for r in spark.sql('DESCRIBE DETAIL "%s"' % views[0]).collect()}
    assert detail["maintenance"].startswith("incremental"), detail


def test_complete_mode_sends_every_group_when_something_changed(spark, broker, tmp_path):
    silver_and_gold(spark)

    def run():
        agg = spark.readStream.table("silver").groupBy("category").agg(sum("amount").alias("total"))
        q = (agg.selectExpr("category AS key", "CAST(total AS VARCHAR) AS value")
             .writeStream.format("kafka").outputMode("complete")
             .option("kafka.bootstrap.servers", broker.bootstrap).option("topic", "complete")
             .option("checkpointLocation", str(tmp_path / "c")).trigger(availableNow=True).start())
        q.awaitTermination()

    run()
    spark.sql("UPDATE silver SET amount = 1 WHERE id = 1")
    run()
    run()
    got = [(m["key"], m["value"]) for m in topic(broker, "complete")]
    assert sorted(got[:2]) == [("books", "15"), ("games", "7")]
    assert sorted(got[2:]) == [("books", "6"), ("games", "7")]


def test_kafka_sink_errors(spark, broker, tmp_path):
    silver_and_gold(spark)
    df = spark.readStream.table("silver")
    w = lambda d: (d.writeStream.format("kafka").option("kafka.bootstrap.servers", broker.bootstrap)  # noqa: E731
                   .option("topic", "t").option("checkpointLocation", str(tmp_path / "e")))
    with pytest.raises(AnalysisException, match="Required attribute 'value' not found"):
        w(df).start()
    with pytest.raises(AnalysisException, match="value attribute type must be a string"):
        w(df.select(col("amount").alias("value"))).start()
    with pytest.raises(AnalysisException, match="Append output mode not supported"):
        w(df.groupBy("category").count().selectExpr("category AS value")).start()
    with pytest.raises(AnalysisException, match="kafka.bootstrap.servers"):
        df.selectExpr("category AS value").writeStream.format("kafka").option("topic", "t") \
            .option("checkpointLocation", str(tmp_path / "e2")).start()


def test_kafka_options_change_on_restart_keeps_the_position(spark, broker, tmp_path):
    spark.sql("CREATE TABLE ev (id INT) TBLPROPERTIES ('change_tracking' = 'true')")

    def run(linger):
        q = (spark.readStream.table("ev").selectExpr("CAST(id AS VARCHAR) AS value")
             .writeStream.format("kafka").option("kafka.bootstrap.servers", broker.bootstrap)
             .option("kafka.linger.ms", linger).option("topic", "t")
             .option("checkpointLocation", str(tmp_path / "k")).trigger(availableNow=True).start())
        q.awaitTermination()

    spark.sql("INSERT INTO ev VALUES (1), (2)")
    run("5")
    spark.sql("INSERT INTO ev VALUES (3)")
    run("20")  # ALTER SINK with the new option: same sink id, same position
    assert [m["value"] for m in topic(broker, "t")] == ["1", "2", "3"]
    assert len({m["headers"]["lakestream.sink"] for m in topic(broker, "t")}) == 1
    meta = json.load(open(str(tmp_path / "k" / "lakestream_query.json")))
    assert meta["kafka_options"]["linger.ms"] == "20"


def test_batch_write_to_kafka(spark, broker):
    """The post's third option: a batch read of the gold table, filtered,
    keyed, to_json-encoded and written with df.write.format("kafka").save()."""
    silver_and_gold(spark)
    (spark.read.table("gold").filter(col("total") > 8)
     .select(col("category").cast("string").alias("key"), to_json(struct("total", "n")).alias("value"))
     .write.format("kafka")
     .option("kafka.bootstrap.servers", broker.bootstrap)
     .option("topic", "t")
     .save())
    assert payloads(broker, "t") == [("books", {"total": 15, "n": 2})]
    assert not [r for r in spark.sql("SHOW TABLES").collect() if "__lakestream_write" in str(r)]
    with pytest.raises(AnalysisException, match="Save mode overwrite not allowed for Kafka"):
        spark.table("gold").select(col("category").alias("value")).write.format("kafka").mode("overwrite") \
            .option("kafka.bootstrap.servers", broker.bootstrap).option("topic", "t").save()
    with pytest.raises(AnalysisException, match="Required attribute 'value' not found"):
        spark.table("gold").write.format("kafka").option("kafka.bootstrap.servers", broker.bootstrap) \
            .option("topic", "t").save()
    with pytest.raises(AnalysisException, match="needs .option\\(\"topic\""):
        spark.table("gold").select(col("category").alias("value")).write.format("kafka") \
            .option("kafka.bootstrap.servers", broker.bootstrap).save()
