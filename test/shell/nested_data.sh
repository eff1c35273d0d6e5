#!/usr/bin/env bash
# Shell tests: nested data as a user types it in the shell: a Delta table with
# STRUCT / ARRAY / MAP columns written in one session and read in another,
# field paths, subscripts, lambdas, explode and the JSON path, and the errors
# that name the problem.
# Usage: nested_data.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"

DB=$TMP/db
sql() { run "$BIN" -csv "$DB" -c "$1"; }

sql "CREATE TABLE ev (id INT, s STRUCT<a: INT, b: STRUCT<c: STRING>>, tags ARRAY<STRING>, attrs MAP<STRING, INT>, raw STRING)"
expect "create a table with nested columns" 0 ""
sql "INSERT INTO ev SELECT 1, named_struct('a', 1, 'b', named_struct('c', 'x')), array('p', 'q'), map('k', 7), '{\"u\": {\"v\": [3, 4]}}'"
expect "insert nested values" 0 $'num_affected_rows\n1\n'
sql "INSERT INTO ev VALUES (2, NULL, NULL, NULL, NULL)"
expect "insert NULLs" 0 $'num_affected_rows\n1\n'

# a new process reads what the first one wrote
sql "SELECT id, s.a, ev.s.b.c, tags[0], element_at(tags, -1), attrs['k'], size(tags), raw:u.v[1] FROM ev ORDER BY id"
expect "field paths, subscripts, size and the JSON path" 0 $'id,a,c,tags[0],"element_at(tags, -1)",attrs[\'k\'],size(tags),"get_json_object(raw, \'$.u.v[1]\')"\n1,1,x,p,q,7,2,4\n2,,,,,,-1,\n'

sql "SELECT id, transform(tags, t -> upper(t) || id) AS up FROM ev ORDER BY id"
expect "a lambda reading another column" 0 $'id,up\n1,"[\'P1\', \'Q1\']"\n2,\n'

sql "SELECT id, explode(tags) AS tag FROM ev ORDER BY tag"
expect "explode in the select list" 0 $'id,tag\n1,p\n1,q\n'

sql "SELECT s.nope FROM ev"
expect_err "a missing field names the struct's fields" 1 'No field named "nope"' 'its fields are a, b'

sql "SELECT tags.x FROM ev"
expect_err "field access on an array says what it is" 1 'Cannot read field "x"' 'not a STRUCT or MAP'

sql "SELECT element_at(tags, 0) FROM ev"
expect_err "element_at 0 says indexes start at 1" 1 'SQL array indices start at 1'

finish
