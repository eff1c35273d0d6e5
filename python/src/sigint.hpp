// Ctrl-C for statements run from Python's main thread.
//
// Python handles SIGINT (Ctrl-C, a notebook's interrupt button) between
// bytecodes of the main thread; a statement running there without the GIL
// would hold it off until the end. While a SigintInterrupts lives, SIGINT
// also interrupts the statement running on `connection` (it fails with
// INTERRUPTED and commits nothing), and Python's own handler still runs, so
// PyErr_CheckSignals() afterwards raises KeyboardInterrupt.
#pragma once

#include "lakestream.hpp"

namespace lakestream_python {

class SigintInterrupts {
 public:
  // Only from the main thread. Does nothing when SIGINT is ignored or has
  // its default action (no Python handler to chain to).
  explicit SigintInterrupts(lakestream::Connection& connection);
  ~SigintInterrupts();
  SigintInterrupts(const SigintInterrupts&) = delete;
  SigintInterrupts& operator=(const SigintInterrupts&) = delete;

 private:
  bool installed_ = false;
};

}  // namespace lakestream_python
