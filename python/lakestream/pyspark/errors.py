"""The exceptions PySpark code catches (pyspark.errors / pyspark.sql.utils)."""

import lakestream


class AnalysisException(lakestream.ProgrammingError):
    """A query that cannot run as written (Spark's AnalysisException): the
    message names the object, what is wrong and the fix."""


class StreamingQueryException(lakestream.OperationalError):
    """A streaming query stopped with an error; ``cause`` is the original one."""

    def __init__(self, message, cause=None):
        super().__init__(message)
        self.cause = cause

    def desc(self):
        return str(self)
