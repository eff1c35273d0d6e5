# SSB and ClickBench answers (docs/benchmarks.md, "SSB and ClickBench"): the
# queries of bench/ssb_clickbench on SSB derived from TPC-H SF 0.05 and 200k
# synthetic hits rows, lakestream's answers against DuckDB's, the known
# failures of test/ssb_clickbench/expected_failures.txt checked to still fail.
# Label `ssb_clickbench`; skipped (77) when node or @duckdb/node-api is missing.
if(LAKESTREAM_PYTHON3 AND EXISTS ${PROJECT_SOURCE_DIR}/bench/tpch/tpch_bench.cpp)
  add_test(NAME ssb_clickbench/answers
    COMMAND ${LAKESTREAM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/ssb_clickbench/answers_test.py
            --bench-bin $<TARGET_FILE:lakestream_bench_tpch> --sf 0.05 --hits 200000 --timeout 20
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(ssb_clickbench/answers PROPERTIES LABELS ssb_clickbench SKIP_RETURN_CODE 77 TIMEOUT 400)
endif()
