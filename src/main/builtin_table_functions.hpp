// The table functions every database has (range, read_parquet, read_files,
// table_changes, read_kafka). They live in layers above the binder, so the
// top layer registers them in the TableFunctionRegistry before any query
// binds.
#pragma once

namespace lakestream {

// Registers the built-in table functions; idempotent and thread-safe (the
// Database constructor calls it).
void RegisterBuiltinTableFunctions();

}  // namespace lakestream
