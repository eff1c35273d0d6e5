// INTERVAL literals (Spark and DuckDB spellings), folded to an INTERVAL
// constant while parsing so a bad literal is reported at its position:
//   INTERVAL 1 MONTH, INTERVAL '2' DAY, INTERVAL 3 HOURS, INTERVAL -1 DAY,
//   INTERVAL '1 day 2 hours' (the unit inside the string),
//   INTERVAL 1 DAY 2 HOURS (several units, Spark),
//   INTERVAL '1-2' YEAR TO MONTH, INTERVAL '1 10:30:00' DAY TO SECOND,
//   INTERVAL '10:30' HOUR TO MINUTE (the ANSI qualified forms).
// The value must be a literal; INTERVAL 1 DAY * n scales by an expression.
#include <cctype>

#include "common/interval.hpp"
#include "parser/parser_impl.hpp"

namespace lakestream {

namespace {

// Full unit words only: a short form such as 'd' or 'm' after a literal is
// more likely a column alias (SELECT INTERVAL '1 day' d).
bool IsUnitWord(const Token& t) {
  if (t.type != TokenType::IDENTIFIER) return false;
  static const char* const kUnits[] = {"YEAR",        "YEARS",        "MONTH",  "MONTHS",  "WEEK",   "WEEKS",
                                       "DAY",         "DAYS",         "HOUR",   "HOURS",   "MINUTE", "MINUTES",
                                       "SECOND",      "SECONDS",      "MILLISECOND", "MILLISECONDS",
                                       "MICROSECOND", "MICROSECONDS"};
  std::string upper = t.text;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const char* u : kUnits) {
    if (upper == u) return true;
  }
  return false;
}

std::string Upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (s.size() > 1 && s.back() == 'S') s.pop_back();
  return s;
}

// The text of `value` for an ANSI "FROM TO TO" qualifier as the free form
// Interval::TryParse reads, or "" for a qualifier lakestream does not take.
std::string QualifiedText(const std::string& value, const std::string& from, const std::string& to) {
  std::string v = value;
  bool negative = !v.empty() && v[0] == '-';
  if (negative || (!v.empty() && v[0] == '+')) v = v.substr(1);
  std::string sign = negative ? "-" : "";
  if (from == "YEAR" && to == "MONTH") {
    size_t dash = v.find('-');
    if (dash == std::string::npos) return "";
    return sign + v.substr(0, dash) + " years " + sign + v.substr(dash + 1) + " months";
  }
  std::string days;
  std::string time = v;
  if (from == "DAY") {
    size_t space = v.find(' ');
    if (space == std::string::npos) return "";
    days = sign + v.substr(0, space) + " days ";
    time = v.substr(space + 1);
    if (to == "HOUR") return days + sign + time + " hours";
  } else if (from == "HOUR" && (to == "MINUTE" || to == "SECOND")) {
  } else if (from == "MINUTE" && to == "SECOND") {
    time = "0:" + time;
  } else {
    return "";
  }
  return days + sign + time;
}

}  // namespace

ExprPtr ParserImpl::ParseIntervalLiteral(uint32_t location) {
  Next();  // INTERVAL
  interval_t total{};
  bool first = true;
  while (true) {
    const Token& start = Peek();
    std::string sign;
    size_t k = 0;
    if (first && (IsOp("-") || IsOp("+"))) {
      sign = Peek().text == "-" ? "-" : "";
      k = 1;
    }
    const Token& value = Peek(k);
    if (value.type != TokenType::NUMBER && value.type != TokenType::STRING) {
      if (!first) break;
      ErrorAt(value.offset, "not supported yet: INTERVAL with a value that is not a literal; write INTERVAL 1 DAY * n "
                            "to scale by an expression");
    }
    if (!first && !IsUnitWord(Peek(k + 1))) break;
    for (size_t i = 0; i <= k; i++) Next();
    std::string text = sign + value.text;
    interval_t part{};
    std::string error;
    if (!IsUnitWord(Peek())) {
      if (value.type != TokenType::STRING) {
        std::string got = Peek().type == TokenType::IDENTIFIER ? "; '" + Peek().text + "' is not one" : "";
        ErrorAt(start.offset, "INTERVAL " + text + " needs a unit" + got +
                                  ": use YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND or MICROSECOND, e.g. "
                                  "INTERVAL " + text + " DAY");
      }
      if (!Interval::TryParse(text, part, &error)) ErrorAt(start.offset, error);
    } else {
      std::string unit = Next().text;
      if (AcceptKeyword("TO")) {
        const Token& to = Peek();
        if (!IsUnitWord(to)) SyntaxError(to, "expected a unit after TO, e.g. YEAR TO MONTH");
        std::string qualified = QualifiedText(text, Upper(unit), Upper(Next().text));
        if (qualified.empty()) {
          ErrorAt(start.offset, "not supported yet: INTERVAL ... " + Upper(unit) + " TO " + Upper(to.text) +
                                    "; use YEAR TO MONTH, DAY TO HOUR/MINUTE/SECOND, HOUR TO MINUTE/SECOND or MINUTE TO "
                                    "SECOND, or INTERVAL '1 day 2 hours'");
        }
        if (!Interval::TryParse(qualified, part, &error)) {
          ErrorAt(start.offset, "Could not read INTERVAL '" + text + "' " + Upper(unit) + " TO " + Upper(to.text) + ": " + error);
        }
      } else if (!Interval::FromUnit(text, unit, part, &error)) {
        ErrorAt(start.offset, error);
      }
    }
    if (!Interval::TryAdd(total, part, total)) ErrorAt(location, "INTERVAL literal is out of range");
    first = false;
  }
  auto expr = std::make_unique<ParsedExpression>(ExpressionType::CONSTANT, location);
  expr->value = Value::INTERVAL(total);
  return expr;
}

}  // namespace lakestream
