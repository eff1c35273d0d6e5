#include "storage/delta/row_tracking.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "common/delta_table_properties.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"
#include "storage/delta/delta_snapshot.hpp"
#include "storage/parquet/parquet_reader.hpp"

namespace lakestream::delta {

bool RowTrackingAssigns(const Protocol& protocol, const Metadata& metadata) {
  return protocol.ListsWriterFeature(kRowTrackingFeature) && !DeltaTablePropertyIsTrue(metadata.configuration, kRowTrackingSuspended);
}

bool RowTrackingEnabled(const Metadata& metadata) { return DeltaTablePropertyIsTrue(metadata.configuration, kEnableRowTracking); }

std::optional<MaterializedColumns> MaterializedColumnNames(const Metadata& metadata) {
  auto id = DeltaTableProperty(metadata.configuration, kMaterializedRowIdColumn);
  auto version = DeltaTableProperty(metadata.configuration, kMaterializedRowCommitVersionColumn);
  if (!id || !version || id->empty() || version->empty()) return std::nullopt;
  return MaterializedColumns{*id, *version};
}

void AssignMaterializedColumnNames(StringMap& configuration, const Metadata* previous,
                                   const std::function<std::string()>& new_uuid) {
  if (!DeltaTablePropertyIsTrue(configuration, kEnableRowTracking)) return;
  auto assign = [&](const char* key, const char* prefix) {
    if (DeltaTableProperty(configuration, key)) return;
    auto kept = previous ? DeltaTableProperty(previous->configuration, key) : std::nullopt;
    configuration[key] = kept ? *kept : prefix + new_uuid();
  };
  assign(kMaterializedRowIdColumn, "_row-id-col-");
  assign(kMaterializedRowCommitVersionColumn, "_row-commit-version-col-");
}

Result<std::optional<int64_t>> RowIdHighWaterMark(const std::map<std::string, DomainMetadata>& domains) {
  auto it = domains.find(kRowTrackingDomain);
  if (it == domains.end() || it->second.removed) return std::optional<int64_t>();
  // Other writers add keys of their own (Databricks: domainName); only the mark matters.
  auto config = ParseJson(it->second.configuration);
  if (!config.is_object() || !config.contains("rowIdHighWaterMark") || !config["rowIdHighWaterMark"].is_number_integer()) {
    return Status::Corruption("domainMetadata " + std::string(kRowTrackingDomain) +
                              " has no integer rowIdHighWaterMark in its configuration: " + it->second.configuration);
  }
  return std::optional<int64_t>(config["rowIdHighWaterMark"].get<int64_t>());
}

// The protocol and metadata the table has after a commit of `actions` over `base`.
static std::pair<const Protocol*, const Metadata*> After(const Snapshot& base, const std::vector<Action>& actions) {
  const Protocol* protocol = &base.protocol;
  const Metadata* metadata = &base.metadata;
  for (const auto& a : actions) {
    if (auto* p = std::get_if<Protocol>(&a)) protocol = p;
    if (auto* m = std::get_if<Metadata>(&a)) metadata = m;
  }
  return {protocol, metadata};
}

bool CommitAssignsRowIds(const Snapshot& base, const std::vector<Action>& actions) {
  auto [protocol, metadata] = After(base, actions);
  return RowTrackingAssigns(*protocol, *metadata);
}

Result<std::vector<Action>> AssignRowIds(std::vector<Action> actions, const Snapshot& base, int64_t version) {
  if (!CommitAssignsRowIds(base, actions)) return actions;
  auto mark = RowIdHighWaterMark(base.domains);
  if (!mark.ok()) return mark.status();
  // No id given yet: the first file starts at 0.
  int64_t high = mark.value().value_or(-1);
  bool moved = false;
  for (auto& a : actions) {
    auto* add = std::get_if<AddFile>(&a);
    if (!add) continue;
    auto records = add->NumRecords();
    if (!records || *records < 0) {
      return Status::InvalidArgument("data file " + add->path + " has no numRecords statistic, which row tracking " +
                                     "needs to assign its row ids");
    }
    add->base_row_id = high + 1;
    add->default_row_commit_version = version;
    if (*records > 0) {
      high += *records;
      moved = true;
    }
  }
  actions.erase(std::remove_if(actions.begin(), actions.end(),
                               [](const Action& a) {
                                 auto* d = std::get_if<DomainMetadata>(&a);
                                 return d && d->domain == kRowTrackingDomain;
                               }),
                actions.end());
  if (moved) {
    DomainMetadata domain;
    domain.domain = kRowTrackingDomain;
    domain.configuration = "{\"rowIdHighWaterMark\":" + std::to_string(high) + "}";
    actions.emplace_back(std::move(domain));
  }
  return actions;
}

Status CheckRowTrackingEnablement(const std::string& table, const Snapshot& base, const std::vector<Action>& actions) {
  auto [protocol_ptr, after_ptr] = After(base, actions);
  const Protocol& protocol = *protocol_ptr;
  const Metadata& after = *after_ptr;
  if (!RowTrackingEnabled(after)) return Status::OK();
  if (RowTrackingEnabled(base.metadata)) {
    auto before = MaterializedColumnNames(base.metadata);
    auto now = MaterializedColumnNames(after);
    if (before && (!now || now->row_id != before->row_id || now->row_commit_version != before->row_commit_version)) {
      return Status::InvalidArgument("table " + table + " enables row tracking: " + kMaterializedRowIdColumn + " and " +
                                     kMaterializedRowCommitVersionColumn + " cannot be changed or unset (its data " +
                                     "files keep row ids under those names)");
    }
    return Status::OK();
  }
  if (!protocol.ListsWriterFeature(kRowTrackingFeature)) {
    return Status::InvalidArgument("table " + table + ": delta.enableRowTracking = true needs the writer feature " +
                                   "rowTracking in the protocol; set 'delta.feature.rowTracking' = 'supported' too");
  }
  if (DeltaTablePropertyIsTrue(after.configuration, kRowTrackingSuspended)) {
    return Status::InvalidArgument("table " + table + ": delta.enableRowTracking and delta.rowTrackingSuspended " +
                                   "cannot both be true; unset delta.rowTrackingSuspended first");
  }
  auto names = MaterializedColumnNames(after);
  if (!names || names->row_id == names->row_commit_version) {
    return Status::InvalidArgument("table " + table + ": delta.enableRowTracking = true needs two distinct column names " +
                                   "in " + kMaterializedRowIdColumn + " and " + kMaterializedRowCommitVersionColumn);
  }
  for (const auto& c : base.schema) {
    if (StringUtil::CIEquals(c.name, names->row_id) || StringUtil::CIEquals(c.name, names->row_commit_version)) {
      return Status::InvalidArgument("table " + table + ": the materialized row tracking column name " + c.name +
                                     " is the name of a table column; choose another name");
    }
  }
  // Files the same commit removes (CREATE OR REPLACE) need no row ids.
  std::set<std::string> removed;
  for (const auto& a : actions) {
    if (auto* r = std::get_if<RemoveFile>(&a)) removed.insert(r->path);
  }
  int64_t missing = 0;
  std::string example;
  LS_RETURN_NOT_OK(base.files.Load());
  for (const auto& [path, add] : base.files) {
    if ((add.base_row_id && add.default_row_commit_version) || removed.count(path)) continue;
    if (missing++ == 0) example = path;
  }
  if (missing > 0) {
    return Status::NotSupported("enabling row tracking on table " + table + ", whose " +
                                std::to_string(missing) + " data file(s) (such as " + example +
                                ") have no row ids, needs a backfill of baseRowId, which lakestream does not do. " +
                                "Create a new table with TBLPROPERTIES ('delta.enableRowTracking' = 'true') and " +
                                "copy the rows into it");
  }
  return Status::OK();
}

void TagRowTrackingPreserved(CommitInfo& info, bool preserved) {
  auto o = ParseJson(info.json);
  if (!o.is_object()) o = nlohmann::json::object();
  if (!o["tags"].is_object()) o["tags"] = nlohmann::json::object();
  o["tags"]["delta.rowTracking.preserved"] = preserved ? "true" : "false";
  info.json = o.dump();
}

Result<FileRowTracking> ReadFileRowTracking(FileSystem* fs, const std::string& full_path, const AddFile& add,
                                            const MaterializedColumns& columns) {
  if (!add.base_row_id || !add.default_row_commit_version) {
    return Status::Corruption("data file " + add.path + " has no baseRowId or defaultRowCommitVersion, but the " +
                              "table enables row tracking (every file must have both)");
  }
  auto opened = ParquetReader::Open(full_path, fs);
  if (!opened.ok()) return opened.status();
  auto& reader = *opened.value();
  int64_t rows = reader.RowCount();
  FileRowTracking out;
  out.row_ids.resize(static_cast<size_t>(rows));
  out.commit_versions.assign(static_cast<size_t>(rows), *add.default_row_commit_version);
  for (int64_t i = 0; i < rows; i++) out.row_ids[static_cast<size_t>(i)] = *add.base_row_id + i;
  // Materialized values, where the file has the columns, win over fresh ones.
  std::vector<idx_t> ids;
  std::vector<std::vector<int64_t>*> targets;
  const auto& names = reader.ColumnNames();
  for (idx_t c = 0; c < names.size(); c++) {
    std::vector<int64_t>* target = names[c] == columns.row_id               ? &out.row_ids
                                   : names[c] == columns.row_commit_version ? &out.commit_versions
                                                                            : nullptr;
    if (!target) continue;
    if (reader.ColumnTypes()[c] != LogicalType(TypeId::BIGINT)) {
      return Status::Corruption("data file " + add.path + ": materialized row tracking column " + names[c] +
                                " is " + reader.ColumnTypes()[c].ToString() + ", not BIGINT");
    }
    ids.push_back(c);
    targets.push_back(target);
  }
  if (ids.empty()) return out;
  LS_RETURN_NOT_OK(reader.Scan(ids));
  DataChunk chunk;
  chunk.Initialize(reader.ProjectedTypes());
  size_t position = 0;
  while (true) {
    LS_RETURN_NOT_OK(reader.ReadChunk(chunk));
    if (chunk.size() == 0) break;
    if (position + chunk.size() > out.row_ids.size()) {
      return Status::Corruption("data file " + add.path + " holds more rows than its footer's row count");
    }
    for (idx_t c = 0; c < ids.size(); c++) {
      const int64_t* values = chunk.data[c].GetData<int64_t>();
      for (idx_t r = 0; r < chunk.size(); r++) {
        if (chunk.data[c].IsValid(r)) (*targets[c])[position + r] = values[r];
      }
    }
    position += chunk.size();
  }
  return out;
}

}  // namespace lakestream::delta
