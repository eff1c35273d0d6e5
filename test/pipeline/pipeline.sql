-- Test pipeline for test/pipeline/*.sh: bronze from JSON files, silver
-- deduplicated by id (newest seq wins), big_orders a second reader of bronze,
-- gold a view over silver and gold_file a file sink of its changes.
CREATE OR REFRESH STREAMING TABLE bronze
AS SELECT * FROM read_files('landing/', format => 'json', schema => 'id BIGINT, grp STRING, amount BIGINT, seq BIGINT');

CREATE OR REFRESH STREAMING TABLE silver (id BIGINT NOT NULL, grp STRING, amount BIGINT, seq BIGINT, PRIMARY KEY (id))
TBLPROPERTIES ('pipelines.sequence_by' = 'seq')
AS SELECT id, grp, amount, seq FROM STREAM(LIVE.bronze) WHERE id IS NOT NULL;

CREATE OR REFRESH STREAMING TABLE big_orders
AS SELECT id, amount FROM STREAM(bronze) WHERE amount >= 50;

CREATE OR REFRESH MATERIALIZED VIEW gold TBLPROPERTIES ('refresh' = 'manual') AS
SELECT grp, SUM(amount) AS total, COUNT(*) AS n FROM LIVE.silver GROUP BY grp;

CREATE SINK gold_file FROM gold INTO FILE 'out/gold.jsonl' WITH ('format' = 'upsert', 'key' = 'grp', 'start' = 'earliest');
