// Delivery trace for bench/latency (off unless asked): TraceDelivery("stage")
// appends "<stage> <CLOCK_MONOTONIC ns> <pid>\n" to the file the environment
// variable LAKESTREAM_DELIVERY_TRACE names, with one O_APPEND write(2) per
// event, so the writer process and a follower (`lakestream sink --follow`)
// can share the file and their timestamps compare (steady_clock is
// CLOCK_MONOTONIC, the same clock in every process of the machine).
// bench/latency/stages turns the file into the per-stage breakdown of one
// INSERT's way to the broker. Costs one cached getenv when unset.
#pragma once

namespace lakestream {

void TraceDelivery(const char* stage);

}  // namespace lakestream
