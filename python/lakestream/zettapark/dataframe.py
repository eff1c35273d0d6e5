"""DataFrame, Table and DataFrameWriter with Snowpark's names.

Everything is lazy: operations build SQL text (lakestream._frame), actions
(collect, count, show, to_pandas, save_as_table, merge) run it. Reading a
table stream never moves its offset; a write that reads it consumes it in
the same commit (one statement).
"""

from collections import namedtuple

from .._frame import merge as _merge
from .._frame.frame import Frame, GroupedFrame
from .._frame.row import Row
from .._frame.writer import SAVE_MODES, check_mode, save_as_table, table_name_sql
from .column import Column

MergeResult = namedtuple("MergeResult", ["rows_inserted", "rows_updated", "rows_deleted"])
UpdateResult = namedtuple("UpdateResult", ["rows_updated", "multi_joined_rows_updated"])
DeleteResult = namedtuple("DeleteResult", ["rows_deleted"])


def _sync(block, what):
    """Snowpark's block=False returns an AsyncJob; lakestream runs in this
    process and has none."""
    if not block:
        raise NotImplementedError("%s(block=False): asynchronous jobs; lakestream runs the statement "
                                  "in this process, call it with block=True" % what)


class DataFrame(Frame):
    row_class = Row
    column_class = Column

    # statement_params (query tags) have nothing to tag here; they are accepted and unused
    def collect(self, *, statement_params=None, block=True, log_on_exception=False, case_sensitive=True):
        _sync(block, "collect")
        return Frame.collect(self)

    def count(self, *, statement_params=None, block=True):
        _sync(block, "count")
        return Frame.count(self)

    def to_pandas(self, *, statement_params=None, block=True, **kwargs):
        _sync(block, "to_pandas")
        return Frame.to_pandas(self)

    toPandas = to_pandas

    # -- columns -------------------------------------------------------------
    def col(self, name):
        return self._col(name)

    def __getitem__(self, item):
        if isinstance(item, str):
            return self._col(item)
        if isinstance(item, int) and not isinstance(item, bool):
            return self._col(self.columns[item])
        if isinstance(item, (list, tuple)):
            return self.select(*item)
        if isinstance(item, Column):
            return self.filter(item)
        raise TypeError("df[...] takes a column name, a position, a list of names or a condition, not %r" % (item,))

    def __iter__(self):
        raise TypeError("a DataFrame is not iterable: iterate over df.collect() or df.to_local_iterator()")

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        for c in self.columns:
            if c.lower() == name.lower():
                return self._col(c)
        raise AttributeError("DataFrame has no attribute or column %r; its columns are: %s"
                             % (name, ", ".join(self.columns)))

    # -- Snowpark spellings ------------------------------------------------
    def group_by(self, *cols):
        return RelationalGroupedDataFrame(self, _flat(cols))

    groupBy = group_by

    def agg(self, *exprs):
        return self.group_by().agg(*exprs)

    def with_columns(self, col_names, values):
        return Frame.with_columns(self, list(col_names), list(values))

    withColumn = Frame.with_column
    withColumns = with_columns
    with_column_renamed = Frame.with_column_renamed
    withColumnRenamed = Frame.with_column_renamed
    rename = Frame.with_column_renamed
    order_by = Frame.sort
    orderBy = Frame.sort
    unionAll = Frame.union_all
    unionByName = Frame.union_by_name
    unionAllByName = Frame.union_all_by_name
    crossJoin = Frame.cross_join
    toLocalIterator = Frame.to_local_iterator

    select_expr = Frame.select_expr
    selectExpr = Frame.select_expr
    fillna = Frame.fill_null
    dropna = Frame.drop_null

    @property
    def na(self):
        return DataFrameNaFunctions(self)

    def drop_duplicates(self, *subset):
        if subset:
            raise NotImplementedError("drop_duplicates() of some columns (%s); drop_duplicates() with no "
                                      "columns (= distinct()) is built" % ", ".join(map(str, _flat(subset))))
        return self.distinct()

    dropDuplicates = drop_duplicates

    def first(self, n=None):
        if n is None:
            rows = self.limit(1).collect()
            return rows[0] if rows else None
        return self.limit(n).collect()

    def take(self, n=None):
        return self.first(n)

    def collect_nowait(self):
        raise NotImplementedError("collect_nowait(): lakestream runs queries in this process; use collect()")

    def cache_result(self):
        raise NotImplementedError("cache_result(): write the rows with save_as_table() and read the table")

    def to_df(self, *names):
        names = _flat(names)
        cols = self.columns
        if len(names) != len(cols):
            raise ValueError("to_df() needs %d names (%s), got %d" % (len(cols), ", ".join(cols), len(names)))
        return self.select([self._col(c).alias(n) for c, n in zip(cols, names)])

    toDF = to_df

    # -- output --------------------------------------------------------------
    def show(self, n=10, max_width=50):
        print(self._show_string(n, max_width))

    def _show_string(self, n=10, max_width=50):
        names, rows = self._head(n)

        def cell(v):
            text = "NULL" if v is None else str(v)
            text = text.replace("\n", "\\n")
            return text if len(text) <= max_width else text[:max_width - 3] + "..."

        header = ['"%s"' % c for c in names]
        body = [[cell(v) for v in r] for r in rows]
        widths = [max([len(h)] + [len(r[i]) for r in body]) + 2 for i, h in enumerate(header)]
        line = "-" * (sum(widths) + len(widths) + 1)
        out = [line, "|" + "|".join(h.ljust(w) for h, w in zip(header, widths)) + "|", line]
        out += ["|" + "|".join(v.ljust(w) for v, w in zip(r, widths)) + "|" for r in body]
        out.append(line)
        return "\n".join(out)

    def print_schema(self):
        print(self._schema_string())

    printSchema = print_schema

    def _schema_string(self):
        lines = ["root"]
        for f in self.schema.fields:
            lines.append(' |-- "%s": %r (nullable = %s)' % (f.name, f.datatype, f.nullable))
        return "\n".join(lines)

    @property
    def write(self):
        return DataFrameWriter(self)

    def explain(self):
        """Prints the SQL this DataFrame runs and the engine's plan for it."""
        print(self._explain_string())

    def _explain_string(self):
        plan = self._conn.sql("EXPLAIN " + self._sql(), list(self._params) or None).fetchall()
        return "SQL:\n%s\n\nPlan:\n%s" % (self._sql(), "\n".join(str(r[-1]).rstrip() for r in plan))


class Table(DataFrame):
    """A table (or materialized view, or table stream) by name: a DataFrame
    of all its rows, plus update, delete and merge on a table."""

    _derived_class = DataFrame

    def __init__(self, conn, name, session=None):
        sql_name = table_name_sql(name)
        super().__init__(conn, source_sql=sql_name, session=session)
        self.table_name = name if isinstance(name, str) else ".".join(name)
        self._table_sql = sql_name

    def update(self, assignments, condition=None, source=None, *, statement_params=None, block=True):
        """UPDATE t SET ... [FROM source] [WHERE condition]: returns UpdateResult."""
        _sync(block, "update")
        stmt = _merge.update_sql(self, self._table_sql, assignments, condition, source)
        counts = _merge.run_counts(self._conn, stmt, source._params if source is not None else None)
        return UpdateResult(_count(counts, "num_updated_rows", "num_affected_rows"), 0)

    def delete(self, condition=None, source=None, *, statement_params=None, block=True):
        """DELETE FROM t [USING source] [WHERE condition]: returns DeleteResult."""
        _sync(block, "delete")
        stmt = _merge.delete_sql(self, self._table_sql, condition, source)
        counts = _merge.run_counts(self._conn, stmt, source._params if source is not None else None)
        return DeleteResult(_count(counts, "num_deleted_rows", "num_affected_rows"))

    def merge(self, source, join_expr, clauses, *, statement_params=None, block=True):
        """MERGE INTO this table USING source ON join_expr with the
        when_matched()/when_not_matched() clauses, as one statement: a
        source over a table stream is consumed in the merge's commit."""
        _sync(block, "merge")
        stmt = _merge.merge_sql(self, self._table_sql, source, join_expr, clauses)
        counts = _merge.run_counts(self._conn, stmt, source._params)
        return MergeResult(_count(counts, "num_inserted_rows"), _count(counts, "num_updated_rows"),
                           _count(counts, "num_deleted_rows"))

    def drop_table(self):
        self._conn.execute("DROP TABLE " + self._table_sql)


def _count(counts, *keys):
    for k in keys:
        if k in counts and counts[k] is not None:
            return int(counts[k])
    return 0


def _flat(args):
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return list(args[0])
    return list(args)


class DataFrameNaFunctions:
    """df.na: ``fill(value, subset)`` and ``drop(how, thresh, subset)``."""

    def __init__(self, frame):
        self._frame = frame

    def fill(self, value, subset=None):
        return self._frame.fill_null(value, subset)

    def drop(self, how="any", thresh=None, subset=None):
        return self._frame.drop_null(how, thresh, subset)

    def replace(self, *args, **kwargs):
        raise NotImplementedError("na.replace(): use with_column(name, F.when(...).otherwise(...))")


class RelationalGroupedDataFrame(GroupedFrame):
    """df.group_by(...): ``agg(...)``, ``count()``, ``sum(...)``, ..."""

    def function(self, agg_name):
        return lambda *cols: self._simple(agg_name, cols)

    builtin = function


class DataFrameWriter:
    """df.write: ``save_as_table(name, mode=...)``, one statement per call."""

    def __init__(self, frame):
        self._frame = frame
        self._mode = "errorifexists"

    def mode(self, save_mode):
        self._mode = check_mode(save_mode)
        return self

    def save_as_table(self, table_name, *, mode=None, column_order="index", create_temp_table=False,
                      table_type="", statement_params=None, block=True, **kwargs):
        """Write the rows into ``table_name``. mode: append (creates the
        table when missing), overwrite, errorifexists (the default, as in
        Snowpark), ignore. A DataFrame over a table stream is consumed in
        the same commit as the write."""
        _sync(block, "save_as_table")
        if create_temp_table or table_type:
            raise NotImplementedError("save_as_table() of a %s table: lakestream tables are all permanent"
                                      % (table_type or "temporary"))
        if kwargs:
            raise NotImplementedError("save_as_table() options %s" % ", ".join(sorted(kwargs)))
        save_as_table(self._frame, table_name, self._mode if mode is None else mode, column_order)
        return None

    saveAsTable = save_as_table

    def copy_into_location(self, *args, **kwargs):
        raise NotImplementedError("copy_into_location(): use session.sql(\"COPY t TO 'file.parquet'\")")


__all__ = ["DataFrame", "Table", "DataFrameWriter", "RelationalGroupedDataFrame", "MergeResult",
           "UpdateResult", "DeleteResult", "SAVE_MODES"]
