// DuckDB reads the nested columns (STRUCT, ARRAY, MAP, NULLs at every level)
// of a Delta table lakestream wrote, and sees the values lakestream sees.
//   node test/parquet/nested_duckdb_interop.mjs path/to/lakestream
// Exit 77 (skip) when @duckdb/node-api or the shell is missing.
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
const shell = process.argv[2];
if (!shell || !fs.existsSync(shell)) {
  console.log(`SKIP: lakestream shell ${shell} not built`);
  process.exit(77);
}
const dir = fs.mkdtempSync(os.tmpdir() + '/ls_nested_');
const db = `${dir}/db`;
const run = (sql) => execFileSync(shell, ['-json', db, '-c', sql]).toString();
run(`CREATE TABLE ev (id INT, s STRUCT<a: INT, tags: ARRAY<STRING>>, m MAP<STRING, BIGINT>, arr ARRAY<STRUCT<k: STRING, v: DOUBLE>>)`);
run(`INSERT INTO ev SELECT 1, named_struct('a', 1, 'tags', array('x', NULL)), map('p', 10, 'q', NULL), array(named_struct('k', 'q', 'v', 1.5))`);
run(`INSERT INTO ev SELECT 2, NULL, NULL, array()`);
run(`INSERT INTO ev SELECT 3, named_struct('a', NULL, 'tags', NULL), map(), array(named_struct('k', NULL, 'v', NULL), NULL)`);
// Both sides print each row as JSON text, lakestream with to_json, DuckDB with to_json.
const ours = JSON.parse(run(`SELECT id, to_json(s) AS s, to_json(m) AS m, to_json(arr) AS arr FROM ev ORDER BY id`));
const inst = await duck.DuckDBInstance.create(':memory:');
const con = await inst.connect();
const r = await con.runAndReadAll(
  `SELECT id, to_json(s)::VARCHAR, to_json(m)::VARCHAR, to_json(arr)::VARCHAR FROM read_parquet('${db}/ev/*.parquet') ORDER BY id`);
const theirs = r.getRows();
let failures = 0;
const norm = (v) => (v === null || v === undefined ? null : JSON.stringify(JSON.parse(v)));
if (theirs.length !== ours.length) {
  console.log(`FAIL: lakestream has ${ours.length} rows, DuckDB read ${theirs.length}`);
  failures++;
}
for (let i = 0; i < Math.min(ours.length, theirs.length); i++) {
  const a = [ours[i].id, norm(ours[i].s), norm(ours[i].m), norm(ours[i].arr)];
  const b = [Number(theirs[i][0]), norm(theirs[i][1]), norm(theirs[i][2]), norm(theirs[i][3])];
  if (JSON.stringify(a) !== JSON.stringify(b)) {
    console.log(`FAIL row ${i}\n  lakestream: ${JSON.stringify(a)}\n  duckdb:     ${JSON.stringify(b)}`);
    failures++;
  }
}
fs.rmSync(dir, { recursive: true, force: true });
if (failures) process.exit(1);
console.log(`ok   duckdb reads ${ours.length} rows of nested columns as lakestream wrote them`);
