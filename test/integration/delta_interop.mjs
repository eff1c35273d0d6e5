// DuckDB reads what lakestream writes. Builds a Delta table with the lakestream
// shell (partitioned, change data feed on, INSERT/UPDATE/DELETE/MERGE, more
// than 10 commits so a checkpoint is written), then DuckDB (@duckdb/node-api):
//  * replays the _delta_log JSON commits (read_ndjson_objects) to the latest
//    snapshot's add files, reads those Parquet files (with partition values
//    from the add actions) and must get exactly the rows of our SELECT;
//  * reads the Parquet checkpoint and finds the same add files as the JSON
//    replay at that version;
//  * derives the change data feed the way the Delta protocol defines it (cdc
//    files where a version has them, else dataChange add/remove files) and must
//    get exactly the rows of our table_changes(t, 0).
// Usage: node delta_interop.mjs <lakestream binary>
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// @duckdb/node-api is installed under bench/ (bench/package.json).
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let DuckDBInstance;
try {
  const resolved = createRequire(join(repo, 'bench', 'package.json')).resolve('@duckdb/node-api');
  ({ DuckDBInstance } = await import(pathToFileURL(resolved).href));
} catch (e) {
  console.log('SKIP: @duckdb/node-api is not installed under bench/ (' + e.message + ')');
  process.exit(77);
}

const bin = process.argv[2];
if (!bin) { console.error('usage: node delta_interop.mjs <lakestream>'); process.exit(2); }
const db = mkdtempSync(join(tmpdir(), 'lakestream_interop_'));
let failures = 0;
const fail = (msg) => { failures++; console.error('FAIL: ' + msg); };

function ls(...sqls) {
  const args = [db, '-json'];
  for (const s of sqls) args.push('-c', s);
  return execFileSync(bin, args, { encoding: 'utf8', timeout: 60000 });
}
function lsRows(sql) {
  const out = ls(sql).trim();
  return out === '' || out === '[]' ? [] : JSON.parse(out);
}

const COLS = [
  ['id', 'INTEGER', 'integer'], ['big', 'BIGINT', 'long'], ['name', 'VARCHAR', 'string'],
  ['amount', 'DECIMAL(10,2)', 'decimal(10,2)'], ['score', 'DOUBLE', 'double'], ['flag', 'BOOLEAN', 'boolean'],
  ['ts', 'TIMESTAMP', 'timestamp'], ['day', 'DATE', 'date'], ['region', 'VARCHAR', 'string'],
];
const ODD = ` o''q,"x`;
const colNames = COLS.map((c) => c[0]);
const asVarchar = (prefix = '') => COLS.map(([n, t]) => `CAST(${prefix}${n} AS VARCHAR) AS ${n}`).join(', ');

try {
  // ---- build the table with lakestream ----
  ls(`CREATE TABLE t (${COLS.map(([n, t]) => `${n} ${t}`).join(', ')}) PARTITIONED BY (region) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')`);
  const regions = ['eu', 'us', 'apac', null];
  const stmts = [];
  let id = 0;
  for (let batch = 0; batch < 6; batch++) {
    const vals = [];
    for (let i = 0; i < 40; i++, id++) {
      const r = regions[id % 4];
      const nul = id % 13 === 0;
      vals.push(`(${id}, ${nul ? 'NULL' : BigInt(id) * 10000000007n}, ${nul ? 'NULL' : `'n${id}${id % 7 === 0 ? ODD : ''}'`}, ` +
        `${nul ? 'NULL' : (id * 1.25).toFixed(2)}, ${nul ? 'NULL' : id / 8}, ${nul ? 'NULL' : id % 2 === 0}, ` +
        `${nul ? 'NULL' : `TIMESTAMP '2024-0${1 + (id % 9)}-1${id % 10} 0${id % 10}:1${id % 6}:2${id % 10}.${String(id % 1000).padStart(3, '0')}'`}, ` +
        `${nul ? 'NULL' : `DATE '202${id % 5}-0${1 + (id % 9)}-2${id % 8}'`}, ${r === null ? 'NULL' : `'${r}'`})`);
    }
    stmts.push(`INSERT INTO t VALUES ${vals.join(', ')}`);
  }
  stmts.push(`UPDATE t SET amount = amount + 1, name = name || '_u' WHERE id % 5 = 0`);
  stmts.push(`DELETE FROM t WHERE id % 11 = 3`);
  stmts.push(`CREATE TABLE s (id INT, name VARCHAR, op VARCHAR)`);
  stmts.push(`INSERT INTO s SELECT id, 'm' || CAST(id AS VARCHAR), CASE WHEN id % 3 = 0 THEN 'D' ELSE 'U' END FROM t WHERE id % 4 = 1`);
  stmts.push(`INSERT INTO s VALUES (1000, 'new1', 'I'), (1001, 'new2', 'I')`);
  stmts.push(`MERGE INTO t USING s ON t.id = s.id WHEN MATCHED AND s.op = 'D' THEN DELETE WHEN MATCHED THEN UPDATE SET name = s.name WHEN NOT MATCHED THEN INSERT (id, name, region) VALUES (s.id, s.name, 'eu')`);
  stmts.push(`UPDATE t SET region = 'moved' WHERE id % 10 = 2`);
  stmts.push(`DELETE FROM t WHERE region IS NULL AND id > 150`);
  stmts.push(`INSERT INTO t (id, name) VALUES (2001, 'z'), (2000, '')`); // ('' as the first value of a file crashes the Parquet writer: reported)
  stmts.push(`UPDATE t SET score = -score WHERE id < 30`);
  for (const s of stmts) ls(s);

  const tdir = join(db, 't');
  const log = join(tdir, '_delta_log');
  const duck = await DuckDBInstance.create(':memory:');
  const con = await duck.connect();
  await con.run(`SET TimeZone = 'UTC'`);
  const q = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();
  const esc = (s) => s.replace(/'/g, "''");

  // ---- the log, read by DuckDB ----
  const acts = await q(`SELECT regexp_extract(filename, '(\\d{20})\\.json$', 1)::BIGINT AS v, json::VARCHAR AS j
                        FROM read_ndjson_objects('${log}/*.json', filename = true)`);
  const versions = new Map();
  for (const r of acts) {
    const v = Number(r.v);
    if (!versions.has(v)) versions.set(v, []);
    versions.get(v).push(JSON.parse(r.j));
  }
  const maxV = Math.max(...versions.keys());
  if (maxV !== stmts.filter((s) => !/^(CREATE TABLE s |INSERT INTO s )/.test(s)).length) fail(`latest version ${maxV}, expected one commit per statement on t`);

  // Parquet types as DuckDB sees them must be what the Delta schema says.
  let schema = null;
  for (const a of versions.get(0)) if (a.metaData) schema = JSON.parse(a.metaData.schemaString);
  const deltaTypes = Object.fromEntries(schema.fields.map((f) => [f.name, f.type]));
  for (const [n, , dt] of COLS) if (deltaTypes[n] !== dt) fail(`schemaString type of ${n} is ${deltaTypes[n]}, expected ${dt}`);

  async function readFile(path, pv, extra = []) {
    const full = join(tdir, decodeURIComponent(path));
    if (!existsSync(full)) { fail(`file listed in the log is missing: ${path}`); return []; }
    const types = await q(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${esc(full)}', hive_partitioning = false))`);
    const inFile = new Map(types.map((r) => [r.column_name, r.column_type]));
    const want = { id: 'INTEGER', big: 'BIGINT', name: 'VARCHAR', amount: 'DECIMAL(10,2)', score: 'DOUBLE', flag: 'BOOLEAN', ts: 'TIMESTAMP', day: 'DATE' };
    for (const [n, t] of Object.entries(want)) {
      const got = inFile.get(n);
      if (got === undefined) fail(`${path}: column ${n} missing from the Parquet file`);
      else if (got !== t && !(t === 'TIMESTAMP' && got === 'TIMESTAMP WITH TIME ZONE')) fail(`${path}: column ${n} is ${got} in Parquet, expected ${t}`);
    }
    if (inFile.has('region')) fail(`${path}: partition column region is stored in the data file`);
    const sel = COLS.map(([n, t]) => n === 'region'
      ? (pv.region === null || pv.region === undefined ? 'NULL::VARCHAR AS region' : `'${esc(pv.region)}' AS region`)
      : `CAST(CAST(${n} AS ${t}) AS VARCHAR) AS ${n}`).concat(extra).join(', ');
    return q(`SELECT ${sel} FROM read_parquet('${esc(full)}', hive_partitioning = false)`);
  }
  const key = (r, cols) => JSON.stringify(cols.map((c) => (r[c] === undefined ? null : r[c])));
  function compare(what, ours, theirs, cols) {
    const a = ours.map((r) => key(r, cols)).sort();
    const b = theirs.map((r) => key(r, cols)).sort();
    if (a.length !== b.length) fail(`${what}: lakestream ${a.length} rows, DuckDB ${b.length} rows`);
    let shown = 0;
    for (let i = 0; i < Math.max(a.length, b.length) && shown < 5; i++) {
      if (a[i] !== b[i]) { fail(`${what}: row ${i}: lakestream ${a[i]} vs DuckDB ${b[i]}`); shown++; }
    }
    console.log(`${what}: ${a.length} rows compared`);
  }

  // ---- latest snapshot ----
  const snapAt = new Map();
  let files = new Map();
  for (let v = 0; v <= maxV; v++) {
    for (const a of versions.get(v) || []) {
      if (a.add) files.set(a.add.path, a.add.partitionValues || {});
      if (a.remove) files.delete(a.remove.path);
    }
    snapAt.set(v, new Map(files));
  }
  const theirs = [];
  for (const [p, pv] of files) theirs.push(...(await readFile(p, pv)));
  const ours = lsRows(`SELECT ${asVarchar()} FROM t`);
  compare(`latest snapshot (version ${maxV}, ${files.size} files)`, ours, theirs, colNames);
  // an older version too
  const mid = Math.floor(maxV / 2);
  const theirsMid = [];
  for (const [p, pv] of snapAt.get(mid)) theirsMid.push(...(await readFile(p, pv)));
  compare(`version ${mid}`, lsRows(`SELECT ${asVarchar()} FROM t VERSION AS OF ${mid}`), theirsMid, colNames);

  // ---- checkpoint ----
  const ckpts = await q(`SELECT file FROM glob('${log}/*.checkpoint.parquet')`);
  if (maxV >= 10 && ckpts.length === 0) fail(`no checkpoint written after ${maxV} commits`);
  for (const { file } of ckpts) {
    const cv = Number(file.match(/(\d{20})\.checkpoint\.parquet$/)[1]);
    const rows = await q(`SELECT add.path AS path FROM read_parquet('${esc(file)}') WHERE add IS NOT NULL`);
    const a = rows.map((r) => r.path).sort();
    const b = [...snapAt.get(cv).keys()].sort();
    if (JSON.stringify(a) !== JSON.stringify(b)) fail(`checkpoint ${cv}: add files differ from the JSON replay (${a.length} vs ${b.length})`);
    else console.log(`checkpoint ${cv}: ${a.length} add files, same as the JSON replay`);
    const proto = await q(`SELECT protocol.minReaderVersion AS r, protocol.minWriterVersion AS w FROM read_parquet('${esc(file)}') WHERE protocol IS NOT NULL`);
    if (proto.length !== 1 || proto[0].r !== 1 || proto[0].w !== 4) fail(`checkpoint ${cv}: protocol ${JSON.stringify(proto)}, expected reader 1 writer 4 (change data feed on)`);
  }
  const lc = join(log, '_last_checkpoint');
  if (ckpts.length > 0 && !existsSync(lc)) fail('_last_checkpoint missing');

  // ---- change data feed ----
  const cdf = [];
  for (let v = 0; v <= maxV; v++) {
    const actions = versions.get(v) || [];
    const cdcs = actions.filter((a) => a.cdc);
    if (cdcs.length > 0) {
      for (const a of cdcs) for (const r of await readFile(a.cdc.path, a.cdc.partitionValues || {}, ['_change_type'])) cdf.push({ ...r, _commit_version: String(v) });
    } else {
      for (const a of actions) {
        if (a.add && a.add.dataChange) for (const r of await readFile(a.add.path, a.add.partitionValues || {})) cdf.push({ ...r, _change_type: 'insert', _commit_version: String(v) });
        if (a.remove && a.remove.dataChange) for (const r of await readFile(a.remove.path, a.remove.partitionValues || {})) cdf.push({ ...r, _change_type: 'delete', _commit_version: String(v) });
      }
    }
  }
  const oursCdf = lsRows(`SELECT ${asVarchar()}, _change_type, CAST(_commit_version AS VARCHAR) AS _commit_version FROM table_changes('t', 0)`);
  compare('table_changes(t, 0)', oursCdf, cdf, [...colNames, '_change_type', '_commit_version']);
} catch (e) {
  fail(String(e && e.stack ? e.stack : e));
} finally {
  rmSync(db, { recursive: true, force: true });
}
if (failures > 0) { console.error(`${failures} failure(s)`); process.exit(1); }
console.log('delta_interop: OK');
