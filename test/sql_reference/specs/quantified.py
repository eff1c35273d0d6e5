# x <op> ANY | SOME | ALL (subquery) for every comparison operator, with the
# three-valued answers SQL gives: NULL probes, NULLs in the subquery, empty
# subqueries; uncorrelated (resolved once) and correlated (joins).
NAME = 'test/sql/subquery/quantified.test'
DESCRIPTION = 'quantified comparisons x op ANY/SOME/ALL (subquery) for =, <>, <, <=, >, >=: NULLs, empty subqueries, correlated and uncorrelated, in WHERE, SELECT, HAVING, CASE; expected results checked against DuckDB'
GROUP = 'subquery'
SETUP = [
 'CREATE TABLE t (id INTEGER, g INTEGER, x INTEGER)',
 'INSERT INTO t VALUES (1, 1, 1), (2, 1, 5), (3, 2, 10), (4, 2, NULL), (5, 3, 8), (6, NULL, 2), (7, 4, 5)',
 'CREATE TABLE s (y INTEGER)',
 'INSERT INTO s VALUES (2), (5), (8)',
 'CREATE TABLE sn (y INTEGER)',
 'INSERT INTO sn VALUES (2), (NULL), (8)',
 'CREATE TABLE se (y INTEGER)',
 'CREATE TABLE sa (y INTEGER)',
 'INSERT INTO sa VALUES (NULL), (NULL)',
 'CREATE TABLE s1 (y INTEGER)',
 'INSERT INTO s1 VALUES (5), (5)',
 'CREATE TABLE u (g INTEGER, y INTEGER)',
 'INSERT INTO u VALUES (1, 1), (1, 5), (2, 7), (2, NULL), (3, NULL), (NULL, 4), (5, 9)',
 'CREATE TABLE d (y DOUBLE)',
 'INSERT INTO d VALUES (1.5), (5.0), (NULL)',
 'CREATE TABLE names (n VARCHAR)',
 "INSERT INTO names VALUES ('b'), ('d')",
]
OPS = ['=', '<>', '<', '<=', '>', '>=']
CASES = []


def columns(quantifier, source):
    return ', '.join('x %s %s (SELECT y FROM %s)' % (op, quantifier, source) for op in OPS)


for source in ['s', 'sn', 'se', 'sa', 's1']:
    CASES.append(('comment', 'every operator with ANY and ALL over %s' % source))
    for q in ['ANY', 'ALL']:
        CASES.append(('I' + 'T' * 6, 'SELECT id, %s FROM t ORDER BY id' % columns(q, source)))
CASES += [
 ('comment', 'SOME is ANY'),
 ('I' + 'T' * 6, 'SELECT id, %s FROM t ORDER BY id' % columns('SOME', 'sn')),
 ('comment', 'constants: one NULL makes ALL NULL unless a row fails; empty: ALL true, ANY false, even for NULL'),
 ('TTTT', 'SELECT 1 > ALL (SELECT NULL) AS a, 1 > ANY (SELECT NULL) AS b, 1 > ALL (SELECT 2 UNION ALL SELECT NULL) AS c, 3 > ANY (SELECT 2 UNION ALL SELECT NULL) AS d'),
 ('TTTT', 'SELECT NULL > ALL (SELECT y FROM se) AS a, NULL = ANY (SELECT y FROM se) AS b, NULL <> ALL (SELECT y FROM se) AS c, NULL > ALL (SELECT y FROM s) AS d'),
 ('comment', 'several uncorrelated ones in one SELECT, each resolved to its own expression (a stale per-expression cache once mixed them up)'),
 ('TTTTT', "SELECT 3 > ANY (VALUES (1), (NULL)) AS a, 0 < ANY (VALUES (1), (2)) AS b, 3 > ALL (VALUES (1), (2)) AS c, 'b' <> ANY (VALUES ('a'), ('b')) AS d, 2 IN (VALUES (1), (2)) AS e"),
 ('comment', 'in WHERE: a NULL answer drops the row; NOT keeps NULL'),
 ('I', 'SELECT id FROM t WHERE x > ALL (SELECT y FROM s) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE x > ALL (SELECT y FROM sn) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE x < ANY (SELECT y FROM sn) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE NOT (x < ANY (SELECT y FROM sn)) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE NOT (x >= ALL (SELECT y FROM s)) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE x <> ALL (SELECT y FROM s) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE x = ANY (SELECT y FROM s) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE x = ALL (SELECT y FROM s1) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE x > ALL (SELECT y FROM se) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE x >= ANY (SELECT y FROM s) OR id = 1 ORDER BY id'),
 ('IT', "SELECT id, CASE WHEN x > ALL (SELECT y FROM s) THEN 'top' WHEN x < ANY (SELECT y FROM s) THEN 'below' ELSE 'other' END FROM t ORDER BY id"),
 ('comment', 'mixed types: INTEGER against DOUBLE, strings'),
 ('ITT', 'SELECT id, x > ANY (SELECT y FROM d), x <= ALL (SELECT y FROM d) FROM t ORDER BY id'),
 ('TTTT', "SELECT 'c' > ALL (SELECT n FROM names), 'c' > ANY (SELECT n FROM names), 'a' < ALL (SELECT n FROM names), 'e' <> ANY (SELECT n FROM names)"),
 ('comment', 'the subquery may aggregate, filter on its own, or read a derived table'),
 ('I', 'SELECT id FROM t WHERE x >= ALL (SELECT max(y) FROM s) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE x > ANY (SELECT y FROM s WHERE y > 4) ORDER BY id'),
 ('IT', 'SELECT id, x < ALL (SELECT y + 1 FROM (SELECT y FROM s UNION ALL SELECT 0) q) FROM t ORDER BY id'),
 ('comment', 'HAVING'),
 ('II', 'SELECT g, sum(x) FROM t GROUP BY g HAVING sum(x) > ALL (SELECT y FROM s) ORDER BY g'),
 ('II', 'SELECT g, sum(x) FROM t GROUP BY g HAVING sum(x) <= ANY (SELECT y FROM sn) ORDER BY g'),
]
for q in ['ANY', 'ALL']:
    CASES.append(('comment', 'correlated %s: per outer row its own rows (group 3 is all NULL, group 4 and NULL have none)' % q))
    CASES.append(('I' + 'T' * 6, 'SELECT id, %s FROM t ORDER BY id' % ', '.join(
        'x %s %s (SELECT y FROM u WHERE u.g = t.g)' % (op, q) for op in OPS)))
CASES += [
 ('comment', 'correlated, in WHERE (semi and mark joins), by a non-equality, and over an aggregate'),
 ('I', 'SELECT id FROM t WHERE x > ANY (SELECT y FROM u WHERE u.g = t.g) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE x >= ALL (SELECT y FROM u WHERE u.g = t.g) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE x <> ALL (SELECT y FROM u WHERE u.g = t.g) ORDER BY id'),
 ('I', 'SELECT id FROM t WHERE NOT (x < ALL (SELECT y FROM u WHERE u.g = t.g)) ORDER BY id'),
 ('IT', 'SELECT id, x > ALL (SELECT y FROM u WHERE u.g < t.g) FROM t ORDER BY id'),
 ('IT', 'SELECT id, x < ANY (SELECT y FROM u WHERE u.g <> t.g AND u.y > t.x) FROM t ORDER BY id'),
 ('IT', 'SELECT id, x >= ALL (SELECT max(y) FROM u WHERE u.g = t.g) FROM t ORDER BY id'),
 ('IT', 'SELECT id, x > ANY (SELECT count(*) FROM u WHERE u.g = t.g) FROM t ORDER BY id'),
 ('II', 'SELECT g, max(x) FROM t GROUP BY g HAVING max(x) >= ALL (SELECT y FROM u WHERE u.g = t.g) ORDER BY g'),
 ('comment', 'the probe may itself hold a subquery'),
 ('IT', 'SELECT id, (SELECT max(y) FROM u WHERE u.g = t.g) > ALL (SELECT y FROM s) FROM t ORDER BY id'),
 ('comment', 'errors'),
 ('error', 'SELECT x > ALL (SELECT y, y FROM s) FROM t', 'select exactly one column'),
 ('error', "SELECT x > ANY (SELECT DATE '2024-01-01') FROM t", 'ANY (subquery)'),
]
