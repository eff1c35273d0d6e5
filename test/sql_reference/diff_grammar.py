"""The differential test's grammar: random tables and random queries.

Every query is built so that its answer is deterministic and the same under
Spark's and DuckDB's semantics:
  * no `/` (Spark and DuckDB differ on integer division), no DECIMAL
    literals, small integers (no overflow);
  * DOUBLE columns hold multiples of 0.25 (sums are exact in any order);
    averages and other fractions are rounded to 2 places;
  * ORDER BY names every output column with explicit NULLS FIRST/LAST
    (Spark and DuckDB default differently), so ORDER BY + LIMIT has one
    answer; without ORDER BY rows are compared as a sorted multiset;
  * row_number/lag/lead/ROWS frames order by a unique key last;
  * scalar subqueries are aggregates (one row always).
Each query is rendered twice (Query.lake, Query.duck) where the dialects
spell a construct differently (LEFT SEMI JOIN in Spark is SEMI JOIN in DuckDB).
"""
import datetime

TABLES = {
    't1': [('id', 'int'), ('k', 'int'), ('g', 'str'), ('v', 'int'), ('d', 'dbl'), ('dt', 'date')],
    't2': [('pk', 'int'), ('k', 'int'), ('g', 'str'), ('w', 'big'), ('d', 'dbl')],
    't3': [('rid', 'int'), ('k', 'int'), ('v', 'int'), ('s', 'str'), ('dt', 'date')],
}
KEY = {'t1': 'id', 't2': 'pk', 't3': 'rid'}
# Derived tables joins may use like tables: (SQL, columns).
DERIVED = {
    'agg1': ('(SELECT k, g, count(*) AS n, sum(v) AS sv FROM t1 GROUP BY k, g)',
             [('k', 'int'), ('g', 'str'), ('n', 'big'), ('sv', 'big')]),
    'agg3': ('(SELECT k, max(dt) AS dt, count(DISTINCT s) AS n FROM t3 WHERE v IS NOT NULL GROUP BY k)',
             [('k', 'int'), ('dt', 'date'), ('n', 'big')]),
    'u12': ('(SELECT k, g FROM t1 UNION ALL SELECT k, g FROM t2 WHERE w > 0)', [('k', 'int'), ('g', 'str')]),
}
SCHEMAS = dict(TABLES, **{name: cols for name, (_, cols) in DERIVED.items()})


def table_sql(name):
    return DERIVED[name][0] if name in DERIVED else name
SQL_TYPE = {'int': 'INTEGER', 'big': 'BIGINT', 'str': 'VARCHAR', 'dbl': 'DOUBLE', 'date': 'DATE'}
# Table values come from the first seven; literals from all. Not 'ß': its
# upper case is 'SS' in Spark and U+1E9E in DuckDB.
STRINGS = ['a', 'b', 'c', '', 'B', 'ab', "o'k", 'x', 'y', 'é', 'Ω']
DAY0 = datetime.date(2023, 12, 26)
# 'big' and 'int' are one class for expressions (both integers).
CLASS = {'int': 'int', 'big': 'int', 'str': 'str', 'dbl': 'dbl', 'date': 'date', 'bool': 'bool'}


class Query:
    def __init__(self, lake, duck=None, sort='rowsort'):
        self.lake, self.duck, self.sort = lake, duck or lake, sort


def quote(text):
    return "'%s'" % text.replace("'", "''")


def make_setup(r):
    """CREATE TABLE + INSERT statements for t1..t3 (NULLs, duplicates, some empty)."""
    out = []
    for name, cols in TABLES.items():
        out.append('CREATE TABLE %s (%s)' % (name, ', '.join('%s %s' % (c, SQL_TYPE[t]) for c, t in cols)))
        n = 0 if r.random() < 0.12 else r.randint(1, 12)
        keys = r.sample(range(1, 60), n)
        rows = []
        for key in keys:
            vals = [str(key)]
            for c, t in cols[1:]:
                vals.append('NULL' if r.random() < 0.15 else table_literal(r, c, t))
            rows.append('(' + ', '.join(vals) + ')')
        if rows:
            out.append('INSERT INTO %s VALUES %s' % (name, ', '.join(rows)))
    return out


def make_large_setup(r):
    """t1 and t2 with thousands of rows (past the 2,048-row vector) made by
    integer arithmetic over range(), the same in every engine; t3 small."""
    m = [r.choice([7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43]) for _ in range(8)]
    n1, n2 = r.randint(2049, 2600), r.randint(2049, 2300)
    strings = "CASE (range * %d) %% 6 WHEN 0 THEN 'a' WHEN 1 THEN 'b' WHEN 2 THEN 'c' WHEN 3 THEN '' " \
              "WHEN 4 THEN 'B' ELSE 'ab' END"
    null = 'CASE WHEN range %% %d = 0 THEN NULL ELSE %s END'
    dbl = 'CAST(((range * %d) %% 40 + 1) * (1 - 2 * (range %% 2)) AS DOUBLE) * 0.25'
    out = [s for s in make_setup(r) if s.startswith(('CREATE', 'INSERT INTO t3'))]
    out.append('INSERT INTO t1 SELECT range + 1, %s, %s, %s, %s, %s FROM range(%d)' % (
        null % (7, '(range * %d) %% 50' % m[0]), null % (11, strings % m[1]),
        null % (9, '(range * %d) %% 41 - 10' % m[2]), null % (8, dbl % m[3]),
        null % (13, "DATE '2023-12-26' + CAST((range * %d) %% 15 AS INTEGER)" % m[4]), n1))
    out.append('INSERT INTO t2 SELECT range + 1, %s, %s, %s, %s FROM range(%d)' % (
        null % (5, '(range * %d) %% 50' % m[5]), null % (6, strings % m[6]),
        null % (10, 'CAST((range * %d) %% 100000 AS BIGINT) * 40000 - 1000' % m[7]), null % (4, dbl % m[3]), n2))
    return out


def table_literal(r, c, t):
    if c == 'k':
        return str(r.randint(0, 5))
    if t == 'int':
        return str(r.randint(-5, 20))
    if t == 'big':
        return str(r.choice([r.randint(-1000, 100000), 3000000000 + r.randint(0, 9)]))
    if t == 'dbl':
        # Never 0: `- d` would make -0.0, and which of 0.0 and -0.0 a DISTINCT,
        # UNION or GROUP BY keeps (and prints) differs between engines.
        return repr(r.choice([-1, 1]) * r.randint(1, 40) / 4)
    if t == 'str':
        return quote(r.choice(STRINGS[:7] + ['é'] * (r.random() < 0.1)))
    return "DATE '%s'" % (DAY0 + datetime.timedelta(days=r.randint(0, 14))).isoformat()


class Gen:
    """Expressions over a scope: a list of (sql reference, type)."""

    def __init__(self, r):
        self.r = r

    def lit(self, cls):
        r = self.r
        if cls == 'int':
            return str(r.randint(-2, 8))
        if cls == 'dbl':
            return str(r.randint(-3, 6))
        if cls == 'str':
            return quote(r.choice(STRINGS))
        return "DATE '%s'" % (DAY0 + datetime.timedelta(days=r.randint(0, 14))).isoformat()

    def cols(self, scope, cls):
        return [ref for ref, t in scope if CLASS[t] == cls]

    def col(self, scope, cls):
        c = self.cols(scope, cls)
        return self.r.choice(c) if c else self.lit(cls)

    def classes(self, scope):
        # Boolean columns (a predicate selected as a value) are only listed again.
        return sorted({CLASS[t] for _, t in scope} - {'bool'}) or ['int']

    def expr(self, scope, cls, depth=0):
        r = self.r
        if depth >= 2 or r.random() < 0.45:
            return self.col(scope, cls) if r.random() < 0.85 else self.lit(cls)
        d = depth + 1
        k = r.random()
        if k < 0.2:
            return 'CASE WHEN %s THEN %s%s END' % (self.pred(scope, d), self.expr(scope, cls, d),
                                                    '' if r.random() < 0.2 else ' ELSE ' + self.expr(scope, cls, d))
        if k < 0.35:
            return 'coalesce(%s, %s)' % (self.col(scope, cls), self.expr(scope, cls, d))
        if k < 0.42:
            return 'nullif(%s, %s)' % (self.col(scope, cls), self.lit(cls))
        if k < 0.5:
            return '%s(%s, %s)' % (r.choice(['greatest', 'least']), self.col(scope, cls), self.expr(scope, cls, d))
        if cls == 'int':
            return r.choice([
                lambda: '%s + %s' % (self.expr(scope, 'int', d), self.expr(scope, 'int', d)),
                lambda: '%s - %s' % (self.expr(scope, 'int', d), self.expr(scope, 'int', d)),
                lambda: '%s * %d' % (self.col(scope, 'int'), r.randint(-2, 3)),
                lambda: 'abs(%s)' % self.expr(scope, 'int', d),
                lambda: '%s %% %d' % (self.col(scope, 'int'), r.randint(2, 4)),
                lambda: 'length(%s)' % self.expr(scope, 'str', d),
            ])()
        if cls == 'dbl':
            return r.choice([
                lambda: '%s * 2' % self.col(scope, 'dbl'),
                lambda: '%s + %s' % (self.col(scope, 'dbl'), self.col(scope, 'int')),
                lambda: 'abs(%s)' % self.col(scope, 'dbl'),
                lambda: '- %s' % self.col(scope, 'dbl'),
            ])()
        if cls == 'str':
            return r.choice([
                lambda: 'upper(%s)' % self.expr(scope, 'str', d),
                lambda: 'lower(%s)' % self.expr(scope, 'str', d),
                lambda: "%s || '%s'" % (self.expr(scope, 'str', d), r.choice(['z', '-', 'q'])),
                lambda: 'substr(%s, 1, 1)' % self.col(scope, 'str'),
                lambda: "replace(%s, 'a', 'A')" % self.col(scope, 'str'),
            ])()
        return self.col(scope, 'date')

    def pred(self, scope, depth=0):
        r = self.r
        k = r.random()
        if depth < 2 and k < 0.15:
            op = r.choice(['AND', 'OR'])
            return '(%s %s %s)' % (self.pred(scope, depth + 1), op, self.pred(scope, depth + 1))
        if depth < 2 and k < 0.2:
            return 'NOT (%s)' % self.pred(scope, depth + 1)
        cls = r.choice(self.classes(scope))
        k = r.random()
        if k < 0.5:
            op = r.choice(['=', '<>', '<', '<=', '>', '>='])
            rhs = self.lit(cls) if r.random() < 0.5 else self.expr(scope, cls, depth + 1)
            return '%s %s %s' % (self.expr(scope, cls, depth + 1), op, rhs)
        if k < 0.6:
            return '%s IS %sNULL' % (self.col(scope, cls), r.choice(['', 'NOT ']))
        if k < 0.65:
            return '%s IS %sDISTINCT FROM %s' % (self.col(scope, cls), r.choice(['', 'NOT ']),
                                                 self.expr(scope, cls, depth + 1))
        if k < 0.8:
            items = [self.lit(cls) for _ in range(r.randint(1, 3))]
            if r.random() < 0.15:
                items.append('NULL')
            return '%s %sIN (%s)' % (self.col(scope, cls), r.choice(['', 'NOT ']), ', '.join(items))
        if cls == 'str' and k < 0.9:
            return "%s LIKE '%s'" % (self.col(scope, 'str'), r.choice(['a%', '%b', '%', '_', 'x_']))
        lo, hi = sorted([self.lit(cls), self.lit(cls)]) if cls != 'str' else (self.lit(cls), self.lit(cls))
        if cls in ('int', 'dbl'):
            lo, hi = sorted([int(lo), int(hi)])
        return '%s BETWEEN %s AND %s' % (self.col(scope, cls), lo, hi)

    def select_list(self, scope, n=None, classes=None):
        """n expressions named c0..c{n-1}; returns (sql, [class, ...])."""
        r = self.r
        n = n or r.randint(1, 4)
        classes = list(classes) if classes else [r.choice(self.classes(scope)) for _ in range(n)]
        items = []
        for i, c in enumerate(classes):
            if r.random() < 0.08:
                items.append('%s AS c%d' % (self.pred(scope, 1), i))
                classes[i] = 'bool'
            else:
                items.append('%s AS c%d' % (self.expr(scope, c), i))
        return ', '.join(items), classes

    def order_all(self, n):
        """ORDER BY every output column: with LIMIT the answer is still unique."""
        r = self.r
        keys = ['%d %s NULLS %s' % (i + 1, r.choice(['ASC', 'DESC']), r.choice(['FIRST', 'LAST'])) for i in range(n)]
        r.shuffle(keys)
        offset = ' OFFSET %d' % r.randint(1, 3) if r.random() < 0.2 else ''
        return ' ORDER BY ' + ', '.join(keys) + ' LIMIT %d' % r.randint(1, 6) + offset


def table_scope(table, alias):
    return [('%s.%s' % (alias, c), t) for c, t in SCHEMAS[table]]


def from_one(r, table=None):
    """A single table, bare or aliased: (sql, scope)."""
    table = table or r.choice(list(TABLES))
    if r.random() < 0.5:
        return table, table_scope(table, table), table
    alias = r.choice(['x', 'q', 'T'])
    return '%s AS %s' % (table, alias), table_scope(table, alias), alias


def common_columns(a, b):
    names_b = {c: t for c, t in SCHEMAS[b]}
    return [(c, t) for c, t in SCHEMAS[a] if c in names_b and CLASS[names_b[c]] == CLASS[t]]
