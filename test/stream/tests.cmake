# Table streams (issue 5): the consumer kill test (the randomized test is a
# gtest in test/unit/stream_random_test.cpp; SQL behaviour in test/sql/stream/).
if(LAKESTREAM_PYTHON3)
  add_test(NAME integration/stream_kill
    COMMAND ${LAKESTREAM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/stream/stream_kill_test.py
            --shell $<TARGET_FILE:lakestream> --kills 60
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(integration/stream_kill PROPERTIES LABELS "integration" TIMEOUT 600)
endif()
