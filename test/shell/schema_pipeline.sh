#!/usr/bin/env bash
# Pipelines over schemas (docs/sql-schemas.md, docs/pipelines.md): datasets
# named s.x and catalog.s.x, LIVE.x read in the dataset's own schema, and a
# second run that finds its datasets (updated, not created again). gold2 is
# declared first and reads `gold`, sales.gold in its schema: it runs last.
# Usage: schema_pipeline.sh PATH/TO/lakestream
set -uo pipefail
source "$(dirname "$0")/lib.sh"
DB=$TMP/pdb
cat >"$TMP/pipeline.sql" <<'SQL'
CREATE OR REFRESH MATERIALIZED VIEW pdb.sales.gold2 AS SELECT n * 2 AS n2 FROM gold;
CREATE OR REFRESH STREAMING TABLE sales.bronze AS SELECT * FROM STREAM(pdb.main.raw);
CREATE OR REFRESH MATERIALIZED VIEW sales.gold AS SELECT count(*) AS n, sum(amount) AS total FROM LIVE.bronze;
SQL
run "$BIN" -csv "$DB" -c "CREATE SCHEMA sales; CREATE TABLE raw (id INT, amount INT); INSERT INTO raw VALUES (1, 10), (2, 20)"
expect "setup" 0 $'num_affected_rows\n2\n'
run "$BIN" run "$TMP/pipeline.sql" --db "$DB" --once
if [[ $RC == 0 && "$OUT" == *"sales.gold2 (materialized view): created"* ]]; then pass "first run creates the datasets"; else
  fail "first run creates the datasets" "rc $RC" "$OUT" "$ERR"; fi
run "$BIN" -csv "$DB" -c "SELECT * FROM sales.gold; SELECT * FROM sales.gold2; INSERT INTO raw VALUES (3, 30)"
expect "the schema's datasets hold the pipeline's rows" 0 $'n,total\n2,30\nn2\n4\nnum_affected_rows\n1\n'
run "$BIN" run "$TMP/pipeline.sql" --db "$DB" --once
if [[ $RC == 0 && "$OUT" == *"sales.bronze (streaming table): updated"* && "$OUT" == *"sales.gold2 (materialized view): up to date"* ]]; then
  pass "the second run finds the datasets of the schema"; else fail "the second run finds the datasets of the schema" "rc $RC" "$OUT" "$ERR"; fi
run "$BIN" -csv "$DB" -c "SELECT * FROM sales.gold; SELECT * FROM sales.gold2; SHOW TABLES"
expect "new rows flow through; main holds raw and the pipeline's event log" 0 $'n,total\n3,60\nn2\n6\nname\nevent_log\nraw\n'

# Schemas the datasets name are made by the run (as Databricks makes a
# pipeline's target schema): no CREATE SCHEMA before it.
cat >"$TMP/new_schemas.sql" <<'SQL'
CREATE OR REFRESH STREAMING TABLE deal_stream_test.deal_bronze AS SELECT * FROM STREAM(pdb.main.raw);
CREATE OR REFRESH MATERIALIZED VIEW pdb.deal_gold_schema.deal_gold1 AS SELECT sum(amount) AS total FROM deal_stream_test.deal_bronze;
SQL
run "$BIN" run "$TMP/new_schemas.sql" --db "$DB" --once
if [[ $RC == 0 && "$OUT" == *"deal_gold_schema.deal_gold1 (materialized view): created"* ]]; then
  pass "a run creates the schemas its datasets name"; else fail "a run creates the schemas its datasets name" "rc $RC" "$OUT" "$ERR"; fi
run "$BIN" -csv "$DB" -c "SELECT total FROM deal_gold_schema.deal_gold1; SHOW SCHEMAS"
expect "the new schemas hold the datasets" 0 $'total\n60\nname,catalog,current\nmain,pdb,true\ndeal_gold_schema,pdb,false\ndeal_stream_test,pdb,false\nsales,pdb,false\n'
run "$BIN" run "$TMP/new_schemas.sql" --db "$DB" --once
if [[ $RC == 0 && "$OUT" == *"deal_stream_test.deal_bronze (streaming table): up to date"* ]]; then
  pass "a second run finds the schemas it made"; else fail "a second run finds the schemas it made" "rc $RC" "$OUT" "$ERR"; fi

# --schema: the pipeline's target schema (Databricks' `target`), created by
# the run; unqualified datasets, LIVE.x and the event log are its.
cat >"$TMP/target.sql" <<'SQL'
CREATE OR REFRESH STREAMING TABLE silver AS SELECT * FROM STREAM(main.raw);
CREATE OR REFRESH MATERIALIZED VIEW gold AS SELECT count(*) AS n FROM LIVE.silver;
SQL
run "$BIN" run "$TMP/target.sql" --db "$DB" --schema Deal_Target --once
if [[ $RC == 0 && "$OUT" == *"gold (materialized view): created"* ]]; then
  pass "--schema creates the target schema"; else fail "--schema creates the target schema" "rc $RC" "$OUT" "$ERR"; fi
run "$BIN" -csv "$DB" -c "SELECT n FROM deal_target.gold; SELECT count(*) > 0 AS logged FROM deal_target.event_log; SHOW TABLES IN deal_target"
expect "the target schema holds the datasets and the event log" 0 $'n\n3\nlogged\ntrue\nname\nevent_log\ngold\nsilver\n'
finish
