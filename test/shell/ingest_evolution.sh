#!/usr/bin/env bash
# Schema evolution of streaming tables fed by read_files(), as a user runs it:
#   * addNewColumns (default): a later JSON file with a new top-level column
#     and a new field nested in a STRUCT evolves bronze in the same Delta
#     commit as its rows (one commit holding metaData and add actions); the
#     Delta log's schemaString has the new field; a downstream streaming
#     table (SELECT *) and a FILE sink of bronze carry it, a materialized
#     view over it refreshes; old rows read NULL;
#   * rescue: the schema never changes, the unknown fields land in
#     _rescued_data as JSON;
#   * failOnNewColumns: the update fails naming the file, the column and the
#     modes, and commits nothing;
#   * none: the new fields are ignored;
#   * a type conflict (a BIGINT column, a later file with 1.5) fails naming
#     the file, the column and both types, or is rescued.
# Usage: ingest_evolution.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

run() {
  RC=0
  "$@" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null || RC=$?
  OUT=$(cat "$TMP/stdout"; echo x); OUT=${OUT%x}
  ERR=$(cat "$TMP/stderr"; echo x); ERR=${ERR%x}
}
sql() { run "$BIN" -csv "$DB" -c "$1"; }
ok() {
  if [[ $RC == 0 ]]; then pass "$1"; else fail "$1" "rc $RC" "stderr: $ERR" "stdout: $OUT"; fi
}
refused() {  # refused NAME PART...: the last statement failed with every PART in stderr
  local name=$1; shift
  local part
  for part in "$@"; do
    if [[ $RC == 0 || "$ERR" != *"$part"* ]]; then
      fail "$name" "want failure with: $part" "rc $RC" "stderr: $ERR"
      return
    fi
  done
  pass "$name"
}
same() {  # same NAME GOT WANT
  if [[ "$2" == "$3" ]]; then pass "$1"; else fail "$1" "want: $(printf '%q' "$3")" "got:  $(printf '%q' "$2")"; fi
}
# The rows of a query as CSV without the header (NULL is an empty field).
rows() { sql "$1"; printf '%s' "$OUT" | tail -n +2; }
# The first value of the first row of a query (CSV-decoded).
value() {
  sql "$1"
  printf '%s' "$OUT" | python3 -c '
import csv, sys
print(list(csv.reader(sys.stdin))[1][0])'
}
# "name TYPE" per column of TABLE (DESCRIBE's first two fields, CSV-decoded).
columns() {
  sql "DESCRIBE $1"
  printf '%s' "$OUT" | python3 -c '
import csv, sys
for row in list(csv.reader(sys.stdin))[1:]:
    print(row[0], row[1])'
}

# ---------------- addNewColumns through a pipeline ----------------
P=$TMP/pipe
mkdir -p "$P/landing" "$P/out"
cat >"$P/pipeline.sql" <<'EOF'
CREATE OR REFRESH STREAMING TABLE bronze
AS SELECT * FROM read_files('landing/', format => 'json');

CREATE OR REFRESH STREAMING TABLE silver
AS SELECT * FROM STREAM(LIVE.bronze);

CREATE OR REFRESH MATERIALIZED VIEW owners TBLPROPERTIES ('refresh' = 'manual') AS
SELECT count(*) AS n, max(fullDocument.owner_id) AS top FROM LIVE.bronze;

CREATE SINK bronze_file FROM bronze INTO FILE 'out/bronze.jsonl' WITH ('start' = 'earliest');
EOF
DB=$P/pipeline.db
printf '%s\n' '{"id": 1, "fullDocument": {"owner_id": 7, "name": "a"}}' \
              '{"id": 2, "fullDocument": {"owner_id": 8, "name": "b"}}' >"$P/landing/f1.jsonl"
run "$BIN" run "$P/pipeline.sql" --plain
ok "first run creates bronze from f1"
same "bronze's first schema" "$(columns bronze)" \
  "$(printf '%s\n' 'id BIGINT' 'fullDocument STRUCT(owner_id BIGINT, name VARCHAR)')"
V1=$(ls "$DB"/bronze/_delta_log/*.json 2>/dev/null | wc -l)

# f2 adds a nested field (fullDocument.region) and a top-level column (source).
printf '%s\n' '{"id": 3, "fullDocument": {"owner_id": 9, "name": "c", "region": "eu"}, "source": "app"}' >"$P/landing/f2.jsonl"
run "$BIN" run "$P/pipeline.sql" --plain
ok "second run ingests f2 and evolves the schema"
same "bronze evolved: the nested field and the new column" "$(columns bronze)" \
  "$(printf '%s\n' 'id BIGINT' 'fullDocument STRUCT(owner_id BIGINT, name VARCHAR, region VARCHAR)' 'source VARCHAR')"
same "old rows read the new field and column as NULL, new rows have them" \
  "$(rows "SELECT id, fullDocument.owner_id, fullDocument.region, source FROM bronze ORDER BY id")" \
  "$(printf '%s\n' '1,7,,' '2,8,,' '3,9,eu,app')"

# The schema change and the rows are one Delta commit.
LOG=$DB/bronze/_delta_log
LAST=$(ls "$LOG"/*.json | sort | tail -1)
same "one new commit for the evolution and the rows" "$(ls "$LOG"/*.json | wc -l)" "$((V1 + 1))"
same "that commit has a metaData action and add actions" \
  "$(python3 -c '
import json, sys
acts = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
meta = [a["metaData"] for a in acts if "metaData" in a]
adds = [a for a in acts if "add" in a]
# the ingestion record of the file (its size) and its modification time (changed-file check)
txns = [a for a in acts if "txn" in a and a["txn"]["appId"].startswith("lakestream.file:")]
mtimes = [a for a in acts if "txn" in a and a["txn"]["appId"].startswith("lakestream.file_mtime:")]
schema = json.loads(meta[0]["schemaString"])
doc = next(f for f in schema["fields"] if f["name"] == "fullDocument")
print(len(meta), len(adds) > 0, len(txns), len(mtimes),
      [f["name"] for f in doc["type"]["fields"]], [f["name"] for f in schema["fields"]])' "$LAST")" \
  "1 True 1 1 ['owner_id', 'name', 'region'] ['id', 'fullDocument', 'source']"

same "the downstream streaming table evolved too" "$(columns silver)" \
  "$(printf '%s\n' 'id BIGINT' 'fullDocument STRUCT(owner_id BIGINT, name VARCHAR, region VARCHAR)' 'source VARCHAR')"
same "silver's rows" "$(rows "SELECT id, fullDocument.region, source FROM silver ORDER BY id")" \
  "$(printf '%s\n' '1,,' '2,,' '3,eu,app')"
same "a materialized view over the evolved table refreshed" "$(rows "SELECT n, top FROM owners")" "3,9"
same "the FILE sink's JSON carries the new nested field" "$(tail -1 "$P/out/bronze.jsonl")" \
  '{"id":3,"fullDocument":{"owner_id":9,"name":"c","region":"eu"},"source":"app"}'
same "the sink delivered every row once" "$(wc -l <"$P/out/bronze.jsonl" | tr -d ' ')" 3

# A third run with nothing new changes nothing; a restart reads the evolved schema.
run "$BIN" run "$P/pipeline.sql" --plain
ok "third run"
same "no commit without new files" "$(ls "$LOG"/*.json | wc -l)" "$((V1 + 1))"
printf '%s\n' '{"id": 4, "fullDocument": {"owner_id": 10, "region": "us", "tier": {"level": 2}}}' >"$P/landing/f3.jsonl"
run "$BIN" run "$P/pipeline.sql" --plain
ok "fourth run adds a nested STRUCT field"
same "fields added at two depths" "$(rows "SELECT id, fullDocument.tier.level, fullDocument.region FROM silver WHERE id >= 3 ORDER BY id")" \
  "$(printf '%s\n' '3,,eu' '4,2,us')"

# ---------------- the other modes, through the shell ----------------
mode_table() {  # mode_table MODE: a fresh database and landing folder with f1
  DB=$TMP/db_$1
  L=$TMP/landing_$1
  rm -rf "$DB" "$L"
  mkdir -p "$L"
  printf '%s\n' '{"id": 1, "doc": {"a": 1}}' >"$L/f1.jsonl"
  STMT="CREATE OR REFRESH STREAMING TABLE t AS SELECT * FROM read_files('$L', format => 'json', schemaEvolutionMode => '$1')"
  sql "$STMT"
}

mode_table rescue
ok "rescue: first run"
printf '%s\n' '{"id": 2, "doc": {"a": 2, "b": "new"}, "extra": 5}' >"$L/f2.jsonl"
sql "$STMT"
ok "rescue: second run"
same "rescue: the schema is unchanged (plus _rescued_data)" "$(columns t)" \
  "$(printf '%s\n' 'id BIGINT' 'doc STRUCT(a BIGINT)' '_rescued_data VARCHAR')"
same "rescue: the known fields are read" "$(rows "SELECT id, doc.a, _rescued_data IS NULL FROM t ORDER BY id")" \
  "$(printf '%s\n' '1,1,true' '2,2,false')"
same "rescue: the unknown fields (a nested one by its path) are in _rescued_data" \
  "$(value "SELECT _rescued_data FROM t WHERE id = 2")" "{\"doc.b\":\"new\",\"extra\":5,\"_file_path\":\"$L/f2.jsonl\"}"

mode_table failOnNewColumns
ok "failOnNewColumns: first run"
printf '%s\n' '{"id": 2, "doc": {"a": 2, "b": "new"}}' >"$L/f2.jsonl"
sql "$STMT"
refused "failOnNewColumns: the update fails naming the file, the field and the modes" \
  "$L/f2.jsonl has a new nested field doc.b (STRING)" "streaming table t" "'failOnNewColumns'" "'addNewColumns'" "'rescue'" "'none'"
same "failOnNewColumns: nothing was ingested" "$(rows "SELECT count(*) FROM t")" "1"
rm "$L/f2.jsonl"
printf '%s\n' '{"id": 3, "doc": {"a": 3}, "more": true}' >"$L/f3.jsonl"
sql "$STMT"
refused "failOnNewColumns: a new top-level column too" "$L/f3.jsonl has a new column more (BOOLEAN)"

mode_table none
printf '%s\n' '{"id": 2, "doc": {"a": 2, "b": "new"}, "extra": 5}' >"$L/f2.jsonl"
sql "$STMT"
ok "none: the file is ingested"
same "none: new fields ignored" "$(columns t)" "$(printf '%s\n' 'id BIGINT' 'doc STRUCT(a BIGINT)')"
same "none: rows" "$(rows "SELECT id, doc.a FROM t ORDER BY id")" "$(printf '%s\n' '1,1' '2,2')"

mode_table addNewColumns
printf '%s\n' '{"id": 2.5, "doc": {"a": 2}}' >"$L/f2.jsonl"
sql "$STMT"
refused "a type conflict names the file, the column and both types" \
  "$L/f2.jsonl line 1: column id is BIGINT but this record has a non-integral number 2.5" "rescue"
same "the conflicting file committed nothing" "$(rows "SELECT count(*) FROM t")" "1"

sql "CREATE OR REFRESH STREAMING TABLE t AS SELECT * FROM read_files('$L', format => 'json', schemaEvolutionMode => 'sideways')"
refused "an unknown mode lists the modes" "schemaEvolutionMode must be 'addNewColumns', 'rescue', 'failOnNewColumns' or 'none', got 'sideways'"

finish
