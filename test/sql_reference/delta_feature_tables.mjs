// Expected rows of the feature tables in shared/delta-tables (deletion
// vectors, column mapping, in-commit timestamps), derived without lakestream:
// this script replays the JSON log itself (file identity = path + deletion
// vector), decodes deletion vectors itself (Z85 + RoaringBitmapArray, written
// here independently of src/storage/delta/deletion_vector.cpp), reads the
// Parquet files with DuckDB (file_row_number for the DV), maps physical column
// names to logical ones, and prints sqllogictest records for every version and
// for the change data feed.
//
//   node test/sql_reference/delta_feature_tables.mjs /work/shared/delta-tables/table-with-dv-small t [col,col...]
//
// The optional column list selects (and orders) the columns compared, for
// tables whose other columns hold text a record cannot (newlines) or floats.
//
// DuckDB comes from bench/node_modules (cd bench && npm install).
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';
import url from 'url';
import zlib from 'zlib';

const here = path.dirname(url.fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const duck = await import(require.resolve('@duckdb/node-api', { paths: [path.join(here, '../../bench'), process.cwd() + '/bench'] }));
const [tableDir, name] = [process.argv[2], process.argv[3] || 't'];
const only = process.argv[4] ? process.argv[4].split(',') : null;
// Columns of the list that exist at a version (a later commit may add them).
const selected = (fields) => (only ? only.map((n) => fields.find((f) => f.name === n)).filter((f) => f) : fields);
let selectList = '*';
const logDir = path.join(tableDir, '_delta_log');

const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
function z85(text) {
  const out = [];
  for (let i = 0; i < text.length; i += 5) {
    let v = 0;
    for (let k = 0; k < 5; k++) v = v * 85 + Z85.indexOf(text[i + k]);
    out.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
  }
  return Buffer.from(out);
}
function roaring(buf) {
  let p = 0;
  const u16 = () => { const v = buf.readUInt16LE(p); p += 2; return v; };
  const u32 = () => { const v = buf.readUInt32LE(p); p += 4; return v; };
  if (u32() !== 1681511377) throw new Error('magic');
  const n = Number(buf.readBigUInt64LE(p)); p += 8;
  const rows = [];
  for (let b = 0; b < n; b++) {
    const high = BigInt(u32()) << 32n;
    const cookie = u32();
    let count, runs = null;
    if ((cookie & 0xffff) === 12347) {
      count = (cookie >>> 16) + 1;
      runs = buf.subarray(p, p + Math.ceil(count / 8)); p += Math.ceil(count / 8);
    } else { count = u32(); }
    const keys = [], cards = [];
    for (let i = 0; i < count; i++) { keys.push(u16()); cards.push(u16() + 1); }
    if (!runs || count >= 4) p += 4 * count;
    for (let i = 0; i < count; i++) {
      const base = high + BigInt(keys[i] << 16);
      if (runs && (runs[i >> 3] >> (i & 7)) & 1) {
        const r = u16();
        for (let k = 0; k < r; k++) { const s = u16(), l = u16(); for (let v = s; v <= s + l; v++) rows.push(base + BigInt(v)); }
      } else if (cards[i] <= 4096) {
        for (let k = 0; k < cards[i]; k++) rows.push(base + BigInt(u16()));
      } else {
        for (let w = 0; w < 1024; w++) {
          const word = buf.readBigUInt64LE(p); p += 8;
          for (let bit = 0n; bit < 64n; bit++) if ((word >> bit) & 1n) rows.push(base + BigInt(w * 64) + bit);
        }
      }
    }
  }
  return rows.map(Number);
}
function dvRows(dv) {
  if (!dv) return new Set();
  let bytes;
  if (dv.storageType === 'i') bytes = z85(dv.pathOrInlineDv).subarray(0, dv.sizeInBytes);
  else {
    let file;
    if (dv.storageType === 'u') {
      const prefix = dv.pathOrInlineDv.slice(0, -20);
      const h = z85(dv.pathOrInlineDv.slice(-20)).toString('hex');
      const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      file = path.join(tableDir, prefix, `deletion_vector_${uuid}.bin`);
    } else file = decodeURIComponent(dv.pathOrInlineDv.replace(/^file:/, ''));
    const all = fs.readFileSync(file);
    const at = dv.offset ?? 1;
    const size = all.readUInt32BE(at);
    bytes = all.subarray(at + 4, at + 4 + size);
    if (zlib.crc32 && zlib.crc32(bytes) !== all.readUInt32BE(at + 4 + size)) throw new Error('crc');
  }
  const rows = roaring(bytes);
  if (rows.length !== dv.cardinality) throw new Error('cardinality');
  return new Set(rows);
}
const dvId = (dv) => (dv ? dv.storageType + dv.pathOrInlineDv + (dv.offset != null ? '@' + dv.offset : '') : '');

const inst = await duck.DuckDBInstance.create(':memory:');
const con = await inst.connect();
const fmt = (v) => (v === null ? 'NULL' : typeof v === 'bigint' ? v.toString() : String(v));

// Rows (arrays of text) of `file` under `metadata`, without the rows in `skip`
// (or only those in `only`), with the extra columns `extra` appended.
async function fileRows(file, metadata, { skip = new Set(), only = null, changeType = false } = {}) {
  const fields = selected(JSON.parse(metadata.schemaString).fields);
  const mapped = (metadata.configuration || {})['delta.columnMapping.mode'] && metadata.configuration['delta.columnMapping.mode'] !== 'none';
  const physical = (f) => (mapped && f.metadata['delta.columnMapping.physicalName']) || f.name;
  const r = await con.runAndReadAll(`SELECT * FROM read_parquet('${path.join(tableDir, file.path)}', file_row_number = true)`);
  const cols = r.columnNames();
  const out = [];
  for (const row of r.getRows()) {
    const idx = Number(row[cols.indexOf('file_row_number')]);
    if (only ? !only.has(idx) : skip.has(idx)) continue;
    const values = fields.map((f) => {
      if (metadata.partitionColumns.includes(f.name)) {
        const v = file.partitionValues[physical(f)];
        return v === null || v === undefined || v === '' ? 'NULL' : v;
      }
      const c = cols.indexOf(physical(f));
      return c < 0 ? 'NULL' : fmt(row[c]);
    });
    if (changeType) values.push(fmt(row[cols.indexOf('_change_type')]));
    out.push(values);
  }
  return out;
}

const versions = fs.readdirSync(logDir).filter((f) => /^\d{20}\.json$/.test(f)).map((f) => Number(f.slice(0, 20))).sort((a, b) => a - b);
let metadata = null;
const active = new Map();  // path -> add
const lines = [];
const commits = [];
let previous = null;
for (const v of versions) {
  const actions = fs.readFileSync(path.join(logDir, `${String(v).padStart(20, '0')}.json`), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  for (const a of actions) {
    if (a.metaData) metadata = a.metaData;
    if (a.remove && active.has(a.remove.path) && (!a.remove.deletionVector || dvId(a.remove.deletionVector) === dvId(active.get(a.remove.path).deletionVector))) active.delete(a.remove.path);
    if (a.add) active.set(a.add.path, a.add);
  }
  commits.push({ v, actions, metadata });
  const rows = [];
  let records = 0;
  for (const add of active.values()) {
    rows.push(...(await fileRows(add, metadata, { skip: dvRows(add.deletionVector) })));
    records += add.stats ? JSON.parse(add.stats).numRecords - (add.deletionVector ? add.deletionVector.cardinality : 0) : NaN;
  }
  const fields = selected(JSON.parse(metadata.schemaString).fields);
  if (only) selectList = fields.map((f) => `"${f.name}"`).join(', ');
  const types = fields.map((f) => (['integer', 'long', 'short', 'byte'].includes(f.type) ? 'I' : 'T')).join('');
  lines.push(`# version ${v}: ${active.size} files, ${rows.length} rows (numRecords minus DV cardinality: ${records})`);
  const text = rows.map((r) => r.join('\t')).sort();
  // A version whose rows equal the previous one's (a metadata change, an
  // OPTIMIZE) is checked by its count and a comparison with that version.
  if (previous && previous.select === selectList && previous.text.join('\n') === text.join('\n')) {
    lines.push('query I', `SELECT count(*) FROM (SELECT ${selectList} FROM ${name} VERSION AS OF ${v} EXCEPT SELECT ${selectList} FROM ${name} VERSION AS OF ${previous.v})`, '----', '0', '');
  } else {
    lines.push(`query ${types} rowsort`, `SELECT ${selectList} FROM ${name} VERSION AS OF ${v}`, '----', ...text, '');
  }
  previous = { v, text, select: selectList };
  lines.push('query I', `SELECT count(*) FROM ${name} VERSION AS OF ${v}`, '----', String(rows.length), '');
}

// Change data feed: cdc files when a commit has them; else removes are
// deletes and adds inserts, and a path both removed and added (a new DV) is
// a delete of the rows its new vector adds. The feed is read from the first
// version after which every commit's metadata has it enabled (a table that
// turned it on later has no feed before that).
const cdfOn = (m) => m && m.configuration && m.configuration['delta.enableChangeDataFeed'] === 'true';
const cdfFrom = commits.findLastIndex((c) => !cdfOn(c.metadata)) + 1;
if (cdfFrom < commits.length) {
  const feed = [];
  for (const { v, actions } of commits.slice(cdfFrom)) {
    const info = actions.find((a) => a.commitInfo)?.commitInfo || {};
    const ms = info.inCommitTimestamp ?? info.timestamp;
    const ts = new Date(ms).toISOString().replace('T', ' ').replace('Z', '').replace(/\.?0+$/, '');
    const meta = actions.find((a) => a.metaData)?.metaData || metadata;
    const add = (rows, type) => rows.forEach((r) => feed.push([...r, type ?? r.pop(), v, ts]));
    const cdc = actions.filter((a) => a.cdc).map((a) => a.cdc);
    if (cdc.length) {
      for (const c of cdc) {
        const rows = await fileRows(c, meta, { changeType: true });
        rows.forEach((r) => { const t = r.pop(); feed.push([...r, t, v, ts]); });
      }
      continue;
    }
    const adds = actions.filter((a) => a.add && a.add.dataChange).map((a) => a.add);
    const removes = actions.filter((a) => a.remove && a.remove.dataChange).map((a) => a.remove);
    for (const r of removes) {
      const a = adds.find((x) => x.path === r.path);
      if (a && (a.deletionVector || r.deletionVector)) {
        const before = dvRows(r.deletionVector), after = dvRows(a.deletionVector);
        add(await fileRows(a, meta, { only: new Set([...after].filter((x) => !before.has(x))) }), 'delete');
        add(await fileRows(a, meta, { only: new Set([...before].filter((x) => !after.has(x))) }), 'insert');
      } else add(await fileRows({ ...r, partitionValues: r.partitionValues || {} }, meta, { skip: dvRows(r.deletionVector) }), 'delete');
    }
    for (const a of adds) {
      if (removes.some((r) => r.path === a.path && (a.deletionVector || r.deletionVector))) continue;
      add(await fileRows(a, meta, { skip: dvRows(a.deletionVector) }), 'insert');
    }
  }
  const fields = selected(JSON.parse(metadata.schemaString).fields);
  const types = fields.map((f) => (['integer', 'long', 'short', 'byte'].includes(f.type) ? 'I' : 'T')).join('') + 'TIT';
  const first = commits[cdfFrom].v;
  lines.push(`# change data feed of versions ${first} to ${versions.at(-1)} (commit times from inCommitTimestamp where present)`);
  lines.push(`query ${types} rowsort`, `SELECT ${only ? selectList + ', _change_type, _commit_version, _commit_timestamp' : '*'} FROM table_changes('${name}', ${first})`, '----', ...feed.map((r) => r.join('\t')).sort(), '');
}
console.log(lines.join('\n'));
