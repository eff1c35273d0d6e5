#include "common/json_parse.hpp"

#include <nlohmann/json.hpp>

namespace lakestream {

namespace {

// "at column C" on the first line, "at line L, column C" after it (1-based),
// as nlohmann words positions.
std::string PositionOf(std::string_view text, size_t offset) {
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < text.size(); i++) {
    if (text[i] == '\n') {
      line++;
      line_start = i + 1;
    }
  }
  std::string column = "column " + std::to_string(offset - line_start + 1);
  return line == 1 ? column : "line " + std::to_string(line) + ", " + column;
}

// nlohmann's message without its "[json.exception.parse_error.101] " prefix,
// and without "line 1, " (one-line texts are the common case: a Delta action,
// a JSON lines record, a function argument).
std::string MalformedMessage(const std::string& what) {
  std::string message = what;
  auto close = message.find("] ");
  if (close != std::string::npos) message = message.substr(close + 2);
  auto at = message.find("at line 1, ");
  if (at != std::string::npos) message = message.substr(0, at) + "at " + message.substr(at + 11);
  return "malformed JSON (" + message + ")";
}

template <class J>
J Parse(std::string_view text, JsonError* error, size_t max_depth) {
  size_t deep = JsonDepthExceededAt(text, max_depth);
  if (deep != std::string_view::npos) {
    if (error) {
      error->too_deep = true;
      error->message = "JSON is nested more than " + std::to_string(max_depth) + " levels deep (at " +
                       PositionOf(text, deep) + "); at most " + std::to_string(max_depth) +
                       " levels of arrays and objects are read: flatten the document";
    }
    return J(J::value_t::discarded);
  }
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (!error) return J::parse(begin, end, nullptr, /*allow_exceptions=*/false);
  try {
    return J::parse(begin, end);
  } catch (const nlohmann::json::exception& e) {
    error->too_deep = false;
    error->message = MalformedMessage(e.what());
    return J(J::value_t::discarded);
  }
}

}  // namespace

size_t JsonDepthExceededAt(std::string_view text, size_t max_depth) {
  size_t depth = 0;
  const char* data = text.data();
  size_t n = text.size();
  for (size_t i = 0; i < n; i++) {
    char c = data[i];
    if (c == '"') {
      // Skip the string: brackets inside it are text. An unterminated one
      // runs to the end (nlohmann then reports it).
      for (i++; i < n && data[i] != '"'; i++) {
        if (data[i] == '\\') i++;
      }
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      depth--;
    }
  }
  return std::string_view::npos;
}

nlohmann::json ParseJson(std::string_view text, JsonError* error, size_t max_depth) {
  return Parse<nlohmann::json>(text, error, max_depth);
}

nlohmann::ordered_json ParseOrderedJson(std::string_view text, JsonError* error, size_t max_depth) {
  return Parse<nlohmann::ordered_json>(text, error, max_depth);
}

bool ParseJsonSax(std::string_view text, nlohmann::json_sax<nlohmann::json>* sax, size_t max_depth) {
  if (JsonDepthExceededAt(text, max_depth) != std::string_view::npos) return false;
  return nlohmann::json::sax_parse(text, sax, nlohmann::json::input_format_t::json, true, false);
}

}  // namespace lakestream
