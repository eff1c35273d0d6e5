"""foreachBatch: each micro-batch as a DataFrame with a stable batch id,
used for a MERGE upsert; a failing function re-runs the same batch."""
import json
import os

import pytest

from conftest import rows
from lakestream.pyspark import StreamingQueryException


def make_tables(spark):
    spark.sql("CREATE TABLE changes (id INT, name STRING, qty INT) TBLPROPERTIES ('change_tracking' = 'true')")
    spark.sql("CREATE TABLE target (id INT, name STRING, qty INT, PRIMARY KEY (id))")
    spark.sql("INSERT INTO changes VALUES (1, 'a', 1), (2, 'b', 2)")


def upsert(calls, fail_once=None):
    def fn(batch_df, batch_id):
        calls.append((batch_id, sorted(tuple(r) for r in batch_df.collect())))
        if fail_once is not None and not fail_once:
            fail_once.append(True)
            raise RuntimeError("the function failed")
        batch_df.createOrReplaceTempView("updates")
        batch_df.sparkSession.sql("MERGE INTO target t USING updates s ON t.id = s.id "
                              "WHEN MATCHED THEN UPDATE SET name = s.name, qty = t.qty + s.qty "
                              "WHEN NOT MATCHED THEN INSERT *")
    return fn


def run(spark, ck, fn):
    q = (spark.readStream.table("changes").writeStream.foreachBatch(fn)
         .option("checkpointLocation", str(ck)).trigger(availableNow=True).start())
    q.awaitTermination()
    return q


def test_foreach_batch_merge_upsert(spark, tmp_path):
    make_tables(spark)
    calls = []
    run(spark, tmp_path / "ck", upsert(calls))
    assert calls == [(0, [(1, "a", 1), (2, "b", 2)])]
    spark.sql("INSERT INTO changes VALUES (2, 'B', 10), (3, 'c', 3)")
    run(spark, tmp_path / "ck", upsert(calls))
    assert calls[1] == (1, [(2, "B", 10), (3, "c", 3)])
    assert rows(spark.table("target")) == [(1, "a", 1), (2, "B", 12), (3, "c", 3)]
    run(spark, tmp_path / "ck", upsert(calls))
    assert len(calls) == 2  # nothing new, no call
    meta = json.load(open(os.path.join(str(tmp_path / "ck"), "lakestream_query.json")))
    assert meta["foreach_completed"] == 1


def test_failed_function_reruns_the_same_batch(spark, tmp_path):
    make_tables(spark)
    calls, failed = [], []
    with pytest.raises(StreamingQueryException, match="the function failed"):
        run(spark, tmp_path / "ck", upsert(calls, failed))
    assert spark.table("target").count() == 0
    spark.sql("INSERT INTO changes VALUES (3, 'c', 3)")  # arrives before the restart: a later batch
    run(spark, tmp_path / "ck", upsert(calls, failed))
    assert calls[0] == calls[1] == (0, [(1, "a", 1), (2, "b", 2)])  # same id, same rows (at least once)
    assert calls[2] == (1, [(3, "c", 3)])
    assert rows(spark.table("target")) == [(1, "a", 1), (2, "b", 2), (3, "c", 3)]


def test_foreach_batch_of_an_update_mode_aggregation(spark, tmp_path):
    make_tables(spark)
    seen = []

    def fn(batch_df, batch_id):
        seen.append((batch_id, sorted(tuple(r) for r in batch_df.collect())))

    def run():
        from lakestream.pyspark.sql.functions import sum
        q = (spark.readStream.table("changes").groupBy("name").agg(sum("qty").alias("total"))
             .writeStream.outputMode("update").foreachBatch(fn)
             .option("checkpointLocation", str(tmp_path / "agg")).trigger(availableNow=True).start())
        q.awaitTermination()

    run()
    spark.sql("INSERT INTO changes VALUES (3, 'a', 5)")
    run()
    assert seen == [(0, [("a", 1), ("b", 2)]), (1, [("a", 6)])]


def test_foreach_batch_with_delta_table_merge(spark, tmp_path):
    from lakestream.pyspark.delta.tables import DeltaTable
    from lakestream.pyspark.sql.functions import col
    make_tables(spark)
    spark.sql("INSERT INTO target VALUES (1, 'old', 100)")

    def upsert(batch_df, batch_id):
        (DeltaTable.forName(batch_df.sparkSession, "target").alias("t")
         .merge(batch_df.alias("s"), "t.id = s.id")
         .whenMatchedUpdate(set={"name": "s.name", "qty": col("t.qty") + col("s.qty")})
         .whenNotMatchedInsertAll()
         .execute())

    run(spark, tmp_path / "ck", upsert)
    spark.sql("INSERT INTO changes VALUES (2, 'B', 5)")
    run(spark, tmp_path / "ck", upsert)
    assert rows(spark.table("target")) == [(1, "a", 101), (2, "B", 7)]
    t = DeltaTable.forName(spark, "target")
    t.update("id = 2", {"name": "'bee'"})
    t.delete(col("qty") > 100)
    assert rows(t.toDF()) == [(2, "bee", 7)]


CHILD = r"""
import sys
from lakestream.pyspark.sql import SparkSession
db, ck, log = sys.argv[1:4]
spark = SparkSession.builder.config("lakestream.database", db).getOrCreate()
spark.sql("CREATE TABLE IF NOT EXISTS changes (id INT) TBLPROPERTIES ('change_tracking' = 'true')")
if len(sys.argv) > 4:
    spark.sql("INSERT INTO changes VALUES " + sys.argv[4])
def fn(batch_df, batch_id):
    with open(log, "a") as f:
        f.write("%d:%s\n" % (batch_id, ",".join(str(r[0]) for r in sorted(batch_df.collect()))))
q = (spark.readStream.table("changes").writeStream.foreachBatch(fn).option("checkpointLocation", ck)
     .trigger(availableNow=True).start())
q.awaitTermination()
"""


def test_killed_foreach_batch_reruns_with_the_same_batch_id(tmp_path):
    import signal
    import subprocess
    import sys
    db, ck, log = str(tmp_path / "lake"), str(tmp_path / "ck"), str(tmp_path / "calls.log")

    def child(crash_point, values=None):
        env = dict(os.environ)
        if crash_point:
            env["LAKESTREAM_PYSPARK_CRASH_POINT"] = crash_point
        p = subprocess.run([sys.executable, "-c", CHILD, db, ck, log] + ([values] if values else []),
                           capture_output=True, env=env, timeout=120)
        return p.returncode, p.stderr.decode()

    assert child("after_stage", "(1), (2)")[0] == -signal.SIGKILL  # staged, fn not called
    assert child("after_foreach")[0] == -signal.SIGKILL  # fn called, not recorded
    code, err = child(None, "(3)")
    assert code == 0, err
    calls = open(log).read().split()
    # batch 0 twice (the kill after fn), with the same rows; then batch 1
    assert calls == ["0:1,2", "0:1,2", "1:3"], calls
