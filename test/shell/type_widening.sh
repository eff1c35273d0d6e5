#!/usr/bin/env bash
# Delta type widening, as a user meets it:
#   * a pipeline whose Parquet landing files widen a column (INT, then
#     BIGINT values; DECIMAL(5,2), then DECIMAL(10,3)) evolves the streaming
#     table's types in the commit that holds the new rows when the table sets
#     delta.enableTypeWidening, and a streaming table and a FILE sink
#     downstream carry the wide values;
#   * the Delta log records it as the protocol defines: reader and writer
#     feature typeWidening (reader 3, writer 7) and delta.typeChanges in the
#     field's metadata;
#   * without the property the same file fails naming the file, the column and
#     both types, and commits nothing;
#   * INT -> DOUBLE is never applied on its own (Delta asks for ALTER COLUMN).
# Usage: type_widening.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

run() {
  RC=0
  "$@" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null || RC=$?
  OUT=$(cat "$TMP/stdout"); ERR=$(cat "$TMP/stderr")
}
sql() { run "$BIN" -csv "$DB" -c "$1"; }
ok() { if [[ $RC == 0 ]]; then pass "$1"; else fail "$1" "rc $RC" "stderr: $ERR"; fi; }
same() { if [[ "$2" == "$3" ]]; then pass "$1"; else fail "$1" "want: $(printf '%q' "$3")" "got:  $(printf '%q' "$2")"; fi; }
out_refused() {  # out_refused NAME PART...: the pipeline run failed, its report (stdout) has every PART
  local name=$1 part; shift
  for part in "$@"; do
    if [[ $RC == 0 || "$OUT" != *"$part"* ]]; then fail "$name" "want failure with: $part" "rc $RC" "stdout: $OUT"; return; fi
  done
  pass "$name"
}
# "name TYPE" per column of TABLE (DESCRIBE's first two fields, CSV-decoded).
types() {
  sql "DESCRIBE $1"
  printf '%s' "$OUT" | python3 -c '
import csv, sys
for row in list(csv.reader(sys.stdin))[1:]:
    print(row[0], row[1])'
}
# parquet FILE SQL: writes the query's rows to a Parquet file.
parquet() { "$BIN" -c "COPY ($2) TO '$1' (FORMAT parquet)" >/dev/null; }

pipeline() {  # pipeline DIR PROPS: a bronze/silver/sink pipeline over DIR/landing
  mkdir -p "$1/landing" "$1/out"
  cat >"$1/pipeline.sql" <<EOF
CREATE OR REFRESH STREAMING TABLE bronze $2
AS SELECT * FROM read_files('landing/', format => 'parquet');

CREATE OR REFRESH STREAMING TABLE silver TBLPROPERTIES ('delta.enableTypeWidening' = 'true')
AS SELECT * FROM STREAM(LIVE.bronze);

CREATE SINK silver_file FROM silver INTO FILE 'out/silver.jsonl' WITH ('start' = 'earliest');
EOF
  parquet "$1/landing/f1.parquet" "SELECT 1::INT AS id, 1.25::DECIMAL(5,2) AS amount, 7::INT AS qty"
}

# ---------------- enabled ----------------
P=$TMP/on
pipeline "$P" "TBLPROPERTIES ('delta.enableTypeWidening' = 'true')"
DB=$P/pipeline.db
run "$BIN" run "$P/pipeline.sql" --plain
ok "first run: bronze from f1"
same "bronze's first types" "$(types bronze)" "$(printf '%s\n' 'id INTEGER' 'amount DECIMAL(5,2)' 'qty INTEGER')"
V1=$(ls "$DB"/bronze/_delta_log/*.json | wc -l)

parquet "$P/landing/f2.parquet" "SELECT 5000000000::BIGINT AS id, 1234567.125::DECIMAL(10,3) AS amount, 8::INT AS qty"
run "$BIN" run "$P/pipeline.sql" --plain
ok "second run ingests the wider file"
same "bronze widened id and amount" "$(types bronze)" "$(printf '%s\n' 'id BIGINT' 'amount DECIMAL(10,3)' 'qty INTEGER')"
same "silver widened too" "$(types silver)" "$(printf '%s\n' 'id BIGINT' 'amount DECIMAL(10,3)' 'qty INTEGER')"
sql "SELECT id, amount FROM silver ORDER BY id"
same "old and new rows in the wide types" "$OUT" "$(printf '%s\n' 'id,amount' '1,1.250' '5000000000,1234567.125')"
# (DECIMAL travels as a JSON string, exact, as in every sink.)
same "the sink's JSON carries the wide values" "$(tail -1 "$P/out/silver.jsonl")" '{"id":5000000000,"amount":"1234567.125","qty":8}'
same "one commit for the type change and the rows" "$(ls "$DB"/bronze/_delta_log/*.json | wc -l)" "$((V1 + 1))"
same "the Delta log records the widening as the protocol defines" "$(python3 - "$(ls "$DB"/bronze/_delta_log/*.json | sort | tail -1)" <<'PY'
import json, sys
import glob, os
acts = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
meta = [a["metaData"] for a in acts if "metaData" in a]
adds = [a for a in acts if "add" in a]
p = None  # the newest protocol of the log (the table was created with the property)
for name in sorted(glob.glob(os.path.join(os.path.dirname(sys.argv[1]), "*.json"))):
    for line in open(name):
        if line.strip() and "protocol" in json.loads(line): p = json.loads(line)["protocol"]
fields = {f["name"]: f for f in json.loads(meta[0]["schemaString"])["fields"]}
print(p and p["minReaderVersion"], p and p["minWriterVersion"],
      p and "typeWidening" in p["readerFeatures"] and "typeWidening" in p["writerFeatures"], len(adds) > 0)
for name in ("id", "amount", "qty"):
    print(name, fields[name]["type"], fields[name]["metadata"].get("delta.typeChanges"))
PY
)" "$(printf '%s\n' "3 7 True True" \
  "id long [{'fromType': 'integer', 'toType': 'long'}]" \
  "amount decimal(10,3) [{'fromType': 'decimal(5,2)', 'toType': 'decimal(10,3)'}]" \
  "qty integer None")"

# INT -> DOUBLE is a manual change in Delta: the file's 2.5 does not widen qty.
parquet "$P/landing/f3.parquet" "SELECT 6::BIGINT AS id, 1::DECIMAL(5,2) AS amount, 2.5::DOUBLE AS qty"
run "$BIN" run "$P/pipeline.sql" --plain
out_refused "INT -> DOUBLE is not applied by schema evolution, nor 2.5 rounded" "f3.parquet" "2.5" "qty"
same "qty stays INTEGER" "$(types bronze | tail -1)" "qty INTEGER"
rm "$P/landing/f3.parquet"

# ---------------- not enabled ----------------
P=$TMP/off
pipeline "$P" ""
DB=$P/pipeline.db
run "$BIN" run "$P/pipeline.sql" --plain
ok "first run without type widening"
V1=$(ls "$DB"/bronze/_delta_log/*.json | wc -l)
parquet "$P/landing/f2.parquet" "SELECT 5000000000::BIGINT AS id, 1.5::DECIMAL(5,2) AS amount, 8::INT AS qty"
run "$BIN" run "$P/pipeline.sql" --plain
out_refused "a wider file without delta.enableTypeWidening fails by name" "f2.parquet" "5000000000" "id" "INTEGER"
same "nothing committed" "$(ls "$DB"/bronze/_delta_log/*.json | wc -l)" "$V1"
same "bronze keeps its types" "$(types bronze | head -1)" "id INTEGER"

finish
