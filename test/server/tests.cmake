# `lakestream serve` (docs/server.md): psql (postgresql-client) and psycopg
# (python3-psycopg) drive a server on an ephemeral port; raw-socket tests
# check the message framing. Label `server`. Both come from
# scripts/install-deps.
add_test(NAME server/psql COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/server/psql_test.sh $<TARGET_FILE:lakestream>
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(server/psql PROPERTIES LABELS server TIMEOUT 60)
file(GLOB SERVER_PY_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/server/test_*.py)
foreach(py_test ${SERVER_PY_TESTS})
  get_filename_component(name ${py_test} NAME_WE)
  add_test(NAME server/${name} COMMAND /usr/bin/python3 -m pytest -q -p no:cacheprovider ${py_test}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(server/${name} PROPERTIES LABELS server TIMEOUT 60
                       ENVIRONMENT "LAKESTREAM_SHELL=$<TARGET_FILE:lakestream>;PYTHONDONTWRITEBYTECODE=1")
endforeach()
