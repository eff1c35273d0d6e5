#include "main/statement/copy_text_encoder.hpp"

#include <algorithm>

#include "common/cast.hpp"
#include "common/json_writer.hpp"

namespace lakestream {

CopyTextEncoder::CopyTextEncoder(CopyFormat format, CopyTextOptions options, std::vector<std::string> names,
                                 std::vector<LogicalType> types)
    : format_(format), options_(std::move(options)), names_(std::move(names)), types_(std::move(types)) {}

void CopyTextEncoder::AppendCsvField(std::string& out, std::string_view text) const {
  bool quote = text.empty() ? options_.null_string.empty()
                            : text == options_.null_string || text.front() == ' ' || text.back() == ' ';
  for (char c : text) {
    if (quote) break;
    quote = c == options_.delimiter || c == options_.quote || c == '\n' || c == '\r';
  }
  if (!quote) {
    out.append(text);
    return;
  }
  out += options_.quote;
  for (char c : text) {
    if (c == options_.quote) out += c;
    out += c;
  }
  out += options_.quote;
}

void CopyTextEncoder::Begin(std::string& out) {
  if (format_ == CopyFormat::JSON) {
    if (options_.json_array) out += "[\n";
    return;
  }
  if (!options_.header) return;
  for (size_t i = 0; i < names_.size(); i++) {
    if (i) out += options_.delimiter;
    AppendCsvField(out, names_[i]);
  }
  out += '\n';
}

void CopyTextEncoder::Append(const DataChunk& chunk, std::string& out) {
  const idx_t rows = chunk.size();
  if (format_ == CopyFormat::JSON) {
    std::vector<const Vector*> columns;
    for (idx_t c = 0; c < chunk.ColumnCount(); c++) columns.push_back(&chunk.data[c]);
    for (idx_t r = 0; r < rows; r++) {
      if (options_.json_array && !first_row_) out += ",\n";
      first_row_ = false;
      AppendJsonObject(out, names_, columns, r);
      if (!options_.json_array) out += '\n';
    }
    return;
  }
  // Each column as text once per chunk (the cast's rendering, as CAST AS VARCHAR).
  std::vector<Vector> text;
  text.reserve(chunk.ColumnCount());
  for (idx_t c = 0; c < chunk.ColumnCount(); c++) {
    text.emplace_back(LogicalType(TypeId::VARCHAR), std::max<idx_t>(rows, 1));
    if (chunk.data[c].GetType().id() == TypeId::VARCHAR) {
      text.back().Reference(chunk.data[c], rows);
    } else {
      CastVector(chunk.data[c], text.back(), rows);
    }
  }
  for (idx_t r = 0; r < rows; r++) {
    for (idx_t c = 0; c < text.size(); c++) {
      if (c) out += options_.delimiter;
      if (!text[c].IsValid(r)) {
        out += options_.null_string;
        continue;
      }
      string_t s = text[c].GetData<string_t>()[r];
      AppendCsvField(out, std::string_view(s.data(), s.size()));
    }
    out += '\n';
  }
}

void CopyTextEncoder::End(std::string& out) {
  if (format_ == CopyFormat::JSON && options_.json_array) out += first_row_ ? "]\n" : "\n]\n";
}

}  // namespace lakestream
