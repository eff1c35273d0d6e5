// Table streams: CREATE/DROP/SHOW/DESCRIBE STREAM (issue 5). Reading and
// consuming streams lives in src/stream/.
#include <random>

#include "catalog/object_folder.hpp"
#include "catalog/stream_offset.hpp"
#include "common/date.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "main/statement/drop_dependents.hpp"
#include "main/statement/statement_executor.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"
#include "storage/table/change_feed.hpp"
#include "storage/table/delta_table.hpp"
#include "stream/stream_reader.hpp"

namespace lakestream {

static std::string NewStreamId() {
  std::random_device device;
  std::mt19937_64 random((static_cast<uint64_t>(device()) << 32) ^ device() ^ static_cast<uint64_t>(Timestamp::Now()));
  static const char* hex = "0123456789abcdef";
  std::string id;
  for (int i = 0; i < 16; i++) id += hex[random() % 16];
  return id;
}

// Names were resolved to catalog keys before the statement ran (transaction/name_resolution.hpp).
static const std::string& ObjectName(const QualifiedName& name) { return name.Name(); }

static bool ParseBoolProperty(const std::string& stream, const std::string& key, const std::string& value) {
  if (StringUtil::CIEquals(value, "true")) return true;
  if (StringUtil::CIEquals(value, "false")) return false;
  throw InvalidInputError("CREATE STREAM " + stream + ": property " + key + " must be 'true' or 'false', got '" + value + "'");
}

std::unique_ptr<QueryResult> ExecuteCreateStream(ClientContext& context, CreateStreamStatement& stmt) {
  std::string name = ObjectName(stmt.name);
  CheckObjectName(name, "stream");  // the same names as tables (docs/names.md)
  if (context.Database().InMemory()) {
    throw NotImplementedError("table streams in an in-memory database: streams read the Delta change data feed; "
                              "open a database directory (lakestream DB_DIR) to create stream " + name);
  }
  Catalog& catalog = context.GetCatalog();
  if (catalog.FindStream(name) && stmt.if_not_exists) return MakeEmptyResult();
  if (catalog.FindStream(stmt.table.Name())) {
    throw CatalogError("Cannot create stream " + name + " on " + stmt.table.Name() +
                       ": that is a stream; create the stream on its source table " + catalog.FindStream(stmt.table.Name())->source);
  }
  TableCatalogEntry& source = catalog.GetTable(ObjectName(stmt.table));
  DeltaTable* delta = DatabaseInstance::AsDelta(source);
  if (!delta) throw InternalError("table " + source.name + " has no Delta storage");

  auto stream = std::make_unique<StreamCatalogEntry>();
  stream->name = name;
  stream->source = source.name;
  stream->comment = stmt.comment;
  for (auto& [key, value] : stmt.properties) {
    if (StringUtil::CIEquals(key, "TABLE_STREAM_MODE")) {
      if (StringUtil::CIEquals(value, "APPEND_ONLY")) {
        stream->append_only = true;
      } else if (!StringUtil::CIEquals(value, "STANDARD")) {
        throw InvalidInputError("CREATE STREAM " + name + ": TABLE_STREAM_MODE must be 'STANDARD' or 'APPEND_ONLY', got '" + value + "'");
      }
    } else if (StringUtil::CIEquals(key, "SHOW_INITIAL_ROWS")) {
      stream->show_initial_rows = ParseBoolProperty(name, key, value);
    } else if (StringUtil::CIEquals(key, "COMMENT")) {
      stream->comment = value;
    } else {
      throw InvalidInputError("CREATE STREAM " + name + ": unknown property '" + key +
                              "'; streams take TABLE_STREAM_MODE ('STANDARD' | 'APPEND_ONLY') and SHOW_INITIAL_ROWS ('true' | 'false')");
    }
  }
  if (!delta->Snapshot().ChangeDataFeedEnabled()) {
    throw CatalogError("Cannot create stream " + name + " on " + TableKindToString(source.kind) + " " + source.name +
                       ": change tracking is off on " + source.name + ". Turn it on first with: ALTER TABLE " + source.name +
                       " SET PROPERTIES ('change_tracking' = 'true')");
  }
  int64_t latest = delta->Version();
  int64_t offset = latest;
  if (stmt.version_as_of) {
    offset = *stmt.version_as_of;
    if (offset < 0 || offset > latest) {
      throw InvalidInputError("CREATE STREAM " + name + " ... VERSION AS OF " + std::to_string(offset) + ": table " + source.name +
                              " has versions 0 to " + std::to_string(latest));
    }
  } else if (stmt.timestamp_as_of) {
    timestamp_t ts;
    if (!Timestamp::TryParseInZone(*stmt.timestamp_as_of, SessionTimeZone(), ts)) {
      throw InvalidInputError("CREATE STREAM " + name + " ... TIMESTAMP AS OF '" + *stmt.timestamp_as_of +
                              "' is not a timestamp; write it as 'YYYY-MM-DD HH:MM:SS'");
    }
    offset = LastVersionAtOrBefore(*delta, ts);
  }
  if (offset < latest) delta->AtVersion(offset);  // fails clearly when that version can no longer be read
  stream->offset = offset;
  stream->initial_pending = stream->show_initial_rows;
  stream->id = NewStreamId();
  stream->source_id = delta->Snapshot().metadata.id;
  stream->created_at = context.StatementStart();
  catalog.CreateStream(std::move(stream), stmt.or_replace);
  context.Database().SaveCatalog();
  return MakeEmptyResult();
}

std::unique_ptr<QueryResult> ExecuteDropStream(ClientContext& context, DropStatement& stmt) {
  std::string name = ObjectName(stmt.name);
  Catalog& catalog = context.GetCatalog();
  if (!catalog.FindStream(name)) {
    if (TableCatalogEntry* table = catalog.FindTable(name)) {
      throw CatalogError(name + " is a " + TableKindToString(table->kind) + ", not a stream; drop it with DROP " +
                         StringUtil::Upper(TableKindToString(table->kind)) + " " + table->name);
    }
  }
  if (StreamCatalogEntry* stream = catalog.FindStream(name)) DropDependentsOrRefuse(context, stmt, "stream", stream->name);
  if (catalog.DropStream(name, stmt.if_exists)) context.Database().SaveCatalog();
  return MakeEmptyResult();
}

static std::vector<Value> StreamRow(ClientContext& context, StreamCatalogEntry& stream) {
  std::string stale = StreamStaleReason(context, stream);
  TableCatalogEntry* source = context.GetCatalog().FindTable(stream.source);
  return {Value(stream.name),
          Value(stream.source),
          Value(source ? TableKindToString(source->kind) : "table"),
          Value(stream.append_only ? "APPEND_ONLY" : "STANDARD"),
          Value::BIGINT(StreamPositionOf(context.GetCatalog(), stream).offset),
          Value::BOOLEAN(stale.empty() && StreamHasData(context, stream)),
          Value::BOOLEAN(!stale.empty()),
          stale.empty() ? Value(LogicalType(TypeId::VARCHAR)) : Value(stale),
          Value::BOOLEAN(stream.show_initial_rows),
          Value::TIMESTAMP(stream.created_at),
          Value(stream.comment)};
}

// `listed`: SHOW STREAMS, which lists one schema and shows names without it.
static std::unique_ptr<QueryResult> StreamRows(ClientContext& context, const std::vector<StreamCatalogEntry*>& streams,
                                               bool listed) {
  std::vector<std::vector<Value>> rows;
  rows.reserve(streams.size());
  for (auto* stream : streams) {
    rows.push_back(StreamRow(context, *stream));
    if (listed) rows.back()[0] = Value(NameInSchema(context, stream->name));
  }
  return MakeRowsResult({"name", "table_name", "source_type", "mode", "offset_version", "has_data", "stale", "stale_reason",
                         "show_initial_rows", "created_on", "comment"},
                        {TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR, TypeId::BIGINT, TypeId::BOOLEAN,
                         TypeId::BOOLEAN, TypeId::VARCHAR, TypeId::BOOLEAN, TypeId::TIMESTAMP, TypeId::VARCHAR},
                        rows);
}

std::unique_ptr<QueryResult> ExecuteShowStreams(ClientContext& context, ShowStatement& statement) {
  std::vector<StreamCatalogEntry*> streams;
  std::string schema = ListedSchema(context, statement);
  for (auto& name : context.GetCatalog().StreamNames()) {
    if (InSchema(context, name, schema)) streams.push_back(context.GetCatalog().FindStream(name));
  }
  return StreamRows(context, streams, true);
}

std::unique_ptr<QueryResult> ExecuteDescribeStream(ClientContext& context, DescribeStatement& stmt) {
  return StreamRows(context, {&context.GetCatalog().GetStream(ObjectName(stmt.name))}, false);
}

}  // namespace lakestream
