#include "ivm/view_status.hpp"

#include <optional>

#include "catalog/catalog.hpp"
#include "common/string_util.hpp"
#include "ivm/view_refresh.hpp"
#include "transaction/client_context.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

// A source's current version; nullopt when it is gone or cannot be opened.
static std::optional<int64_t> SourceVersionNow(ClientContext& context, const std::string& source) {
  TableCatalogEntry* entry = context.GetCatalog().FindTable(source);
  DeltaTable* delta = entry ? DatabaseInstance::AsDelta(*entry) : nullptr;
  if (!delta) return std::nullopt;
  return delta->Version();
}

// What each recorded source is at now (-1: missing), the fingerprint "failed_at" holds.
static std::map<std::string, int64_t> SourcesNow(ClientContext& context, const TableCatalogEntry& view) {
  std::map<std::string, int64_t> out;
  if (!view.state.sources) return out;
  for (auto& [source, version] : *view.state.sources) out[source] = SourceVersionNow(context, source).value_or(-1);
  return out;
}

void MarkViewFailed(ClientContext& context, TableCatalogEntry& view, const std::string& error) {
  view.state.status = "failed";
  view.state.error = error;
  view.state.failed_at = SourcesNow(context, view);
  try {
    context.Database().SaveCatalog();
  } catch (const std::exception&) {
    // Kept in memory; after a reopen the automatic refresh finds the view
    // behind and tries (and records) again.
  }
}

std::string ViewFailure(const TableCatalogEntry& view) {
  if (view.state.status.value_or("") != "failed") return "";
  return view.state.error.value_or("unknown error");
}

bool ViewFailedAtCurrentSources(ClientContext& context, TableCatalogEntry& view) {
  if (ViewFailure(view).empty()) return false;
  return view.state.failed_at && *view.state.failed_at == SourcesNow(context, view);
}

std::string ViewStatus(ClientContext& context, TableCatalogEntry& view) {
  if (!ViewFailure(view).empty()) return "failed";
  return ViewIsStale(context, view) ? "stale" : "current";
}

std::string ViewBehindReport(ClientContext& context, TableCatalogEntry& view) {
  std::vector<std::string> behind;
  const std::map<std::string, int64_t> recorded = view.state.sources.value_or(std::map<std::string, int64_t>());
  auto reflected = ViewSourceVersions(view);
  for (auto& [source, unused] : recorded) {
    auto now = SourceVersionNow(context, source);
    auto at = reflected.find(source);
    if (!now) {
      TableCatalogEntry* entry = context.GetCatalog().FindTable(source);
      behind.push_back(source + (entry && !entry->load_error.empty() ? " (which cannot be opened)" : " (which no longer exists)"));
    } else if (at == reflected.end() || at->second != *now) {
      std::string version = at == reflected.end() ? "none" : std::to_string(at->second);
      behind.push_back(source + " (at version " + version + ", source at " + std::to_string(*now) + ")");
    }
  }
  if (behind.empty()) return "";
  std::string out = "materialized view " + view.name + " is behind its source" + (behind.size() > 1 ? "s " : " ") +
                    StringUtil::Join(behind, ", ") + ": ";
  std::string fix = "REFRESH MATERIALIZED VIEW " + view.name;
  std::string failure = ViewFailure(view);
  if (!failure.empty()) {
    out += "its last refresh failed: " + failure + "; fix the cause (the source's data, or the source itself) and run " + fix;
  } else if (context.Database().Options().read_only) {
    out += "the database is open read-only, so the view was not refreshed; open it writable (the view then catches up)";
  } else if (ViewRefreshMode(view) == "manual") {
    out += "its refresh mode is manual; run " + fix;
  } else {
    out += "run " + fix;
  }
  return out + ". It shows its rows as of its last refresh.";
}

}  // namespace lakestream
