NAME = 'test/sql/function/json_duckdb.test'
DESCRIPTION = "DuckDB's json extension names (json_more.cpp): json_extract, json_value, json_array_length, json_keys, json_type, json_valid, json_object, json_array; expected results checked against DuckDB"
GROUP = 'function'
SETUP = [
 'CREATE TABLE j (id INT, doc VARCHAR)',
 """INSERT INTO j VALUES (1, '{"a":"x","b":{"c":[1,2,3]}}'), (2, '[1,2]'), (3, NULL), (4, '{}')""",
]
CASES = [
 ('TTT', """SELECT json_extract('{"a":"x"}', '$.a'), json_extract('{"a":{"b":[1,2]}}', '$.a.b[1]'), json_extract('{"a":1}', 'a')"""),
 ('TT', """SELECT json_extract('{"a":1}', '$.z'), json_extract('{"a":null}', '$.a')"""),
 ('T', """SELECT json_extract('{"a":[1,2,3]}', '$.a[#-1]')"""),
 ('IT', "SELECT id, json_extract(doc, '$.b.c') FROM j ORDER BY id"),
 ('error', "SELECT json_extract('not json', '$.a')", "json_extract"),
 ('TT', """SELECT json_value('{"a":"x"}', '$.a'), json_value('{"a":[1]}', '$.a')"""),
 ('II', """SELECT json_array_length('[1,2]'), json_array_length('{"a":1}')"""),
 ('I', """SELECT json_array_length('{"a":[1,2,3]}', '$.a')"""),
 ('II', "SELECT id, json_array_length(doc) FROM j ORDER BY id"),
 ('TT', """SELECT array_to_string(json_keys('{"b":1,"a":2}'), ','), array_to_string(json_keys('[1]'), ',')"""),
 ('IT', "SELECT id, array_to_string(json_keys(doc), ',') FROM j ORDER BY id"),
 ('TTTT', """SELECT json_type('{}'), json_type('[1]'), json_type('"s"'), json_type('true')"""),
 ('TTTT', """SELECT json_type('1'), json_type('-1'), json_type('1.5'), json_type('null')"""),
 ('T', """SELECT json_type('{"a":[1]}', '$.a')"""),
 ('BBB', "SELECT json_valid('{}'), json_valid('x'), json_valid('')"),
 ('B', "SELECT json_valid(NULL)"),
 ('IB', "SELECT id, json_valid(doc) FROM j ORDER BY id"),
 ('TT', "SELECT json_object('a', 1, 'b', 'x', 'c', NULL), json_object()"),
 ('TT', "SELECT json_array(1, 'a', NULL, true), json_array()"),
 ('T', "SELECT json_object('a', [1, 2])"),
 ('IT', "SELECT id, json_object('id', id, 'doc', doc) FROM j ORDER BY id"),
 ('comment', 'many vectors (5000 rows)'),
 ('II', "SELECT sum(json_array_length(json_array(range, range))), sum(list_position(range(10), range % 12)) FROM range(5000)"),
]
