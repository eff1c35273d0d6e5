"""A PySpark Structured Streaming subset on lakestream (docs/python-pyspark.md).

    from lakestream.pyspark.sql import SparkSession
    from lakestream.pyspark.sql.functions import col, to_json, struct
    spark = SparkSession.builder.config("lakestream.database", "lake").getOrCreate()

Batch DataFrames are the shared lazy layer (lakestream._frame) with Spark's
method names; streaming queries are built on table streams, materialized
views and sinks, whose offsets move atomically with the statements that
consume them.
"""

from .errors import AnalysisException, StreamingQueryException
from .sql import Column, DataFrame, Row, SparkSession

__all__ = ["SparkSession", "DataFrame", "Column", "Row", "AnalysisException", "StreamingQueryException"]
