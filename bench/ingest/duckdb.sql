-- bench/ingest, DuckDB: the same files through read_json_auto (schema
-- inferred) into a table (CREATE TABLE AS), then the same check query
-- (DuckDB's lists are 1-based).
CREATE OR REPLACE TABLE bronze AS SELECT * FROM read_json_auto('{{DIR}}/*.json');
SELECT COUNT(*), SUM(fullDocument.owner_id), SUM(len(fullDocument.items)), MAX(fullDocument.address.city), SUM(fullDocument.items[1].qty), COUNT(ts) FROM bronze;
