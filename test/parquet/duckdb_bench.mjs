// DuckDB side of the rough Parquet benchmark (single thread): writes the same
// 10M rows as bench_parquet.cpp with ZSTD and scans all columns.
//   NODE_PATH=bench/node_modules node test/parquet/duckdb_bench.mjs /tmp/duck_bench.parquet [rows]
import { createRequire } from 'module';
const require = createRequire(import.meta.url);
let duck;
try {
  duck = await import(require.resolve('@duckdb/node-api', { paths: [process.cwd() + '/bench', process.cwd()] }));
} catch (e) {
  console.log('SKIP: @duckdb/node-api is not installed (npm install @duckdb/node-api in bench/)');
  process.exit(77);
}
const path = process.argv[2] ?? '/tmp/duck_bench.parquet';
const rows = Number(process.argv[3] ?? 10000000);
const inst = await duck.DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run('SET threads = 1');
await con.run(`CREATE TABLE t AS SELECT i::BIGINT AS a, (i * 0.5)::DOUBLE AS b,
  'user_' || lpad(((i * 7919) % 10000000)::VARCHAR, 11, '0') AS s,
  DATE '2000-01-01' + (i % 10000)::INTEGER AS d FROM range(${rows}) r(i)`);
let t0 = performance.now();
await con.run(`COPY t TO '${path}' (FORMAT parquet, COMPRESSION zstd)`);
const write_s = (performance.now() - t0) / 1000;
let best = 1e9;
for (let k = 0; k < 3; k++) {
  t0 = performance.now();
  await con.runAndReadAll(`SELECT max(a), max(b), max(s), max(d) FROM read_parquet('${path}')`);
  best = Math.min(best, (performance.now() - t0) / 1000);
}
const fs = await import('fs');
console.log(JSON.stringify({ engine: 'duckdb', rows, write_s: +write_s.toFixed(3), scan_s: +best.toFixed(3),
  file_bytes: fs.statSync(path).size }));
