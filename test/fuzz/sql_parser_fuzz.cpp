// libFuzzer target for the SQL parser: any input must either parse or raise a
// ParserError; a crash, hang or sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/exception.hpp"
#include "parser/parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string sql(reinterpret_cast<const char*>(data), size);
  try {
    auto statements = lakestream::Parser::Parse(sql);
    for (auto& s : statements) (void)s->text;
  } catch (const lakestream::Exception&) {
  }
  (void)lakestream::Parser::IsComplete(sql);
  return 0;
}
