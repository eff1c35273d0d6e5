-- Expectations, the event log and full refresh (expectations_test.sh).
CREATE OR REFRESH STREAMING TABLE orders_raw
AS SELECT * FROM STREAM read_files('landing/', format => 'json', schema => 'id BIGINT, amount BIGINT, email STRING');

-- Databricks' documented form: the expectations in the column list, no columns declared.
CREATE OR REFRESH STREAMING TABLE orders (
  CONSTRAINT valid_id EXPECT (id IS NOT NULL) ON VIOLATION DROP ROW,
  CONSTRAINT positive_amount EXPECT (amount > 0),
  CONSTRAINT has_email EXPECT (email LIKE '%@%')
) AS SELECT * FROM STREAM(LIVE.orders_raw);

-- With declared columns; FAIL UPDATE.
CREATE OR REFRESH STREAMING TABLE strict_orders (
  id BIGINT,
  amount BIGINT,
  CONSTRAINT below_limit EXPECT (amount < 1000) ON VIOLATION FAIL UPDATE
) AS SELECT id, amount FROM STREAM(LIVE.orders_raw) WHERE id IS NOT NULL AND amount IS NOT NULL;

-- A materialized view checks its whole result on every update.
CREATE OR REFRESH MATERIALIZED VIEW order_stats (
  CONSTRAINT known_email EXPECT (email IS NOT NULL) ON VIOLATION DROP ROW,
  CONSTRAINT big_order EXPECT (amount >= 10)
) AS SELECT id, amount, email FROM LIVE.orders;

-- Inferred schema: a new field in a later file evolves the table.
CREATE OR REFRESH STREAMING TABLE extras
AS SELECT * FROM STREAM read_files('extras/', format => 'json');

-- A sink of a streaming table: a full refresh of orders delivers it again from its start.
CREATE SINK orders_out FROM orders INTO FILE 'out/orders.jsonl' WITH ('start' = 'earliest');
