#!/usr/bin/env bash
# Shell tests: quantified comparisons (x > ALL (SELECT ...), x = ANY, SOME)
# and correlated subqueries in UPDATE / DELETE as a user types them, the
# rows they leave in a table on disk, and the errors for what is still refused
# (docs/sql-joins-subqueries.md).
# Usage: quantified_subqueries.sh PATH/TO/lakestream
set -euo pipefail
source "$(dirname "$0")/lib.sh"
DB="$TMP/db"

expect_sql "create prices" "CREATE TABLE prices (id INT, p INT); INSERT INTO prices VALUES (1, 10), (2, 20), (3, NULL)" \
  $'num_affected_rows\n3'
expect_sql "create bids" "CREATE TABLE bids (id INT, b INT); INSERT INTO bids VALUES (1, 5), (1, 12), (2, 25), (3, 1)" \
  $'num_affected_rows\n4'
# 10 >= 5 for id 1; 20 < 25 for id 2; a NULL price compares as NULL (dropped).
expect_sql "correlated >= ANY in WHERE" \
  "SELECT id FROM prices WHERE p >= ANY (SELECT b FROM bids WHERE bids.id = prices.id) ORDER BY id" $'id\n1'
expect_sql "SOME is ANY" \
  "SELECT id FROM prices WHERE p >= SOME (SELECT b FROM bids WHERE bids.id = prices.id) ORDER BY id" $'id\n1'
# The highest bid is 25: no price is above all bids; NULL stays NULL (an empty CSV field).
expect_sql "uncorrelated > ALL in SELECT" \
  "SELECT id, p > ALL (SELECT b FROM bids) AS top, p < ALL (SELECT b FROM bids WHERE b > 11) AS under FROM prices ORDER BY id" \
  $'id,top,under\n1,false,true\n2,false,false\n3,,'
expect_sql "ALL over a NULL is NULL, over no rows true" \
  "SELECT 1 > ALL (SELECT NULL) AS a, 1 > ALL (SELECT 2 WHERE false) AS b, 1 = ANY (SELECT 2 WHERE false) AS c" \
  $'a,b,c\n,true,false'
expect_sql "DELETE ... WHERE NOT EXISTS (correlated)" \
  "DELETE FROM bids WHERE NOT EXISTS (SELECT 1 FROM prices WHERE prices.id = bids.id AND prices.p IS NOT NULL)" \
  $'num_affected_rows\n1'
expect_sql "UPDATE ... SET (correlated) WHERE < ANY (correlated)" \
  "UPDATE prices SET p = (SELECT max(b) FROM bids WHERE bids.id = prices.id) WHERE p < ANY (SELECT b FROM bids WHERE bids.id = prices.id)" \
  $'num_affected_rows\n2'
expect_sql "the rows the DML left" "SELECT id, p FROM prices ORDER BY id; SELECT id, b FROM bids ORDER BY id, b" \
  $'id,p\n1,12\n2,25\n3,\nid,b\n1,5\n1,12\n2,25'
refused_sql "ALL over a list" "SELECT p > ALL (1, 2) FROM prices" \
  "not supported yet: a comparison with ALL over a list or an array; ALL takes a subquery"
refused_sql "ANY over an array" "SELECT 1 = ANY (array(1, 2)) AS a" \
  "not supported yet: a comparison with ANY/SOME over a list or an array"
refused_sql "SOME over a list" "SELECT p = SOME (1, 2) FROM prices" \
  "not supported yet: a comparison with ANY/SOME over a list or an array"
expect_sql "any(bool) is still the bool_or aggregate" "SELECT any(p > 15) AS a, true = some(p > 15) AS b FROM prices" \
  $'a,b\ntrue,true'
refused_sql "an outer join's ON reading both sides in one subquery" \
  "SELECT * FROM prices LEFT JOIN bids ON EXISTS (SELECT 1 FROM bids b2 WHERE b2.id = prices.id AND b2.b > bids.b)" \
  "not supported yet: a correlated subquery in an outer join's ON condition that reads columns of both sides"
refused_sql "ANY over a column of another type" "SELECT p > ANY (SELECT DATE '2024-01-01') FROM prices" \
  "Cannot compare INTEGER with subquery column of type DATE in > ANY (subquery); cast one side explicitly"
expect_sql "the tables are unchanged by the refused statements" "SELECT count(*) AS n FROM prices, bids" $'n\n9'
finish
