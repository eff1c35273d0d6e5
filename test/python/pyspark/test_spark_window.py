"""Window and the window functions (issue 31): the gold-layer dedup
(row_number over a partition, newest first), running sums with a frame,
lag/lead with a default, ranking; each rendered as OVER (...) SQL."""
import pytest

from conftest import rows
from lakestream.pyspark.sql import Window
from lakestream.pyspark.sql import functions as F


@pytest.fixture
def events(spark):
    return spark.createDataFrame([("a", 1, 10), ("a", 2, 30), ("b", 1, 5), ("a", 3, 20), ("b", 2, 5)],
                                 ["k", "ts", "v"])


def test_latest_row_per_key_with_row_number(events):
    w = Window.partitionBy("k").orderBy(F.desc("ts"))
    latest = events.withColumn("rn", F.row_number().over(w)).filter(F.col("rn") == 1).drop("rn").orderBy("k")
    assert rows(latest) == [("a", 3, 20), ("b", 2, 5)]


def test_running_sum_lag_lead_and_ranks(events):
    by_time = Window.partitionBy("k").orderBy("ts")
    running = by_time.rowsBetween(Window.unboundedPreceding, Window.currentRow)
    got = events.select("k", "ts", F.sum("v").over(running).alias("running"),
                        F.lag("v", 1, 0).over(by_time).alias("prev"),
                        F.lead("v").over(by_time).alias("next"),
                        F.dense_rank().over(Window.orderBy("v")).alias("dr")).orderBy("k", "ts")
    assert rows(got) == [("a", 1, 10, 0, 30, 2), ("a", 2, 40, 10, 20, 4), ("a", 3, 60, 30, None, 3),
                         ("b", 1, 5, 0, 5, 1), ("b", 2, 10, 5, None, 1)]


def test_sliding_frame_and_ntile(events):
    w = Window.partitionBy("k").orderBy("ts").rowsBetween(-1, 1)
    got = events.select("k", "ts", F.max("v").over(w).alias("m"), F.ntile(2).over(Window.orderBy("k", "ts")).alias("t"))
    assert rows(got.orderBy("k", "ts")) == [("a", 1, 30, 1), ("a", 2, 30, 1), ("a", 3, 30, 1), ("b", 1, 5, 2),
                                            ("b", 2, 5, 2)]


def test_bad_window_arguments_are_named():
    with pytest.raises(TypeError, match="over\\(\\) takes a WindowSpec"):
        F.row_number().over("k")
    with pytest.raises(ValueError, match="ntile\\(n\\) takes a positive int"):
        F.ntile(0)
    with pytest.raises(TypeError, match="a frame bound is an int"):
        Window.orderBy("ts").rowsBetween("start", 0)
