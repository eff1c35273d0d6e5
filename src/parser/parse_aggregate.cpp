// The aggregate parts of the grammar: ORDER BY inside a call, WITHIN GROUP,
// FILTER (WHERE ...), and GROUP BY with GROUPING SETS, ROLLUP, CUBE and
// Spark's WITH ROLLUP / WITH CUBE.
#include <algorithm>
#include <functional>
#include <string>

#include "parser/parser_impl.hpp"

namespace lakestream {

// Most grouping sets one GROUP BY may expand to (CUBE of 12 columns).
static constexpr size_t kMaxGroupingSets = 4096;

void ParserImpl::ParseOrderInCall(ParsedExpression& call) {
  if (call.order_count > 0) ErrorAt(Peek().offset, call.function_name + " has two ORDER BY clauses; keep one");
  ExpectKeyword("ORDER");
  ExpectKeyword("BY");
  do {
    OrderByItem item = ParseOrderByItem();
    uint8_t flags = item.descending ? ParsedExpression::kOrderDesc : 0;
    if (item.nulls_first.value_or(item.descending)) flags |= ParsedExpression::kOrderNullsFirst;
    call.children.push_back(std::move(item.expression));
    call.order_flags.push_back(flags);
    call.order_count++;
  } while (AcceptOp(","));
}

ExprPtr ParserImpl::ParseCallModifiers(ExprPtr call) {
  if (IsKeyword("WITHIN") && IsKeyword("GROUP", 1)) {
    Next();
    Next();
    ExpectOp("(");
    ParseOrderInCall(*call);
    ExpectOp(")");
    call->within_group = true;
  }
  if (IsKeyword("FILTER") && IsOp("(", 1)) {
    Next();
    Next();
    ExpectKeyword("WHERE");
    call->children.push_back(ParseExpression());
    call->has_filter = true;
    ExpectOp(")");
  }
  // agg(...) FILTER (WHERE ...) OVER (...): IGNORE NULLS and the window come last.
  return ParseCallSuffix(std::move(call));
}

namespace {
using ExprSets = std::vector<std::vector<const ParsedExpression*>>;

// Every combination of one set from `a` and one from `b`, concatenated.
ExprSets CrossProduct(const ExprSets& a, const ExprSets& b) {
  ExprSets out;
  for (auto& x : a) {
    for (auto& y : b) {
      auto set = x;
      set.insert(set.end(), y.begin(), y.end());
      out.push_back(std::move(set));
    }
  }
  return out;
}
}  // namespace

void ParserImpl::ParseGroupBy(QueryNode& node) {
  // Expressions are owned by `owned` until they move into node.group_by;
  // sets point at them.
  std::vector<ExprPtr> owned;
  uint32_t location = Peek().offset;
  auto check_size = [&](size_t n) {
    if (n > kMaxGroupingSets) {
      ErrorAt(location, "GROUP BY expands to more than " + std::to_string(kMaxGroupingSets) +
                            " grouping sets; list the sets you need with GROUPING SETS");
    }
  };
  // `e` or `(e, ...)` or `()`: one set of expressions.
  auto parse_set = [&]() {
    std::vector<const ParsedExpression*> set;
    if (IsOp("(") && !IsQueryStart(1)) {
      // A parenthesised list is a composite set; `(a + b) * 2` and
      // `(SELECT ...)` are not, so look for the matching ')' followed by ','
      // or ')'.
      size_t depth = 0;
      size_t k = 0;
      for (;; k++) {
        if (Peek(k).type == TokenType::END_OF_INPUT) break;
        if (IsOp("(", k)) depth++;
        if (IsOp(")", k) && --depth == 0) break;
      }
      if (IsOp(",", k + 1) || IsOp(")", k + 1)) {
        Next();
        if (!AcceptOp(")")) {
          do {
            owned.push_back(ParseExpression());
            set.push_back(owned.back().get());
          } while (AcceptOp(","));
          ExpectOp(")");
        }
        return set;
      }
    }
    owned.push_back(ParseExpression());
    set.push_back(owned.back().get());
    return set;
  };
  std::function<ExprSets()> parse_element = [&]() -> ExprSets {
    if (IsKeyword("GROUPING") && IsKeyword("SETS", 1)) {
      Next();
      Next();
      ExpectOp("(");
      ExprSets sets;
      do {
        for (auto& s : parse_element()) sets.push_back(std::move(s));
        check_size(sets.size());
      } while (AcceptOp(","));
      ExpectOp(")");
      return sets;
    }
    bool rollup = IsKeyword("ROLLUP") && IsOp("(", 1);
    bool cube = IsKeyword("CUBE") && IsOp("(", 1);
    if (rollup || cube) {
      Next();
      ExpectOp("(");
      std::vector<std::vector<const ParsedExpression*>> parts;
      do {
        parts.push_back(parse_set());
      } while (AcceptOp(","));
      ExpectOp(")");
      ExprSets sets;
      if (rollup) {
        // (a, b, c), (a, b), (a), ()
        for (size_t n = parts.size() + 1; n-- > 0;) {
          std::vector<const ParsedExpression*> set;
          for (size_t i = 0; i < n; i++) set.insert(set.end(), parts[i].begin(), parts[i].end());
          sets.push_back(std::move(set));
        }
      } else {
        check_size(parts.size() >= 31 ? kMaxGroupingSets + 1 : size_t(1) << parts.size());
        // Every subset, the full set first and () last.
        size_t n = size_t(1) << parts.size();
        for (size_t mask = n; mask-- > 0;) {
          std::vector<const ParsedExpression*> set;
          for (size_t i = 0; i < parts.size(); i++) {
            if (mask & (size_t(1) << (parts.size() - 1 - i))) set.insert(set.end(), parts[i].begin(), parts[i].end());
          }
          sets.push_back(std::move(set));
        }
      }
      return sets;
    }
    return {parse_set()};
  };
  ExprSets sets = {{}};
  bool plain = true;
  do {
    plain = plain && !(IsKeyword("GROUPING") && IsKeyword("SETS", 1)) &&
            !((IsKeyword("ROLLUP") || IsKeyword("CUBE")) && IsOp("(", 1));
    sets = CrossProduct(sets, parse_element());
    check_size(sets.size());
  } while (AcceptOp(","));
  if (IsKeyword("WITH") && (IsKeyword("ROLLUP", 1) || IsKeyword("CUBE", 1))) {
    if (!plain || sets.size() != 1) {
      ErrorAt(Peek().offset, "WITH ROLLUP/WITH CUBE applies to a plain GROUP BY list; "
                             "combine GROUPING SETS, ROLLUP(...) and CUBE(...) instead");
    }
    Next();
    bool rollup = AcceptKeyword("ROLLUP");
    if (!rollup) Next();
    const auto columns = sets[0];
    sets.clear();
    if (rollup) {
      for (size_t n = columns.size() + 1; n-- > 0;) sets.emplace_back(columns.begin(), columns.begin() + n);
    } else {
      check_size(columns.size() >= 31 ? kMaxGroupingSets + 1 : size_t(1) << columns.size());
      for (size_t mask = size_t(1) << columns.size(); mask-- > 0;) {
        std::vector<const ParsedExpression*> set;
        for (size_t i = 0; i < columns.size(); i++) {
          if (mask & (size_t(1) << (columns.size() - 1 - i))) set.push_back(columns[i]);
        }
        sets.push_back(std::move(set));
      }
    }
    plain = false;
  }
  // Each distinct expression once in group_by; sets refer to positions.
  std::vector<std::string> texts;
  std::vector<const ParsedExpression*> raw;
  raw.reserve(owned.size());
  for (auto& e : owned) raw.push_back(e.get());
  std::vector<uint32_t> position(owned.size());
  for (size_t i = 0; i < owned.size(); i++) {
    std::string text = owned[i]->ToString();
    auto it = std::find(texts.begin(), texts.end(), text);
    if (it == texts.end() || plain) {
      position[i] = static_cast<uint32_t>(node.group_by.size());
      texts.push_back(std::move(text));
      node.group_by.push_back(std::move(owned[i]));
    } else {
      position[i] = static_cast<uint32_t>(it - texts.begin());
    }
  }
  if (plain) return;
  for (auto& set : sets) {
    std::vector<uint32_t> positions;
    for (const ParsedExpression* e : set) {
      size_t i = 0;
      while (i < raw.size() && raw[i] != e) i++;
      uint32_t p = position[i];
      if (std::find(positions.begin(), positions.end(), p) == positions.end()) positions.push_back(p);
    }
    node.grouping_sets.push_back(std::move(positions));
  }
}

}  // namespace lakestream
