-- The join view's query at its least: the join of every source row (its rows summed, not written out),
-- a lower bound of what recomputing the view costs.
SELECT d.region, COUNT(*) AS n, SUM(s.v) AS total FROM src s JOIN dim d ON s.g = d.g GROUP BY d.region ORDER BY d.region;
