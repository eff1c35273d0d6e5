// COPY ... TO STDOUT, COPY ... FROM STDIN and SUBSCRIBE for `lakestream
// serve` (docs/server.md): rows moved in the COPY OUT / COPY IN
// sub-protocols, in the formats of pg_copy_format.hpp.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "lakestream/connection.hpp"
#include "lakestream/result.hpp"
#include "pg_copy_format.hpp"
#include "pg_wire.hpp"

namespace lakestream::pg {

// Sends every row of `result` as one COPY OUT (CopyOutResponse, the header
// line when `format` asks, CopyData lines, CopyDone, CommandComplete "COPY
// n"). Throws SqlError for the result's error (then the COPY is not ended:
// the ErrorResponse ends it).
void SendCopyOut(WireConnection& wire, QueryResult& result, const CopyFormat& format);

// COPY table [(columns)] FROM STDIN: checks the table and columns (an error
// then comes before any CopyInResponse, as in Postgres), sends
// CopyInResponse, gathers the client's CopyData until CopyDone, and loads
// every row with one INSERT, so one commit: all rows or none. The client's
// CopyFail loads nothing (SqlError 57014); a row that does not parse is
// SqlError 22P04 naming its line, a value that does not convert 22P02 naming
// its line and column. At most kMaxCopyInBytes of data (else 54000, nothing
// loaded). Returns the rows loaded.
constexpr size_t kMaxCopyInBytes = size_t{1} << 30;
int64_t RunCopyIn(WireConnection& wire, Connection& connection, const CopyStatement& statement);

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
