// SET name = value and the settings listing (lakestream_settings()).
//
// The settings are a table keyed by name: each entry says how to set the
// value and how to show it. A new setting is one more entry in kSettings.
// Settings that govern what statements may reach (external access) are held
// per open database, as DuckDB holds them globally.
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "common/exception.hpp"
#include "common/query_progress.hpp"
#include "common/string_util.hpp"
#include "common/time_zone.hpp"
#include "execution/memory/memory_pool.hpp"
#include "execution/parallel/parallel_planning.hpp"
#include "main/statement/statement_executor.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

namespace {

struct SettingDefinition {
  const char* name;
  const char* description;
  void (*set)(ClientContext& context, const SetStatement& statement);
  std::string (*show)(ClientContext& context);
  // RESET name: back to the default; null: RESET is refused.
  void (*reset)(ClientContext& context) = nullptr;
};

MemoryPool& PoolOf(ClientContext& context) {
  // The pool lives as long as the database (Database::~Database forgets it).
  return *MemoryPoolFor(&context.Database(), context.Database().Path());
}

std::string OneValue(const SetStatement& statement) {
  if (statement.is_list) throw InvalidInputError("SET " + statement.name + " takes one value, not a list");
  return statement.value;
}

bool ParseBool(const SetStatement& statement) {
  if (statement.is_list) {
    throw InvalidInputError("SET " + statement.name + " takes true or false, not a list");
  }
  std::string v = StringUtil::Lower(statement.value);
  if (v == "true" || v == "1" || v == "on") return true;
  if (v == "false" || v == "0" || v == "off") return false;
  throw InvalidInputError("SET " + statement.name + " = '" + statement.value + "': expected true or false");
}

// A list ['a', 'b'], or one string as a list of one.
std::vector<std::string> ParseList(const SetStatement& statement) {
  if (statement.is_list) return statement.list;
  if (statement.value.empty()) return {};
  return {statement.value};
}

int64_t ParseMilliseconds(const SetStatement& statement) {
  char* end = nullptr;
  long long v = statement.is_list ? -1 : std::strtoll(statement.value.c_str(), &end, 10);
  if (statement.is_list || statement.value.empty() || *end != '\0' || v < 0) {
    throw InvalidInputError("SET " + statement.name + " = '" + statement.value +
                            "': expected a whole number of milliseconds, 0 or more");
  }
  return v;
}

// SET threads: a whole number in [1, kMaxThreads].
constexpr long long kMaxThreads = 1024;

idx_t ParseThreads(const SetStatement& statement) {
  char* end = nullptr;
  long long v = statement.is_list ? -1 : std::strtoll(statement.value.c_str(), &end, 10);
  if (statement.is_list || statement.value.empty() || *end != '\0' || v < 1 || v > kMaxThreads) {
    throw InvalidInputError("SET threads = '" + (statement.is_list ? std::string("[...]") : statement.value) +
                            "': expected a whole number of threads from 1 to " + std::to_string(kMaxThreads) +
                            " (this machine has " + std::to_string(std::max(1U, std::thread::hardware_concurrency())) +
                            " cores)");
  }
  return static_cast<idx_t>(v);
}

std::string ShowList(const std::vector<std::string>& items) {
  std::string text = "[";
  for (size_t i = 0; i < items.size(); i++) text += (i ? ", " : "") + items[i];
  return text + "]";
}

const SettingDefinition kSettings[] = {
    {kSessionTimeZoneSetting,
     "The session time zone: TIMESTAMP values are shown in it and strings without an offset read in it (SET TIME "
     "ZONE 'zone' | LOCAL)",
     [](ClientContext& context, const SetStatement& statement) {
       if (statement.is_list) throw InvalidInputError("SET " + statement.name + " takes one zone, not a list");
       // An unknown zone throws, naming it and the accepted forms.
       context.time_zone = statement.value == kSessionTimeZoneLocal ? TimeZone::Local() : TimeZone::Get(statement.value);
       SetSessionTimeZone(context.time_zone);
     },
     [](ClientContext& context) { return context.time_zone->Name(); }},
    {"enable_external_access",
     "Whether statements may read and write files outside the database directory and reach the network; once false "
     "it stays false",
     [](ClientContext& context, const SetStatement& statement) {
       context.Database().AccessPolicy().SetEnabled(ParseBool(statement));
     },
     [](ClientContext& context) -> std::string { return context.Database().AccessPolicy().Enabled() ? "true" : "false"; }},
    {"allowed_directories",
     "Directories statements may still reach when enable_external_access is false (set before turning it off)",
     [](ClientContext& context, const SetStatement& statement) {
       context.Database().AccessPolicy().SetAllowedDirectories(ParseList(statement));
     },
     [](ClientContext& context) { return ShowList(context.Database().AccessPolicy().AllowedDirectories()); }},
    {"allowed_paths", "Files statements may still reach when enable_external_access is false (set before turning it off)",
     [](ClientContext& context, const SetStatement& statement) {
       context.Database().AccessPolicy().SetAllowedPaths(ParseList(statement));
     },
     [](ClientContext& context) { return ShowList(context.Database().AccessPolicy().AllowedPaths()); }},
    {"enable_progress_bar",
     "Whether the shell draws a progress bar on a terminal for statements running longer than progress_bar_time",
     [](ClientContext& context, const SetStatement& statement) {
       ProgressFor(&context).bar_enabled = ParseBool(statement);
     },
     [](ClientContext& context) -> std::string { return ProgressFor(&context).bar_enabled ? "true" : "false"; }},
    {"progress_bar_time",
     "Milliseconds a statement runs before the shell's progress bar appears",
     [](ClientContext& context, const SetStatement& statement) {
       ProgressFor(&context).bar_wait_ms = ParseMilliseconds(statement);
     },
     [](ClientContext& context) { return std::to_string(ProgressFor(&context).bar_wait_ms.load()); }},
    {"threads",
     "Threads a query may use: table scans split into morsels feed hash aggregates on this many threads (default: "
     "the machine's cores, or the database's threads option)",
     [](ClientContext& context, const SetStatement& statement) { context.threads = ParseThreads(statement); },
     [](ClientContext& context) { return std::to_string(ThreadCount(context)); },
     [](ClientContext& context) { context.threads = 0; }},
    {"memory_limit",
     "Working memory the queries of this database may use for hash tables, aggregate states and collected join "
     "sides before they spill to temp_directory (not the tables kept in memory); e.g. '2GB', '512MiB' (default: "
     "80% of the machine's memory)",
     [](ClientContext& context, const SetStatement& statement) {
       PoolOf(context).SetLimit(ParseMemorySize("memory_limit", OneValue(statement)));
     },
     [](ClientContext& context) { return FormatBytes(PoolOf(context).Limit()); },
     [](ClientContext& context) { PoolOf(context).SetLimit(0); }},
    {"temp_directory",
     "Folder for the spill files of queries over memory_limit (default: _lakestream/tmp in the database's folder; "
     "the system's temp folder for an in-memory database)",
     [](ClientContext& context, const SetStatement& statement) {
       std::string dir = OneValue(statement);
       if (dir.empty()) {
         throw InvalidInputError("SET temp_directory = '': expected a folder, e.g. SET temp_directory = '/tmp/spill' "
                                 "(RESET temp_directory restores the default)");
       }
       PoolOf(context).SetTempDirectory(dir);
     },
     [](ClientContext& context) { return PoolOf(context).TempDirectory(); },
     [](ClientContext& context) { PoolOf(context).SetTempDirectory(""); }},
    {kVacuumRetentionCheckSetting,
     "Whether VACUUM refuses a RETAIN shorter than the table's delta.deletedFileRetentionDuration (7 days by "
     "default), which could delete files that readers of older versions and running writers still use (Delta's name)",
     [](ClientContext& context, const SetStatement& statement) { context.vacuum_retention_check = ParseBool(statement); },
     [](ClientContext& context) -> std::string { return context.vacuum_retention_check ? "true" : "false"; }},
};

// Other systems' names for a setting: DuckDB's and PostgreSQL's TimeZone.
struct SettingAlias {
  const char* alias;
  const char* name;
};
const SettingAlias kAliases[] = {{"TimeZone", kSessionTimeZoneSetting}, {"max_memory", "memory_limit"}};

std::string SettingNames() {
  std::string names;
  for (auto& s : kSettings) names += std::string(names.empty() ? "" : ", ") + s.name;
  return names;
}

}  // namespace

std::unique_ptr<QueryResult> ExecuteSet(ClientContext& context, SetStatement& statement) {
  std::string name = statement.name;
  for (auto& alias : kAliases) {
    if (StringUtil::CIEquals(name, alias.alias)) name = alias.name;
  }
  for (auto& setting : kSettings) {
    if (StringUtil::CIEquals(name, setting.name)) {
      if (statement.reset) {
        if (!setting.reset) {
          throw NotImplementedError("RESET " + std::string(setting.name) + " (SET it to the value you want instead)");
        }
        setting.reset(context);
        return MakeEmptyResult();
      }
      setting.set(context, statement);
      return MakeEmptyResult();
    }
  }
  throw CatalogError(std::string(statement.reset ? "RESET " : "SET ") + statement.name + ": no such setting; settings: " + SettingNames() +
                     " (SELECT * FROM lakestream_settings() lists them with their values)");
}

std::vector<std::vector<std::string>> ListSettings(ClientContext& context) {
  std::vector<std::vector<std::string>> rows;
  for (auto& setting : kSettings) rows.push_back({setting.name, setting.show(context), setting.description});
  return rows;
}

}  // namespace lakestream
