-- The join view recomputed in full: the join of every source row, diffed against the N rows the view holds.
REFRESH MATERIALIZED VIEW joined FULL;
