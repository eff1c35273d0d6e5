#include "function/table/ingestion_scope.hpp"

#include "common/string_util.hpp"

namespace lakestream {

std::string FileAppId(const std::string& file_id) { return "lakestream.file:" + file_id; }
std::string FileMtimeAppId(const std::string& file_id) { return "lakestream.file_mtime:" + file_id; }
std::string StreamAppId(const std::string& source_table_id) { return "lakestream.stream:" + source_table_id; }
std::string FlowTxnPrefix(const std::string& flow) { return "lakestream.flow:" + StringUtil::Lower(flow) + "/"; }

std::optional<int64_t> IngestionScope::TxnVersion(const std::string& unqualified) const {
  std::string app_id = Qualify(unqualified);
  if (snapshot) return snapshot->TxnVersion(app_id);
  if (memory_txns) {
    auto it = memory_txns->find(app_id);
    if (it != memory_txns->end()) return it->second;
  }
  return std::nullopt;
}

std::string IngestionScope::LastIngestedFile(const std::string& id_prefix) const {
  std::string app_prefix = Qualify(FileAppId(id_prefix));
  std::string last;
  auto scan = [&](const auto& txns) {
    for (auto it = txns.lower_bound(app_prefix); it != txns.end() && StringUtil::StartsWith(it->first, app_prefix); ++it)
      last = it->first;
  };
  if (snapshot) scan(snapshot->txns);
  else if (memory_txns) scan(*memory_txns);
  return last.empty() ? "" : last.substr(Qualify(FileAppId("")).size());
}

bool IngestionScope::StoredSchema(const std::string& source, FileSchema& out) const {
  if (!state || !state->contains("sources")) return false;
  auto& sources = (*state)["sources"];
  if (!sources.contains(source) || !sources[source].contains("schema")) return false;
  out = FileSchema::FromJson(sources[source]["schema"]);
  return !out.empty();
}

void IngestionScope::StoreSchema(const std::string& source, const FileSchema& schema) {
  if (!state) return;
  (*state)["sources"][source]["schema"] = schema.ToJson();
  state_changed = true;
}

}  // namespace lakestream
