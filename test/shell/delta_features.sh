#!/usr/bin/env bash
# Shell tests: Delta tables with the features Databricks writes (deletion
# vectors, column mapping, V2 checkpoints, domain metadata), copied from
# shared/delta-tables into a scratch directory and edited by hand: a
# deletion-vector-only DELETE in the change feed, writes refused by feature
# name without a commit, a damaged deletion vector or a missing sidecar
# reported with the file, and an unknown reader feature refused by name.
# Usage: delta_features.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
# ctest passes LAKESTREAM_SHARED_DIR (test/CMakeLists.txt); by hand it is
# the shared directory beside the repository.
SHARED=${LAKESTREAM_SHARED_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}/delta-tables
[[ -d $SHARED ]] || { echo "no Delta test tables at $SHARED: set LAKESTREAM_SHARED_DIR"; exit 1; }

# copy TABLE: a writable copy at $T, attached as t in the database $DB.
copy() {
  T=$TMP/$1
  cp -r "$SHARED/$1" "$T"
  DB=$TMP/db_$1
}
sql() { run "$BIN" -csv "$DB" -c "CREATE TABLE IF NOT EXISTS t LOCATION '$T'; $1"; }

# --- a DELETE that only wrote a deletion vector is a delete of those rows ---
copy table-with-dv-small
sed -i 's/"configuration":{/"configuration":{"delta.enableChangeDataFeed":"true",/' "$T/_delta_log/00000000000000000000.json"
sql "SELECT value, _change_type, _commit_version FROM table_changes('t', 1) ORDER BY value"
expect "DV-only delete in the change feed" 0 $'value,_change_type,_commit_version\n0,delete,1\n9,delete,1\n'
sql "SELECT count(*) AS n, sum(value) AS s FROM table_changes('t', 0, 0)"
expect "version 0 inserts all ten rows" 0 $'n,s\n10,45\n'
sql "SELECT count(*) AS n, min(value) AS lo, max(value) AS hi FROM t"
expect "scan skips the deleted rows" 0 $'n,lo,hi\n8,1,8\n'
sql "SELECT count(*) AS n FROM t"
expect "count(*) from statistics subtracts the cardinality" 0 $'n\n8\n'

# --- writes to a table with deletion vectors: files with a DV are rewritten
# without the deleted rows (copy-on-write), and the remove names the DV ---
sql "INSERT INTO t VALUES (42); DELETE FROM t WHERE value = 3; SELECT count(*) AS n, sum(value) AS s FROM t"
expect "insert and delete on a deletion-vector table" 0 $'num_affected_rows\n1\nnum_affected_rows\n1\nn,s\n8,75\n'
dv_of_add=$(python3 -c "import json,sys; [print(json.dumps(a['add']['deletionVector'],sort_keys=True)) for f in sys.argv[1:] for a in map(json.loads,open(f)) if 'add' in a and a['add'].get('deletionVector')]" "$T"/_delta_log/0000000000000000000[01].json | tail -1)
dv_of_remove=$(python3 -c "import json,sys; [print(json.dumps(a['remove'].get('deletionVector'),sort_keys=True)) for a in map(json.loads,open(sys.argv[1])) if 'remove' in a]" "$T/_delta_log/00000000000000000003.json")
[[ -n $dv_of_add && "$dv_of_remove" == "$dv_of_add" ]] && pass "the remove carries the removed file's deletion vector" ||
  fail "the remove carries the removed file's deletion vector" "add: $dv_of_add" "remove: $dv_of_remove"

# A column mapping mode on a table whose protocol lacks the feature (reader
# 1): other readers would ignore the mapping, so it is not written.
copy table_with_column_mapping
sed -i 's/"minReaderVersion":2,"minWriterVersion":5/"minReaderVersion":1,"minWriterVersion":2/' "$T/_delta_log/00000000000000000000.json"
sql "INSERT INTO t VALUES ('X', 'Y')"
expect_err "column mapping without its protocol: write refused" 1 "columnMapping"

# --- a damaged deletion vector: Corruption naming the data file and the vector file ---
copy table_with_deletion_logs
for dv in "$T"/deletion_vector_*.bin; do printf 'garbage' | dd of="$dv" bs=1 seek=10 conv=notrunc status=none; done
sql "SELECT count(id) FROM t"
expect_err "damaged deletion vector" 1 "Corruption Error" "deletion vector of" "$T/deletion_vector_" "part-00000-"
rm "$T"/deletion_vector_*.bin
sql "SELECT count(id) FROM t"
expect_err "missing deletion vector file" 1 "$T/deletion_vector_"

# --- V2 checkpoint alone (the JSON commits before it removed): read from its
# manifest and sidecar; with the sidecar gone, the error names it ---
copy checkpoint-v2-table
sidecar=$(ls "$T"/_delta_log/_sidecars/00000000000000000008.*)
rm "$T"/_delta_log/0000000000000000000[0-7].json
sql "SELECT count(*) AS n, count(DISTINCT id) AS ids FROM t"
expect "V2 checkpoint read (44 rows: test/sql/delta/shared/checkpoint_v2_table.test)" 0 $'n,ids\n44,44\n'
rm "$sidecar"
sql "SELECT count(*) FROM t"
expect_err "missing sidecar" 1 "$sidecar"

# --- unknown reader feature refused by name ---
DB=$TMP/db_features
run "$BIN" -csv "$DB" -c "CREATE TABLE t LOCATION '$SHARED/simple_table_features'"
expect_err "unknown reader feature" 1 "reader feature 'blahabl'" "simple_table_features"

# --- only a checkpoint (version 108) with domainMetadata: attaches; its data files were not copied,
# so COUNT(*) answers from the log (as Spark does) and reading a column names the missing file ---
DB=$TMP/db_domain
run "$BIN" -csv "$DB" -c "CREATE TABLE t LOCATION '$SHARED/table-with-domain-metadata'; SELECT count(*) FROM t; SELECT count(id) FROM t"
expect_err "checkpoint-only table attaches, missing data named" 1 "version 108" "part-00000-"

# --- type widening: a table whose DATE column became TIMESTAMP_NTZ and INT
# column BIGINT (a commit written here by hand as Spark writes it) reads the
# older file's values widened ---
DB=$TMP/db_widen
run "$BIN" "$DB" -c "CREATE TABLE w (d DATE, k INT); INSERT INTO w VALUES (DATE '2024-01-15', 7)"
[[ $RC == 0 ]] || fail "widening setup" "$ERR"
LOG=$DB/w/_delta_log
python3 - "$LOG" <<'PY'
import json, sys, os
log = sys.argv[1]
meta = None
for name in sorted(os.listdir(log)):
    if name.endswith('.json'):
        for line in open(os.path.join(log, name)):
            a = json.loads(line)
            if 'metaData' in a: meta = a['metaData']
latest = max(int(n[:20]) for n in os.listdir(log) if n.endswith('.json'))
schema = json.loads(meta['schemaString'])
for f in schema['fields']:
    if f['name'] == 'd': f['type'] = 'timestamp_ntz'; f['metadata'] = {'delta.typeChanges': [{'fromType': 'date', 'toType': 'timestamp_ntz'}]}
    if f['name'] == 'k': f['type'] = 'long'; f['metadata'] = {'delta.typeChanges': [{'fromType': 'integer', 'toType': 'long'}]}
meta['schemaString'] = json.dumps(schema)
meta['configuration']['delta.enableTypeWidening'] = 'true'
actions = [{'commitInfo': {'timestamp': 1700000000000, 'operation': 'CHANGE COLUMN'}},
           {'protocol': {'minReaderVersion': 3, 'minWriterVersion': 7, 'readerFeatures': ['timestampNtz', 'typeWidening'],
                         'writerFeatures': ['timestampNtz', 'typeWidening']}},
           {'metaData': meta}]
with open(os.path.join(log, '%020d.json' % (latest + 1)), 'w') as out:
    out.write('\n'.join(json.dumps(a) for a in actions) + '\n')
PY
run "$BIN" -csv "$DB" -c "SELECT d, k, typeof(d) AS td, typeof(k) AS tk FROM w"
expect "type widening read" 0 $'d,k,td,tk\n2024-01-15 00:00:00,7,TIMESTAMP_NTZ,BIGINT\n'
run "$BIN" -csv "$DB" -c "INSERT INTO w VALUES (TIMESTAMP_NTZ '2024-02-01 10:00:00', 8000000000); SELECT d, k FROM w ORDER BY k"
expect "type widening table written in its wide types" 0 $'num_affected_rows\n1\nd,k\n2024-01-15 00:00:00,7\n2024-02-01 10:00:00,8000000000\n'
run "$BIN" -csv "$DB" -c "ALTER TABLE w ALTER COLUMN k TYPE DECIMAL(25,0); SELECT max(typeof(k)) AS t, sum(k) AS s FROM w"
expect "a second widening of the Spark-widened column" 0 $'t,s\n"DECIMAL(25,0)",8000000007\n'

# --- vacuumProtocolCheck: VACUUM follows the write protocol; a table whose
# writer features we lack is not vacuumed (a dry run still lists) ---
copy table-with-dv-small
python3 - "$T/_delta_log/00000000000000000000.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for a in lines:
    if 'protocol' in a:
        a['protocol']['readerFeatures'].append('vacuumProtocolCheck')
        a['protocol']['writerFeatures'].extend(['vacuumProtocolCheck', 'icebergCompatV1'])
open(sys.argv[1], 'w').write(''.join(json.dumps(a) + '\n' for a in lines))
PY
# An orphan as a lakestream writer that died before its commit leaves it.
ORPHAN=part-00000-0d4c2c8e-6a4b-4c1e-9f1a-2b3c4d5e6f70.c000.zstd.parquet
touch -d '2020-01-01' "$T/$ORPHAN"
sql "SET spark.databricks.delta.retentionDurationCheck.enabled = false; VACUUM t RETAIN 0 HOURS"
expect_err "vacuum refused under vacuumProtocolCheck" 1 "vacuumProtocolCheck" "icebergCompatV1"
[[ -f "$T/$ORPHAN" ]] && pass "nothing vacuumed" || fail "nothing vacuumed" "$ORPHAN was deleted"
sql "SET spark.databricks.delta.retentionDurationCheck.enabled = false; VACUUM t RETAIN 0 HOURS DRY RUN"
[[ $RC == 0 && "$OUT" == *$ORPHAN* ]] && pass "dry run lists the orphan" || fail "dry run lists the orphan" "$RC $OUT $ERR"
# Deletion vectors alone are a feature lakestream writes: VACUUM runs, and
# the deletion vector files the table uses are kept.
rm -rf "$TMP/table-with-dv-small" "$TMP/db_table-with-dv-small"
copy table-with-dv-small
python3 - "$T/_delta_log/00000000000000000000.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for a in lines:
    if 'protocol' in a:
        a['protocol']['readerFeatures'].append('vacuumProtocolCheck')
        a['protocol']['writerFeatures'].append('vacuumProtocolCheck')
open(sys.argv[1], 'w').write(''.join(json.dumps(a) + '\n' for a in lines))
PY
# orphan.parquet is no file the table wrote or named: VACUUM leaves it.
touch -d '2020-01-01' "$T/$ORPHAN" "$T/orphan.parquet" "$T"/*.bin
sql "SET spark.databricks.delta.retentionDurationCheck.enabled = false; VACUUM t RETAIN 0 HOURS; SELECT count(*) AS n, sum(value) AS s FROM t"
[[ $RC == 0 && ! -f "$T/$ORPHAN" && -f "$T/orphan.parquet" && "$OUT" == *$'n,s\n8,36'* ]] && ls "$T"/*.bin >/dev/null 2>&1 &&
  pass "vacuum of a deletion-vector table keeps its deletion vectors" ||
  fail "vacuum of a deletion-vector table keeps its deletion vectors" "$RC $OUT $ERR" "$(ls "$T")"
# Once the file that used it gets a new vector (the table sets
# delta.enableDeletionVectors, so DELETE re-adds the file with the union of
# both deletes in a new vector file), the old vector file is unreferenced:
# VACUUM deletes it after the retention, as Delta does, and keeps the new one.
sql "DELETE FROM t WHERE value = 1; SET spark.databricks.delta.retentionDurationCheck.enabled = false; VACUUM t RETAIN 0 HOURS DRY RUN"
[[ $RC == 0 && "$OUT" == *deletion_vector_*.bin* ]] && pass "dry run lists the unreferenced deletion vector file" ||
  fail "dry run lists the unreferenced deletion vector file" "$RC $OUT $ERR"
sql "SET spark.databricks.delta.retentionDurationCheck.enabled = false; VACUUM t RETAIN 0 HOURS; SELECT count(*) AS n, sum(value) AS s FROM t"
[[ $RC == 0 && "$OUT" == *$'n,s\n7,35'* && ! -f "$T/deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin" &&
   $(ls "$T"/deletion_vector_*.bin | wc -l) == 1 ]] &&
  pass "vacuum deletes a deletion vector file no live file uses" ||
  fail "vacuum deletes a deletion vector file no live file uses" "$RC $OUT $ERR" "$(ls "$T")"

# --- struct statistics (add.stats_parsed) where the checkpoint has no JSON
# stats (delta.checkpoint.writeStatsAsJson = false): COUNT(*) and data
# skipping use them. Every data file but the one holding integer = 3 is
# overwritten with garbage of the same size, so a file that is not skipped
# fails the query. Timestamps in the stats are truncated to milliseconds. ---
copy delta-1.2.1-only-struct-stats
KEEP=part-00000-1c2d1a32-02dc-484f-87ff-4328ea56045d-c000.snappy.parquet
for f in "$T"/*.parquet; do
  size=$(stat -c %s "$f")
  [[ $(basename "$f") == "$KEEP" ]] || head -c "$size" /dev/zero | tr '\0' 'x' >"$f"
done
sql "SELECT count(*) AS n FROM t"
expect "count(*) from struct statistics" 0 $'n\n12\n'
sql "SELECT \"integer\" FROM t WHERE \"integer\" = 3"
expect "an integer filter skips by struct statistics" 0 $'integer\n3\n'
sql "SELECT \"integer\" FROM t WHERE \"timestamp\" = TIMESTAMP '2022-10-24 22:59:36.177007'"
expect "a timestamp filter skips by millisecond struct statistics" 0 $'integer\n3\n'
sql "SELECT \"integer\" FROM t WHERE \"integer\" >= 3 AND \"integer\" <= 3 AND \"decimal\" = -5.678 AND \"date\" = DATE '2022-10-24'
     AND string = 'string' AND \"double\" = 1.234"
expect "decimal, date, string and double bounds keep the matching file" 0 $'integer\n3\n'
sql "SELECT count(*) AS n FROM t WHERE \"integer\" >= 0"
[[ $RC != 0 ]] && pass "a file that is not skipped is read (the garbage is seen)" ||
  fail "a file that is not skipped is read (the garbage is seen)" "$RC $OUT"

# --- a deletion vector over several scan chunks (5000 rows, chunks of 2048),
# on a partitioned table: written here by hand (Z85 UUID path, Roaring array
# container, size prefix and CRC-32) as Databricks does; k is the row index ---
DB=$TMP/db_bigdv
run "$BIN" "$DB" -c "CREATE TABLE big (p INT, k INT) PARTITIONED BY (p); INSERT INTO big SELECT 1, i FROM range(5000) AS t(i)"
[[ $RC == 0 ]] || fail "big dv setup" "$ERR"
python3 - "$DB/big" <<'PY'
import json, os, struct, sys, uuid, zlib
table = sys.argv[1]
log = os.path.join(table, '_delta_log')
latest = max(int(n[:20]) for n in os.listdir(log) if n.endswith('.json'))
add = None
for n in sorted(os.listdir(log)):
    if n.endswith('.json'):
        for line in open(os.path.join(log, n)):
            a = json.loads(line)
            if 'add' in a: add = a['add']
deleted = sorted(set(range(0, 5000, 3)) | set(range(2040, 2060)) | {4999})
body = struct.pack('<I', 12346) + struct.pack('<I', 1) + struct.pack('<HH', 0, len(deleted) - 1) + struct.pack('<I', 16)
body += b''.join(struct.pack('<H', d) for d in deleted)
data = struct.pack('<I', 1681511377) + struct.pack('<Q', 1) + struct.pack('<I', 0) + body
u = uuid.uuid4()
alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#'
z85 = ''
for i in range(0, 16, 4):
    v = int.from_bytes(u.bytes[i:i + 4], 'big')
    z85 += ''.join(alphabet[(v // 85 ** k) % 85] for k in range(4, -1, -1))
with open(os.path.join(table, 'deletion_vector_%s.bin' % u), 'wb') as f:
    f.write(b'\x01' + struct.pack('>I', len(data)) + data + struct.pack('>I', zlib.crc32(data)))
dv = {'storageType': 'u', 'pathOrInlineDv': z85, 'offset': 1, 'sizeInBytes': len(data), 'cardinality': len(deleted)}
new = dict(add, deletionVector=dv)
actions = [{'commitInfo': {'timestamp': 1700000000000, 'operation': 'DELETE'}},
           {'protocol': {'minReaderVersion': 3, 'minWriterVersion': 7, 'readerFeatures': ['deletionVectors'], 'writerFeatures': ['deletionVectors']}},
           {'remove': {'path': add['path'], 'deletionTimestamp': 1700000000000, 'dataChange': True, 'partitionValues': add['partitionValues'], 'size': add['size']}},
           {'add': new}]
with open(os.path.join(log, '%020d.json' % (latest + 1)), 'w') as out:
    out.write(''.join(json.dumps(a) + '\n' for a in actions))
PY
deleted_set="set(range(0, 5000, 3)) | set(range(2040, 2060)) | {4999}"
expected_n=$((5000 - $(python3 -c "print(len($deleted_set))")))
expected_sum=$((12497500 - $(python3 -c "print(sum($deleted_set))")))
run "$BIN" -csv "$DB" -c "SELECT count(*) AS n, sum(k) AS s, min(p) AS p FROM big"
expect "DV across scan chunks" 0 "n,s,p"$'\n'"$expected_n,$expected_sum,1"$'\n'
run "$BIN" -csv "$DB" -c "SELECT count(*) AS n FROM big"
expect "count from stats minus a large DV" 0 "n"$'\n'"$expected_n"$'\n'
run "$BIN" -csv "$DB" -c "SELECT count(*) AS n FROM big WHERE k BETWEEN 2040 AND 2059 OR k % 3 = 0"
expect "no deleted row comes back" 0 $'n\n0\n'

# --- column mapping on nested fields (arrays index from 0, as in Spark): a STRUCT column whose fields (also
# inside an array of structs) have physical names of their own, as Databricks
# writes them after a rename; the data file uses only physical names ---
T=$TMP/nested_mapping
mkdir -p "$T/_delta_log"
"$BIN" -c "COPY (SELECT 1 AS \"col-id\", named_struct('col-f1', 'Zurich', 'col-f2', 8001) AS \"col-s\",
  array(named_struct('col-q', 3)) AS \"col-items\"
  UNION ALL SELECT 2, named_struct('col-f1', 'Basel', 'col-f2', CAST(NULL AS INT)), NULL) TO '$T/part-0.parquet' (FORMAT parquet)" >/dev/null
python3 - "$T" <<'PY'
import json, os, sys
t = sys.argv[1]
def field(name, typ, phys):
    return {"name": name, "type": typ, "nullable": True,
            "metadata": {"delta.columnMapping.id": abs(hash(phys)) % 1000, "delta.columnMapping.physicalName": phys}}
schema = {"type": "struct", "fields": [
    field("id", "integer", "col-id"),
    field("address", {"type": "struct", "fields": [field("city", "string", "col-f1"), field("zip", "integer", "col-f2")]}, "col-s"),
    field("items", {"type": "array", "containsNull": True,
                    "elementType": {"type": "struct", "fields": [field("qty", "integer", "col-q")]}}, "col-items")]}
actions = [
    {"protocol": {"minReaderVersion": 2, "minWriterVersion": 5}},
    {"metaData": {"id": "nested-mapping", "format": {"provider": "parquet", "options": {}},
                  "schemaString": json.dumps(schema), "partitionColumns": [],
                  "configuration": {"delta.columnMapping.mode": "name", "delta.columnMapping.maxColumnId": "6"}}},
    {"add": {"path": "part-0.parquet", "partitionValues": {}, "size": os.path.getsize(os.path.join(t, "part-0.parquet")),
             "modificationTime": 1700000000000, "dataChange": True}}]
with open(os.path.join(t, "_delta_log", "%020d.json" % 0), "w") as out:
    out.write("\n".join(json.dumps(a) for a in actions) + "\n")
PY
DB=$TMP/db_nested_mapping
run "$BIN" -csv "$DB" -c "CREATE TABLE nm LOCATION '$T'; SELECT id, address.city, address.zip, items[0].qty AS q, typeof(address) AS t FROM nm ORDER BY id"
expect "nested physical names read by their logical names" 0 \
  $'id,city,zip,q,t\n1,Zurich,8001,3,"STRUCT(city VARCHAR, zip INTEGER)"\n2,Basel,,,"STRUCT(city VARCHAR, zip INTEGER)"\n'
run "$BIN" -csv "$DB" -c "SELECT count(*) AS n FROM nm WHERE address.city = 'Basel'"
expect "filters on a mapped nested field" 0 $'n\n1\n'

finish
