"""Column types (Snowpark names): ``from lakestream.zettapark.types import *``."""

from .._frame.types import (ArrayType, BinaryType, BooleanType, ByteType, DataType, DateType, DecimalType,
                            DoubleType, FloatType, IntegerType, LongType, MapType, NullType, ShortType,
                            StringType, StructField, StructType, TimestampType)

__all__ = ["ArrayType", "BinaryType", "BooleanType", "ByteType", "DataType", "DateType", "DecimalType",
           "DoubleType", "FloatType", "IntegerType", "LongType", "MapType", "NullType", "ShortType",
           "StringType", "StructField", "StructType", "TimestampType"]
