"""The process test_spark_kill.py kills: a PySpark streaming query from
table `events` to a Kafka topic, while the same process keeps inserting
rows into `events`.

Usage: kill_child.py DB CHECKPOINT BOOTSTRAP TOPIC MODE
  MODE run    insert 10 rows, processAllAvailable(), repeat until killed
  MODE final  drain what is pending (availableNow), print the ids of events as JSON
"""
import json
import sys

from lakestream.pyspark.sql import SparkSession
from lakestream.pyspark.sql.functions import col, struct, to_json


def main():
    db, ck, bootstrap, topic, mode = sys.argv[1:6]
    spark = SparkSession.builder.config("lakestream.database", db).getOrCreate()
    spark.sql("CREATE TABLE IF NOT EXISTS events (id INT, category STRING) TBLPROPERTIES ('change_tracking' = 'true')")
    w = (spark.readStream.table("events")
         .select(col("id").cast("string").alias("key"), to_json(struct("id", "category")).alias("value"))
         .writeStream.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", topic)
         .option("checkpointLocation", ck))
    if mode == "final":
        q = w.trigger(availableNow=True).start()
        q.awaitTermination()
        ids = [r[0] for r in spark.sql("SELECT id FROM events").collect()]
        print(json.dumps(ids))
        sys.stdout.flush()
        return
    q = w.trigger(processingTime="50 milliseconds").start()
    print("started")
    sys.stdout.flush()
    while True:
        top = spark.sql("SELECT coalesce(max(id), 0) FROM events").collect()[0][0]
        values = ", ".join("(%d, 'c%d')" % (i, i % 7) for i in range(top + 1, top + 11))
        spark.sql("INSERT INTO events VALUES " + values)
        q.processAllAvailable()


if __name__ == "__main__":
    main()
