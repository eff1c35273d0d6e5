CREATE TABLE t AS SELECT range AS a, CAST(range % 1000 AS INTEGER) AS b, CAST(range AS DOUBLE) * 0.5 AS c, range * 7 AS d FROM range({{N}})
