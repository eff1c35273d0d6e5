// DDL: CREATE TABLE / VIEW family / STREAM / SINK, DROP, ALTER TABLE, and the
// property lists they share.
#include "common/delta_table_properties.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "parser/parser_impl.hpp"

namespace lakestream {

namespace {

// Column and property names sit where no clause keyword can appear, so any
// word is accepted there (a column may be called `comment` or `timestamp`).
bool IsAnyName(const Token& t) { return t.type == TokenType::IDENTIFIER || t.type == TokenType::QUOTED_IDENTIFIER; }

// Other engines' index DDL, refused with what lakestream does instead.
const char* kNoIndexes =
    ": lakestream tables have no indexes. Scans skip files by their partition values and per-file "
    "min/max/null-count statistics (data skipping), so filter on the columns in PARTITIONED BY or "
    "on columns whose values cluster by file; OPTIMIZE t compacts small files";

}  // namespace

std::unique_ptr<SQLStatement> ParserImpl::ParseCreate() {
  ExpectKeyword("CREATE");
  bool or_replace = false;
  bool or_refresh = false;
  if (AcceptKeyword("OR")) {
    if (AcceptKeyword("REPLACE")) {
      or_replace = true;
    } else if (AcceptKeyword("REFRESH")) {
      or_refresh = true;
    } else {
      SyntaxError(Peek(), "expected REPLACE or REFRESH after OR");
    }
  }
  bool temporary = AcceptKeyword("TEMP") || AcceptKeyword("TEMPORARY");
  // Lakeflow's PRIVATE (the newer TEMPORARY): a dataset of the pipeline only.
  if (!temporary && IsKeyword("PRIVATE") &&
      (IsKeyword("STREAMING", 1) || IsKeyword("MATERIALIZED", 1) || IsKeyword("LIVE", 1) || IsKeyword("INCREMENTAL", 1))) {
    Next();
    temporary = true;
  }
  // Databricks pipeline forms (docs/pipelines.md, "Databricks dialect").
  if (auto statement = ParsePipelineCreate(or_replace, or_refresh, temporary)) return statement;
  if (temporary) {
    ErrorAt(Peek().offset, "not supported yet: temporary objects other than views (CREATE TEMP VIEW, CREATE TEMPORARY LIVE "
                           "VIEW, CREATE TEMPORARY STREAMING TABLE / LIVE TABLE / MATERIALIZED VIEW)");
  }
  // CREATE [UNIQUE | BLOOMFILTER] INDEX
  for (const char* kind : {"UNIQUE", "BLOOMFILTER"}) {
    if (IsKeyword(kind) && IsKeyword("INDEX", 1)) {
      ErrorAt(Peek().offset, std::string("not supported yet: CREATE ") + kind + " INDEX" + kNoIndexes);
    }
  }
  if (IsKeyword("INDEX")) ErrorAt(Peek().offset, std::string("not supported yet: CREATE INDEX") + kNoIndexes);
  if (IsKeyword("TABLE") && IsKeyword("STREAM", 1) && !IsOp("(", 2)) {
    // CREATE TABLE STREAM s ON TABLE t: `stream` followed by a name, not a column list.
    if ((IsIdentifierLike(2) && !IsKeyword("AS", 2)) || IsKeyword("IF", 2)) {
      Next();
      Next();
      return ParseCreateTableStream(or_replace);
    }
  }
  if (AcceptKeyword("TABLE")) {
    if (or_refresh) ErrorAt(Peek().offset, "CREATE OR REFRESH needs LIVE TABLE, STREAMING TABLE or MATERIALIZED VIEW");
    return ParseCreateTable(or_replace);
  }
  if (AcceptKeyword("STREAM")) return ParseCreateSnowflakeStream(or_replace);
  if (AcceptKeyword("SINK")) return ParseCreateSink(or_replace);
  SyntaxError(Peek(), "expected TABLE, TABLE STREAM, STREAM, SINK, VIEW, MATERIALIZED VIEW, LIVE TABLE, STREAMING TABLE, "
                      "LIVE VIEW or FLOW");
}

std::unique_ptr<SQLStatement> ParserImpl::ParsePipelineCreate(bool or_replace, bool or_refresh, bool temporary) {
  // Databricks' spellings and what they mean (INCREMENTAL LIVE TABLE and
  // STREAMING LIVE TABLE are the old names of STREAMING TABLE; LIVE TABLE of
  // MATERIALIZED VIEW). TEMPORARY tables are stored like the others: the
  // pipeline needs their data between runs.
  ViewKind kind;
  bool live_view = false;
  if (AcceptKeywords({"MATERIALIZED", "VIEW"})) {
    kind = ViewKind::MATERIALIZED_VIEW;
  } else if (AcceptKeywords({"LIVE", "TABLE"})) {
    kind = ViewKind::LIVE_TABLE;
  } else if (AcceptKeywords({"STREAMING", "LIVE", "TABLE"}) || AcceptKeywords({"STREAMING", "TABLE"}) ||
             AcceptKeywords({"INCREMENTAL", "LIVE", "TABLE"})) {
    kind = ViewKind::STREAMING_TABLE;
  } else if (AcceptKeywords({"LIVE", "VIEW"})) {
    kind = ViewKind::VIEW;
    live_view = true;
  } else if (AcceptKeyword("VIEW")) {
    kind = ViewKind::VIEW;
  } else if (IsKeyword("FLOW") && IsIdentifierLike(1)) {
    if (temporary || or_replace || or_refresh) ErrorAt(Peek().offset, "CREATE FLOW takes no OR REPLACE, OR REFRESH or TEMPORARY");
    Next();
    return ParseCreateFlow();
  } else {
    return nullptr;
  }
  if (or_refresh && kind == ViewKind::VIEW) {
    ErrorAt(PreviousEnd(), "CREATE OR REFRESH needs LIVE TABLE, STREAMING TABLE or MATERIALIZED VIEW; a view is "
                           "declared with CREATE [TEMPORARY] LIVE VIEW or CREATE [OR REPLACE] VIEW");
  }
  auto statement = ParseCreateView(kind, or_replace, or_refresh);
  auto& view = static_cast<CreateViewStatement&>(*statement);
  view.live_view = live_view;
  // A temporary plain view lives as long as the connection; a temporary
  // table is stored (see above).
  view.temporary = temporary && kind == ViewKind::VIEW;
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseCreateFlow() {
  // CREATE FLOW name [COMMENT '...'] AS INSERT INTO [ONCE] target BY NAME <query>
  auto statement = std::make_unique<CreateFlowStatement>();
  statement->name = ParseIdentifier("a flow name");
  if (AcceptKeyword("COMMENT")) statement->comment = ParseStringLiteral("the flow's comment");
  ExpectKeyword("AS");
  if (AcceptKeyword("AUTO")) {
    // CREATE FLOW name AS AUTO CDC INTO ...: APPLY CHANGES under its newer name.
    if (!AcceptKeyword("CDC")) SyntaxError(Peek(), "expected CDC after AUTO (CREATE FLOW name AS AUTO CDC INTO target ...)");
    auto cdc = ParseApplyChanges();
    static_cast<ApplyChangesStatement&>(*cdc).flow_name = statement->name;
    return cdc;
  }
  if (IsKeyword("INSERT") && IsKeyword("ONCE", 1)) ErrorAt(Peek(1).offset, "not supported yet: INSERT ONCE flows (one-time backfills)");
  if (!AcceptKeywords({"INSERT", "INTO"})) SyntaxError(Peek(), "expected INSERT INTO target BY NAME <query> after AS");
  if (IsKeyword("ONCE") && !IsKeyword("BY", 1)) ErrorAt(Peek().offset, "not supported yet: INSERT INTO ONCE flows (one-time backfills)");
  statement->target = ParseQualifiedName("the flow's target streaming table");
  if (!AcceptKeywords({"BY", "NAME"})) {
    SyntaxError(Peek(), "expected BY NAME after the target: a flow appends its query's columns by name (INSERT INTO " +
                            statement->target.ToString() + " BY NAME SELECT ...)");
  }
  uint32_t begin = Peek().offset;
  if (!IsQueryStart() && !IsOp("(")) SyntaxError(Peek(), "expected the flow's query (SELECT ... FROM STREAM(...))");
  statement->query = ParseQuery();
  statement->query_text = SourceText(begin, PreviousEnd());
  return statement;
}

ColumnDefinition ParserImpl::ParseColumnDefinition(std::vector<std::string>* primary_key, bool type_optional) {
  ColumnDefinition column;
  column.location = Peek().offset;
  if (!IsAnyName(Peek())) SyntaxError(Peek(), "expected a column name");
  column.name = Next().text;
  if (type_optional && (IsOp(",") || IsOp(")"))) return column;
  column.type = ParseType();
  while (true) {
    if (AcceptKeywords({"NOT", "NULL"})) {
      column.not_null = true;
    } else if (AcceptKeyword("NULL")) {
      column.not_null = false;
    } else if (AcceptKeywords({"PRIMARY", "KEY"})) {
      if (!primary_key) ErrorAt(PreviousEnd(), "PRIMARY KEY is not allowed here");
      primary_key->push_back(column.name);
      column.not_null = true;
    } else if (AcceptKeyword("DEFAULT")) {
      column.default_value = ParseExpression();
    } else if (AcceptKeyword("COMMENT")) {
      column.comment = ParseStringLiteral("the column comment");
    } else if (IsKeyword("GENERATED") || IsKeyword("REFERENCES") || IsKeyword("CHECK") || IsKeyword("UNIQUE")) {
      ErrorAt(Peek().offset, "not supported yet: column constraint " + ToUpperAscii(Peek().text));
    } else {
      return column;
    }
  }
}

std::string ParserImpl::ParsePropertyValue() {
  const Token& t = Peek();
  if (t.type == TokenType::STRING) return Next().text;
  if (t.type == TokenType::NUMBER) return Next().text;
  if (IsOp("-") && Peek(1).type == TokenType::NUMBER) {
    Next();
    return "-" + Next().text;
  }
  if (IsKeyword("TRUE") || IsKeyword("FALSE")) return ToLowerAscii(Next().text);
  // env('NAME'): read from the environment when used, kept as this text
  // (common/secret/secret.hpp, docs/secrets.md).
  if (IsKeyword("ENV") && IsOp("(", 1)) {
    Next();
    Next();
    const Token& name = Peek();
    std::string variable = ParseStringLiteral("the environment variable name");
    if (variable.empty() || variable.find('\'') != std::string::npos) SyntaxError(name, "expected an environment variable name");
    ExpectOp(")");
    return "env('" + variable + "')";
  }
  // Bare words: COPY options (FORMAT parquet), SET k = v, delta-style values.
  if (IsAnyName(t)) return Next().text;
  SyntaxError(t, "expected a property value (a string, a number, TRUE or FALSE)");
}

PropertyList ParserImpl::ParseTableProperties() {
  PropertyList properties = ParsePropertyList(false);
  for (size_t i = 0; i < properties.size(); i++) {
    std::string problem = CheckDeltaTableProperty(properties[i].first, properties[i].second);
    if (!problem.empty()) ErrorAt(property_offsets_[i], problem);
  }
  return properties;
}

PropertyList ParserImpl::ParsePropertyList(bool equals_optional) {
  PropertyList properties;
  property_offsets_.clear();
  ExpectOp("(");
  if (AcceptOp(")")) return properties;
  do {
    property_offsets_.push_back(Peek().offset);
    std::string key;
    if (Peek().type == TokenType::STRING) {
      key = Next().text;
    } else if (IsAnyName(Peek())) {
      // delta.enableChangeDataFeed: dotted, unquoted.
      key = Next().text;
      while (IsOp(".") && IsAnyName(Peek(1))) {
        Next();
        key += "." + Next().text;
      }
    } else {
      SyntaxError(Peek(), "expected a property name");
    }
    if (!AcceptOp("=") && !equals_optional) SyntaxError(Peek(), "expected '=' after the property name");
    if (equals_optional && (IsOp(",") || IsOp(")"))) {
      properties.emplace_back(std::move(key), "true");  // COPY ... (HEADER)
      continue;
    }
    properties.emplace_back(std::move(key), ParsePropertyValue());
  } while (AcceptOp(","));
  if (!AcceptOp(")")) SyntaxError(Peek(), "expected ',' or ')' in the property list");
  return properties;
}

std::unique_ptr<QueryNode> ParserImpl::ParseAsQuery(std::string& query_text) {
  if (!IsQueryStart() && !IsOp("(")) SyntaxError(Peek(), "expected a query (SELECT, WITH or VALUES) after AS");
  uint32_t begin = Peek().offset;
  auto query = ParseQuery();
  query_text = SourceText(begin, PreviousEnd());
  return query;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseCreateTable(bool or_replace) {
  auto statement = std::make_unique<CreateTableStatement>();
  statement->or_replace = or_replace;
  statement->if_not_exists = AcceptKeywords({"IF", "NOT", "EXISTS"});
  statement->name = ParseQualifiedName("a table name");
  if (IsOp("(") && !IsQueryStart(1)) {
    Next();
    do {
      if (AcceptKeyword("CONSTRAINT")) ParseIdentifier("a constraint name");
      if (AcceptKeywords({"PRIMARY", "KEY"})) {
        auto keys = ParseIdentifierList("a column name");
        statement->primary_key.insert(statement->primary_key.end(), keys.begin(), keys.end());
        continue;
      }
      statement->columns.push_back(ParseColumnDefinition(&statement->primary_key, false));
    } while (AcceptOp(","));
    if (!AcceptOp(")")) SyntaxError(Peek(), "expected ',' or ')' after the column definition");
  }
  // Table options, in any order.
  while (true) {
    if (AcceptKeyword("USING")) {
      if (!IsAnyName(Peek())) SyntaxError(Peek(), "expected a table format such as DELTA");
      statement->using_format = Next().text;
    } else if (AcceptKeywords({"PARTITIONED", "BY"})) {
      statement->partitioned_by = ParseIdentifierList("a partition column");
    } else if (AcceptKeyword("LOCATION")) {
      statement->location_path = ParseStringLiteral("the location");
    } else if (AcceptKeyword("COMMENT")) {
      AcceptOp("=");
      statement->comment = ParseStringLiteral("the comment");
    } else if (AcceptKeyword("TBLPROPERTIES") || AcceptKeywords({"WITH", "PROPERTIES"}) ||
               (IsKeyword("WITH") && IsOp("(", 1) && (Next(), true))) {
      auto props = ParseTableProperties();
      statement->properties.insert(statement->properties.end(), props.begin(), props.end());
    } else if (IsKeyword("CLUSTER")) {
      ErrorAt(Peek().offset, "not supported yet: CLUSTER BY");
    } else {
      break;
    }
  }
  if (AcceptKeyword("AS")) statement->as_query = ParseAsQuery(statement->as_query_text);
  return statement;
}

// The first part of an expectation's condition that depends on more than its
// row (a window function, a subquery), or null. Aggregates are known by name
// only to the function layer: CheckExpectationsPerRow
// (main/statement/expectations.hpp) refuses them before the statement runs.
static const ParsedExpression* NotRowLocal(const ParsedExpression& e) {
  switch (e.type) {
    case ExpressionType::SUBQUERY_SCALAR:
    case ExpressionType::SUBQUERY_IN:
    case ExpressionType::SUBQUERY_NOT_IN:
    case ExpressionType::SUBQUERY_EXISTS:
    case ExpressionType::SUBQUERY_NOT_EXISTS: return &e;
    case ExpressionType::FUNCTION:
      if (e.window) return &e;
      break;
    default: break;
  }
  for (auto& child : e.children) {
    if (const ParsedExpression* bad = NotRowLocal(*child)) return bad;
  }
  return nullptr;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseCreateView(ViewKind kind, bool or_replace, bool or_refresh) {
  auto statement = std::make_unique<CreateViewStatement>();
  statement->kind = kind;
  statement->or_replace = or_replace;
  statement->or_refresh = or_refresh;
  statement->if_not_exists = AcceptKeywords({"IF", "NOT", "EXISTS"});
  statement->name = ParseQualifiedName("a view name");
  auto& expectations = statement->expectations;
  if (IsOp("(") && !IsQueryStart(1)) {
    Next();
    do {
      if (IsKeyword("CONSTRAINT")) {
        uint32_t at = Next().offset;
        std::string constraint = ParseIdentifier("a constraint name");
        if (AcceptKeyword("EXPECT")) {
          if (kind == ViewKind::VIEW) {
            ErrorAt(at, "not supported yet: expectations on a view (constraint " + constraint + " of " +
                            statement->name.ToString() +
                            "); put the expectation on the streaming table or materialized view that reads it");
          }
          for (auto& e : expectations) {
            if (StringUtil::CIEquals(e.name, constraint)) {
              ErrorAt(at, "expectation " + constraint + " of " + statement->name.ToString() +
                              " is declared twice; give each expectation its own name");
            }
          }
          if (!AcceptOp("(")) SyntaxError(Peek(), "expected ( after EXPECT: CONSTRAINT " + constraint + " EXPECT (condition)");
          uint32_t condition_begin = Peek().offset;
          ExprPtr condition = ParseExpression();
          ExpectationDefinition expectation;
          expectation.name = constraint;
          // The text, not the tree: executors bind it against the query's
          // result columns, as they do the query's own text.
          expectation.condition = SourceText(condition_begin, PreviousEnd());
          if (const ParsedExpression* bad = NotRowLocal(*condition)) {
            ErrorAt(bad->location, "expectation " + constraint + " of " + statement->name.ToString() +
                                       ": its condition may not hold an aggregate, a window function or a subquery (" +
                                       bad->ToString() +
                                       "), since it checks each row on its own; compute the value in the query and "
                                       "check that column");
          }
          if (!AcceptOp(")")) SyntaxError(Peek(), "expected ) after the condition of expectation " + constraint);
          if (AcceptKeywords({"ON", "VIOLATION"})) {
            if (AcceptKeywords({"DROP", "ROW"})) {
              expectation.action = ExpectationAction::DROP_ROW;
            } else if (AcceptKeywords({"FAIL", "UPDATE"})) {
              expectation.action = ExpectationAction::FAIL_UPDATE;
            } else {
              SyntaxError(Peek(), "expected DROP ROW or FAIL UPDATE after ON VIOLATION");
            }
          }
          expectations.push_back(std::move(expectation));
          continue;
        }
        if (kind != ViewKind::STREAMING_TABLE || !IsKeyword("PRIMARY")) {
          SyntaxError(Peek(), "expected EXPECT (...) or PRIMARY KEY (...) after CONSTRAINT " + constraint);
        }
      }
      // Plain views list names only; streaming tables may declare types and
      // a primary key (rows then upsert by key).
      if (kind == ViewKind::STREAMING_TABLE && AcceptKeywords({"PRIMARY", "KEY"})) {
        auto keys = ParseIdentifierList("a column name");
        statement->primary_key.insert(statement->primary_key.end(), keys.begin(), keys.end());
        continue;
      }
      statement->columns.push_back(
          ParseColumnDefinition(kind == ViewKind::STREAMING_TABLE ? &statement->primary_key : nullptr, true));
    } while (AcceptOp(","));
    if (!AcceptOp(")")) SyntaxError(Peek(), "expected ',' or ')' after the column definition");
  }
  while (true) {
    if (AcceptKeywords({"PARTITIONED", "BY"})) {
      statement->partitioned_by = ParseIdentifierList("a partition column");
    } else if (AcceptKeyword("COMMENT")) {
      AcceptOp("=");
      statement->comment = ParseStringLiteral("the comment");
    } else if (AcceptKeyword("TBLPROPERTIES") || AcceptKeywords({"WITH", "PROPERTIES"})) {
      auto props = ParseTableProperties();
      statement->properties.insert(statement->properties.end(), props.begin(), props.end());
    } else if (kind != ViewKind::VIEW && AcceptKeyword("USING")) {
      if (!IsKeyword("DELTA")) SyntaxError(Peek(), "pipeline tables are Delta tables: write USING DELTA or leave USING out");
      Next();
    } else if (kind != ViewKind::VIEW && AcceptKeywords({"CLUSTER", "BY"})) {
      // Liquid clustering is a file layout hint: accepted, with no effect
      // on what the table holds (docs/pipelines.md, "Databricks dialect").
      if (!AcceptKeyword("AUTO") && !AcceptKeyword("NONE")) ParseIdentifierList("a clustering column");
    } else {
      break;
    }
  }
  // CREATE STREAMING TABLE t [(columns)]; with no query: the target of CREATE FLOWs
  // (append flows) or of APPLY CHANGES INTO / AUTO CDC.
  if (kind == ViewKind::STREAMING_TABLE && AtStatementEnd()) {
    if (!expectations.empty()) {
      ErrorAt(Peek().offset, "not supported yet: expectations on streaming table " + statement->name.ToString() +
                                       ", which is declared without a query (the target of flows); put expectation " +
                                       expectations[0].name +
                                       " on a streaming table or materialized view that the flow reads");
    }
    return statement;
  }
  if (!AcceptKeyword("AS")) SyntaxError(Peek(), "expected AS followed by the view's query");
  statement->query = ParseAsQuery(statement->query_text);
  return statement;
}

// Stream properties are normalised as ast.hpp says: keys upper-cased, and the
// TABLE_STREAM_MODE value too.
static void AppendStreamProperties(const PropertyList& parsed, PropertyList& out) {
  for (auto& [key, value] : parsed) {
    std::string upper = ToUpperAscii(key);
    out.emplace_back(upper, upper == "TABLE_STREAM_MODE" ? ToUpperAscii(value) : value);
  }
}

std::unique_ptr<SQLStatement> ParserImpl::ParseCreateTableStream(bool or_replace) {
  // ClickZetta: CREATE TABLE STREAM s ON TABLE t [VERSION AS OF n | TIMESTAMP AS OF '..']
  //             [COMMENT '..'] [WITH PROPERTIES ('TABLE_STREAM_MODE' = 'APPEND_ONLY', ...)]
  auto statement = std::make_unique<CreateStreamStatement>();
  statement->or_replace = or_replace;
  statement->if_not_exists = AcceptKeywords({"IF", "NOT", "EXISTS"});
  statement->name = ParseQualifiedName("a stream name");
  ExpectKeyword("ON");
  if (!AcceptKeyword("TABLE") && !AcceptKeyword("VIEW") && !AcceptKeywords({"MATERIALIZED", "VIEW"})) {
    SyntaxError(Peek(), "expected TABLE or VIEW after ON");
  }
  statement->table = ParseQualifiedName("a table name");
  while (true) {
    if (ParseTimeTravel(statement->version_as_of, statement->timestamp_as_of)) continue;
    if (AcceptKeyword("COMMENT")) {
      AcceptOp("=");
      statement->comment = ParseStringLiteral("the comment");
    } else if (AcceptKeywords({"WITH", "PROPERTIES"}) || AcceptKeyword("PROPERTIES") ||
               (IsKeyword("WITH") && IsOp("(", 1) && (Next(), true))) {
      AppendStreamProperties(ParsePropertyList(false), statement->properties);
    } else {
      break;
    }
  }
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseCreateSnowflakeStream(bool or_replace) {
  // Snowflake: CREATE [OR REPLACE] STREAM [IF NOT EXISTS] s ON TABLE|VIEW t
  //   [AT|BEFORE (VERSION => n | TIMESTAMP => '..')] [APPEND_ONLY = TRUE]
  //   [SHOW_INITIAL_ROWS = TRUE] [COMMENT = '..']
  // Normalised into the ClickZetta property names (ast.hpp).
  auto statement = std::make_unique<CreateStreamStatement>();
  statement->or_replace = or_replace;
  statement->if_not_exists = AcceptKeywords({"IF", "NOT", "EXISTS"});
  statement->name = ParseQualifiedName("a stream name");
  ExpectKeyword("ON");
  if (!AcceptKeyword("TABLE") && !AcceptKeyword("VIEW") && !AcceptKeywords({"MATERIALIZED", "VIEW"})) {
    SyntaxError(Peek(), "expected TABLE or VIEW after ON");
  }
  statement->table = ParseQualifiedName("a table name");
  while (true) {
    if (ParseTimeTravel(statement->version_as_of, statement->timestamp_as_of)) continue;
    if (IsKeyword("AT") || IsKeyword("BEFORE")) {
      if (IsKeyword("BEFORE")) ErrorAt(Peek().offset, "not supported yet: BEFORE (use AT)");
      Next();
      ExpectOp("(");
      if (AcceptKeyword("VERSION")) {
        ExpectOp("=>");
        statement->version_as_of = ParseIntegerLiteral("the version");
      } else if (AcceptKeyword("TIMESTAMP")) {
        ExpectOp("=>");
        statement->timestamp_as_of = ParseStringLiteral("the timestamp");
      } else {
        SyntaxError(Peek(), "expected VERSION => n or TIMESTAMP => '...'");
      }
      ExpectOp(")");
    } else if (IsKeyword("APPEND_ONLY") || IsKeyword("SHOW_INITIAL_ROWS") || IsKeyword("INSERT_ONLY")) {
      std::string key = ToUpperAscii(Next().text);
      ExpectOp("=");
      Token value_token = Peek();
      std::string value = ToLowerAscii(ParsePropertyValue());
      if (value != "true" && value != "false") SyntaxError(value_token, key + " must be TRUE or FALSE");
      if (key == "SHOW_INITIAL_ROWS") {
        statement->properties.emplace_back(key, value);
      } else if (value == "true") {
        statement->properties.emplace_back("TABLE_STREAM_MODE", "APPEND_ONLY");
      } else {
        statement->properties.emplace_back("TABLE_STREAM_MODE", "STANDARD");
      }
    } else if (AcceptKeyword("COMMENT")) {
      AcceptOp("=");
      statement->comment = ParseStringLiteral("the comment");
    } else if (AcceptKeywords({"WITH", "PROPERTIES"})) {
      AppendStreamProperties(ParsePropertyList(false), statement->properties);
    } else {
      break;
    }
  }
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseCreateSink(bool or_replace) {
  auto statement = std::make_unique<CreateSinkStatement>();
  statement->or_replace = or_replace;
  statement->if_not_exists = AcceptKeywords({"IF", "NOT", "EXISTS"});
  statement->name = ParseQualifiedName("a sink name");
  ExpectKeyword("FROM");
  statement->source = ParseQualifiedName("the source table, view or stream");
  ExpectKeyword("INTO");
  if (AcceptKeyword("KAFKA")) {
    statement->target = SinkTarget::KAFKA;
  } else if (AcceptKeyword("FILE")) {
    statement->target = SinkTarget::FILE;
    statement->file_path = ParseStringLiteral("the file path");
  } else {
    SyntaxError(Peek(), "expected KAFKA or FILE after INTO");
  }
  if (AcceptKeyword("WITH")) {
    AcceptKeyword("PROPERTIES");
    statement->options = ParsePropertyList(false);
  }
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseDrop() {
  ExpectKeyword("DROP");
  auto statement = std::make_unique<DropStatement>();
  if (IsKeyword("INDEX") || (IsKeyword("BLOOMFILTER") && IsKeyword("INDEX", 1))) {
    ErrorAt(Peek().offset, std::string("not supported yet: DROP INDEX") + kNoIndexes);
  }
  if (AcceptKeywords({"TABLE", "STREAM"})) {
    statement->object_type = ObjectType::STREAM;
  } else if (AcceptKeyword("TABLE")) {
    statement->object_type = ObjectType::TABLE;
  } else if (AcceptKeywords({"MATERIALIZED", "VIEW"}) || AcceptKeywords({"LIVE", "TABLE"})) {
    statement->object_type = ObjectType::MATERIALIZED_VIEW;
  } else if (AcceptKeywords({"STREAMING", "LIVE", "TABLE"}) || AcceptKeywords({"STREAMING", "TABLE"})) {
    statement->object_type = ObjectType::STREAMING_TABLE;
  } else if (AcceptKeyword("VIEW")) {
    statement->object_type = ObjectType::VIEW;
  } else if (AcceptKeyword("STREAM")) {
    statement->object_type = ObjectType::STREAM;
  } else if (AcceptKeyword("SINK")) {
    statement->object_type = ObjectType::SINK;
  } else {
    SyntaxError(Peek(), "expected TABLE, VIEW, MATERIALIZED VIEW, STREAMING TABLE, STREAM or SINK");
  }
  statement->if_exists = AcceptKeywords({"IF", "EXISTS"});
  statement->name = ParseQualifiedName("a name");
  if (AcceptKeyword("CASCADE")) {
    statement->cascade = true;
  } else {
    AcceptKeyword("RESTRICT");  // the default: refused while something reads it
  }
  return statement;
}

std::unique_ptr<SQLStatement> ParserImpl::ParseAlter() {
  ExpectKeyword("ALTER");
  if (AcceptKeyword("SINK")) {
    auto statement = std::make_unique<AlterSinkStatement>();
    statement->name = ParseQualifiedName("a sink name");
    if (!AcceptKeyword("SET")) SyntaxError(Peek(), "expected SET ('option' = 'value', ...) after ALTER SINK name");
    if (!AcceptKeyword("OPTIONS")) AcceptKeyword("PROPERTIES");
    statement->options = ParsePropertyList(false);
    return statement;
  }
  if (!AcceptKeyword("TABLE")) {
    if (IsKeyword("STREAM") || IsKeyword("VIEW") || IsKeyword("MATERIALIZED")) {
      ErrorAt(Peek().offset, "not supported yet: ALTER " + ToUpperAscii(Peek().text));
    }
    SyntaxError(Peek(), "expected TABLE after ALTER");
  }
  auto statement = std::make_unique<AlterTableStatement>();
  statement->table = ParseQualifiedName("a table name");
  if (AcceptKeyword("SET")) {
    if (!AcceptKeyword("TBLPROPERTIES") && !AcceptKeyword("PROPERTIES")) {
      SyntaxError(Peek(), "expected TBLPROPERTIES or PROPERTIES after SET");
    }
    statement->alter_type = AlterType::SET_PROPERTIES;
    statement->properties = ParseTableProperties();
  } else if (AcceptKeyword("UNSET")) {
    if (!AcceptKeyword("TBLPROPERTIES") && !AcceptKeyword("PROPERTIES")) {
      SyntaxError(Peek(), "expected TBLPROPERTIES or PROPERTIES after UNSET");
    }
    statement->alter_type = AlterType::UNSET_PROPERTIES;
    statement->if_exists = AcceptKeywords({"IF", "EXISTS"});
    ExpectOp("(");
    do {
      std::string key;
      if (Peek().type == TokenType::STRING) {
        key = Next().text;
      } else if (IsAnyName(Peek())) {
        key = Next().text;
        while (IsOp(".") && IsAnyName(Peek(1))) {
          Next();
          key += "." + Next().text;
        }
      } else {
        SyntaxError(Peek(), "expected a property name");
      }
      statement->unset_keys.push_back(std::move(key));
    } while (AcceptOp(","));
    ExpectOp(")");
  } else if (AcceptKeyword("ADD")) {
    statement->alter_type = AlterType::ADD_COLUMN;
    if (!AcceptKeyword("COLUMNS")) AcceptKeyword("COLUMN");
    statement->if_exists = false;
    if (AcceptOp("(")) {
      do {
        statement->new_columns.push_back(ParseColumnDefinition(nullptr, false));
      } while (AcceptOp(","));
      ExpectOp(")");
    } else {
      do {
        statement->new_columns.push_back(ParseColumnDefinition(nullptr, false));
      } while (AcceptOp(","));
    }
  } else if (AcceptKeywords({"RENAME", "COLUMN"})) {
    // Spark/Delta: RENAME COLUMN a TO b (metadata only, with column mapping).
    statement->alter_type = AlterType::RENAME_COLUMN;
    statement->column_path.push_back(ParseIdentifier("a column name"));
    while (AcceptOp(".")) statement->column_path.push_back(ParseIdentifier("a field name"));
    if (!AcceptKeyword("TO")) SyntaxError(Peek(), "expected TO <new column name> after RENAME COLUMN name");
    statement->new_column_name = ParseIdentifier("the new column name");
  } else if (AcceptKeyword("DROP")) {
    // Spark/Delta: DROP COLUMN [IF EXISTS] a | DROP COLUMNS [IF EXISTS] (a, b).
    if (!AcceptKeyword("COLUMNS") && !AcceptKeyword("COLUMN")) SyntaxError(Peek(), "expected COLUMN or COLUMNS after DROP");
    statement->alter_type = AlterType::DROP_COLUMN;
    statement->if_exists = AcceptKeywords({"IF", "EXISTS"});
    bool parenthesized = AcceptOp("(");
    do {
      std::vector<std::string> path = {ParseIdentifier("a column name")};
      while (AcceptOp(".")) path.push_back(ParseIdentifier("a field name"));
      statement->drop_columns.push_back(std::move(path));
    } while (AcceptOp(","));
    if (parenthesized) ExpectOp(")");
  } else if (AcceptKeywords({"RENAME", "TO"})) {
    statement->alter_type = AlterType::RENAME_TABLE;
    statement->new_name = ParseQualifiedName("the new table name");
  } else if (IsKeyword("ALTER") || IsKeyword("CHANGE")) {
    // ALTER [COLUMN] c [SET DATA] TYPE t (Delta, Postgres); CHANGE [COLUMN] c [c] [TYPE] t (Spark, Hive).
    bool change = IsKeyword("CHANGE");
    Next();
    AcceptKeyword("COLUMN");
    statement->alter_type = AlterType::ALTER_COLUMN_TYPE;
    statement->column_path.push_back(ParseIdentifier("a column name"));
    while (AcceptOp(".")) statement->column_path.push_back(ParseIdentifier("a field name"));
    if (change) {
      // Hive repeats the name (CHANGE c c BIGINT); a different one would be a rename.
      if (IsAnyName(Peek()) && !IsKeyword("TYPE") && IsAnyName(Peek(1))) {
        const Token& second = Peek();
        if (!StringUtil::CIEquals(second.text, statement->column_path.back())) {
          ErrorAt(second.offset, "not supported yet: renaming a column (CHANGE COLUMN " + statement->column_path.back() +
                                     " " + second.text + ")");
        }
        Next();
      }
      AcceptKeyword("TYPE");
    } else {
      if (AcceptKeyword("SET")) {
        if (!AcceptKeyword("DATA")) {
          ErrorAt(Peek().offset, "not supported yet: ALTER COLUMN ... SET " + ToUpperAscii(Peek().text) +
                                     " (only SET DATA TYPE / TYPE)");
        }
      } else if (IsKeyword("DROP") || IsKeyword("COMMENT") || IsKeyword("FIRST") || IsKeyword("AFTER")) {
        ErrorAt(Peek().offset, "not supported yet: ALTER COLUMN ... " + ToUpperAscii(Peek().text) + " (only TYPE)");
      }
      if (!AcceptKeyword("TYPE")) SyntaxError(Peek(), "expected TYPE <type> after ALTER COLUMN name");
    }
    statement->new_type = ParseType();
  } else {
    SyntaxError(Peek(), "expected SET, UNSET, ADD COLUMN, ALTER COLUMN ... TYPE, RENAME COLUMN, DROP COLUMN or RENAME TO");
  }
  return statement;
}

}  // namespace lakestream
