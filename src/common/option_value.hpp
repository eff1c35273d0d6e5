// The value of a boolean option, read one way wherever options are given:
// read_files()/read_csv()/read_json() arguments, COPY ... (HEADER ...), and
// the options translated into them.
#pragma once

#include <string>

#include "common/value.hpp"

namespace lakestream {

// A BOOLEAN, the integers 1 and 0, or the text true/false, 1/0, on/off in
// any case. Anything else (NULL included) throws BinderError
//   "<owner> option <option> must be true or false<alternative>, got <value>"
// where owner names what the user wrote ("read_csv()", "COPY") and
// alternative mentions another accepted value (" (or 'auto')"), or is empty.
bool BooleanOption(const std::string& owner, const std::string& option, const Value& value,
                   const std::string& alternative = "");

}  // namespace lakestream
