-- bench/parquet: N rows of (BIGINT, DOUBLE, VARCHAR of 16 chars, DATE), built in
-- memory by the same SQL in both systems. s has N distinct values (no
-- dictionary), d cycles through 10,000 days.
CREATE TABLE t AS SELECT range AS a, CAST(range * 0.5 AS DOUBLE) AS b, 'user_' || lpad(CAST((range * 7919) % 10000000 AS VARCHAR), 11, '0') AS s, DATE '2000-01-01' + CAST(range % 10000 AS INTEGER) AS d FROM range({{N}});
SELECT COUNT(*) FROM t;
