// Reading a table stream (ClickZetta/Snowflake semantics, DESIGN.md section 5).
//
// A stream over table T with offset O (catalog/stream_offset.hpp: the
// catalog's base raised by its consumers' Delta txns) shows the changes of
// T's versions (O, latest]: STANDARD streams their net change (stream/net_changes.hpp),
// APPEND_ONLY streams the inserted rows. With SHOW_INITIAL_ROWS, until the
// first consumption the rows of T as of O come first, as inserts.
//
// Columns: T's columns, then the metadata columns (catalog/stream_columns.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "catalog/stream_columns.hpp"
#include "common/chunk_collection.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

class ClientContext;
class DeltaTable;


// The stream's pending changes as of the source version the statement sees.
// Within one statement every call for a stream returns the same rows (and
// records the read in the context, so that a DML statement consumes it).
// Throws CatalogError when the stream is stale, with the fix.
std::shared_ptr<const StreamChanges> ReadStreamChanges(ClientContext& context, StreamCatalogEntry& stream);

// The computation behind ReadStreamChanges for source versions (offset,
// end_version] (and the initial rows while they are pending), appended to
// `out` (initialised with the stream's types), for readers that pin their own
// end version (a sink on a stream delivers a saved batch). Records no read.
void ComputeStreamChanges(ClientContext& context, StreamCatalogEntry& stream, int64_t end_version, ChunkCollection& out);

// Whether the stream has changes pending. Cheap (reads no data file): like
// Snowflake's SYSTEM$STREAM_HAS_DATA it may say true when the pending
// changes cancel out (a row inserted and deleted again).
bool StreamHasData(ClientContext& context, StreamCatalogEntry& stream);

// "" for a usable stream; otherwise why it is stale and how to fix it.
std::string StreamStaleReason(ClientContext& context, StreamCatalogEntry& stream);

// The Delta table the stream reads; throws CatalogError (stale) when its source is gone.
DeltaTable& StreamSource(ClientContext& context, StreamCatalogEntry& stream, TableCatalogEntry** entry = nullptr);

}  // namespace lakestream
