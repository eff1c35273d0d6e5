"""pyspark.sql: SparkSession, DataFrame, Column, Row, functions, types."""

from . import functions, types
from .column import Column
from .dataframe import DataFrame, GroupedData
from .session import SparkSession
from .row import Row

__all__ = ["SparkSession", "DataFrame", "GroupedData", "Column", "Row", "functions", "types"]
