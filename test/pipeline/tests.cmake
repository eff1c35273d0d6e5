# Pipeline runner tests (issue 8): shell scripts driving `lakestream run`.
foreach(name idempotent_test kill_rerun_test continuous_test continuous_wake_test databricks_test apply_changes_test lineage_test streaming_intent_test)
  add_test(NAME pipeline/${name}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/${name}.sh $<TARGET_FILE:lakestream>
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(pipeline/${name} PROPERTIES LABELS integration TIMEOUT 180)
endforeach()

# The demo (`make demo`) runs in CI and checks what it shows.
add_test(NAME pipeline/demo COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/demo ${CMAKE_BINARY_DIR}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(pipeline/demo PROPERTIES LABELS integration TIMEOUT 120 ENVIRONMENT LAKESTREAM_DEMO_REQUIRE_KAFKA=1)

# read_kafka() against the local broker (skipped without kcat).
add_test(NAME pipeline/read_kafka_test
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/read_kafka_test.sh $<TARGET_FILE:lakestream> $<TARGET_FILE:lakestream-mock-kafka>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(pipeline/read_kafka_test PROPERTIES LABELS integration TIMEOUT 120 SKIP_RETURN_CODE 77)

# APPLY CHANGES (SCD type 1 and 2) against a reference model, with SIGKILLs
# between and during runs (a few seconds; LAKESTREAM_APPLY_CHANGES_RUNS /
# LAKESTREAM_APPLY_CHANGES_EVENTS for longer runs).
add_test(NAME pipeline/apply_changes_diff_test
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/apply_changes_diff_test.py --shell $<TARGET_FILE:lakestream>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(pipeline/apply_changes_diff_test PROPERTIES LABELS integration TIMEOUT 300)

# Expectations (metrics against a model of the input, DROP ROW, FAIL UPDATE),
# the event log read back by SQL, and --full-refresh against a fresh run.
add_test(NAME pipeline/expectations_test
         COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/expectations_test.py --shell $<TARGET_FILE:lakestream>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(pipeline/expectations_test PROPERTIES LABELS integration TIMEOUT 180)
