-- bench/views: N source rows in 1,000 groups, and the gold view over them
-- (manual refresh, so the driver times REFRESH alone).
CREATE TABLE src (id BIGINT, g BIGINT, v DECIMAL(12,2)) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
INSERT INTO src SELECT range AS id, range % 1000 AS g, CAST((range * 7919 % 10007) / 100.0 AS DECIMAL(12,2)) AS v FROM range({{N}});
CREATE MATERIALIZED VIEW gold TBLPROPERTIES ('refresh' = 'manual') AS SELECT g, SUM(v) AS total, COUNT(*) AS n FROM src GROUP BY g;
-- the two-table join view (issue 30's target: 1k changes on one side refresh within 3x the commit floor)
CREATE TABLE dim (g BIGINT, region VARCHAR) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
INSERT INTO dim SELECT range AS g, 'region ' || CAST(range % 7 AS VARCHAR) AS region FROM range(1000);
CREATE MATERIALIZED VIEW joined TBLPROPERTIES ('refresh' = 'manual') AS SELECT s.id, s.v, d.region FROM src s JOIN dim d ON s.g = d.g;
-- one-row commits to this table measure the durable-commit floor (commit_floor.sql)
CREATE TABLE floor_t (id BIGINT);
-- the same last statement as load_duckdb.sql, so bench/run can compare the loads' answers
SELECT COUNT(*) FROM src;
