#!/usr/bin/env bash
# Shell tests: writing Delta tables with row tracking (PROTOCOL.md "Row
# Tracking"), on a new table with delta.enableRowTracking and on a copy of
# table-with-domain-metadata (Databricks: rowTracking enabled, high water
# mark 435, 109 files of 4 rows; the log is all there but its data files
# were not shared, so this test writes stand-ins of 4 rows each that agree
# with the files' statistics). After each of INSERT, UPDATE, DELETE, MERGE
# and OPTIMIZE, row_tracking_check.py replays the log on its own and checks
# that fresh ids never repeat, the high water mark is the largest id given,
# removes repeat their add's fields and stable ids are unique; this script
# then compares the stable row ids and commit versions of the rows before
# and after the statement: copied rows keep both, updated rows keep their id
# and get the statement's version, new rows get ids above the old mark.
# Usage: row_tracking.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
SHARED=${LAKESTREAM_SHARED_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}/delta-tables
[[ -d $SHARED ]] || { echo "no Delta test tables at $SHARED: set LAKESTREAM_SHARED_DIR"; exit 1; }
CHECK="$(cd "$(dirname "$0")" && pwd)/row_tracking_check.py"
DB=$TMP/db

sql() { run "$BIN" -csv "$DB" -c "$1"; }
# snap NAME TABLE_DIR: checks the table's row tracking (PASS/FAIL) and keeps
# its rows with their stable ids in $TMP/NAME.json.
snap() {
  local got
  got=$(python3 "$CHECK" "$BIN" "$2" "$TMP/$1.json" 2>&1) || true
  [[ "$got" == ok ]] && pass "$1: fresh ids, high water mark, removes and stable ids check out" ||
    fail "$1: fresh ids, high water mark, removes and stable ids check out" "$got"
}
# compare NAME BEFORE AFTER PYTHON: PYTHON sees `before` and `after` (lists of
# rows: cols, row_id, version), `hwm_before`, and `version` (the last commit's
# version); it evaluates to "ok" or what is wrong.
compare() {
  local got
  got=$(python3 - "$TMP/$2.json" "$TMP/$3.json" "$4" "$DB" <<'PY' 2>&1
import json, sys
b, a = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
before, after, hwm_before = b["rows"], a["rows"], b["hwm"]
print(eval(sys.argv[3]))
PY
) || true
  [[ "$got" == ok ]] && pass "$1" || fail "$1" "$got"
}

# --- a new table with delta.enableRowTracking ---
sql "CREATE TABLE rt (id INT, name STRING) TBLPROPERTIES ('delta.enableRowTracking' = 'true', 'delta.checkpointInterval' = '4')"
[[ $RC == 0 ]] && pass "CREATE TABLE with delta.enableRowTracking" || fail "CREATE TABLE with delta.enableRowTracking" "$ERR"
got=$(python3 - "$DB/rt/_delta_log/00000000000000000000.json" <<'PY'
import json, re, sys
acts = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
p = [a["protocol"] for a in acts if "protocol" in a][0]
c = [a["metaData"]["configuration"] for a in acts if "metaData" in a][0]
i, v = c.get("delta.rowTracking.materializedRowIdColumnName", ""), c.get("delta.rowTracking.materializedRowCommitVersionColumnName", "")
ok = (p["minWriterVersion"] == 7 and {"rowTracking", "domainMetadata"} <= set(p["writerFeatures"])
      and re.fullmatch(r"_row-id-col-[0-9a-f-]{36}", i) and re.fullmatch(r"_row-commit-version-col-[0-9a-f-]{36}", v))
print("ok" if ok else "bad: %s %s" % (p, c))
PY
)
[[ $got == ok ]] && pass "the protocol lists rowTracking and domainMetadata; materialized column names are set" ||
  fail "protocol and column names" "$got"

sql "INSERT INTO rt VALUES (1, 'a'), (2, 'b'), (3, 'c'); INSERT INTO rt VALUES (4, 'd'), (5, 'e')"
snap n1 "$DB/rt"
# By hand: version 1's file gets ids 0-2, version 2's file 3-4.
compare "inserted rows get ids 0-4 in order, commit versions 1 and 2" n1 n1 \
  '"ok" if sorted((int(r["cols"]["id"]), r["row_id"], r["version"]) for r in after) == [(1,0,1),(2,1,1),(3,2,1),(4,3,2),(5,4,2)] else after'
sql "UPDATE rt SET name = 'B' WHERE id = 2"
snap n2 "$DB/rt"
compare "UPDATE: every row keeps its id; only the updated row gets version 3" n1 n2 \
  '"ok" if {r["row_id"]: (r["cols"]["id"], 3 if r["cols"]["id"] == "2" else r["version"]) for r in before} == {r["row_id"]: (r["cols"]["id"], r["version"]) for r in after} else after'
sql "DELETE FROM rt WHERE id = 4"
snap n3 "$DB/rt"
compare "DELETE: the other rows keep their ids and versions" n2 n3 \
  '"ok" if sorted((r["row_id"], r["version"]) for r in before if r["cols"]["id"] != "4") == sorted((r["row_id"], r["version"]) for r in after) else after'
sql "MERGE INTO rt USING (SELECT 1 AS id, 'A' AS name UNION ALL SELECT 6, 'f') s ON rt.id = s.id
     WHEN MATCHED THEN UPDATE SET name = s.name WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)"
snap n4 "$DB/rt"
compare "MERGE: matched row keeps its id with version 5, the new row gets an id above the old mark" n3 n4 \
  '"ok" if {r["row_id"]: (r["cols"]["id"], 5 if r["cols"]["id"] == "1" else r["version"]) for r in before} == {r["row_id"]: (r["cols"]["id"], r["version"]) for r in after if r["cols"]["id"] != "6"} and [r["row_id"] > hwm_before and r["version"] == 5 for r in after if r["cols"]["id"] == "6"] == [True] else after'
sql "OPTIMIZE rt"
snap n5 "$DB/rt"
compare "OPTIMIZE: every row keeps its id and commit version" n4 n5 \
  '"ok" if sorted((r["row_id"], r["version"], r["cols"]["id"]) for r in before) == sorted((r["row_id"], r["version"], r["cols"]["id"]) for r in after) and len(after) == 5 else after'
sql "SELECT * FROM rt ORDER BY id"
expect "the materialized columns are hidden from SELECT *" 0 $'id,name\n1,A\n2,B\n3,c\n5,e\n6,f\n'
sql "DESCRIBE rt"
[[ $RC == 0 && "$OUT" != *_row-* ]] && pass "DESCRIBE shows no materialized column" || fail "DESCRIBE hides row tracking columns" "$OUT"
cp=$(ls "$DB/rt/_delta_log" | grep 'checkpoint.parquet$' | tail -1)
sql "SELECT count(*) FILTER (WHERE \"add\".path IS NOT NULL AND (\"add\".baseRowId IS NULL OR \"add\".defaultRowCommitVersion IS NULL)) AS adds_without,
            count(*) FILTER (WHERE remove.path IS NOT NULL AND (remove.baseRowId IS NULL OR remove.defaultRowCommitVersion IS NULL)) AS removes_without,
            count(*) FILTER (WHERE remove.path IS NOT NULL) AS removes
     FROM read_parquet('$DB/rt/_delta_log/$cp') WHERE \"add\" IS NOT NULL OR remove IS NOT NULL"
[[ $RC == 0 && -n $cp && "$OUT" == $'adds_without,removes_without,removes\n0,0,'* && "$OUT" != *$',0\n' ]] &&
  pass "the checkpoint ($cp) carries baseRowId and defaultRowCommitVersion of adds and removes" ||
  fail "checkpoint row tracking fields" "$cp" "$RC $OUT $ERR"
rm -f "$DB"/rt/_delta_log/0000000000000000000[0-3].json  # readers now start at checkpoint 4
sql "INSERT INTO rt VALUES (7, 'g')"
snap n6 "$DB/rt"
compare "after a checkpoint, the next insert continues the high water mark" n5 n6 \
  '"ok" if [r["row_id"] == hwm_before + 1 for r in after if r["cols"]["id"] == "7"] == [True] else (hwm_before, after)'

# --- turning row tracking on later ---
sql "CREATE TABLE later (x INT); INSERT INTO later VALUES (1);
     ALTER TABLE later SET TBLPROPERTIES ('delta.enableRowTracking' = 'true')"
expect_err "enabling on a table whose files have no row ids is refused by name" 1 "not supported yet" "row tracking" "later"
sql "CREATE TABLE empty_later (x INT); ALTER TABLE empty_later SET TBLPROPERTIES ('delta.enableRowTracking' = 'true');
     INSERT INTO empty_later VALUES (1), (2)"
snap e1 "$DB/empty_later"
compare "enabling on an empty table, then inserting, gives ids 0-1" e1 e1 \
  '"ok" if sorted(r["row_id"] for r in after) == [0, 1] else after'
sql "CREATE TABLE sup (x INT) TBLPROPERTIES ('delta.feature.rowTracking' = 'supported'); INSERT INTO sup VALUES (1), (2), (3)"
snap s1 "$DB/sup"
got=$(python3 -c "import json,sys; print([l for l in open(sys.argv[1]) if 'enableRowTracking' in l])" "$DB/sup/_delta_log/00000000000000000000.json")
[[ $got == "[]" ]] && pass "delta.feature.rowTracking alone assigns ids without enabling" || fail "feature supported only" "$got"

# --- a copy of Databricks' table-with-domain-metadata ---
cp -r "$SHARED/table-with-domain-metadata" "$TMP/dm"
CP=$TMP/dm/_delta_log/00000000000000000108.checkpoint.parquet
# Stand-ins for the data files: 4 rows each, inside the file's min/max statistics.
python3 - "$BIN" "$CP" "$TMP/dm" > "$TMP/standins.sql" <<'PY'
import csv, io, json, subprocess, sys
out = subprocess.run([sys.argv[1], "-csv", "-c", "SELECT \"add\".path AS p, \"add\".stats AS s FROM read_parquet('%s') WHERE \"add\" IS NOT NULL" % sys.argv[2]],
                     capture_output=True, text=True, check=True).stdout
for row in list(csv.DictReader(io.StringIO(out))):
    st = json.loads(row["s"])
    lo, hi = st["minValues"], st["maxValues"]
    rows = []
    for i in range(st["numRecords"]):
        pick = lo if i % 2 == 0 else hi
        rows.append("SELECT CAST(%d AS BIGINT) AS id, '%s' AS name, '%s' AS department" % (
            min(lo["id"] + i, hi["id"]), pick["name"], pick["department"]))
    print("COPY (%s) TO '%s/%s';" % (" UNION ALL ".join(rows), sys.argv[3], row["p"]))
PY
run "$BIN" -csv -f "$TMP/standins.sql"
[[ $RC == 0 ]] || fail "write the stand-in data files" "$ERR"
sql "CREATE TABLE dm LOCATION '$TMP/dm'; SELECT count(*) AS n FROM dm"
expect "the copy reads 436 rows" 0 $'n\n436\n'
snap d0 "$TMP/dm"
compare "Databricks' rows: stable ids 0-435 (no materialized values yet)" d0 d0 \
  '"ok" if sorted(r["row_id"] for r in after) == list(range(436)) and hwm_before == 435 else (hwm_before, len(after))'
sql "INSERT INTO dm VALUES (1000, 'Nia', 'Ops'), (1001, 'Oto', 'Ops')"
snap d1 "$TMP/dm"
compare "INSERT continues Databricks' high water mark: ids 436-437, version 109" d0 d1 \
  '"ok" if sorted((r["row_id"], r["version"]) for r in after if r["cols"]["department"] == "Ops") == [(436, 109), (437, 109)] and a["hwm"] == 437 else after'
sql "UPDATE dm SET name = 'Zed' WHERE id = 2"
snap d2 "$TMP/dm"
compare "UPDATE of Databricks' rows: all ids kept, updated rows (id 2) get version 110" d1 d2 \
  '"ok" if {r["row_id"]: (r["cols"]["id"], 110 if r["cols"]["id"] == "2" else r["version"]) for r in before} == {r["row_id"]: (r["cols"]["id"], r["version"]) for r in after} and all(r["cols"]["name"] == "Zed" for r in after if r["cols"]["id"] == "2") else "differs"'
sql "DELETE FROM dm WHERE id = 3"
snap d3 "$TMP/dm"
compare "DELETE: the rest keep ids and versions" d2 d3 \
  '"ok" if sorted((r["row_id"], r["version"]) for r in before if r["cols"]["id"] != "3") == sorted((r["row_id"], r["version"]) for r in after) else "differs"'
sql "MERGE INTO dm USING (SELECT CAST(1000 AS BIGINT) AS id, 'Mo' AS name UNION ALL SELECT 2000, 'Ny') s ON dm.id = s.id
     WHEN MATCHED THEN UPDATE SET name = s.name WHEN NOT MATCHED THEN INSERT (id, name, department) VALUES (s.id, s.name, 'New')"
snap d4 "$TMP/dm"
compare "MERGE: the matched row keeps id 436 with version 112; the new row gets 438 or above" d3 d4 \
  '"ok" if {r["row_id"]: (r["cols"]["id"], 112 if r["cols"]["id"] == "1000" else r["version"]) for r in before} == {r["row_id"]: (r["cols"]["id"], r["version"]) for r in after if r["cols"]["id"] != "2000"} and [r["row_id"] > hwm_before for r in after if r["cols"]["id"] == "2000"] == [True] and [r["row_id"] for r in after if r["cols"]["id"] == "1000"] == [436] else "differs"'
sql "OPTIMIZE dm"
snap d5 "$TMP/dm"
compare "OPTIMIZE: every row keeps its id and commit version" d4 d5 \
  '"ok" if sorted((r["row_id"], r["version"]) for r in before) == sorted((r["row_id"], r["version"]) for r in after) and len(after) == len(before) else "differs"'
finish
