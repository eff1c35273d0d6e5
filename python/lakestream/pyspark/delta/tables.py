"""DeltaTable (delta-spark's delta.tables), the calls foreachBatch upserts use:

    DeltaTable.forName(spark, "customers").alias("t").merge(
        batch_df.alias("s"), "t.id = s.id"
    ).whenMatchedUpdateAll().whenNotMatchedInsertAll().execute()

Each call is one SQL statement (MERGE, UPDATE, DELETE). Conditions and
values are SQL text (as in delta-spark) or Columns; the engine's parser
checks each text is one expression before it goes into the statement.
"""

from ..._frame.column import Column as _Column
from ..._frame.column import Scope
from ..._frame.sql import checked_expression, quote_name, unquote_name
from ..errors import AnalysisException


class _QualifiedScope(Scope):
    """col("s.name") is column name of the side aliased s, as in Spark."""

    def ref(self, df_id, name):
        return ".".join(quote_name(p) for p in name.split(".")) if "." in name else quote_name(name)


_QUALIFIED = _QualifiedScope()


def _expr(e, what):
    """SQL text of a condition or value: text checked to be one expression
    (``what`` names the call in the error), a Column rendered (col("s.name")
    names column name of the side aliased s)."""
    if isinstance(e, str):
        text = checked_expression(e, what)
        return "(" + text + ("\n)" if "--" in text else ")")
    if isinstance(e, _Column):
        return e._expr_node().render(_QUALIFIED)
    raise TypeError("expected SQL text or a Column, not %r" % (e,))


def _assignments(assignments, what):
    """``a = <value>, b = <value>`` of an UPDATE SET."""
    return ", ".join("%s = %s" % kv for kv in _sets(assignments, what))


def _sets(assignments, what):
    if not isinstance(assignments, dict) or not assignments:
        raise TypeError("expected a non-empty dict {column: SQL text or Column}, not %r" % (assignments,))
    return [(quote_name(unquote_name(k)), _expr(v, what)) for k, v in assignments.items()]


class DeltaTable:
    def __init__(self, spark, name, alias=None):
        self._spark = spark
        self._name = name
        self._alias = alias

    @classmethod
    def forName(cls, sparkSession, tableOrViewName):
        name = unquote_name(tableOrViewName)
        sparkSession._table_columns(name)  # a clear error when it does not exist
        return cls(sparkSession, name)

    @classmethod
    def forPath(cls, sparkSession, path):
        return cls(sparkSession, sparkSession._table_at_path(path))

    @classmethod
    def isDeltaTable(cls, sparkSession, identifier):
        try:
            sparkSession._table_columns(unquote_name(identifier))
            return True
        except AnalysisException:
            return False

    def alias(self, aliasName):
        return DeltaTable(self._spark, self._name, aliasName)

    def toDF(self):
        return self._spark.table(self._name)

    def _target(self):
        t = quote_name(self._name)
        return t + (" AS " + quote_name(self._alias) if self._alias else "")

    def _run(self, sql):
        with self._spark._lock:
            self._spark._conn.execute(sql)

    def delete(self, condition=None):
        self._run("DELETE FROM %s%s" % (self._target(),
                                        "" if condition is None else " WHERE " + _expr(condition, "delete()")))

    def update(self, condition=None, set=None):
        sets = _assignments(set, "update()")
        self._run("UPDATE %s SET %s%s" % (self._target(), sets,
                                          "" if condition is None else " WHERE " + _expr(condition, "update()")))

    def merge(self, source, condition):
        return DeltaMergeBuilder(self, source, condition)

    def history(self, limit=None):
        df = self._spark.sql("DESCRIBE HISTORY " + quote_name(self._name))
        return df.limit(limit) if limit else df

    def vacuum(self, retentionHours=None):
        self._spark.sql("VACUUM " + quote_name(self._name))


class DeltaMergeBuilder:
    def __init__(self, table, source, condition):
        self._table = table
        self._source = source
        self._condition = condition
        self._clauses = []

    def _add(self, when, condition, then):
        cond = "" if condition is None else " AND " + _expr(condition, "merge(): a %s condition" % when)
        self._clauses.append(when + cond + " THEN " + then)
        return self

    def whenMatchedUpdate(self, condition=None, set=None):
        return self._add("WHEN MATCHED", condition, "UPDATE SET " + _assignments(set, "whenMatchedUpdate()"))

    def whenMatchedUpdateAll(self, condition=None):
        return self._add("WHEN MATCHED", condition, "UPDATE SET *")

    def whenMatchedDelete(self, condition=None):
        return self._add("WHEN MATCHED", condition, "DELETE")

    def whenNotMatchedInsert(self, condition=None, values=None):
        pairs = _sets(values, "whenNotMatchedInsert()")
        return self._add("WHEN NOT MATCHED", condition, "INSERT (%s) VALUES (%s)" % (
            ", ".join(k for k, _ in pairs), ", ".join(v for _, v in pairs)))

    def whenNotMatchedInsertAll(self, condition=None):
        return self._add("WHEN NOT MATCHED", condition, "INSERT *")

    def whenNotMatchedBySourceDelete(self, condition=None):
        return self._add("WHEN NOT MATCHED BY SOURCE", condition, "DELETE")

    def whenNotMatchedBySourceUpdate(self, condition=None, set=None):
        return self._add("WHEN NOT MATCHED BY SOURCE", condition,
                         "UPDATE SET " + _assignments(set, "whenNotMatchedBySourceUpdate()"))

    def execute(self):
        if not self._clauses:
            raise AnalysisException("merge() needs at least one whenMatched... / whenNotMatched... clause")
        src = self._source
        alias = getattr(src, "_lsq_alias", None) or "source"
        t = self._table
        sql = "MERGE INTO %s USING (%s) AS %s ON %s %s" % (
            t._target(), src._sql(), quote_name(alias), _expr(self._condition, "merge()"), " ".join(self._clauses))
        if getattr(src, "_params", None):
            raise AnalysisException("merge(): a source DataFrame with query parameters is not supported")
        t._run(sql)
