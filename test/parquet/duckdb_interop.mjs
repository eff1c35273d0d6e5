// Interop with DuckDB both ways, for every flat type and codec:
//  1. DuckDB reads the files lakestream writes and sees the same values;
//  2. lakestream reads the files DuckDB writes and sees the same values.
// Values are compared in the canonical text form of interop_driver.cpp.
//   node test/parquet/duckdb_interop.mjs [path/to/interop_driver]
// Exit 77 (skip) when @duckdb/node-api or the driver is missing.
import { createRequire } from 'module';
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
const require = createRequire(import.meta.url);
let duck;
try {
  duck = await import(require.resolve('@duckdb/node-api', { paths: [process.cwd() + '/bench', process.cwd()] }));
} catch (e) {
  console.log('SKIP: @duckdb/node-api is not installed (cd bench && npm install @duckdb/node-api)');
  process.exit(77);
}
const driver = process.argv[2] ?? '/tmp/interop_driver';
if (!fs.existsSync(driver)) {
  console.log(`SKIP: driver ${driver} not built (see test/parquet/interop_driver.cpp)`);
  process.exit(77);
}
const dir = fs.mkdtempSync(os.tmpdir() + '/ls_interop_');
const inst = await duck.DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run('SET threads = 1');
const canon = (cols) => cols.map(([n, t]) => {
  switch (t) {
    case 'BOOLEAN': return `CASE WHEN ${n} IS NULL THEN 'NULL' WHEN ${n} THEN 'true' ELSE 'false' END`;
    case 'DOUBLE': return `coalesce(printf('%.17g', ${n}), 'NULL')`;
    case 'DATE': return `coalesce((${n} - DATE '1970-01-01')::VARCHAR, 'NULL')`;
    case 'TIMESTAMP': return `coalesce(epoch_us(${n})::VARCHAR, 'NULL')`;
    default: return `coalesce(${n}::VARCHAR, 'NULL')`;
  }
}).join(` || chr(9) || `);
const cols = [['b', 'BOOLEAN'], ['i', 'INTEGER'], ['l', 'BIGINT'], ['d', 'DOUBLE'], ['s', 'VARCHAR'], ['dt', 'DATE'],
  ['ts', 'TIMESTAMP'], ['dec9', 'DECIMAL'], ['dec18', 'DECIMAL'], ['dec38', 'DECIMAL']];
async function duckLines(file) {
  const r = await con.runAndReadAll(`SELECT ${canon(cols)} FROM read_parquet('${file}')`);
  return r.getRows().map((row) => String(row[0]));
}
let failures = 0;
function compare(what, a, b) {
  if (a.length !== b.length) { console.log(`FAIL ${what}: ${a.length} vs ${b.length} rows`); failures++; return; }
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) {
    console.log(`FAIL ${what}: row ${i}\n  ours:   ${a[i]}\n  duckdb: ${b[i]}`); failures++; return;
  }
  console.log(`ok   ${what} (${a.length} rows)`);
}
execFileSync(driver, ['write', dir]);
const codecs = ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4'];
for (const c of codecs) {
  const f = `${dir}/${c}.parquet`;
  const ours = execFileSync(driver, ['read', f], { maxBuffer: 1 << 28 }).toString().split('\n').filter((x) => x);
  compare(`duckdb reads lakestream ${c}`, ours, await duckLines(f));
  const meta = await con.runAndReadAll(`SELECT DISTINCT compression FROM parquet_metadata('${f}')`);
  console.log(`     parquet_metadata compression: ${meta.getRows().map((r) => r[0]).join(',')}`);
}
// DuckDB writes the same data; we read it.
await con.run(`CREATE TABLE src AS SELECT * FROM read_parquet('${dir}/zstd.parquet')`);
for (const c of ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4_raw']) {
  const f = `${dir}/duck_${c}.parquet`;
  await con.run(`COPY (SELECT b, i, l, d, s, dt, ts::TIMESTAMP AS ts, dec9, dec18, dec38 FROM src)
                 TO '${f}' (FORMAT parquet, COMPRESSION ${c})`);
  const ours = execFileSync(driver, ['read', f], { maxBuffer: 1 << 28 }).toString().split('\n').filter((x) => x);
  compare(`lakestream reads duckdb ${c}`, ours, await duckLines(f));
}
fs.rmSync(dir, { recursive: true });
process.exit(failures ? 1 : 0);
