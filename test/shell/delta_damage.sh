#!/usr/bin/env bash
# Shell tests: a Delta table damaged by hand (statistics edited, a data file
# or a commit deleted, a commit torn, a checkpoint gone) is reported with the
# file, the version and the fix, never answered from what is left.
# Usage: delta_damage.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
export COLUMNS=200

sql() { run "$BIN" -csv "$DB" -c "$1"; }
# A fresh database with table t: version 0 create, 1 (k = 1, 2), 2 (k = 3).
fresh() {
  DB=$TMP/db$1
  run "$BIN" "$DB" -c "CREATE TABLE t (k INT, v STRING); INSERT INTO t VALUES (1, 'a'), (2, NULL); INSERT INTO t VALUES (3, 'c')"
  [[ $RC == 0 ]] || fail "setup $1" "$ERR"
  LOG=$DB/t/_delta_log
  V1=$LOG/00000000000000000001.json
  FILE1=$(grep -o '"path":"[^"]*"' "$V1" | sed -n 1p | cut -d'"' -f4)
}

# --- statistics that lie: COUNT(*) refuses instead of answering from them ---
fresh stats_negative
sed -i 's/\\"numRecords\\":2/\\"numRecords\\":-5/' "$V1"
sql "SELECT count(*) FROM t"
expect_err "numRecords -5" 1 "Corruption Error" "Table t (version 2)" "$FILE1" "numRecords is not a non-negative integer"

fresh stats_nullcount
sed -i 's/\\"v\\":1/\\"v\\":7/' "$V1"
sql "SELECT count(*) FROM t"
expect_err "nullCount above numRecords" 1 "Corruption Error" "$FILE1" "nullCount of column v is 7, but the file has 2 rows"
# a filtered read does not skip on them: the rows are still found
sql "SELECT k FROM t WHERE v IS NULL OR k > 0 ORDER BY k"
expect "filtered read ignores bad stats" 0 $'k\n1\n2\n3\n'

fresh stats_garbled
sed -i 's/\\"numRecords\\":2/\\"numRecords\\":2x/' "$V1"
sql "SELECT count(*) FROM t"
expect_err "unparsable stats" 1 "Corruption Error" "$FILE1" "are not a JSON object"

# --- a data file deleted outside lakestream: every read names it; COUNT(*)
# without WHERE answers from the log, opening no data file (as Spark does) ---
fresh missing_file
rm "$DB/t/$FILE1"
sql "SELECT count(*) FROM t"
expect "count(*) from the log with a missing data file" 0 $'count(*)\n3\n'
sql "SELECT count(*) FROM t WHERE k > 0"
expect_err "a filtered count with a missing data file" 1 "IO Error" "missing its data file $DB/t/$FILE1" "version 2" "Restore them"
sql "SELECT * FROM t"
expect_err "SELECT * with a missing data file" 1 "IO Error" "missing its data file $DB/t/$FILE1"

# --- a commit missing from the middle of the log: a gap, named ---
fresh gap
rm "$V1"
sql "SELECT count(*) FROM t"
expect_err "missing 001.json" 1 "Corruption Error" "has a gap" "version 1 ($V1) is missing" "Restore $V1 from a backup" \
  "(version 0 is intact)"
if [[ "$ERR" == *"cleaned up"* ]]; then fail "gap is not called a cleanup" "$ERR"; else pass "gap is not called a cleanup"; fi

# --- a torn (half written) last commit: corruption naming it, not silently skipped ---
fresh torn
V2=$LOG/00000000000000000002.json
head -c 60 "$V2" >"$TMP/torn" && cp "$TMP/torn" "$V2"
sql "SELECT count(*) FROM t"
expect_err "torn last commit" 1 "Corruption Error" "commit file of version 2 is damaged" "$V2" "versions 0 to 1 are intact"

# --- _last_checkpoint naming a checkpoint that is gone: the log is listed instead ---
fresh stale_last_checkpoint
printf '{"version":1,"size":4}\n' >"$LOG/_last_checkpoint"
sql "SELECT count(*) FROM t"
expect "stale _last_checkpoint falls back to the listing" 0 $'count(*)\n3\n'

# --- a checkpoint file removed: the JSON commits still rebuild the table ---
DB=$TMP/db_checkpoint
run "$BIN" "$DB" -c "CREATE TABLE t (k INT) TBLPROPERTIES ('delta.checkpointInterval' = '2'); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2); INSERT INTO t VALUES (3)"
CHECKPOINT=$DB/t/_delta_log/00000000000000000002.checkpoint.parquet
if [[ -f "$CHECKPOINT" ]]; then pass "checkpoint written"; else fail "checkpoint written" "$(ls "$DB/t/_delta_log")"; fi
rm -f "$CHECKPOINT"
sql "SELECT count(*) FROM t"
expect "missing checkpoint falls back to the commits" 0 $'count(*)\n3\n'

finish
