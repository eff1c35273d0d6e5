// Crash points for kill tests: CrashPoint("name") kills the process with
// SIGKILL when the environment variable LAKESTREAM_CRASH_POINT equals
// "name", so a test can stop a process exactly between two writes that must
// be atomic together (as a power cut would), then check the recovery.
// Costs one cached getenv when unset.
#pragma once

namespace lakestream {

void CrashPoint(const char* name);

}  // namespace lakestream
