# Kafka sink tests (issue 7). Each starts its own lakestream-mock-kafka on an
# ephemeral loopback port and reads topics back with kcat; they are skipped
# (exit 77) when kcat or python3 is missing.
find_program(LAKESTREAM_KCAT kcat)
find_program(LAKESTREAM_PYTHON3_KAFKA python3)
foreach(kafka_test formats scenarios file_sink kill outage follow two_followers replace raw_format schema_evolution s3_table client_config view_rate)
  add_test(NAME kafka/${kafka_test}
    COMMAND bash -c "command -v kcat >/dev/null && command -v python3 >/dev/null || { echo 'kcat or python3 missing: skipped'; exit 77; }; exec python3 test/kafka/${kafka_test}_test.py $<TARGET_FILE:lakestream> $<TARGET_FILE:lakestream-mock-kafka>"
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(kafka/${kafka_test} PROPERTIES LABELS "integration;kafka" SKIP_RETURN_CODE 77 TIMEOUT 900
    ENVIRONMENT "LAKESTREAM_SHARED_DIR=${LAKESTREAM_SHARED_DIR}")
endforeach()
