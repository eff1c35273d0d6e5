#include "pipeline/pipeline_params.hpp"

#include <cctype>

#include "common/exception.hpp"
#include "common/string_util.hpp"

namespace lakestream {

bool IsPipelineParameterName(const std::string& key) {
  if (key.empty()) return false;
  for (char c : key) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') return false;
  }
  return true;
}

namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && IsSpace(s[b])) b++;
  while (e > b && IsSpace(s[e - 1])) e--;
  return s.substr(b, e - b);
}

// The value of SET k = v as written: quotes ('v', "v", `v`) removed.
std::string Unquote(const std::string& value) {
  if (value.size() >= 2 && (value[0] == '\'' || value[0] == '"' || value[0] == '`') && value.back() == value[0]) {
    std::string out;
    char q = value[0];
    for (size_t i = 1; i + 1 < value.size(); i++) {
      out += value[i];
      if (value[i] == q && i + 2 < value.size() && value[i + 1] == q) i++;
    }
    return out;
  }
  return value;
}

class Substituter {
 public:
  Substituter(const std::string& sql, const std::map<std::string, std::string>& conf, const std::string& file)
      : sql_(sql), conf_(conf), file_(file) {}

  std::string Run() {
    bool statement_start = true;
    while (i_ < sql_.size()) {
      char c = sql_[i_];
      if (IsSpace(c)) {
        out_ += c;
        i_++;
        continue;
      }
      if (c == '-' && Peek(1) == '-') {
        CopyUntil("\n", false);
        continue;
      }
      if (c == '/' && Peek(1) == '*') {
        CopyUntil("*/", true);
        continue;
      }
      if (statement_start && StartsSet()) {
        ParseSet();
        continue;
      }
      statement_start = false;
      if (c == '\'' || c == '"' || c == '`') {
        CopyQuoted(c);
        continue;
      }
      if (c == '$' && Peek(1) == '{') {
        out_ += Reference();
        continue;
      }
      if (c == ';') statement_start = true;
      out_ += c;
      i_++;
    }
    return out_;
  }

 private:
  char Peek(size_t k) const { return i_ + k < sql_.size() ? sql_[i_ + k] : '\0'; }

  uint32_t Line(size_t offset) const {
    uint32_t line = 1;
    for (size_t k = 0; k < offset && k < sql_.size(); k++) line += sql_[k] == '\n';
    return line;
  }

  std::string Where(size_t offset) const { return file_ + " line " + std::to_string(Line(offset)); }

  void CopyUntil(const char* end, bool include_end) {
    size_t close = sql_.find(end, i_ + 2);
    size_t stop = close == std::string::npos ? sql_.size() : close + (include_end ? std::string(end).size() : 0);
    out_ += sql_.substr(i_, stop - i_);
    i_ = stop;
  }

  // A string or quoted identifier, with ${...} inside substituted.
  void CopyQuoted(char quote) {
    out_ += sql_[i_++];
    while (i_ < sql_.size()) {
      char c = sql_[i_];
      if (c == '$' && Peek(1) == '{') {
        out_ += Reference();
        continue;
      }
      out_ += c;
      i_++;
      if (c == quote) {
        if (Peek(0) == quote) {
          out_ += sql_[i_++];
          continue;
        }
        return;
      }
    }
  }

  // ${key} at i_: its value.
  std::string Reference() {
    size_t begin = i_;
    size_t close = sql_.find('}', i_ + 2);
    std::string key = close == std::string::npos ? "" : sql_.substr(i_ + 2, close - i_ - 2);
    if (close == std::string::npos || !IsPipelineParameterName(key)) {
      std::string shown = sql_.substr(begin, std::min<size_t>(40, (close == std::string::npos ? sql_.size() : close + 1) - begin));
      throw InvalidInputError(Where(begin) + ": " + shown + " is not a parameter reference; write ${name} with a name of "
                              "letters, digits, '_', '-' and '.'");
    }
    i_ = close + 1;
    auto it = conf_.find(key);
    if (it != conf_.end()) return it->second;
    it = set_.find(key);
    if (it != set_.end()) return it->second;
    throw InvalidInputError(Where(begin) + ": the pipeline parameter ${" + key + "} is not set; set it with --conf " + key +
                            "=VALUE on the lakestream run command line, or with SET " + key +
                            " = VALUE; in the file before this line");
  }

  bool StartsSet() const {
    if (i_ + 3 >= sql_.size() || !StringUtil::CIEquals(sql_.substr(i_, 3), "set") || !IsSpace(sql_[i_ + 3])) return false;
    // SET key = value: a parameter name, then '='. Anything else (SET TIME
    // ZONE ...) is left to the SQL parser.
    size_t k = i_ + 3;
    while (k < sql_.size() && IsSpace(sql_[k])) k++;
    size_t key_begin = k;
    while (k < sql_.size() && (std::isalnum(static_cast<unsigned char>(sql_[k])) || sql_[k] == '_' || sql_[k] == '-' ||
                               sql_[k] == '.')) {
      k++;
    }
    if (k == key_begin) return false;
    while (k < sql_.size() && IsSpace(sql_[k])) k++;
    return k < sql_.size() && sql_[k] == '=';
  }

  // SET key = value; at i_: records it and blanks it out (keeping newlines).
  void ParseSet() {
    size_t begin = i_;
    size_t end = begin;
    char quote = 0;
    for (; end < sql_.size(); end++) {
      char c = sql_[end];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"' || c == '`') {
        quote = c;
      } else if (c == ';') {
        break;
      }
    }
    std::string body = sql_.substr(begin + 3, end - begin - 3);
    size_t eq = body.find('=');
    std::string key = Trim(body.substr(0, eq));
    std::string raw = Trim(body.substr(eq + 1));
    if (raw.find("${") != std::string::npos) {
      throw InvalidInputError(Where(begin) + ": SET " + key + " = " + raw + ": a parameter's value cannot use other parameters");
    }
    set_[key] = Unquote(raw);
    for (size_t k = begin; k < end && k < sql_.size(); k++) out_ += sql_[k] == '\n' ? '\n' : ' ';
    i_ = end < sql_.size() ? end + 1 : end;
    out_ += ' ';
  }

  const std::string& sql_;
  const std::map<std::string, std::string>& conf_;
  const std::string& file_;
  std::map<std::string, std::string> set_;
  std::string out_;
  size_t i_ = 0;
};

}  // namespace

std::string SubstitutePipelineParameters(const std::string& sql, const std::map<std::string, std::string>& conf,
                                         const std::string& file) {
  return Substituter(sql, conf, file).Run();
}

}  // namespace lakestream
