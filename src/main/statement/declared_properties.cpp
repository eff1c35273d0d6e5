#include "main/statement/declared_properties.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "common/string_util.hpp"
#include "transaction/database_instance.hpp"
#include "storage/table/delta_table.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

static bool IsChangeTracking(const std::string& key) {
  return StringUtil::CIEquals(key, "change_tracking") || StringUtil::CIEquals(key, "delta.enableChangeDataFeed");
}

static std::vector<std::string> KeysOf(const PropertyList& declared) {
  std::vector<std::string> keys;
  std::set<std::string> seen;
  for (auto& [key, value] : declared) {
    if (seen.insert(StringUtil::Lower(key)).second) keys.push_back(key);
  }
  return keys;
}

static bool Declares(const PropertyList& declared, const std::string& key) {
  for (auto& [k, v] : declared) {
    if (StringUtil::CIEquals(k, key)) return true;
  }
  return false;
}

void RecordDeclaredProperties(TableCatalogEntry& table, const PropertyList& declared) {
  if (declared.empty()) {
    table.state.declared_properties.reset();
    return;
  }
  table.state.declared_properties = KeysOf(declared);
}

void ReconcileDeclaredProperties(ClientContext& context, TableCatalogEntry& table, const PropertyList& declared) {
  std::map<std::string, std::string> to_set;
  for (auto& [key, value] : declared) {
    if (table.GetProperty(key) != value) to_set[key] = value;
  }
  std::vector<std::string> to_unset;
  if (table.state.declared_properties) {
    for (auto& key : *table.state.declared_properties) {
      if (Declares(declared, key) || IsChangeTracking(key) || table.GetProperty(key).empty()) continue;
      to_unset.push_back(key);
    }
  }
  std::optional<std::vector<std::string>> record;
  if (!declared.empty()) record = KeysOf(declared);
  bool record_changed = record != table.state.declared_properties;
  if (to_set.empty() && to_unset.empty() && !record_changed) return;

  DatabaseInstance& db = context.Database();
  DeltaTable* delta = DatabaseInstance::AsDelta(table);
  if (delta) {
    db.RequireWritable("a pipeline's TBLPROPERTIES change of " + table.name);
    // Each a metadata commit; the catalog then mirrors what the log says.
    if (!to_set.empty()) delta->SetProperties(to_set);
    if (!to_unset.empty()) delta->UnsetProperties(to_unset);
    DatabaseInstance::SyncFromDelta(table);
  } else {
    for (auto& [key, value] : to_set) table.SetProperty(key, value);
    for (auto& key : to_unset) table.UnsetProperty(key);
  }
  table.state.declared_properties = std::move(record);
  db.SaveCatalog();
}

}  // namespace lakestream
