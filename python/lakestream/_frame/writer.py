"""Writes of a Frame into a table, each ONE SQL statement.

One statement matters for table streams: the engine moves a stream's offset
atomically with the commit of the statement that read it, so a DataFrame
over a stream written here consumes exactly the rows it wrote.

save_as_table(mode):
  append         INSERT INTO t SELECT ...      (CREATE TABLE t AS ... when t is missing)
  overwrite      INSERT OVERWRITE t (cols) SELECT ... when t has the DataFrame's columns
                 (keeps its properties, change tracking and streams), else
                 CREATE OR REPLACE TABLE t AS ...
  errorifexists  CREATE TABLE t AS ...         (the engine's error when t exists)
  ignore         CREATE TABLE IF NOT EXISTS t AS ...  (when t exists nothing is read,
                 so a stream's offset stays where it was)
"""

from .sql import quote_name, unquote_name

SAVE_MODES = ("append", "overwrite", "errorifexists", "ignore")


def split_table_name(name):
    """The parts of a user's table name: "s.t" is schema s's t, "db.s.t" names
    the catalog too, and a quoted part keeps its dots ("`a.b`" is one name).
    A list or tuple (Snowpark's ["db", "schema", "t"]) is the parts already."""
    if isinstance(name, (list, tuple)):
        parts = [unquote_name(p) if isinstance(p, str) else p for p in name]
    elif isinstance(name, str):
        parts, part, quote, i = [], "", None, 0
        while i < len(name):
            c = name[i]
            if quote:
                if c == quote and name[i + 1:i + 2] == quote:
                    part += c
                    i += 1
                elif c == quote:
                    quote = None
                else:
                    part += c
            elif c in ('`', '"') and part == "" and (i == 0 or name[i - 1] == "."):
                quote = c  # only a part's first character opens a quote
            elif c == ".":
                parts.append(part)
                part = ""
            else:
                part += c
            i += 1
        if quote:  # an unbalanced quote: the text is the name itself
            parts, part = [], name
        parts.append(part)
    else:
        parts = [name]
    if not 1 <= len(parts) <= 3 or not all(isinstance(p, str) and p for p in parts):
        raise TypeError("a table name is 'table', 'schema.table' or 'catalog.schema.table' (non-empty parts), not %r"
                        % (name,))
    return parts


def table_key(name):
    """A user's table name as the one identifier the engine keys it by: "t"
    in the default schema (main, also called default and public), "s.t" in
    schema s; a catalog part is dropped. For code that derives names from it
    (streams, checkpoints) and quotes it as one identifier."""
    parts = split_table_name(name)
    if len(parts) == 3:
        parts = parts[1:]
    if len(parts) == 2 and parts[0].lower() in ("main", "default", "public"):
        parts = parts[1:]
    return ".".join(parts)


def table_name_sql(name):
    """A user's table name as SQL: each part quoted, so the engine resolves
    schema and catalog parts (docs/sql-schemas.md)."""
    return ".".join(quote_name(p) for p in split_table_name(name))


def table_columns(conn, name_sql):
    """The table's column names, or None when there is no such table."""
    import lakestream
    try:
        rel = conn.sql("DESCRIBE TABLE " + name_sql)
    except lakestream.CatalogException as e:
        if "does not exist" in str(e):
            return None
        raise
    return [r[0] for r in rel.fetchall()]


def check_mode(mode, modes=SAVE_MODES):
    if not isinstance(mode, str) or mode.lower() not in modes:
        raise ValueError("save mode %r is not one of: %s" % (mode, ", ".join(modes)))
    return mode.lower()


def table_partition_columns(conn, name_sql):
    """The partition columns of an existing Delta table (DESCRIBE DETAIL), lower-cased."""
    rel = conn.sql("DESCRIBE DETAIL " + name_sql)
    detail = dict(zip(rel.columns, rel.fetchone()))
    text = str(detail.get("partitionColumns") or "[]").strip("[]")
    return [c.strip().lower() for c in text.split(",") if c.strip()]


def save_as_table(frame, name, mode="append", column_order="index", partition_by=None):
    """Write ``frame`` into table ``name``; returns the statement run.
    ``partition_by``: the columns a table created here is partitioned by; an
    existing table must already be partitioned by exactly those."""
    mode = check_mode(mode)
    if column_order not in ("index", "name"):
        raise ValueError("column_order %r is not one of: index, name" % (column_order,))
    target = table_name_sql(name)
    query = frame._sql()
    conn = frame._conn
    parts = [unquote_name(c) for c in (partition_by or [])]
    partitioned = " PARTITIONED BY (%s)" % ", ".join(quote_name(c) for c in parts) if parts else ""
    if parts and mode in ("append", "overwrite") and table_columns(conn, target) is not None:
        have = table_partition_columns(conn, target)
        if have != [c.lower() for c in parts]:
            raise ValueError("table %s is partitioned by (%s), not (%s); write without partitionBy, or recreate the "
                             "table" % (name, ", ".join(have), ", ".join(parts)))
    if mode == "errorifexists":
        stmt = "CREATE TABLE %s%s AS %s" % (target, partitioned, query)
    elif mode == "ignore":
        stmt = "CREATE TABLE IF NOT EXISTS %s%s AS %s" % (target, partitioned, query)
    else:
        existing = table_columns(conn, target)
        if existing is None:
            stmt = "CREATE TABLE %s%s AS %s" % (target, partitioned, query)
        elif mode == "append":
            cols = ""
            if column_order == "name":
                cols = " (%s)" % ", ".join(quote_name(c) for c in frame.columns)
            stmt = "INSERT INTO %s%s %s" % (target, cols, query)
        else:  # overwrite
            mine = frame.columns
            if sorted(c.lower() for c in mine) == sorted(c.lower() for c in existing):
                stmt = "INSERT OVERWRITE %s (%s) %s" % (target, ", ".join(quote_name(c) for c in mine), query)
            else:
                stmt = "CREATE OR REPLACE TABLE %s%s AS %s" % (target, partitioned, query)
    import lakestream
    try:
        conn.execute(stmt, list(frame._params) if frame._params else None)
    except lakestream.CatalogException as e:
        if mode == "errorifexists" and "already exists" in str(e):
            # the engine's fix names SQL; say what it means for this call
            raise type(e)("%s\n(save_as_table mode 'errorifexists', the default: write into the existing "
                          "table with mode='append' or mode='overwrite')" % e) from e
        raise
    return stmt
