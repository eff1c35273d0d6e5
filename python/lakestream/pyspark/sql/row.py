"""pyspark.sql.Row: the shared Row with Spark's asDict()."""

from ..._frame.row import Row as _Row


class Row(_Row):
    __slots__ = ()

    def asDict(self, recursive=False):
        return self.as_dict(recursive)
