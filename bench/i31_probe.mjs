import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'fs';
const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
const qs = fs.readFileSync(process.argv[2], 'utf8').split('\n;\n').map(s => s.trim()).filter(s => s);
for (const q of qs) {
  try {
    const r = await c.runAndReadAll(q);
    const types = r.columnTypes().map(t => t.toString());
    console.log('Q: ' + q.replace(/\n/g, ' '));
    console.log('T: ' + types.join(', '));
    for (const row of r.getRowsJS()) console.log('R: ' + row.map(v => v === null ? 'NULL' : (typeof v === 'object' ? JSON.stringify(v, (k, x) => typeof x === 'bigint' ? x.toString() : x) : String(v))).join('\t'));
  } catch (e) { console.log('Q: ' + q.replace(/\n/g, ' ')); console.log('E: ' + e.message.split('\n')[0]); }
}
