// Runs the workers of one parallel pipeline (morsel-driven, as DuckDB and
// HyPer): `count` calls of `work`, one on the calling thread and the others
// on threads started for the pipeline, each with its own ExecutionContext.
// A worker whose thread has not started by the time the calling thread is
// done with its own runs on the calling thread instead (workers must not
// wait for each other): a thread the scheduler starts late costs nothing.
//
// Each worker thread runs with the caller's statement settings: its
// progress (CurrentQueryProgress), session time zone and interrupt flag.
// When a worker throws, the others stop at their next chunk
// (ExecutionContext::cancelled) and take no more morsels (`on_error`), and
// RunParallel rethrows the first worker's error on the calling thread once
// every worker has returned. Ctrl-C (ClientContext::Interrupt) reaches every
// worker through CheckInterrupt, so it stops them all.
#pragma once

#include <functional>

#include "execution/operator/physical_operator.hpp"

namespace lakestream {

void RunParallel(ExecutionContext& caller, idx_t count, const std::function<void(idx_t worker, ExecutionContext&)>& work,
                 const std::function<void()>& on_error = nullptr);

}  // namespace lakestream
