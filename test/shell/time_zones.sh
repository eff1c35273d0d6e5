#!/usr/bin/env bash
# Shell tests: the session time zone and TIMESTAMP_NTZ as a user types them
# (docs/sql-time.md): SET TIME ZONE changes how TIMESTAMP shows, not NTZ; a
# new session starts in UTC; an unknown zone is refused by name and changes
# nothing; an NTZ column survives a new process, and its Parquet files read in
# DuckDB as a naive TIMESTAMP beside TIMESTAMP WITH TIME ZONE (when node and
# bench/node_modules/@duckdb/node-api are there, in this checkout or in the
# checkout LAKESTREAM_DUCKDB_CHECKOUT names; skipped otherwise).
# Usage: time_zones.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
DB="$TMP/db"

expect_sql "create" "CREATE TABLE ev (id INTEGER, w TIMESTAMP_NTZ, t TIMESTAMP)" ""
expect_sql "insert" "INSERT INTO ev VALUES (1, TIMESTAMP_NTZ '2024-01-15 12:00:00', TIMESTAMP '2024-01-15 12:00:00')" \
  $'num_affected_rows\n1'
expect_sql "UTC by default" "SELECT current_timezone() AS z, w, t FROM ev" $'z,w,t\nUTC,2024-01-15 12:00:00,2024-01-15 12:00:00'
expect_sql "TIMESTAMP shows in the session zone, NTZ does not move" \
  "SET TIME ZONE 'America/New_York'; SELECT current_timezone() AS z, w, t FROM ev" \
  $'z,w,t\nAmerica/New_York,2024-01-15 12:00:00,2024-01-15 07:00:00'
expect_sql "a new session starts in UTC again" "SELECT current_timezone() AS z" $'z\nUTC'
expect_sql "the column types survive a new process" "SELECT typeof(w) AS a, typeof(t) AS b FROM ev" $'a,b\nTIMESTAMP_NTZ,TIMESTAMP'
refused_sql "an unknown zone is refused by name" "SET TIME ZONE 'Mars/Olympus_Mons'" "unknown time zone 'Mars/Olympus_Mons'"
refused_sql "a misspelt zone is refused, with a valid form" "SET TIME ZONE 'Europe/berlin'" "such as 'America/New_York'"
expect_sql "a half-hour zone" "SET TIME ZONE INTERVAL '+05:30' HOUR TO MINUTE; SELECT t FROM ev" $'t\n2024-01-15 17:30:00'

# DuckDB reads the NTZ column as its naive TIMESTAMP and ours as TIMESTAMPTZ.
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
CHECKOUT="${LAKESTREAM_DUCKDB_CHECKOUT:-$REPO}"
if command -v node >/dev/null && [[ -d "$CHECKOUT/bench/node_modules/@duckdb/node-api" ]]; then
  FILE=$(find "$DB" -name '*.parquet' -not -path '*_delta_log*' | head -n 1)
  python3 -c 'import json, sys; print(json.dumps([{"setup": [], "queries": [
    "SELECT typeof(w), typeof(t), CAST(w AS VARCHAR), epoch(t) FROM read_parquet(\x27%s\x27)" % sys.argv[1]]}]))' \
    "$FILE" >"$TMP/duck.json"
  RC=0
  DUCK=$(cd "$CHECKOUT" && node "$REPO/test/sql_reference/differential_duckdb.mjs" "$TMP/duck.json" 2>&1) || RC=$?
  WANT='[[{"types":["VARCHAR","VARCHAR","VARCHAR","DOUBLE"],"rows":[["TIMESTAMP","TIMESTAMP WITH TIME ZONE","2024-01-15 12:00:00",1705320000]]}]]'
  if [[ $RC == 0 && "$DUCK" == "$WANT" ]]; then pass "DuckDB reads NTZ as TIMESTAMP and TIMESTAMP as TIMESTAMPTZ"; else
    fail "DuckDB reads NTZ as TIMESTAMP and TIMESTAMP as TIMESTAMPTZ" "want: $WANT" "got rc $RC: $DUCK"
  fi
else
  echo "SKIP: DuckDB check (needs node and bench/node_modules/@duckdb/node-api)"
fi

finish
