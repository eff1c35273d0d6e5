# TPC-H answers (docs/benchmarks.md, "TPC-H"): the 22 queries of bench/tpch
# on generated SF 0.1 data, lakestream's answers against DuckDB's, with the
# known failures of test/tpch/expected_failures.txt checked to still fail.
# Label `tpch`; skipped (77) when node or @duckdb/node-api is missing.
# (bench/ is added after test/: the target exists by generation time.)
if(LAKESTREAM_PYTHON3 AND EXISTS ${PROJECT_SOURCE_DIR}/bench/tpch/tpch_bench.cpp)
  add_test(NAME tpch/answers
    COMMAND ${LAKESTREAM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tpch/tpch_answers_test.py
            --bench-bin $<TARGET_FILE:lakestream_bench_tpch> --sf 0.1 --timeout 20
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(tpch/answers PROPERTIES LABELS tpch SKIP_RETURN_CODE 77 TIMEOUT 400)
endif()
