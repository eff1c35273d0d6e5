// Window syntax: OVER (...) after a function call, the WINDOW clause and the
// frame clause (docs/sql-windows.md). What the frame means is the binder's
// business (planner/bind_window.cpp); here only its shape is read.
#include "common/exception.hpp"
#include "parser/parser.hpp"
#include "parser/parser_impl.hpp"

namespace lakestream {

namespace {

uint32_t HeightOf(const ExprPtr& e) { return e ? e->height : 0; }

}  // namespace

ExprPtr ParserImpl::ParseCallSuffix(ExprPtr call) {
  if ((IsKeyword("IGNORE") || IsKeyword("RESPECT")) && IsKeyword("NULLS", 1)) {
    call->ignore_nulls = EqualsIgnoreCase(Next().text, "IGNORE");
    Next();
  }
  if (IsKeyword("OVER")) ParseOver(*call);
  return Finish(std::move(call));
}

void ParserImpl::ParseOver(ParsedExpression& call) {
  uint32_t location = Next().offset;  // OVER
  if (IsOp("(")) {
    call.window = ParseWindowSpec();
  } else if (IsIdentifierLike() && !IsReservedWord(Peek())) {
    call.window = std::make_unique<WindowSpec>();
    call.window->location = Peek().offset;
    call.window->base_name = Next().text;
  } else {
    SyntaxError(Peek(), "expected '(' or a window name after OVER");
  }
  if (call.window->location == 0) call.window->location = location;
}

WindowFrameBound ParserImpl::ParseFrameBound() {
  WindowFrameBound bound;
  if (AcceptKeyword("UNBOUNDED")) {
    if (AcceptKeyword("PRECEDING")) {
      bound.boundary = WindowBoundary::UNBOUNDED_PRECEDING;
    } else if (AcceptKeyword("FOLLOWING")) {
      bound.boundary = WindowBoundary::UNBOUNDED_FOLLOWING;
    } else {
      SyntaxError(Peek(), "expected PRECEDING or FOLLOWING after UNBOUNDED");
    }
    return bound;
  }
  if (AcceptKeywords({"CURRENT", "ROW"})) {
    bound.boundary = WindowBoundary::CURRENT_ROW;
    return bound;
  }
  bound.offset = ParseAdditive();
  if (AcceptKeyword("PRECEDING")) {
    bound.boundary = WindowBoundary::OFFSET_PRECEDING;
  } else if (AcceptKeyword("FOLLOWING")) {
    bound.boundary = WindowBoundary::OFFSET_FOLLOWING;
  } else {
    SyntaxError(Peek(), "expected PRECEDING or FOLLOWING after the frame offset");
  }
  return bound;
}

std::unique_ptr<WindowSpec> ParserImpl::ParseWindowSpec() {
  DepthGuard guard(*this);
  auto spec = std::make_unique<WindowSpec>();
  spec->location = Peek().offset;
  ExpectOp("(");
  // OVER (w ORDER BY ...): a named window refined here.
  if (IsIdentifierLike() && !IsKeyword("PARTITION") && !IsKeyword("ORDER") && !IsKeyword("ROWS") &&
      !IsKeyword("RANGE") && !IsKeyword("GROUPS") && !IsKeyword("DISTRIBUTE") && !IsKeyword("SORT")) {
    spec->base_name = Next().text;
  }
  // Spark also spells PARTITION BY as DISTRIBUTE BY and ORDER BY as SORT BY.
  if (AcceptKeywords({"PARTITION", "BY"}) || AcceptKeywords({"DISTRIBUTE", "BY"})) {
    do {
      spec->partitions.push_back(ParseExpression());
    } while (AcceptOp(","));
  }
  if (AcceptKeywords({"ORDER", "BY"}) || AcceptKeywords({"SORT", "BY"})) {
    do {
      spec->orders.push_back(ParseOrderByItem());
    } while (AcceptOp(","));
  }
  if (IsKeyword("GROUPS")) ErrorAt(Peek().offset, "not supported yet: GROUPS frames (use ROWS or RANGE)");
  if (IsKeyword("ROWS") || IsKeyword("RANGE")) {
    spec->has_frame = true;
    spec->range = EqualsIgnoreCase(Next().text, "RANGE");
    if (AcceptKeyword("BETWEEN")) {
      spec->start = ParseFrameBound();
      ExpectKeyword("AND");
      spec->end = ParseFrameBound();
    } else {
      // ROWS <bound> means BETWEEN <bound> AND CURRENT ROW.
      spec->start = ParseFrameBound();
      spec->end.boundary = WindowBoundary::CURRENT_ROW;
    }
    if (IsKeyword("EXCLUDE")) ErrorAt(Peek().offset, "not supported yet: EXCLUDE in a window frame");
  }
  if (!AcceptOp(")")) SyntaxError(Peek(), "expected PARTITION BY, ORDER BY, ROWS, RANGE or ')' in the window");
  uint32_t h = std::max(HeightOf(spec->start.offset), HeightOf(spec->end.offset));
  for (auto& p : spec->partitions) h = std::max(h, p->height);
  for (auto& o : spec->orders) h = std::max(h, o.expression->height);
  if (++h > kMaxNestingDepth) NestingError(spec->location);
  spec->height = h;
  return spec;
}

void ParserImpl::ParseWindowClause(QueryNode& node) {
  do {
    std::string name = ParseIdentifier("a window name");
    for (auto& [existing, spec] : node.windows) {
      if (EqualsIgnoreCase(existing, name.c_str())) {
        ErrorAt(PreviousEnd(), "the window " + name + " is defined twice in the WINDOW clause; rename one of them");
      }
    }
    ExpectKeyword("AS");
    node.windows.emplace_back(std::move(name), ParseWindowSpec());
  } while (AcceptOp(","));
}

}  // namespace lakestream
