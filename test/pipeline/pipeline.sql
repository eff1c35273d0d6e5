-- Test pipeline for test/pipeline/*.sh: bronze from JSON files, silver
-- deduplicated by id (newest seq wins), silver_appends a second stream reader.
CREATE OR REFRESH STREAMING TABLE bronze
AS SELECT * FROM read_files('landing/', format => 'json', schema => 'id BIGINT, grp STRING, amount BIGINT, seq BIGINT');

CREATE OR REFRESH STREAMING TABLE silver (id BIGINT NOT NULL, grp STRING, amount BIGINT, seq BIGINT, PRIMARY KEY (id))
TBLPROPERTIES ('pipelines.sequence_by' = 'seq')
AS SELECT id, grp, amount, seq FROM STREAM(LIVE.bronze) WHERE id IS NOT NULL;

CREATE OR REFRESH STREAMING TABLE big_orders
AS SELECT id, amount FROM STREAM(bronze) WHERE amount >= 50;
