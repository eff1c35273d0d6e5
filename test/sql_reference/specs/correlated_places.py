# Correlated subqueries outside a SELECT's WHERE / SELECT list / HAVING:
# DELETE and UPDATE (WHERE and SET), MERGE (ON, clause conditions, values),
# an outer join's ON, GROUP BY keys, aggregate arguments and window inputs.
# The DML runs in SETUP; the cases read what it left.
NAME = 'test/sql/subquery/correlated_places.test'
DESCRIPTION = 'correlated subqueries in DELETE/UPDATE/MERGE, LEFT/FULL JOIN ON, GROUP BY, aggregate arguments and window inputs; expected results checked against DuckDB'
GROUP = 'subquery'
BASE = "INSERT INTO {} VALUES (1, 10, 'a'), (2, 20, 'b'), (3, NULL, 'c'), (4, 40, 'd'), (5, 50, NULL)"
SETUP = []
for name in ['t', 'del1', 'del2', 'del3', 'del4', 'up1', 'up2', 'up3', 'up4', 'm1']:
    SETUP += ['CREATE TABLE %s (id INTEGER, v INTEGER, s VARCHAR)' % name, BASE.format(name)]
SETUP += [
 'CREATE TABLE u (id INTEGER, w INTEGER)',
 'INSERT INTO u VALUES (1, 5), (1, 7), (2, NULL), (4, 41), (6, 60), (NULL, 1)',
 'DELETE FROM del1 WHERE EXISTS (SELECT 1 FROM u WHERE u.id = del1.id)',
 'DELETE FROM del2 WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.id = del2.id AND u.w IS NOT NULL)',
 'DELETE FROM del3 WHERE v > (SELECT max(w) FROM u WHERE u.id = del3.id)',
 'DELETE FROM del4 AS d WHERE d.v < ANY (SELECT w FROM u WHERE u.id = d.id) OR d.v IN (SELECT w - 10 FROM u WHERE u.id > d.id)',
 'UPDATE up1 SET v = (SELECT max(w) FROM u WHERE u.id = up1.id)',
 'UPDATE up2 SET v = (SELECT count(*) FROM u WHERE u.id = up2.id) WHERE EXISTS (SELECT 1 FROM u WHERE u.id = up2.id)',
 "UPDATE up3 SET s = s || '!' WHERE v >= ALL (SELECT w FROM u WHERE u.id = up3.id)",
 'UPDATE up4 SET v = v + (SELECT coalesce(sum(w), 0) FROM u WHERE u.id < up4.id), s = (SELECT min(s) FROM t WHERE t.id > up4.id)',
 'CREATE TABLE src (id INTEGER, v INTEGER)',
 'INSERT INTO src VALUES (1, 100), (2, 200), (4, 400), (7, 700)',
 'MERGE INTO m1 USING src ON m1.id = src.id '
 'WHEN MATCHED AND EXISTS (SELECT 1 FROM u WHERE u.id = m1.id AND u.w > 6) THEN UPDATE SET v = src.v + (SELECT max(w) FROM u WHERE u.id = m1.id) '
 'WHEN MATCHED AND src.v > (SELECT count(*) FROM u WHERE u.id = src.id) * 300 THEN DELETE '
 "WHEN NOT MATCHED THEN INSERT VALUES (src.id, (SELECT sum(w) FROM u WHERE u.id < src.id), 'new')",
]
CASES = [
 ('comment', 'DELETE ... WHERE [NOT] EXISTS / scalar / ANY / IN, correlated'),
 ('IIT', 'SELECT * FROM del1 ORDER BY id'),
 ('IIT', 'SELECT * FROM del2 ORDER BY id'),
 ('IIT', 'SELECT * FROM del3 ORDER BY id'),
 ('IIT', 'SELECT * FROM del4 ORDER BY id'),
 ('comment', 'UPDATE ... SET (correlated) [WHERE (correlated)]'),
 ('IIT', 'SELECT * FROM up1 ORDER BY id'),
 ('IIT', 'SELECT * FROM up2 ORDER BY id'),
 ('IIT', 'SELECT * FROM up3 ORDER BY id'),
 ('IIT', 'SELECT * FROM up4 ORDER BY id'),
 ('comment', 'MERGE with correlated subqueries in clause conditions, UPDATE SET and INSERT values'),
 ('IIT', 'SELECT * FROM m1 ORDER BY id'),
 ('comment', 'LEFT / FULL JOIN ON with a correlated subquery reading one side. DuckDB refuses most of these'),
 ('comment', '("Cannot perform non-inner join on subquery"): each is followed by the same join over the value computed in FROM, which DuckDB answers'),
 ('IIII', 'SELECT t.id AS tid, t.v AS tv, src.id AS sid, src.v AS sv FROM t LEFT JOIN src ON src.id = t.id AND EXISTS (SELECT 1 FROM u WHERE u.id = t.id) ORDER BY t.id'),
 ('IIII', 'SELECT t.id AS tid, t.v AS tv, src.id AS sid, src.v AS sv FROM (SELECT t.*, EXISTS (SELECT 1 FROM u WHERE u.id = t.id) AS e FROM t) t LEFT JOIN src ON src.id = t.id AND t.e ORDER BY t.id'),
 ('IIII', 'SELECT t.id AS tid, t.v AS tv, src.id AS sid, src.v AS sv FROM t LEFT JOIN src ON src.id = t.id AND src.v > (SELECT max(w) FROM u WHERE u.id = src.id) * 20 ORDER BY t.id'),
 ('IIII', 'SELECT t.id AS tid, t.v AS tv, src.id AS sid, src.v AS sv FROM t FULL JOIN src ON src.id = t.id AND t.v < ALL (SELECT w FROM u WHERE u.id = t.id) ORDER BY t.id, src.id'),
 ('IIII', 'SELECT t.id AS tid, t.v AS tv, src.id AS sid, src.v AS sv FROM (SELECT t.*, t.v < ALL (SELECT w FROM u WHERE u.id = t.id) AS e FROM t) t FULL JOIN src ON src.id = t.id AND t.e ORDER BY t.id, src.id'),
 ('IIII', 'SELECT t.id AS tid, t.v AS tv, src.id AS sid, src.v AS sv FROM src RIGHT JOIN t ON src.id = t.id AND t.id IN (SELECT id FROM u WHERE u.w > t.v) ORDER BY t.id'),
 ('IIII', 'SELECT t.id AS tid, t.v AS tv, src.id AS sid, src.v AS sv FROM src RIGHT JOIN (SELECT t.*, t.id IN (SELECT id FROM u WHERE u.w > t.v) AS e FROM t) t ON src.id = t.id AND t.e ORDER BY t.id'),
 ('error', 'SELECT t.id FROM t LEFT JOIN src ON EXISTS (SELECT 1 FROM u WHERE u.id = t.id AND u.w < src.v)', "not supported yet: a correlated subquery in an outer join's ON condition that reads columns of both sides"),
 ('comment', 'GROUP BY keys and aggregate arguments'),
 ('II', 'SELECT (SELECT count(*) FROM u WHERE u.id = t.id) AS c, count(*) FROM t GROUP BY (SELECT count(*) FROM u WHERE u.id = t.id) ORDER BY c'),
 ('II', 'SELECT v > 15 AS big, sum((SELECT max(w) FROM u WHERE u.id = t.id)) FROM t GROUP BY v > 15 ORDER BY big'),
 ('III', 'SELECT count(*) FILTER (WHERE EXISTS (SELECT 1 FROM u WHERE u.id = t.id)), max(v + (SELECT count(*) FROM u WHERE u.id = t.id)), sum(CASE WHEN v IN (SELECT w - 1 FROM u WHERE u.id <> t.id) THEN 1 ELSE 0 END) FROM t'),
 ('II', 'SELECT (SELECT count(*) FROM u WHERE u.id = t.id) AS c, count(*) FROM t GROUP BY c ORDER BY c'),
 ('II', 'SELECT (SELECT count(*) FROM u WHERE u.id = t.id), count(*) FROM t GROUP BY 1 ORDER BY 1'),
 ('comment', 'two different subqueries are two different keys (both print as (SELECT ...))'),
 ('II', 'SELECT (SELECT 1) AS a, count(*) FROM t GROUP BY (SELECT 2)'),
 ('III', 'SELECT (SELECT max(w) FROM u WHERE u.id = t.id) AS m, (SELECT min(w) FROM u WHERE u.id = t.id) AS n, count(*) FROM t GROUP BY (SELECT max(w) FROM u WHERE u.id = t.id), (SELECT min(w) FROM u WHERE u.id = t.id) ORDER BY m, n'),
 ('comment', 'window function inputs'),
 ('III', 'SELECT id, sum((SELECT count(*) FROM u WHERE u.id = t.id)) OVER (ORDER BY id), rank() OVER (ORDER BY (SELECT max(w) FROM u WHERE u.id = t.id) DESC NULLS LAST, id) FROM t ORDER BY id'),
 ('comment', 'ORDER BY a correlated subquery'),
 ('I', 'SELECT id FROM t ORDER BY (SELECT count(*) FROM u WHERE u.id = t.id) DESC, id'),
]
