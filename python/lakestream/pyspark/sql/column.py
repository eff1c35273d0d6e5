"""Column with PySpark's method names (isNull, isNotNull, eqNullSafe, astype,
getField) over the shared expression tree; every operator keeps this class."""

from ..._frame.column import Column as _Column
from ..._frame.column import Raw
from ..._frame.sql import quote_name


class Column(_Column):
    __slots__ = ()

    def isNull(self):
        return self.is_null()

    def isNotNull(self):
        return self.is_not_null()

    def eqNullSafe(self, other):
        return self.equal_null(other)

    def astype(self, to):
        return self.cast(to)

    def name(self, alias):
        return self.alias(alias)

    def getField(self, name):
        """A field of a STRUCT column: ``col("s").getField("a")``."""
        return self._new(Raw("(", self._expr_node(), ")." + quote_name(name)))


def wrap(column):
    """A shared-layer Column as this class (the shared functions build the base class)."""
    if isinstance(column, Column) or not isinstance(column, _Column):
        return column
    return Column(column._node)
