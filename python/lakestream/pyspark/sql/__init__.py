"""pyspark.sql: SparkSession, DataFrame, Column, Row, functions, types."""

from . import functions, types
from .column import Column
from .dataframe import DataFrame, GroupedData
from .session import SparkSession
from .row import Row
from .window import Window, WindowSpec

__all__ = ["SparkSession", "DataFrame", "GroupedData", "Column", "Row", "Window", "WindowSpec", "functions", "types"]
