#include "storage/delta/delta_snapshot.hpp"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "common/delta_table_properties.hpp"
#include "common/file_system.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"
#include "storage/delta/deletion_vector.hpp"

namespace lakestream::delta {

namespace {

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

void Snapshot::Apply(int64_t v, std::vector<Action> actions, std::optional<int64_t> commit_timestamp_ms) {
  for (auto& action : actions) {
    if (auto* add = std::get_if<AddFile>(&action)) {
      ApplyAdd(std::move(*add));
    } else if (auto* rm = std::get_if<RemoveFile>(&action)) {
      ApplyRemove(std::move(*rm));
    } else if (auto* p = std::get_if<Protocol>(&action)) {
      protocol = *p;
    } else if (auto* m = std::get_if<Metadata>(&action)) {
      metadata = *m;
    } else if (auto* t = std::get_if<Txn>(&action)) {
      txns[t->app_id] = *t;
    } else if (auto* d = std::get_if<DomainMetadata>(&action)) {
      ApplyDomain(std::move(*d));
    }
  }
  if (commit_timestamp_ms) commit_timestamps[v] = *commit_timestamp_ms;
  version = v;
}

void Snapshot::ApplyDomain(DomainMetadata domain) {
  if (domain.removed) {
    domains.erase(domain.domain);
    return;
  }
  std::string key = domain.domain;
  domains[key] = std::move(domain);
}

void Snapshot::ApplyAdd(AddFile add) {
  if (!tombstones.empty()) tombstones.erase(add.path);
  files.Add(std::move(add));
}

void Snapshot::ApplyRemove(RemoveFile remove) {
  files.Remove(remove);
  std::string key = remove.path;
  tombstones.insert_or_assign(tombstones.end(), std::move(key), std::move(remove));
}

Status Snapshot::ParseSchema() {
  auto cols = ParseSchemaString(metadata.schema_string);
  if (!cols.ok()) return Status(cols.status().code() == Status::Code::kNotSupported
                                    ? Status::NotSupported("table " + table_path + ": " + cols.status().message())
                                    : Status::Corruption("table " + table_path + ": " + cols.status().message()));
  schema = cols.take();
  return Status::OK();
}

std::optional<int64_t> Snapshot::NumRecords() const {
  int64_t total = 0;
  for (const auto& [path, add] : files) {
    auto n = add.NumRecords();
    if (!n) return std::nullopt;
    total += *n - add.DeletedRowCount();
  }
  return total;
}

int64_t Snapshot::TotalBytes() const { return files.TotalBytes(); }

std::optional<int64_t> Snapshot::TxnVersion(const std::string& app_id) const {
  auto it = txns.find(app_id);
  if (it == txns.end()) return std::nullopt;
  return it->second.version;
}

std::string Snapshot::Property(const std::string& key, const std::string& fallback) const {
  auto it = metadata.configuration.find(key);
  return it == metadata.configuration.end() ? fallback : it->second;
}

bool Snapshot::ChangeDataFeedEnabled() const { return Lower(Property("delta.enableChangeDataFeed")) == "true"; }
bool Snapshot::AppendOnly() const { return Lower(Property("delta.appendOnly")) == "true"; }

int64_t Snapshot::CheckpointInterval() const {
  std::string v = Property("delta.checkpointInterval");
  char* end = nullptr;
  long long n = std::strtoll(v.c_str(), &end, 10);
  return (!v.empty() && *end == '\0' && n > 0) ? n : 10;
}

int64_t Snapshot::DeletedFileRetentionMs() const {
  auto ms = StringUtil::ParseDurationMs(Property("delta.deletedFileRetentionDuration"));
  return ms.value_or(7LL * 86400000);
}

std::string Snapshot::FilePath(const std::string& log_path) const {
  if (log_path.rfind("file://", 0) == 0) return log_path.substr(7);
  if (log_path.rfind("file:", 0) == 0) return log_path.substr(5);
  if (!log_path.empty() && log_path[0] == '/') return log_path;
  return JoinPath(table_path, log_path);
}

namespace {

// `full` (a Snapshot::FilePath) is `root` + "/" + components, none of them
// empty, "." or "..".
bool InsideRoot(const std::string& full, const std::string& root) {
  if (full.size() <= root.size() + 1 || full.compare(0, root.size(), root) != 0 || full[root.size()] != '/') return false;
  size_t start = root.size() + 1;
  while (start <= full.size()) {
    size_t end = full.find('/', start);
    if (end == std::string::npos) end = full.size();
    std::string_view part(full.data() + start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}

template <class FileAction>
Status CheckFileInside(const Snapshot& snapshot, const FileAction& action, const char* kind) {
  std::string root = snapshot.table_path;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  auto refuse = [&](const std::string& what, const std::string& path) {
    return Status::Corruption("table " + snapshot.table_path + " (version " + std::to_string(snapshot.version) + "): the " +
                              kind + " " + what + " " + path + " lies outside the table's folder; with external access "
                              "off a table reads only its own files (docs/security.md)");
  };
  if (!InsideRoot(snapshot.FilePath(action.path), root)) return refuse("file", action.path);
  if (!action.deletion_vector) return Status::OK();
  auto dv = ParseDeletionVectorDescriptor(*action.deletion_vector);
  if (!dv.ok() || dv.value().storage_type == 'i') return Status::OK();  // an inline vector reads no file
  auto file = DeletionVectorFile(snapshot, dv.value());
  if (!file.ok()) return file.status();
  if (!InsideRoot(file.value(), root)) return refuse("deletion vector of", action.path + " (" + file.value() + ")");
  return Status::OK();
}

}  // namespace

Status CheckFilesInsideTable(const Snapshot& snapshot) {
  LS_RETURN_NOT_OK(snapshot.files.Load());
  for (const auto& [path, add] : snapshot.files) LS_RETURN_NOT_OK(CheckFileInside(snapshot, add, "data file"));
  for (const auto& [path, remove] : snapshot.tombstones) LS_RETURN_NOT_OK(CheckFileInside(snapshot, remove, "removed file"));
  return Status::OK();
}

bool IsSupportedReaderFeature(const std::string& feature) {
  return feature == "timestampNtz" || feature == "vacuumProtocolCheck" || feature == "deletionVectors" ||
         feature == "columnMapping" || feature == "v2Checkpoint" || feature == "typeWidening" ||
         feature == "typeWidening-preview";
}

std::string ColumnMappingMode(const Metadata& metadata) {
  auto mode = metadata.configuration.find("delta.columnMapping.mode");
  return mode == metadata.configuration.end() ? "none" : Lower(mode->second);
}

Status CheckReadable(const std::string& table, const Protocol& protocol, const Metadata& metadata) {
  // Features first: a table listing one we lack is best refused by its name,
  // whatever reader version it also claims.
  if (protocol.min_reader_version >= 3 && protocol.reader_features) {
    for (const auto& f : *protocol.reader_features)
      if (!IsSupportedReaderFeature(f))
        return Status::NotSupported("table " + table + " uses the Delta reader feature '" + f +
                                    "', which lakestream does not support yet");
  }
  if (protocol.min_reader_version > 3)
    return Status::NotSupported("table " + table + " requires Delta reader version " +
                                std::to_string(protocol.min_reader_version) +
                                "; lakestream reads versions 1 to 3");
  std::string mode = ColumnMappingMode(metadata);
  if (protocol.min_reader_version >= 2 && mode != "none") {
    if (mode != "name" && mode != "id")
      return Status::NotSupported("table " + table + " uses the Delta column mapping mode '" + mode +
                                  "'; lakestream reads the modes name and id");
  }
  return Status::OK();
}

// Column mapping is written in modes name and id, when the protocol says
// so too: a mode set on a table whose protocol lacks column mapping is one
// other readers ignore (they would read the physical names as columns).
static bool ColumnMappingWritable(const Snapshot& snapshot) {
  std::string mode = ColumnMappingMode(snapshot.metadata);
  if (mode == "none") return true;
  if (mode != "name" && mode != "id") return false;
  const Protocol& p = snapshot.protocol;
  if (p.min_reader_version < 2) return false;
  if (p.min_reader_version >= 3) return p.ListsReaderFeature("columnMapping");
  return true;
}

Status CheckWritable(const std::string& table, const Snapshot& snapshot) {
  LS_RETURN_NOT_OK(CheckReadable(table, snapshot.protocol, snapshot.metadata));
  const Protocol& p = snapshot.protocol;
  auto refuse = [&](const std::string& feature) {
    return Status::NotSupported("table " + table + " uses the Delta writer feature '" + feature +
                                "', which lakestream cannot write yet");
  };
  if (p.min_writer_version > 7)
    return Status::NotSupported("table " + table + " requires Delta writer version " +
                                std::to_string(p.min_writer_version) + "; lakestream writes versions 1 to 7");
  if (p.min_writer_version == 7 && p.writer_features) {
    for (const auto& f : *p.writer_features) {
      const DeltaFeature* feature = FindDeltaFeature(f);
      if (!feature || !feature->writable) return refuse(f);
    }
  }
  // Legacy features implied by writer versions 2-6 (or listed at 7) are
  // harmless unless used; refuse the ones we would not enforce.
  for (const auto& [key, value] : snapshot.metadata.configuration)
    if (key.rfind("delta.constraints.", 0) == 0) return refuse("checkConstraints");
  if (!ColumnMappingWritable(snapshot)) return refuse("columnMapping");
  for (const auto& c : snapshot.schema) {
    auto md = ParseJson(c.metadata_json);
    if (!md.is_object()) continue;
    if (md.contains("delta.invariants")) return refuse("invariants");
    if (md.contains("delta.generationExpression")) return refuse("generatedColumns");
    for (auto it = md.begin(); it != md.end(); ++it)
      if (it.key().rfind("delta.identity.", 0) == 0) return refuse("identityColumns");
  }
  return Status::OK();
}

}  // namespace lakestream::delta
