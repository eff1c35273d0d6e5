# Randomized crash soak (issue 14): a mixed workload (DML with change data
# feed, a stream consumed by MERGE, an auto-refreshed view, FILE sinks)
# SIGKILLed at random points; every invariant checked after each restart.
# ctest runs a short soak; the long run (500 kills) is in docs/ci.md.
if(LAKESTREAM_PYTHON3)
  add_test(NAME integration/crash_soak
    COMMAND ${LAKESTREAM_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/soak_test.py
            --shell $<TARGET_FILE:lakestream> --writer $<TARGET_FILE:lakestream_crash_writer> --kills 30
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(integration/crash_soak PROPERTIES LABELS integration TIMEOUT 600)
endif()
