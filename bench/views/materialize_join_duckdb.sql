-- DuckDB recomputing the join view: the join of every source row written to a table (what a view without IVM rebuilds).
CREATE OR REPLACE TABLE joined AS SELECT s.id, s.v, d.region FROM src s JOIN dim d ON s.g = d.g;
