-- bench/views single-row INSERT series: the same table twice, one with an
-- auto GROUP BY view over it, one without.
CREATE TABLE iv_src (id BIGINT, g BIGINT, v DECIMAL(12,2)) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
CREATE TABLE ip_src (id BIGINT, g BIGINT, v DECIMAL(12,2)) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
INSERT INTO iv_src SELECT range, range % 100, range FROM range(10000);
INSERT INTO ip_src SELECT range, range % 100, range FROM range(10000);
CREATE MATERIALIZED VIEW iv_gold AS SELECT g, SUM(v) AS total, COUNT(*) AS n FROM iv_src GROUP BY g;
SELECT COUNT(*) FROM iv_gold;
