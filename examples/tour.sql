.print
.print == lakestream: a five-minute tour of the SQL engine ==
.print
.print -- 1. Create a table with a primary key and change tracking, and load it.
CREATE TABLE orders (id INT, customer STRING, category STRING, amount DECIMAL(10,2), ordered DATE, PRIMARY KEY (id))
  TBLPROPERTIES ('change_tracking' = 'true');
INSERT INTO orders VALUES
  (1, 'Alice', 'books',  1000.00, DATE '2026-11-01'),
  (2, 'Bob',   'games',  2000.00, DATE '2026-11-02'),
  (3, 'Carol', 'books',   500.00, DATE '2026-11-02'),
  (4, 'Dave',  'garden',  NULL,   DATE '2026-11-03');
SELECT * FROM orders ORDER BY id;
.print
.print -- 2. A gold-style aggregate: totals per category (NULL amounts are ignored by SUM, counted by COUNT(*)).
SELECT category, SUM(amount) AS total_amount, COUNT(*) AS transaction_count, COUNT(amount) AS priced
FROM orders GROUP BY category ORDER BY total_amount DESC NULLS LAST;
.print
.print -- 3. Updates, deletes and MERGE (an upsert with a delete flag).
UPDATE orders SET amount = 1500.00 WHERE id = 1;
DELETE FROM orders WHERE id = 3;
CREATE TABLE changes (id INT, customer STRING, category STRING, amount DECIMAL(10,2), ordered DATE, op STRING);
INSERT INTO changes VALUES (2, 'Bob', 'games', 2100.00, DATE '2026-11-02', 'U'),
                           (4, NULL, NULL, NULL, NULL, 'D'),
                           (5, 'Erin', 'books', 42.50, DATE '2026-11-04', 'I');
MERGE INTO orders t USING changes s ON t.id = s.id
  WHEN MATCHED AND s.op = 'D' THEN DELETE
  WHEN MATCHED THEN UPDATE SET t.amount = s.amount
  WHEN NOT MATCHED THEN INSERT (id, customer, category, amount, ordered)
                        VALUES (s.id, s.customer, s.category, s.amount, s.ordered);
SELECT * FROM orders ORDER BY id;
.print
.print -- 4. Joins, CTEs, CASE and functions.
WITH spend AS (SELECT customer, SUM(amount) AS spent FROM orders GROUP BY customer)
SELECT o.id, upper(o.customer) AS customer, s.spent,
       CASE WHEN s.spent >= 1000 THEN 'gold' ELSE 'regular' END AS tier,
       date_trunc('month', o.ordered) AS month,
       to_json(named_struct('id', o.id, 'amount', o.amount)) AS as_json
FROM orders o JOIN spend s ON o.customer = s.customer
ORDER BY o.id;
.print
.print -- 5. The table is a Delta table: every change above is in its change data feed,
.print --    and every version can be read again (time travel).
SELECT id, customer, amount, _change_type, _commit_version
FROM table_changes('orders', 1) ORDER BY _commit_version, id, _change_type;
SELECT * FROM orders VERSION AS OF 1 ORDER BY id;
DESCRIBE HISTORY orders;
.print
.print -- 6. Errors name the object, the problem and the fix.
.print SELECT amout FROM orders;   ->
