"""pyspark.sql.types: the shared type classes (LongType, StringType, StructType, ...)."""

from ..._frame.types import *  # noqa: F401,F403
from ..._frame.types import StructField, StructType  # noqa: F401
