#include "pg_copy_format.hpp"

#include <algorithm>
#include <cctype>

#include "pg_format.hpp"

namespace lakestream::pg {

namespace {

std::string Upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
  return out;
}

[[noreturn]] void Malformed(const std::string& what) {
  throw SqlError("42601", "COPY: " + what +
                              "; the form is COPY table [(columns)] FROM STDIN [WITH (FORMAT csv, HEADER, ...)] or "
                              "COPY {table | (query)} TO STDOUT [WITH (...)]");
}

[[noreturn]] void Refused(const std::string& what, const std::string& fix) {
  throw SqlError("0A000", "not supported yet: COPY " + what + "; " + fix);
}

// Reads the COPY statement's text front to back. Names keep their quotes
// (the engine parses them again); words compare case-insensitively.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() && (std::isspace(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == ';')) pos_++;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ >= text_.size();
  }
  bool Peek(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool Take(char c) {
    if (!Peek(c)) return false;
    pos_++;
    return true;
  }
  // A bare word, upper-cased; "" when the next token is not one.
  std::string PeekWord() {
    SkipSpace();
    size_t end = pos_;
    while (end < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) end++;
    return Upper(text_.substr(pos_, end - pos_));
  }
  std::string Word() {
    std::string word = PeekWord();
    pos_ += word.size();
    return word;
  }
  bool TakeWord(const char* word) {
    if (PeekWord() != word) return false;
    pos_ += std::string_view(word).size();
    return true;
  }
  // An identifier, bare or "quoted", as written.
  std::string Identifier() {
    SkipSpace();
    size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '"') {
      for (pos_++; pos_ < text_.size(); pos_++) {
        if (text_[pos_] != '"') continue;
        if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
          pos_++;
          continue;
        }
        pos_++;
        return std::string(text_.substr(start, pos_ - start));
      }
      Malformed("an unterminated quoted name");
    }
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                                   static_cast<unsigned char>(text_[pos_]) >= 0x80)) {
      pos_++;
    }
    if (pos_ == start) Malformed("a name expected at \"" + std::string(text_.substr(start, 20)) + "\"");
    return std::string(text_.substr(start, pos_ - start));
  }
  // name { "." name }, as written.
  std::string QualifiedName() {
    std::string name = Identifier();
    while (pos_ < text_.size() && text_[pos_] == '.') {
      pos_++;
      name += "." + Identifier();
    }
    return name;
  }
  // A '...' literal ('' inside is one quote), its value.
  std::optional<std::string> String() {
    SkipSpace();
    bool escaped = false;
    if (pos_ + 1 < text_.size() && (text_[pos_] == 'E' || text_[pos_] == 'e') && text_[pos_ + 1] == '\'') {
      escaped = true;
      pos_++;
    }
    if (pos_ >= text_.size() || text_[pos_] != '\'') return std::nullopt;
    std::string value;
    for (pos_++; pos_ < text_.size(); pos_++) {
      char c = text_[pos_];
      if (c == '\'' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\'') {
        value.push_back('\'');
        pos_++;
      } else if (c == '\'') {
        pos_++;
        return value;
      } else if (escaped && c == '\\' && pos_ + 1 < text_.size()) {
        char e = text_[++pos_];
        value.push_back(e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : e);
      } else {
        value.push_back(c);
      }
    }
    Malformed("an unterminated string literal");
  }
  // The text between a "(" (already seen) and its matching ")", skipping
  // quoted strings and names.
  std::string Balanced() {
    Take('(');
    size_t start = pos_;
    int depth = 1;
    for (; pos_ < text_.size(); pos_++) {
      char c = text_[pos_];
      if (c == '\'' || c == '"') {
        size_t close = text_.find(c, pos_ + 1);
        if (close == std::string_view::npos) break;
        pos_ = close;
      } else if (c == '(') {
        depth++;
      } else if (c == ')' && --depth == 0) {
        return std::string(text_.substr(start, pos_++ - start));
      }
    }
    Malformed("a parenthesis is not closed");
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

char OneCharacter(const std::string& option, const std::optional<std::string>& value) {
  if (!value || value->size() != 1) {
    throw SqlError("22023", "COPY " + option + " must be a single one-byte character in quotes, e.g. " + option + " ','");
  }
  return (*value)[0];
}

bool BooleanWord(const std::string& option, const std::string& word) {
  if (word == "TRUE" || word == "ON" || word == "1" || word.empty()) return true;
  if (word == "FALSE" || word == "OFF" || word == "0") return false;
  if (word == "MATCH") Refused("HEADER MATCH", "use HEADER (the header line is skipped, not checked)");
  throw SqlError("22023", "COPY " + option + " takes true or false, not " + word);
}

struct OptionsSeen {
  bool delimiter = false;
  bool null_string = false;
  bool quote = false;
  bool escape = false;
};

// One option of the parenthesised list; false when none follows.
void ParseOption(Scanner& in, CopyFormat* format, OptionsSeen* seen) {
  std::string name = in.Word();
  if (name.empty()) Malformed("an option name expected");
  auto value_word = [&]() {
    if (auto literal = in.String()) return Upper(*literal);
    return in.Word();
  };
  if (name == "FORMAT") {
    std::string kind = value_word();
    if (kind == "CSV") {
      format->csv = true;
    } else if (kind == "BINARY") {
      Refused("FORMAT binary", "use FORMAT text or FORMAT csv");
    } else if (kind != "TEXT") {
      throw SqlError("22023", "COPY format \"" + kind + "\" not recognized; use text or csv");
    }
  } else if (name == "DELIMITER") {
    format->delimiter = OneCharacter("DELIMITER", in.String());
    seen->delimiter = true;
  } else if (name == "NULL") {
    auto value = in.String();
    if (!value) throw SqlError("22023", "COPY NULL takes a quoted string, e.g. NULL ''");
    format->null_string = *value;
    seen->null_string = true;
  } else if (name == "HEADER") {
    format->header = BooleanWord("HEADER", in.Peek(',') || in.Peek(')') ? "" : value_word());
  } else if (name == "QUOTE") {
    format->quote = OneCharacter("QUOTE", in.String());
    seen->quote = true;
  } else if (name == "ESCAPE") {
    format->escape = OneCharacter("ESCAPE", in.String());
    seen->escape = true;
  } else if (name == "ENCODING") {
    std::string encoding = value_word();
    if (encoding != "UTF8" && encoding != "UTF-8" && encoding != "UNICODE") {
      Refused("ENCODING " + encoding, "lakestream serve speaks UTF8 only; convert the data to UTF8");
    }
  } else if (name == "FORCE_QUOTE" || name == "FORCE_NOT_NULL" || name == "FORCE_NULL" || name == "FREEZE" ||
             name == "DEFAULT" || name == "ON_ERROR" || name == "LOG_VERBOSITY") {
    Refused("option " + name, "drop it");
  } else {
    throw SqlError("42601", "COPY option \"" + name + "\" not recognized");
  }
  if (in.Take('(')) {  // a column list (FORCE_* take one): not for the options accepted above
    Refused("option " + name + " with a list", "drop it");
  }
}

void ParseLegacyOptions(Scanner& in, CopyFormat* format, OptionsSeen* seen) {
  while (!in.AtEnd()) {
    std::string word = in.Word();
    auto value = [&](const char* option) {
      in.TakeWord("AS");
      auto literal = in.String();
      if (!literal) throw SqlError("22023", std::string("COPY ") + option + " takes a quoted string");
      return literal;
    };
    if (word == "CSV") {
      format->csv = true;
    } else if (word == "HEADER") {
      format->header = true;
    } else if (word == "DELIMITER") {
      format->delimiter = OneCharacter("DELIMITER", value("DELIMITER"));
      seen->delimiter = true;
    } else if (word == "NULL") {
      format->null_string = *value("NULL");
      seen->null_string = true;
    } else if (word == "QUOTE") {
      format->quote = OneCharacter("QUOTE", value("QUOTE"));
      seen->quote = true;
    } else if (word == "ESCAPE") {
      format->escape = OneCharacter("ESCAPE", value("ESCAPE"));
      seen->escape = true;
    } else if (word == "BINARY") {
      Refused("BINARY", "use the text or csv format");
    } else if (word == "FORCE" || word == "OIDS" || word == "FREEZE") {
      Refused("option " + word, "drop it");
    } else {
      Malformed(word.empty() ? "unexpected text after STDIN/STDOUT" : "unknown option " + word);
    }
  }
}

void Validate(CopyFormat* format, const OptionsSeen& seen) {
  if (format->csv) {
    if (!seen.delimiter) format->delimiter = ',';
    if (!seen.null_string) format->null_string = "";
    if (!seen.escape) format->escape = format->quote;
    if (format->delimiter == format->quote) throw SqlError("22023", "COPY delimiter and quote must be different");
  } else if (seen.quote || seen.escape) {
    throw SqlError("22023", "COPY QUOTE and ESCAPE are available only in CSV mode; add FORMAT csv");
  }
  if (format->delimiter == '\n' || format->delimiter == '\r') {
    throw SqlError("22023", "COPY delimiter cannot be newline or carriage return");
  }
  if (!format->csv && format->delimiter == '\\') throw SqlError("22023", "COPY delimiter cannot be backslash");
  if (format->null_string.find_first_of("\r\n") != std::string::npos) {
    throw SqlError("22023", "COPY null representation cannot use newline or carriage return");
  }
}

}  // namespace

bool ParseCopyStatement(const std::string& sql, CopyStatement* statement) {
  Scanner in(sql);
  if (!in.TakeWord("COPY")) return false;
  CopyStatement out;
  if (in.Peek('(')) {
    out.query = in.Balanced();
  } else {
    out.table = in.QualifiedName();
    if (in.Take('(')) {
      do {
        out.columns.push_back(in.Identifier());
      } while (in.Take(','));
      if (!in.Take(')')) Malformed("a column list is not closed");
    }
  }
  std::string direction = in.Word();
  if (direction == "FROM") {
    if (!in.TakeWord("STDIN")) return false;  // a file or program: the engine's COPY
    if (!out.query.empty()) Malformed("COPY (query) FROM STDIN names no table to load");
    out.from_stdin = true;
  } else if (direction == "TO") {
    if (!in.TakeWord("STDOUT")) return false;
  } else {
    return false;
  }
  OptionsSeen seen;
  in.TakeWord("WITH");
  if (in.Take('(')) {
    do {
      ParseOption(in, &out.format, &seen);
    } while (in.Take(','));
    if (!in.Take(')')) Malformed("the option list is not closed");
    if (!in.AtEnd()) Malformed("unexpected text after the option list");
  } else {
    ParseLegacyOptions(in, &out.format, &seen);
  }
  Validate(&out.format, seen);
  *statement = std::move(out);
  return true;
}

std::string CopyOutQuery(const CopyStatement& statement) {
  if (!statement.query.empty()) return statement.query;
  std::string columns;
  for (auto& column : statement.columns) columns += (columns.empty() ? "" : ", ") + column;
  return "SELECT " + (columns.empty() ? std::string("*") : columns) + " FROM " + statement.table;
}

void AppendCopyLine(const CopyFormat& format, const std::vector<std::optional<std::string>>& fields, std::string* out) {
  for (size_t f = 0; f < fields.size(); f++) {
    if (f > 0) out->push_back(format.delimiter);
    if (!fields[f]) {
      out->append(format.null_string);
      continue;
    }
    const std::string& value = *fields[f];
    if (format.csv) {
      bool quoted = value == format.null_string || value == "\\." ||
                    value.find_first_of(std::string{format.delimiter, format.quote, '\r', '\n'}) != std::string::npos;
      if (!quoted) {
        out->append(value);
        continue;
      }
      out->push_back(format.quote);
      for (char c : value) {
        if (c == format.quote || c == format.escape) out->push_back(format.escape);
        out->push_back(c);
      }
      out->push_back(format.quote);
      continue;
    }
    for (char c : value) {
      switch (c) {
        case '\\': out->append("\\\\"); break;
        case '\t': out->append("\\t"); break;
        case '\n': out->append("\\n"); break;
        case '\r': out->append("\\r"); break;
        case '\b': out->append("\\b"); break;
        case '\f': out->append("\\f"); break;
        case '\v': out->append("\\v"); break;
        default:
          if (c == format.delimiter) out->push_back('\\');
          out->push_back(c);
      }
    }
  }
  out->push_back('\n');
}

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Appends a text-format field without its backslash escapes.
void AppendUnescaped(std::string_view raw, std::string* out) {
  for (size_t i = 0; i < raw.size(); i++) {
    if (raw[i] != '\\' || i + 1 == raw.size()) {
      out->push_back(raw[i]);
      continue;
    }
    char c = raw[++i];
    switch (c) {
      case 'b': out->push_back('\b'); break;
      case 'f': out->push_back('\f'); break;
      case 'n': out->push_back('\n'); break;
      case 'r': out->push_back('\r'); break;
      case 't': out->push_back('\t'); break;
      case 'v': out->push_back('\v'); break;
      case 'x':
        if (i + 1 < raw.size() && HexDigit(raw[i + 1]) >= 0) {
          int value = HexDigit(raw[++i]);
          if (i + 1 < raw.size() && HexDigit(raw[i + 1]) >= 0) value = value * 16 + HexDigit(raw[++i]);
          out->push_back(static_cast<char>(value));
        } else {
          out->push_back('x');
        }
        break;
      default:
        if (c >= '0' && c <= '7') {
          int value = c - '0';
          for (int digits = 1; digits < 3 && i + 1 < raw.size() && raw[i + 1] >= '0' && raw[i + 1] <= '7'; digits++) {
            value = value * 8 + (raw[++i] - '0');
          }
          out->push_back(static_cast<char>(value));
        } else {
          out->push_back(c);
        }
    }
  }
}

[[noreturn]] void BadRow(int64_t line, const std::string& what) {
  throw SqlError("22P04", "line " + std::to_string(line) + ": " + what);
}

// Rows under construction: a field goes straight into its column.
class ColumnSink {
 public:
  ColumnSink(CopyRows* out, size_t columns) : out_(out), width_(columns) { out_->columns.resize(columns); }
  void BeginRow(int64_t line) {
    line_ = line;
    field_ = 0;
  }
  // The column the next field's bytes go to (throws when the row has too many).
  std::string* NextField() {
    if (field_ >= width_) {
      BadRow(line_, "extra data after the last of " + std::to_string(width_) +
                        " columns; check the delimiter (FORMAT csv for commas) or name the columns, COPY t (a, b, c) "
                        "FROM STDIN");
    }
    return &out_->columns[field_].bytes;
  }
  void EndField(bool valid) {
    CopyColumn& column = out_->columns[field_++];
    column.ends.push_back(column.bytes.size());
    column.valid.push_back(valid ? 1 : 0);
  }
  void EndRow() {
    if (field_ < width_) {
      BadRow(line_, "missing data: " + std::to_string(field_) + " of " + std::to_string(width_) +
                        " columns; name the columns the data holds, COPY t (a, b) FROM STDIN");
    }
    out_->line_of_row.push_back(line_);
  }

 private:
  CopyRows* out_;
  size_t width_;
  int64_t line_ = 0;
  size_t field_ = 0;
};

// The end of the line starting at `pos` (its "\n", or the data's end).
size_t LineEnd(std::string_view data, size_t pos) {
  size_t end = data.find('\n', pos);
  return end == std::string_view::npos ? data.size() : end;
}

std::string_view WithoutCarriageReturn(std::string_view line) {
  return !line.empty() && line.back() == '\r' ? line.substr(0, line.size() - 1) : line;
}

void DecodeText(const CopyFormat& format, std::string_view data, size_t pos, int64_t line, ColumnSink* sink) {
  for (; pos < data.size(); line++) {
    size_t end = LineEnd(data, pos);
    std::string_view text = WithoutCarriageReturn(data.substr(pos, end - pos));
    pos = end + 1;
    if (text == "\\.") break;
    sink->BeginRow(line);
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); i++) {
      if (i < text.size() && text[i] == '\\') {
        i++;  // an escaped character never ends a field
        continue;
      }
      if (i < text.size() && text[i] != format.delimiter) continue;
      std::string_view raw = text.substr(start, i - start);
      std::string* bytes = sink->NextField();
      bool null = raw == format.null_string;
      if (!null) AppendUnescaped(raw, bytes);
      sink->EndField(!null);
      start = i + 1;
    }
    sink->EndRow();
  }
}

void DecodeCsv(const CopyFormat& format, std::string_view data, size_t pos, int64_t line, ColumnSink* sink) {
  while (pos < data.size()) {
    size_t end = LineEnd(data, pos);
    if (WithoutCarriageReturn(data.substr(pos, end - pos)) == "\\.") break;
    int64_t row_line = line;
    sink->BeginRow(row_line);
    bool row_done = false;
    while (!row_done) {
      std::string* bytes = sink->NextField();
      size_t field_start = bytes->size();
      bool quoted = false;
      for (;;) {
        if (pos >= data.size()) {
          row_done = true;
          break;
        }
        char c = data[pos];
        if (c == format.quote) {
          quoted = true;
          for (pos++;; pos++) {
            if (pos >= data.size()) BadRow(row_line, "unterminated CSV quoted field");
            char q = data[pos];
            if (q == format.escape && pos + 1 < data.size() &&
                (data[pos + 1] == format.quote || data[pos + 1] == format.escape) &&
                (format.escape != format.quote || data[pos + 1] == format.quote)) {
              bytes->push_back(data[++pos]);
            } else if (q == format.quote) {
              pos++;
              break;
            } else {
              if (q == '\n') line++;
              bytes->push_back(q);
            }
          }
          continue;
        }
        if (c == format.delimiter) {
          pos++;
          break;
        }
        if (c == '\n' || (c == '\r' && (pos + 1 == data.size() || data[pos + 1] == '\n'))) {
          pos += c == '\r' && pos + 1 < data.size() ? 2 : 1;
          line++;
          row_done = true;
          break;
        }
        bytes->push_back(c);
        pos++;
      }
      bool null = !quoted && std::string_view(*bytes).substr(field_start) == format.null_string;
      if (null) bytes->resize(field_start);
      sink->EndField(!null);
    }
    sink->EndRow();
  }
}

}  // namespace

std::vector<std::optional<std::string>> CopyRows::Row(size_t row) const {
  std::vector<std::optional<std::string>> fields;
  for (auto& column : columns) {
    if (column.valid[row]) {
      fields.emplace_back(std::string(column.Value(row)));
    } else {
      fields.emplace_back(std::nullopt);
    }
  }
  return fields;
}

CopyRows DecodeCopyData(const CopyFormat& format, std::string_view data, size_t columns) {
  CopyRows out;
  ColumnSink sink(&out, columns);
  size_t pos = 0;
  int64_t line = 1;
  if (format.header && !data.empty()) {
    // A header line holds no line breaks in quotes in practice; Postgres skips one physical line too.
    pos = LineEnd(data, 0) + 1;
    line = 2;
  }
  if (format.csv) {
    DecodeCsv(format, data, pos, line, &sink);
  } else {
    DecodeText(format, data, pos, line, &sink);
  }
  return out;
}

}  // namespace lakestream::pg
