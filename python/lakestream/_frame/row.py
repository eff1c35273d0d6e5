"""Row: a tuple whose values can also be read by column name."""

import gc


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
    def _class_for(cls, fields):
        """The Row class of a column list: the names live on a small
        subclass cached per list, not on every row."""
        sub = _ROW_CLASSES.get((cls, fields))
        if sub is None:
            sub = type(cls.__name__, (cls,), {"__slots__": (), "_fields": fields})
            _ROW_CLASSES[(cls, fields)] = sub
        return sub

    @classmethod
    def _make(cls, values, fields):
        return tuple.__new__(cls._class_for(fields), values)

    @classmethod
    def _make_all(cls, rows, fields):
        sub = cls._class_for(tuple(fields))
        new = tuple.__new__
        return [new(sub, values) for values in rows]

    def _with_fields(self, fields):
        return tuple.__new__(type(self)._class_for(fields), self)

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


class gc_paused:
    """Pauses the cyclic garbage collector while a result's rows are built:
    a million new tuples would otherwise set off collections that scan them
    all again and find nothing (they are all reachable), doubling the time."""

    def __enter__(self):
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        if self.was_enabled:
            gc.enable()
