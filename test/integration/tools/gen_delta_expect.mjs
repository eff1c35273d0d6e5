// THROWAWAY: computes expected results for test/sql/delta/shared_*.test from the
// Delta log and data files with DuckDB, independently of lakestream.
import { DuckDBInstance } from '@duckdb/node-api';
import { readdirSync, existsSync, writeFileSync } from 'node:fs';
const ROOT = '/work/shared/delta-tables';
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const q = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();
const esc = (s) => s.replace(/'/g, "''");

function fmt(v) {
  if (v === null || v === undefined) return 'NULL';
  if (v === '') return '(empty)';
  return String(v);
}
function letter(t) {
  if (typeof t !== 'string') return 'T';
  if (['integer', 'long', 'short', 'byte'].includes(t)) return 'I';
  if (t === 'double' || t === 'float' || t.startsWith('decimal')) return 'R';
  if (t === 'boolean') return 'B';
  return 'T';
}

async function tableInfo(name) {
  const dir = `${ROOT}/${name}`;
  const log = `${dir}/_delta_log`;
  // Actions per version from the JSON commits.
  const acts = await q(`SELECT regexp_extract(filename, '(\\d{20})\\.json$', 1)::BIGINT AS v, json::VARCHAR AS j
                        FROM read_ndjson_objects('${log}/*.json', filename=true) ORDER BY v`);
  const versions = new Map();
  for (const r of acts) {
    const v = Number(r.v);
    if (!versions.has(v)) versions.set(v, []);
    versions.get(v).push(JSON.parse(r.j));
  }
  // Checkpoint (for logs whose early JSON commits are gone).
  let ckpt = null;
  const minJson = Math.min(...versions.keys());
  if (minJson > 0) {
    const lc = await q(`SELECT version FROM read_json('${log}/_last_checkpoint')`);
    const cv = Number(lc[0].version);
    const rows = await q(`SELECT add.path AS path, map_keys(add.partitionValues) AS k, map_values(add.partitionValues) AS val, metaData.schemaString AS s,
                                 metaData.partitionColumns AS pc, metaData.configuration AS conf
                          FROM read_parquet('${log}/${String(cv).padStart(20, '0')}.checkpoint.parquet')`);
    const files = new Map();
    let meta = null;
    for (const r of rows) {
      if (r.path) {
        const pv = {};
        (r.k || []).forEach((k, i) => (pv[k] = r.val[i]));
        files.set(r.path, pv);
      }
      if (r.s) meta = { schemaString: r.s, partitionColumns: r.pc };
    }
    ckpt = { version: cv, files, meta };
  }
  return { dir, versions, ckpt };
}

async function readFile(dir, path, pv, cols, withChangeType) {
  const full = `${dir}/${decodeURIComponent(path)}`;
  if (!existsSync(full)) return null;
  const rows = await q(`SELECT COLUMNS(*)::VARCHAR FROM read_parquet('${esc(full)}')`);
  return rows.map((r) => {
    const out = cols.map((c) => (c.name in (pv || {}) && !(c.name in r) ? pv[c.name] : r[c.name]));
    if (withChangeType) out.push(r._change_type);
    return out;
  });
}

async function gen(name, cdfFrom) {
  const { dir, versions, ckpt } = await tableInfo(name);
  const tn = name.replace(/[-.]/g, '_');
  let schema = null;
  let files = new Map();
  let startV = 0;
  if (ckpt) { files = new Map(ckpt.files); schema = JSON.parse(ckpt.meta.schemaString); startV = ckpt.version; }
  const lines = [];
  const L = (s = '') => lines.push(s);
  L(`# name: test/sql/delta/shared_${tn}.test`);
  L(`# description: attach ../shared/delta-tables/${name} (Spark-written) and read every version; expected rows computed independently with DuckDB from the log and data files`);
  L(`# group: [delta]`);
  L();
  L(`load __TEST_DIR__/shared_${tn}.db`);
  L();
  L(`statement ok`);
  L(`CREATE TABLE ${tn} LOCATION '../shared/delta-tables/${name}'`);
  L();
  const maxV = Math.max(...versions.keys());
  const commitTs = new Map();
  const snapshots = [];
  for (let v = startV; v <= maxV; v++) {
    const actions = versions.get(v) || [];
    for (const a of actions) {
      if (a.metaData && a.metaData.schemaString) schema = JSON.parse(a.metaData.schemaString);
      if (a.commitInfo) commitTs.set(v, a.commitInfo.timestamp);
    }
    if (!(ckpt && v === ckpt.version)) {
      for (const a of actions) {
        if (a.add) files.set(a.add.path, a.add.partitionValues || {});
        if (a.remove) files.delete(a.remove.path);
      }
    }
    snapshots.push({ v, files: new Map(files), schema });
  }
  const cols = schema.fields.map((f) => ({ name: f.name, type: f.type }));
  const letters = cols.map((c) => letter(c.type)).join('');
  let latestRows = null;
  for (const s of snapshots) {
    if (!s.schema) {
      L(`# version ${s.v}: its metaData has no schemaString (the table has no schema yet), so reading it must fail clearly`);
      L(`statement error`); L(`SELECT * FROM ${tn} VERSION AS OF ${s.v}`); L(`----`); L(`no schema`); L();
      continue;
    }
    let rows = [];
    let missing = null;
    for (const [p, pv] of s.files) {
      const r = await readFile(dir, p, pv, cols, false);
      if (r === null) { missing = p; break; }
      rows.push(...r);
    }
    const latest = s.v === maxV;
    if (missing) {
      L(`# version ${s.v} lists ${s.files.size} files; ${missing} is not in the copy, so a scan must fail clearly`);
      L(`statement error`);
      L(`SELECT * FROM ${tn} VERSION AS OF ${s.v}`);
      L(`----`);
      L(`missing its data file`);
      L();
      // count(*) without WHERE answers from the log (numRecords) without
      // opening a file; one that must read the rows fails like the scan.
      if (latest) { L(`statement error`); L(`SELECT count(*) FROM ${tn} WHERE random() >= 0`); L(`----`); L(`missing its data file`); L(); }
      continue;
    }
    if (latest) {
      latestRows = rows;
      L(`query I`); L(`SELECT count(*) FROM ${tn}`); L(`----`); L(String(rows.length)); L();
      L(`query ${letters} rowsort`); L(`SELECT * FROM ${tn}`); L(`----`);
      for (const r of rows) L(r.map(fmt).join('\t'));
      L();
    }
    L(`# version ${s.v}: ${s.files.size} files, ${rows.length} rows`);
    L(`query ${letters} rowsort`); L(`SELECT * FROM ${tn} VERSION AS OF ${s.v}`); L(`----`);
    for (const r of rows) L(r.map(fmt).join('\t'));
    L();
  }
  if (startV > 0) {
    L(`# versions before ${startV} were cleaned up from the log`);
    L(`statement error`); L(`SELECT * FROM ${tn} VERSION AS OF ${startV - 1}`); L(`----`); L(`version ${startV - 1}`); L();
  }
  L(`statement error`); L(`SELECT * FROM ${tn} VERSION AS OF ${maxV + 1}`); L(`----`); L(`version ${maxV + 1}`); L();
  if (cdfFrom !== undefined) {
    const cdf = [];
    for (let v = cdfFrom; v <= maxV; v++) {
      const actions = versions.get(v) || [];
      const ts = (await q(`SELECT epoch_ms(${commitTs.get(v)}::BIGINT)::VARCHAR AS t`))[0].t;
      const cdcs = actions.filter((a) => a.cdc);
      if (cdcs.length > 0) {
        for (const a of cdcs) {
          for (const r of await readFile(dir, a.cdc.path, a.cdc.partitionValues, cols, true)) cdf.push([...r, String(v), ts]);
        }
      } else {
        for (const a of actions) {
          if (a.add && a.add.dataChange) for (const r of await readFile(dir, a.add.path, a.add.partitionValues, cols, false)) cdf.push([...r, 'insert', String(v), ts]);
          if (a.remove && a.remove.dataChange) for (const r of await readFile(dir, a.remove.path, a.remove.partitionValues, cols, false)) cdf.push([...r, 'delete', String(v), ts]);
        }
      }
    }
    L(`# change data feed from version ${cdfFrom} through ${maxV}, as the Delta protocol defines it: the cdc files of a version that has them, else its dataChange add files as inserts and remove files as deletes`);
    L(`query ${letters}TIT rowsort`); L(`SELECT * FROM table_changes('${tn}', ${cdfFrom})`); L(`----`);
    for (const r of cdf) L(r.map(fmt).join('\t'));
    L();
    L(`query ${letters}TIT rowsort`); L(`SELECT * FROM table_changes('${tn}', ${cdfFrom}, ${maxV})`); L(`----`);
    for (const r of cdf) L(r.map(fmt).join('\t'));
    L();
    // Each single version on its own.
    for (let v = cdfFrom; v <= maxV; v++) {
      L(`query I`); L(`SELECT count(*) FROM table_changes('${tn}', ${v}, ${v})`); L(`----`); L(String(cdf.filter((r) => r[cols.length + 1] === String(v)).length)); L();
    }
    if (cdfFrom > 0) {
      L(`# from the version after the checkpoint on`);
      L(`query ${letters}TIT rowsort`); L(`SELECT * FROM table_changes('${tn}', ${cdfFrom + 1})`); L(`----`);
      for (const r of cdf.filter((r) => Number(r[cols.length + 1]) > cdfFrom)) L(r.map(fmt).join('\t'));
      L();
      L(`# version ${cdfFrom - 1} and earlier are gone from the log`);
      L(`statement error`); L(`SELECT * FROM table_changes('${tn}', ${cdfFrom - 1})`); L(`----`); L(`version ${cdfFrom - 1}`); L();
    }
    L(`statement error`); L(`SELECT * FROM table_changes('${tn}', ${maxV + 1})`); L(`----`); L(`version ${maxV + 1}`); L();
  }
  writeFileSync(`/work/main/test/sql/delta/shared_${tn}.test`, lines.join('\n'));
  console.log(name, 'versions', startV, '..', maxV, 'latest rows', latestRows ? latestRows.length : 'n/a');
}

const cdfTables = { 'cdf-table': 0, 'cdf-table-non-partitioned': 0, 'checkpoint-cdf-table': 3, 'simple_table_with_cdc': 0 };
for (const name of readdirSync(ROOT).filter((n) => existsSync(`${ROOT}/${n}/_delta_log`)).sort()) {
  await gen(name, cdfTables[name]);
}
