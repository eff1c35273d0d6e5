#!/usr/bin/env bash
# Shell tests: writing to Delta tables with the features current Databricks
# and Delta 3.x/4.x writers use, as the Delta protocol defines them:
#  * deletion vectors: UPDATE/DELETE/MERGE/OPTIMIZE rewrite a file with a DV
#    without its deleted rows (copy-on-write), checked against the original
#    table read through its DVs; checkpoints keep add.deletionVector;
#  * in-commit timestamps: commitInfo first, inCommitTimestamp strictly
#    increasing, enablement version/timestamp when turned on later;
#  * domain metadata: kept across the checkpoints lakestream writes;
#  * V2 checkpoints: a table with the feature gets V2 spec checkpoints;
#  * feature properties (delta.feature.*, enableDeletionVectors, ...) change
#    the protocol; features lakestream cannot write (icebergCompatV1) and
#    unknown ones are refused by name (row tracking: test/shell/row_tracking.sh).
# Usage: delta_feature_writes.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
SHARED=${LAKESTREAM_SHARED_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}/delta-tables
[[ -d $SHARED ]] || { echo "no Delta test tables at $SHARED: set LAKESTREAM_SHARED_DIR"; exit 1; }
DB=$TMP/db

# sql SQL: runs it in the test database (CSV output), as run does.
sql() { run "$BIN" -csv "$DB" -c "$1"; }
# log_field TABLE_DIR VERSION PYTHON_EXPR: evaluates EXPR over `actions`, the
# parsed lines of that commit.
log_field() {
  python3 -c "import json,sys; actions=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]; print($3)" \
    "$1/_delta_log/$(printf '%020d' "$2").json"
}

# --- deletion vectors: every kind of rewrite, checked against the original ---
cp -r "$SHARED/table_with_deletion_logs" "$TMP/dv"
sql "CREATE TABLE o LOCATION '$SHARED/table_with_deletion_logs'; CREATE TABLE dv LOCATION '$TMP/dv';
     ALTER TABLE dv SET TBLPROPERTIES ('delta.checkpointInterval' = '3', 'delta.enableChangeDataFeed' = 'true')"
[[ $RC == 0 ]] || fail "attach the deletion-vector table" "$ERR"
first_write=$(ls "$TMP/dv/_delta_log" | grep -c '\.json$')
sql "UPDATE dv SET nbr = nbr + 1 WHERE id % 3 = 0;
     DELETE FROM dv WHERE id % 5 = 0;
     MERGE INTO dv USING (SELECT id, name FROM o WHERE id % 7 = 0) s ON dv.id = s.id
       WHEN MATCHED THEN UPDATE SET name = upper(s.name);
     OPTIMIZE dv;
     SELECT count(*) AS differing FROM (
       SELECT id, CASE WHEN id % 7 = 0 THEN upper(name) ELSE name END AS name,
              CASE WHEN id % 3 = 0 THEN nbr + 1 ELSE nbr END AS nbr, address, age, company, phone_number
       FROM o WHERE id % 5 <> 0
       EXCEPT SELECT id, name, nbr, address, age, company, phone_number FROM dv);
     SELECT (SELECT count(*) FROM dv) = (SELECT count(*) FROM o WHERE id % 5 <> 0) AS same_count"
[[ $RC == 0 && "$OUT" == *$'differing\n0\nsame_count\ntrue\n' ]] &&
  pass "UPDATE, DELETE, MERGE and OPTIMIZE of a deletion-vector table match the original" ||
  fail "UPDATE, DELETE, MERGE and OPTIMIZE of a deletion-vector table match the original" "$RC" "$OUT" "$ERR"
sql "SELECT count(*) AS n FROM table_changes('dv', $first_write) WHERE _change_type = 'delete';
     SELECT count(*) AS n FROM o WHERE id % 5 = 0"
deletes=$(printf '%s' "$OUT" | sed -n 2p); expected=$(printf '%s' "$OUT" | sed -n 4p)
[[ $RC == 0 && -n $deletes && $deletes == "$expected" ]] && pass "the change feed holds exactly the deleted rows ($deletes)" ||
  fail "the change feed holds exactly the deleted rows" "$RC $OUT $ERR"
checkpoint=$(ls "$TMP/dv/_delta_log" | grep 'checkpoint.parquet$' | tail -1)
[[ -n $checkpoint ]] && pass "a checkpoint was written ($checkpoint)" || fail "a checkpoint was written" "$(ls "$TMP/dv/_delta_log")"
# Before OPTIMIZE rewrote them, files with deletion vectors were active: a
# checkpoint taken then must list their descriptors.
sql "SELECT count(*) AS with_dv FROM read_parquet('$TMP/dv/_delta_log/$(ls "$TMP/dv/_delta_log" | grep 'checkpoint.parquet$' | head -1)')
     WHERE \"add\".deletionVector.storageType IS NOT NULL"
[[ $RC == 0 && "$OUT" != $'with_dv\n0\n' && "$OUT" == with_dv* ]] && pass "the checkpoint keeps add.deletionVector" ||
  fail "the checkpoint keeps add.deletionVector" "$RC $OUT $ERR"
rm -f "$TMP"/dv/_delta_log/0000000000000000000[0-9].json  # readers must now start from the checkpoint
sql "SELECT count(*) AS n FROM dv"
n_after=$OUT
sql "SELECT count(*) AS n FROM o WHERE id % 5 <> 0"
[[ "$n_after" == "$OUT" ]] && pass "read from the checkpoint alone, the table is the same" || fail "read from the checkpoint alone" "$n_after" "$OUT"

# --- in-commit timestamps: a table Spark wrote with them ---
cp -r "$SHARED/cdc_ict_table" "$TMP/ict"
sql "CREATE TABLE ict LOCATION '$TMP/ict'; INSERT INTO ict VALUES ('x', 2000, 24); INSERT INTO ict VALUES ('y', 2001, 23)"
v=$(ls "$TMP/ict/_delta_log" | grep -c '\.json$')
prev=$(log_field "$TMP/ict" $((v - 3)) "actions[0]['commitInfo']['inCommitTimestamp']")
a=$(log_field "$TMP/ict" $((v - 2)) "actions[0]['commitInfo']['inCommitTimestamp']")
b=$(log_field "$TMP/ict" $((v - 1)) "actions[0]['commitInfo']['inCommitTimestamp']")
[[ $RC == 0 && $a -gt $prev && $b -gt $a ]] &&
  pass "commitInfo comes first with a strictly increasing inCommitTimestamp ($prev < $a < $b)" ||
  fail "commitInfo comes first with a strictly increasing inCommitTimestamp" "$RC $ERR" "$prev $a $b"
# The next commit of a clock that went back still moves forward.
python3 - "$TMP/ict/_delta_log/$(printf '%020d' $((v - 1))).json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
lines[0]['commitInfo']['inCommitTimestamp'] = 4102444800000  # 2100-01-01: ahead of this clock
open(sys.argv[1], 'w').write(''.join(json.dumps(a) + '\n' for a in lines))
PY
sql "INSERT INTO ict VALUES ('z', 2002, 22)"
c=$(log_field "$TMP/ict" "$v" "actions[0]['commitInfo']['inCommitTimestamp']")
[[ $RC == 0 && $c == 4102444800001 ]] && pass "an in-commit timestamp exceeds the previous one even when the clock is behind" ||
  fail "an in-commit timestamp exceeds the previous one" "$RC $ERR" "$c"

# --- turning in-commit timestamps on for an existing table ---
sql "CREATE TABLE later (x INT); INSERT INTO later VALUES (1);
     ALTER TABLE later SET TBLPROPERTIES ('delta.enableInCommitTimestamps' = 'true'); INSERT INTO later VALUES (2)"
[[ $RC == 0 ]] || fail "enable in-commit timestamps" "$ERR"
enabled=$(log_field "$DB/later" 2 "[(a['metaData']['configuration']['delta.inCommitTimestampEnablementVersion'], a['metaData']['configuration']['delta.inCommitTimestampEnablementTimestamp'] == str(actions[0]['commitInfo']['inCommitTimestamp'])) for a in actions if 'metaData' in a]")
[[ "$enabled" == "[('2', True)]" ]] && pass "the enabling commit records its version and timestamp" ||
  fail "the enabling commit records its version and timestamp" "$enabled"
features=$(log_field "$DB/later" 2 "[a['protocol'] for a in actions if 'protocol' in a]")
[[ "$features" == *"'minReaderVersion': 1"* && "$features" == *inCommitTimestamp* ]] &&
  pass "inCommitTimestamp is a writer feature only (reader version stays 1)" || fail "inCommitTimestamp protocol" "$features"

# --- feature properties change the protocol; unwritable ones are refused ---
sql "CREATE TABLE feat (x INT) TBLPROPERTIES ('delta.feature.domainMetadata' = 'supported', 'delta.enableDeletionVectors' = 'true')"
proto=$(log_field "$DB/feat" 0 "[a['protocol'] for a in actions if 'protocol' in a][0]")
config=$(log_field "$DB/feat" 0 "[a['metaData']['configuration'] for a in actions if 'metaData' in a][0]")
[[ $RC == 0 && "$proto" == *"'readerFeatures': ['deletionVectors']"* && "$proto" == *domainMetadata* && "$config" != *delta.feature* ]] &&
  pass "delta.feature.* and enableDeletionVectors become protocol features, not properties" ||
  fail "feature properties" "$RC $ERR" "$proto" "$config"
sql "CREATE TABLE rt (x INT) TBLPROPERTIES ('delta.feature.icebergCompatV1' = 'supported')"
expect_err "a feature lakestream cannot write is refused by name" 1 "icebergCompatV1" "not support writing yet"
sql "CREATE TABLE rt (x INT) TBLPROPERTIES ('delta.feature.domainMetaData' = 'supported')"
expect_err "an unknown feature gets a did-you-mean" 1 "unknown Delta table feature 'domainMetaData'" "did you mean delta.feature.domainMetadata"
sql "CREATE TABLE rt (x INT) TBLPROPERTIES ('delta.checkpointPolicy' = 'v3')"
expect_err "an unknown checkpoint policy is refused" 1 "'classic' or 'v2'"
[[ ! -d "$DB/rt" ]] && pass "no table was created by the refused statements" || fail "no table was created" "$(ls "$DB/rt")"

# --- V2 checkpoints and domain metadata kept across checkpoints ---
sql "CREATE TABLE v2 (x INT) TBLPROPERTIES ('delta.checkpointPolicy' = 'v2', 'delta.feature.domainMetadata' = 'supported',
                                           'delta.checkpointInterval' = '2')"
# Another writer's domain (as a clustering or an application domain would be).
printf '%s\n' '{"commitInfo":{"timestamp":1700000000000,"operation":"SET DOMAIN"}}' \
  '{"domainMetadata":{"domain":"app.settings","configuration":"{\"owner\":\"etl\"}","removed":false}}' \
  '{"domainMetadata":{"domain":"app.gone","configuration":"{}","removed":false}}' > "$DB/v2/_delta_log/00000000000000000001.json"
printf '%s\n' '{"commitInfo":{"timestamp":1700000000001,"operation":"SET DOMAIN"}}' \
  '{"domainMetadata":{"domain":"app.gone","configuration":"{}","removed":true}}' > "$DB/v2/_delta_log/00000000000000000002.json"
sql "INSERT INTO v2 VALUES (1); INSERT INTO v2 VALUES (2); INSERT INTO v2 VALUES (3); INSERT INTO v2 VALUES (4)"
cp_file=$(ls "$DB/v2/_delta_log" | grep 'checkpoint.parquet$' | tail -1)
sql "SELECT checkpointMetadata.version AS v FROM read_parquet('$DB/v2/_delta_log/$cp_file') WHERE checkpointMetadata IS NOT NULL;
     SELECT domainMetadata.domain AS d, domainMetadata.configuration AS c FROM read_parquet('$DB/v2/_delta_log/$cp_file')
     WHERE domainMetadata IS NOT NULL"
expect "the V2 checkpoint has checkpointMetadata and the live domain only" 0 \
  "v"$'\n'"$((10#${cp_file:0:20}))"$'\nd,c\napp.settings,"{""owner"":""etl""}"\n'
rm -f "$DB"/v2/_delta_log/0000000000000000000[0-3].json
sql "INSERT INTO v2 VALUES (5); INSERT INTO v2 VALUES (6); SELECT sum(x) AS s FROM v2"
last_cp=$(ls "$DB/v2/_delta_log" | grep 'checkpoint.parquet$' | tail -1)
run2=$OUT
sql "SELECT domainMetadata.domain AS d FROM read_parquet('$DB/v2/_delta_log/$last_cp') WHERE domainMetadata IS NOT NULL"
[[ "$run2" == *$'s\n21\n'* && "$last_cp" != "$cp_file" && "$OUT" == $'d\napp.settings\n' ]] &&
  pass "a table read from a V2 checkpoint is written on, and the next checkpoint keeps the domain" ||
  fail "the next checkpoint keeps the domain" "$run2" "$cp_file -> $last_cp" "$OUT" "$ERR"

finish
