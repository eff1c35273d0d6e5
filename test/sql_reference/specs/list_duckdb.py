# The row(...) record at the end of list_duckdb.test is written by hand
# (DuckDB names no fields): keep it when regenerating.
NAME = 'test/sql/function/list_duckdb.test'
DESCRIPTION = "DuckDB's list_* functions (list_functions.cpp) with DuckDB's NULL rules: list_aggregate and list_sum/avg/min/max/count, list_sort, list_distinct/unique, list_contains, list_position, list_concat, list_slice, len/array_length, range/generate_series, array_to_string; expected results checked against DuckDB"
GROUP = 'function'
SETUP = [
 'CREATE TABLE l (id INT, xs INT[])',
 "INSERT INTO l VALUES (1, [3, NULL, 1]), (2, CAST(list_value() AS INT[])), (3, NULL), (4, [2, 2, 5])",
]
CASES = [
 ('IIRII', "SELECT id, list_sum(xs), list_avg(xs), list_min(xs), list_max(xs) FROM l ORDER BY id"),
 ('II', "SELECT id, list_count(xs) FROM l ORDER BY id"),
 ('RR', "SELECT list_sum([1.5, 2.5]), list_sum([1.5::DOUBLE, 2.5])"),
 ('T', "SELECT list_max(['a', 'b'])"),
 ('IIT', "SELECT list_aggregate([1, 2, 3], 'max'), list_aggregate([1, 2], 'count'), list_aggregate(['a', 'b'], 'string_agg', '-')"),
 ('IR', "SELECT list_aggr([1, 2, 3], 'sum'), list_aggregate([2, 3], 'product')"),
 ('II', "SELECT list_first([1, 2]), list_last([1, 2])"),
 ('B', "SELECT list_bool_and([true, false])"),
 ('error', "SELECT list_aggregate([1], 'kurtosis_x')", "list_aggregate"),
 ('T', "SELECT CAST(list_sort([3, NULL, 1]) AS VARCHAR)"),
 ('T', "SELECT CAST(list_sort([3, NULL, 1], 'DESC') AS VARCHAR)"),
 ('T', "SELECT CAST(list_sort([3, NULL, 1], 'ASC', 'NULLS FIRST') AS VARCHAR)"),
 ('T', "SELECT CAST(list_reverse_sort([3, NULL, 1]) AS VARCHAR)"),
 ('IT', "SELECT id, CAST(list_sort(xs) AS VARCHAR) FROM l ORDER BY id"),
 ('T', "SELECT CAST(list_sort(list_distinct([1, NULL, 1, 2])) AS VARCHAR)"),
 ('II', "SELECT id, list_unique(xs) FROM l ORDER BY id"),
 ('BB', "SELECT list_contains([1, NULL], 2), list_has([1, 2], 1)"),
 ('B', "SELECT list_contains([1, NULL], NULL)"),
 ('IB', "SELECT id, list_contains(xs, 2) FROM l ORDER BY id"),
 ('II', "SELECT list_position([1, NULL, 2], NULL), list_position([1, 2], 2)"),
 ('I', "SELECT list_position([1, 2], 5)"),
 ('II', "SELECT id, list_position(xs, 1) FROM l ORDER BY id"),
 ('TT', "SELECT CAST(list_concat([1], NULL) AS VARCHAR), CAST(list_concat(NULL, [2]) AS VARCHAR)"),
 ('T', "SELECT CAST(list_cat([1, 2], [3]) AS VARCHAR)"),
 ('TTT', "SELECT CAST(list_slice([1,2,3,4], 2, 3) AS VARCHAR), CAST(list_slice([1,2,3,4], -2, -1) AS VARCHAR), CAST(list_slice([1,2,3,4], 0, 2) AS VARCHAR)"),
 ('III', "SELECT id, len(xs), array_length(xs) FROM l ORDER BY id"),
 ('II', "SELECT len(CAST(list_value() AS INT[])), len('abc')"),
 ('TT', "SELECT CAST(generate_series(1, 10, 3) AS VARCHAR), CAST(generate_series(3, 1) AS VARCHAR)"),
 ('TTT', "SELECT CAST(range(3) AS VARCHAR), CAST(range(1, 4) AS VARCHAR), CAST(range(5, 1, -2) AS VARCHAR)"),
 ('TTT', "SELECT array_to_string([1, NULL, 3], '-'), array_to_string(CAST(list_value() AS INT[]), '-'), array_to_string(['a', 'b'], ', ')"),
 ('BB', "SELECT list_has_any([1, 2], [2, 3]), list_has_all([1, 2], [2, 3])"),
 ('comment', 'list_reduce is aggregate(l, start, merge); without a start it folds from the first element'),
 ('IIT', "SELECT list_reduce([1, 2, 3], (x, y) -> x * y), list_reduce([1, 2, 3], (acc, x) -> acc + x, 10), list_reduce(['a', 'b', 'c'], (x, y) -> x || y)"),
 ('II', "SELECT id, list_reduce(xs, (x, y) -> x + y) FROM l WHERE id <> 2 ORDER BY id"),
 ('II', "SELECT id, list_reduce(xs, (acc, x) -> acc + coalesce(x, 0), 100) FROM l ORDER BY id"),
]
