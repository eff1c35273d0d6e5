#include "sink/sink_source.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "catalog/stream_offset.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "connector/sink_target.hpp"
#include "storage/table/delta_table.hpp"
#include "stream/stream_reader.hpp"
#include "transaction/client_context.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {

SinkSource ResolveSinkSource(ClientContext& context, const SinkCatalogEntry& sink) {
  Catalog& catalog = context.GetCatalog();
  SinkSource source;
  if (StreamCatalogEntry* stream = catalog.FindStream(sink.source)) {
    std::string stale = StreamStaleReason(context, *stream);
    if (!stale.empty()) throw CatalogError("Sink " + sink.name + ": " + stale);
    source.stream = stream;
    source.delta = &StreamSource(context, *stream, &source.table);
    return source;
  }
  source.table = catalog.FindTable(sink.source);
  if (!source.table) {
    throw CatalogError("Sink " + sink.name + " reads " + sink.source +
                       ", which does not exist (any more); DROP SINK " + sink.name + " or create " + sink.source + " again");
  }
  if (!source.table->load_error.empty()) {
    throw IOError("Sink " + sink.name + ": its source " + sink.source + " cannot be opened: " + source.table->load_error);
  }
  source.delta = DatabaseInstance::AsDelta(*source.table);
  if (!source.delta) {
    throw InvalidInputError("Sink " + sink.name + ": " + sink.source +
                            " is not a Delta table; sinks read the change data feed, which needs a database directory "
                            "(start lakestream with DB_DIR)");
  }
  return source;
}

std::string SinkSourceId(const SinkSource& source) {
  return source.stream || !source.delta ? std::string() : source.delta->Snapshot().metadata.id;
}

void CheckSinkSourceIdentity(const SinkCatalogEntry& sink, const SinkState& state, const SinkSource& source) {
  std::string id = SinkSourceId(source);
  if (!state.source_id || id.empty() || *state.source_id == id) return;
  std::string kind = TableKindToString(source.table->kind);
  throw CatalogError("Sink " + sink.name + ": source " + kind + " " + sink.source + " was dropped and re-created (table id " +
                     *state.source_id + " -> " + id + "): the sink's position (delivered up to version " +
                     std::to_string(state.delivered_version.value_or(-1)) + ") belongs to the old " + kind +
                     ", and the new one's versions do not follow it. Drop and re-create sink " + sink.name +
                     ", or start it on the new " + kind + " with ALTER SINK " + sink.name +
                     " SET ('start' = 'earliest') (its current rows first), 'version 0' (its whole change feed) or "
                     "'latest'");
}

bool ChangeFeedOn(const TableCatalogEntry& table) {
  return StringUtil::Lower(table.GetProperty("delta.enableChangeDataFeed")) == "true";
}

std::string SinkFilePath(const SinkCatalogEntry& sink) {
  if (sink.state.file_path) return *sink.state.file_path;
  return AbsoluteSinkPath(sink.file_path);
}

void CheckFileOwner(Catalog& catalog, const SinkCatalogEntry& sink, const std::string& path) {
  for (auto& name : catalog.SinkNames()) {
    SinkCatalogEntry* other = catalog.FindSink(name);
    if (!other || other->target != "file" || StringUtil::CIEquals(other->name, sink.name)) continue;
    if (!SameFile(SinkFilePath(*other), path)) continue;
    throw CatalogError("Sink " + sink.name + ": file " + path + " is already the target of sink " + other->name +
                       " (INTO FILE '" + other->file_path + "'); a file belongs to one sink, whose progress counts the "
                       "bytes it wrote there. Write sink " + sink.name + " INTO another FILE, or DROP SINK " + other->name +
                       " first");
  }
}

void CheckSinkTargetAccess(ClientContext& context, const SinkCatalogEntry& sink, const SinkOptions& options,
                           const std::string& file_path) {
  const ExternalAccessPolicy& policy = context.Database().AccessPolicy();
  if (options.kafka) {
    policy.CheckNetwork("the Kafka broker " + options.bootstrap_servers, "Sink " + sink.name);
    return;
  }
  policy.CheckNotTableLog(file_path, "Sink " + sink.name);
  policy.CheckPath(file_path, AccessMode::WRITE, "Sink " + sink.name);
  struct stat st {};
  if (::lstat(file_path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    std::error_code ec;
    std::string target = std::filesystem::read_symlink(file_path, ec).string();
    throw InvalidInputError("Sink " + sink.name + ": file " + file_path + " is a symbolic link to " + (ec ? "?" : target) +
                            "; a sink does not append through a link: name the target itself INTO FILE '...', or "
                            "remove the link");
  }
}

}  // namespace lakestream
