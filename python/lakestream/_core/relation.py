"""Relation: the rows of one statement run by Connection.sql()."""

from .errors import InterfaceError, translate
from . import _optional
from .. import _lakestream


def _run(call, *args):
    # A streaming result runs while it is read: its errors arrive here.
    try:
        return call(*args)
    except _lakestream.NativeError as e:
        raise translate(e) from None


class Relation:
    """The result of a statement that returns rows. Connection.sql() binds
    and starts it; its rows are produced when first read (an error in a late
    row is raised then) and kept, so every method below can read them again.

    fetchone/fetchmany/fetchall walk the rows once, like a cursor: each
    returns the rows after the ones already fetched. df()/to_pandas(),
    fetchnumpy() and show() always cover every row.
    """

    def __init__(self, native, connection=None):
        self._native = native
        self._connection = connection

    @property
    def columns(self):
        """Column names, in order."""
        return list(self._native.names)

    @property
    def types(self):
        """Column types in SQL spelling, e.g. "BIGINT", "DECIMAL(10,2)", "VARCHAR[]"."""
        return list(self._native.types)

    @property
    def dtypes(self):
        return self.types

    @property
    def description(self):
        from .cursor import describe
        return describe(self._native)

    def __len__(self):
        return _run(lambda: self._native.row_count)

    def fetchone(self):
        """The next row as a tuple, or None after the last."""
        return _run(self._native.fetchone)

    def fetchmany(self, size=1):
        """The next `size` rows (fewer at the end) as a list of tuples."""
        if size is None or size < 0:
            raise InterfaceError(f"fetchmany(size={size!r}): size must be a number >= 0")
        return _run(self._native.fetch, size)

    def fetchall(self):
        """Every row not fetched yet, as a list of tuples."""
        return _run(self._native.fetch, -1)

    def fetchnumpy(self):
        """Every row as a dict column name -> numpy array (one copy per
        column). A column with NULLs is a numpy.ma.MaskedArray."""
        return _run(_optional.fetchnumpy, self._native)

    def df(self):
        """Every row as a pandas.DataFrame (one copy per numeric column)."""
        return _run(_optional.to_pandas, self._native)

    to_pandas = df
    to_df = df
    fetchdf = df

    def show(self, max_rows=20, max_width=None, file=None):
        """Prints the rows as a table (the first and last rows when there are
        more than max_rows), with the column types under the names."""
        from .render import render
        print(_run(lambda: render(self._native, max_rows=max_rows, max_width=max_width)), file=file)

    def __str__(self):
        from .render import render
        return _run(render, self._native)

    def __repr__(self):
        return self.__str__()
