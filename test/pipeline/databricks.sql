-- A pipeline written as Databricks documents it (test/pipeline/databricks_test.sh):
-- double-quoted COMMENT / TBLPROPERTIES / option values, STREAM forms,
-- LIVE TABLE, TEMPORARY LIVE VIEW, append flows into one streaming table,
-- and parameters (${...}) from SET and --conf.
SET min_amount = 20;

CREATE OR REFRESH STREAMING TABLE raw_orders
COMMENT "Orders as they land"
TBLPROPERTIES ("quality" = "bronze", "delta.appendOnly" = "true")
AS SELECT * FROM STREAM read_files('${landing}/', format => "json", schema => "id BIGINT, grp STRING, amount BIGINT, seq BIGINT");

CREATE OR REFRESH STREAMING TABLE raw_returns
AS SELECT * FROM STREAM read_files("returns/", format => 'json', schema => 'id BIGINT, grp STRING, amount BIGINT, seq BIGINT');

CREATE TEMPORARY LIVE VIEW big_orders_v
AS SELECT id, grp, amount FROM LIVE.raw_orders WHERE amount >= ${min_amount};

CREATE OR REFRESH LIVE TABLE deal_gold1
TBLPROPERTIES ("quality" = "gold")
COMMENT "Gold Deals"
AS SELECT grp, count(*) AS n, sum(amount) AS total FROM LIVE.big_orders_v GROUP BY grp;

CREATE OR REFRESH STREAMING TABLE all_events;

CREATE FLOW orders_flow
AS INSERT INTO all_events BY NAME
SELECT id, amount, 'order' AS kind FROM STREAM(LIVE.raw_orders);

CREATE FLOW returns_flow
AS INSERT INTO all_events BY NAME
SELECT id, amount, 'return' AS kind FROM STREAM LIVE.raw_returns;

CREATE OR REFRESH MATERIALIZED VIEW event_counts
AS SELECT kind, count(*) AS n FROM LIVE.all_events GROUP BY kind;
