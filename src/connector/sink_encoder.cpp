#include "connector/sink_encoder.hpp"

#include <charconv>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "common/decimal.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"

namespace lakestream {

const char* ChangeKindToString(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::INSERT: return "insert";
    case ChangeKind::UPDATE_PREIMAGE: return "update (preimage)";
    case ChangeKind::UPDATE_POSTIMAGE: return "update";
    case ChangeKind::DELETE: return "delete";
    case ChangeKind::SNAPSHOT: return "snapshot read";
  }
  return "?";
}

static idx_t FindColumn(const std::string& sink_name, const std::string& source, const std::vector<std::string>& names,
                        const std::string& column, const char* option) {
  for (idx_t i = 0; i < names.size(); i++) {
    if (StringUtil::CIEquals(names[i], column)) return i;
  }
  std::string hint = StringUtil::ClosestMatch(column, names);
  throw InvalidInputError("Sink " + sink_name + ": " + option + " column \"" + column + "\" is not a column of " + source +
                          (hint.empty() ? " (columns: " + StringUtil::Join(names, ", ") + ")" : "; did you mean \"" + hint + "\"?"));
}

// The raw format's key and value columns (at most one each), as Spark's
// Kafka sink finds them: by the names `key` and `value` unless the options
// name others. Spark's `partition` and `headers` columns are refused rather
// than ignored, since the rows would not go where they say; a `topic` column
// is ignored because the sink's 'topic' option always overrides it (as in Spark).
static void ResolveRawColumns(const std::string& sink_name, const SinkOptions& options, SinkSchema& schema) {
  const auto& names = schema.names;
  auto find = [&](const std::string& name) -> std::optional<idx_t> {
    for (idx_t i = 0; i < names.size(); i++) {
      if (StringUtil::CIEquals(names[i], name)) return i;
    }
    return std::nullopt;
  };
  for (const char* unsupported : {"partition", "headers"}) {
    if (!find(unsupported)) continue;
    throw InvalidInputError("Sink " + sink_name + ": " + schema.source + " has a column \"" + unsupported +
                            "\", which the 'raw' format does not support (messages are partitioned by the murmur2 hash "
                            "of their key, and carry only the sink's lakestream.* headers); drop or rename that column");
  }
  auto check_type = [&](idx_t c, const char* role) {
    if (schema.types[c].id() == TypeId::VARCHAR) return;
    throw InvalidInputError("Sink " + sink_name + ": the 'raw' format sends the " + role + " column \"" + names[c] +
                            "\" of " + schema.source + " as it is, so it must be a VARCHAR, not " +
                            schema.types[c].ToString() + "; CAST it to VARCHAR or encode it with to_json(...)");
  };
  std::optional<idx_t> value = options.value_columns.empty()
                                   ? find("value")
                                   : FindColumn(sink_name, schema.source, names, options.value_columns[0], "value.columns");
  if (!value) {
    throw InvalidInputError("Sink " + sink_name + ": the 'raw' format sends the column \"value\" as each message's "
                            "value, and " + schema.source + " has none (columns: " + StringUtil::Join(names, ", ") +
                            "); name the value column with 'value.columns' = 'column'");
  }
  check_type(*value, "value");
  schema.value_columns.push_back(*value);
  std::optional<idx_t> key =
      options.key_columns.empty() ? find("key") : FindColumn(sink_name, schema.source, names, options.key_columns[0], "key");
  if (key) {
    check_type(*key, "key");
    schema.key_columns.push_back(*key);
  }
}

SinkSchema ResolveSinkSchema(const std::string& sink_name, const SinkOptions& options, const std::string& source,
                             const std::vector<std::string>& names, const std::vector<LogicalType>& types,
                             const std::vector<std::string>& primary_key) {
  SinkSchema schema;
  schema.source = source;
  schema.names = names;
  schema.types = types;
  if (options.format == SinkFormat::RAW) {
    ResolveRawColumns(sink_name, options, schema);
    return schema;
  }
  const auto& keys = options.key_columns.empty() ? primary_key : options.key_columns;
  for (auto& k : keys) schema.key_columns.push_back(FindColumn(sink_name, source, names, k, "key"));
  if (schema.key_columns.empty() && options.format != SinkFormat::APPEND) {
    throw InvalidInputError("Sink " + sink_name + ": the " + SinkFormatToString(options.format) + " format needs a key, and " +
                            source + " has no primary key; add 'key' = 'column[, column]' to WITH (...)");
  }
  if (options.value_columns.empty()) {
    for (idx_t i = 0; i < names.size(); i++) schema.value_columns.push_back(i);
  } else {
    for (auto& v : options.value_columns) schema.value_columns.push_back(FindColumn(sink_name, source, names, v, "value.columns"));
  }
  return schema;
}

SinkEncoder::SinkEncoder(const SinkOptions& options, SinkSchema schema) : options_(options), schema_(std::move(schema)) {
  json_.decimal_as_string = options.decimal_as_string;
  json_.timestamp_iso = true;
  for (idx_t c : schema_.value_columns) {
    std::string prefix = value_names_.empty() ? "{" : ",";
    value_names_.push_back(schema_.names[c]);
    AppendJsonString(prefix, value_names_.back());
    prefix.push_back(':');
    fixed_row_bound_ += prefix.size();
    value_prefixes_.push_back(std::move(prefix));
    switch (schema_.types[c].id()) {
      case TypeId::BOOLEAN:
      case TypeId::INTEGER:
      case TypeId::BIGINT:
        fixed_row_bound_ += 24;
        break;
      case TypeId::DECIMAL: fixed_row_bound_ += Decimal::kMaxTextSize + 2; break;
      case TypeId::VARCHAR: fixed_row_bound_ += 4; break;  // "null"; the text itself is added per row
      default: flat_values_ = false;
    }
  }
  fixed_row_bound_ += 2;
  AppendJsonString(source_json_, schema_.source);
}

void SinkEncoder::EncodeKey(const DataChunk& chunk, idx_t row, SinkMessage& m) const {
  std::string& out = m.key;
  m.has_key = true;
  m.key_is_object = false;
  if (schema_.key_columns.size() == 1) {
    const Vector& v = chunk.data[schema_.key_columns[0]];
    TypeId id = v.GetType().id();
    bool text_key = id == TypeId::VARCHAR || id == TypeId::INTEGER || id == TypeId::BIGINT;
    if (text_key && !v.IsValid(row)) {
      m.has_key = false;
      return;
    }
    if (v.IsValid(row)) {
      if (id == TypeId::VARCHAR) {
        string_t s = v.GetData<string_t>()[row];
        out.append(s.data(), s.size());
        return;
      }
      if (id == TypeId::INTEGER || id == TypeId::BIGINT) {
        char buf[24];
        int64_t n = id == TypeId::INTEGER ? v.GetData<int32_t>()[row] : v.GetData<int64_t>()[row];
        auto r = std::to_chars(buf, buf + sizeof(buf), n);
        out.append(buf, static_cast<size_t>(r.ptr - buf));
        return;
      }
    }
  }
  m.key_is_object = true;
  out.push_back('{');
  for (idx_t i = 0; i < schema_.key_columns.size(); i++) {
    if (i) out.push_back(',');
    idx_t c = schema_.key_columns[i];
    AppendJsonString(out, schema_.names[c]);
    out.push_back(':');
    AppendJsonVectorValue(out, chunk.data[c], row, json_);
  }
  out.push_back('}');
}

void SinkEncoder::EncodeRow(const DataChunk& chunk, idx_t row, std::string& out) const {
  if (flat_values_ && EncodeFlatRow(chunk, row, out)) return;
  if (value_prefixes_.empty()) out.push_back('{');
  for (idx_t i = 0; i < schema_.value_columns.size(); i++) {
    out += value_prefixes_[i];
    AppendJsonVectorValue(out, chunk.data[schema_.value_columns[i]], row, json_);
  }
  out.push_back('}');
}

namespace {

// Writers into a buffer the caller sized; each returns the new end. They
// write exactly what AppendJsonVectorValue appends for the same value.
char* WriteBytes(char* p, const char* s, size_t n) {
  std::memcpy(p, s, n);
  return p + n;
}

template <class T>
char* WriteInteger(char* p, T v) {
  return std::to_chars(p, p + 24, v).ptr;
}

}  // namespace

bool SinkEncoder::EncodeFlatRow(const DataChunk& chunk, idx_t row, std::string& out) const {
  // Room for the row at its longest: VARCHAR escapes at most 6 bytes per byte.
  constexpr size_t kBufferSize = 4096;
  size_t bound = fixed_row_bound_;
  for (idx_t c : schema_.value_columns) {
    const Vector& v = chunk.data[c];
    if (v.GetType().id() == TypeId::VARCHAR && v.IsValid(row)) bound += 6 * v.GetData<string_t>()[row].size() + 2;
  }
  if (bound > kBufferSize) return false;
  char buffer[kBufferSize];
  char* p = buffer;
  if (value_prefixes_.empty()) *p++ = '{';
  for (idx_t i = 0; i < schema_.value_columns.size(); i++) {
    p = WriteBytes(p, value_prefixes_[i].data(), value_prefixes_[i].size());
    const Vector& v = chunk.data[schema_.value_columns[i]];
    if (!v.IsValid(row)) {
      p = WriteBytes(p, "null", 4);
      continue;
    }
    const LogicalType& type = v.GetType();
    switch (type.id()) {
      case TypeId::BOOLEAN:
        p = v.GetData<bool>()[row] ? WriteBytes(p, "true", 4) : WriteBytes(p, "false", 5);
        break;
      case TypeId::INTEGER: p = WriteInteger(p, v.GetData<int32_t>()[row]); break;
      case TypeId::BIGINT: p = WriteInteger(p, v.GetData<int64_t>()[row]); break;
      case TypeId::DECIMAL:
        if (json_.decimal_as_string) *p++ = '"';
        p += Decimal::Format(v.GetData<hugeint_t>()[row], type.scale(), p);
        if (json_.decimal_as_string) *p++ = '"';
        break;
      case TypeId::VARCHAR: p = WriteJsonString(p, v.GetData<string_t>()[row]); break;
      default: return false;  // not reached: flat_values_ says every column is one of the above
    }
  }
  *p++ = '}';
  out.append(buffer, static_cast<size_t>(p - buffer));
  return true;
}

void SinkEncoder::EncodeDebezium(const ChangeRow* before, const ChangeRow* after, const char* op, int64_t version,
                                 timestamp_t commit_ts, std::string& out) const {
  out += "{\"before\":";
  if (before) EncodeRow(*before->chunk, before->row, out);
  else out += "null";
  out += ",\"after\":";
  if (after) EncodeRow(*after->chunk, after->row, out);
  else out += "null";
  out += ",\"op\":\"";
  out += op;
  out += "\",\"ts_ms\":";
  // Floor division: commit times before 1970 stay consistent.
  int64_t ms = commit_ts >= 0 ? commit_ts / 1000 : -((-commit_ts + 999) / 1000);
  out += std::to_string(ms);
  out += ",\"source\":{\"name\":\"lakestream\",\"table\":";
  out += source_json_;
  out += ",\"version\":";
  out += std::to_string(version);
  out += "}}";
}

int64_t SinkEncoder::EncodeVersion(int64_t version, timestamp_t commit_ts, const std::vector<ChangeRow>& rows,
                                   const std::function<void(SinkMessage&)>& emit, int64_t first_seq) {
  bool has_key = !schema_.key_columns.empty();
  int64_t skipped = 0;
  bool inserts_only = options_.format == SinkFormat::APPEND || options_.format == SinkFormat::RAW;
  if (inserts_only && !options_.skip_changes) {
    // Checked up front: a version is delivered whole or not at all.
    for (auto& r : rows) {
      if (r.kind == ChangeKind::INSERT || r.kind == ChangeKind::SNAPSHOT) continue;
      std::string op = r.kind == ChangeKind::DELETE ? "a DELETE" : "an UPDATE";
      if (options_.format == SinkFormat::RAW) {
        throw InvalidInputError("Sink with format 'raw' cannot deliver " + op + " of " + schema_.source + " at version " +
                                std::to_string(version) +
                                ": raw sends the key and value columns of inserted rows only. Use 'on_change' = "
                                "'skip' to count and skip updates and deletes, or read the source's changes through a "
                                "stream or table_changes(...) and encode them into the value column");
      }
      throw InvalidInputError("Sink with format 'append' cannot deliver " + op + " of " + schema_.source + " at version " +
                              std::to_string(version) +
                              ": append only carries inserts. Use 'format' = 'upsert' or 'debezium' to deliver "
                              "updates and deletes, or 'on_change' = 'skip' to count and skip them");
    }
  }
  // Debezium pairs each update's before and after image by key (by order of
  // appearance when the sink has no key).
  std::unordered_map<std::string, const ChangeRow*> preimages;
  std::vector<const ChangeRow*> unkeyed_preimages;
  size_t next_unkeyed = 0;
  if (options_.format == SinkFormat::DEBEZIUM) {
    SinkMessage probe;
    for (auto& r : rows) {
      if (r.kind != ChangeKind::UPDATE_PREIMAGE) continue;
      probe.key.clear();
      if (has_key) EncodeKey(*r.chunk, r.row, probe);
      if (has_key && probe.has_key) {
        preimages[probe.key] = &r;
      } else {
        unkeyed_preimages.push_back(&r);  // no key, or a NULL one: paired by order of appearance
      }
    }
  }

  SinkMessage m;
  m.version = version;
  int64_t seq = first_seq;
  auto start = [&](bool value) {
    m.seq = seq++;
    m.has_key = false;
    m.key_is_object = false;
    m.key.clear();
    m.has_value = value;
    m.value.clear();
  };
  for (auto& r : rows) {
    switch (options_.format) {
      case SinkFormat::APPEND:
        if (r.kind != ChangeKind::INSERT && r.kind != ChangeKind::SNAPSHOT) {
          skipped += r.kind != ChangeKind::UPDATE_PREIMAGE;  // an update is one change, two rows
          continue;
        }
        start(true);
        if (has_key) EncodeKey(*r.chunk, r.row, m);
        EncodeRow(*r.chunk, r.row, m.value);
        emit(m);
        break;
      case SinkFormat::RAW: {
        if (r.kind != ChangeKind::INSERT && r.kind != ChangeKind::SNAPSHOT) {
          skipped += r.kind != ChangeKind::UPDATE_PREIMAGE;
          continue;
        }
        // NULL value: a message with a null payload; NULL key: no key (as Spark sends them).
        const Vector& value = r.chunk->data[schema_.value_columns[0]];
        start(value.IsValid(r.row));
        if (m.has_value) {
          string_t text = value.GetData<string_t>()[r.row];
          m.value.assign(text.data(), text.size());
        }
        if (has_key) {
          const Vector& key = r.chunk->data[schema_.key_columns[0]];
          m.has_key = key.IsValid(r.row);
          if (m.has_key) {
            string_t text = key.GetData<string_t>()[r.row];
            m.key.assign(text.data(), text.size());
          }
        }
        emit(m);
        break;
      }
      case SinkFormat::UPSERT:
        if (r.kind == ChangeKind::UPDATE_PREIMAGE) continue;  // the new row says it all
        start(r.kind != ChangeKind::DELETE);
        EncodeKey(*r.chunk, r.row, m);
        if (m.has_value) EncodeRow(*r.chunk, r.row, m.value);
        emit(m);
        break;
      case SinkFormat::DEBEZIUM: {
        if (r.kind == ChangeKind::UPDATE_PREIMAGE) continue;
        start(true);
        if (has_key) EncodeKey(*r.chunk, r.row, m);
        if (r.kind == ChangeKind::UPDATE_POSTIMAGE) {
          const ChangeRow* before = nullptr;
          if (m.has_key) {
            auto it = preimages.find(m.key);
            if (it != preimages.end()) before = it->second;
          } else if (next_unkeyed < unkeyed_preimages.size()) {
            before = unkeyed_preimages[next_unkeyed++];
          }
          EncodeDebezium(before, &r, "u", version, commit_ts, m.value);
        } else if (r.kind == ChangeKind::DELETE) {
          EncodeDebezium(&r, nullptr, "d", version, commit_ts, m.value);
        } else {
          EncodeDebezium(nullptr, &r, r.kind == ChangeKind::SNAPSHOT ? "r" : "c", version, commit_ts, m.value);
        }
        emit(m);
        // A tombstone without a key would delete nothing: none for a NULL key.
        if (r.kind == ChangeKind::DELETE && options_.tombstones && m.has_key) {
          std::string key = std::move(m.key);
          bool is_object = m.key_is_object;
          start(false);
          m.key = std::move(key);
          m.has_key = true;
          m.key_is_object = is_object;
          emit(m);
        }
        break;
      }
    }
  }
  return skipped;
}

}  // namespace lakestream
