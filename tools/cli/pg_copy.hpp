// COPY ... TO STDOUT and SUBSCRIBE for `lakestream serve` (docs/server.md):
// rows sent in the COPY OUT sub-protocol, text format.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "lakestream/connection.hpp"
#include "lakestream/result.hpp"
#include "pg_wire.hpp"

namespace lakestream::pg {

// The query a `COPY table [(columns)] TO STDOUT` or `COPY (query) TO
// STDOUT` reads; "" when `sql` is no such COPY. Throws SqlError for COPY ...
// FROM STDIN and for options other than the text format.
std::string CopyOutQuery(const std::string& sql);

// Sends every row of `result` as one COPY OUT (CopyOutResponse, CopyData
// lines, CopyDone, CommandComplete "COPY n"). Throws SqlError for the
// result's error (then the COPY is not ended: the ErrorResponse ends it).
void SendCopyOut(WireConnection& wire, QueryResult& result);

// `SUBSCRIBE [TO] table [FROM VERSION n]`: false when `sql` is not one.
struct SubscribeRequest {
  std::string table;
  int64_t from_version = -1;  // -1: the changes committed after now
};
bool ParseSubscribe(const std::string& sql, SubscribeRequest* request);

// Streams the table's change data feed (table_changes() rows) as a COPY OUT
// while new versions commit, polling every 200 ms, until the client sends a
// message or hangs up (then CopyDone, CommandComplete "SUBSCRIBE n") or
// `cancelled` is set (CancelRequest: SqlError 57014).
void RunSubscribe(WireConnection& wire, Connection& connection, const SubscribeRequest& request,
                  const std::atomic<bool>& cancelled);

}  // namespace lakestream::pg
