// The parse tree: what the user wrote, before any name is resolved.
// The parser (parser.hpp) produces it; the binder (planner/) consumes it.
//
// Identifiers keep the spelling the user wrote (quotes removed); every
// comparison of names is case-insensitive and happens in the binder/catalog.
// `location` fields are byte offsets into the SQL text, for error carets.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/types.hpp"
#include "common/value.hpp"
#include "parser/expectations.hpp"

namespace lakestream {

struct QueryNode;
struct TableRef;
struct WindowSpec;

// ---------------------------------------------------------------- expressions

enum class ExpressionType : uint8_t {
  CONSTANT,    // value. Literals: integers are INTEGER, else BIGINT, else DECIMAL(38,0);
               // 1.50 is DECIMAL(3,2); 1e3 is DOUBLE; -<number> is folded into one constant;
               // DATE '...' / TIMESTAMP '...' are CASTs of a VARCHAR constant.
  COLUMN_REF,  // names: ["col"] or ["tbl", "col"] (or longer)
  STAR,        // names: [] for *, ["tbl"] for tbl.*
  FUNCTION,    // function_name(children...); distinct; star_argument for count(*) and struct(*)
               // (any f(*) sets star_argument and has no children; struct(t.*) has a STAR child);
               // EXTRACT(field FROM x) is date_part('field', x) with the field lower-cased;
               // current_timestamp / current_date without parentheses are calls with no arguments;
               // arg_names[i] is the name of a named argument (`format => 'json'`), "" otherwise
  CAST,        // CAST(children[0] AS cast_type), try_cast for TRY_CAST, also expr::type
  CASE,        // children: [when1, then1, when2, then2, ..., else]; has_else says whether the last one is ELSE.
               // The simple form CASE x WHEN v THEN ... is rewritten by the parser to x = v conditions.
  // Comparisons: children[0] op children[1].
  COMPARE_EQ, COMPARE_NE, COMPARE_LT, COMPARE_LE, COMPARE_GT, COMPARE_GE,
  COMPARE_DISTINCT_FROM, COMPARE_NOT_DISTINCT_FROM,
  AND, OR,     // two or more children
  NOT,         // children[0]
  NEGATE,      // unary minus
  ADD, SUBTRACT, MULTIPLY, DIVIDE, MODULO,
  CONCAT,      // ||
  IS_NULL, IS_NOT_NULL,        // children[0]
  IS_TRUE, IS_FALSE, IS_NOT_TRUE, IS_NOT_FALSE,
  IN_LIST, NOT_IN_LIST,        // children[0] IN (children[1..])
  BETWEEN, NOT_BETWEEN,        // children[0] BETWEEN children[1] AND children[2]
  LIKE, NOT_LIKE, ILIKE, NOT_ILIKE,  // children[0] LIKE children[1] [ESCAPE children[2]]
  SUBQUERY_SCALAR,             // (subquery)
  SUBQUERY_IN, SUBQUERY_NOT_IN,        // children[0] IN (subquery)
  SUBQUERY_EXISTS, SUBQUERY_NOT_EXISTS,
  PARAMETER,   // ? or $n: parameter_index (1-based); main/ replaces it with a constant before binding
  SUBSCRIPT,   // children[0][children[1]]: 0-based for arrays, a key for maps, a field name for structs
  FIELD_ACCESS,  // children[0].names[0], after any expression that is not a plain name (f(x).a, (s).a, a[0].b)
  LAMBDA,      // names -> children[0] (x -> x + 1, (acc, x) -> acc + x); only as a function argument
  // ANY|SOME (subquery) / ALL (subquery): only as children[1] of COMPARE_EQ ... COMPARE_GE
  // (x > ALL (SELECT ...) is COMPARE_GT(x, SUBQUERY_ALL)); no children of its own.
  SUBQUERY_ANY, SUBQUERY_ALL,
};

const char* ExpressionTypeToString(ExpressionType type);

struct ParsedExpression {
  explicit ParsedExpression(ExpressionType type_p, uint32_t location_p = 0) : type(type_p), location(location_p) {}

  ExpressionType type;
  uint32_t location;
  std::string alias;  // AS name in a select list

  std::vector<std::unique_ptr<ParsedExpression>> children;
  Value value;                     // CONSTANT
  std::vector<std::string> names;  // COLUMN_REF / STAR qualifier
  // STAR: * EXCLUDE (a, b) (Spark's EXCEPT); `children` hold REPLACE's
  // expressions, each aliased with the column it replaces.
  std::vector<std::string> star_exclude;
  std::string function_name;       // FUNCTION (as written, e.g. "SYSTEM$STREAM_HAS_DATA", "to_json")
  std::vector<std::string> arg_names;  // FUNCTION: per child; "" for positional
  bool distinct = false;           // FUNCTION: count(DISTINCT x)
  bool star_argument = false;      // FUNCTION: count(*)
  LogicalType cast_type;           // CAST
  bool try_cast = false;           // CAST
  bool has_else = false;           // CASE
  uint32_t parameter_index = 0;    // PARAMETER
  // FUNCTION (aggregates): `children` ends with the order keys of
  // agg(x ORDER BY k, ...) or agg(...) WITHIN GROUP (ORDER BY k, ...)
  // (order_count of them; order_flags[i]: kOrderDesc | kOrderNullsFirst,
  // NULLS FIRST defaulting to DESC), then the FILTER (WHERE ...) condition
  // when has_filter. ArgumentCount() is the number of real arguments.
  uint32_t order_count = 0;
  std::vector<uint8_t> order_flags;
  bool within_group = false;
  bool has_filter = false;
  static constexpr uint8_t kOrderDesc = 1;
  static constexpr uint8_t kOrderNullsFirst = 2;
  size_t ArgumentCount() const { return children.size() - order_count - (has_filter ? 1 : 0); }
  std::unique_ptr<QueryNode> subquery;  // SUBQUERY_*
  std::unique_ptr<WindowSpec> window;   // FUNCTION: f(...) OVER (...) / OVER w (docs/sql-windows.md)
  bool ignore_nulls = false;            // FUNCTION: f(x) IGNORE NULLS / f(x IGNORE NULLS)
  // Levels of nesting in this tree, itself included, through subqueries too;
  // the parser keeps it at most kMaxNestingDepth (parser.hpp) so every
  // recursive pass over the tree, its destructor included, has bounded depth.
  uint32_t height = 1;
  // Nodes the binder builds from this tree: BETWEEN binds its operand twice,
  // so a chain of them doubles at each link; the parser bounds this too.
  uint64_t expanded_size = 1;

  // Re-creates SQL text for the expression; used as the default column name
  // (e.g. "sum(amount)", "(a + 1)") and in error messages.
  std::string ToString() const;
  std::unique_ptr<ParsedExpression> Copy() const;
};

using ExprPtr = std::unique_ptr<ParsedExpression>;

// ---------------------------------------------------------------- names

// A possibly qualified object name: orders, LIVE.silver, db.orders.
struct QualifiedName {
  std::vector<std::string> parts;
  uint32_t location = 0;
  const std::string& Name() const { return parts.back(); }
  std::string ToString() const;  // parts joined with '.'
};

// Ordered key/value properties: TBLPROPERTIES, WITH PROPERTIES, sink WITH (...),
// COPY options. Keys are as written (unquoted); values are the text of the
// literal (true/false/numbers as their text).
using PropertyList = std::vector<std::pair<std::string, std::string>>;

// ---------------------------------------------------------------- table refs

enum class TableRefType : uint8_t { BASE_TABLE, SUBQUERY, JOIN, TABLE_FUNCTION };
// SEMI / ANTI: LEFT SEMI JOIN / LEFT ANTI JOIN (Spark), SEMI JOIN / ANTI JOIN (DuckDB).
enum class JoinType : uint8_t { INNER, LEFT, RIGHT, FULL, CROSS, SEMI, ANTI };

struct TableRef {
  explicit TableRef(TableRefType type_p) : type(type_p) {}
  TableRefType type;
  uint32_t location = 0;
  std::string alias;
  std::vector<std::string> column_aliases;  // AS t(a, b)

  // BASE_TABLE
  QualifiedName name;
  bool stream_function = false;  // STREAM(name) / STREAM name in pipelines
  PropertyList stream_options;   // STREAM t WITH (skipChangeCommits = true)
  std::optional<int64_t> version_as_of;
  std::optional<std::string> timestamp_as_of;

  // SUBQUERY
  std::unique_ptr<QueryNode> subquery;

  // JOIN
  std::unique_ptr<TableRef> left;
  std::unique_ptr<TableRef> right;
  JoinType join_type = JoinType::INNER;
  ExprPtr condition;                       // ON
  std::vector<std::string> using_columns;  // USING (a, b)
  bool natural = false;                    // NATURAL JOIN: USING every column both sides name

  // SUBQUERY: LATERAL (SELECT ...), which may read the columns of the FROM items before it.
  bool lateral = false;

  // TABLE_FUNCTION: a FUNCTION expression (table_changes(...), read_parquet(...), read_files(...))
  ExprPtr function;

  uint32_t height = 1;  // as ParsedExpression::height

  std::unique_ptr<TableRef> Copy() const;
};

// ---------------------------------------------------------------- queries

enum class QueryNodeType : uint8_t { SELECT_NODE, SET_OPERATION_NODE, VALUES_NODE };
// EXCEPT/INTERSECT are the DISTINCT forms; *_ALL keep duplicates (bag semantics).
enum class SetOperationType : uint8_t { UNION_ALL, UNION, EXCEPT, INTERSECT, EXCEPT_ALL, INTERSECT_ALL };

struct OrderByItem {
  ExprPtr expression;
  bool descending = false;
  std::optional<bool> nulls_first;  // unset: NULLS LAST for ASC, NULLS FIRST for DESC (as Spark/Postgres)
};

// A window frame bound: UNBOUNDED PRECEDING, <offset> PRECEDING, CURRENT ROW,
// <offset> FOLLOWING, UNBOUNDED FOLLOWING.
enum class WindowBoundary : uint8_t { UNBOUNDED_PRECEDING, OFFSET_PRECEDING, CURRENT_ROW, OFFSET_FOLLOWING, UNBOUNDED_FOLLOWING };

struct WindowFrameBound {
  WindowBoundary boundary = WindowBoundary::UNBOUNDED_PRECEDING;
  ExprPtr offset;  // OFFSET_PRECEDING / OFFSET_FOLLOWING
};

// OVER (...) or a WINDOW clause entry. `base_name` refers to a named window
// (OVER w, OVER (w ORDER BY ...)); the binder merges the two. Without a
// frame (has_frame false) the default applies: RANGE UNBOUNDED PRECEDING to
// CURRENT ROW with ORDER BY, the whole partition without.
struct WindowSpec {
  uint32_t location = 0;
  std::string base_name;
  std::vector<ExprPtr> partitions;
  std::vector<OrderByItem> orders;
  bool has_frame = false;
  bool range = false;  // RANGE (true) or ROWS (false)
  WindowFrameBound start;
  WindowFrameBound end;
  uint32_t height = 1;  // as ParsedExpression::height

  std::unique_ptr<WindowSpec> Copy() const;
  std::string ToString() const;  // "(PARTITION BY ... ORDER BY ... ROWS ...)" or "w"
};

struct CommonTableExpression {
  std::string name;
  std::vector<std::string> column_aliases;
  std::unique_ptr<QueryNode> query;
  // WITH RECURSIVE: the CTE may read itself (planner/bind_recursive_cte.cpp).
  bool recursive = false;
};

struct QueryNode {
  explicit QueryNode(QueryNodeType type_p) : type(type_p) {}
  QueryNodeType type;
  uint32_t location = 0;

  std::vector<CommonTableExpression> ctes;  // WITH ...

  // SELECT_NODE
  std::vector<ExprPtr> select_list;
  bool distinct = false;
  std::unique_ptr<TableRef> from;  // null when there is no FROM
  ExprPtr where;
  std::vector<ExprPtr> group_by;
  bool group_by_all = false;  // GROUP BY ALL
  // GROUPING SETS/ROLLUP/CUBE/WITH ROLLUP/WITH CUBE, expanded: each set
  // lists positions in group_by (which then holds each distinct expression
  // once). Empty for a plain GROUP BY.
  std::vector<std::vector<uint32_t>> grouping_sets;
  ExprPtr having;
  ExprPtr qualify;  // QUALIFY: filters on window function results
  std::vector<std::pair<std::string, std::unique_ptr<WindowSpec>>> windows;  // WINDOW w AS (...), in order

  // SET_OPERATION_NODE
  SetOperationType set_op = SetOperationType::UNION_ALL;
  std::unique_ptr<QueryNode> left;
  std::unique_ptr<QueryNode> right;

  // VALUES_NODE: rows of expressions
  std::vector<std::vector<ExprPtr>> values;

  // Any node
  std::vector<OrderByItem> order_by;
  ExprPtr limit;
  ExprPtr offset;

  uint32_t height = 1;  // as ParsedExpression::height

  std::unique_ptr<QueryNode> Copy() const;
};

// ---------------------------------------------------------------- statements

enum class StatementType : uint8_t {
  SELECT,
  EXPLAIN,
  CREATE_TABLE,
  CREATE_VIEW,  // materialized view, live table, streaming table, plain view
  CREATE_STREAM,
  CREATE_SINK,
  DROP,
  INSERT,
  UPDATE,
  DELETE,
  MERGE,
  ALTER_TABLE,
  SHOW,
  DESCRIBE,
  COPY,
  REFRESH,
  RUN_SINK,
  ALTER_SINK,
  OPTIMIZE,
  VACUUM,
  SET,
  TRANSACTION,
  CREATE_FLOW,  // CREATE FLOW f AS INSERT INTO t BY NAME SELECT ... (an append flow)
  APPLY_CHANGES,  // APPLY CHANGES INTO / CREATE FLOW ... AS AUTO CDC INTO (parse_apply_changes.cpp)
  SECRET,  // CREATE / DROP SECRET, SHOW SECRETS (parser/secret_statement.hpp)
  SCHEMA,  // CREATE SCHEMA, DROP SCHEMA, USE (parse_schema.cpp)
};

struct SQLStatement {
  explicit SQLStatement(StatementType type_p) : type(type_p) {}
  virtual ~SQLStatement() = default;
  StatementType type;
  uint32_t location = 0;  // byte offset of the statement in the input
  std::string text;       // the statement's own SQL text (without the trailing ';')
  // Parameters (? or $n) the statement expects: the highest $n, or the
  // number of ?s. The values are substituted before binding.
  uint32_t parameter_count = 0;
  // $name parameters: the name (lower case, without '$') of parameter i + 1;
  // empty for ? and $n.
  std::vector<std::string> parameter_names;
};

struct SelectStatement : SQLStatement {
  SelectStatement() : SQLStatement(StatementType::SELECT) {}
  std::unique_ptr<QueryNode> node;
};

struct ExplainStatement : SQLStatement {
  ExplainStatement() : SQLStatement(StatementType::EXPLAIN) {}
  std::unique_ptr<SQLStatement> statement;
  bool analyze = false;  // EXPLAIN ANALYZE: run the query, report rows and time per operator
};

struct ColumnDefinition {
  std::string name;
  LogicalType type;
  bool not_null = false;
  ExprPtr default_value;
  std::string comment;
  uint32_t location = 0;
};

struct CreateTableStatement : SQLStatement {
  CreateTableStatement() : SQLStatement(StatementType::CREATE_TABLE) {}
  QualifiedName name;
  bool or_replace = false;
  bool if_not_exists = false;
  std::vector<ColumnDefinition> columns;    // empty for CTAS without a column list
  std::vector<std::string> primary_key;     // PRIMARY KEY (a, b) or a column's PRIMARY KEY
  std::vector<std::string> partitioned_by;  // PARTITIONED BY (a, b)
  PropertyList properties;                  // TBLPROPERTIES (...) / WITH PROPERTIES (...)
  std::optional<std::string> location_path;  // LOCATION '...'
  std::string using_format;                 // USING DELTA (accepted, only delta)
  std::string comment;                      // COMMENT '...'
  std::unique_ptr<QueryNode> as_query;      // CREATE TABLE ... AS SELECT
  std::string as_query_text;
};

enum class ViewKind : uint8_t { VIEW, MATERIALIZED_VIEW, LIVE_TABLE, STREAMING_TABLE };

struct CreateViewStatement : SQLStatement {
  CreateViewStatement() : SQLStatement(StatementType::CREATE_VIEW) {}
  ViewKind kind = ViewKind::MATERIALIZED_VIEW;
  QualifiedName name;
  bool or_replace = false;
  bool or_refresh = false;  // CREATE OR REFRESH ...
  bool if_not_exists = false;
  std::vector<ColumnDefinition> columns;  // optional declared schema (streaming tables)
  std::vector<std::string> primary_key;   // streaming tables: PRIMARY KEY (a, b) or a INT PRIMARY KEY
  std::vector<std::string> partitioned_by;
  // CONSTRAINT name EXPECT (cond) [ON VIOLATION ...], in declaration order.
  std::vector<ExpectationDefinition> expectations;
  PropertyList properties;  // TBLPROPERTIES
  std::string comment;
  std::unique_ptr<QueryNode> query;
  std::string query_text;  // the SQL after AS, stored in the catalog and re-parsed on open
  bool temporary = false;  // CREATE TEMP[ORARY] VIEW: lives as long as the connection
  // Databricks pipeline forms: CREATE [TEMPORARY] LIVE VIEW (a view the
  // pipeline's other flows read, not published as a table).
  bool live_view = false;
  // Set by CREATE FLOW: the flow whose query this is. Its ingestion state
  // (txn app ids) is kept apart from the target's other flows.
  std::string flow_name;
};

// CREATE FLOW name [COMMENT '...'] AS INSERT INTO target BY NAME <query>:
// one of possibly several append flows into a streaming table.
struct CreateFlowStatement : SQLStatement {
  CreateFlowStatement() : SQLStatement(StatementType::CREATE_FLOW) {}
  std::string name;
  std::string comment;
  QualifiedName target;
  std::unique_ptr<QueryNode> query;
  std::string query_text;
};

struct CreateStreamStatement : SQLStatement {
  CreateStreamStatement() : SQLStatement(StatementType::CREATE_STREAM) {}
  QualifiedName name;
  bool or_replace = false;
  bool if_not_exists = false;
  QualifiedName table;  // ON TABLE t / ON VIEW v
  std::optional<int64_t> version_as_of;
  std::optional<std::string> timestamp_as_of;
  // Normalised: keys upper-cased; APPEND_ONLY = TRUE becomes TABLE_STREAM_MODE = APPEND_ONLY,
  // SHOW_INITIAL_ROWS = TRUE stays SHOW_INITIAL_ROWS = true.
  PropertyList properties;
  std::string comment;
};

enum class SinkTarget : uint8_t { KAFKA, FILE };

struct CreateSinkStatement : SQLStatement {
  CreateSinkStatement() : SQLStatement(StatementType::CREATE_SINK) {}
  QualifiedName name;
  bool or_replace = false;
  bool if_not_exists = false;
  QualifiedName source;
  SinkTarget target = SinkTarget::KAFKA;
  std::string file_path;  // INTO FILE 'path'
  PropertyList options;   // WITH (...)
};

enum class ObjectType : uint8_t { TABLE, VIEW, MATERIALIZED_VIEW, STREAMING_TABLE, STREAM, SINK };
// Lower-case, for messages: "table", "materialized view", "stream", ...
const char* ObjectTypeToString(ObjectType type);

struct DropStatement : SQLStatement {
  DropStatement() : SQLStatement(StatementType::DROP) {}
  ObjectType object_type = ObjectType::TABLE;
  QualifiedName name;
  bool if_exists = false;
  bool cascade = false;  // DROP ... CASCADE: the streams, sinks and materialized views reading it go too
};

struct InsertStatement : SQLStatement {
  InsertStatement() : SQLStatement(StatementType::INSERT) {}
  QualifiedName table;
  bool overwrite = false;            // INSERT OVERWRITE
  std::vector<std::string> columns;  // optional column list
  bool by_name = false;              // INSERT INTO t BY NAME <query>: columns matched by name
  std::unique_ptr<QueryNode> query;  // VALUES_NODE or a query
};

struct SetClause {
  std::vector<std::string> column;  // t.a or a
  ExprPtr value;
};

struct UpdateStatement : SQLStatement {
  UpdateStatement() : SQLStatement(StatementType::UPDATE) {}
  QualifiedName table;
  std::string alias;
  std::vector<SetClause> set;
  std::unique_ptr<TableRef> from;  // UPDATE ... FROM other: the joined source, or null
  ExprPtr where;
};

struct DeleteStatement : SQLStatement {
  DeleteStatement() : SQLStatement(StatementType::DELETE) {}
  QualifiedName table;
  std::string alias;
  std::unique_ptr<TableRef> using_source;  // DELETE ... USING other: the joined source, or null
  ExprPtr where;
  bool truncate = false;  // TRUNCATE [TABLE] t: every row, committed as operation TRUNCATE
};

enum class MergeMatch : uint8_t { MATCHED, NOT_MATCHED, NOT_MATCHED_BY_SOURCE };
enum class MergeAction : uint8_t { UPDATE, UPDATE_STAR, DELETE, INSERT, INSERT_STAR };

struct MergeClause {
  MergeMatch match = MergeMatch::MATCHED;
  ExprPtr condition;  // WHEN MATCHED AND <condition>
  MergeAction action = MergeAction::UPDATE;
  std::vector<SetClause> set;             // UPDATE SET
  std::vector<std::string> insert_columns;  // INSERT (cols)
  std::vector<ExprPtr> insert_values;     // VALUES (...)
};

struct MergeStatement : SQLStatement {
  MergeStatement() : SQLStatement(StatementType::MERGE) {}
  QualifiedName target;
  std::string target_alias;
  std::unique_ptr<TableRef> source;  // a table, a stream or a (subquery) with its alias
  ExprPtr condition;                 // ON
  std::vector<MergeClause> clauses;  // in the order written
};

enum class AlterType : uint8_t {
  SET_PROPERTIES,
  UNSET_PROPERTIES,
  ADD_COLUMN,
  RENAME_TABLE,
  ALTER_COLUMN_TYPE,
  RENAME_COLUMN,  // column_path -> new_column_name
  DROP_COLUMN     // drop_columns (if_exists: DROP COLUMN IF EXISTS)
};

struct AlterTableStatement : SQLStatement {
  AlterTableStatement() : SQLStatement(StatementType::ALTER_TABLE) {}
  QualifiedName table;
  AlterType alter_type = AlterType::SET_PROPERTIES;
  PropertyList properties;              // SET TBLPROPERTIES / SET PROPERTIES
  std::vector<std::string> unset_keys;  // UNSET TBLPROPERTIES [IF EXISTS] (...)
  bool if_exists = false;
  std::vector<ColumnDefinition> new_columns;  // ADD COLUMN(S)
  QualifiedName new_name;                     // RENAME TO
  std::vector<std::string> column_path;       // ALTER COLUMN a.b TYPE: {"a", "b"}
  LogicalType new_type;                       // ALTER COLUMN ... TYPE
  std::string new_column_name;                // RENAME COLUMN ... TO
  std::vector<std::vector<std::string>> drop_columns;  // DROP COLUMN(S): each a path, {"a", "b"} for a.b
};

enum class ShowType : uint8_t { TABLES, STREAMS, SINKS, MATERIALIZED_VIEWS, VIEWS, TBLPROPERTIES, COLUMNS, SCHEMAS };

struct ShowStatement : SQLStatement {
  ShowStatement() : SQLStatement(StatementType::SHOW) {}
  ShowType show_type = ShowType::TABLES;
  QualifiedName name;    // SHOW TBLPROPERTIES t / SHOW COLUMNS FROM t
  QualifiedName schema;  // SHOW TABLES IN s (and the other object lists); empty: the current schema
};

enum class SchemaAction : uint8_t { CREATE, DROP, USE };

// CREATE SCHEMA [IF NOT EXISTS] s, DROP SCHEMA [IF EXISTS] s [CASCADE | RESTRICT],
// USE [SCHEMA] [catalog.]s (DATABASE is accepted for SCHEMA, as in Spark).
struct SchemaStatement : SQLStatement {
  SchemaStatement() : SQLStatement(StatementType::SCHEMA) {}
  SchemaAction action = SchemaAction::CREATE;
  QualifiedName name;
  bool if_not_exists = false;
  bool if_exists = false;
  bool cascade = false;
};

enum class DescribeType : uint8_t { TABLE, QUERY, HISTORY, DETAIL, STREAM, MATERIALIZED_VIEW, SINK };

struct DescribeStatement : SQLStatement {
  DescribeStatement() : SQLStatement(StatementType::DESCRIBE) {}
  DescribeType describe_type = DescribeType::TABLE;
  QualifiedName name;
  std::unique_ptr<QueryNode> query;  // DESCRIBE SELECT ...
  std::optional<int64_t> limit;      // DESCRIBE HISTORY t LIMIT n
};

struct CopyStatement : SQLStatement {
  CopyStatement() : SQLStatement(StatementType::COPY) {}
  std::unique_ptr<QueryNode> query;  // COPY (query) TO / COPY t TO (as SELECT * FROM t)
  QualifiedName table;               // COPY t FROM 'file' (load)
  bool is_from = false;
  std::string path;
  PropertyList options;  // (FORMAT parquet, COMPRESSION zstd, HEADER true)
};

struct RefreshStatement : SQLStatement {
  RefreshStatement() : SQLStatement(StatementType::REFRESH) {}
  QualifiedName name;
  bool full = false;
};

struct RunSinkStatement : SQLStatement {
  RunSinkStatement() : SQLStatement(StatementType::RUN_SINK) {}
  QualifiedName name;
};

// ALTER SINK name SET [OPTIONS | PROPERTIES] ('key' = 'value', ...)
struct AlterSinkStatement : SQLStatement {
  AlterSinkStatement() : SQLStatement(StatementType::ALTER_SINK) {}
  QualifiedName name;
  PropertyList options;  // merged into the sink's WITH (...) options, key by key
};

struct OptimizeStatement : SQLStatement {
  OptimizeStatement() : SQLStatement(StatementType::OPTIMIZE) {}
  QualifiedName table;
};

struct VacuumStatement : SQLStatement {
  VacuumStatement() : SQLStatement(StatementType::VACUUM) {}
  QualifiedName table;
  std::optional<double> retain_hours;
  bool dry_run = false;
};

struct SetStatement : SQLStatement {
  SetStatement() : SQLStatement(StatementType::SET) {}
  std::string name;
  std::string value;
  // SET allowed_directories = ['/a', '/b']: the list's strings (value is "").
  bool is_list = false;
  std::vector<std::string> list;
  // RESET name: back to the setting's default (value is "").
  bool reset = false;
};

enum class TransactionType : uint8_t { BEGIN, COMMIT, ROLLBACK };

struct TransactionStatement : SQLStatement {
  TransactionStatement() : SQLStatement(StatementType::TRANSACTION) {}
  TransactionType transaction_type = TransactionType::BEGIN;
};

// APPLY CHANGES INTO target FROM STREAM(source) KEYS (...) ... and its newer
// spelling CREATE FLOW name AS AUTO CDC INTO target FROM ... (docs/apply-changes.md).
// Expressions are kept as SQL text: the executor evaluates them in one query
// over the source's new rows.
struct ApplyChangesStatement : SQLStatement {
  ApplyChangesStatement() : SQLStatement(StatementType::APPLY_CHANGES) {}
  std::string flow_name;      // CREATE FLOW name; "" for APPLY CHANGES
  QualifiedName target;       // LIVE. prefix removed
  std::string source_text;    // the source's name as written (LIVE.x, db.x)
  QualifiedName source;       // LIVE. prefix removed
  std::vector<std::string> keys;
  bool ignore_null_updates = false;
  std::string delete_when;    // APPLY AS DELETE WHEN <sql>, "" when absent
  std::string truncate_when;  // APPLY AS TRUNCATE WHEN <sql>, "" when absent
  std::string sequence_by;    // SEQUENCE BY <sql>
  std::vector<std::string> columns;  // COLUMNS (a, b) / COLUMNS * EXCEPT (a, b)
  bool columns_except = false;
  int scd_type = 1;           // STORED AS SCD TYPE 1 | 2
  std::vector<std::string> track_history;  // TRACK HISTORY ON (a) / * EXCEPT (a)
  bool track_history_except = false;
  bool has_track_history = false;
};

}  // namespace lakestream
