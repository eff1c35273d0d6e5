"""Row: a tuple whose values can also be read by column name."""


class Row(tuple):
    """``row[0]``, ``row["id"]`` and ``row.id`` read the same value.

    Names match exactly first, then ignoring case (Snowpark code often
    spells names upper-case while lakestream keeps the spelling of the
    query). With duplicate names the first column wins.
    ``Row(a=1, b=2)`` builds one by hand.
    """

    __slots__ = ()
    _fields = ()

    def __new__(cls, *values, **named):
        if values and named:
            raise ValueError("Row() takes values or name=value pairs, not both")
        if named:
            row = tuple.__new__(cls, named.values())
            return row._with_fields(tuple(named.keys()))
        return tuple.__new__(cls, values)

    @classmethod
    def _make(cls, values, fields):
        row = tuple.__new__(cls, values)
        return row._with_fields(fields)

    def _with_fields(self, fields):
        # A per-row subclass would be costly; the names live on a small
        # subclass cached per column list.
        sub = _ROW_CLASSES.get((type(self), fields))
        if sub is None:
            sub = type(type(self).__name__, (type(self),), {"__slots__": (), "_fields": fields})
            _ROW_CLASSES[(type(self), fields)] = sub
        return tuple.__new__(sub, self)

    def _index(self, name):
        fields = self._fields
        try:
            return fields.index(name)
        except ValueError:
            pass
        low = name.lower()
        for i, f in enumerate(fields):
            if f.lower() == low:
                return i
        return -1

    def __getitem__(self, key):
        if isinstance(key, str):
            i = self._index(key)
            if i < 0:
                raise KeyError("no column %r in this row; its columns are: %s" % (key, ", ".join(self._fields)))
            return tuple.__getitem__(self, i)
        return tuple.__getitem__(self, key)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        i = self._index(name)
        if i < 0:
            raise AttributeError("no column %r in this row; its columns are: %s" % (name, ", ".join(self._fields)))
        return tuple.__getitem__(self, i)

    def __contains__(self, item):
        return tuple.__contains__(self, item)

    def as_dict(self, recursive=False):
        out = {}
        for name, value in zip(self._fields, self):
            if recursive and isinstance(value, Row):
                value = value.as_dict(True)
            out.setdefault(name, value)
        return out

    asDict = as_dict

    def __reduce__(self):
        return (_rebuild, (type(self).__mro__[1] if self._fields else type(self), tuple(self), self._fields))

    def __repr__(self):
        if not self._fields:
            return "Row(%s)" % ", ".join(repr(v) for v in self)
        return "Row(%s)" % ", ".join("%s=%r" % (n, v) for n, v in zip(self._fields, self))


def _rebuild(cls, values, fields):
    return cls._make(values, fields) if fields else tuple.__new__(cls, values)


_ROW_CLASSES = {}
