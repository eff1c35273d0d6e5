#!/usr/bin/env bash
# Shell tests: writing Delta tables with column mapping, on copies of the
# tables Databricks wrote (shared/delta-tables): table_with_column_mapping
# (mode name, partitioned by a column whose name has spaces) takes INSERT,
# UPDATE, DELETE, MERGE, RENAME COLUMN and DROP COLUMN, and its new commits
# key partition values and statistics by physical name and put files in
# random two-character folders, as Databricks' own commits do;
# delta-live-table (reader 2 / writer 5, no mapping yet) is upgraded to mode
# name. The data files are read back by DuckDB (when node and
# bench/node_modules/@duckdb/node-api are there, in this checkout or in
# LAKESTREAM_DUCKDB_CHECKOUT) to check their Parquet names and field ids.
# Usage: column_mapping_write.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
SHARED=${LAKESTREAM_SHARED_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}/delta-tables
[[ -d $SHARED ]] || { echo "no Delta test tables at $SHARED: set LAKESTREAM_SHARED_DIR"; exit 1; }
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
CHECKOUT="${LAKESTREAM_DUCKDB_CHECKOUT:-$REPO}"

copy() {
  T=$TMP/$1
  cp -r "$SHARED/$1" "$T"
  DB=$TMP/db_$1
}
sql() { run "$BIN" -csv "$DB" -c "CREATE TABLE IF NOT EXISTS t LOCATION '$T'; $1"; }
# check NAME PYTHON: runs PYTHON with the table's log directory as argv[1];
# it prints "ok" or what is wrong.
check() {
  local got
  got=$(python3 - "$T/_delta_log" <<<"$2" 2>&1) || true
  if [[ "$got" == ok ]]; then pass "$1"; else fail "$1" "$got"; fi
}
# The Python helpers the log checks share: every action of versions >= FROM.
LOG_PY='
import glob, json, os, re, sys
log = sys.argv[1]
def actions(first=0):
    out = []
    for f in sorted(glob.glob(os.path.join(log, "*.json"))):
        v = int(os.path.basename(f)[:20])
        if v >= first:
            out += [(v, json.loads(line)) for line in open(f) if line.strip()]
    return out
def schema():
    s = None
    for v, a in actions():
        if "metaData" in a: s = json.loads(a["metaData"]["schemaString"])
    return s
def physical(name):
    for f in schema()["fields"]:
        if f["name"] == name: return f["metadata"]["delta.columnMapping.physicalName"]
'

# --- table_with_column_mapping (Databricks, mode name): every write path ---
copy table_with_column_mapping
sql "INSERT INTO t VALUES ('BMS', 'Zoe Quinn'), ('New Co', 'Ann Lee'), (NULL, 'No Company')"
expect "insert into a mapped table" 0 $'num_affected_rows\n3\n'
sql "SELECT \"Company Very Short\" AS c, \"Super Name\" AS n FROM t WHERE \"Super Name\" IN ('Zoe Quinn', 'Ann Lee', 'No Company', 'Timothy Lamb') ORDER BY n"
expect "new and old rows read back" 0 $'c,n\nNew Co,Ann Lee\n,No Company\nBME,Timothy Lamb\nBMS,Zoe Quinn\n'
check "new adds: physical keys, random folders, physical stats" "$LOG_PY"'
part, data = physical("Company Very Short"), physical("Super Name")
adds = [a["add"] for v, a in actions(1) if "add" in a]
bad = [a["path"] for a in adds if not re.fullmatch(r"[A-Za-z0-9]{2}/part-[^/]+\.parquet", a["path"])]
bad += [a["path"] for a in adds if list(a["partitionValues"]) != [part]]
bad += [a["path"] for a in adds if list(json.loads(a["stats"])["minValues"]) != [data]]
vals = sorted(str(a["partitionValues"][part]) for a in adds)
print("ok" if adds and not bad and vals == ["BMS", "New Co", "None"] else "bad: %s %s" % (bad, vals))'

sql "UPDATE t SET \"Super Name\" = 'Zoe Q.' WHERE \"Super Name\" = 'Zoe Quinn'"
expect "update a mapped table" 0 $'num_affected_rows\n1\n'
sql "DELETE FROM t WHERE \"Company Very Short\" = 'BME'"
expect "delete from a mapped table" 0 $'num_affected_rows\n1\n'
sql "MERGE INTO t USING (SELECT 'Ann Lee' AS n, 'Old Co' AS c) s ON t.\"Super Name\" = s.n WHEN MATCHED THEN UPDATE SET \"Company Very Short\" = s.c"
expect "merge into a mapped table (moves a row to another partition)" 0 \
  $'num_affected_rows,num_updated_rows,num_deleted_rows,num_inserted_rows\n1,1,0,0\n'
sql "SELECT \"Company Very Short\" AS c, count(*) AS n FROM t GROUP BY c ORDER BY c NULLS LAST"
expect "rows after update, delete and merge" 0 $'c,n\nBMS,5\nOld Co,1\n,1\n'
sql "SELECT \"Super Name\" AS n FROM t WHERE \"Company Very Short\" = 'Old Co'"
expect "a filter on the mapped partition column" 0 $'n\nAnn Lee\n'
check "no partition directory by logical name" "$LOG_PY"'
tables = os.path.dirname(log)
print("ok" if not [d for d in os.listdir(tables) if "=" in d] else "found: %s" % os.listdir(tables))'

sql "ALTER TABLE t RENAME COLUMN \"Super Name\" TO person; ALTER TABLE t RENAME COLUMN \"Company Very Short\" TO company"
expect "rename columns of a Databricks table" 0 ''
sql "SELECT company, person FROM t WHERE person IN ('Ann Lee', 'Zoe Q.') ORDER BY person"
expect "renamed columns read old and new files" 0 $'company,person\nOld Co,Ann Lee\nBMS,Zoe Q.\n'
sql "SELECT \"Company Very Short\" AS c, count(*) AS n FROM t VERSION AS OF 0 GROUP BY c ORDER BY c"
expect "time travel to Databricks' version keeps its names" 0 $'c,n\nBME,1\nBMS,4\n'
check "rename changed only the schema and partitionColumns" "$LOG_PY"'
v, meta = [(v, a["metaData"]) for v, a in actions() if "metaData" in a][-1]
names = [f["name"] for f in json.loads(meta["schemaString"])["fields"]]
ids = [f["metadata"]["delta.columnMapping.id"] for f in json.loads(meta["schemaString"])["fields"]]
files = [a for w, a in actions(v) if w == v and ("add" in a or "remove" in a)]
print("ok" if names == ["company", "person"] and ids == [1, 2] and meta["partitionColumns"] == ["company"] and not files
      else "bad: %s %s %s %s" % (names, ids, meta["partitionColumns"], files))'

# The data files lakestream wrote carry the physical names, as DuckDB reads them.
if command -v node >/dev/null && [[ -d "$CHECKOUT/bench/node_modules/@duckdb/node-api" ]]; then
  python3 - "$T" >"$TMP/duck.json" <<'PY'
import glob, json, os, sys
t = sys.argv[1]
ours = glob.glob(os.path.join(t, "??", "part-*.parquet"))
spark = {"BH/part-00000-4d6e745c-8e04-48d9-aa60-438228358f1a.c000.zstd.parquet", "8v/part-00001-69b4a452-aeac-4ffa-bf5c-a0c2833d05eb.c000.zstd.parquet"}
ours = [f for f in ours if os.path.relpath(f, t) not in spark]
print(json.dumps([{"setup": [], "queries": [
    "SELECT DISTINCT name FROM parquet_schema([%s]) WHERE name <> 'schema' AND name <> 'duckdb_schema' ORDER BY name" % ", ".join("'%s'" % f for f in ours)]}]))
PY
  RC=0
  DUCK=$(cd "$CHECKOUT" && node "$REPO/test/sql_reference/differential_duckdb.mjs" "$TMP/duck.json" 2>&1) || RC=$?
  WANT='[[{"types":["VARCHAR"],"rows":[["col-3877fd94-0973-4941-ac6b-646849a1ff65"]]}]]'
  if [[ $RC == 0 && "$DUCK" == "$WANT" ]]; then pass "DuckDB sees only the physical name in our files"; else
    fail "DuckDB sees only the physical name in our files" "want: $WANT" "got rc $RC: $DUCK"
  fi
else
  echo "SKIP: DuckDB check (needs node and bench/node_modules/@duckdb/node-api)"
fi

sql "ALTER TABLE t ADD COLUMN score INT; INSERT INTO t VALUES ('BMS', 'Kim', 7)"
expect "add a column and write it" 0 $'num_affected_rows\n1\n'
check "the added column has id 3 and a fresh physical name" "$LOG_PY"'
meta = [a["metaData"] for v, a in actions() if "metaData" in a][-1]
f = json.loads(meta["schemaString"])["fields"][-1]
md = f["metadata"]
print("ok" if f["name"] == "score" and md["delta.columnMapping.id"] == 3 and re.fullmatch("col-[0-9a-f-]{36}", md["delta.columnMapping.physicalName"])
      and meta["configuration"]["delta.columnMapping.maxColumnId"] == "3" else "bad: %s %s" % (f, meta["configuration"]))'
sql "ALTER TABLE t DROP COLUMN person; SELECT company, score FROM t WHERE score IS NOT NULL"
expect "drop a column: the others still read" 0 $'company,score\nBMS,7\n'
sql "SELECT count(*) AS n FROM t"
expect "drop keeps every row" 0 $'n\n8\n'

# --- delta-live-table (Databricks DLT, reader 2 / writer 5): upgrade none -> name ---
copy delta-live-table
sql "INSERT INTO t (sherpa_user_id, first_name, hire_date) VALUES (1, 'Ada', DATE '2020-01-02')"
expect "insert before the upgrade" 0 $'num_affected_rows\n1\n'
sql "ALTER TABLE t SET TBLPROPERTIES ('delta.columnMapping.mode' = 'name')"
expect "upgrade to column mapping mode name" 0 ''
check "upgrade: ids 1..10, physical = logical names, protocol kept at 2/5" "$LOG_PY"'
protocol = [a["protocol"] for v, a in actions() if "protocol" in a][-1]
meta = [a["metaData"] for v, a in actions() if "metaData" in a][-1]
fields = json.loads(meta["schemaString"])["fields"]
ok = [f["metadata"]["delta.columnMapping.id"] for f in fields] == list(range(1, 11))
ok = ok and all(f["metadata"]["delta.columnMapping.physicalName"] == f["name"] for f in fields)
ok = ok and meta["configuration"]["delta.columnMapping.maxColumnId"] == "10"
ok = ok and protocol == {"minReaderVersion": 2, "minWriterVersion": 5}
print("ok" if ok else "bad: %s %s" % (protocol, meta))'
sql "ALTER TABLE t RENAME COLUMN first_name TO given_name; INSERT INTO t (sherpa_user_id, given_name) VALUES (2, 'Bo'); SELECT sherpa_user_id AS id, given_name, hire_date FROM t ORDER BY id"
expect "a file from before the upgrade reads under the new name" 0 $'num_affected_rows\n1\nid,given_name,hire_date\n1,Ada,2020-01-02\n2,Bo,\n'
sql "ALTER TABLE t SET TBLPROPERTIES ('delta.columnMapping.mode' = 'none')"
expect_err "turning mapping off is refused by name" 1 "Cannot change delta.columnMapping.mode of table t from 'name' to 'none'"

# --- mode id: files carry field ids, as DuckDB reads them ---
DB=$TMP/db_ids
run "$BIN" -csv "$DB" -c "CREATE TABLE ids (k BIGINT, s STRUCT(x INT, y VARCHAR)) TBLPROPERTIES ('delta.columnMapping.mode' = 'id');
  INSERT INTO ids VALUES (1, named_struct('x', 5, 'y', 'five'))"
expect "create and write a mode id table" 0 $'num_affected_rows\n1\n'
T=$DB/ids
if command -v node >/dev/null && [[ -d "$CHECKOUT/bench/node_modules/@duckdb/node-api" ]]; then
  python3 - "$T" >"$TMP/duck.json" <<'PY'
import glob, json, os, sys
f = glob.glob(os.path.join(sys.argv[1], "??", "part-*.parquet"))[0]
print(json.dumps([{"setup": [], "queries": [
    "SELECT name, CAST(field_id AS BIGINT) FROM parquet_schema('%s') WHERE field_id IS NOT NULL ORDER BY field_id" % f]}]))
PY
  RC=0
  DUCK=$(cd "$CHECKOUT" && node "$REPO/test/sql_reference/differential_duckdb.mjs" "$TMP/duck.json" 2>&1) || RC=$?
  WANT=$(python3 - "$T/_delta_log" <<'PY'
import json, sys
meta = [json.loads(l)["metaData"] for l in open(sys.argv[1] + "/00000000000000000000.json") if "metaData" in l][0]
rows = []
def walk(fields):
    for f in fields:
        md = f["metadata"]
        rows.append([md["delta.columnMapping.physicalName"], str(md["delta.columnMapping.id"])])
        if isinstance(f["type"], dict): walk(f["type"]["fields"])
walk(json.loads(meta["schemaString"])["fields"])
rows.sort(key=lambda r: r[1])
print(json.dumps([[{"types": ["VARCHAR", "BIGINT"], "rows": rows}]], separators=(",", ":")))
PY
)
  if [[ $RC == 0 && "$DUCK" == "$WANT" ]]; then pass "DuckDB reads the physical names and field ids of mode id"; else
    fail "DuckDB reads the physical names and field ids of mode id" "want: $WANT" "got rc $RC: $DUCK"
  fi
else
  echo "SKIP: DuckDB check (needs node and bench/node_modules/@duckdb/node-api)"
fi

# --- a streaming table with column mapping evolves its schema: new columns
# and STRUCT fields get ids and physical names in the commit with their rows ---
mkdir -p "$TMP/land"
echo '{"a": 1, "s": {"x": 1}}' >"$TMP/land/1.json"
DB=$TMP/db_stream
ST="CREATE OR REFRESH STREAMING TABLE st TBLPROPERTIES ('delta.columnMapping.mode' = 'name') AS SELECT * FROM STREAM read_files('$TMP/land/', format => 'json')"
run "$BIN" -csv "$DB" -c "$ST"
echo '{"a": 2, "b": "new", "s": {"x": 2, "y": true}}' >"$TMP/land/2.json"
run "$BIN" -csv "$DB" -c "$ST; SELECT a, s.x, s.y, b FROM st ORDER BY a"
expect "a mapped streaming table takes new columns and fields" 0 \
  $'streaming_table,files,rows_read,rows_written,version,lag_ms\n'"$(sed -n 2p "$TMP/out")"$'\na,x,y,b\n1,1,,\n2,2,true,new\n'
T=$DB/st
check "evolved fields: new ids, physical names in schema and files" "$LOG_PY"'
meta = [a["metaData"] for v, a in actions() if "metaData" in a][-1]
fields = json.loads(meta["schemaString"])["fields"]
b = [f for f in fields if f["name"] == "b"][0]["metadata"]
s = [f for f in fields if f["name"] == "s"][0]
y = [f for f in s["type"]["fields"] if f["name"] == "y"][0]["metadata"]
adds = [a["add"] for v, a in actions(2) if "add" in a]
stats = json.loads(adds[-1]["stats"])["minValues"]
ok = b["delta.columnMapping.id"] == 5 and y["delta.columnMapping.id"] == 4 and meta["configuration"]["delta.columnMapping.maxColumnId"] == "5"
ok = ok and b["delta.columnMapping.physicalName"].startswith("col-") and b["delta.columnMapping.physicalName"] in stats
print("ok" if ok else "bad: %s %s %s" % (b, y, stats))'

# --- RENAME/DROP COLUMN elsewhere: refused, naming what allows them ---
run "$BIN" -csv :memory: -c "CREATE TABLE a (x INT, y INT); ALTER TABLE a DROP COLUMN x"
expect_err "drop column of an in-memory table" 1 "DROP COLUMN of in-memory table a" "Delta tables with column mapping"

finish
