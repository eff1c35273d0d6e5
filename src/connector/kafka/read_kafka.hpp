// read_kafka(bootstrap, topic, ...): a topic's messages as rows (read_kafka.cpp).
#pragma once

#include "function/table_function.hpp"

namespace lakestream {

// Registers read_kafka in `registry`; called once at startup by
// main/builtin_table_functions.cpp (the binder sits below this layer).
void RegisterKafkaTableFunctions(TableFunctionRegistry& registry);

}  // namespace lakestream
