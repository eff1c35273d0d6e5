// APPLY CHANGES INTO / CREATE FLOW ... AS AUTO CDC INTO (docs/apply-changes.md):
//
//   APPLY CHANGES INTO [LIVE.]target
//   FROM STREAM(source) | STREAM source
//   KEYS (k1 [, ...])
//   [IGNORE NULL UPDATES]
//   [APPLY AS DELETE WHEN condition]
//   [APPLY AS TRUNCATE WHEN condition]
//   SEQUENCE BY expression
//   [COLUMNS (c1, ...) | COLUMNS * EXCEPT (c1, ...)]
//   [STORED AS SCD TYPE 1 | STORED AS SCD TYPE 2]
//   [TRACK HISTORY ON (c1, ...) | TRACK HISTORY ON * EXCEPT (c1, ...)]
//
//   CREATE [OR REFRESH] FLOW name AS AUTO CDC INTO target FROM ... (same clauses)
//
// The optional clauses may come in any order after KEYS, each at most once.
#include "common/string_util.hpp"
#include "parser/parser_impl.hpp"

namespace lakestream {

namespace {

// LIVE.t names the pipeline's table t.
QualifiedName WithoutLive(QualifiedName name) {
  if (name.parts.size() == 2 && StringUtil::CIEquals(name.parts[0], "LIVE")) name.parts.erase(name.parts.begin());
  return name;
}

}  // namespace

std::unique_ptr<SQLStatement> ParserImpl::ParseApplyChanges() {
  auto statement = std::make_unique<ApplyChangesStatement>();
  // APPLY CHANGES INTO, or INTO alone after AUTO CDC.
  if (AcceptKeyword("APPLY")) {
    if (!AcceptKeyword("CHANGES")) SyntaxError(Peek(), "expected CHANGES after APPLY (APPLY CHANGES INTO target ...)");
  }
  if (!AcceptKeyword("INTO")) SyntaxError(Peek(), "expected INTO and the target streaming table");
  statement->target = WithoutLive(ParseQualifiedName("the target streaming table"));
  if (!AcceptKeyword("FROM")) SyntaxError(Peek(), "expected FROM STREAM(source)");
  if (!AcceptKeyword("STREAM")) {
    SyntaxError(Peek(), "the source of APPLY CHANGES is read as a stream: write FROM STREAM(source) (or STREAM source)");
  }
  uint32_t source_begin = Peek().offset;
  if (AcceptOp("(")) {
    source_begin = Peek().offset;
    statement->source = ParseQualifiedName("the source table");
    statement->source_text = SourceText(source_begin, PreviousEnd());
    ExpectOp(")");
  } else {
    statement->source = ParseQualifiedName("the source table");
    statement->source_text = SourceText(source_begin, PreviousEnd());
  }
  statement->source = WithoutLive(statement->source);
  if (!AcceptKeyword("KEYS")) SyntaxError(Peek(), "expected KEYS (key columns) after the source");
  statement->keys = ParseIdentifierList("a key column");

  // The optional clauses, each at most once, in any order (SEQUENCE BY is required).
  bool seen_ignore = false, seen_delete = false, seen_truncate = false, seen_sequence = false, seen_columns = false,
       seen_stored = false, seen_track = false;
  uint32_t track_at = 0, truncate_at = 0;
  auto once = [&](bool& seen, const char* clause, uint32_t at) {
    if (seen) ErrorAt(at, std::string(clause) + " is given twice; keep one");
    seen = true;
  };
  auto expression_text = [&]() {
    uint32_t begin = Peek().offset;
    ParseExpression();
    return SourceText(begin, PreviousEnd());
  };
  // (a, b) or * EXCEPT (a, b)
  auto column_selection = [&](std::vector<std::string>& names, bool& except) {
    if (AcceptOp("*")) {
      if (!AcceptKeyword("EXCEPT")) SyntaxError(Peek(), "expected EXCEPT (columns) after *");
      except = true;
    }
    names = ParseIdentifierList("a column name");
  };
  while (!AtStatementEnd()) {
    uint32_t at = Peek().offset;
    if (AcceptKeywords({"IGNORE", "NULL", "UPDATES"})) {
      once(seen_ignore, "IGNORE NULL UPDATES", at);
      statement->ignore_null_updates = true;
      if (IsKeyword("ON")) ErrorAt(Peek().offset, "not supported yet: IGNORE NULL UPDATES ON columns; it applies to every column");
    } else if (AcceptKeywords({"APPLY", "AS", "DELETE", "WHEN"})) {
      once(seen_delete, "APPLY AS DELETE WHEN", at);
      statement->delete_when = expression_text();
    } else if (AcceptKeywords({"APPLY", "AS", "TRUNCATE", "WHEN"})) {
      once(seen_truncate, "APPLY AS TRUNCATE WHEN", at);
      truncate_at = at;
      statement->truncate_when = expression_text();
    } else if (AcceptKeywords({"SEQUENCE", "BY"})) {
      once(seen_sequence, "SEQUENCE BY", at);
      statement->sequence_by = expression_text();
    } else if (AcceptKeyword("COLUMNS")) {
      once(seen_columns, "COLUMNS", at);
      column_selection(statement->columns, statement->columns_except);
    } else if (AcceptKeywords({"STORED", "AS", "SCD", "TYPE"})) {
      once(seen_stored, "STORED AS", at);
      int64_t type = ParseIntegerLiteral("the SCD type");
      if (type != 1 && type != 2) ErrorAt(at, "STORED AS SCD TYPE must be 1 or 2, got " + std::to_string(type));
      statement->scd_type = static_cast<int>(type);
    } else if (AcceptKeywords({"TRACK", "HISTORY", "ON"})) {
      once(seen_track, "TRACK HISTORY ON", at);
      track_at = at;
      statement->has_track_history = true;
      column_selection(statement->track_history, statement->track_history_except);
    } else if (AcceptKeyword("WHERE")) {
      ErrorAt(at, "not supported: a WHERE clause in APPLY CHANGES; filter the source in the streaming table it reads");
    } else {
      SyntaxError(Peek(), "expected IGNORE NULL UPDATES, APPLY AS DELETE WHEN, APPLY AS TRUNCATE WHEN, SEQUENCE BY, "
                          "COLUMNS, STORED AS SCD TYPE or TRACK HISTORY ON");
    }
  }
  if (!seen_sequence) SyntaxError(Peek(), "APPLY CHANGES needs SEQUENCE BY <column> to order the changes of each key");
  if (seen_track && statement->scd_type != 2) {
    ErrorAt(track_at, "TRACK HISTORY ON needs STORED AS SCD TYPE 2 (type 1 keeps no history)");
  }
  if (seen_truncate && statement->scd_type == 2) {
    ErrorAt(truncate_at, "APPLY AS TRUNCATE WHEN is for SCD TYPE 1 only; drop it or store as SCD TYPE 1");
  }
  return statement;
}

}  // namespace lakestream
