NAME = 'test/sql/function/aggregate_duckdb.test'
DESCRIPTION = ("DuckDB's statistical aggregates (statistics.cpp, regression.cpp, bitwise.cpp, frequency.cpp): kurtosis, "
               "kurtosis_pop, skewness, product, fsum/sumkahan, corr, covar_pop/samp, regr_*, bit_and/bit_or/bit_xor, "
               "mode, histogram, entropy; grouped, ungrouped, over NULLs and empty input; expected results checked "
               "against DuckDB")
GROUP = 'function'
SETUP = [
 'CREATE TABLE t (g INT, x INT, y DOUBLE, k INT, s VARCHAR)',
 "INSERT INTO t VALUES (1, 1, 2.0, 1, 'a'), (1, 2, 4.5, 2, 'b'), (1, 3, 5.0, 3, 'b'), (1, NULL, 7.0, 4, NULL), "
 "(2, 5, NULL, 2, 'c'), (2, 6, 1.0, 2, 'a'), (2, 7, 3.0, 2, 'c'), (3, NULL, NULL, NULL, NULL)",
]
CASES = [
 ('comment', 'Regression: rows where y or x is NULL do not count; a group without rows gives NULL (regr_count 0).'),
 ('IRRRRRR', "SELECT g, corr(y, x), covar_pop(y, x), covar_samp(y, x), regr_slope(y, x), regr_intercept(y, x), "
             "regr_r2(y, x) FROM t GROUP BY g ORDER BY g"),
 ('IIRRRRR', "SELECT g, regr_count(y, x), regr_avgx(y, x), regr_avgy(y, x), regr_sxx(y, x), regr_syy(y, x), "
             "regr_sxy(y, x) FROM t GROUP BY g ORDER BY g"),
 ('RRRI', "SELECT corr(y, x), covar_samp(y, x), regr_slope(y, x), regr_count(y, x) FROM t"),
 ('RRII', "SELECT corr(y, x), regr_avgx(y, x), regr_count(y, x), count(*) FROM t WHERE g = 99"),
 ('comment', 'A constant x: slope NaN (0 / 0), r2 NULL; a constant y: r2 1; one row: covar_samp NULL, corr NaN.'),
 ('BRB', "SELECT isnan(corr(y, x)), regr_r2(y, x), isnan(regr_slope(y, x)) FROM (VALUES (1.0, 2.0), (1.0, 3.0), (1.0, 4.0)) v(x, y)"),
 ('BRRR', "SELECT isnan(corr(y, x)), regr_r2(y, x), regr_slope(y, x), regr_intercept(y, x) FROM (VALUES (1.0, 2.0), (2.0, 2.0), (3.0, 2.0)) v(x, y)"),
 ('RB', "SELECT covar_samp(y, x), isnan(corr(y, x)) FROM (VALUES (1.0, 2.0)) v(x, y)"),
 ('RR', "SELECT corr(a, b), covar_pop(a::BIGINT, b) FROM (VALUES (1, 10.5), (2, 9.25), (4, 3.0), (8, -1.0)) v(a, b)"),
 ('comment', 'Moments: kurtosis needs four rows, kurtosis_pop two, skewness three; constant values give NULL (skewness NaN).'),
 ('IRRRRR', "SELECT g, kurtosis(y), kurtosis_pop(y), skewness(y), product(y), fsum(y) FROM t GROUP BY g ORDER BY g"),
 ('RRR', "SELECT kurtosis(x), kurtosis_pop(x), skewness(x) FROM (VALUES (1.0), (2.0), (3.0)) v(x)"),
 ('RRR', "SELECT kurtosis(x), kurtosis_pop(x), skewness(x) FROM (VALUES (1.0), (2.0)) v(x)"),
 ('RRB', "SELECT kurtosis(x), kurtosis_pop(x), isnan(skewness(x)) FROM (VALUES (1.0), (1.0), (1.0), (1.0)) v(x)"),
 ('RRR', "SELECT kurtosis(x), skewness(x), kurtosis_pop(x) FROM (VALUES (1), (2), (2), (3), (10), (-4)) v(x)"),
 ('RRR', "SELECT product(x), fsum(x), sum(x) FROM (VALUES (1e20), (1.0), (-1e20)) v(x)"),
 ('RRR', "SELECT sumkahan(x), kahan_sum(x), product(x) FROM (VALUES (0.1), (0.2), (0.3), (NULL)) v(x)"),
 ('R', "SELECT product(x) FROM (VALUES (2::DECIMAL(10,2)), (3.5)) v(x)"),
 ('RR', "SELECT product(x), fsum(x) FROM t WHERE g = 3"),
 ('comment', 'bit_and/bit_or/bit_xor keep the argument type; NULL for no values.'),
 ('IIII', "SELECT g, bit_and(k), bit_or(k), bit_xor(k) FROM t GROUP BY g ORDER BY g"),
 ('III', "SELECT bit_and(x), bit_or(x), bit_xor(x) FROM (VALUES (-1::BIGINT), (6::BIGINT), (12::BIGINT)) v(x)"),
 ('TTT', "SELECT typeof(bit_and(k)), typeof(bit_or(k::BIGINT)), typeof(product(k)) FROM t"),
 ('comment', 'mode: the most frequent value, the first to arrive on a tie; entropy of no values is 0.'),
 ('IIRT', "SELECT g, mode(k), entropy(k), mode(s) FROM t GROUP BY g ORDER BY g"),
 ('I', "SELECT mode(x) FROM (VALUES (3), (1), (1), (3), (2)) v(x)"),
 ('I', "SELECT mode(x) FROM (VALUES (1), (3), (3), (1), (2)) v(x)"),
 ('TRR', "SELECT mode(s), entropy(s), entropy(x) FROM t"),
 ('R', "SELECT entropy(x) FROM (VALUES (1), (1), (1)) v(x)"),
 ('II', "SELECT mode(DISTINCT x), count(DISTINCT x) FROM (VALUES (2), (2), (3)) v(x)"),
 ('comment', 'histogram: a MAP from each value to its count (BIGINT here, UBIGINT in DuckDB); NULL for no values.'),
 ('IIII', "SELECT g, cardinality(histogram(k)), histogram(k)[2], histogram(k)[4] FROM t WHERE g < 3 GROUP BY g ORDER BY g"),
 ('IIIT', "SELECT cardinality(histogram(s)), histogram(s)['b'], histogram(s)['z'], array_to_string(map_keys(histogram(s)), ',') FROM t"),
 ('I', "SELECT histogram(d)[DATE '2024-01-02'] FROM (VALUES (DATE '2024-01-02'), (DATE '2024-01-01'), (DATE '2024-01-02')) v(d)"),
 ('B', "SELECT histogram(x) IS NULL FROM t WHERE g = 3"),
 ('comment', 'As window functions: running frames, sliding frames, whole partitions.'),
 ('IBRI', "SELECT x, isnan(corr(x, x) OVER (ORDER BY x)), stddev_pop(x) OVER (ORDER BY x), mode(x) OVER (ORDER BY x) "
          "FROM (VALUES (1.0), (2.0), (4.0)) v(x) ORDER BY x"),
 ('IIIIR', "SELECT g, k, regr_count(y, x) OVER (PARTITION BY g ORDER BY k), bit_or(k) OVER (PARTITION BY g), "
           "kurtosis_pop(y) OVER (PARTITION BY g ORDER BY k ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t ORDER BY g, k"),
 ('IIT', "SELECT g, k, string_agg(s, '/') OVER (PARTITION BY g ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) "
         "FROM t WHERE g = 1 ORDER BY k"),
 ('IIRI', "SELECT g, k, median(k) OVER (PARTITION BY g), histogram(k) OVER (ORDER BY g, k)[2] FROM t ORDER BY g, k"),
 ('IRR', "SELECT k, quantile_cont(k, 0.25) OVER (ORDER BY k ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), "
         "product(k) OVER (ORDER BY k ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM t WHERE g = 1 ORDER BY k"),
 ('comment', 'Errors name the function and what it takes.'),
 ('error', "SELECT corr(y) FROM t", "corr accepts two numeric arguments"),
 ('error', "SELECT bit_and(y) FROM t", "bit_and accepts one INTEGER or BIGINT argument"),
 ('error', "SELECT kurtosis(s) FROM t", "kurtosis accepts one numeric argument"),
 ('error', "SELECT corr(DISTINCT y, x) FROM t", "not supported yet"),
]
