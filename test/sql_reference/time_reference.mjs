// Prints DuckDB's answers for the INTERVAL and date-arithmetic queries of
// test/sql/types/interval.test and test/sql/function/date_interval.test, the
// source of their expected values where DuckDB and Spark agree.
//   node test/sql_reference/time_reference.mjs     (DuckDB from bench/node_modules)
// DuckDB spells some things differently; each query here is the DuckDB form:
// INTERVAL (-1) DAY for INTERVAL -1 DAY, and DATE results are cast back from
// DuckDB's TIMESTAMP (lakestream keeps DATE, as Spark; see docs/sql-time.md).
import { createRequire } from 'module';
import path from 'path';
import url from 'url';

const here = path.dirname(url.fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const paths = [path.join(here, '../../bench'), process.cwd() + '/bench', process.cwd()];
const duck = await import(require.resolve('@duckdb/node-api', { paths }));

const queries = [
  "SELECT INTERVAL 1 MONTH, INTERVAL '2' DAY, INTERVAL '1 day 2 hours', INTERVAL '1' YEAR, INTERVAL 3 HOURS, INTERVAL '-1' DAY, INTERVAL '1.5 seconds', INTERVAL '-13' MONTH",
  "SELECT INTERVAL '14 months', INTERVAL '-1 day -2 hours', INTERVAL '2 weeks', INTERVAL '500 milliseconds', INTERVAL '1 hour 30 minutes'",
  "SELECT INTERVAL (-1) DAY, INTERVAL (-3) HOURS, INTERVAL 0 DAY",
  "SELECT CAST(INTERVAL '1 day 2 hours' AS VARCHAR), CAST('3 days' AS INTERVAL), CAST('1 year 2 months 3 days 04:05:06.5' AS INTERVAL)",
  "SELECT INTERVAL '1 month' = INTERVAL '30 days', INTERVAL '1 day' < INTERVAL '25 hours', INTERVAL '1 year' > INTERVAL '360 days', INTERVAL 2 DAY > '1 day'",
  "WITH iv AS (SELECT * FROM (VALUES (1, INTERVAL '1 day'), (2, INTERVAL '24 hours'), (3, INTERVAL '1 month'), (4, INTERVAL '30 days'), (5, CAST(NULL AS INTERVAL))) v(id, i)) SELECT count(*) FROM (SELECT i FROM iv GROUP BY i)",
  "SELECT min(i), max(i) FROM (VALUES (INTERVAL '1 day'), (INTERVAL '25 hours'), (INTERVAL '-1 month')) v(i)",
  "WITH iv AS (SELECT * FROM (VALUES (1, INTERVAL '1 day'), (2, INTERVAL '24 hours'), (3, INTERVAL '1 month'), (4, INTERVAL '30 days'), (5, CAST(NULL AS INTERVAL))) v(id, i)) SELECT id FROM iv ORDER BY i DESC NULLS LAST, id",
  "SELECT INTERVAL 1 DAY * 3, 3 * INTERVAL 1 MONTH, -INTERVAL '1 day 2 hours', INTERVAL 1 DAY + INTERVAL 2 HOURS, INTERVAL 1 MONTH - INTERVAL 1 DAY",
  "SELECT TIMESTAMP '2024-01-31 10:00:00' + INTERVAL 1 MONTH, TIMESTAMP '2024-03-31 10:00:00' - INTERVAL 1 MONTH, TIMESTAMP '2024-02-29 00:00:00' + INTERVAL 1 YEAR, TIMESTAMP '2024-01-01 23:30:00' + INTERVAL '1 day 2 hours'",
  "SELECT CAST(DATE '2024-01-31' + INTERVAL 1 MONTH AS DATE), CAST(DATE '2023-01-31' + INTERVAL 1 MONTH AS DATE), CAST(DATE '2024-03-01' - INTERVAL 1 DAY AS DATE), CAST(DATE '2024-02-29' + INTERVAL 1 YEAR AS DATE)",
  "SELECT DATE '2024-01-31' + INTERVAL 3 HOURS",
  "SELECT TIMESTAMP '2024-01-01 00:00:00' + INTERVAL '1 day 1 hour' * 2",
  "SELECT INTERVAL 1 MONTH + TIMESTAMP '2024-01-31 08:00:00', CAST(DATE '2024-03-31' + INTERVAL (-1) MONTH AS DATE)",
  "SELECT TIMESTAMP '2024-01-03 01:00:00' - TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-01' - TIMESTAMP '2024-01-03 01:00:00', TIMESTAMP '2024-01-01 10:00' - TIMESTAMP '2024-01-01 10:00'",
  "SELECT TIMESTAMP '2024-01-31 12:00:00' + INTERVAL 1 MONTH, CAST(DATE '2024-01-31' - INTERVAL '1' YEAR AS DATE), TIMESTAMP '2023-12-31 23:59:59' + INTERVAL 1 MONTH, CAST(DATE '2023-12-31' - INTERVAL '1' YEAR AS DATE)",
  "SELECT TIMESTAMP '2024-01-31 12:00:00' - TIMESTAMP '2023-12-31 00:00:00', TIMESTAMP '2023-12-31 23:59:59' - TIMESTAMP '2023-12-31 00:00:00', TIMESTAMP '2024-01-31 12:00:00' - TIMESTAMP '2023-12-31 23:59:59'",
];

const inst = await duck.DuckDBInstance.create(':memory:');
const con = await inst.connect();
for (const q of queries) {
  const r = await con.runAndReadAll(q);
  const rows = r.getRows().map((row) => row.map((v) => (v === null ? 'NULL' : String(v))).join('\t'));
  console.log(q + '\n----\n' + rows.join('\n') + '\n');
}
