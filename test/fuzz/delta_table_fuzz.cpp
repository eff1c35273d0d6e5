// libFuzzer target for hostile Delta tables: the input is a table's commits
// (JSON lines, versions split at form feeds; delta_table_harness.hpp). Loading
// and scanning the table must never crash and never read a file outside the
// table's folder (the harness's file system aborts if it does).
#include <cstddef>
#include <cstdint>

#include "delta_table_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)lakestream::fuzz::RunHostileLog(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
