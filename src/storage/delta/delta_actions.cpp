#include "storage/delta/delta_actions.hpp"
#include "common/json_parse.hpp"
#include "storage/delta/deletion_vector.hpp"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace lakestream::delta {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

// Thrown inside this file only, turned into Status::Corruption at the API.
struct ParseError {
  std::string message;
};

[[noreturn]] void Fail(const std::string& msg) { throw ParseError{msg}; }

const json* Field(const json& obj, const char* name) {
  auto it = obj.find(name);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

std::string ReqString(const json& obj, const char* action, const char* name) {
  const json* f = Field(obj, name);
  if (!f) Fail(std::string(action) + "." + name + " is missing");
  if (!f->is_string()) Fail(std::string(action) + "." + name + " is not a string");
  return f->get<std::string>();
}

std::optional<std::string> OptString(const json& obj, const char* action, const char* name) {
  const json* f = Field(obj, name);
  if (!f) return std::nullopt;
  if (!f->is_string()) Fail(std::string(action) + "." + name + " is not a string");
  return f->get<std::string>();
}

std::optional<int64_t> OptLong(const json& obj, const char* action, const char* name) {
  const json* f = Field(obj, name);
  if (!f) return std::nullopt;
  if (!f->is_number_integer()) Fail(std::string(action) + "." + name + " is not an integer");
  return f->get<int64_t>();
}

int64_t ReqLong(const json& obj, const char* action, const char* name) {
  auto v = OptLong(obj, action, name);
  if (!v) Fail(std::string(action) + "." + name + " is missing");
  return *v;
}

std::optional<bool> OptBool(const json& obj, const char* action, const char* name) {
  const json* f = Field(obj, name);
  if (!f) return std::nullopt;
  if (!f->is_boolean()) Fail(std::string(action) + "." + name + " is not a boolean");
  return f->get<bool>();
}

std::optional<std::vector<std::string>> OptStringList(const json& obj, const char* action, const char* name) {
  const json* f = Field(obj, name);
  if (!f) return std::nullopt;
  if (!f->is_array()) Fail(std::string(action) + "." + name + " is not an array");
  std::vector<std::string> out;
  for (const auto& e : *f) {
    if (!e.is_string()) Fail(std::string(action) + "." + name + " holds a non-string");
    out.push_back(e.get<std::string>());
  }
  return out;
}

// Map<String,String>; null values are dropped (configuration, tags, options).
std::optional<StringMap> OptStringMap(const json& obj, const char* action, const char* name) {
  const json* f = Field(obj, name);
  if (!f) return std::nullopt;
  if (!f->is_object()) Fail(std::string(action) + "." + name + " is not an object");
  StringMap out;
  for (auto it = f->begin(); it != f->end(); ++it) {
    if (it.value().is_null()) continue;
    out[it.key()] = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
  }
  return out;
}

std::optional<PartitionValues> OptPartitionValues(const json& obj, const char* action) {
  const json* f = Field(obj, "partitionValues");
  if (!f) return std::nullopt;
  if (!f->is_object()) Fail(std::string(action) + ".partitionValues is not an object");
  PartitionValues out;
  for (auto it = f->begin(); it != f->end(); ++it) {
    if (it.value().is_null()) out[it.key()] = std::nullopt;
    else if (it.value().is_string()) out[it.key()] = it.value().get<std::string>();
    else out[it.key()] = it.value().dump();
  }
  return out;
}

std::string ReqPath(const json& obj, const char* action) {
  std::string raw = ReqString(obj, action, "path");
  auto decoded = DecodePath(raw);
  if (!decoded.ok()) Fail(std::string(action) + ".path: " + decoded.status().message());
  return decoded.take();
}

std::optional<std::string> OptRawJson(const json& obj, const char* name) {
  const json* f = Field(obj, name);
  if (!f) return std::nullopt;
  return f->dump();
}

Action ParseProtocol(const json& o) {
  Protocol p;
  auto r = OptLong(o, "protocol", "minReaderVersion");
  auto w = OptLong(o, "protocol", "minWriterVersion");
  if (!r || !w) Fail("protocol.minReaderVersion/minWriterVersion is missing");
  p.min_reader_version = static_cast<int32_t>(*r);
  p.min_writer_version = static_cast<int32_t>(*w);
  p.reader_features = OptStringList(o, "protocol", "readerFeatures");
  p.writer_features = OptStringList(o, "protocol", "writerFeatures");
  return p;
}

Action ParseMetadata(const json& o) {
  Metadata m;
  m.id = ReqString(o, "metaData", "id");
  m.name = OptString(o, "metaData", "name");
  m.description = OptString(o, "metaData", "description");
  if (const json* f = Field(o, "format")) {
    if (!f->is_object()) Fail("metaData.format is not an object");
    if (auto p = OptString(*f, "metaData.format", "provider")) m.format.provider = *p;
    if (auto opts = OptStringMap(*f, "metaData.format", "options")) m.format.options = *opts;
  }
  m.schema_string = OptString(o, "metaData", "schemaString").value_or("");
  m.partition_columns = OptStringList(o, "metaData", "partitionColumns").value_or(std::vector<std::string>{});
  m.configuration = OptStringMap(o, "metaData", "configuration").value_or(StringMap{});
  m.created_time = OptLong(o, "metaData", "createdTime");
  return m;
}

Action ParseAdd(const json& o) {
  AddFile a;
  a.path = ReqPath(o, "add");
  a.partition_values = OptPartitionValues(o, "add").value_or(PartitionValues{});
  a.size = ReqLong(o, "add", "size");
  a.modification_time = OptLong(o, "add", "modificationTime").value_or(0);
  a.data_change = OptBool(o, "add", "dataChange").value_or(true);
  a.stats = OptString(o, "add", "stats");
  a.tags = OptStringMap(o, "add", "tags");
  a.deletion_vector = OptRawJson(o, "deletionVector");
  a.base_row_id = OptLong(o, "add", "baseRowId");
  a.default_row_commit_version = OptLong(o, "add", "defaultRowCommitVersion");
  return a;
}

Action ParseRemove(const json& o) {
  RemoveFile r;
  r.path = ReqPath(o, "remove");
  r.deletion_timestamp = OptLong(o, "remove", "deletionTimestamp");
  r.data_change = OptBool(o, "remove", "dataChange").value_or(true);
  r.extended_file_metadata = OptBool(o, "remove", "extendedFileMetadata");
  r.partition_values = OptPartitionValues(o, "remove");
  r.size = OptLong(o, "remove", "size");
  r.stats = OptString(o, "remove", "stats");
  r.tags = OptStringMap(o, "remove", "tags");
  r.deletion_vector = OptRawJson(o, "deletionVector");
  r.base_row_id = OptLong(o, "remove", "baseRowId");
  r.default_row_commit_version = OptLong(o, "remove", "defaultRowCommitVersion");
  return r;
}

Action ParseCdc(const json& o) {
  CdcFile c;
  c.path = ReqPath(o, "cdc");
  c.partition_values = OptPartitionValues(o, "cdc").value_or(PartitionValues{});
  c.size = OptLong(o, "cdc", "size").value_or(0);
  c.data_change = OptBool(o, "cdc", "dataChange").value_or(false);
  c.tags = OptStringMap(o, "cdc", "tags");
  return c;
}

Action ParseTxn(const json& o) {
  Txn t;
  t.app_id = ReqString(o, "txn", "appId");
  t.version = ReqLong(o, "txn", "version");
  t.last_updated = OptLong(o, "txn", "lastUpdated");
  return t;
}

Action ParseDomainMetadata(const json& o) {
  DomainMetadata d;
  d.domain = ReqString(o, "domainMetadata", "domain");
  d.configuration = ReqString(o, "domainMetadata", "configuration");
  d.removed = OptBool(o, "domainMetadata", "removed").value_or(false);
  return d;
}

Action ParseCommitInfo(const json& o) {
  CommitInfo c;
  c.json = o.dump(-1, ' ', false, json::error_handler_t::replace);
  // Provenance is free-form: a mistyped field is ignored rather than failing
  // the whole commit.
  // Integers only: a float (say 1e58) does not fit int64 (found by fuzz/delta_log).
  if (auto f = Field(o, "timestamp"); f && f->is_number_integer()) c.timestamp = f->get<int64_t>();
  if (auto f = Field(o, "inCommitTimestamp"); f && f->is_number_integer()) c.in_commit_timestamp = f->get<int64_t>();
  if (auto f = Field(o, "operation"); f && f->is_string()) c.operation = f->get<std::string>();
  if (auto f = Field(o, "operationParameters"); f && f->is_object()) {
    for (auto it = f->begin(); it != f->end(); ++it)
      c.operation_parameters[it.key()] = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
  }
  if (auto f = Field(o, "engineInfo"); f && f->is_string()) c.engine_info = f->get<std::string>();
  if (auto f = Field(o, "isBlindAppend"); f && f->is_boolean()) c.is_blind_append = f->get<bool>();
  if (auto f = Field(o, "readVersion"); f && f->is_number_integer()) c.read_version = f->get<int64_t>();
  return c;
}

std::optional<Action> ParseActionJson(const json& line) {
  if (!line.is_object()) Fail("a log line must be a JSON object");
  for (auto it = line.begin(); it != line.end(); ++it) {
    const std::string& key = it.key();
    const json& body = it.value();
    if (body.is_null()) continue;
    auto need_object = [&]() {
      if (!body.is_object()) Fail("action " + key + " is not an object");
    };
    if (key == "add") { need_object(); return ParseAdd(body); }
    if (key == "remove") { need_object(); return ParseRemove(body); }
    if (key == "metaData") { need_object(); return ParseMetadata(body); }
    if (key == "protocol") { need_object(); return ParseProtocol(body); }
    if (key == "txn") { need_object(); return ParseTxn(body); }
    if (key == "cdc") { need_object(); return ParseCdc(body); }
    if (key == "commitInfo") { need_object(); return ParseCommitInfo(body); }
    if (key == "domainMetadata") { need_object(); return ParseDomainMetadata(body); }
  }
  return std::nullopt;  // unknown action type: ignored as the protocol says
}

// ---- serialization ----

ojson PartitionValuesJson(const PartitionValues& pv) {
  ojson o = ojson::object();
  for (const auto& [k, v] : pv) o[k] = v ? ojson(*v) : ojson(nullptr);
  return o;
}

ojson StringMapJson(const StringMap& m) {
  ojson o = ojson::object();
  for (const auto& [k, v] : m) o[k] = v;
  return o;
}

ojson RawOrNull(const std::string& text) {
  ojson v = ParseOrderedJson(text);
  return v.is_discarded() ? ojson(nullptr) : v;
}

struct Serializer {
  ojson operator()(const Protocol& p) const {
    ojson o;
    o["minReaderVersion"] = p.min_reader_version;
    o["minWriterVersion"] = p.min_writer_version;
    if (p.reader_features) o["readerFeatures"] = *p.reader_features;
    if (p.writer_features) o["writerFeatures"] = *p.writer_features;
    return {{"protocol", o}};
  }
  ojson operator()(const Metadata& m) const {
    ojson o;
    o["id"] = m.id;
    if (m.name) o["name"] = *m.name;
    if (m.description) o["description"] = *m.description;
    o["format"] = {{"provider", m.format.provider}, {"options", StringMapJson(m.format.options)}};
    o["schemaString"] = m.schema_string;
    o["partitionColumns"] = m.partition_columns;
    o["configuration"] = StringMapJson(m.configuration);
    if (m.created_time) o["createdTime"] = *m.created_time;
    return {{"metaData", o}};
  }
  ojson operator()(const AddFile& a) const {
    ojson o;
    o["path"] = EncodePath(a.path);
    o["partitionValues"] = PartitionValuesJson(a.partition_values);
    o["size"] = a.size;
    o["modificationTime"] = a.modification_time;
    o["dataChange"] = a.data_change;
    if (a.stats) o["stats"] = *a.stats;
    if (a.tags) o["tags"] = StringMapJson(*a.tags);
    if (a.deletion_vector) o["deletionVector"] = RawOrNull(*a.deletion_vector);
    if (a.base_row_id) o["baseRowId"] = *a.base_row_id;
    if (a.default_row_commit_version) o["defaultRowCommitVersion"] = *a.default_row_commit_version;
    return {{"add", o}};
  }
  ojson operator()(const RemoveFile& r) const {
    ojson o;
    o["path"] = EncodePath(r.path);
    if (r.deletion_timestamp) o["deletionTimestamp"] = *r.deletion_timestamp;
    o["dataChange"] = r.data_change;
    if (r.extended_file_metadata) o["extendedFileMetadata"] = *r.extended_file_metadata;
    if (r.partition_values) o["partitionValues"] = PartitionValuesJson(*r.partition_values);
    if (r.size) o["size"] = *r.size;
    if (r.stats) o["stats"] = *r.stats;
    if (r.tags) o["tags"] = StringMapJson(*r.tags);
    if (r.deletion_vector) o["deletionVector"] = RawOrNull(*r.deletion_vector);
    if (r.base_row_id) o["baseRowId"] = *r.base_row_id;
    if (r.default_row_commit_version) o["defaultRowCommitVersion"] = *r.default_row_commit_version;
    return {{"remove", o}};
  }
  ojson operator()(const CdcFile& c) const {
    ojson o;
    o["path"] = EncodePath(c.path);
    o["partitionValues"] = PartitionValuesJson(c.partition_values);
    o["size"] = c.size;
    o["dataChange"] = c.data_change;
    if (c.tags) o["tags"] = StringMapJson(*c.tags);
    return {{"cdc", o}};
  }
  ojson operator()(const Txn& t) const {
    ojson o;
    o["appId"] = t.app_id;
    o["version"] = t.version;
    if (t.last_updated) o["lastUpdated"] = *t.last_updated;
    return {{"txn", o}};
  }
  ojson operator()(const CommitInfo& c) const {
    ojson o = RawOrNull(c.json);
    if (!o.is_object()) o = ojson::object();
    if (c.timestamp) o["timestamp"] = *c.timestamp;
    if (c.in_commit_timestamp) o["inCommitTimestamp"] = *c.in_commit_timestamp;
    if (c.operation) o["operation"] = *c.operation;
    if (!c.operation_parameters.empty() || !o.contains("operationParameters"))
      o["operationParameters"] = StringMapJson(c.operation_parameters);
    if (c.read_version) o["readVersion"] = *c.read_version;
    if (c.is_blind_append) o["isBlindAppend"] = *c.is_blind_append;
    if (c.engine_info) o["engineInfo"] = *c.engine_info;
    return {{"commitInfo", o}};
  }
  ojson operator()(const DomainMetadata& d) const {
    ojson o;
    o["domain"] = d.domain;
    o["configuration"] = d.configuration;
    o["removed"] = d.removed;
    return {{"domainMetadata", o}};
  }
};

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~' || c == '/' || c == '=';
}

// Length of a leading "scheme:" that is followed by '/', or 0.
size_t SchemeLength(std::string_view p) {
  if (p.empty() || !std::isalpha(static_cast<unsigned char>(p[0]))) return 0;
  for (size_t i = 1; i < p.size(); i++) {
    char c = p[i];
    if (c == ':') return (i + 1 < p.size() && p[i + 1] == '/') ? i + 1 : 0;
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') return 0;
  }
  return 0;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

namespace {

// numRecords of a stats object by a single pass over the text: the key at
// depth 1 (outside strings) followed by a plain integer, in an object whose
// brackets and strings balance. nullopt when the text is not that simple (the
// caller then parses the JSON in full). Counting the rows of a large table
// reads one of these per file, so it must be cheap.
std::optional<int64_t> ScanNumRecords(std::string_view s) {
  static constexpr std::string_view kKey = "\"numRecords\"";
  std::optional<int64_t> found;
  int depth = 0;
  for (size_t i = 0; i < s.size(); i++) {
    char c = s[i];
    if (c == '{' || c == '[') {
      depth++;
    } else if (c == '}' || c == ']') {
      if (--depth < 0) return std::nullopt;
    } else if (c == '"') {
      if (depth == 1 && !found && s.compare(i, kKey.size(), kKey) == 0) {
        size_t p = i + kKey.size();
        while (p < s.size() && (s[p] == ' ' || s[p] == ':')) p++;
        int64_t n = 0;
        size_t digits = 0;
        while (p < s.size() && s[p] >= '0' && s[p] <= '9' && digits < 18) n = n * 10 + (s[p++] - '0'), digits++;
        if (digits == 0 || p >= s.size() || (s[p] != ',' && s[p] != '}' && s[p] != ' ')) return std::nullopt;
        found = n;
        i = p - 1;
        continue;
      }
      for (i++; i < s.size() && s[i] != '"'; i++) {
        if (s[i] == '\\') i++;  // skip the escaped character
      }
      if (i >= s.size()) return std::nullopt;  // unterminated string
    }
  }
  if (depth != 0) return std::nullopt;
  return found;
}

}  // namespace

namespace {
bool ListsFeature(const std::optional<std::vector<std::string>>& list, std::string_view feature) {
  return list && std::find(list->begin(), list->end(), feature) != list->end();
}
void AddFeature(std::optional<std::vector<std::string>>& list, std::string_view feature) {
  if (!list) list.emplace();
  if (!ListsFeature(list, feature)) list->emplace_back(feature);
}
}  // namespace

bool Protocol::ListsReaderFeature(std::string_view feature) const { return ListsFeature(reader_features, feature); }
bool Protocol::ListsWriterFeature(std::string_view feature) const { return ListsFeature(writer_features, feature); }
void Protocol::AddReaderFeature(std::string_view feature) { AddFeature(reader_features, feature); }
void Protocol::AddWriterFeature(std::string_view feature) { AddFeature(writer_features, feature); }

std::optional<int64_t> AddFile::NumRecords() const {
  if (counts.num_records) return counts.num_records;
  if (!stats) return std::nullopt;
  if (auto fast = ScanNumRecords(*stats)) return fast;
  json j = ParseJson(*stats);
  if (!j.is_object()) return std::nullopt;
  auto it = j.find("numRecords");
  if (it == j.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

int64_t AddFile::DeletedRowCount() const {
  if (!deletion_vector) return 0;
  auto dv = ParseDeletionVectorDescriptor(*deletion_vector);
  return dv.ok() ? dv.value().cardinality : 0;
}

CommitInfo CommitInfo::Make(int64_t timestamp_ms, std::string operation, StringMap parameters,
                            std::optional<bool> is_blind_append, std::optional<int64_t> read_version) {
  CommitInfo c;
  c.timestamp = timestamp_ms;
  c.operation = std::move(operation);
  c.operation_parameters = std::move(parameters);
  c.is_blind_append = is_blind_append;
  c.read_version = read_version;
  c.engine_info = "lakestream";
  return c;
}

bool CommitInfo::operator==(const CommitInfo& o) const {
  return timestamp == o.timestamp && in_commit_timestamp == o.in_commit_timestamp && operation == o.operation &&
         operation_parameters == o.operation_parameters &&
         engine_info == o.engine_info && is_blind_append == o.is_blind_append && read_version == o.read_version &&
         ParseJson(json) == ParseJson(o.json);
}

Result<std::optional<Action>> ParseAction(std::string_view line) {
  JsonError error;
  json j = ParseJson(line, &error);
  if (j.is_discarded()) return Status::Corruption(error.message);
  try {
    std::optional<Action> action = ParseActionJson(j);
    if (action && std::holds_alternative<CommitInfo>(*action)) {
      // Keep the writer's field order in the preserved object.
      ojson ordered = ParseOrderedJson(line);
      if (ordered.is_object() && ordered.contains("commitInfo"))
        std::get<CommitInfo>(*action).json = ordered["commitInfo"].dump(-1, ' ', false, ojson::error_handler_t::replace);
    }
    return action;
  } catch (const ParseError& e) {
    return Status::Corruption(e.message);
  } catch (const json::exception& e) {
    return Status::Corruption(e.what());
  }
}

Result<std::vector<Action>> ParseCommit(std::string_view contents, const std::string& file_name) {
  std::vector<Action> actions;
  size_t pos = 0;
  int line_no = 0;
  bool any_line = false;
  while (pos < contents.size()) {
    size_t nl = contents.find('\n', pos);
    if (nl == std::string_view::npos) nl = contents.size();
    std::string_view line = contents.substr(pos, nl - pos);
    pos = nl + 1;
    line_no++;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    any_line = true;
    auto parsed = ParseAction(line);
    if (!parsed.ok()) {
      std::string excerpt(line.substr(0, 80));
      return Status::Corruption(file_name + " line " + std::to_string(line_no) + ": " + parsed.status().message() +
                                " (line starts: " + excerpt + ")");
    }
    if (parsed.value()) actions.push_back(std::move(*parsed.value()));
  }
  if (!any_line) return Status::Corruption(file_name + ": empty commit file");
  return actions;
}

std::string SerializeAction(const Action& action) {
  return std::visit(Serializer{}, action).dump(-1, ' ', false, ojson::error_handler_t::replace);
}

std::string SerializeCommit(const std::vector<Action>& actions) {
  std::string out;
  for (const auto& a : actions) {
    out += SerializeAction(a);
    out += '\n';
  }
  return out;
}

std::string EncodePath(std::string_view path) {
  static const char* kHex = "0123456789ABCDEF";
  size_t scheme = SchemeLength(path);
  std::string out(path.substr(0, scheme));
  for (size_t i = scheme; i < path.size(); i++) {
    unsigned char c = static_cast<unsigned char>(path[i]);
    if (IsUnreserved(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

Result<std::string> DecodePath(std::string_view encoded) {
  if (encoded.find('%') == std::string_view::npos) return std::string(encoded);  // the usual case
  std::string out;
  out.reserve(encoded.size());
  for (size_t i = 0; i < encoded.size(); i++) {
    if (encoded[i] != '%') {
      out += encoded[i];
      continue;
    }
    int hi = i + 2 < encoded.size() ? HexValue(encoded[i + 1]) : -1;
    int lo = i + 2 < encoded.size() ? HexValue(encoded[i + 2]) : -1;
    if (hi < 0 || lo < 0)
      return Status::Corruption("malformed %-escape in path '" + std::string(encoded) + "'");
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

}  // namespace lakestream::delta
