-- The medallion demo pipeline: order events land as JSON files in landing/;
-- `lakestream run pipeline.sql` keeps bronze, silver and gold up to date and
-- delivers gold's changes to Kafka and to a JSON-lines file, each once.
-- Relative paths resolve against this file's directory.

-- Bronze: the raw events, every landing file ingested exactly once. The
-- schema is inferred from the first files (with two hints); fields that do not
-- fit it are kept in _rescued_data instead of failing the run.
CREATE OR REFRESH STREAMING TABLE bronze_orders
COMMENT 'raw order events from landing/'
AS SELECT * FROM read_files('landing/', format => 'json',
                            schemaHints => 'amount DECIMAL(10,2), event_time TIMESTAMP',
                            rescue => true);

-- Silver, in two steps. First the events cleaned and typed (an append-only
-- streaming table: every event, in arrival order). The expectation drops
-- events without an order id or with a negative amount and counts them per
-- run in the event log (SELECT * FROM event_log).
CREATE OR REFRESH STREAMING TABLE orders_cleaned (
  CONSTRAINT valid_order EXPECT (order_id IS NOT NULL AND amount >= 0) ON VIOLATION DROP ROW
)
COMMENT 'order events, cleaned and typed'
AS SELECT order_id, trim(customer) AS customer, lower(category) AS category, amount,
          lower(status) AS status, event_time
   FROM STREAM(LIVE.bronze_orders);

-- Then one row per order: APPLY CHANGES upserts each event by order_id in
-- event_time order, so a late or repeated event changes nothing
-- (docs/apply-changes.md).
CREATE OR REFRESH STREAMING TABLE silver_orders (
  order_id BIGINT NOT NULL,
  customer STRING,
  category STRING,
  amount DECIMAL(10,2),
  status STRING,
  event_time TIMESTAMP)
COMMENT 'one row per order, the newest event wins';

APPLY CHANGES INTO LIVE.silver_orders
FROM STREAM(LIVE.orders_cleaned)
KEYS (order_id)
SEQUENCE BY event_time
STORED AS SCD TYPE 1;

-- Gold: total amount and count of live orders per category, maintained
-- incrementally; its change feed holds only categories that changed.
-- 'manual': the pipeline refreshes it in its place in the flow order.
CREATE OR REFRESH MATERIALIZED VIEW gold_category_totals
TBLPROPERTIES ('refresh' = 'manual') AS
SELECT category, SUM(amount) AS total_amount, COUNT(*) AS order_count
FROM LIVE.silver_orders
WHERE status <> 'cancelled'
GROUP BY category;

-- Sinks run last: gold's changes to Kafka (upsert: key = category) and to a
-- JSON-lines file, starting with gold's first rows ('start' = 'earliest').
CREATE SINK gold_to_kafka FROM gold_category_totals INTO KAFKA WITH (
  'bootstrap.servers' = 'localhost:9092',
  'topic' = 'gold_category_totals',
  'format' = 'upsert',
  'key' = 'category',
  'start' = 'earliest');

CREATE SINK gold_to_file FROM gold_category_totals INTO FILE 'out/gold_changes.jsonl' WITH (
  'format' = 'upsert',
  'key' = 'category',
  'start' = 'earliest');
