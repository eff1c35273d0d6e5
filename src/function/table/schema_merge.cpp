#include "function/table/schema_merge.hpp"

#include <algorithm>
#include <cctype>

#include "common/string_util.hpp"
#include "storage/table/schema_evolution.hpp"

namespace lakestream {

using json = nlohmann::ordered_json;

namespace {

constexpr int kMaxDecimalWidth = 38;

bool Digits(const std::string& s, size_t at, size_t n) {
  if (at + n > s.size()) return false;
  for (size_t i = at; i < at + n; i++) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

// DECIMAL(p,s) for a number's shortest decimal text such as -12.34 (the
// parser keeps the double, not the digits written); DOUBLE when that text has
// an exponent or needs more than 38 digits.
LogicalType DecimalOfText(const std::string& text) {
  size_t start = text[0] == '-' ? 1 : 0;
  size_t dot = text.find('.');
  if (text.find_first_of("eE") != std::string::npos || dot == std::string::npos) return TypeId::DOUBLE;
  std::string whole = text.substr(start, dot - start);
  whole.erase(0, std::min(whole.find_first_not_of('0'), whole.size()));
  int scale = static_cast<int>(text.size() - dot - 1);
  int width = std::max<int>(static_cast<int>(whole.size()) + scale, 1);
  if (width > kMaxDecimalWidth) return TypeId::DOUBLE;
  return LogicalType::Decimal(static_cast<uint8_t>(width), static_cast<uint8_t>(scale));
}

// A DECIMAL wide enough for both (BIGINT counts as DECIMAL(20,0), INTEGER as
// DECIMAL(10,0)); DOUBLE when that needs more than 38 digits.
LogicalType WiderDecimal(const LogicalType& a, const LogicalType& b) {
  auto parts = [](const LogicalType& t) -> std::pair<int, int> {
    if (t.id() == TypeId::BIGINT) return {20, 0};
    if (t.id() == TypeId::INTEGER) return {10, 0};
    return {t.width() - t.scale(), t.scale()};
  };
  auto [ia, sa] = parts(a);
  auto [ib, sb] = parts(b);
  int scale = std::max(sa, sb);
  int width = std::max(ia, ib) + scale;
  if (width > kMaxDecimalWidth) return TypeId::DOUBLE;
  return LogicalType::Decimal(static_cast<uint8_t>(width), static_cast<uint8_t>(scale));
}

bool IsNull(const LogicalType& t) { return t.id() == TypeId::SQLNULL || t.id() == TypeId::INVALID; }

// Can a column of type `stored` hold every value inferred as `incoming`
// without changing its type (new struct fields aside)?
bool Holds(const LogicalType& stored, const LogicalType& incoming) {
  if (IsNull(incoming) || stored == incoming || stored.id() == TypeId::VARCHAR) return true;
  switch (stored.id()) {
    case TypeId::DOUBLE: return incoming.IsNumeric();
    case TypeId::BIGINT: return incoming.id() == TypeId::INTEGER;
    case TypeId::TIMESTAMP: return incoming.id() == TypeId::DATE;
    case TypeId::DECIMAL:
      return (incoming.IsIntegral() || incoming.id() == TypeId::DECIMAL) && WiderDecimal(stored, incoming) == stored;
    case TypeId::STRUCT: return incoming.id() == TypeId::STRUCT;  // field by field in Diff
    case TypeId::LIST: return incoming.id() == TypeId::LIST;
    case TypeId::MAP: return incoming.id() == TypeId::STRUCT || incoming.id() == TypeId::MAP;
    default: return false;
  }
}

void Diff(const std::string& path, const LogicalType& stored, const LogicalType& incoming, std::vector<SchemaChange>& out) {
  if (!Holds(stored, incoming)) {
    out.push_back({SchemaChange::Kind::TYPE_CHANGE, path, stored, incoming});
    return;
  }
  if (stored.id() == TypeId::STRUCT && incoming.id() == TypeId::STRUCT) {
    for (auto& [name, type] : incoming.children()) {
      int64_t at = FindStructField(stored.children(), name);
      if (at < 0) {
        if (!IsNull(type)) out.push_back({SchemaChange::Kind::NEW_FIELD, path + "." + name, LogicalType(), type});
        continue;
      }
      Diff(path + "." + stored.children()[at].first, stored.children()[at].second, type, out);
    }
  } else if (stored.id() == TypeId::LIST && incoming.id() == TypeId::LIST) {
    Diff(path + ".element", stored.ListChild(), incoming.ListChild(), out);
  } else if (stored.id() == TypeId::MAP && incoming.id() == TypeId::STRUCT) {
    // A map column read from JSON objects: every field is a value.
    const LogicalType& value = stored.ListChild().children()[1].second;
    for (auto& [name, type] : incoming.children()) Diff(path + ".value", value, type, out);
  }
}

}  // namespace

LogicalType InferStringType(const std::string& s) {
  // YYYY-MM-DD
  if (s.size() < 10 || !Digits(s, 0, 4) || s[4] != '-' || !Digits(s, 5, 2) || s[7] != '-' || !Digits(s, 8, 2)) {
    return TypeId::VARCHAR;
  }
  if (s.size() == 10) return TypeId::DATE;
  // [T ]HH:MM[:SS[.f+]][Z|+HH[:MM]|-HH[:MM]]
  if ((s[10] != 'T' && s[10] != ' ') || !Digits(s, 11, 2) || s.size() < 16 || s[13] != ':' || !Digits(s, 14, 2)) {
    return TypeId::VARCHAR;
  }
  size_t i = 16;
  if (i < s.size() && s[i] == ':') {
    if (!Digits(s, i + 1, 2)) return TypeId::VARCHAR;
    i += 3;
    if (i < s.size() && s[i] == '.') {
      size_t j = i + 1;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) j++;
      if (j == i + 1) return TypeId::VARCHAR;
      i = j;
    }
  }
  if (i == s.size()) return TypeId::TIMESTAMP;
  if (s[i] == 'Z' && i + 1 == s.size()) return TypeId::TIMESTAMP;
  if (s[i] == '+' || s[i] == '-') {
    if (!Digits(s, i + 1, 2)) return TypeId::VARCHAR;
    size_t rest = s.size() - (i + 3);
    if (rest == 0) return TypeId::TIMESTAMP;
    if ((rest == 3 && s[i + 3] == ':' && Digits(s, i + 4, 2)) || (rest == 2 && Digits(s, i + 3, 2))) return TypeId::TIMESTAMP;
  }
  return TypeId::VARCHAR;
}

LogicalType InferJsonValueType(const json& v, const InferOptions& options) {
  switch (v.type()) {
    case json::value_t::null: return TypeId::SQLNULL;
    case json::value_t::boolean: return TypeId::BOOLEAN;
    case json::value_t::number_integer: return TypeId::BIGINT;
    case json::value_t::number_unsigned:
      if (v.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX)) return TypeId::BIGINT;
      return options.prefers_decimal ? LogicalType::Decimal(20, 0) : LogicalType(TypeId::DOUBLE);
    case json::value_t::number_float: return options.prefers_decimal ? DecimalOfText(v.dump()) : LogicalType(TypeId::DOUBLE);
    case json::value_t::string: return options.infer_strings ? InferStringType(v.get_ref<const std::string&>()) : LogicalType(TypeId::VARCHAR);
    case json::value_t::object: {
      child_list_t fields;
      for (auto& [key, value] : v.items()) {
        LogicalType type = InferJsonValueType(value, options);
        int64_t at = FindStructField(fields, key);
        if (at < 0) {
          fields.emplace_back(key, type);
        } else {
          fields[at].second = MergeInferredTypes(fields[at].second, type);
        }
      }
      return LogicalType::Struct(std::move(fields));
    }
    case json::value_t::array: {
      LogicalType element = TypeId::SQLNULL;
      for (auto& e : v) element = MergeInferredTypes(element, InferJsonValueType(e, options));
      return LogicalType::List(element);
    }
    default: return TypeId::VARCHAR;
  }
}

LogicalType MergeInferredTypes(const LogicalType& a, const LogicalType& b) {
  if (IsNull(a)) return b;
  if (IsNull(b)) return a;
  if (a == b) return a;
  TypeId x = a.id(), y = b.id();
  if (x == TypeId::STRUCT && y == TypeId::STRUCT) {
    child_list_t fields = a.children();
    for (auto& [name, type] : b.children()) {
      int64_t at = FindStructField(fields, name);
      if (at < 0) {
        fields.emplace_back(name, type);
      } else {
        fields[at].second = MergeInferredTypes(fields[at].second, type);
      }
    }
    return LogicalType::Struct(std::move(fields));
  }
  if (x == TypeId::LIST && y == TypeId::LIST) return LogicalType::List(MergeInferredTypes(a.ListChild(), b.ListChild()));
  if (a.IsNumeric() && b.IsNumeric()) {
    if (x == TypeId::DOUBLE || y == TypeId::DOUBLE) return TypeId::DOUBLE;
    if (x == TypeId::DECIMAL || y == TypeId::DECIMAL) return WiderDecimal(a, b);
    return TypeId::BIGINT;  // INTEGER and BIGINT
  }
  auto temporal = [](TypeId id) { return id == TypeId::DATE || id == TypeId::TIMESTAMP; };
  if (temporal(x) && temporal(y)) return TypeId::TIMESTAMP;
  return TypeId::VARCHAR;
}

LogicalType FinishInferredType(const LogicalType& type, bool infer_types, bool resolve_nulls) {
  switch (type.id()) {
    case TypeId::STRUCT: {
      if (type.children().empty()) return resolve_nulls ? LogicalType(TypeId::VARCHAR) : type;  // only {} seen: its text
      child_list_t fields;
      for (auto& [name, t] : type.children()) fields.emplace_back(name, FinishInferredType(t, infer_types, resolve_nulls));
      return LogicalType::Struct(std::move(fields));
    }
    case TypeId::LIST: return LogicalType::List(FinishInferredType(type.ListChild(), infer_types, resolve_nulls));
    case TypeId::MAP: return type;
    case TypeId::SQLNULL:
    case TypeId::INVALID: return resolve_nulls ? LogicalType(TypeId::VARCHAR) : type;
    default: return infer_types ? type : LogicalType(TypeId::VARCHAR);
  }
}

std::vector<SchemaChange> DiffSchemas(const FileSchema& stored, const FileSchema& incoming) {
  std::vector<SchemaChange> out;
  for (idx_t i = 0; i < incoming.size(); i++) {
    int64_t at = stored.Find(incoming.names[i]);
    if (at < 0) {
      if (!IsNull(incoming.types[i])) out.push_back({SchemaChange::Kind::NEW_COLUMN, incoming.names[i], LogicalType(), incoming.types[i]});
      continue;
    }
    Diff(stored.names[at], stored.types[at], incoming.types[i], out);
  }
  return out;
}

LogicalType AddNewFields(const LogicalType& stored, const LogicalType& incoming, bool widen) {
  if (stored.id() == TypeId::STRUCT && incoming.id() == TypeId::STRUCT) {
    child_list_t fields = stored.children();
    for (auto& [name, type] : incoming.children()) {
      int64_t at = FindStructField(fields, name);
      if (at < 0) {
        if (!IsNull(type)) fields.emplace_back(name, FinishInferredType(type, true));
      } else {
        fields[at].second = AddNewFields(fields[at].second, type, widen);
      }
    }
    return LogicalType::Struct(std::move(fields));
  }
  if (stored.id() == TypeId::LIST && incoming.id() == TypeId::LIST) {
    return LogicalType::List(AddNewFields(stored.ListChild(), incoming.ListChild(), widen));
  }
  if (widen && !Holds(stored, incoming)) {
    LogicalType merged = MergeInferredTypes(stored, incoming);
    if (DeltaWidensOnEvolution(stored, merged)) return merged;
  }
  return stored;
}

FileSchema AddNewFields(const FileSchema& stored, const FileSchema& incoming, bool widen) {
  FileSchema out = stored;
  for (idx_t i = 0; i < incoming.size(); i++) {
    int64_t at = out.Find(incoming.names[i]);
    if (at < 0) {
      if (IsNull(incoming.types[i])) continue;
      out.names.push_back(incoming.names[i]);
      out.types.push_back(FinishInferredType(incoming.types[i], true));
      continue;
    }
    out.types[at] = AddNewFields(out.types[at], incoming.types[i], widen);
  }
  return out;
}

std::string TypeForMessage(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::STRUCT: {
      std::string s = "STRUCT<";
      for (idx_t i = 0; i < type.children().size(); i++) {
        s += (i ? ", " : "") + type.children()[i].first + ": " + TypeForMessage(type.children()[i].second);
      }
      return s + ">";
    }
    case TypeId::LIST: return "ARRAY<" + TypeForMessage(type.ListChild()) + ">";
    case TypeId::VARCHAR: return "STRING";
    default: return type.ToString();
  }
}

}  // namespace lakestream
