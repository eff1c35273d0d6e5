"""Column with Snowpark's method names on top of the shared core."""

from .._frame.column import Column as _CoreColumn


class Column(_CoreColumn):
    __slots__ = ()

    def in_(self, *values):
        return self.isin(*values)

    def as_(self, name):
        return self.alias(name)

    def name(self, name):
        return self.alias(name)

    def astype(self, to):
        return self.cast(to)

    def get_name(self):
        return self._output_name()

    getName = get_name
    isNull = _CoreColumn.is_null
    isNotNull = _CoreColumn.is_not_null
    is_not_null = _CoreColumn.is_not_null
    regexp = _CoreColumn.rlike
    equalNull = _CoreColumn.equal_null


class CaseExpr(Column):
    """The result of when(...); Snowpark names it CaseExpr."""
    __slots__ = ()
