import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
await c.run("SET threads=1");
const N = process.argv[2];
await c.run(`CREATE TABLE t AS SELECT range AS a, CAST(range * 0.5 AS DOUBLE) AS b, 'user_' || lpad(CAST((range * 7919) % 10000000 AS VARCHAR), 11, '0') AS s, DATE '2000-01-01' + CAST(range % 10000 AS INTEGER) AS d FROM range(${N})`);
await c.run(`COPY t TO '/tmp/sp/duck${N}.parquet' (FORMAT parquet, COMPRESSION zstd)`);
