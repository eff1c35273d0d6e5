// Parameters: ?, $1, $2, ... and $name (DuckDB's named form), numbered
// for the values a statement takes (main/parameter_substitution.hpp).
#include <algorithm>
#include <memory>
#include <string>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "parser/parser.hpp"
#include "parser/parser_impl.hpp"

namespace lakestream {

ExprPtr ParserImpl::ParseParameter(const Token& token) {
  // One statement numbers its parameters one way: mixing makes "the second
  // parameter" ambiguous (is `? ... $1 ... ?` two parameters or three?).
  bool named = token.text.size() > 1 && token.text[0] == '$' && !(token.text[1] >= '0' && token.text[1] <= '9');
  bool numbered = !named && token.text != "?";
  ParameterStyle style = named ? ParameterStyle::NAMED : numbered ? ParameterStyle::NUMBERED : ParameterStyle::POSITIONAL;
  if (parameter_style_ != ParameterStyle::NONE && parameter_style_ != style) {
    ErrorAt(token.offset, "a statement uses one kind of parameters: ?, $1, $2, ... or $name, not several; "
                          "write them all one way");
  }
  // Named values are the whole text's, so its statements cannot mix them
  // with ? or $n (which each statement counts on its own).
  if (named ? text_has_unnamed_parameters_ : !parameter_names_.empty()) {
    ErrorAt(token.offset, "the statements of one text use one kind of parameters: ?, $1, $2, ... or $name, not "
                          "several; write them all one way");
  }
  text_has_unnamed_parameters_ |= !named;
  parameter_style_ = style;
  uint32_t index;
  if (named) {
    std::string name = StringUtil::Lower(token.text.substr(1));
    auto it = std::find(parameter_names_.begin(), parameter_names_.end(), name);
    if (it == parameter_names_.end()) {
      if (parameter_names_.size() >= kMaxParameters) {
        ErrorAt(token.offset, "too many parameters; a statement takes at most " + std::to_string(kMaxParameters));
      }
      parameter_names_.push_back(name);
      it = parameter_names_.end() - 1;
    }
    index = static_cast<uint32_t>(it - parameter_names_.begin()) + 1;
  } else if (numbered) {
    std::string digits = token.text.substr(1);
    if (digits.size() > 5 || std::stoul(digits) == 0 || std::stoul(digits) > kMaxParameters) {
      ErrorAt(token.offset, "parameter " + token.text + " is out of range; parameters are numbered $1 to $" +
                                std::to_string(kMaxParameters));
    }
    index = static_cast<uint32_t>(std::stoul(digits));
  } else {
    if (parameter_count_ >= kMaxParameters) {
      ErrorAt(token.offset, "too many parameters; a statement takes at most " + std::to_string(kMaxParameters));
    }
    index = parameter_count_ + 1;
  }
  parameter_count_ = std::max(parameter_count_, index);
  auto expr = std::make_unique<ParsedExpression>(ExpressionType::PARAMETER, token.offset);
  expr->parameter_index = index;
  return expr;
}

}  // namespace lakestream
