// Writes v2_checkpoint_manifest.parquet: the JSON V2 checkpoint manifest of
// shared/delta-tables/checkpoint-v2-table at version 8 (checkpointMetadata,
// sidecar, protocol, metaData) in the Parquet form the protocol also allows,
// written by DuckDB, for delta_v2_checkpoint_test.cpp (no table on hand has a
// Parquet manifest).
//   node test/unit/data/make_v2_parquet_manifest.mjs /work/shared/delta-tables
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';
import url from 'url';

const here = path.dirname(url.fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const duck = await import(require.resolve('@duckdb/node-api', { paths: [path.join(here, '../../../bench')] }));
const log = path.join(process.argv[2], 'checkpoint-v2-table/_delta_log');
const manifest = fs.readdirSync(log).find((f) => /^0+8\.checkpoint\.[0-9a-f-]{36}\.json$/.test(f));
const actions = fs.readFileSync(path.join(log, manifest), 'utf8').split('\n').filter((l) => l).map((l) => JSON.parse(l));
const q = (s) => (s === null || s === undefined ? 'NULL' : `'${String(s).replaceAll("'", "''")}'`);
const list = (a) => `[${a.map(q).join(', ')}]::VARCHAR[]`;
const map = (o) => `MAP {${Object.entries(o).map(([k, v]) => `${q(k)}: ${q(v)}`).join(', ')}}::MAP(VARCHAR, VARCHAR)`;
const rows = actions.map((a) => {
  const cm = a.checkpointMetadata ? `{'version': ${a.checkpointMetadata.version}}` : 'NULL';
  const sc = a.sidecar ? `{'path': ${q(a.sidecar.path)}, 'sizeInBytes': ${a.sidecar.sizeInBytes}, 'modificationTime': ${a.sidecar.modificationTime}}` : 'NULL';
  const p = a.protocol;
  const pr = p ? `{'minReaderVersion': ${p.minReaderVersion}::INTEGER, 'minWriterVersion': ${p.minWriterVersion}::INTEGER, 'readerFeatures': ${list(p.readerFeatures)}, 'writerFeatures': ${list(p.writerFeatures)}}` : 'NULL';
  const m = a.metaData;
  const md = m ? `{'id': ${q(m.id)}, 'name': ${q(m.name)}, 'description': ${q(m.description)}, 'format': {'provider': ${q(m.format.provider)}, 'options': ${map(m.format.options)}}, 'schemaString': ${q(m.schemaString)}, 'partitionColumns': ${list(m.partitionColumns)}, 'configuration': ${map(m.configuration)}, 'createdTime': ${m.createdTime}::BIGINT}` : 'NULL';
  return `SELECT ${cm} AS checkpointMetadata, ${sc} AS sidecar, ${pr} AS protocol, ${md} AS metaData`;
});
const inst = await duck.DuckDBInstance.create(':memory:');
const con = await inst.connect();
const out = path.join(here, 'v2_checkpoint_manifest.parquet');
await con.run(`COPY (${rows.join(' UNION ALL ')}) TO '${out}' (FORMAT parquet)`);
console.log(`wrote ${out} (${actions.length} actions)`);
