# Materialized views (issue 6): differential test and the SIGKILL refresh test.
add_executable(lakestream_ivm_differential ${CMAKE_CURRENT_LIST_DIR}/ivm_differential.cpp)
target_link_libraries(lakestream_ivm_differential PRIVATE lakestream_lib)
# 400 statements per seed under ctest (about 50 s each); the long run is
# 1000 or more per seed by hand (docs/views.md, "Testing").
foreach(seed 7 20240601)
  add_test(NAME integration/ivm_differential_${seed}
    COMMAND lakestream_ivm_differential ${CMAKE_BINARY_DIR}/ivm_differential_${seed}.db 400 ${seed})
  set_tests_properties(integration/ivm_differential_${seed} PROPERTIES LABELS integration TIMEOUT 1800)
endforeach()

# SIGKILL during refreshes, at least 50 times (uses the Delta crash test's writer).
if(LAKESTREAM_PYTHON3)
  add_test(NAME integration/ivm_kill
    COMMAND ${LAKESTREAM_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/view_kill_test.py
            --shell $<TARGET_FILE:lakestream> --writer $<TARGET_FILE:lakestream_crash_writer> --kills 50
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(integration/ivm_kill PROPERTIES LABELS integration TIMEOUT 1800)
endif()

# The one deterministic kill between a source's commit and its views' refresh
# (issue 14): seconds, so it runs with the fast tests too.
if(LAKESTREAM_PYTHON3)
  add_test(NAME integration/ivm_kill_after_source_commit
    COMMAND ${LAKESTREAM_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/view_kill_test.py
            --shell $<TARGET_FILE:lakestream> --writer $<TARGET_FILE:lakestream_crash_writer> --kills 0
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(integration/ivm_kill_after_source_commit PROPERTIES LABELS integration TIMEOUT 120)
endif()

# A catch-up by another process's statement while a writer refreshes the view
# (pause points; seconds).
if(LAKESTREAM_PYTHON3)
  add_test(NAME integration/ivm_catch_up_race
    COMMAND ${LAKESTREAM_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/view_catch_up_race_test.py $<TARGET_FILE:lakestream>
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(integration/ivm_catch_up_race PROPERTIES LABELS integration TIMEOUT 120)
endif()
