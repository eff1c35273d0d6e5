"""spark.catalog: the basics of Spark's Catalog over lakestream's schemas
(CREATE SCHEMA / USE, docs/sql-schemas.md). The default schema is main, which
Spark code calls "default"; the catalog is the database (its directory's name)."""

from collections import namedtuple

from ..errors import AnalysisException
from ..._frame.sql import quote_name, unquote_name
from ..._frame.writer import split_table_name, table_name_sql

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

    def _schemas(self):
        return [r[0] for r in self._rows("SHOW SCHEMAS")[1]]

    def _check_db(self, dbName):
        if dbName is not None and not self.databaseExists(dbName):
            raise AnalysisException("[SCHEMA_NOT_FOUND] The schema %r cannot be found; the schemas are %s. Create it "
                                    "with spark.sql(\"CREATE SCHEMA %s\")" % (dbName, ", ".join(self._schemas()), dbName))

    def currentDatabase(self):
        name = self._rows("SELECT current_schema()")[1][0][0]
        return DEFAULT if name == "main" else name

    def setCurrentDatabase(self, dbName):
        self._check_db(dbName)
        with self._session._lock:
            self._session._conn.execute("USE " + quote_name(unquote_name(str(dbName))))

    def currentCatalog(self):
        return self._rows("SELECT current_catalog()")[1][0][0]

    def listDatabases(self, pattern=None):
        catalog = self.currentCatalog()
        out = []
        for name in self._schemas():
            shown = DEFAULT if name == "main" else name
            if pattern and not _like(shown, pattern):
                continue
            out.append(Database(shown, catalog, "schema %s of lakestream database %s" % (name, catalog),
                                self._session._database))
        return out

    def databaseExists(self, dbName):
        name = unquote_name(str(dbName)).lower()
        return name in (DEFAULT, "main", "public") or name in (s.lower() for s in self._schemas())

    def listTables(self, dbName=None, pattern=None):
        self._check_db(dbName)
        sql = "SHOW TABLES" if dbName is None else "SHOW TABLES IN " + quote_name(unquote_name(str(dbName)))
        _, rows = self._rows(sql)
        namespace = [str(dbName) if dbName is not None else self.currentDatabase()]
        out = []
        for r in rows:
            name = r[0]
            if pattern and not _like(name, pattern):
                continue
            out.append(Table(name, self.currentCatalog(), namespace, None, "MANAGED", False))
        return out

    def tableExists(self, tableName, dbName=None):
        self._check_db(dbName)
        parts = split_table_name(tableName)
        if dbName is None and len(parts) > 1:  # "s.t": schema s's t
            dbName, parts = parts[-2], parts[-1:]
            if not self.databaseExists(dbName):
                return False
        name = parts[0].lower()
        return any(t.name.lower() == name for t in self.listTables(dbName))

    def listColumns(self, tableName, dbName=None):
        self._check_db(dbName)
        if not self.tableExists(tableName, dbName):
            raise AnalysisException("[TABLE_OR_VIEW_NOT_FOUND] The table or view %s cannot be found" % tableName)
        name = tableName if dbName is None else [str(dbName), tableName]
        names, rows = self._rows("DESCRIBE " + table_name_sql(name))
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
