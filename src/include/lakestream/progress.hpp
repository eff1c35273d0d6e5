// Progress of a connection's running statement, for clients that draw a
// progress bar (the shell does; DuckDB's Connection::GetQueryProgress).
// Every function is safe to call from any thread while another thread runs
// a statement on the connection (as Connection::Interrupt is).
#pragma once

#include <cstdint>

#include "lakestream/connection.hpp"

namespace lakestream {

// How far the statement running on `con` is, in percent (0 to 100), or -1
// when it cannot tell (nothing runs, or no scan has a known size yet).
double GetQueryProgress(const Connection& con);
// SET enable_progress_bar (default true) and progress_bar_time (milliseconds
// before a bar may appear; default 2000) of `con`'s session.
bool ProgressBarEnabled(const Connection& con);
int64_t ProgressBarWaitMs(const Connection& con);

}  // namespace lakestream
