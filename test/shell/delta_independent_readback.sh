#!/usr/bin/env bash
# Shell tests: what another Delta reader sees of lakestream's commits.
# lakestream writes to copies of Spark-written tables (deletion vectors,
# column mapping, in-commit timestamps with the change data feed). Then
# test/sql_reference/delta_feature_tables.mjs, a reader written without
# lakestream (its own log replay and deletion-vector decoder, DuckDB reading
# the Parquet files, physical column names mapped by itself), derives every
# version's rows and the change feed from the files alone, as sqllogictest
# records, and lakestream must give exactly those answers. A commit that only
# lakestream could read back correctly fails here.
# Needs node and bench/node_modules/@duckdb/node-api (skipped without them).
# Usage: delta_independent_readback.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
SHARED=${LAKESTREAM_SHARED_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}/delta-tables
[[ -d $SHARED ]] || { echo "no Delta test tables at $SHARED: set LAKESTREAM_SHARED_DIR"; exit 1; }
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
SLT=${LAKESTREAM_SQLLOGICTEST:-$(dirname "$BIN")/test/lakestream_sqllogictest}
if ! command -v node >/dev/null || [[ ! -d "$REPO/bench/node_modules/@duckdb/node-api" ]]; then
  echo "SKIP: needs node and bench/node_modules/@duckdb/node-api (cd bench && npm install)"
  exit 0
fi
[[ -x $SLT ]] || { echo "no sqllogictest runner at $SLT: set LAKESTREAM_SQLLOGICTEST"; exit 1; }

# write NAME SQL: copies shared table NAME to $T and runs SQL on it as table t.
write() {
  T=$TMP/$1
  cp -r "$SHARED/$1" "$T"
  run "$BIN" -csv "$TMP/db_$1" -c "CREATE TABLE t LOCATION '$T'; $2"
  [[ $RC == 0 ]] || fail "lakestream writes to $1" "$RC" "$ERR"
}
# readback NAME [COLUMNS]: the independent reader's records for $T, run by lakestream.
readback() {
  local records="$TMP/$1.test" got
  {
    echo "load __TEST_DIR__/readback_$1.db"
    echo
    echo "statement ok"
    echo "CREATE TABLE t LOCATION '$T'"
    echo
    (cd "$REPO" && node test/sql_reference/delta_feature_tables.mjs "$T" t ${2:-})
  } >"$records" || { fail "the independent reader reads $1 after lakestream's writes" "$(tail -5 "$records")"; return; }
  got=$("$SLT" "$records" 2>&1) && RC=0 || RC=$?
  local versions; versions=$(grep -c '^# version' "$records" || true)
  if [[ $RC == 0 && $versions -gt 0 ]]; then
    pass "$1: lakestream answers as the independent reader for all $versions versions$(grep -q "table_changes" "$records" && echo ' and the change feed')"
  else
    fail "$1: lakestream answers as the independent reader" "$(printf '%s' "$got" | tail -25)"
  fi
}

# Deletion vectors: rewrites of files that have one (copy-on-write), with
# the change feed on. The independent reader applies the vectors of the
# remaining Spark files itself.
write table_with_deletion_logs "ALTER TABLE t SET TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
  UPDATE t SET nbr = nbr + 1 WHERE id % 3 = 0;
  DELETE FROM t WHERE id % 5 = 0;
  MERGE INTO t USING (SELECT id FROM t WHERE id % 7 = 0) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET name = upper(t.name);
  INSERT INTO t (id, name, nbr) VALUES (1000, 'new row', 1);
  OPTIMIZE t"
readback table_with_deletion_logs id,name,nbr

# Column mapping (name mode): physical names and random-prefix folders in
# our files, a renamed column, a dropped one.
write table_with_column_mapping "INSERT INTO t SELECT * FROM t;
  UPDATE t SET \"Super Name\" = upper(\"Super Name\") WHERE \"Company Very Short\" = 'BMS';
  DELETE FROM t WHERE \"Super Name\" LIKE 'A%';
  ALTER TABLE t RENAME COLUMN \"Super Name\" TO hero"
readback table_with_column_mapping

# In-commit timestamps with the change feed, partitioned: the reader takes
# commit times from inCommitTimestamp and the changes from our cdc files.
write cdc_ict_table "INSERT INTO t SELECT * FROM t;
  UPDATE t SET age = age + 100 WHERE name = 'Steve';
  DELETE FROM t WHERE name = 'Kate'"
readback cdc_ict_table

finish
