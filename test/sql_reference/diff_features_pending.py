"""Query shapes for features being built (windows, grouping sets and the new
aggregates, time functions). Same determinism rules as diff_grammar.py.
"""
import datetime

import diff_features as F

from diff_grammar import DAY0, KEY, TABLES, Gen, Query, from_one, table_scope

FRAME_POINTS = ['UNBOUNDED PRECEDING', '%d PRECEDING', 'CURRENT ROW', '%d FOLLOWING', 'UNBOUNDED FOLLOWING']


def frame(r):
    """ROWS/RANGE BETWEEN start AND end with start not after end."""
    i = r.randint(0, 3)
    j = r.randint(max(i, 1), 4)
    n, m = r.randint(1, 3), r.randint(1, 3)
    if i == j == 1:  # n PRECEDING AND m PRECEDING: Spark refuses n < m
        n, m = max(n, m), min(n, m)
    if i == j == 3:  # n FOLLOWING AND m FOLLOWING
        n, m = min(n, m), max(n, m)
    a, b = FRAME_POINTS[i], FRAME_POINTS[j]
    return 'BETWEEN %s AND %s' % (a % n if '%d' in a else a, b % m if '%d' in b else b)


def window_spec(g, scope, key, need_total):
    """(PARTITION BY ... ORDER BY ... [frame]) text and whether it is ordered."""
    r = g.r
    parts = [c for c, t in scope if c.split('.')[1] in ('k', 'g', 's')]
    part = r.sample(parts, r.randint(0, min(2, len(parts))))
    text = 'PARTITION BY ' + ', '.join(part) if part else ''
    cls = r.choice(g.classes(scope))
    o = g.col(scope, cls)
    order = '%s %s NULLS %s' % (o, r.choice(['ASC', 'DESC']), r.choice(['FIRST', 'LAST']))
    if need_total:
        order += ', %s %s' % (key, r.choice(['ASC', 'DESC']))
    return (text + ' ORDER BY ' + order).strip()


def window_call(g, scope, key):
    r = g.r
    k = r.random()
    cls = r.choice(g.classes(scope))
    x = g.col(scope, cls)
    if k < 0.12:
        return 'row_number() OVER (%s)' % window_spec(g, scope, key, True)
    if k < 0.22:
        return '%s() OVER (%s)' % (r.choice(['rank', 'dense_rank']), window_spec(g, scope, key, False))
    if k < 0.27:
        return 'round(%s() OVER (%s), 2)' % (r.choice(['percent_rank', 'cume_dist']),
                                             window_spec(g, scope, key, False))
    if k < 0.32:
        return 'ntile(%d) OVER (%s)' % (r.randint(2, 4), window_spec(g, scope, key, True))
    if k < 0.45:
        fn = r.choice(['lag', 'lead'])
        args = x
        if r.random() < 0.6:
            args += ', %d' % r.randint(1, 3)
            if r.random() < 0.5:
                args += ', ' + g.lit(cls)
        return '%s(%s) OVER (%s)' % (fn, args, window_spec(g, scope, key, True))
    if k < 0.55:
        fn = r.choice(['first_value(%s)', 'last_value(%s)', 'nth_value(%s, 2)']) % x
        spec = window_spec(g, scope, key, True)
        if r.random() < 0.5:
            spec += ' ROWS ' + frame(r)
        return '%s OVER (%s)' % (fn, spec)
    # Aggregates as window functions.
    num = r.choice([c for c in ('int', 'dbl') if g.cols(scope, c)])
    agg = r.choice(['sum(%s)' % g.col(scope, num), 'count(%s)' % x, 'count(*)', 'min(%s)' % x, 'max(%s)' % x,
                    'avg(%s)' % g.col(scope, num)])
    wrap = (lambda s: 'round(%s, 2)' % s) if agg.startswith('avg') else (lambda s: s)
    kk = r.random()
    parts = [c for c, t in scope if c.split('.')[1] in ('k', 'g', 's')]
    if kk < 0.2:
        part = r.sample(parts, r.randint(0, 1))
        if r.random() < 0.3 and not agg.startswith('count(*)'):
            agg = agg.replace('(', '(DISTINCT ', 1)
        return wrap('%s OVER (%s)' % (agg, 'PARTITION BY ' + part[0] if part else ''))
    if kk < 0.45:
        return wrap('%s OVER (%s)' % (agg, window_spec(g, scope, key, False)))
    if kk < 0.8:
        return wrap('%s OVER (%s ROWS %s)' % (agg, window_spec(g, scope, key, True), frame(r)))
    # RANGE with offsets: one numeric order key, never NULL.
    ints = g.cols(scope, 'int')
    part = r.sample(parts, r.randint(0, 1))
    spec = ('PARTITION BY %s ' % part[0] if part else '') + 'ORDER BY coalesce(%s, 0) %s' % (
        r.choice(ints), r.choice(['ASC', 'DESC']))
    return wrap('%s OVER (%s RANGE %s)' % (agg, spec, frame(r)))


def q_window(r):
    """Ranking, offset, value and aggregate window functions with partitions,
    orders and ROWS/RANGE frames; the dedup pattern; QUALIFY; named windows."""
    g = Gen(r)
    table = r.choice(list(TABLES))
    scope = table_scope(table, 'w')
    key = 'w.' + KEY[table]
    frm = '%s AS w' % table
    shape = r.random()
    if shape < 0.15:
        # Keep the first row per partition: the dedup every pipeline has.
        part = r.choice([c for c, t in scope if c.split('.')[1] in ('k', 'g', 's')])
        spec = 'PARTITION BY %s ORDER BY %s %s NULLS LAST, %s' % (part, g.col(scope, r.choice(g.classes(scope))),
                                                                  r.choice(['ASC', 'DESC']), key)
        inner = 'SELECT %s AS c0, %s AS c1, row_number() OVER (%s) AS rn FROM %s' % (key, part, spec, frm)
        return Query('SELECT c0, c1 FROM (%s) AS s WHERE rn = 1' % inner)
    if shape < 0.25:
        spec = window_spec(g, scope, key, True)
        return Query('SELECT %s AS c0, %s OVER win AS c1, %s OVER win AS c2 FROM %s WINDOW win AS (%s)' % (
            key, r.choice(['row_number()', 'rank()']), r.choice(['lag(%s)' % g.col(scope, 'int'), 'count(*)']),
            frm, spec))
    if shape < 0.35:
        spec = window_spec(g, scope, key, True)
        return Query('SELECT %s AS c0 FROM %s QUALIFY row_number() OVER (%s) <= %d' % (key, frm, spec,
                                                                                      r.randint(1, 2)))
    items = ['%s AS c0' % key]
    for i in range(r.randint(1, 2)):
        items.append('%s AS c%d' % (window_call(g, scope, key), i + 1))
    if r.random() < 0.3:
        items.append('%s AS c%d' % (g.expr(scope, r.choice(g.classes(scope))), len(items)))
    where = ' WHERE ' + g.pred(scope) if r.random() < 0.3 else ''
    return Query('SELECT %s FROM %s%s' % (', '.join(items), frm, where))


def new_aggregate(g, scope, key):
    r = g.r
    x = g.col(scope, r.choice(g.classes(scope)))
    i = g.col(scope, 'int')
    return r.choice([
        'count(*) FILTER (WHERE %s)' % g.pred(scope),
        'sum(%s) FILTER (WHERE %s)' % (i, g.pred(scope)),
        'max(%s) FILTER (WHERE %s)' % (x, g.pred(scope)),
        'count_if(%s)' % g.pred(scope),
        'bool_and(%s > 0)' % i,
        'bool_or(%s IS NULL)' % x,
        'round(median(%s), 2)' % i,
        'round(stddev_samp(%s), 2)' % i,
        'round(var_pop(%s), 2)' % i,
        'max_by(%s, %s)' % (x, key),
        'min_by(%s, %s)' % (x, key),
        'sum(DISTINCT %s)' % i,
    ])


def q_grouping(r):
    """GROUPING SETS / ROLLUP / CUBE with grouping(), FILTER and the new aggregates."""
    g = Gen(r)
    table = r.choice(list(TABLES))
    scope = table_scope(table, 'a')
    key = 'a.' + KEY[table]
    frm = '%s AS a' % table
    groupable = [c for c, t in scope if c.split('.')[1] in ('k', 'g', 's', 'dt', 'v')]
    keys = r.sample(groupable, 2)
    aggs = [new_aggregate(g, scope, key) for _ in range(r.randint(1, 2))]
    if r.random() < 0.25:
        items = aggs if r.random() < 0.3 else [keys[0]] + aggs
        sql = 'SELECT %s FROM %s' % (', '.join('%s AS c%d' % (e, n) for n, e in enumerate(items)), frm)
        return Query(sql + (' GROUP BY %s' % keys[0] if len(items) > len(aggs) else ''))
    k = r.random()
    if k < 0.4:
        sets = r.sample(['(%s)' % keys[0], '(%s)' % keys[1], '()'], r.randint(0, 3))
        if not ('(%s)' % keys[0] in sets and '(%s)' % keys[1] in sets):
            sets.insert(r.randint(0, len(sets)), '(%s, %s)' % tuple(keys))  # both keys are selected
        by = 'GROUPING SETS (%s)' % ', '.join(sets)
    elif k < 0.7:
        by = 'ROLLUP (%s, %s)' % tuple(keys)
    else:
        by = 'CUBE (%s, %s)' % tuple(keys)
    items = keys + ['grouping(%s)' % keys[0], 'count(*)'] + aggs
    if r.random() < 0.4:
        items.insert(3, 'grouping(%s)' % keys[1])
    sql = 'SELECT %s FROM %s GROUP BY %s' % (', '.join('%s AS c%d' % (e, n) for n, e in enumerate(items)), frm, by)
    if r.random() < 0.2:
        sql += ' HAVING count(*) > 1'
    return Query(sql)


def time_expr(r, col):
    """A DATE expression as (lakestream/Spark text, DuckDB text)."""
    n = r.randint(1, 40)
    lit = "DATE '%s'" % (DAY0 + datetime.timedelta(days=r.randint(0, 14))).isoformat()
    return r.choice([
        ('year(%s)' % col,) * 2,
        ('month(%s)' % col,) * 2,
        ('day(%s)' % col,) * 2,
        ('quarter(%s)' % col,) * 2,
        ('dayofyear(%s)' % col,) * 2,
        ('extract(YEAR FROM %s)' % col,) * 2,
        ('extract(MONTH FROM %s)' % col,) * 2,
        ('last_day(%s)' % col,) * 2,
        ('CAST(%s + INTERVAL %d DAY AS DATE)' % (col, n),) * 2,
        ("CAST(%s + INTERVAL '%d' DAY AS DATE)" % (col, n),) * 2,
        ('CAST(%s - INTERVAL %d MONTH AS DATE)' % (col, r.randint(1, 13)),) * 2,
        ('CAST(%s + INTERVAL 1 YEAR AS DATE)' % col,) * 2,
        ("CAST(date_trunc('month', %s) AS DATE)" % col,) * 2,
        ("CAST(date_trunc('year', %s) AS DATE)" % col,) * 2,
        ('date_add(%s, %d)' % (col, n), 'CAST(%s + INTERVAL %d DAY AS DATE)' % (col, n)),
        ('date_sub(%s, %d)' % (col, n), 'CAST(%s - INTERVAL %d DAY AS DATE)' % (col, n)),
        ('add_months(%s, %d)' % (col, n % 14), 'CAST(%s + INTERVAL %d MONTH AS DATE)' % (col, n % 14)),
        ('datediff(%s, %s)' % (col, lit), "datediff('day', %s, %s)" % (lit, col)),
    ])


def q_time(r):
    """Date parts, INTERVAL arithmetic on DATE, date_add/date_sub/add_months/datediff/date_trunc."""
    g = Gen(r)
    table = r.choice(['t1', 't3'])
    frm, scope, alias = from_one(r, table)
    col = '%s.dt' % alias
    exprs = [time_expr(r, col) for _ in range(r.randint(1, 3))]
    lake = ', '.join('%s AS c%d' % (e[0], i) for i, e in enumerate(exprs))
    duck = ', '.join('%s AS c%d' % (e[1], i) for i, e in enumerate(exprs))
    k = r.random()
    if k < 0.3:
        a, b = time_expr(r, col), time_expr(r, col)
        return Query('SELECT %s AS c0, count(*) AS c1 FROM %s GROUP BY %s' % (a[0], frm, a[0]),
                     'SELECT %s AS c0, count(*) AS c1 FROM %s GROUP BY %s' % (a[1], frm, a[1]))
    where = ''
    if k < 0.6:
        lit = "DATE '%s'" % (DAY0 + datetime.timedelta(days=r.randint(0, 14))).isoformat()
        where = ' WHERE %s %s %s + INTERVAL %d DAY' % (col, r.choice(['<', '>=']), lit, r.randint(0, 5))
    return Query('SELECT %s.%s AS k, %s FROM %s%s' % (alias, KEY[table], lake, frm, where),
                 'SELECT %s.%s AS k, %s FROM %s%s' % (alias, KEY[table], duck, frm, where))


def q_large_window(r):
    """Window queries over t1/t2 past one 2,048-row vector; the rows whose key
    is near the vector edge are compared one by one."""
    while True:
        q = q_window(r)
        if 'FROM t3 ' not in q.lake + ' ':
            break
    lo = r.randint(2030, 2045)
    wrap = 'SELECT * FROM (%%s) AS z WHERE z.c0 BETWEEN %d AND %d' % (lo, lo + 20)
    return Query(wrap % q.lake, wrap % q.duck)


def q_large_mixed(r):
    """Outer/semi/anti joins, correlated subqueries, set operations and
    grouping sets over t1/t2 past one vector, answered as a summary."""
    return F.q_large(r, [F.q_outer_join, F.q_correlated, F.q_setop, q_grouping])
