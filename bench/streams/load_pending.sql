-- bench/streams (a): a stream with {{N}} pending inserted rows (version 1).
CREATE TABLE src (id BIGINT, g BIGINT, v DECIMAL(12,2)) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
CREATE STREAM s ON TABLE src;
INSERT INTO src SELECT range AS id, range % 1000 AS g, CAST((range * 7919 % 10007) / 100.0 AS DECIMAL(12,2)) AS v FROM range({{N}});
SELECT count(*) FROM src;
