NAME = 'test/sql/function/map_duckdb.test'
DESCRIPTION = ("DuckDB's map forms (nested_access.cpp, parse_nested.cpp): MAP {k: v} literals with scalar and list keys, "
               "map_from_entries, map_extract, map_contains, and the ambiguous map(LIST, LIST); expected results "
               "checked against DuckDB")
GROUP = 'function'
SETUP = [
 'CREATE TABLE e (id INT, k VARCHAR, v INT)',
 "INSERT INTO e VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', NULL)",
]
CASES = [
 ('ITI', "SELECT cardinality(MAP {'a': 1, 'b': 2}), array_to_string(map_keys(MAP {'a': 1, 'b': 2}), ','), MAP {'a': 1, 'b': 2}['b']"),
 ('TI', "SELECT MAP {[1, 2]: 'a', [3]: 'b'}[[1, 2]], cardinality(MAP {[1, 2]: 'a', [3]: 'b'})"),
 ('TT', "SELECT array_to_string(MAP {'k': [1, 2]}['k'], '-'), MAP {1: {'x': 'y'}}[1].x"),
 ('I', "SELECT cardinality(MAP {})"),
 ('IIT', "SELECT cardinality(map_from_entries([('a', 1), ('b', 2)])), map_from_entries([('a', 1), ('b', 2)])['b'], "
          "map_from_entries([{'k': 1, 'v': 'x'}])[1]"),
 ('BI', "SELECT map_from_entries(NULL) IS NULL, map_from_entries([('a', NULL::INT)])['a']"),
 ('error', "SELECT map_from_entries([('a', 1), ('a', 2)])", "duplicate map key"),
 ('error', "SELECT map_from_entries([(NULL, 1)])", "cannot be NULL"),
 ('TIBB', "SELECT array_to_string(map_extract(MAP {'x': 1}, 'x'), ','), len(map_extract(MAP {'x': 1}, 'y')), map_contains(MAP {'x': 1}, 'x'), "
          "map_contains(MAP {'x': 1}, 'y')"),
 ('ITI', "SELECT id, array_to_string(map_keys(map_from_entries([(k, v)])), ','), map_from_entries([(k, v)])[k] FROM e ORDER BY id"),
 ('comment', "map(LIST, LIST): DuckDB's keys and values, Spark's one entry with a list key; refused, naming both forms."),
 ('error', "SELECT map([1, 2], [3, 4])", "map_from_arrays(keys, values)"),
]
