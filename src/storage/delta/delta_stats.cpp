#include "storage/delta/delta_stats.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cmath>

#include <nlohmann/json.hpp>

#include "common/date.hpp"
#include "common/decimal.hpp"
#include "common/json_parse.hpp"
#include "storage/delta/column_mapping.hpp"
#include "storage/delta/deletion_vector.hpp"

namespace lakestream::delta {

namespace {

constexpr size_t kStringPrefix = 32;

void AppendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

// Byte offsets of code points; false for invalid UTF-8.
bool Utf8Prefix(std::string_view s, size_t max_chars, size_t& prefix_bytes, bool& truncated) {
  size_t i = 0, chars = 0;
  prefix_bytes = s.size();
  truncated = false;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (size_t k = 1; k < len; k++)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    if (chars == max_chars && !truncated) {
      prefix_bytes = i;
      truncated = true;
    }
    i += len;
    chars++;
  }
  return true;
}

// The JSON text of a stats value, or "" when none should be written.
std::string StatValue(const Value& v, bool is_max) {
  if (v.IsNull()) return "";
  switch (v.type().id()) {
    case TypeId::INTEGER: return std::to_string(v.GetInteger());
    case TypeId::BIGINT: return std::to_string(v.GetBigint());
    case TypeId::DOUBLE: {
      double d = v.GetDouble();
      if (!std::isfinite(d)) return "";
      char buf[64];
      auto r = std::to_chars(buf, buf + sizeof(buf), d);
      return std::string(buf, r.ptr);
    }
    case TypeId::DECIMAL: return Decimal::ToString(v.GetHugeint(), v.type().scale());
    case TypeId::DATE: return "\"" + Date::ToString(v.GetDate()) + "\"";
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: {
      // Milliseconds, as Spark writes; an NTZ wall clock has no 'Z'.
      bool ntz = v.type().id() == TypeId::TIMESTAMP_NTZ;
      timestamp_t ts = v.GetTimestamp();
      timestamp_t ms = (ts >= 0 ? ts / 1000 : (ts - 999) / 1000);  // floor to ms
      date_t day = Timestamp::GetDate(ms * 1000);
      int64_t in_day = ms * 1000 - Timestamp::FromDate(day);
      int64_t secs = in_day / 1000000, millis = (in_day / 1000) % 1000;
      char buf[64];
      std::snprintf(buf, sizeof(buf), "\"%sT%02lld:%02lld:%02lld.%03lld%s\"", Date::ToString(day).c_str(),
                    static_cast<long long>(secs / 3600), static_cast<long long>(secs / 60 % 60),
                    static_cast<long long>(secs % 60), static_cast<long long>(millis), ntz ? "" : "Z");
      return buf;
    }
    case TypeId::VARCHAR: {
      size_t prefix;
      bool truncated;
      if (!Utf8Prefix(v.GetString(), kStringPrefix, prefix, truncated)) return "";
      if (truncated && is_max) return "";
      std::string out;
      AppendJsonString(out, std::string_view(v.GetString()).substr(0, prefix));
      return out;
    }
    default: return "";
  }
}

}  // namespace

std::string MakeStatsJson(const std::vector<std::string>& names, const std::vector<LogicalType>& types,
                          const ParquetFileInfo& info) {
  std::string mins, maxs, nulls;
  for (size_t i = 0; i < names.size() && i < types.size() && i < info.columns.size(); i++) {
    if (types[i].IsNested()) continue;
    std::string key;
    AppendJsonString(key, names[i]);
    auto add = [&](std::string& obj, const std::string& value) {
      if (value.empty()) return;
      obj += obj.empty() ? "" : ",";
      obj += key + ":" + value;
    };
    add(mins, StatValue(info.columns[i].min, false));
    add(maxs, StatValue(info.columns[i].max, true));
    add(nulls, std::to_string(info.columns[i].null_count));
  }
  return "{\"numRecords\":" + std::to_string(info.row_count) + ",\"minValues\":{" + mins + "},\"maxValues\":{" +
         maxs + "},\"nullCount\":{" + nulls + "}}";
}

namespace {

// A minValues/maxValues/nullCount struct as a JSON object: nested struct
// columns nest; leaves go through StatValue (counts are integers anyway).
std::string StructStatsObject(const Value& v, bool is_max) {
  std::string out;
  const auto& fields = v.type().children();
  for (size_t i = 0; i < fields.size() && i < v.Children().size(); i++) {
    const Value& child = v.Children()[i];
    std::string value;
    if (child.IsNull()) continue;
    if (child.type().id() == TypeId::STRUCT) {
      value = "{" + StructStatsObject(child, is_max) + "}";
    } else if (child.type().id() == TypeId::DECIMAL) {
      // As a string: a JSON number would be read through a double.
      AppendJsonString(value, StatValue(child, is_max));
    } else {
      value = StatValue(child, is_max);
    }
    if (value.empty()) continue;
    out += out.empty() ? "" : ",";
    AppendJsonString(out, fields[i].first);
    out += ":" + value;
  }
  return out;
}

}  // namespace

std::string StatsJsonFromStruct(const Value& stats_parsed) {
  std::string out;
  if (stats_parsed.IsNull() || stats_parsed.type().id() != TypeId::STRUCT) return "{}";
  const auto& fields = stats_parsed.type().children();
  for (size_t i = 0; i < fields.size() && i < stats_parsed.Children().size(); i++) {
    const Value& child = stats_parsed.Children()[i];
    const std::string& name = fields[i].first;
    std::string value;
    if (child.IsNull()) continue;
    if (name == "numRecords" && child.type().IsIntegral()) {
      value = StatValue(child, false);
    } else if (name == "tightBounds" && child.type().id() == TypeId::BOOLEAN) {
      value = child.GetBoolean() ? "true" : "false";
    } else if ((name == "minValues" || name == "maxValues" || name == "nullCount") &&
               child.type().id() == TypeId::STRUCT) {
      value = "{" + StructStatsObject(child, name == "maxValues") + "}";
    } else {
      continue;
    }
    out += out.empty() ? "" : ",";
    AppendJsonString(out, name);
    out += ":" + value;
  }
  return "{" + out + "}";
}

namespace {

// Every count in a nullCount object (nested for struct columns) is an
// integer in [0, num_records]; the first one that is not, by column path.
std::optional<std::string> BadNullCount(const nlohmann::json& counts, int64_t num_records, const std::string& prefix) {
  for (auto it = counts.begin(); it != counts.end(); ++it) {
    std::string column = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object()) {
      if (auto bad = BadNullCount(*it, num_records, column)) return bad;
      continue;
    }
    if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > num_records) {
      return "nullCount of column " + column + " is " + it->dump() + ", but the file has " + std::to_string(num_records) + " rows";
    }
  }
  return std::nullopt;
}

// The fast path of CheckedNumRecords: one SAX pass over the stats, no tree
// (a table with many files parses one stats object per file when COUNT(*) is
// answered from them). It accepts only the plain case: an object with one
// non-negative integer numRecords and a nullCount (absent, null, or an
// object nested only through objects) of non-negative integers. Anything else
// (malformed, too deep, duplicate keys, numRecords missing or null, a count
// that does not fit) is `plain = false`, and the DOM path below decides and
// words the error, so both paths give the same answers.
class NumRecordsScan : public nlohmann::json_sax<nlohmann::json> {
 public:
  bool plain = true;
  std::optional<int64_t> records;
  int64_t max_null_count = 0;

  bool null() override { return Scalar(Kind::kNull, 0); }
  bool boolean(bool) override { return Scalar(Kind::kOther, 0); }
  bool number_integer(number_integer_t v) override { return Scalar(v < 0 ? Kind::kOther : Kind::kCount, v); }
  bool number_unsigned(number_unsigned_t v) override {
    return Scalar(v > static_cast<uint64_t>(INT64_MAX) ? Kind::kOther : Kind::kCount, static_cast<int64_t>(v));
  }
  bool number_float(number_float_t, const string_t&) override { return Scalar(Kind::kOther, 0); }
  bool string(string_t&) override { return Scalar(Kind::kOther, 0); }
  bool binary(binary_t&) override { return Fail(); }
  bool start_object(std::size_t) override {
    if (depth_ == 1 && key_ == Key::kNumRecords) return Fail();
    if (depth_ == 1) in_null_count_ = key_ == Key::kNullCount;
    if (++depth_ > kMaxDepth) return Fail();
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ != 1) return true;
    key_ = k == "numRecords" ? Key::kNumRecords : k == "nullCount" ? Key::kNullCount : Key::kOther;
    if (key_ == Key::kOther) return true;
    uint8_t bit = key_ == Key::kNumRecords ? 1 : 2;
    if (seen_ & bit) return Fail();  // a duplicate key: the tree keeps the last one
    seen_ |= bit;
    return true;
  }
  bool end_object() override {
    if (--depth_ == 1) in_null_count_ = false;
    return true;
  }
  bool start_array(std::size_t) override {
    if (depth_ == 0 || (depth_ == 1 && key_ != Key::kOther) || in_null_count_) return Fail();
    if (++depth_ > kMaxDepth) return Fail();
    return true;
  }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return Fail(); }

 private:
  enum class Kind { kNull, kCount, kOther };
  enum class Key { kOther, kNumRecords, kNullCount };
  static constexpr int kMaxDepth = 64;  // deeper stats go the DOM way (which refuses > kMaxJsonDepth)

  bool Fail() {
    plain = false;
    return false;  // stops the parse
  }
  bool Scalar(Kind kind, int64_t v) {
    if (depth_ == 0) return Fail();  // not an object
    if (depth_ == 1 && key_ == Key::kNumRecords) {
      if (kind != Kind::kCount) return Fail();
      records = v;
    } else if (depth_ == 1 && key_ == Key::kNullCount) {
      if (kind != Kind::kNull) return Fail();
    } else if (in_null_count_) {
      if (kind != Kind::kCount) return Fail();
      max_null_count = std::max(max_null_count, v);
    }
    return true;
  }

  int depth_ = 0;
  Key key_ = Key::kOther;  // the current key at depth 1
  bool in_null_count_ = false;
  uint8_t seen_ = 0;
};

}  // namespace

Result<std::optional<int64_t>> CheckedNumRecords(const std::optional<std::string>& stats, const std::string& file) {
  if (!stats || stats->empty()) return std::optional<int64_t>();
  {
    NumRecordsScan scan;
    bool parsed = ParseJsonSax(*stats, &scan);
    if (parsed && scan.plain && scan.records && scan.max_null_count <= *scan.records) return scan.records;
  }
  auto bad = [&](const std::string& why) {
    return Status::Corruption("the statistics of data file " + file + " in the log are invalid: " + why +
                              " (stats: " + stats->substr(0, 200) + ")");
  };
  nlohmann::json j = ParseJson(*stats);
  if (j.is_discarded() || !j.is_object()) return bad("they are not a JSON object");
  auto n = j.find("numRecords");
  if (n == j.end() || n->is_null()) return std::optional<int64_t>();
  if (!n->is_number_integer() || n->get<int64_t>() < 0) return bad("numRecords is not a non-negative integer");
  int64_t records = n->get<int64_t>();
  auto nulls = j.find("nullCount");
  if (nulls != j.end() && !nulls->is_null()) {
    if (!nulls->is_object()) return bad("nullCount is not an object");
    if (auto why = BadNullCount(*nulls, records, "")) return bad(*why);
  }
  return std::optional<int64_t>(records);
}

Result<std::optional<int64_t>> CheckedNumRecords(const AddFile& add, const std::string& file) {
  const StatsCounts& c = add.counts;
  if (!c.num_records) return CheckedNumRecords(add.stats, file);
  if (*c.num_records < 0 || c.max_null_count < 0 || c.max_null_count > *c.num_records)
    return Status::Corruption("the statistics of data file " + file + " in the checkpoint are invalid: numRecords is " +
                              std::to_string(*c.num_records) + " and a nullCount " + std::to_string(c.max_null_count) +
                              " (add.stats_parsed)");
  return c.num_records;
}

std::optional<int64_t> LiveRecords(const AddFile& add) {
  auto records = CheckedNumRecords(add, add.path);
  if (!records.ok() || !records.value()) return std::nullopt;
  int64_t rows = *records.value();
  if (!add.deletion_vector) return rows;
  auto dv = ParseDeletionVectorDescriptor(*add.deletion_vector);
  if (!dv.ok() || dv.value().cardinality < 0 || dv.value().cardinality > rows) return std::nullopt;
  return rows - dv.value().cardinality;
}

namespace {

bool HasStructBounds(TypeId id) {
  switch (id) {
    case TypeId::INTEGER:
    case TypeId::BIGINT:
    case TypeId::DOUBLE:
    case TypeId::DATE:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ:
    case TypeId::VARCHAR: return true;
    default: return false;
  }
}

// A JSON bound as a value of `type`; NULL when it does not convert exactly.
Value BoundValue(const nlohmann::json& j, const LogicalType& type) {
  switch (type.id()) {
    case TypeId::INTEGER:
      if (j.is_number_integer() && j.get<int64_t>() >= INT32_MIN && j.get<int64_t>() <= INT32_MAX)
        return Value::INTEGER(static_cast<int32_t>(j.get<int64_t>()));
      break;
    case TypeId::BIGINT:
      if (j.is_number_integer() && (!j.is_number_unsigned() || j.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX)))
        return Value::BIGINT(j.get<int64_t>());
      break;
    case TypeId::DOUBLE:
      if (j.is_number()) return Value::DOUBLE(j.get<double>());
      break;
    case TypeId::DATE: {
      date_t d;
      if (j.is_string() && Date::TryParse(j.get<std::string>(), d)) return Value::DATE(d);
      break;
    }
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: {
      timestamp_t t;
      bool ntz = type.id() == TypeId::TIMESTAMP_NTZ;
      if (j.is_string() && (ntz ? Timestamp::TryParseNtz(j.get<std::string>(), t) : Timestamp::TryParse(j.get<std::string>(), t)))
        return ntz ? Value::TIMESTAMP_NTZ(t) : Value::TIMESTAMP(t);
      break;
    }
    case TypeId::VARCHAR:
      if (j.is_string()) return Value::VARCHAR(j.get<std::string>());
      break;
    default: break;
  }
  return Value(type);
}

// A minValues / maxValues / nullCount object as a value of STRUCT `type`.
Value StatsObject(const nlohmann::json& obj, const LogicalType& type) {
  std::vector<Value> fields;
  fields.reserve(type.children().size());
  for (const auto& [name, field_type] : type.children()) {
    auto it = obj.is_object() ? obj.find(name) : obj.end();
    fields.push_back(it == obj.end() ? Value(field_type) : BoundValue(*it, field_type));
  }
  return Value::STRUCT(type, std::move(fields));
}

}  // namespace

LogicalType StatsParsedType(const std::vector<DeltaColumn>& schema, const std::vector<std::string>& partition_columns,
                            bool physical_names) {
  std::vector<std::pair<std::string, LogicalType>> bounds, counts;
  for (const auto& column : schema) {
    if (column.type.IsNested()) continue;
    if (std::find(partition_columns.begin(), partition_columns.end(), column.name) != partition_columns.end()) continue;
    std::string name = physical_names ? PhysicalNameOf(column) : column.name;
    if (HasStructBounds(column.type.id())) bounds.emplace_back(name, column.type);
    counts.emplace_back(name, LogicalType(TypeId::BIGINT));
  }
  std::vector<std::pair<std::string, LogicalType>> fields = {{"numRecords", LogicalType(TypeId::BIGINT)}};
  if (!bounds.empty()) {
    fields.emplace_back("minValues", LogicalType::Struct(bounds));
    fields.emplace_back("maxValues", LogicalType::Struct(bounds));
  }
  if (!counts.empty()) fields.emplace_back("nullCount", LogicalType::Struct(counts));
  return LogicalType::Struct(fields);
}

Value StatsParsedValue(const LogicalType& type, const std::optional<std::string>& stats) {
  if (!stats) return Value(type);
  nlohmann::json j = ParseJson(*stats);
  if (!j.is_object()) return Value(type);
  std::vector<Value> fields;
  for (const auto& [name, field_type] : type.children()) {
    auto it = j.find(name);
    if (it == j.end()) {
      fields.emplace_back(field_type);
    } else if (name == "numRecords") {
      fields.push_back(BoundValue(*it, field_type));
    } else {
      fields.push_back(it->is_object() ? StatsObject(*it, field_type) : Value(field_type));
    }
  }
  return Value::STRUCT(type, std::move(fields));
}

}  // namespace lakestream::delta
