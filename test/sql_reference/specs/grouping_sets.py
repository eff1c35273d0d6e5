NAME = 'test/sql/aggregate/grouping_sets.test'
DESCRIPTION = 'GROUP BY GROUPING SETS, ROLLUP, CUBE, WITH ROLLUP/WITH CUBE, mixed plain and grouping-set columns, grouping() and grouping_id(), HAVING and ORDER BY over them; expected results checked against DuckDB'
GROUP = 'aggregate'
SETUP = [
 'CREATE TABLE s (region VARCHAR, product VARCHAR, year INT, amount INT)',
 "INSERT INTO s VALUES ('east', 'a', 2023, 10), ('east', 'b', 2023, 20), ('east', 'a', 2024, 30), ('west', 'a', 2023, 40), ('west', NULL, 2024, 50), (NULL, 'b', 2024, 60), ('west', 'b', NULL, NULL)",
 'CREATE TABLE empty_s (region VARCHAR, amount INT)',
]
CASES = [
 ('comment', 'ROLLUP: (region, product), (region), (); a NULL from the data and a rolled-up NULL stay apart (grouping() tells them)'),
 ('TTIIII', 'SELECT region, product, sum(amount), count(*), grouping(region), grouping(product) FROM s GROUP BY ROLLUP(region, product) ORDER BY grouping(region), grouping(product), region NULLS LAST, product NULLS LAST'),
 ('TTII', 'SELECT region, product, sum(amount), grouping_id(region, product) FROM s GROUP BY region, product WITH ROLLUP ORDER BY 4, 1 NULLS LAST, 2 NULLS LAST'),
 ('comment', 'CUBE and WITH CUBE: every subset'),
 ('TTII', 'SELECT region, product, sum(amount), grouping_id(region, product) AS gid FROM s GROUP BY CUBE(region, product) ORDER BY gid, region NULLS LAST, product NULLS LAST'),
 ('TTII', 'SELECT region, product, count(amount), grouping_id(region, product) AS gid FROM s GROUP BY region, product WITH CUBE ORDER BY gid, region NULLS LAST, product NULLS LAST'),
 ('comment', 'GROUPING SETS with the empty set, single columns and composite sets'),
 ('TTIII', 'SELECT region, product, year, sum(amount), grouping_id(region, product, year) FROM s GROUP BY GROUPING SETS ((region, product), (year), ()) ORDER BY 5, 1 NULLS LAST, 2 NULLS LAST, 3 NULLS LAST'),
 ('TI', 'SELECT region, sum(amount) FROM s GROUP BY GROUPING SETS (region, ()) ORDER BY grouping(region), region NULLS LAST'),
 ('I', 'SELECT sum(amount) FROM s GROUP BY GROUPING SETS (())'),
 ('comment', 'mixed: a plain column is in every set (GROUP BY a, ROLLUP(b, c))'),
 ('TTIII', 'SELECT region, product, year, sum(amount), grouping_id(product, year) FROM s GROUP BY region, ROLLUP(product, year) ORDER BY region NULLS LAST, 5, product NULLS LAST, year NULLS LAST'),
 ('TTII', 'SELECT region, product, sum(amount), grouping_id() FROM s GROUP BY region, CUBE(product) ORDER BY region NULLS LAST, 4, product NULLS LAST'),
 ('comment', 'the same column twice, and ROLLUP over a composite element'),
 ('TTII', 'SELECT region, product, sum(amount), grouping_id(region, product) FROM s GROUP BY GROUPING SETS ((region), (region, product), (region)) ORDER BY 4, 1 NULLS LAST, 2 NULLS LAST, 3'),
 ('TIII', 'SELECT region, year, sum(amount), grouping_id(region, year) FROM s GROUP BY ROLLUP((region, year)) ORDER BY 4, 1 NULLS LAST, 2 NULLS LAST'),
 ('comment', 'HAVING and ORDER BY over grouping() and aggregates; expressions over rolled-up columns read NULL'),
 ('TTI', "SELECT region, product, sum(amount) AS total FROM s GROUP BY ROLLUP(region, product) HAVING grouping(product) = 1 AND sum(amount) > 20 ORDER BY total DESC"),
 ('TI', "SELECT coalesce(region, 'all') AS r, sum(amount) FROM s WHERE region IS NOT NULL GROUP BY ROLLUP(region) ORDER BY grouping(region), r"),
 ('TII', 'SELECT upper(region), sum(amount), grouping(region) FROM s GROUP BY ROLLUP(region) ORDER BY 3, 1 NULLS LAST'),
 ('comment', 'with FILTER, DISTINCT and several aggregates'),
 ('TIIII', 'SELECT region, count(*), count(*) FILTER (WHERE year = 2024), count(DISTINCT product), max(amount) FROM s GROUP BY ROLLUP(region) ORDER BY grouping(region), region NULLS LAST'),
 ('comment', 'many groups across vectors (more than 2048 rows and groups)'),
 ('IIII', 'SELECT count(*), sum(c), sum(g), count(DISTINCT gid) FROM (SELECT range % 3000 AS a, range % 7 AS b, count(*) AS c, grouping_id(a, b) AS gid, grouping(a) + grouping(b) AS g FROM range(10000) GROUP BY CUBE(a, b)) q'),
 ('III', 'SELECT range % 5 AS a, sum(range), grouping(a) FROM range(5000) GROUP BY ROLLUP(range % 5) ORDER BY 3, 1'),
 ('comment', 'errors'),
 ('error', 'SELECT region, grouping(amount) FROM s GROUP BY ROLLUP(region)', 'is not a GROUP BY expression'),
 ('error', 'SELECT region, product, sum(amount) FROM s GROUP BY ROLLUP(region) ORDER BY 1', 'product'),
 ('error', 'SELECT grouping(region) FROM s', 'is not a GROUP BY expression'),
]
