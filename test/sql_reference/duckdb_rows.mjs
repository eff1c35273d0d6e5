// Runs each case of a JSON file [{setup: [sql, ...], query: sql}, ...] in a
// fresh in-memory DuckDB and prints [{rows: [[v, ...], ...]} | {error: msg}, ...]
// as JSON (BIGINT and DECIMAL values as strings). Used by generate.py.
// DuckDB comes from bench/node_modules (cd bench && npm install).
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';
import url from 'url';

const here = path.dirname(url.fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const paths = [path.join(here, '../../bench'), process.cwd() + '/bench', process.cwd()];
const duck = await import(require.resolve('@duckdb/node-api', { paths }));
const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = [];
const plain = (v) => (v === null ? null : typeof v === 'bigint' ? v.toString() : typeof v === 'object' ? String(v) : v);
for (const c of cases) {
  const inst = await duck.DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  try {
    for (const s of c.setup) await con.run(s);
    const r = await con.runAndReadAll(c.query);
    out.push({ rows: r.getRows().map((row) => row.map(plain)) });
  } catch (e) {
    out.push({ error: e.message.split('\n')[0] });
  }
}
console.log(JSON.stringify(out));
