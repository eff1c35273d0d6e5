-- what the join view holds after the refreshes (compared with DuckDB recomputing the join: recompute_join.sql)
SELECT region, COUNT(*) AS n, SUM(v) AS total FROM joined GROUP BY region ORDER BY region;
