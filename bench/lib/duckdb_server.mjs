// The DuckDB side of a paired benchmark: the same line protocol as
// bench/lib/bench_server.hpp (run <label> <sql-file> | version | quit), over an
// in-memory DuckDB (@duckdb/node-api) with `SET threads = N` (default 1, or
// the BENCH_DUCKDB_THREADS environment variable). Same checksum function.
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { DuckDBInstance, version } from '@duckdb/node-api';

const MOD = 1000000007n;
const threads = process.env.BENCH_DUCKDB_THREADS || '1';

function canonical(value, type) {
  if (value === null || value === undefined) return 'NULL';
  const t = type.toString();
  if (t === 'DOUBLE' || t === 'FLOAT' || t.startsWith('DECIMAL')) {
    const x = typeof value === 'number' ? value : Number(value.toDouble ? value.toDouble() : value);
    return String(Math.round(x * 1000));
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

// The result as text for `run <label> <sql> <result-file>`: the form of
// WriteResult in bench/lib/bench_server.hpp (tabs, NULL, DOUBLE with 17
// significant digits, DECIMAL exactly).
function resultText(reader) {
  const types = reader.columnTypes().map((t) => t.toString());
  return reader.getRows().map((row) => row.map((value, col) => {
    if (value === null || value === undefined) return 'NULL';
    if (types[col] === 'DOUBLE' || types[col] === 'FLOAT') return Number(value).toPrecision(17);
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    return String(value);
  }).join('\t') + '\n').join('');
}

function checksum(reader) {
  const types = reader.columnTypes();
  const rows = reader.getRows();
  let total = 0n;
  for (const row of rows) {
    let h = 0;
    row.forEach((value, col) => {
      if (col > 0) h = (h * 31 + 124) % 1000000007;
      for (const c of Buffer.from(canonical(value, types[col]), 'utf8')) h = (h * 31 + c) % 1000000007;
    });
    total = (total + BigInt(h)) % MOD;
  }
  return `rows:${rows.length},hash:${total}`;
}

// Statements of a file: split at ';' that ends a line (our SQL files keep one
// statement per ';' line end and no ';' inside literals).
function statements(text) {
  return text.split(/;\s*(?:\n|$)/).map((s) => s.trim()).filter((s) => s.length > 0 && !/^(--[^\n]*\n?\s*)*$/.test(s));
}

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
await con.run(`SET threads = ${threads}`);
// BENCH_DUCKDB_MEMORY_LIMIT: the same memory_limit as lakestream's (bench/tpch/driver).
if (process.env.BENCH_DUCKDB_MEMORY_LIMIT) await con.run(`SET memory_limit = '${process.env.BENCH_DUCKDB_MEMORY_LIMIT}'`);

const out = (line) => process.stdout.write(line.replace(/[\r\n\t]/g, ' ') + '\n');
const rl = createInterface({ input: process.stdin, terminal: false });
for await (const line of rl) {
  const [cmd, label, path, resultPath] = line.trim().split(/\s+/);
  if (cmd === 'quit') break;
  if (cmd === 'version') { out(`ok DuckDB ${version()} (@duckdb/node-api, threads=${threads})`); continue; }
  if (cmd !== 'run') { out(`error unknown command: ${line}`); continue; }
  try {
    const stmts = statements(readFileSync(path, 'utf8'));
    const start = process.hrtime.bigint();
    let reader = null;
    for (const sql of stmts) reader = await con.runAndReadAll(sql);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (resultPath) writeFileSync(resultPath, reader ? resultText(reader) : '');
    out(`ok ${seconds} ${reader ? reader.currentRowCount : 0} ${reader ? checksum(reader) : 'rows:0,hash:0'}`);
  } catch (e) {
    out(`error ${label}: ${e.message}`);
  }
}
instance.closeSync?.();
process.exit(0);
