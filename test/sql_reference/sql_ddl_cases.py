# The cases whose DuckDB answers are the expected rows of test/sql/cte/recursive.test,
# test/sql/view/plain_views.test, test/sql/dml/update_from.test and delete_using.test
# (docs/sql-views-dml.md). Writes them as JSON for duckdb_rows.mjs:
#   python3 test/sql_reference/sql_ddl_cases.py /tmp/cases.json
#   node test/sql_reference/duckdb_rows.mjs /tmp/cases.json
# (the answers come in the order of the cases; each case names its query).
import json
import sys
emp_setup = ["CREATE TABLE emp (id INT, boss INT, name VARCHAR)",
  "INSERT INTO emp VALUES (1, NULL, 'ann'), (2, 1, 'bob'), (3, 1, 'cy'), (4, 2, 'di'), (5, 4, 'ed'), (6, NULL, 'fay'), (7, 6, 'gus')"]
edges = ["CREATE TABLE edges (src INT, dst INT)", "INSERT INTO edges VALUES (1,2),(2,3),(3,1),(3,4),(5,6),(6,NULL)"]
cases = {
 "count10": ([], "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r ORDER BY n"),
 "fib": ([], "WITH RECURSIVE fib(i, a, b) AS (SELECT 1, CAST(0 AS BIGINT), CAST(1 AS BIGINT) UNION ALL SELECT i + 1, b, a + b FROM fib WHERE i < 60) SELECT i, a FROM fib WHERE i % 10 = 0 ORDER BY i"),
 "closure": (edges, "WITH RECURSIVE reach(src, dst) AS (SELECT src, dst FROM edges WHERE dst IS NOT NULL UNION SELECT r.src, e.dst FROM reach r JOIN edges e ON r.dst = e.src WHERE e.dst IS NOT NULL) SELECT src, dst FROM reach ORDER BY src, dst"),
 "tree": (emp_setup, "WITH RECURSIVE chain AS (SELECT id, name, 0 AS depth, name AS path FROM emp WHERE boss IS NULL UNION ALL SELECT e.id, e.name, c.depth + 1, c.path || '/' || e.name FROM emp e JOIN chain c ON e.boss = c.id) SELECT id, name, depth, path FROM chain ORDER BY id"),
 "empty_anchor": (emp_setup, "WITH RECURSIVE r AS (SELECT id FROM emp WHERE id > 100 UNION ALL SELECT id + 1 FROM r) SELECT count(*) FROM r"),
 "null_union": ([], "WITH RECURSIVE r(x) AS (SELECT CAST(NULL AS INT) UNION SELECT x FROM r) SELECT count(*), count(x) FROM r"),
 "two_ctes": ([], "WITH RECURSIVE nums AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM nums WHERE n < 5), sq AS (SELECT n, n * n AS s FROM nums) SELECT a.n, b.s FROM nums a JOIN sq b ON a.n = b.n ORDER BY 1"),
 "sum100": ([], "WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 100) SELECT sum(n), count(*), max(n) FROM r"),
 "union_cycle": ([], "WITH RECURSIVE r(n) AS (SELECT 0 UNION SELECT (n + 1) % 7 FROM r) SELECT n FROM r ORDER BY n"),
 "group_in_term": (emp_setup, "WITH RECURSIVE sub(id, top) AS (SELECT id, id FROM emp WHERE boss IS NULL UNION ALL SELECT e.id, s.top FROM emp e JOIN sub s ON e.boss = s.id) SELECT top, count(*) FROM sub GROUP BY top ORDER BY top"),
 "derived_in_term": (emp_setup, "WITH RECURSIVE up(id, anc) AS (SELECT id, boss FROM emp WHERE boss IS NOT NULL UNION ALL SELECT u.id, x.boss FROM (SELECT * FROM up) u JOIN emp x ON u.anc = x.id WHERE x.boss IS NOT NULL) SELECT id, anc FROM up ORDER BY id, anc"),
}
# views
vsetup = ["CREATE TABLE orders (id INT, cust INT, amount DECIMAL(10,2))",
  "INSERT INTO orders VALUES (1, 10, 5.50), (2, 10, 7.25), (3, 20, NULL), (4, 30, 1.00), (5, 20, 2.00)",
  "CREATE TABLE custs (cust INT, name VARCHAR)", "INSERT INTO custs VALUES (10, 'x'), (20, 'y'), (40, 'w')",
  "CREATE VIEW big AS SELECT id, cust, amount FROM orders WHERE amount > 2",
  "CREATE VIEW per_cust (c, total, n) AS SELECT cust, sum(amount), count(*) FROM orders GROUP BY cust",
  "CREATE VIEW named AS SELECT p.c, cu.name, p.total FROM per_cust p LEFT JOIN custs cu ON p.c = cu.cust"]
cases.update({
 "v_big": (vsetup, "SELECT * FROM big ORDER BY id"),
 "v_per_cust": (vsetup, "SELECT * FROM per_cust ORDER BY c"),
 "v_named": (vsetup, "SELECT * FROM named ORDER BY c"),
 "v_join": (vsetup, "SELECT b.id, c.name FROM big b JOIN custs c ON b.cust = c.cust ORDER BY b.id"),
 "v_self_join": (vsetup, "SELECT a.c, b.c FROM per_cust a JOIN per_cust b ON a.n = b.n AND a.c < b.c ORDER BY 1, 2"),
 "v_subq": (vsetup, "SELECT id FROM orders WHERE cust IN (SELECT c FROM per_cust WHERE n > 1) ORDER BY id"),
 "v_after_insert": (vsetup + ["INSERT INTO orders VALUES (6, 40, 9.00)"], "SELECT * FROM named ORDER BY c"),
})
# UPDATE FROM / DELETE USING
dsetup = ["CREATE TABLE t (k INT, v VARCHAR, n INT)", "INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30), (4, NULL, NULL)",
  "CREATE TABLE s (k INT, v VARCHAR, d INT)", "INSERT INTO s VALUES (1, 'A', 1), (3, 'C', 3), (5, 'E', 5), (NULL, 'Z', 9)"]
cases.update({
 "upd_from": (dsetup + ["UPDATE t SET v = s.v, n = t.n + s.d FROM s WHERE t.k = s.k"], "SELECT * FROM t ORDER BY k"),
 "upd_from_alias_filter": (dsetup + ["UPDATE t AS x SET n = y.d * 100 FROM s AS y WHERE x.k = y.k AND y.d > 1"], "SELECT * FROM t ORDER BY k"),
 "upd_from_sub": (dsetup + ["UPDATE t SET n = q.m FROM (SELECT k, max(d) AS m FROM s GROUP BY k) q WHERE t.k = q.k"], "SELECT * FROM t ORDER BY k"),
 "upd_from_two": (dsetup + ["CREATE TABLE r (k INT, w INT)", "INSERT INTO r VALUES (1, 7), (3, 8)", "UPDATE t SET n = s.d + r.w FROM s, r WHERE t.k = s.k AND s.k = r.k"], "SELECT * FROM t ORDER BY k"),
 "upd_from_none": (dsetup + ["UPDATE t SET n = 0 FROM s WHERE t.k = s.k AND s.d > 100"], "SELECT * FROM t ORDER BY k"),
 "del_using": (dsetup + ["DELETE FROM t USING s WHERE t.k = s.k"], "SELECT * FROM t ORDER BY k"),
 "del_using_multi": (dsetup + ["INSERT INTO s VALUES (1, 'A2', 2)", "DELETE FROM t USING s WHERE t.k = s.k AND s.d < 3"], "SELECT * FROM t ORDER BY k"),
 "del_using_alias": (dsetup + ["DELETE FROM t AS x USING s AS y WHERE x.k < y.k AND y.v = 'C'"], "SELECT * FROM t ORDER BY k"),
})
names = list(cases)
out = sys.argv[1] if len(sys.argv) > 1 else "sql_ddl_cases.json"
json.dump([{"name": n, "setup": cases[n][0], "query": cases[n][1]} for n in names], open(out, "w"), indent=1)
