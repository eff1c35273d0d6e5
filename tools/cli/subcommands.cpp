#include "subcommands.hpp"

#include <cstdio>

namespace lakestream {

// RunPipelineCommand lives in run_command.cpp.

}  // namespace lakestream
