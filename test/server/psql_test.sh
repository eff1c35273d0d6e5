#!/usr/bin/env bash
# psql against `lakestream serve` (docs/server.md): DDL/DML tags, types in
# text format, errors with SQLSTATE, \dt and \d, cancel (psql sends a
# CancelRequest on SIGINT), cursors (FETCH_COUNT), users made by CREATE USER,
# a read-only server refusing writes.
# Usage: psql_test.sh path/to/lakestream
set -u
BIN=$1
DIR=$(mktemp -d)
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$DIR"; }
trap cleanup EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
expect() {  # expect NAME EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then fail "$1"; echo "--- expected:"; echo "$2"; echo "--- got:"; echo "$3"; fi
}

start() {
  "$BIN" serve "$DIR/db" --listen 127.0.0.1:0 "$@" 2>"$DIR/serve.log" &
  PID=$!
  for _ in $(seq 100); do
    PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$DIR/serve.log")
    [ -n "$PORT" ] && return 0
    sleep 0.05
  done
  echo "server did not start:"; cat "$DIR/serve.log"; exit 1
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null; PID=; }
q() { psql -X -h 127.0.0.1 -p "$PORT" -U tester -d lake "$@" 2>&1; }

start
expect "ddl and dml tags" "CREATE TABLE
INSERT 0 2
UPDATE 1
DELETE 0" "$(q -c "CREATE TABLE t (id BIGINT, name VARCHAR, ok BOOLEAN, d DATE, ts TIMESTAMP_NTZ, x DOUBLE, m DECIMAL(10,2))" \
  -c "INSERT INTO t VALUES (1, 'a', true, DATE '2024-01-02', TIMESTAMP_NTZ '2024-01-02 03:04:05.5', 1.5, 19.99), (2, NULL, false, NULL, NULL, NULL, NULL)" \
  -c "UPDATE t SET name = 'b' WHERE id = 2" -c "DELETE FROM t WHERE id = 9")"
expect "text formats" "1|a|t|2024-01-02|2024-01-02 03:04:05.5|1.5|19.99
2|b|f||||" "$(q -At -c "SELECT * FROM t ORDER BY id")"
expect "several statements in one Query" "1
2" "$(q -At -c "SELECT 1; SELECT 2")"
expect "undefined table SQLSTATE" "42P01" "$(q -v VERBOSITY=verbose -c "SELECT * FROM nosuch" | sed -n 's/^ERROR:  \([0-9A-Z]*\):.*/\1/p')"
expect "syntax error SQLSTATE" "42601" "$(q -v VERBOSITY=verbose -c "SELEC 1" | sed -n 's/^ERROR:  \([0-9A-Z]*\):.*/\1/p')"
expect "\\dt" "public|t|table|tester" "$(q -At -c '\dt')"
expect "\\d t" "id|bigint|||
name|text|||
ok|boolean|||
d|date|||
ts|timestamp without time zone|||
x|double precision|||
m|numeric(10,2)|||" "$(q -At -c '\d t')"
expect "COPY TO STDOUT" "1	a	t
2	b	f" "$(q -c "COPY t (id, name, ok) TO STDOUT" | sort)"
expect "COPY escapes and NULL" 'a\tb	\N	x\\y' "$(q -c "COPY (SELECT 'a	b' AS s, NULL AS n, 'x\\y' AS e) TO STDOUT")"
# psql's \copy is COPY ... FROM STDIN / TO STDOUT with the client's file.
printf 'id,name,ok\n7,"q,""r""",true\n8,,false\n' >"$DIR/in.csv"
expect "\\copy from a CSV file with a header" "COPY 2
7|q,\"r\"|t
8||f" "$(q -c "CREATE TABLE ct (id BIGINT, name VARCHAR, ok BOOLEAN)" >/dev/null &&
  q -c "\\copy ct (id, name, ok) from '$DIR/in.csv' with (format csv, header)" -At -c "SELECT * FROM ct ORDER BY id")"
q -c "\\copy (SELECT id, name FROM ct ORDER BY id) to '$DIR/out.csv' csv header" >/dev/null
expect "\\copy to a CSV file with a header" 'id,name
7,"q,""r"""
8,' "$(cat "$DIR/out.csv")"
expect "COPY FROM STDIN, a bad row names its line" "22P04" "$(printf '9\tx\n10\n' |
  q -v VERBOSITY=verbose -c "COPY ct (id, name) FROM STDIN" | sed -n 's/^ERROR:  \([0-9A-Z]*\):.*line 2.*/\1/p')"
q -c "DROP TABLE ct" >/dev/null
expect "\\l" "lake|tester|UTF8|C|C|" "$(q -At -c '\l')"
expect "\\dn" "public|tester" "$(q -At -c '\dn')"
# Every schema and its objects (main is Postgres's public): \dn, \dt/\dv/\dm
# with schema patterns, \d of a qualified name; plain \dt keeps to the
# current schema, as Postgres keeps to the search path.
q -q -c "CREATE SCHEMA sales" -c "CREATE TABLE sales.orders (id INT, amount DOUBLE)" \
  -c "CREATE VIEW sales.big AS SELECT * FROM sales.orders WHERE amount > 10" >/dev/null
expect "\\dn lists every schema" "public|tester
sales|tester" "$(q -At -c '\dn')"
expect "\\dn pattern" "sales|tester" "$(q -At -c '\dn sa*')"
expect "\\dt sales.*" "sales|orders|table|tester" "$(q -At -c '\dt sales.*')"
expect "\\dv sales.*" "sales|big|view|tester" "$(q -At -c '\dv sales.*')"
expect "\\dt *.*" "public|t|table|tester
sales|orders|table|tester" "$(q -At -c '\dt *.*')"
expect "\\dt: the current schema" "public|t|table|tester" "$(q -At -c '\dt')"
expect "\\d sales.orders" "id|integer|||
amount|double precision|||" "$(q -At -c '\d sales.orders')"
expect "information_schema.schemata" "public
sales" "$(q -At -c "SELECT schema_name FROM information_schema.schemata ORDER BY 1")"
expect "information_schema.tables" "public|t|BASE TABLE
sales|big|VIEW
sales|orders|BASE TABLE" "$(q -At -c "SELECT table_schema, table_name, table_type FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2")"
expect "information_schema.columns" "amount|double precision|2" "$(q -At -c "SELECT column_name, data_type, ordinal_position FROM INFORMATION_SCHEMA.COLUMNS WHERE table_schema = 'sales' AND table_name = 'orders' AND ordinal_position > 1")"
expect "version" "1" "$(q -At -c "SELECT version()" | grep -c 'PostgreSQL 16.0 (lakestream)')"
# A view is headed as one (relkind v); \d+ shows its definition and psql's
# verbose columns (psql reads them by position: too few crashed it).
expect "\\d+ of a view" 'View "sales.big"
id|integer||||plain|
amount|double precision||||plain|
View definition:
SELECT * FROM sales.orders WHERE amount > 10' "$(q -c '\d+ sales.big' | sed -n '1s/^ *//p; s/ *| */|/g; /^ *\(id\|amount\) *|/p; /^View def/,$p' | sed 's/^ //')"
expect "information_schema.views" "sales|big|SELECT * FROM sales.orders WHERE amount > 10" \
  "$(q -At -c "SELECT table_schema, table_name, view_definition FROM information_schema.views")"
expect "information_schema key views: no keys, the columns Postgres has" "0|0" \
  "$(q -At -c "SELECT (SELECT count(*) FROM information_schema.table_constraints), (SELECT count(column_name) FROM information_schema.key_column_usage)")"
# SET search_path moves unqualified names to that schema ("$user" skipped);
# SHOW follows USE too; several schemas or none are refused by name.
expect "search_path" "SET
sales
sales|orders|table|tester" "$(q -At -c 'SET search_path TO "$user", sales' -c "SHOW search_path" -c '\dt')"
expect "search_path of two schemas refused" "0A000" "$(q -v VERBOSITY=verbose -c "SET search_path = public, sales" | sed -n 's/^ERROR:  \([0-9A-Z]*\):.*/\1/p')"
expect "search_path of no schema refused" "3F000" "$(q -v VERBOSITY=verbose -c "SET search_path = nosuch" | sed -n 's/^ERROR:  \([0-9A-Z]*\):.*/\1/p')"

# Cancel: SIGINT makes psql send a CancelRequest; the query stops at once.
START=$(date +%s)
OUT=$(timeout -s INT 1 psql -X -h 127.0.0.1 -p "$PORT" -U tester -d lake -v VERBOSITY=verbose \
      -c "SELECT count(*) FROM range(100000000000)" 2>&1)
ELAPSED=$(( $(date +%s) - START ))
echo "$OUT" | grep -q "ERROR:  57014" || fail "cancel: no 57014 error: $OUT"
[ "$ELAPSED" -lt 10 ] || fail "cancel took ${ELAPSED}s"
expect "session after cancel" "1" "$(q -At -c "SELECT 1")"

# \set FETCH_COUNT: psql reads the result through a cursor (BEGIN, DECLARE _psql_cursor, FETCH FORWARD 2, CLOSE).
expect "FETCH_COUNT through a cursor" "0
1
2
3
4" "$(printf '\\set FETCH_COUNT 2\nSELECT range FROM range(5) ORDER BY range;\n' | q -At)"
expect "FETCH ALL after a MOVE" "MOVE 3
3
4" "$(q -At -c "BEGIN" -c "DECLARE c CURSOR FOR SELECT range FROM range(5) ORDER BY range" -c "MOVE 3 FROM c" -c "FETCH ALL FROM c" -c "COMMIT" | grep -v -e BEGIN -e DECLARE -e COMMIT)"

# Users kept in the database: once one exists, psql logs in with its password (SCRAM-SHA-256).
q -c "CREATE USER pguser WITH PASSWORD 'pg-pw'" >/dev/null
expect "psql login as a database user" "pguser" "$(PGPASSWORD=pg-pw q -At -U pguser -c "SHOW USERS" | cut -d'|' -f1)"
expect "psql wrong password" "1" "$(PGPASSWORD=wrong q -At -U pguser -c "SELECT 1" | grep -c 'password authentication failed for user "pguser"')"
PGPASSWORD=pg-pw q -U pguser -c "DROP USER pguser" >/dev/null
stop

start --readonly
expect "readonly reads" "2" "$(q -At -c "SELECT count(*) FROM t")"
expect "readonly refuses writes" "25006" "$(q -v VERBOSITY=verbose -c "INSERT INTO t VALUES (3, 'c', true, NULL, NULL, NULL, NULL)" | sed -n 's/^ERROR:  \([0-9A-Z]*\):.*/\1/p')"
stop

[ "$FAILS" -eq 0 ] && echo "psql_test: all passed"
exit "$FAILS"
