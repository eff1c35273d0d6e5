"""spark.catalog: the basics of Spark's Catalog over lakestream's one
namespace of tables ("default"; catalog.schema names are not there yet)."""

from collections import namedtuple

from ..errors import AnalysisException
from ..._frame.sql import quote_name, unquote_name

Table = namedtuple("Table", ["name", "catalog", "namespace", "description", "tableType", "isTemporary"])
Database = namedtuple("Database", ["name", "catalog", "description", "locationUri"])
Column = namedtuple("Column", ["name", "description", "dataType", "nullable", "isPartition", "isBucket"])
Function = namedtuple("Function", ["name", "catalog", "namespace", "description", "className", "isTemporary"])

DEFAULT = "default"


class Catalog:
    def __init__(self, session):
        self._session = session

    def _rows(self, sql):
        with self._session._lock:
            rel = self._session._conn.sql(sql)
            return list(rel.columns), rel.fetchall()

    def _check_db(self, dbName):
        if dbName is not None and str(dbName).lower() not in (DEFAULT, "main"):
            raise AnalysisException("[SCHEMA_NOT_FOUND] The schema %r cannot be found: lakestream has one namespace "
                                    "of tables, %r (schemas are not supported yet)" % (dbName, DEFAULT))

    def currentDatabase(self):
        return DEFAULT

    def setCurrentDatabase(self, dbName):
        self._check_db(dbName)

    def currentCatalog(self):
        return "spark_catalog"

    def listDatabases(self, pattern=None):
        return [Database(DEFAULT, "spark_catalog", "lakestream's tables", self._session._database)]

    def databaseExists(self, dbName):
        return str(dbName).lower() in (DEFAULT, "main")

    def listTables(self, dbName=None, pattern=None):
        self._check_db(dbName)
        _, rows = self._rows("SHOW TABLES")
        out = []
        for r in rows:
            name = r[0]
            if pattern and not _like(name, pattern):
                continue
            out.append(Table(name, "spark_catalog", [DEFAULT], None, "MANAGED", False))
        return out

    def tableExists(self, tableName, dbName=None):
        self._check_db(dbName)
        name = unquote_name(tableName).lower()
        return any(t.name.lower() == name for t in self.listTables())

    def listColumns(self, tableName, dbName=None):
        self._check_db(dbName)
        if not self.tableExists(tableName):
            raise AnalysisException("[TABLE_OR_VIEW_NOT_FOUND] The table or view %s cannot be found" % tableName)
        names, rows = self._rows("DESCRIBE " + quote_name(unquote_name(tableName)))
        return [Column(r[0], None, str(r[1]).lower(), True, False, False) for r in rows]

    def dropTempView(self, viewName):
        with self._session._lock:
            self._session._conn.execute("DROP VIEW IF EXISTS " + quote_name(unquote_name(viewName)))
        return True

    def refreshTable(self, tableName):
        pass  # every query reads a table's latest version

    def clearCache(self):
        pass  # nothing is cached (DataFrame.cache)


def _like(name, pattern):
    import fnmatch
    return fnmatch.fnmatch(name.lower(), str(pattern).lower().replace("|", "*"))
