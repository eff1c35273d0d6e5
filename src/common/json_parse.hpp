// The one way to read JSON text: nlohmann's parser behind a depth limit.
//
// nlohmann's parser keeps its own stack, but the tree it builds is copied,
// compared and printed by recursion, and so is every pass of ours over it
// (schemas, statistics, read_files' inference): a document nested 100,000
// deep ends the process with SIGSEGV wherever it is touched. ParseJson first
// scans the text's nesting iteratively (strings skipped) and refuses a
// document deeper than kMaxJsonDepth before any tree exists, so every tree it
// returns is at most kMaxJsonDepth deep and recursion over it is bounded.
//
//   JsonError error;
//   nlohmann::json j = ParseJson(line, &error);
//   if (j.is_discarded()) return Status::Corruption(file + " line 3: " + error.message);
//
// Never throws. Every place that reads JSON (the Delta log and its strings,
// the catalog, secrets, JSON functions, read_files, ...) calls this.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

NLOHMANN_JSON_NAMESPACE_BEGIN
template <typename BasicJsonType>
struct json_sax;  // nlohmann/detail/input/json_sax.hpp; json_fwd.hpp does not declare it
NLOHMANN_JSON_NAMESPACE_END

namespace lakestream {

// The most levels of nested arrays and objects a JSON text may have: the
// default of Jackson (StreamReadConstraints), so what Spark and Delta read,
// we read.
constexpr size_t kMaxJsonDepth = 1000;

// Why ParseJson returned a discarded value.
struct JsonError {
  bool too_deep = false;  // else malformed
  // "malformed JSON (syntax error while parsing value - ... at column 5)" or
  // "JSON is nested more than 1000 levels deep (at column 1001); ..." with
  // the position as "line L, column C" when the text has several lines.
  std::string message;
};

// One JSON document; a discarded value (is_discarded()) when the text is
// malformed or deeper than `max_depth`, with the reason in `error` if given.
nlohmann::json ParseJson(std::string_view text, JsonError* error = nullptr, size_t max_depth = kMaxJsonDepth);
// The same, keeping the order of object members.
nlohmann::ordered_json ParseOrderedJson(std::string_view text, JsonError* error = nullptr,
                                        size_t max_depth = kMaxJsonDepth);

// The byte offset of the bracket that opens level max_depth + 1 of `text`,
// or std::string_view::npos when it nests no deeper than `max_depth`.
// Linear, iterative; malformed text is scanned as far as it goes.
size_t JsonDepthExceededAt(std::string_view text, size_t max_depth = kMaxJsonDepth);

// Streams `text` to `sax` (nlohmann's SAX interface, for readers that want
// a few fields without building a tree), after the same depth check as
// ParseJson: false when the text is deeper than `max_depth`, malformed, or
// the handler stopped.
bool ParseJsonSax(std::string_view text, nlohmann::json_sax<nlohmann::json>* sax, size_t max_depth = kMaxJsonDepth);

}  // namespace lakestream
