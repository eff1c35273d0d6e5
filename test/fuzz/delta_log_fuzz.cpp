// libFuzzer target for the Delta commit parser (one JSON action per line):
// malformed input must give a Corruption status, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "storage/delta/delta_actions.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view contents(reinterpret_cast<const char*>(data), size);
  auto actions = lakestream::delta::ParseCommit(contents, "fuzz.json");
  if (actions.ok()) {
    // What parses must serialize and parse back.
    std::string again = lakestream::delta::SerializeCommit(actions.value());
    (void)lakestream::delta::ParseCommit(again, "again.json");
  }
  return 0;
}
