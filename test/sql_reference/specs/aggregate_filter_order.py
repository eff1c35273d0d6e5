NAME = 'test/sql/aggregate/filter_order.test'
DESCRIPTION = 'FILTER (WHERE ...) on any aggregate, ORDER BY inside string_agg/array_agg/collect_list calls and WITHIN GROUP; expected results checked against DuckDB'
GROUP = 'aggregate'
SETUP = [
 'CREATE TABLE t (g INT, x INT, s VARCHAR, k INT)',
 "INSERT INTO t VALUES (1, 1, 'a', 3), (1, 2, 'b', 1), (1, NULL, 'c', 2), (2, 5, NULL, 1), (2, 6, 'e', NULL), (2, 7, 'f', 9), (3, NULL, NULL, NULL)",
 'CREATE TABLE empty_t (g INT, x INT)',
]
CASES = [
 ('comment', 'FILTER: rows where the condition is not TRUE (false or NULL) are skipped'),
 ('IIIRI', 'SELECT count(*) FILTER (WHERE x > 1), count(x) FILTER (WHERE g = 1), sum(x) FILTER (WHERE k IS NOT NULL), avg(x) FILTER (WHERE x < 7), max(x) FILTER (WHERE s IS NULL) FROM t'),
 ('IIIII', 'SELECT g, count(*) FILTER (WHERE k > 1), sum(x) FILTER (WHERE x % 2 = 1), sum(x), min(k) FILTER (WHERE x IS NULL) FROM t GROUP BY g ORDER BY g'),
 ('III', 'SELECT g, count(DISTINCT x) FILTER (WHERE x > 1), sum(DISTINCT x) FILTER (WHERE k < 5) FROM t GROUP BY g ORDER BY g'),
 ('comment', 'a filter that matches nothing: count is 0, the others NULL'),
 ('III', 'SELECT count(*) FILTER (WHERE false), sum(x) FILTER (WHERE x > 100), max(x) FILTER (WHERE NULL) FROM t'),
 ('II', 'SELECT count(*) FILTER (WHERE x > 0), sum(x) FILTER (WHERE x > 0) FROM empty_t'),
 ('II', 'SELECT g, count(*) FILTER (WHERE x > 0) AS c FROM t GROUP BY g HAVING count(*) FILTER (WHERE x > 0) > 1 ORDER BY c'),
 ('comment', 'many vectors'),
 ('IIII', 'SELECT count(*) FILTER (WHERE range % 3 = 0), sum(range) FILTER (WHERE range % 2 = 0), sum(range) FILTER (WHERE range >= 3000), count(range) FILTER (WHERE range % 1000 = 0) FROM range(5000)'),
 ('III', 'SELECT range % 4 AS g, count(*) FILTER (WHERE range % 3 = 0), sum(range) FILTER (WHERE range > 4000) FROM range(6000) GROUP BY range % 4 ORDER BY g'),
 ('comment', 'ORDER BY inside string_agg (NULLs skipped; Spark has no default separator, so pass one)'),
 ('IT', "SELECT g, string_agg(s, ',' ORDER BY k) FROM t GROUP BY g ORDER BY g"),
 ('IT', "SELECT g, string_agg(s, '|' ORDER BY k DESC NULLS LAST) FROM t GROUP BY g ORDER BY g"),
 ('IT', "SELECT g, string_agg(s, '-' ORDER BY s DESC) FILTER (WHERE x > 1) FROM t GROUP BY g ORDER BY g"),
 ('T', "SELECT string_agg(CAST(x AS VARCHAR), ';' ORDER BY x DESC) FROM t"),
 ('T', "SELECT string_agg(s, ', ' ORDER BY k NULLS FIRST, s) FROM t"),
 ('comment', 'WITHIN GROUP (Spark listagg, Postgres/Spark percentile_cont)'),
 ('IT', "SELECT g, listagg(s, ',') WITHIN GROUP (ORDER BY k) FROM t GROUP BY g ORDER BY g"),
 ('RRR', 'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), percentile_cont(0.25) WITHIN GROUP (ORDER BY x DESC), percentile_disc(0.5) WITHIN GROUP (ORDER BY x) FROM t'),
 ('IRR', 'SELECT g, percentile_cont(0.75) WITHIN GROUP (ORDER BY x), percentile_disc(0.4) WITHIN GROUP (ORDER BY x DESC) FROM t GROUP BY g ORDER BY g'),
 ('comment', 'ORDER BY in the call of an order-insensitive aggregate has no effect'),
 ('IR', 'SELECT sum(x ORDER BY k), avg(x ORDER BY s DESC) FROM t'),
 ('comment', 'many vectors: the last and first elements of a long ordered list'),
 ('TI', "SELECT substr(string_agg(CAST(range AS VARCHAR), ',' ORDER BY range DESC), 1, 20), length(string_agg(CAST(range AS VARCHAR), ',' ORDER BY range)) FROM range(5000)"),
 ('comment', 'errors'),
 ('error', "SELECT abs(x) FILTER (WHERE x > 1) FROM t", 'applies to aggregate functions'),
 ('error', "SELECT sum(x) FILTER (WHERE s) FROM t", 'must be a BOOLEAN condition'),
 ('error', "SELECT sum(x) FILTER (WHERE sum(x) > 1) FROM t", 'is not allowed in FILTER'),
]
