// Answers the differential test's queries with DuckDB. Reads a JSON file
// [{setup: [sql, ...], queries: [sql, ...]}, ...]; runs each group's setup in
// one fresh in-memory DuckDB, then each query, and prints
// [[{types: [name, ...], rows: [[v, ...], ...]} | {error: msg}, ...], ...].
// BIGINT/HUGEINT come as strings (exact), DOUBLE as JSON numbers (shortest
// round-trip text, so exact), DATE and other objects by their text.
// DuckDB comes from bench/node_modules (cd bench && npm install).
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';
import url from 'url';

const here = path.dirname(url.fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const paths = [path.join(here, '../../bench'), process.cwd() + '/bench', process.cwd()];
const duck = await import(require.resolve('@duckdb/node-api', { paths }));
const groups = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const plain = (v) => (v === null ? null : Object.is(v, -0) ? '-0' : typeof v === 'bigint' ? v.toString() : typeof v === 'object' ? String(v) : v);
const out = [];
for (const g of groups) {
  const inst = await duck.DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  // One thread: answers do not depend on it, and other jobs share the machine.
  await con.run('SET threads = 1');
  for (const s of g.setup) await con.run(s);
  const answers = [];
  for (const q of g.queries) {
    try {
      const r = await con.runAndReadAll(q);
      answers.push({ types: r.columnTypes().map((t) => t.toString()), rows: r.getRows().map((row) => row.map(plain)) });
    } catch (e) {
      answers.push({ error: e.message.split('\n')[0] });
    }
  }
  out.push(answers);
}
console.log(JSON.stringify(out));
