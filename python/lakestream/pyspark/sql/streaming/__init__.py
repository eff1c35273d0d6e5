"""pyspark.sql.streaming: DataStreamReader/Writer and StreamingQuery on
table streams, materialized views and sinks (docs/python-pyspark.md)."""

from .query import StreamingQuery, StreamingQueryManager
from .readwriter import DataStreamReader, DataStreamWriter

__all__ = ["DataStreamReader", "DataStreamWriter", "StreamingQuery", "StreamingQueryManager"]
