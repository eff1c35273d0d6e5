-- bench/ingest, lakestream: every landing file through read_files() (schema
-- inferred: nested STRUCTs, an ARRAY of STRUCTs, a TIMESTAMP) into a new
-- streaming table (a Delta table), then the check query.
DROP STREAMING TABLE IF EXISTS bronze;
CREATE OR REFRESH STREAMING TABLE bronze AS SELECT * FROM read_files('{{DIR}}', format => 'json');
SELECT COUNT(*), SUM(fullDocument.owner_id), SUM(size(fullDocument.items)), MAX(fullDocument.address.city), SUM(fullDocument.items[0].qty), COUNT(ts) FROM bronze;
