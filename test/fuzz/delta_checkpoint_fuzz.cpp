// libFuzzer target for the Delta checkpoint reader: the bytes of one
// checkpoint part (a Parquet file) decoded into actions, as a snapshot load
// does. Malformed input must give a Corruption (or NotSupported) status, never
// a crash, a sanitizer report, a hang or unbounded memory.
//
// What decodes must also be writable as a commit and parse back: the
// checkpoint reader must not accept an action the commit parser rejects
// (a snapshot mixes both sources).
//
//   make fuzz FUZZ_SECONDS=60        (or test/fuzz/run_fuzz.sh delta_checkpoint 60)
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "storage/delta/delta_actions.hpp"
#include "storage/delta/delta_checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace delta = lakestream::delta;
  std::vector<delta::Action> actions;
  auto status = delta::DecodeCheckpointPart("fuzz.checkpoint.parquet",
                                            std::string(reinterpret_cast<const char*>(data), size), actions);
  // No actions (every row NULL, or row groups whose statistics say so) is a
  // valid decode; a commit of nothing is not, so there is nothing to compare.
  if (!status.ok() || actions.empty()) return 0;
  std::string commit = delta::SerializeCommit(actions);
  auto again = delta::ParseCommit(commit, "again.json");
  if (!again.ok() || again.value().size() != actions.size()) {
    std::fprintf(stderr, "checkpoint actions do not round-trip through a commit: %s\n%s\n",
                 again.ok() ? "action count differs" : again.status().ToString().c_str(), commit.c_str());
    std::abort();
  }
  return 0;
}
