# The setseed records at the end of math_duckdb.test are written by hand (a
# sequence of statements): keep them when regenerating.
NAME = 'test/sql/function/math_duckdb.test'
DESCRIPTION = "DuckDB's numeric functions (math_more.cpp): trigonometry, cbrt, gcd/lcm, factorial, even, bit_count, xor, isnan/isinf/isfinite, trunc(x), random/setseed; expected results checked against DuckDB"
GROUP = 'function'
SETUP = [
 'CREATE TABLE n (id INT, x DOUBLE, i INT)',
 "INSERT INTO n VALUES (1, 0.5, 4), (2, -2.7, -6), (3, NULL, NULL), (4, 0.0, 0)",
]
CASES = [
 ('RRRR', "SELECT sin(0), cos(0), tan(0), atan(1)"),
 ('RRR', "SELECT acos(0.5), asin(1), cot(1)"),
 ('RRR', "SELECT atan2(1, 1), degrees(1), radians(1)"),
 ('R', "SELECT degrees(pi())"),
 ('IRRR', "SELECT id, sin(x), cos(x), atan2(x, 1) FROM n ORDER BY id"),
 ('error', "SELECT asin(2)", "between -1 and 1"),
 ('error', "SELECT cot(0)", "non-zero"),
 ('RR', "SELECT cbrt(8), cbrt(27.0)"),
 ('IIII', "SELECT gcd(4, 6), gcd(0, 0), gcd(-4, 6), lcm(4, 6)"),
 ('II', "SELECT lcm(0, 5), lcm(-4, 6)"),
 ('III', "SELECT id, gcd(i, 10), lcm(i, 10) FROM n ORDER BY id"),
 ('III', "SELECT factorial(0), factorial(4), factorial(20)"),
 ('error', "SELECT factorial(-1)", "negative"),
 ('RRR', "SELECT even(3), even(-2.5), even(2)"),
 ('III', "SELECT bit_count(7), bit_count(-1), bit_count(7::BIGINT)"),
 ('II', "SELECT xor(1, 2), xor(5, 3)"),
 ('BBB', "SELECT isnan('nan'::DOUBLE), isinf('-inf'::DOUBLE), isfinite('inf'::DOUBLE)"),
 ('BBB', "SELECT isnan(1), isinf(1.0), isfinite(1.0)"),
 ('IBBB', "SELECT id, isnan(x), isinf(x), isfinite(x) FROM n ORDER BY id"),
 ('RRR', "SELECT trunc(1.5), trunc(-1.55), trunc(12.345::DECIMAL(10,3))"),
 ('RI', "SELECT trunc(-2.7::DOUBLE), trunc(5)"),
 ('T', "SELECT typeof(trunc(12.345::DECIMAL(10,3)))"),
 ('IR', "SELECT id, trunc(x) FROM n ORDER BY id"),
 ('B', "SELECT random() >= 0 AND random() < 1"),
 ('I', "SELECT count(DISTINCT r) FROM (SELECT random() AS r FROM range(100))"),
]
