#include "pipeline/event_log.hpp"

#include <chrono>
#include <ctime>
#include <iostream>
#include <random>

namespace lakestream {

namespace {

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// Now as 'YYYY-MM-DD HH:MM:SS.mmm' UTC.
std::string NowText() {
  auto now = std::chrono::system_clock::now();
  int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::snprintf(text, sizeof(text), "%04d-%02d-%02d %02d:%02d:%02d.%03d", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(ms % 1000));
  return text;
}

std::string RandomHex(int digits) {
  static std::mt19937_64 generator{std::random_device{}()};
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < digits; i++) out += hex[generator() % 16];
  return out;
}

}  // namespace

EventLog::EventLog(Connection& con, std::string pipeline) : con_(con), pipeline_(std::move(pipeline)) {}

void EventLog::StartUpdate(int64_t pass, const std::vector<std::string>& full_refresh, bool continuous) {
  update_id_ = RandomHex(8) + "-" + RandomHex(4) + "-" + RandomHex(4) + "-" + RandomHex(4) + "-" + RandomHex(12);
  sequence_ = 0;
  nlohmann::json selection = nlohmann::json::array();
  for (auto& name : full_refresh) selection.push_back(name);
  std::string message = "Update " + update_id_.substr(0, 8) + " started (pass " + std::to_string(pass) + ")";
  if (!full_refresh.empty()) {
    message += "; full refresh of";
    for (size_t i = 0; i < full_refresh.size(); i++) message += (i ? ", " : " ") + full_refresh[i];
  }
  Add("create_update", "INFO", "", message,
      {{"create_update", {{"cause", continuous ? "CONTINUOUS" : "USER_ACTION"},
                          {"pass", pass},
                          {"full_refresh_selection", selection}}}});
}

void EventLog::Add(const std::string& event_type, const std::string& level, const std::string& origin,
                   const std::string& message, const nlohmann::json& details) {
  // Zero-padded so that ids sort in event order.
  char sequence[24];
  std::snprintf(sequence, sizeof(sequence), "%06lld", static_cast<long long>(++sequence_));
  std::string id = update_id_ + "-" + sequence;
  pending_.push_back("(" + Quote(id) + ", TIMESTAMP " + Quote(NowText()) + ", " + Quote(pipeline_) + ", " +
                     Quote(update_id_) + ", " + Quote(event_type) + ", " + Quote(level) + ", " +
                     (origin.empty() ? std::string("NULL") : Quote(origin)) + ", " + Quote(message) + ", " +
                     Quote(details.dump()) + ")");
}

bool EventLog::EnsureTable() {
  if (table_ready_) return true;
  auto result = con_.Query(std::string("CREATE TABLE IF NOT EXISTS ") + kTable +
                           " (id VARCHAR, timestamp TIMESTAMP, pipeline VARCHAR, update_id VARCHAR, event_type VARCHAR, "
                           "level VARCHAR, origin VARCHAR, message VARCHAR, details VARCHAR) "
                           "COMMENT 'lakestream run: the pipeline event log' "
                           "TBLPROPERTIES ('delta.appendOnly' = 'true', 'delta.enableChangeDataFeed' = 'true')");
  if (result->HasError()) {
    Warn("cannot create the event log table " + std::string(kTable) + ": " + result->GetError());
    return false;
  }
  // A table of that name made by someone else must not receive events by position.
  auto columns = con_.Query(std::string("DESCRIBE ") + kTable);
  std::string names;
  for (size_t r = 0; !columns->HasError() && r < columns->RowCount(); r++) {
    names += (r ? "," : "") + columns->GetValue(0, r).ToString();
  }
  if (names != "id,timestamp,pipeline,update_id,event_type,level,origin,message,details") {
    Warn("the table " + std::string(kTable) + " (columns " + names +
         ") is not a pipeline event log, so no events are written; rename or drop it");
    return false;
  }
  table_ready_ = true;
  return true;
}

void EventLog::Warn(const std::string& message) {
  if (!warned_) std::cerr << "lakestream run: " << message << "\n";
  warned_ = true;
  pending_.clear();
}

bool EventLog::Flush() {
  if (pending_.empty()) return true;
  if (!EnsureTable()) return false;
  std::string sql = std::string("INSERT INTO ") + kTable + " VALUES ";
  for (size_t i = 0; i < pending_.size(); i++) sql += (i ? ", " : "") + pending_[i];
  auto result = con_.Query(sql);
  if (result->HasError()) {
    Warn("cannot write the event log " + std::string(kTable) + ": " + result->GetError());
    return false;
  }
  pending_.clear();
  return true;
}

}  // namespace lakestream
