#include "main/statement/apply_changes_state.hpp"

#include <algorithm>
#include <memory>

#include "common/exception.hpp"
#include "common/json_parse.hpp"
#include "storage/table/delta_table.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {

namespace {

constexpr const char* kFolder = "/_apply_changes";
constexpr const char* kPrefix = "state-";

// Sequences are stored as text (a STRUCT as the list of its fields) and cast
// back to the sequence's type when read.
nlohmann::json EncodeValue(const Value& v) {
  if (v.IsNull()) return nullptr;
  if (v.type().id() == TypeId::STRUCT) {
    nlohmann::json fields = nlohmann::json::array();
    for (auto& child : v.Children()) fields.push_back(EncodeValue(child));
    return fields;
  }
  return v.ToString();
}

Value DecodeValue(const nlohmann::json& j, const LogicalType& type) {
  if (j.is_null()) return Value(type);
  if (type.id() == TypeId::STRUCT) {
    std::vector<Value> fields;
    for (idx_t i = 0; i < j.size() && i < type.children().size(); i++) {
      fields.push_back(DecodeValue(j[i], type.children()[i].second));
    }
    return Value::STRUCT(type, std::move(fields));
  }
  return Value(j.get<std::string>()).CastAs(type);
}

struct MemoryState {
  CdcState state;
};

std::string FolderOf(TableCatalogEntry& table) {
  DeltaTable* delta = DatabaseInstance::AsDelta(table);
  return delta ? delta->Path() + kFolder : std::string();
}

// Versions of the state files in `folder`, newest first.
std::vector<int64_t> StateVersions(FileSystem* fs, const std::string& folder) {
  std::vector<int64_t> versions;
  auto names = fs->ListDirectory(folder);
  if (!names.ok()) return versions;
  for (auto& name : names.value()) {
    if (name.rfind(kPrefix, 0) != 0 || name.size() < 11 || name.substr(name.size() - 5) != ".json") continue;
    std::string digits = name.substr(6, name.size() - 11);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 18) continue;
    versions.push_back(std::stoll(digits));
  }
  std::sort(versions.rbegin(), versions.rend());
  return versions;
}

std::string FileOf(const std::string& folder, int64_t version) {
  return folder + "/" + kPrefix + std::to_string(version) + ".json";
}

CdcState Parse(const nlohmann::json& j, const LogicalType& type) {
  CdcState state;
  if (j.contains("truncated_at") && !j["truncated_at"].is_null()) state.truncated_at = DecodeValue(j["truncated_at"], type);
  for (auto& entry : j.at("keys")) {
    // [key, sequence | null, deleted_at_ms, [[delete sequence, applied_at_ms], ...]]
    CdcKeyState& key = state.keys[entry.at(0).get<std::string>()];
    if (!entry.at(1).is_null()) key.sequence = DecodeValue(entry.at(1), type);
    key.deleted_at_ms = entry.at(2).get<int64_t>();
    if (entry.size() > 3) {
      for (auto& d : entry.at(3)) key.deletes.push_back({DecodeValue(d.at(0), type), d.at(1).get<int64_t>()});
    }
  }
  return state;
}

}  // namespace

void CdcState::CollectGarbage(int64_t cutoff_ms) {
  for (auto it = keys.begin(); it != keys.end();) {
    auto& key = it->second;
    std::erase_if(key.deletes, [&](const CdcDelete& d) { return d.applied_at_ms < cutoff_ms; });
    bool expired = key.deleted_at_ms >= 0 && key.deleted_at_ms < cutoff_ms;
    if (expired || (!key.sequence && key.deletes.empty())) {
      it = keys.erase(it);
    } else {
      ++it;
    }
  }
}

CdcState LoadCdcState(DatabaseInstance& db, TableCatalogEntry& table, const LogicalType& sequence_type,
                      const std::map<std::string, int64_t>& txns) {
  std::string folder = FolderOf(table);
  if (folder.empty()) {
    auto* memory = static_cast<MemoryState*>(table.runtime.get());
    return memory ? memory->state : CdcState();
  }
  DeltaTable* delta = DatabaseInstance::AsDelta(table);
  for (int64_t version : StateVersions(db.Fs(), folder)) {
    if (version > delta->Version()) continue;  // written by a run whose commit never happened
    auto text = db.Fs()->ReadFile(FileOf(folder, version));
    if (!text.ok()) continue;
    nlohmann::json j = ParseJson(text.value());
    if (j.is_discarded() || !j.is_object() || !j.contains("keys") || !j.contains("txns")) continue;
    // The offsets it was written with must be the ones the target records.
    bool matches = true;
    for (auto& [app, v] : txns) {
      if (!j["txns"].contains(app) || j["txns"][app].get<int64_t>() != v) matches = false;
    }
    if (j["txns"].size() != txns.size()) matches = false;
    if (!matches) continue;
    try {
      return Parse(j, sequence_type);
    } catch (const std::exception& e) {
      throw CorruptionError("APPLY CHANGES state of " + table.name + " (" + FileOf(folder, version) +
                            ") cannot be read: " + e.what() + "; delete the file to rebuild the state from the target");
    }
  }
  return CdcState();
}

void SaveCdcState(DatabaseInstance& db, TableCatalogEntry& table, const CdcState& state,
                  const std::map<std::string, int64_t>& txns) {
  std::string folder = FolderOf(table);
  if (folder.empty()) {
    if (!table.runtime) table.runtime = std::make_shared<MemoryState>();
    static_cast<MemoryState*>(table.runtime.get())->state = state;
    return;
  }
  nlohmann::json j;
  j["format"] = 1;
  j["txns"] = nlohmann::json::object();
  for (auto& [app, v] : txns) j["txns"][app] = v;
  j["truncated_at"] = state.truncated_at ? EncodeValue(*state.truncated_at) : nlohmann::json(nullptr);
  nlohmann::json keys = nlohmann::json::array();
  for (auto& [key, s] : state.keys) {
    nlohmann::json entry = nlohmann::json::array({key, s.sequence ? EncodeValue(*s.sequence) : nlohmann::json(nullptr),
                                                  s.deleted_at_ms});
    if (!s.deletes.empty()) {
      nlohmann::json deletes = nlohmann::json::array();
      for (auto& d : s.deletes) deletes.push_back(nlohmann::json::array({EncodeValue(d.sequence), d.applied_at_ms}));
      entry.push_back(std::move(deletes));
    }
    keys.push_back(std::move(entry));
  }
  j["keys"] = std::move(keys);
  DeltaTable* delta = DatabaseInstance::AsDelta(table);
  int64_t next = delta->Version() + 1;
  FileSystem* fs = db.Fs();
  Status status = fs->CreateDirectories(folder);
  if (status.ok()) status = fs->WriteFileAtomic(FileOf(folder, next), j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  if (!status.ok()) {
    throw IOError("APPLY CHANGES into " + table.name + " could not save its state in " + folder + ": " + status.message() +
                  "; nothing was committed, run it again");
  }
  for (int64_t version : StateVersions(fs, folder)) {
    if (version < next - 2) fs->RemoveFile(FileOf(folder, version));
  }
}

}  // namespace lakestream
