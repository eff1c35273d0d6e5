// One DuckDB process for bench/write_memory: runs the statements of a SQL
// file (one per ';' line end) against DATABASE (':memory:' or a file) with
// `SET threads = N` (BENCH_DUCKDB_THREADS, default 1), and prints
// "<seconds of the last statement> <first column of its first row>".
// Peak memory is measured around the whole process by the driver.
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [database, file] = process.argv.slice(2);
const instance = await DuckDBInstance.create(database);
const con = await instance.connect();
await con.run(`SET threads = ${process.env.BENCH_DUCKDB_THREADS || '1'}`);
const statements = readFileSync(file, 'utf8').split(/;\s*(?:\n|$)/).map((s) => s.trim()).filter((s) => s.length > 0);
let seconds = 0;
let answer = '';
for (const sql of statements) {
  const start = process.hrtime.bigint();
  const reader = await con.runAndReadAll(sql);
  seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const rows = reader.getRows();
  answer = rows.length > 0 ? rows[0].map((v) => String(v)).join('|') : '';
}
process.stdout.write(`${seconds} ${answer}\n`);
process.exit(0);
