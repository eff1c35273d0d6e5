// Pause points for tests, beside the crash points (crash_point.hpp):
// PausePoint("name") stops the process with SIGSTOP the first time it is
// reached while the environment variable LAKESTREAM_PAUSE_POINT equals
// "name". The process stands still where it is, holding its locks, until
// the test sends SIGCONT (it goes on) or SIGKILL (a crash at that point), so
// a test can check what other processes may do meanwhile. Costs one cached
// getenv when unset.
#pragma once

namespace lakestream {

void PausePoint(const char* name);

}  // namespace lakestream
