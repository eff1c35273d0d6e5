// Data of bench/ssb_clickbench, made in DuckDB (@duckdb/node-api) and written
// as Parquet that both systems then load:
//
//   node gen.mjs ssb <tpch-parquet-dir> <out-dir>   SSB tables from TPC-H (ssb.sql)
//   node gen.mjs hits <rows> <out-dir>              synthetic ClickBench hits (hits.sql)
//
// The SQL files hold the derivation; {{TPCH}}, {{ROWS}} and {{OUT}} are
// replaced here. Statements end with ';' at the end of a line.
import { readFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

const here = dirname(fileURLToPath(import.meta.url));
const [what, input, outArg] = process.argv.slice(2);
if (!['ssb', 'hits'].includes(what) || !input || !outArg) {
  console.error('usage: node gen.mjs ssb <tpch-parquet-dir> <out-dir> | hits <rows> <out-dir>');
  process.exit(2);
}
const out = resolve(outArg);
mkdirSync(out, { recursive: true });
let sql = readFileSync(join(here, `${what}.sql`), 'utf8')
  .replaceAll('{{OUT}}', out)
  .replaceAll('{{TPCH}}', what === 'ssb' ? resolve(input) : '')
  .replaceAll('{{ROWS}}', what === 'hits' ? String(parseInt(input, 10)) : '');
const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
await con.run(`SET threads = ${process.env.BENCH_GEN_THREADS || 2}`);
const start = Date.now();
for (const stmt of sql.split(/;\s*(?:\n|$)/).map((s) => s.replace(/^(\s*--[^\n]*\n)*/, '').trim()).filter((s) => s)) {
  await con.run(stmt);
}
console.error(`gen.mjs ${what}: ${out} in ${((Date.now() - start) / 1000).toFixed(1)} s`);
process.exit(0);
