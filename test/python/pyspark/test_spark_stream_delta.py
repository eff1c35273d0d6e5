"""readStream of Delta tables written with writeStream to Delta tables:
exactly-once batches on a hidden table stream, startingVersion, the change
feed columns, the data-update error and skipChangeCommits, checkpoints."""
import json
import os
import time

import pytest

from conftest import rows
from lakestream.pyspark import AnalysisException, StreamingQueryException
from lakestream.pyspark.sql.functions import col


def source(spark):
    spark.sql("CREATE TABLE src (id INT, name STRING, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')")
    spark.sql("INSERT INTO src VALUES (1, 'a'), (2, 'b')")  # version 1


def run_to_table(spark, ck, reader=None, target="dst", transform=None):
    df = reader if reader is not None else spark.readStream.format("delta").table("src")
    if transform:
        df = transform(df)
    q = df.writeStream.option("checkpointLocation", str(ck)).trigger(availableNow=True).toTable(target)
    q.awaitTermination()
    return q


def hidden_objects(spark):
    names = [r[0] for r in spark.sql("SHOW STREAMS").collect()]
    return sorted(n for n in names if n.startswith("__lakestream_query_"))


def test_append_stream_to_table_exactly_once(spark, tmp_path):
    source(spark)
    ck = tmp_path / "ck"
    q = run_to_table(spark, ck, transform=lambda d: d.withColumn("upper", col("name")).filter(col("id") > 0))
    assert not q.isActive and q.exception() is None
    assert rows(spark.table("dst")) == [(1, "a", "a"), (2, "b", "b")]  # the whole table first (Spark's default)
    assert q.lastProgress["numInputRows"] == 2 and q.lastProgress["batchId"] == 0
    assert q.lastProgress["sources"][0]["description"] == "DeltaSource[src]"
    spark.sql("INSERT INTO src VALUES (3, 'c')")
    q = run_to_table(spark, ck, transform=lambda d: d.withColumn("upper", col("name")).filter(col("id") > 0))
    assert rows(spark.table("dst")) == [(1, "a", "a"), (2, "b", "b"), (3, "c", "c")]
    assert q.lastProgress["batchId"] == 1 and q.lastProgress["numInputRows"] == 1
    q = run_to_table(spark, ck, transform=lambda d: d.withColumn("upper", col("name")).filter(col("id") > 0))
    assert q.lastProgress is None  # nothing pending: no batch
    assert spark.table("dst").count() == 3
    meta = json.load(open(os.path.join(str(ck), "lakestream_query.json")))
    assert hidden_objects(spark) == ["__lakestream_query_%s_stream" % meta["id"]]
    assert meta["definition"]["source"] == {"kind": "table", "table": "src", "readChangeFeed": False}


def test_starting_version_and_latest(spark, tmp_path):
    source(spark)
    spark.sql("INSERT INTO src VALUES (3, 'c')")  # version 2
    run_to_table(spark, tmp_path / "a", spark.readStream.option("startingVersion", 2).table("src"), "from2")
    assert rows(spark.table("from2")) == [(3, "c")]
    run_to_table(spark, tmp_path / "b", spark.readStream.option("startingVersion", "latest").table("src"), "late")
    assert spark.table("late").count() == 0
    spark.sql("INSERT INTO src VALUES (4, 'd')")
    run_to_table(spark, tmp_path / "b", spark.readStream.option("startingVersion", "latest").table("src"), "late")
    assert rows(spark.table("late")) == [(4, "d")]
    with pytest.raises(AnalysisException, match="startingVersion must be"):
        spark.readStream.option("startingVersion", "soon").table("src")


def test_read_change_feed_columns(spark, tmp_path):
    source(spark)
    reader = spark.readStream.format("delta").option("readChangeFeed", "true").option("startingVersion", 2)
    df = reader.table("src")
    assert df.isStreaming and df.columns == ["id", "name", "_change_type", "_commit_version", "_commit_timestamp"]
    spark.sql("UPDATE src SET name = 'A' WHERE id = 1")  # version 2
    spark.sql("DELETE FROM src WHERE id = 2")  # version 3
    spark.sql("INSERT INTO src VALUES (5, 'e')")  # version 4
    run_to_table(spark, tmp_path / "ck", df.drop("_commit_timestamp"), "changes")
    assert rows(spark.table("changes")) == [(1, "A", "update_postimage", 2), (1, "a", "update_preimage", 2),
                                            (2, "b", "delete", 3), (5, "e", "insert", 4)]


def test_update_without_read_change_feed_fails_clearly_then_skip_change_commits(spark, tmp_path):
    source(spark)
    ck = tmp_path / "ck"
    run_to_table(spark, ck)
    spark.sql("INSERT INTO src VALUES (3, 'c')")  # version 2
    spark.sql("UPDATE src SET name = 'B' WHERE id = 2")  # version 3
    with pytest.raises(StreamingQueryException) as e:
        run_to_table(spark, ck)
    msg = str(e.value)
    for part in ("Detected a data update (UPDATE)", "source table src at version 3", "skipChangeCommits",
                 "readChangeFeed", str(ck)):
        assert part in msg, msg
    assert spark.table("dst").count() == 2  # nothing of the failed batch was written
    # The session and the query keep working: the same checkpoint with skipChangeCommits continues.
    spark.sql("MERGE INTO src t USING (SELECT 1 AS id, 'Z' AS name UNION ALL SELECT 9, 'i') s ON t.id = s.id "
              "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *")  # version 4: update + insert
    spark.sql("INSERT INTO src VALUES (4, 'd')")  # version 5
    q = run_to_table(spark, ck, spark.readStream.option("skipChangeCommits", "true").table("src"))
    assert rows(spark.table("dst")) == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]  # commits 3 and 4 skipped whole
    assert q.lastProgress["sources"][0]["skippedChangeCommits"] == [3, 4]
    spark.sql("DELETE FROM src WHERE id = 4")
    q = run_to_table(spark, ck, spark.readStream.option("skipChangeCommits", "true").table("src"))
    assert spark.table("dst").count() == 4


def test_checkpoint_with_another_definition_is_refused(spark, tmp_path):
    source(spark)
    ck = tmp_path / "ck"
    run_to_table(spark, ck)
    with pytest.raises(AnalysisException) as e:
        run_to_table(spark, ck, transform=lambda d: d.filter(col("id") > 1))
    assert "checkpoint %s was written by a query with another query" % ck in str(e.value)
    with pytest.raises(AnalysisException, match="another sink"):
        run_to_table(spark, ck, target="elsewhere")
    with pytest.raises(AnalysisException, match="checkpointLocation must be specified"):
        spark.readStream.table("src").writeStream.toTable("x")


def test_processing_time_trigger_query_object(spark, tmp_path):
    source(spark)
    q = (spark.readStream.table("src").writeStream.option("checkpointLocation", str(tmp_path / "ck"))
         .queryName("copy").trigger(processingTime="100 milliseconds").toTable("dst"))
    try:
        assert q.isActive and q.name == "copy" and q in spark.streams.active and spark.streams.get(q.id) is q
        with pytest.raises(AnalysisException, match="is already active"):
            spark.readStream.table("src").writeStream.option("checkpointLocation", str(tmp_path / "ck")).toTable("dst")
        q.processAllAvailable()
        assert rows(spark.table("dst")) == [(1, "a"), (2, "b")]
        spark.sql("INSERT INTO src VALUES (3, 'c')")
        deadline = time.time() + 10
        while spark.table("dst").count() < 3 and time.time() < deadline:
            time.sleep(0.05)  # the background trigger picks it up by itself
        assert spark.table("dst").count() == 3
        assert q.awaitTermination(0.2) is False
        p = q.lastProgress
        assert set(p) >= {"id", "runId", "name", "timestamp", "batchId", "numInputRows", "sources", "sink"}
        assert p["sink"]["description"] == "DeltaSink[dst]" and p["id"] == q.id
        assert set(q.status) == {"message", "isDataAvailable", "isTriggerActive"}
    finally:
        q.stop()
    assert not q.isActive and q.awaitTermination(1) is True and q.status["message"] == "Stopped"
    assert q not in spark.streams.active


def test_streaming_frame_actions_refused(spark):
    source(spark)
    df = spark.readStream.table("src")
    with pytest.raises(AnalysisException, match="writeStream.start"):
        df.collect()
    with pytest.raises(AnalysisException, match="writeStream.start"):
        df.count()
    with pytest.raises(AnalysisException, match="batch DataFrame"):
        spark.table("src").writeStream
    with pytest.raises(AnalysisException, match="not supported"):
        spark.readStream.format("rate").table("src")
    with pytest.raises(AnalysisException, match="Complete output mode"):
        df.writeStream.outputMode("complete").option("checkpointLocation", "/tmp/x").toTable("t")


def test_load_path_and_lost_hidden_stream(spark, tmp_path):
    source(spark)
    ck = tmp_path / "ck"
    path = os.path.join(spark.conf.get("lakestream.database"), "src")
    df = spark.readStream.format("delta").load(path)
    run_to_table(spark, ck, df, "copy")
    assert spark.table("copy").count() == 2
    meta = json.load(open(os.path.join(str(ck), "lakestream_query.json")))
    spark.sql("DROP STREAM " + meta["objects"]["stream"])
    with pytest.raises(AnalysisException) as e:
        run_to_table(spark, ck, spark.readStream.format("delta").load(path), "copy")
    assert str(ck) in str(e.value) and "new checkpointLocation" in str(e.value)


def test_console_and_memory_sinks(spark, tmp_path, capsys):
    source(spark)
    q = (spark.readStream.table("src").writeStream.format("console").option("checkpointLocation", str(tmp_path / "c"))
         .trigger(availableNow=True).start())
    q.awaitTermination()
    out = capsys.readouterr().out
    assert "Batch: 0" in out and "|id|name|" in out.replace(" ", "")
    q = spark.readStream.table("src").writeStream.format("memory").queryName("mem").start(
        checkpointLocation=str(tmp_path / "m"))
    q.processAllAvailable()
    q.stop()
    assert rows(spark.table("mem")) == [(1, "a"), (2, "b")]


def test_aggregation_to_table_complete_mode_rewrites_it(spark, tmp_path):
    from lakestream.pyspark.sql.functions import count
    source(spark)
    spark.sql("INSERT INTO src VALUES (3, 'a')")

    def run(mode="complete"):
        q = (spark.readStream.table("src").groupBy("name").agg(count("*").alias("n"))
             .writeStream.outputMode(mode).option("checkpointLocation", str(tmp_path / "agg"))
             .trigger(availableNow=True).toTable("counts"))
        q.awaitTermination()

    run()
    assert rows(spark.table("counts")) == [("a", 2), ("b", 1)]
    spark.sql("INSERT INTO src VALUES (4, 'c')")
    run()
    assert rows(spark.table("counts")) == [("a", 2), ("b", 1), ("c", 1)]  # every group, once
    run()
    assert spark.table("counts").count() == 3
    with pytest.raises(AnalysisException, match="does not support Update output mode"):
        run("update")


def test_stream_static_join_and_stream_stream_join_refused(spark, tmp_path):
    source(spark)
    spark.sql("CREATE TABLE dim (name STRING, label STRING)")
    spark.sql("INSERT INTO dim VALUES ('a', 'Alpha'), ('b', 'Beta')")
    st = spark.readStream.table("src")
    run_to_table(spark, tmp_path / "j", st.join(spark.table("dim"), "name"), "joined")
    spark.sql("UPDATE dim SET label = 'ALPHA' WHERE name = 'a'")  # the table as of each batch
    spark.sql("INSERT INTO src VALUES (3, 'a')")
    run_to_table(spark, tmp_path / "j", st.join(spark.table("dim"), "name"), "joined")
    assert rows(spark.table("joined")) == [("a", 1, "Alpha"), ("a", 3, "ALPHA"), ("b", 2, "Beta")]
    with pytest.raises(AnalysisException, match="reads 2 streams"):
        st.join(spark.readStream.table("src").withColumnRenamed("id", "id2"), "name").writeStream \
            .option("checkpointLocation", str(tmp_path / "jj")).toTable("x")
