-- bench/pipeline: bronze (files) -> silver (upsert by id) -> gold (view) -> Kafka (upsert).
CREATE OR REFRESH STREAMING TABLE bronze
AS SELECT * FROM read_files('landing/', format => 'json', schema => 'id BIGINT, category STRING, amount DECIMAL(12,2)');

CREATE OR REFRESH STREAMING TABLE silver (id BIGINT NOT NULL, category STRING, amount DECIMAL(12,2), PRIMARY KEY (id))
AS SELECT id, category, amount FROM STREAM(LIVE.bronze);

CREATE OR REFRESH MATERIALIZED VIEW gold TBLPROPERTIES ('refresh' = 'manual') AS
SELECT category, SUM(amount) AS total, COUNT(*) AS n FROM LIVE.silver GROUP BY category;

CREATE SINK gold_out FROM gold INTO KAFKA WITH (
  'bootstrap.servers' = 'BOOTSTRAP', 'topic' = 'gold', 'format' = 'upsert', 'key' = 'category', 'linger.ms' = '0');
