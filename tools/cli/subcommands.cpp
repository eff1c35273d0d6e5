#include "subcommands.hpp"

#include <cstdio>

namespace lakestream {

// Exit code 2 (not 1) so scripts can tell "this build cannot do it" from
// "the pipeline failed".
int RunPipelineCommand(int argc, char** argv) {
  std::fprintf(stderr, "lakestream run: not supported yet: pipelines (issue 8)\n");
  return 2;
}

}  // namespace lakestream
