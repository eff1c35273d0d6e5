"""Query shapes of the differential test, one generator per feature.

READY features are supported by lakestream today: their files live in
test/sql/differential/ and run in ctest. PENDING features are being built;
their files wait in test/sql_reference/pending/<feature>/ until they pass.
"""
import re

from diff_grammar import CLASS, DERIVED, SCHEMAS, TABLES, Gen, Query, common_columns, from_one, table_scope, table_sql


def q_select(r):
    """Projections, CASE/COALESCE, WHERE, DISTINCT, derived tables, CTEs, ORDER BY + LIMIT."""
    g = Gen(r)
    frm, scope, _ = from_one(r)
    items, classes = g.select_list(scope)
    where = ' WHERE ' + g.pred(scope) if r.random() < 0.6 else ''
    distinct = 'DISTINCT ' if r.random() < 0.3 else ''
    inner = 'SELECT %s%s FROM %s%s' % (distinct, items, frm, where)
    shape = r.random()
    n = len(classes)
    if shape < 0.2:
        outer_scope = [('s.c%d' % i, c) for i, c in enumerate(classes)]
        sql = 'SELECT %s FROM (%s) AS s WHERE %s' % (', '.join('s.c%d' % i for i in range(n)), inner,
                                                     g.pred(outer_scope))
    elif shape < 0.35:
        outer_scope = [('c%d' % i, c) for i, c in enumerate(classes)]
        sql = 'WITH s AS (%s) SELECT %s FROM s WHERE %s' % (inner, ', '.join('c%d' % i for i in range(n)),
                                                            g.pred(outer_scope))
    elif shape < 0.45:
        sql = 'WITH s AS (%s) SELECT l.c0 AS c0, r.c0 AS c1 FROM s AS l JOIN s AS r ON l.c0 %s r.c0' % (
            inner, r.choice(['=', '<', '<>']))
        n = 2
    else:
        sql = inner
    if r.random() < 0.4:
        return Query(sql + g.order_all(n), sort='nosort')
    return Query(sql)


def aggregate_items(g, scope, n):
    r = g.r
    out = []
    for _ in range(n):
        cls = r.choice(g.classes(scope))
        k = r.random()
        if k < 0.15:
            out.append('count(*)')
        elif k < 0.3:
            out.append('count(%s%s)' % (r.choice(['', 'DISTINCT ']), g.expr(scope, cls)))
        elif k < 0.5 and g.cols(scope, 'int'):
            out.append('sum(%s%s)' % (r.choice(['', '', 'DISTINCT ']), g.expr(scope, 'int')))
        elif k < 0.6 and g.cols(scope, 'dbl'):
            out.append('sum(%s)' % g.expr(scope, 'dbl'))
        elif k < 0.75:
            out.append('%s(%s)' % (r.choice(['min', 'max']), g.expr(scope, cls)))
        elif k < 0.85:
            num = r.choice([c for c in ('int', 'dbl') if g.cols(scope, c)] or ['int'])
            out.append('round(avg(%s%s), 2)' % (r.choice(['', '', 'DISTINCT ']), g.expr(scope, num)))
        elif k < 0.93:
            out.append('sum(CASE WHEN %s THEN 1 ELSE 0 END)' % g.pred(scope))
        else:
            out.append('count(*) + %s(%s)' % (r.choice(['min', 'max']), g.col(scope, 'int')))
    return out


def group_keys(g, scope, n):
    r = g.r
    keys = []
    for _ in range(n):
        cls = r.choice(g.classes(scope))
        k = r.random()
        if k < 0.7:
            keys.append(g.col(scope, cls))
        elif cls == 'int':
            keys.append('%s %% 2' % g.col(scope, 'int'))
        elif cls == 'str':
            keys.append("coalesce(%s, 'n')" % g.col(scope, 'str'))
        else:
            keys.append(g.col(scope, cls))
    return list(dict.fromkeys(keys))


def grouped(g, frm, scope, where=''):
    """SELECT keys, aggregates FROM frm GROUP BY keys [HAVING] [ORDER BY + LIMIT]."""
    r = g.r
    keys = group_keys(g, scope, r.randint(0, 2)) if r.random() < 0.85 else []
    aggs = aggregate_items(g, scope, r.randint(1, 3))
    items = keys + aggs
    sql = 'SELECT %s FROM %s%s' % (', '.join('%s AS c%d' % (e, i) for i, e in enumerate(items)), frm, where)
    if keys:
        if r.random() < 0.15:  # by position
            sql += ' GROUP BY ' + ', '.join(str(i + 1) for i in range(len(keys)))
        elif ' JOIN ' not in frm and '@FROM@' not in frm and ',' not in frm and r.random() < 0.3:
            # The same column named without its table, or in other letter case.
            def other_name(m):
                return r.choice([m.group(1), m.group(0).upper()])
            sql += ' GROUP BY ' + ', '.join(re.sub(r'^\w+\.(\w+)$', other_name, k) for k in keys)
        else:
            sql += ' GROUP BY ' + ', '.join(keys)
        if r.random() < 0.4:
            h = aggregate_items(g, scope, 1)[0]
            sql += ' HAVING %s %s %s' % (h, r.choice(['>', '>=', '<', '<>']), r.randint(0, 4)) \
                if not h.startswith(('min', 'max')) else ' HAVING count(*) > %d' % r.randint(0, 2)
    elif r.random() < 0.2:
        sql += ' HAVING count(*) %s %d' % (r.choice(['>', '<=']), r.randint(0, 3))  # no GROUP BY: 0 or 1 row
    if r.random() < 0.3:
        return Query(sql + g.order_all(len(items)), sort='nosort')
    return Query(sql)


def q_aggregate(r):
    """GROUP BY / HAVING / DISTINCT aggregates / global aggregates over empty tables."""
    g = Gen(r)
    frm, scope, _ = from_one(r)
    where = ' WHERE ' + g.pred(scope) if r.random() < 0.4 else ''
    return grouped(g, frm, scope, where)


def join_on(g, a, sa, b, sb):
    """An equality on a shared column (sometimes a non-equality) plus maybe a filter."""
    r = g.r
    common = [(c, t) for c, t in common_columns(a[0], b[0])]
    if common and r.random() < 0.85:
        c, t = r.choice(common)
        cond = '%s.%s = %s.%s' % (a[1], c, b[1], c)
        if r.random() < 0.15:
            cond = {'int': '%s.%s + 1 = %s.%s', 'str': "coalesce(%s.%s, 'n') = coalesce(%s.%s, 'n')",
                    'dbl': '%s.%s = - %s.%s', 'date': '%s.%s >= %s.%s'}[CLASS[t]] % (a[1], c, b[1], c)
    else:
        cond = '%s %s %s' % (g.col(sa, 'int'), r.choice(['<', '<=', '>']), g.col(sb, 'int'))
    if r.random() < 0.35:
        cond += ' AND ' + g.pred(sa + sb if r.random() < 0.5 else r.choice([sa, sb]))
    return cond


def join_query(r, kinds, allow_using=True, allow_natural=False):
    """FROM a <kind> JOIN b [<kind> JOIN c] with a projection or an aggregate on top."""
    g = Gen(r)
    names = list(TABLES)
    a = (r.choice(names), 'a')
    b = (r.choice(names if r.random() < 0.8 else list(DERIVED)), 'b')
    sa, sb = table_scope(*a), table_scope(*b)
    kind = r.choice(kinds)
    lake_kind, duck_kind = kind, kind.replace('LEFT SEMI', 'SEMI').replace('LEFT ANTI', 'ANTI')
    semi = 'SEMI' in kind or 'ANTI' in kind
    common = common_columns(a[0], b[0])
    extra_scope = []
    style = r.random()
    if kind == 'CROSS':
        lake_from = duck_from = '%s AS a CROSS JOIN %s AS b' % (a[0], table_sql(b[0])) if r.random() < 0.5 else \
            '%s AS a, %s AS b' % (a[0], table_sql(b[0]))
        where_pred = ' WHERE ' + join_on(g, a, sa, b, sb)
    elif allow_natural and style < 0.2 and common and not semi:
        lake_from = '%s AS a NATURAL %s JOIN %s AS b' % (a[0], lake_kind, table_sql(b[0]))
        duck_from = '%s AS a NATURAL %s JOIN %s AS b' % (a[0], duck_kind, table_sql(b[0]))
        extra_scope = [] if semi else [(c, t) for c, t in common]
        where_pred = ''
    elif allow_using and style < 0.45 and common:
        using = r.sample(common, r.randint(1, min(2, len(common))))
        cols = ', '.join(c for c, _ in using)
        lake_from = '%s AS a %s JOIN %s AS b USING (%s)' % (a[0], lake_kind, table_sql(b[0]), cols)
        duck_from = '%s AS a %s JOIN %s AS b USING (%s)' % (a[0], duck_kind, table_sql(b[0]), cols)
        # The unqualified USING column: a's for INNER/LEFT, b's for RIGHT, coalesce for FULL.
        extra_scope = [] if semi else [(c, t) for c, t in using]
        where_pred = ''
    else:
        on = join_on(g, a, sa, b, sb)
        lake_from = '%s AS a %s JOIN %s AS b ON %s' % (a[0], lake_kind, table_sql(b[0]), on)
        duck_from = '%s AS a %s JOIN %s AS b ON %s' % (a[0], duck_kind, table_sql(b[0]), on)
        where_pred = ''
    scope = sa + ([] if semi else sb) + extra_scope
    if not semi and r.random() < 0.25:
        c = ('t3', 'c') if r.random() < 0.5 else (r.choice(names), 'c')
        sc = table_scope(*c)
        third = r.choice([k for k in kinds if k != 'CROSS' and 'SEMI' not in k and 'ANTI' not in k] or ['INNER'])
        # In `a, b JOIN c ON ...` the ON clause sees only b (the comma binds last).
        src = (b, sb) if ', ' in lake_from.split(' JOIN ')[0] or r.random() < 0.5 else (a, sa)
        on = join_on(g, src[0], src[1], c, sc)
        lake_from += ' %s JOIN %s AS c ON %s' % (third, c[0], on)
        duck_from += ' %s JOIN %s AS c ON %s' % (third, c[0], on)
        # An unqualified USING column would be ambiguous once c has it too (Spark refuses).
        names_c = {n for n, _ in SCHEMAS[c[0]]}
        scope = [(ref, t) for ref, t in scope if '.' in ref or ref not in names_c] + sc
    if r.random() < 0.35:
        where_pred += (' AND ' if where_pred else ' WHERE ') + g.pred(scope)
    if r.random() < 0.3:
        q = grouped(g, '@FROM@', scope, where_pred)
        return Query(q.lake.replace('@FROM@', lake_from), q.duck.replace('@FROM@', duck_from), q.sort)
    items, classes = g.select_list(scope)
    distinct = 'DISTINCT ' if r.random() < 0.2 else ''
    tail = g.order_all(len(classes)) if r.random() < 0.3 else ''
    return Query('SELECT %s%s FROM %s%s%s' % (distinct, items, lake_from, where_pred, tail),
                 'SELECT %s%s FROM %s%s%s' % (distinct, items, duck_from, where_pred, tail),
                 'nosort' if tail else 'rowsort')


def q_join(r):
    """INNER/LEFT/RIGHT joins, USING, cross joins filtered in WHERE, self joins, three tables."""
    return join_query(r, ['INNER', 'LEFT', 'RIGHT', 'CROSS', 'LEFT OUTER'])


def q_outer_join(r):
    """FULL OUTER, SEMI, ANTI and NATURAL joins, USING with RIGHT/FULL (unqualified column)."""
    return join_query(r, ['FULL', 'FULL OUTER', 'LEFT SEMI', 'LEFT ANTI', 'RIGHT', 'LEFT'], allow_natural=True)


def subquery_pred(g, outer_scope, outer_alias, correlated):
    """IN / NOT IN / EXISTS / NOT EXISTS / scalar comparison with a subquery on another table."""
    r = g.r
    table = r.choice(list(TABLES))
    inner_scope = table_scope(table, 'sq')
    conds = []
    if correlated:
        common = [c for c in TABLES[table] if any(ref == '%s.%s' % (outer_alias, c[0]) for ref, _ in outer_scope)]
        common = [c for c in common if CLASS[c[1]] == CLASS[dict(TABLES[table])[c[0]]]]
        if common and r.random() < 0.8:
            c, _ = r.choice(common)
            conds.append('sq.%s %s %s.%s' % (c, r.choice(['=', '=', '<', '>=']), outer_alias, c))
        else:
            conds.append('%s %s %s' % (g.col(inner_scope, 'int'), r.choice(['=', '<', '>']), g.col(outer_scope, 'int')))
    if r.random() < 0.5:
        conds.append(g.pred(inner_scope))
    where = ' WHERE ' + ' AND '.join(conds) if conds else ''
    frm = '%s AS sq%s' % (table, where)
    k = r.random()
    cls = r.choice(sorted({CLASS[t] for _, t in inner_scope} & {CLASS[t] for _, t in outer_scope}))
    if k < 0.3:
        return '%s %sIN (SELECT %s FROM %s)' % (g.col(outer_scope, cls), r.choice(['', 'NOT ']),
                                                 g.col(inner_scope, cls), frm)
    if k < 0.55:
        return '%sEXISTS (SELECT 1 FROM %s)' % (r.choice(['', 'NOT ']), frm)
    agg = r.choice(['max', 'min']) if cls not in ('int', 'dbl') or r.random() < 0.5 else r.choice(['sum', 'max'])
    if cls == 'int' and r.random() < 0.3:
        return '%s %s (SELECT count(*) FROM %s)' % (g.expr(outer_scope, 'int'), r.choice(['>', '<=', '=']), frm)
    return '%s %s (SELECT %s(%s) FROM %s)' % (g.col(outer_scope, cls), r.choice(['=', '<', '>=', '<>']), agg,
                                              g.col(inner_scope, cls), frm)


def scalar_subquery(g, outer_scope, outer_alias, correlated, numeric=False):
    r = g.r
    table = r.choice(list(TABLES))
    inner_scope = table_scope(table, 'sq')
    cond = ''
    if correlated:
        common = [c for c, _ in TABLES[table] if any(ref == '%s.%s' % (outer_alias, c) for ref, _ in outer_scope)]
        if 'k' in common and r.random() < 0.8:
            cond = ' WHERE sq.k = %s.k' % outer_alias
        else:
            cond = ' WHERE %s < %s' % (g.col(inner_scope, 'int'), g.col(outer_scope, 'int'))
    elif r.random() < 0.5:
        cond = ' WHERE ' + g.pred(inner_scope)
    aggs = ['count(*)', 'sum(%s)' % g.col(inner_scope, 'int'), 'min(%s)' % g.col(inner_scope, 'int'),
            'count(%s)' % g.col(inner_scope, 'int')]
    if not numeric:
        aggs.append('max(%s)' % g.col(inner_scope, 'str'))
    agg = r.choice(aggs)
    return '(SELECT %s FROM %s AS sq%s)' % (agg, table, cond)


def subquery_query(r, correlated):
    g = Gen(r)
    table = r.choice(list(TABLES))
    alias = 'o'
    scope = table_scope(table, alias)
    frm = '%s AS o' % table
    k = r.random()
    if k < 0.6:
        where = ' WHERE ' + subquery_pred(g, scope, alias, correlated)
        if r.random() < 0.3:
            where += ' %s %s' % (r.choice(['AND', 'OR']), g.pred(scope))
        items, classes = g.select_list(scope)
        tail = g.order_all(len(classes)) if r.random() < 0.25 else ''
        return Query('SELECT %s FROM %s%s%s' % (items, frm, where, tail), sort='nosort' if tail else 'rowsort')
    if k < 0.85:
        items, classes = g.select_list(scope, r.randint(1, 2))
        items += ', %s AS s0' % scalar_subquery(g, scope, alias, correlated)
        where = ' WHERE ' + g.pred(scope) if r.random() < 0.3 else ''
        return Query('SELECT %s FROM %s%s' % (items, frm, where))
    # HAVING with a subquery; correlated on a grouping column.
    key = '%s.k' % alias
    return Query('SELECT %s AS c0, count(*) AS c1 FROM %s GROUP BY %s HAVING count(*) %s %s' % (
        key, frm, key, r.choice(['>=', '<', '=']),
        scalar_subquery(g, [(key, 'int')], alias, correlated, True) if correlated or r.random() < 0.5 else
        '(SELECT count(*) FROM t2)'))


def q_subquery(r):
    """Uncorrelated IN / NOT IN / EXISTS / scalar subqueries in WHERE, SELECT and HAVING."""
    return subquery_query(r, False)


def q_correlated(r):
    """Correlated IN / NOT IN / EXISTS / NOT EXISTS / scalar subqueries (count over no rows is 0)."""
    return subquery_query(r, True)


def quantified_pred(g, outer_scope, outer_alias, correlated):
    """x op ANY | SOME | ALL (SELECT y FROM ...), correlated or not, over a subquery that may be empty or hold NULLs."""
    r = g.r
    table = r.choice(list(TABLES))
    inner_scope = table_scope(table, 'sq')
    conds = []
    if correlated:
        conds.append('%s %s %s' % (g.col(inner_scope, 'int'), r.choice(['=', '=', '<', '>=']), g.col(outer_scope, 'int')))
    if r.random() < 0.5:
        conds.append(g.pred(inner_scope))
    where = ' WHERE ' + ' AND '.join(conds) if conds else ''
    cls = r.choice(sorted({CLASS[t] for _, t in inner_scope} & {CLASS[t] for _, t in outer_scope}))
    return '%s %s %s (SELECT %s FROM %s AS sq%s)' % (
        g.col(outer_scope, cls), r.choice(['=', '<>', '<', '<=', '>', '>=']), r.choice(['ANY', 'SOME', 'ALL']),
        g.col(inner_scope, cls), table, where)


def q_quantified(r):
    """Quantified comparisons x op ANY/SOME/ALL (subquery) in WHERE (also negated) and SELECT."""
    g = Gen(r)
    table = r.choice(list(TABLES))
    scope = table_scope(table, 'o')
    correlated = r.random() < 0.6
    pred = quantified_pred(g, scope, 'o', correlated)
    if r.random() < 0.5:
        items, classes = g.select_list(scope, r.randint(1, 2))
        return Query('SELECT %s, %s AS q0 FROM %s AS o' % (items, pred, table))
    if r.random() < 0.3:
        pred = 'NOT (%s)' % pred
    if r.random() < 0.3:
        pred += ' %s %s' % (r.choice(['AND', 'OR']), g.pred(scope))
    items, classes = g.select_list(scope)
    return Query('SELECT %s FROM %s AS o WHERE %s' % (items, table, pred))


def setop_branch(g, classes):
    frm, scope, _ = from_one(g.r)
    items = ', '.join('%s AS c%d' % (g.expr(scope, c), i) for i, c in enumerate(classes))
    where = ' WHERE ' + g.pred(scope) if g.r.random() < 0.5 else ''
    return 'SELECT %s FROM %s%s' % (items, frm, where)


def setop_query(r, ops):
    g = Gen(r)
    classes = [r.choice(['int', 'int', 'str', 'date', 'dbl']) for _ in range(r.randint(1, 2))]
    sql = setop_branch(g, classes)
    branches = 2 if r.random() < 0.7 else 3
    for _ in range(branches - 1):
        sql += ' %s %s' % (r.choice(ops), setop_branch(g, classes))
    k = r.random()
    if k < 0.2:
        return Query('SELECT count(*) AS n, count(DISTINCT c0) AS m FROM (%s) AS s' % sql)
    if k < 0.35:
        # DuckDB 1.5 answers ORDER BY + LIMIT after three mixed UNION/UNION ALL
        # branches wrongly (top rows of the last branch only): order a derived
        # table there.
        if branches == 3:
            sql = 'SELECT * FROM (%s) AS s' % sql
        return Query(sql + g.order_all(len(classes)), sort='nosort')
    return Query(sql)


def q_union(r):
    """UNION ALL and UNION (distinct) chains, counted, ordered and limited."""
    return setop_query(r, ['UNION ALL', 'UNION'])


def q_setop(r):
    """EXCEPT / INTERSECT [ALL] mixed with UNION (INTERSECT binds tighter)."""
    return setop_query(r, ['EXCEPT', 'EXCEPT ALL', 'INTERSECT', 'INTERSECT ALL', 'UNION', 'UNION ALL',
                           'EXCEPT', 'INTERSECT'])


def q_large(r, shapes=None):
    """The ready shapes over tables past one 2,048-row vector, answered as a
    small summary (count, distinct count, min, max of the first column)."""
    while True:
        q = r.choice(shapes or [q_select, q_aggregate, q_join, q_join, q_subquery, q_union])(r)
        # No join on a non-equality of two tables, none on a 6-valued string,
        # no third table: millions of rows, seconds in ctest.
        if ' AS c ' in q.lake or ' AS l JOIN s AS r ' in q.lake or 'USING (g)' in q.lake or \
                re.search(r"\b[ab]\.g = [ab]\.g\b|coalesce\([ab]\.g, 'n'\) = coalesce", q.lake):
            continue
        if not any(m.group(1) != m.group(3) for m in
                   re.finditer(r'\b([abc])\.\w+ (?:<|<=|>|>=|<>) ([-+*] )?([abc])\.\w+', q.lake)):
            break
    # The order and limit would only pick rows; DuckDB 1.5 mis-answers some
    # ORDER BY + LIMIT over UNION ALL (see differential.without_limit).
    strip = lambda sql: re.sub(r' ORDER BY [^()]*$', '', sql)  # noqa: E731
    wrap = 'SELECT count(*) AS n, count(DISTINCT z.c0) AS nd, min(z.c0) AS lo, max(z.c0) AS hi FROM (%s) AS z'
    return Query(wrap % strip(q.lake), wrap % strip(q.duck))
