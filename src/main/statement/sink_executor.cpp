// Sinks: CREATE/RUN/DROP/SHOW/DESCRIBE SINK (issue 7). Delivery itself lives
// in src/sink (sink_runner.hpp); this file turns statements into calls and
// results.
#include "catalog/catalog_store.hpp"
#include "catalog/object_folder.hpp"
#include "common/date.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "main/statement/statement_executor.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"
#include "connector/sink_options.hpp"
#include "connector/secret_use.hpp"
#include "sink/sink_runner.hpp"

namespace lakestream {

static Value OptionalBigint(const std::optional<int64_t>& value) {
  return value ? Value::BIGINT(*value) : Value(LogicalType(TypeId::BIGINT));
}

static Value OptionalText(const std::optional<std::string>& value) {
  return value ? Value(*value) : Value(LogicalType(TypeId::VARCHAR));
}

// Does the sink's 'secret' option name the secret holding its inline credentials?
static bool UsesOwnSecret(const SinkCatalogEntry& sink) {
  for (auto& [k, v] : sink.options) {
    if (StringUtil::CIEquals(k, "secret") && StringUtil::CIEquals(v, SinkSecretName(sink.name))) return true;
  }
  return false;
}

// SHOW and DESCRIBE still list a sink whose stored options no longer parse
// (RUN SINK says why): nullptr then.
static std::shared_ptr<const SinkOptions> OptionsOrNull(const SinkCatalogEntry& sink) {
  try {
    return ParsedSinkOptions(sink);
  } catch (const InvalidInputError&) {
    return nullptr;
  }
}

static std::string FormatOf(const SinkCatalogEntry& sink) {
  auto options = OptionsOrNull(sink);
  return options ? SinkFormatToString(options->format) : "?";
}

static std::string TargetOf(const SinkCatalogEntry& sink) {
  if (sink.target == "file") return "file " + sink.file_path;
  auto options = OptionsOrNull(sink);
  return options ? "kafka topic " + options->topic : "kafka";
}

// Does the statement's own option list say 'start'? Only then is a replaced
// or altered sink repositioned; a 'start' kept from the original CREATE is history.
static bool SaysStart(const PropertyList& options) {
  for (auto& [k, v] : options) {
    if (StringUtil::CIEquals(k, "start")) return true;
  }
  return false;
}

// CREATE OR REPLACE keeps the replaced sink's position (delivered version,
// Kafka message id and offsets, file state) unless the statement says
// 'start' or reads another source (sink_runner.hpp, DefineSink).
std::unique_ptr<QueryResult> ExecuteCreateSink(ClientContext& context, CreateSinkStatement& statement) {
  Catalog& catalog = context.GetCatalog();
  const std::string& name = statement.name.Name();
  CheckObjectName(name, "sink");  // the same names as tables (docs/names.md)
  SinkCatalogEntry* existing = catalog.FindSink(name);
  if (existing) {
    if (statement.if_not_exists) return MakeEmptyResult();
    if (!statement.or_replace) {
      throw CatalogError("Sink with name " + existing->name +
                         " already exists! Use CREATE OR REPLACE SINK to replace it (it keeps its position), "
                         "ALTER SINK " + existing->name + " SET (...) to change its options, or pick another name.");
    }
  }
  auto entry = std::make_unique<SinkCatalogEntry>();
  entry->name = name;
  entry->source = statement.source.Name();
  entry->target = statement.target == SinkTarget::FILE ? "file" : "kafka";
  entry->file_path = statement.file_path;
  entry->options = statement.options;
  // Inline credentials go into the sink's own secret, never into catalog.json.
  std::optional<Secret> own = TakeInlineCredentials(context, *entry);
  WithSinkSecret(context, own, [&] { DefineSink(context, *entry, existing, SaysStart(statement.options)); });
  if (existing) ForgetSinkSession(context, *existing);
  // A replaced sink's secret goes when the new definition does not use it.
  bool keeps_own = UsesOwnSecret(*entry);
  catalog.CreateSink(std::move(entry), statement.or_replace);
  context.Database().SaveCatalog();
  if (!keeps_own) DropSinkSecret(context, name);
  return MakeEmptyResult();
}

// ALTER SINK name SET (...): the options merged key by key (case-insensitive),
// checked exactly as CREATE SINK checks them, the position kept unless
// 'start' is among them.
std::unique_ptr<QueryResult> ExecuteAlterSink(ClientContext& context, AlterSinkStatement& statement) {
  SinkCatalogEntry& sink = context.GetCatalog().GetSink(statement.name.Name());
  SinkCatalogEntry altered = sink;
  for (auto& [key, value] : statement.options) {
    bool replaced = false;
    for (auto& [k, v] : altered.options) {
      if (StringUtil::CIEquals(k, key)) {
        v = value;
        replaced = true;
      }
    }
    if (!replaced) altered.options.emplace_back(key, value);
  }
  std::optional<Secret> own = TakeInlineCredentials(context, altered);
  WithSinkSecret(context, own, [&] { DefineSink(context, altered, &sink, SaysStart(statement.options)); });
  ForgetSinkSession(context, sink);
  sink.options = std::move(altered.options);
  sink.parsed_options = std::move(altered.parsed_options);
  sink.state = std::move(altered.state);
  context.Database().SaveCatalog();
  if (!UsesOwnSecret(sink)) DropSinkSecret(context, sink.name);  // 'secret' now names another one
  return MakeEmptyResult();
}

std::unique_ptr<QueryResult> ExecuteRunSink(ClientContext& context, RunSinkStatement& statement) {
  SinkRunResult result = RunSink(context, statement.name.Name());
  return MakeRowsResult({"messages", "skipped_changes", "delivered_version"},
                        {TypeId::BIGINT, TypeId::BIGINT, TypeId::BIGINT},
                        {{Value::BIGINT(result.messages), Value::BIGINT(result.skipped_changes),
                          Value::BIGINT(result.delivered_version)}});
}

std::unique_ptr<QueryResult> ExecuteDropSink(ClientContext& context, DropStatement& statement) {
  Catalog& catalog = context.GetCatalog();
  if (SinkCatalogEntry* sink = catalog.FindSink(statement.name.Name())) ForgetSinkSession(context, *sink);
  std::string name = statement.name.Name();
  SinkCatalogEntry* dropped = catalog.FindSink(name);
  std::string id = dropped ? dropped->Id() : "";
  if (catalog.DropSink(name, statement.if_exists)) {
    context.Database().SaveCatalog();
    DropSinkSecret(context, name);
    RemoveDroppedSinkLease(context, id);
  }
  return MakeEmptyResult();
}

std::unique_ptr<QueryResult> ExecuteShowSinks(ClientContext& context, ShowStatement& statement) {
  Catalog& catalog = context.GetCatalog();
  std::vector<std::vector<Value>> rows;
  std::string schema = ListedSchema(context, statement);
  for (auto& name : catalog.SinkNames()) {
    if (!InSchema(context, name, schema)) continue;
    SinkCatalogEntry& sink = *catalog.FindSink(name);
    SinkStatus status = GetSinkStatus(context, sink);
    rows.push_back({Value(NameInSchema(context, sink.name)), Value(sink.source), Value(TargetOf(sink)), Value(FormatOf(sink)),
                    OptionalBigint(sink.state.delivered_version), Value::BIGINT(status.pending_versions),
                    status.pending_rows ? Value::BIGINT(*status.pending_rows) : Value(LogicalType(TypeId::BIGINT)),
                    OptionalBigint(sink.state.messages), OptionalText(sink.state.last_error),
                    status.next_version ? Value::BIGINT(*status.next_version) : Value(LogicalType(TypeId::BIGINT))});
  }
  return MakeRowsResult({"name", "source", "target", "format", "delivered_version", "pending_versions", "pending_rows",
                         "messages", "last_error", "next_version"},
                        {TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR, TypeId::BIGINT,
                         TypeId::BIGINT, TypeId::BIGINT, TypeId::BIGINT, TypeId::VARCHAR, TypeId::BIGINT},
                        rows);
}

std::unique_ptr<QueryResult> ExecuteDescribeSink(ClientContext& context, DescribeStatement& statement) {
  SinkCatalogEntry& sink = context.GetCatalog().GetSink(statement.name.Name());
  SinkStatus status = GetSinkStatus(context, sink);
  std::vector<std::vector<Value>> rows;
  auto add = [&](const std::string& k, const std::string& v) { rows.push_back({Value(k), Value(v)}); };
  add("name", sink.name);
  add("source", sink.source);
  add("source_kind", status.source_kind);
  add("target", TargetOf(sink));
  for (auto& [k, v] : sink.options) add("option " + k, ShownValue("kafka", k, v));
  // The state as catalog.json holds it, key by key in the file's (sorted) order.
  const nlohmann::json state = SinkStateToJson(sink.state);
  for (auto& [k, v] : state.items()) {
    if (v.is_string()) {
      add(k, v.get<std::string>());
    } else if (k == "created_at" || k == "updated_at" || k == "last_error_at") {
      add(k, Timestamp::ToIsoString(v.get<int64_t>()));
    } else {
      add(k, v.dump());
    }
  }
  add("latest_version", std::to_string(status.latest_version));
  if (status.next_version) add("next_version", std::to_string(*status.next_version));
  add("pending_versions", std::to_string(status.pending_versions));
  if (status.pending_rows) add("pending_rows", std::to_string(*status.pending_rows));
  return MakeRowsResult({"property", "value"}, {TypeId::VARCHAR, TypeId::VARCHAR}, rows);
}

}  // namespace lakestream
