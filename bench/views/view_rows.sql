-- what the view holds after the refreshes (compared with DuckDB recomputing its query: recompute.sql)
SELECT g, total, n FROM gold;
