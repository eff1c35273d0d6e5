-- bench/aggregate: N rows of t (g: 1,000 distinct BIGINT groups, v: DOUBLE,
-- s: 5,000 distinct strings) and D = N/10 rows of d for the join.
CREATE TABLE t AS SELECT range % 1000 AS g, CAST((range * 7919 % 10007) / 10.0 AS DOUBLE) AS v, 's' || CAST(range % 5000 AS VARCHAR) AS s FROM range({{N}});
CREATE TABLE d AS SELECT range AS k FROM range({{D}});
SELECT COUNT(*) FROM t;
