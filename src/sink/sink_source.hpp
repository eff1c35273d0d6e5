// What the sink code shares between running a sink (sink_runner.cpp) and
// defining one (sink_definition.cpp): its resolved source and its file.
#pragma once

#include <string>

#include "catalog/catalog.hpp"

namespace lakestream {

class ClientContext;
class DeltaTable;

struct SinkSource {
  TableCatalogEntry* table = nullptr;  // for a stream: the stream's source
  DeltaTable* delta = nullptr;
  StreamCatalogEntry* stream = nullptr;
};

// The sink's source, opened. Throws CatalogError/IOError/InvalidInputError
// naming the sink when it is gone, unreadable or not a Delta table.
SinkSource ResolveSinkSource(ClientContext& context, const SinkCatalogEntry& sink);

bool ChangeFeedOn(const TableCatalogEntry& table);

// The Delta table id of a table or view source (metaData.id), "" for a
// stream source (the stream checks its own source: StreamStaleReason).
std::string SinkSourceId(const SinkSource& source);

// A sink's position belongs to one table: throws CatalogError naming the
// sink, the source, both table ids and the fix when the source was dropped
// and created again under its name since the position was taken. A state
// without a source id (an older catalog) passes.
void CheckSinkSourceIdentity(const SinkCatalogEntry& sink, const SinkState& state, const SinkSource& source);

// A FILE sink's file as it writes it: absolute, fixed at CREATE SINK so the
// working directory of a later process does not move it.
std::string SinkFilePath(const SinkCatalogEntry& sink);

// A file belongs to one sink: throws CatalogError naming the other sink when
// one already writes `path` (the same file by any name: relative, ./x, a
// symlink, a hard link).
void CheckFileOwner(Catalog& catalog, const SinkCatalogEntry& sink, const std::string& path);

struct SinkOptions;
// May the sink write where it writes now (checked at CREATE/ALTER SINK and
// before every run, since enable_external_access may have been turned off
// in between)? A Kafka sink needs the network; a FILE sink's file must be
// allowed (common/external_access.hpp) and must not be a symbolic link:
// appending through a link would write wherever the link points. Throws
// PermissionError / InvalidInputError naming the sink.
void CheckSinkTargetAccess(ClientContext& context, const SinkCatalogEntry& sink, const SinkOptions& options,
                           const std::string& file_path);

}  // namespace lakestream
