// Parser tests: every statement form fills the AST fields the binder reads,
// expression precedence, literal types, error messages with positions, and
// IsComplete for the shell.
#include <gtest/gtest.h>

#include "common/exception.hpp"
#include "parser/parser.hpp"

using namespace lakestream;

namespace {

std::unique_ptr<SQLStatement> ParseOne(const std::string& sql) {
  auto statements = Parser::Parse(sql);
  EXPECT_EQ(statements.size(), 1u) << sql;
  return std::move(statements.at(0));
}

template <class T>
std::unique_ptr<T> ParseAs(const std::string& sql, StatementType type) {
  auto statement = ParseOne(sql);
  EXPECT_EQ(statement->type, type) << sql;
  return std::unique_ptr<T>(static_cast<T*>(statement.release()));
}

std::unique_ptr<QueryNode> Select(const std::string& sql) {
  return std::move(ParseAs<SelectStatement>(sql, StatementType::SELECT)->node);
}

std::string Expr(const std::string& sql) { return Parser::ParseExpression(sql)->ToString(); }

// The raw message of the ParserError `sql` throws, or "" when it parses.
std::string ParseError(const std::string& sql) {
  try {
    Parser::Parse(sql);
  } catch (const ParserError& e) {
    return e.RawMessage();
  } catch (const Exception& e) {
    return std::string("other exception: ") + e.what();
  }
  return "";
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

// ------------------------------------------------------------------ literals

TEST(ParserLiterals, IntegerTypes) {
  auto e = Parser::ParseExpression("42");
  ASSERT_EQ(e->type, ExpressionType::CONSTANT);
  EXPECT_EQ(e->value.type().id(), TypeId::INTEGER);
  EXPECT_EQ(e->value.GetInteger(), 42);
  EXPECT_EQ(Parser::ParseExpression("2147483647")->value.type().id(), TypeId::INTEGER);
  EXPECT_EQ(Parser::ParseExpression("2147483648")->value.type().id(), TypeId::BIGINT);
  EXPECT_EQ(Parser::ParseExpression("9223372036854775807")->value.GetBigint(), INT64_MAX);
  auto big = Parser::ParseExpression("9223372036854775808");
  EXPECT_EQ(big->value.type(), LogicalType::Decimal(38, 0));
  auto neg = Parser::ParseExpression("-2147483648");
  EXPECT_EQ(neg->type, ExpressionType::CONSTANT);
  EXPECT_EQ(neg->value.type().id(), TypeId::INTEGER);
  EXPECT_EQ(neg->value.GetInteger(), INT32_MIN);
  EXPECT_EQ(Parser::ParseExpression("-9223372036854775808")->value.GetBigint(), INT64_MIN);
}

TEST(ParserLiterals, DecimalAndDouble) {
  auto d = Parser::ParseExpression("1.50");
  EXPECT_EQ(d->value.type(), LogicalType::Decimal(3, 2));
  EXPECT_EQ(static_cast<int64_t>(d->value.GetHugeint()), 150);
  EXPECT_EQ(Parser::ParseExpression("0.5")->value.type(), LogicalType::Decimal(1, 1));
  EXPECT_EQ(Parser::ParseExpression(".25")->value.type(), LogicalType::Decimal(2, 2));
  EXPECT_EQ(Parser::ParseExpression("1000.00")->value.type(), LogicalType::Decimal(6, 2));
  auto neg = Parser::ParseExpression("-1.5");
  EXPECT_EQ(static_cast<int64_t>(neg->value.GetHugeint()), -15);
  auto e3 = Parser::ParseExpression("1e3");
  EXPECT_EQ(e3->value.type().id(), TypeId::DOUBLE);
  EXPECT_DOUBLE_EQ(e3->value.GetDouble(), 1000.0);
  EXPECT_DOUBLE_EQ(Parser::ParseExpression("1.5e-2")->value.GetDouble(), 0.015);
}

TEST(ParserLiterals, StringsBooleansNull) {
  auto s = Parser::ParseExpression("'it''s'");
  EXPECT_EQ(s->value.type().id(), TypeId::VARCHAR);
  EXPECT_EQ(s->value.GetString(), "it's");
  EXPECT_EQ(Parser::ParseExpression("TRUE")->value.type().id(), TypeId::BOOLEAN);
  EXPECT_FALSE(Parser::ParseExpression("false")->value.GetBoolean());
  auto n = Parser::ParseExpression("NULL");
  EXPECT_TRUE(n->value.IsNull());
  EXPECT_EQ(n->value.type().id(), TypeId::SQLNULL);
  auto date = Parser::ParseExpression("DATE '2024-01-01'");
  EXPECT_EQ(date->type, ExpressionType::CAST);
  EXPECT_EQ(date->cast_type.id(), TypeId::DATE);
}

// ------------------------------------------------------------------ expressions

TEST(ParserExpressions, Precedence) {
  EXPECT_EQ(Expr("1 + 2 * 3"), "(1 + (2 * 3))");
  EXPECT_EQ(Expr("(1 + 2) * 3"), "((1 + 2) * 3)");
  EXPECT_EQ(Expr("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(Expr("a OR b AND c"), "(a OR (b AND c))");
  EXPECT_EQ(Expr("NOT a = b"), "(NOT (a = b))");
  EXPECT_EQ(Expr("a = 1 AND b = 2 AND c = 3"), "((a = 1) AND (b = 2) AND (c = 3))");
  EXPECT_EQ(Expr("a || b + 1"), "(a || (b + 1))");
  EXPECT_EQ(Expr("a || b = 'x'"), "((a || b) = 'x')");
  EXPECT_EQ(Expr("-a * b"), "(-a * b)");
  EXPECT_EQ(Expr("-x::int"), "-CAST(x AS INTEGER)");
  EXPECT_EQ(Expr("a % 2 <> 0"), "((a % 2) <> 0)");
  EXPECT_EQ(Expr("a != b"), "(a <> b)");
  EXPECT_EQ(Expr("a == b"), "(a = b)");
  auto flat = Parser::ParseExpression("a OR b OR c");
  EXPECT_EQ(flat->type, ExpressionType::OR);
  EXPECT_EQ(flat->children.size(), 3u);
}

TEST(ParserExpressions, Predicates) {
  EXPECT_EQ(Parser::ParseExpression("a IS NULL")->type, ExpressionType::IS_NULL);
  EXPECT_EQ(Parser::ParseExpression("a IS NOT NULL")->type, ExpressionType::IS_NOT_NULL);
  EXPECT_EQ(Parser::ParseExpression("a IS TRUE")->type, ExpressionType::IS_TRUE);
  EXPECT_EQ(Parser::ParseExpression("a IS NOT FALSE")->type, ExpressionType::IS_NOT_FALSE);
  EXPECT_EQ(Parser::ParseExpression("a IS DISTINCT FROM b")->type, ExpressionType::COMPARE_DISTINCT_FROM);
  EXPECT_EQ(Parser::ParseExpression("a IS NOT DISTINCT FROM b")->type, ExpressionType::COMPARE_NOT_DISTINCT_FROM);
  auto in = Parser::ParseExpression("`__change_type` IN ('INSERT', 'UPDATE_AFTER')");
  EXPECT_EQ(in->type, ExpressionType::IN_LIST);
  ASSERT_EQ(in->children.size(), 3u);
  EXPECT_EQ(in->children[0]->names, std::vector<std::string>{"__change_type"});
  EXPECT_EQ(Parser::ParseExpression("a NOT IN (1)")->type, ExpressionType::NOT_IN_LIST);
  auto sub = Parser::ParseExpression("a IN (SELECT id FROM t)");
  EXPECT_EQ(sub->type, ExpressionType::SUBQUERY_IN);
  ASSERT_TRUE(sub->subquery);
  EXPECT_EQ(Parser::ParseExpression("a NOT IN (SELECT id FROM t)")->type, ExpressionType::SUBQUERY_NOT_IN);
  EXPECT_EQ(Parser::ParseExpression("EXISTS (SELECT 1)")->type, ExpressionType::SUBQUERY_EXISTS);
  EXPECT_EQ(Parser::ParseExpression("NOT EXISTS (SELECT 1)")->type, ExpressionType::SUBQUERY_NOT_EXISTS);
  EXPECT_EQ(Parser::ParseExpression("(SELECT max(x) FROM t)")->type, ExpressionType::SUBQUERY_SCALAR);
  EXPECT_EQ(Expr("a BETWEEN 1 AND 2 AND b"), "((a BETWEEN 1 AND 2) AND b)");
  EXPECT_EQ(Parser::ParseExpression("a NOT BETWEEN 1 AND 2")->type, ExpressionType::NOT_BETWEEN);
  EXPECT_EQ(Expr("name LIKE 'A%' ESCAPE '!'"), "(name LIKE 'A%' ESCAPE '!')");
  EXPECT_EQ(Parser::ParseExpression("a NOT LIKE 'x'")->type, ExpressionType::NOT_LIKE);
  EXPECT_EQ(Parser::ParseExpression("a ILIKE 'x'")->type, ExpressionType::ILIKE);
  EXPECT_EQ(Parser::ParseExpression("a NOT ILIKE 'x'")->type, ExpressionType::NOT_ILIKE);
}

TEST(ParserExpressions, CaseCastFunctions) {
  auto c = Parser::ParseExpression("CASE x WHEN 1 THEN 'a' WHEN 2 THEN 'b' ELSE 'c' END");
  EXPECT_EQ(c->type, ExpressionType::CASE);
  EXPECT_TRUE(c->has_else);
  ASSERT_EQ(c->children.size(), 5u);
  EXPECT_EQ(c->children[0]->type, ExpressionType::COMPARE_EQ);
  EXPECT_EQ(c->ToString(), "CASE WHEN (x = 1) THEN 'a' WHEN (x = 2) THEN 'b' ELSE 'c' END");
  auto searched = Parser::ParseExpression("CASE WHEN a > 0 THEN 1 END");
  EXPECT_FALSE(searched->has_else);
  EXPECT_EQ(searched->children.size(), 2u);

  auto cast = Parser::ParseExpression("CAST(x AS DECIMAL(10,2))");
  EXPECT_EQ(cast->cast_type, LogicalType::Decimal(10, 2));
  EXPECT_FALSE(cast->try_cast);
  EXPECT_TRUE(Parser::ParseExpression("TRY_CAST(x AS INT)")->try_cast);
  EXPECT_EQ(Parser::ParseExpression("x::bigint")->cast_type.id(), TypeId::BIGINT);

  auto count = Parser::ParseExpression("count(*)");
  EXPECT_EQ(count->type, ExpressionType::FUNCTION);
  EXPECT_TRUE(count->star_argument);
  EXPECT_TRUE(count->children.empty());
  EXPECT_EQ(count->ToString(), "count(*)");
  auto distinct = Parser::ParseExpression("COUNT(DISTINCT a)");
  EXPECT_TRUE(distinct->distinct);
  EXPECT_EQ(distinct->function_name, "COUNT");
  EXPECT_EQ(Expr("sum(amount)"), "sum(amount)");
  EXPECT_TRUE(Parser::ParseExpression("struct(*)")->star_argument);
  auto tj = Parser::ParseExpression("to_json(struct(a, b))");
  ASSERT_EQ(tj->children.size(), 1u);
  EXPECT_EQ(tj->children[0]->function_name, "struct");
  EXPECT_EQ(Parser::ParseExpression("named_struct('a', x, 'b', y)")->children.size(), 4u);

  auto ex = Parser::ParseExpression("EXTRACT(YEAR FROM d)");
  EXPECT_EQ(ex->function_name, "date_part");
  ASSERT_EQ(ex->children.size(), 2u);
  EXPECT_EQ(ex->children[0]->value.GetString(), "year");
  EXPECT_EQ(ex->children[1]->type, ExpressionType::COLUMN_REF);

  auto ct = Parser::ParseExpression("current_timestamp");
  EXPECT_EQ(ct->type, ExpressionType::FUNCTION);
  EXPECT_EQ(ct->function_name, "current_timestamp");
  EXPECT_EQ(Parser::ParseExpression("current_timestamp()")->type, ExpressionType::FUNCTION);
  EXPECT_EQ(Parser::ParseExpression("current_date")->function_name, "current_date");
  EXPECT_EQ(Parser::ParseExpression("SYSTEM$STREAM_HAS_DATA('s')")->function_name, "SYSTEM$STREAM_HAS_DATA");
  EXPECT_EQ(Parser::ParseExpression("left(s, 2)")->function_name, "left");

  auto named = Parser::ParseExpression("read_files('dir', format => 'json', header => true)");
  ASSERT_EQ(named->arg_names.size(), 3u);
  EXPECT_EQ(named->arg_names[0], "");
  EXPECT_EQ(named->arg_names[1], "format");
  EXPECT_EQ(named->arg_names[2], "header");
  EXPECT_EQ(named->ToString(), "read_files('dir', format => 'json', header => true)");
}

TEST(ParserExpressions, NamesAndStars) {
  auto col = Parser::ParseExpression("t.\"Mixed Case\"");
  EXPECT_EQ(col->names, (std::vector<std::string>{"t", "Mixed Case"}));
  auto bt = Parser::ParseExpression("`a``b`");
  EXPECT_EQ(bt->names, std::vector<std::string>{"a`b"});
  auto keep = Parser::ParseExpression("MyCol");
  EXPECT_EQ(keep->names, std::vector<std::string>{"MyCol"});
  auto star = Select("SELECT t.*, * FROM t")->select_list[0]->Copy();
  EXPECT_EQ(star->type, ExpressionType::STAR);
  EXPECT_EQ(star->names, std::vector<std::string>{"t"});
  EXPECT_EQ(star->ToString(), "t.*");
}

TEST(ParserExpressions, Types) {
  auto type_of = [](const std::string& t) { return Parser::ParseExpression("CAST(x AS " + t + ")")->cast_type; };
  EXPECT_EQ(type_of("DECIMAL"), LogicalType::Decimal(10, 0));
  EXPECT_EQ(type_of("NUMERIC(5)"), LogicalType::Decimal(5, 0));
  EXPECT_EQ(type_of("STRING").id(), TypeId::VARCHAR);
  EXPECT_EQ(type_of("VARCHAR(20)").id(), TypeId::VARCHAR);
  EXPECT_EQ(type_of("ARRAY<int>"), LogicalType::List(TypeId::INTEGER));
  EXPECT_EQ(type_of("INT[]"), LogicalType::List(TypeId::INTEGER));
  EXPECT_EQ(type_of("MAP<string,int>"), LogicalType::Map(TypeId::VARCHAR, TypeId::INTEGER));
  EXPECT_EQ(type_of("STRUCT<a: int, b: string>"),
            LogicalType::Struct({{"a", TypeId::INTEGER}, {"b", TypeId::VARCHAR}}));
  EXPECT_EQ(type_of("ARRAY<ARRAY<bigint>>"), LogicalType::List(LogicalType::List(TypeId::BIGINT)));
  EXPECT_EQ(type_of("timestamp").id(), TypeId::TIMESTAMP);
  auto msg = ParseError("SELECT CAST(x AS blob) FROM t");
  EXPECT_TRUE(Contains(msg, "type \"blob\" does not exist")) << msg;
  EXPECT_TRUE(Contains(ParseError("SELECT CAST(x AS DECIMAL(40,2))"), "precision"));
}

TEST(ParserExpressions, CopyIsDeep) {
  auto e = Parser::ParseExpression("a IN (SELECT b FROM t WHERE c > 1) AND f(x, y => 2)");
  auto copy = e->Copy();
  EXPECT_EQ(copy->ToString(), e->ToString());
  ASSERT_TRUE(copy->children[0]->subquery);
  EXPECT_NE(copy->children[0]->subquery.get(), e->children[0]->subquery.get());
  EXPECT_EQ(copy->children[1]->arg_names[1], "y");
}

// ------------------------------------------------------------------ queries

TEST(ParserQueries, SelectClauses) {
  auto q = Select(
      "SELECT DISTINCT category, SUM(amount) AS total_amount, COUNT(*) cnt FROM silver "
      "WHERE amount > 0 GROUP BY category HAVING COUNT(*) > 1 ORDER BY 2 DESC NULLS LAST, category LIMIT 10 OFFSET 5");
  EXPECT_EQ(q->type, QueryNodeType::SELECT_NODE);
  EXPECT_TRUE(q->distinct);
  ASSERT_EQ(q->select_list.size(), 3u);
  EXPECT_EQ(q->select_list[1]->alias, "total_amount");
  EXPECT_EQ(q->select_list[2]->alias, "cnt");
  ASSERT_TRUE(q->from);
  EXPECT_EQ(q->from->type, TableRefType::BASE_TABLE);
  EXPECT_EQ(q->from->name.ToString(), "silver");
  ASSERT_TRUE(q->where);
  EXPECT_EQ(q->group_by.size(), 1u);
  ASSERT_TRUE(q->having);
  ASSERT_EQ(q->order_by.size(), 2u);
  EXPECT_TRUE(q->order_by[0].descending);
  EXPECT_EQ(q->order_by[0].nulls_first, std::optional<bool>(false));
  EXPECT_EQ(q->order_by[0].expression->type, ExpressionType::CONSTANT);
  EXPECT_FALSE(q->order_by[1].nulls_first.has_value());
  EXPECT_EQ(q->limit->value.GetInteger(), 10);
  EXPECT_EQ(q->offset->value.GetInteger(), 5);
  EXPECT_TRUE(Select("SELECT a, count(*) FROM t GROUP BY ALL")->group_by_all);
  EXPECT_FALSE(Select("SELECT 1")->from);
}

TEST(ParserQueries, Joins) {
  auto q = Select("SELECT * FROM a JOIN b ON a.id = b.id LEFT OUTER JOIN c USING (id), d CROSS JOIN e");
  auto* ref = q->from.get();
  ASSERT_EQ(ref->type, TableRefType::JOIN);
  EXPECT_EQ(ref->join_type, JoinType::CROSS);  // CROSS JOIN e
  auto* comma = ref->left.get();
  EXPECT_EQ(comma->join_type, JoinType::CROSS);  // , d
  auto* left = comma->left.get();
  EXPECT_EQ(left->join_type, JoinType::LEFT);
  EXPECT_EQ(left->using_columns, std::vector<std::string>{"id"});
  auto* inner = left->left.get();
  EXPECT_EQ(inner->join_type, JoinType::INNER);
  ASSERT_TRUE(inner->condition);
  EXPECT_EQ(inner->left->name.Name(), "a");
  EXPECT_EQ(Select("SELECT * FROM a RIGHT JOIN b ON true")->from->join_type, JoinType::RIGHT);
  EXPECT_EQ(Select("SELECT * FROM a FULL OUTER JOIN b ON true")->from->join_type, JoinType::FULL);
  EXPECT_EQ(Select("SELECT * FROM a INNER JOIN b ON true")->from->join_type, JoinType::INNER);
  auto aliased = Select("SELECT * FROM orders o JOIN customers AS c ON o.cid = c.id");
  EXPECT_EQ(aliased->from->left->alias, "o");
  EXPECT_EQ(aliased->from->right->alias, "c");
}

TEST(ParserQueries, FromVariants) {
  auto sub = Select("SELECT * FROM (SELECT 1 AS a) AS t(x)")->from->Copy();
  EXPECT_EQ(sub->type, TableRefType::SUBQUERY);
  EXPECT_EQ(sub->alias, "t");
  EXPECT_EQ(sub->column_aliases, std::vector<std::string>{"x"});

  auto tc = Select("SELECT * FROM table_changes('orders', 2, 5)")->from->Copy();
  EXPECT_EQ(tc->type, TableRefType::TABLE_FUNCTION);
  EXPECT_EQ(tc->function->function_name, "table_changes");
  EXPECT_EQ(tc->function->children.size(), 3u);

  auto rf = Select("SELECT * FROM read_files('landing/', format => 'json')")->from->Copy();
  EXPECT_EQ(rf->function->arg_names[1], "format");
  EXPECT_EQ(Select("SELECT * FROM read_parquet('x.parquet') p")->from->alias, "p");

  auto stream = Select("SELECT * FROM STREAM(LIVE.bronze)")->from->Copy();
  EXPECT_EQ(stream->type, TableRefType::BASE_TABLE);
  EXPECT_TRUE(stream->stream_function);
  EXPECT_EQ(stream->name.parts, (std::vector<std::string>{"LIVE", "bronze"}));
  EXPECT_TRUE(Select("SELECT * FROM STREAM(t) s")->from->stream_function);
  EXPECT_TRUE(Select("SELECT * FROM STREAM LIVE.t")->from->stream_function);

  auto live = Select("SELECT * FROM LIVE.silver");
  EXPECT_EQ(live->from->name.parts.size(), 2u);
  EXPECT_EQ(live->from->name.ToString(), "LIVE.silver");

  auto v = Select("SELECT * FROM orders VERSION AS OF 3");
  EXPECT_EQ(v->from->version_as_of, std::optional<int64_t>(3));
  auto ts = Select("SELECT * FROM orders TIMESTAMP AS OF '2024-01-01' o");
  EXPECT_EQ(ts->from->timestamp_as_of, std::optional<std::string>("2024-01-01"));
  EXPECT_EQ(ts->from->alias, "o");
  EXPECT_EQ(Select("SELECT * FROM t FOR VERSION AS OF 7")->from->version_as_of, std::optional<int64_t>(7));
  EXPECT_EQ(Select("SELECT * FROM t x VERSION AS OF 1")->from->version_as_of, std::optional<int64_t>(1));

  auto values = Select("SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v(id, name)")->from->Copy();
  EXPECT_EQ(values->type, TableRefType::SUBQUERY);
  EXPECT_EQ(values->subquery->type, QueryNodeType::VALUES_NODE);
  EXPECT_EQ(values->subquery->values.size(), 2u);
  EXPECT_EQ(values->column_aliases, (std::vector<std::string>{"id", "name"}));
}

TEST(ParserQueries, SetOperationsAndCtes) {
  auto q = Select("SELECT a FROM t UNION ALL SELECT b FROM u EXCEPT SELECT c FROM v ORDER BY 1 LIMIT 3");
  EXPECT_EQ(q->type, QueryNodeType::SET_OPERATION_NODE);
  EXPECT_EQ(q->set_op, SetOperationType::EXCEPT);
  EXPECT_EQ(q->left->set_op, SetOperationType::UNION_ALL);
  EXPECT_EQ(q->order_by.size(), 1u);
  ASSERT_TRUE(q->limit);
  EXPECT_TRUE(q->right->order_by.empty());
  EXPECT_EQ(Select("SELECT 1 UNION SELECT 2")->set_op, SetOperationType::UNION);
  EXPECT_EQ(Select("SELECT 1 INTERSECT SELECT 2")->set_op, SetOperationType::INTERSECT);
  EXPECT_EQ(Select("(SELECT 1) UNION ALL (SELECT 2)")->set_op, SetOperationType::UNION_ALL);
  // INTERSECT binds tighter than UNION / EXCEPT; MINUS is EXCEPT.
  auto mixed = Select("SELECT 1 UNION SELECT 2 INTERSECT ALL SELECT 3 MINUS ALL SELECT 4");
  EXPECT_EQ(mixed->set_op, SetOperationType::EXCEPT_ALL);
  EXPECT_EQ(mixed->left->set_op, SetOperationType::UNION);
  EXPECT_EQ(mixed->left->right->set_op, SetOperationType::INTERSECT_ALL);
  EXPECT_EQ(Select("SELECT 1 EXCEPT DISTINCT SELECT 2")->set_op, SetOperationType::EXCEPT);
  EXPECT_EQ(Select("SELECT 1 MINUS SELECT 2")->set_op, SetOperationType::EXCEPT);

  auto cte = Select("WITH a (x) AS (SELECT 1), b AS (SELECT * FROM a) SELECT * FROM b");
  ASSERT_EQ(cte->ctes.size(), 2u);
  EXPECT_EQ(cte->ctes[0].name, "a");
  EXPECT_EQ(cte->ctes[0].column_aliases, std::vector<std::string>{"x"});
  EXPECT_EQ(cte->ctes[1].query->from->name.Name(), "a");

  auto values = Select("VALUES (1, 'a'), (2, 'b')");
  EXPECT_EQ(values->type, QueryNodeType::VALUES_NODE);
  ASSERT_EQ(values->values.size(), 2u);
  EXPECT_EQ(values->values[1][1]->value.GetString(), "b");

  auto copy = cte->Copy();
  EXPECT_EQ(copy->ctes.size(), 2u);
  EXPECT_EQ(copy->ctes[1].query->from->name.Name(), "a");
}

TEST(ParserQueries, ParseQueryAndText) {
  auto q = Parser::ParseQuery("SELECT category, SUM(amount) FROM silver GROUP BY category;");
  EXPECT_EQ(q->group_by.size(), 1u);
  EXPECT_THROW(Parser::ParseQuery("DROP TABLE t"), ParserError);
  auto statements = Parser::Parse("  SELECT 1 ;; -- comment\n SELECT 'a;b' ;  ");
  ASSERT_EQ(statements.size(), 2u);
  EXPECT_EQ(statements[0]->text, "SELECT 1");
  EXPECT_EQ(statements[0]->location, 2u);
  EXPECT_EQ(statements[1]->text, "SELECT 'a;b'");
  EXPECT_TRUE(Parser::Parse(" ; -- nothing\n").empty());
}

// ------------------------------------------------------------------ DDL

TEST(ParserDDL, CreateTable) {
  auto s = ParseAs<CreateTableStatement>(
      "CREATE TABLE IF NOT EXISTS orders (id INT NOT NULL, name STRING COMMENT 'who', amount DECIMAL(10,2) DEFAULT 0, "
      "status STRING, PRIMARY KEY (id)) USING DELTA PARTITIONED BY (status) LOCATION '/tmp/o' COMMENT 'orders' "
      "TBLPROPERTIES ('delta.appendOnly' = 'true', delta.enableChangeDataFeed = true)",
      StatementType::CREATE_TABLE);
  EXPECT_TRUE(s->if_not_exists);
  EXPECT_FALSE(s->or_replace);
  EXPECT_EQ(s->name.ToString(), "orders");
  ASSERT_EQ(s->columns.size(), 4u);
  EXPECT_TRUE(s->columns[0].not_null);
  EXPECT_EQ(s->columns[1].comment, "who");
  EXPECT_EQ(s->columns[2].type, LogicalType::Decimal(10, 2));
  ASSERT_TRUE(s->columns[2].default_value);
  EXPECT_EQ(s->primary_key, std::vector<std::string>{"id"});
  EXPECT_EQ(s->using_format, "DELTA");
  EXPECT_EQ(s->partitioned_by, std::vector<std::string>{"status"});
  EXPECT_EQ(s->location_path, std::optional<std::string>("/tmp/o"));
  EXPECT_EQ(s->comment, "orders");
  ASSERT_EQ(s->properties.size(), 2u);
  EXPECT_EQ(s->properties[0], (std::pair<std::string, std::string>{"delta.appendOnly", "true"}));
  EXPECT_EQ(s->properties[1], (std::pair<std::string, std::string>{"delta.enableChangeDataFeed", "true"}));

  auto pk = ParseAs<CreateTableStatement>("CREATE OR REPLACE TABLE t (id BIGINT PRIMARY KEY, `timestamp` TIMESTAMP, comment STRING)",
                                          StatementType::CREATE_TABLE);
  EXPECT_TRUE(pk->or_replace);
  EXPECT_EQ(pk->primary_key, std::vector<std::string>{"id"});
  EXPECT_EQ(pk->columns[2].name, "comment");

  auto attach = ParseAs<CreateTableStatement>("CREATE TABLE ext LOCATION '/data/delta/t'", StatementType::CREATE_TABLE);
  EXPECT_TRUE(attach->columns.empty());
  EXPECT_EQ(attach->location_path, std::optional<std::string>("/data/delta/t"));

  auto ctas = ParseAs<CreateTableStatement>("CREATE TABLE t2 AS SELECT * FROM t WHERE x > 1", StatementType::CREATE_TABLE);
  ASSERT_TRUE(ctas->as_query);
  EXPECT_EQ(ctas->as_query_text, "SELECT * FROM t WHERE x > 1");

  auto with_props = ParseAs<CreateTableStatement>("CREATE TABLE t (a INT) WITH PROPERTIES ('change_tracking' = 'true')",
                                                  StatementType::CREATE_TABLE);
  EXPECT_EQ(with_props->properties.at(0).first, "change_tracking");
}

TEST(ParserDDL, CreateViews) {
  auto mv = ParseAs<CreateViewStatement>(
      "CREATE MATERIALIZED VIEW gold TBLPROPERTIES ('refresh' = 'manual') AS\n"
      "  SELECT category, SUM(amount) AS total_amount, COUNT(*) AS transaction_count\n"
      "  FROM silver GROUP BY category;",
      StatementType::CREATE_VIEW);
  EXPECT_EQ(mv->kind, ViewKind::MATERIALIZED_VIEW);
  EXPECT_EQ(mv->properties.at(0).second, "manual");
  EXPECT_EQ(mv->query_text,
            "SELECT category, SUM(amount) AS total_amount, COUNT(*) AS transaction_count\n  FROM silver GROUP BY category");
  // The stored text parses back to the same query.
  EXPECT_EQ(Parser::ParseQuery(mv->query_text)->select_list.size(), 3u);

  auto live = ParseAs<CreateViewStatement>("CREATE OR REFRESH LIVE TABLE gold AS SELECT * FROM LIVE.silver",
                                           StatementType::CREATE_VIEW);
  EXPECT_EQ(live->kind, ViewKind::LIVE_TABLE);
  EXPECT_TRUE(live->or_refresh);
  auto st = ParseAs<CreateViewStatement>(
      "CREATE OR REFRESH STREAMING TABLE bronze (id INT, name STRING) COMMENT 'raw' AS "
      "SELECT * FROM read_files('landing/', format => 'json')",
      StatementType::CREATE_VIEW);
  EXPECT_EQ(st->kind, ViewKind::STREAMING_TABLE);
  EXPECT_EQ(st->columns.size(), 2u);
  EXPECT_EQ(st->comment, "raw");
  EXPECT_EQ(ParseAs<CreateViewStatement>("CREATE OR REFRESH MATERIALIZED VIEW v AS SELECT 1", StatementType::CREATE_VIEW)->kind,
            ViewKind::MATERIALIZED_VIEW);
  auto view = ParseAs<CreateViewStatement>("CREATE OR REPLACE VIEW v AS SELECT 1", StatementType::CREATE_VIEW);
  EXPECT_EQ(view->kind, ViewKind::VIEW);
  EXPECT_TRUE(view->or_replace);
}

TEST(ParserDDL, CreateStreams) {
  auto cz = ParseAs<CreateStreamStatement>(
      "CREATE TABLE STREAM orders_stream ON TABLE orders VERSION AS OF 2 COMMENT 'c' "
      "WITH PROPERTIES ('table_stream_mode' = 'append_only', 'SHOW_INITIAL_ROWS' = 'true')",
      StatementType::CREATE_STREAM);
  EXPECT_EQ(cz->name.ToString(), "orders_stream");
  EXPECT_EQ(cz->table.ToString(), "orders");
  EXPECT_EQ(cz->version_as_of, std::optional<int64_t>(2));
  EXPECT_EQ(cz->comment, "c");
  ASSERT_EQ(cz->properties.size(), 2u);
  EXPECT_EQ(cz->properties[0], (std::pair<std::string, std::string>{"TABLE_STREAM_MODE", "APPEND_ONLY"}));
  EXPECT_EQ(cz->properties[1], (std::pair<std::string, std::string>{"SHOW_INITIAL_ROWS", "true"}));

  auto sf = ParseAs<CreateStreamStatement>(
      "CREATE OR REPLACE STREAM IF NOT EXISTS s2 ON TABLE orders AT(VERSION => 3) APPEND_ONLY = TRUE "
      "SHOW_INITIAL_ROWS = TRUE COMMENT = 'x'",
      StatementType::CREATE_STREAM);
  EXPECT_TRUE(sf->or_replace);
  EXPECT_TRUE(sf->if_not_exists);
  EXPECT_EQ(sf->version_as_of, std::optional<int64_t>(3));
  ASSERT_EQ(sf->properties.size(), 2u);
  EXPECT_EQ(sf->properties[0], (std::pair<std::string, std::string>{"TABLE_STREAM_MODE", "APPEND_ONLY"}));
  EXPECT_EQ(sf->properties[1], (std::pair<std::string, std::string>{"SHOW_INITIAL_ROWS", "true"}));
  EXPECT_EQ(sf->comment, "x");
  auto on_view = ParseAs<CreateStreamStatement>("CREATE STREAM s ON VIEW gold", StatementType::CREATE_STREAM);
  EXPECT_EQ(on_view->table.ToString(), "gold");
  auto ts = ParseAs<CreateStreamStatement>("CREATE TABLE STREAM s ON TABLE t TIMESTAMP AS OF '2024-01-01 00:00:00'",
                                           StatementType::CREATE_STREAM);
  EXPECT_EQ(ts->timestamp_as_of, std::optional<std::string>("2024-01-01 00:00:00"));
}

TEST(ParserDDL, CreateSink) {
  auto k = ParseAs<CreateSinkStatement>(
      "CREATE SINK gold_out FROM gold INTO KAFKA WITH (\n"
      "  'bootstrap.servers' = 'localhost:9092', 'topic' = 'gold', 'format' = 'upsert', 'key' = 'category')",
      StatementType::CREATE_SINK);
  EXPECT_EQ(k->name.ToString(), "gold_out");
  EXPECT_EQ(k->source.ToString(), "gold");
  EXPECT_EQ(k->target, SinkTarget::KAFKA);
  ASSERT_EQ(k->options.size(), 4u);
  EXPECT_EQ(k->options[0].first, "bootstrap.servers");
  EXPECT_EQ(k->options[3].second, "category");
  auto f = ParseAs<CreateSinkStatement>("CREATE OR REPLACE SINK IF NOT EXISTS f FROM s INTO FILE 'out.jsonl' WITH ('format' = 'append')",
                                        StatementType::CREATE_SINK);
  EXPECT_TRUE(f->or_replace);
  EXPECT_TRUE(f->if_not_exists);
  EXPECT_EQ(f->target, SinkTarget::FILE);
  EXPECT_EQ(f->file_path, "out.jsonl");
  EXPECT_EQ(f->options.size(), 1u);
}

TEST(ParserDDL, AlterSink) {
  auto a = ParseAs<AlterSinkStatement>("ALTER SINK s SET ('format' = 'upsert', 'start' = 'version 3')",
                                       StatementType::ALTER_SINK);
  EXPECT_EQ(a->name.ToString(), "s");
  ASSERT_EQ(a->options.size(), 2u);
  EXPECT_EQ(a->options[1].first, "start");
  EXPECT_EQ(a->options[1].second, "version 3");
  EXPECT_EQ(ParseAs<AlterSinkStatement>("ALTER SINK s SET OPTIONS (format = 'debezium')", StatementType::ALTER_SINK)
                ->options.size(),
            1u);
  EXPECT_THROW(Parser::Parse("ALTER SINK s RESET ('format')"), ParserError);
}

TEST(ParserDDL, Drop) {
  struct Case {
    const char* sql;
    ObjectType type;
    bool if_exists;
  };
  const Case cases[] = {
      {"DROP TABLE t", ObjectType::TABLE, false},
      {"DROP TABLE IF EXISTS t", ObjectType::TABLE, true},
      {"DROP VIEW v", ObjectType::VIEW, false},
      {"DROP MATERIALIZED VIEW IF EXISTS v", ObjectType::MATERIALIZED_VIEW, true},
      {"DROP LIVE TABLE v", ObjectType::MATERIALIZED_VIEW, false},
      {"DROP STREAMING TABLE b", ObjectType::STREAMING_TABLE, false},
      {"DROP STREAM s", ObjectType::STREAM, false},
      {"DROP TABLE STREAM IF EXISTS s", ObjectType::STREAM, true},
      {"DROP SINK k", ObjectType::SINK, false},
  };
  for (auto& c : cases) {
    auto s = ParseAs<DropStatement>(c.sql, StatementType::DROP);
    EXPECT_EQ(s->object_type, c.type) << c.sql;
    EXPECT_EQ(s->if_exists, c.if_exists) << c.sql;
    EXPECT_EQ(s->name.parts.size(), 1u) << c.sql;
  }
  EXPECT_STREQ(ObjectTypeToString(ObjectType::MATERIALIZED_VIEW), "materialized view");
}

TEST(ParserDDL, Alter) {
  auto set = ParseAs<AlterTableStatement>("ALTER TABLE orders SET TBLPROPERTIES (delta.enableChangeDataFeed = true)",
                                          StatementType::ALTER_TABLE);
  EXPECT_EQ(set->alter_type, AlterType::SET_PROPERTIES);
  EXPECT_EQ(set->properties.at(0), (std::pair<std::string, std::string>{"delta.enableChangeDataFeed", "true"}));
  auto cz = ParseAs<AlterTableStatement>("ALTER TABLE orders SET PROPERTIES ('change_tracking' = 'true')",
                                         StatementType::ALTER_TABLE);
  EXPECT_EQ(cz->properties.at(0).first, "change_tracking");
  auto unset = ParseAs<AlterTableStatement>("ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('a', delta.appendOnly)",
                                            StatementType::ALTER_TABLE);
  EXPECT_EQ(unset->alter_type, AlterType::UNSET_PROPERTIES);
  EXPECT_TRUE(unset->if_exists);
  EXPECT_EQ(unset->unset_keys, (std::vector<std::string>{"a", "delta.appendOnly"}));
  auto add = ParseAs<AlterTableStatement>("ALTER TABLE t ADD COLUMN c DECIMAL(12,2)", StatementType::ALTER_TABLE);
  EXPECT_EQ(add->alter_type, AlterType::ADD_COLUMN);
  ASSERT_EQ(add->new_columns.size(), 1u);
  EXPECT_EQ(add->new_columns[0].type, LogicalType::Decimal(12, 2));
  auto adds = ParseAs<AlterTableStatement>("ALTER TABLE t ADD COLUMNS (a INT, b STRING)", StatementType::ALTER_TABLE);
  EXPECT_EQ(adds->new_columns.size(), 2u);
  auto rename = ParseAs<AlterTableStatement>("ALTER TABLE t RENAME TO u", StatementType::ALTER_TABLE);
  EXPECT_EQ(rename->alter_type, AlterType::RENAME_TABLE);
  EXPECT_EQ(rename->new_name.ToString(), "u");
}

// ------------------------------------------------------------------ DML

TEST(ParserDML, Insert) {
  auto v = ParseAs<InsertStatement>("INSERT INTO orders VALUES (1, 'Alice', 1000.00, 'active'), (2, 'Bob', 2000.00, 'active')",
                                    StatementType::INSERT);
  EXPECT_EQ(v->table.ToString(), "orders");
  EXPECT_FALSE(v->overwrite);
  ASSERT_EQ(v->query->type, QueryNodeType::VALUES_NODE);
  EXPECT_EQ(v->query->values.size(), 2u);
  EXPECT_EQ(v->query->values[0][2]->value.type(), LogicalType::Decimal(6, 2));
  auto cols = ParseAs<InsertStatement>(
      "INSERT INTO orders_target (id, name) SELECT id, name FROM orders_stream WHERE `__change_type` IN ('INSERT')",
      StatementType::INSERT);
  EXPECT_EQ(cols->columns, (std::vector<std::string>{"id", "name"}));
  EXPECT_EQ(cols->query->type, QueryNodeType::SELECT_NODE);
  auto ow = ParseAs<InsertStatement>("INSERT OVERWRITE TABLE t SELECT * FROM u", StatementType::INSERT);
  EXPECT_TRUE(ow->overwrite);
  auto paren = ParseAs<InsertStatement>("INSERT INTO TABLE t (SELECT 1)", StatementType::INSERT);
  EXPECT_TRUE(paren->columns.empty());
}

TEST(ParserDML, UpdateDelete) {
  auto u = ParseAs<UpdateStatement>("UPDATE orders AS o SET amount = 1500.00, o.status = 'x' WHERE id = 1",
                                    StatementType::UPDATE);
  EXPECT_EQ(u->alias, "o");
  ASSERT_EQ(u->set.size(), 2u);
  EXPECT_EQ(u->set[0].column, std::vector<std::string>{"amount"});
  EXPECT_EQ(u->set[1].column, (std::vector<std::string>{"o", "status"}));
  ASSERT_TRUE(u->where);
  auto plain = ParseAs<UpdateStatement>("UPDATE t SET a = a + 1", StatementType::UPDATE);
  EXPECT_TRUE(plain->alias.empty());
  EXPECT_FALSE(plain->where);
  auto d = ParseAs<DeleteStatement>("DELETE FROM orders WHERE id = 3", StatementType::DELETE);
  EXPECT_EQ(d->table.ToString(), "orders");
  ASSERT_TRUE(d->where);
  EXPECT_EQ(ParseAs<DeleteStatement>("DELETE FROM orders o", StatementType::DELETE)->alias, "o");
}

TEST(ParserDML, Merge) {
  auto m = ParseAs<MergeStatement>(
      "MERGE INTO target t USING src s ON t.id = s.id\n"
      "  WHEN MATCHED AND s.op = 'D' THEN DELETE\n"
      "  WHEN MATCHED THEN UPDATE SET *\n"
      "  WHEN NOT MATCHED THEN INSERT *\n"
      "  WHEN NOT MATCHED BY SOURCE AND t.x > 1 THEN UPDATE SET t.x = 0",
      StatementType::MERGE);
  EXPECT_EQ(m->target.ToString(), "target");
  EXPECT_EQ(m->target_alias, "t");
  EXPECT_EQ(m->source->type, TableRefType::BASE_TABLE);
  EXPECT_EQ(m->source->alias, "s");
  ASSERT_TRUE(m->condition);
  ASSERT_EQ(m->clauses.size(), 4u);
  EXPECT_EQ(m->clauses[0].match, MergeMatch::MATCHED);
  ASSERT_TRUE(m->clauses[0].condition);
  EXPECT_EQ(m->clauses[0].action, MergeAction::DELETE);
  EXPECT_EQ(m->clauses[1].action, MergeAction::UPDATE_STAR);
  EXPECT_EQ(m->clauses[2].match, MergeMatch::NOT_MATCHED);
  EXPECT_EQ(m->clauses[2].action, MergeAction::INSERT_STAR);
  EXPECT_EQ(m->clauses[3].match, MergeMatch::NOT_MATCHED_BY_SOURCE);
  EXPECT_EQ(m->clauses[3].set.at(0).column, (std::vector<std::string>{"t", "x"}));

  auto m2 = ParseAs<MergeStatement>(
      "MERGE INTO orders_target AS t USING (SELECT id, name FROM orders_stream WHERE `__change_type` = 'INSERT') AS s "
      "ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.name = s.name, amount = s.amount "
      "WHEN NOT MATCHED BY TARGET THEN INSERT (id, name) VALUES (s.id, s.name)",
      StatementType::MERGE);
  EXPECT_EQ(m2->source->type, TableRefType::SUBQUERY);
  EXPECT_EQ(m2->source->alias, "s");
  EXPECT_EQ(m2->clauses[0].set.size(), 2u);
  EXPECT_EQ(m2->clauses[1].insert_columns, (std::vector<std::string>{"id", "name"}));
  EXPECT_EQ(m2->clauses[1].insert_values.size(), 2u);
  EXPECT_TRUE(Contains(ParseError("MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN DELETE"), "only allows INSERT"));
}

// ------------------------------------------------------------------ other statements

TEST(ParserMisc, ShowDescribe) {
  EXPECT_EQ(ParseAs<ShowStatement>("SHOW TABLES", StatementType::SHOW)->show_type, ShowType::TABLES);
  EXPECT_EQ(ParseAs<ShowStatement>("show streams", StatementType::SHOW)->show_type, ShowType::STREAMS);
  EXPECT_EQ(ParseAs<ShowStatement>("SHOW SINKS", StatementType::SHOW)->show_type, ShowType::SINKS);
  EXPECT_EQ(ParseAs<ShowStatement>("SHOW MATERIALIZED VIEWS", StatementType::SHOW)->show_type,
            ShowType::MATERIALIZED_VIEWS);
  EXPECT_EQ(ParseAs<ShowStatement>("SHOW VIEWS", StatementType::SHOW)->show_type, ShowType::VIEWS);
  auto props = ParseAs<ShowStatement>("SHOW TBLPROPERTIES orders", StatementType::SHOW);
  EXPECT_EQ(props->show_type, ShowType::TBLPROPERTIES);
  EXPECT_EQ(props->name.ToString(), "orders");
  EXPECT_EQ(ParseAs<ShowStatement>("SHOW COLUMNS IN orders", StatementType::SHOW)->show_type, ShowType::COLUMNS);

  auto d = ParseAs<DescribeStatement>("DESCRIBE orders", StatementType::DESCRIBE);
  EXPECT_EQ(d->describe_type, DescribeType::TABLE);
  EXPECT_EQ(d->name.ToString(), "orders");
  EXPECT_EQ(ParseAs<DescribeStatement>("DESC TABLE orders", StatementType::DESCRIBE)->name.ToString(), "orders");
  auto h = ParseAs<DescribeStatement>("DESCRIBE HISTORY orders LIMIT 5", StatementType::DESCRIBE);
  EXPECT_EQ(h->describe_type, DescribeType::HISTORY);
  EXPECT_EQ(h->limit, std::optional<int64_t>(5));
  EXPECT_EQ(ParseAs<DescribeStatement>("DESCRIBE DETAIL orders", StatementType::DESCRIBE)->describe_type,
            DescribeType::DETAIL);
  EXPECT_EQ(ParseAs<DescribeStatement>("DESCRIBE STREAM s", StatementType::DESCRIBE)->describe_type,
            DescribeType::STREAM);
  EXPECT_EQ(ParseAs<DescribeStatement>("DESCRIBE MATERIALIZED VIEW v", StatementType::DESCRIBE)->describe_type,
            DescribeType::MATERIALIZED_VIEW);
  EXPECT_EQ(ParseAs<DescribeStatement>("DESCRIBE SINK k", StatementType::DESCRIBE)->describe_type, DescribeType::SINK);
  auto q = ParseAs<DescribeStatement>("DESCRIBE SELECT 1 AS x", StatementType::DESCRIBE);
  EXPECT_EQ(q->describe_type, DescribeType::QUERY);
  ASSERT_TRUE(q->query);
  // A table called `history` can still be described.
  EXPECT_EQ(ParseAs<DescribeStatement>("DESCRIBE history", StatementType::DESCRIBE)->name.ToString(), "history");
}

TEST(ParserMisc, CopyRefreshRunMaintenance) {
  auto c = ParseAs<CopyStatement>("COPY (SELECT * FROM t) TO 'out.parquet' (FORMAT parquet, COMPRESSION zstd)",
                                  StatementType::COPY);
  ASSERT_TRUE(c->query);
  EXPECT_FALSE(c->is_from);
  EXPECT_EQ(c->path, "out.parquet");
  EXPECT_EQ(c->options,
            (PropertyList{{"FORMAT", "parquet"}, {"COMPRESSION", "zstd"}}));
  auto ct = ParseAs<CopyStatement>("COPY t TO 'f.csv' WITH (HEADER true)", StatementType::COPY);
  ASSERT_TRUE(ct->query);
  EXPECT_EQ(ct->query->from->name.ToString(), "t");
  EXPECT_EQ(ct->options.at(0), (std::pair<std::string, std::string>{"HEADER", "true"}));
  auto cf = ParseAs<CopyStatement>("COPY t FROM 'in.csv' (FORMAT csv, HEADER)", StatementType::COPY);
  EXPECT_TRUE(cf->is_from);
  EXPECT_EQ(cf->table.ToString(), "t");
  EXPECT_EQ(cf->options.at(1), (std::pair<std::string, std::string>{"HEADER", "true"}));

  auto r = ParseAs<RefreshStatement>("REFRESH MATERIALIZED VIEW gold FULL", StatementType::REFRESH);
  EXPECT_EQ(r->name.ToString(), "gold");
  EXPECT_TRUE(r->full);
  EXPECT_FALSE(ParseAs<RefreshStatement>("REFRESH LIVE TABLE gold", StatementType::REFRESH)->full);
  EXPECT_EQ(ParseAs<RunSinkStatement>("RUN SINK gold_out", StatementType::RUN_SINK)->name.ToString(), "gold_out");
  EXPECT_EQ(ParseAs<OptimizeStatement>("OPTIMIZE orders", StatementType::OPTIMIZE)->table.ToString(), "orders");
  auto v = ParseAs<VacuumStatement>("VACUUM orders RETAIN 168 HOURS DRY RUN", StatementType::VACUUM);
  EXPECT_EQ(v->retain_hours, std::optional<double>(168));
  EXPECT_TRUE(v->dry_run);
  EXPECT_FALSE(ParseAs<VacuumStatement>("VACUUM orders", StatementType::VACUUM)->retain_hours.has_value());
}

TEST(ParserMisc, SetTransactionExplain) {
  auto s = ParseAs<SetStatement>("SET threads = 1", StatementType::SET);
  EXPECT_EQ(s->name, "threads");
  EXPECT_EQ(s->value, "1");
  auto s2 = ParseAs<SetStatement>("SET spark.sql.x TO 'abc'", StatementType::SET);
  EXPECT_EQ(s2->name, "spark.sql.x");
  EXPECT_EQ(s2->value, "abc");
  EXPECT_EQ(ParseAs<SetStatement>("SET flag = TRUE", StatementType::SET)->value, "true");
  EXPECT_EQ(ParseAs<TransactionStatement>("BEGIN", StatementType::TRANSACTION)->transaction_type, TransactionType::BEGIN);
  EXPECT_EQ(ParseAs<TransactionStatement>("BEGIN TRANSACTION", StatementType::TRANSACTION)->transaction_type,
            TransactionType::BEGIN);
  EXPECT_EQ(ParseAs<TransactionStatement>("COMMIT", StatementType::TRANSACTION)->transaction_type, TransactionType::COMMIT);
  EXPECT_EQ(ParseAs<TransactionStatement>("ROLLBACK", StatementType::TRANSACTION)->transaction_type,
            TransactionType::ROLLBACK);
  auto e = ParseAs<ExplainStatement>("EXPLAIN SELECT * FROM t", StatementType::EXPLAIN);
  ASSERT_TRUE(e->statement);
  EXPECT_EQ(e->statement->type, StatementType::SELECT);
  EXPECT_EQ(e->statement->text, "SELECT * FROM t");
  EXPECT_EQ(e->text, "EXPLAIN SELECT * FROM t");
}

TEST(ParserMisc, ManyStatements) {
  auto statements = Parser::Parse(
      "CREATE TABLE t (a INT);\nINSERT INTO t VALUES (1);\nSELECT * FROM t;\nDROP TABLE t;");
  ASSERT_EQ(statements.size(), 4u);
  EXPECT_EQ(statements[1]->type, StatementType::INSERT);
  EXPECT_EQ(statements[1]->text, "INSERT INTO t VALUES (1)");
  EXPECT_EQ(statements[3]->location, 67u);
}

// ------------------------------------------------------------------ errors

TEST(ParserErrors, SyntaxErrorShape) {
  EXPECT_EQ(ParseError("SELECT * FORM t"), "syntax error at or near \"FORM\" (line 1, column 10)\nSELECT * FORM t\n         ^");
  try {
    Parser::Parse("SELECT * FORM t");
    FAIL();
  } catch (const ParserError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("Parser Error: syntax error", 0), 0u);
  }
}

TEST(ParserErrors, MultiLineCaret) {
  auto msg = ParseError("SELECT a,\n       b\nFROM t\nWHERE a = = 1");
  EXPECT_EQ(msg, "syntax error at or near \"=\" (line 4, column 11): expected an expression\nWHERE a = = 1\n          ^");
}

TEST(ParserErrors, Helpful) {
  auto eoi = ParseError("SELECT (a + 1 FROM t");
  EXPECT_TRUE(Contains(eoi, "syntax error at or near \"FROM\" (line 1, column 15): expected ')'")) << eoi;
  auto end = ParseError("SELECT a FROM");
  EXPECT_TRUE(Contains(end, "syntax error at end of input (line 1, column 14)")) << end;
  EXPECT_TRUE(Contains(ParseError("SELECT a IN (1, 2 FROM t"), "expected ',' or ')' in the IN list"));
  EXPECT_TRUE(Contains(ParseError("CREATE TABLE t (a INT"), "expected ',' or ')'"));
  EXPECT_TRUE(Contains(ParseError("SELECT * FROM a LEFT JOIN b"), "expected ON or USING"));
  EXPECT_TRUE(Contains(ParseError("FOO BAR"), "syntax error at or near \"FOO\" (line 1, column 1)"));
  EXPECT_TRUE(Contains(ParseError("SELECT INTERVAL x DAY"), "not supported yet: INTERVAL with a value that is not a literal"));
  EXPECT_TRUE(Contains(ParseError("SELECT a, FROM t"), "syntax error at or near \"FROM\""));
}

TEST(ParserErrors, Unterminated) {
  auto s = ParseError("SELECT 'abc");
  EXPECT_EQ(s, "unterminated quoted string (line 1, column 8)\nSELECT 'abc\n       ^");
  EXPECT_TRUE(Contains(ParseError("SELECT 1 /* never closed"), "unterminated /* comment (line 1, column 10)"));
  EXPECT_TRUE(Contains(ParseError("SELECT \"abc FROM t"), "unterminated quoted identifier (line 1, column 8)"));
  EXPECT_TRUE(Contains(ParseError("SELECT `abc"), "unterminated quoted identifier"));
  EXPECT_TRUE(Contains(ParseError("SELECT 1 # 2"), "syntax error at or near \"#\""));
}

TEST(ParserErrors, DeepNesting) {
  std::string sql = "SELECT " + std::string(5000, '(') + "1" + std::string(5000, ')');
  EXPECT_TRUE(Contains(ParseError(sql), "nested too deeply"));
  std::string negs = "SELECT " + std::string(5000, '-') + "1";  // -- starts a comment; use "- " pairs
  std::string alternating;
  for (int i = 0; i < 5000; i++) alternating += "NOT ";
  EXPECT_TRUE(Contains(ParseError("SELECT " + alternating + "TRUE"), "nested too deeply"));
}

// ------------------------------------------------------------------ comments and IsComplete

TEST(ParserLexing, CommentsAndCase) {
  auto q = Select("select /* block ; */ a -- trailing ; comment\n from T where A = 1");
  EXPECT_EQ(q->select_list.size(), 1u);
  EXPECT_EQ(q->from->name.Name(), "T");
  auto kw = Select("SeLeCt 1 FrOm t");
  EXPECT_TRUE(kw->from);
}

TEST(ParserLexing, IsComplete) {
  EXPECT_TRUE(Parser::IsComplete("SELECT 1;"));
  EXPECT_TRUE(Parser::IsComplete("SELECT 1;  \n"));
  EXPECT_TRUE(Parser::IsComplete("SELECT 1; -- done"));
  EXPECT_TRUE(Parser::IsComplete(""));
  EXPECT_TRUE(Parser::IsComplete("  -- only a comment\n"));
  EXPECT_TRUE(Parser::IsComplete("/* c */"));
  EXPECT_FALSE(Parser::IsComplete("SELECT 1"));
  EXPECT_FALSE(Parser::IsComplete("SELECT ';"));
  EXPECT_FALSE(Parser::IsComplete("SELECT 'a;'"));
  EXPECT_TRUE(Parser::IsComplete("SELECT 'a;';"));
  EXPECT_FALSE(Parser::IsComplete("SELECT \"x;\""));
  EXPECT_FALSE(Parser::IsComplete("SELECT `x;"));
  EXPECT_FALSE(Parser::IsComplete("SELECT 1 /* ; */"));
  EXPECT_FALSE(Parser::IsComplete("SELECT 1 /* ;"));
  EXPECT_FALSE(Parser::IsComplete("SELECT 1 -- ;"));
  EXPECT_TRUE(Parser::IsComplete("SELECT 'it''s';"));
}

// ------------------------------------------------------------------ DESIGN.md section 4, verbatim

TEST(ParserDesignExamples, AllParse) {
  const char* script = R"sql(
    CREATE TABLE orders (id INT, name STRING, amount DECIMAL(10,2), status STRING,
                         PRIMARY KEY (id));
    ALTER TABLE orders SET PROPERTIES ('change_tracking' = 'true');
    ALTER TABLE orders SET TBLPROPERTIES (delta.enableChangeDataFeed = true);
    CREATE TABLE t (a INT) TBLPROPERTIES ('delta.appendOnly' = 'true');
    INSERT INTO orders VALUES (1, 'Alice', 1000.00, 'active');
    UPDATE orders SET amount = 1500.00 WHERE id = 1;
    DELETE FROM orders WHERE id = 3;
    MERGE INTO target t USING src s ON t.id = s.id
      WHEN MATCHED AND s.op = 'D' THEN DELETE
      WHEN MATCHED THEN UPDATE SET *      -- or SET t.a = s.a, ...
      WHEN NOT MATCHED THEN INSERT *;     -- or INSERT (cols) VALUES (...)
    SELECT * FROM table_changes('orders', 2, 5);          -- Delta CDF
    CREATE TABLE STREAM orders_stream ON TABLE orders
      WITH PROPERTIES ('TABLE_STREAM_MODE' = 'STANDARD');  -- or APPEND_ONLY
    CREATE STREAM s2 ON TABLE orders APPEND_ONLY = TRUE;   -- Snowflake form
    SELECT * FROM orders_stream WHERE `__change_type` IN ('INSERT', 'UPDATE_AFTER');
    CREATE MATERIALIZED VIEW gold AS
      SELECT category, SUM(amount) AS total_amount, COUNT(*) AS transaction_count
      FROM silver GROUP BY category;
    CREATE OR REFRESH LIVE TABLE gold AS SELECT category, count(*) FROM LIVE.silver GROUP BY category;
    CREATE OR REFRESH STREAMING TABLE bronze AS
      SELECT * FROM read_files('landing/', format => 'json');
    CREATE SINK gold_out FROM gold INTO KAFKA WITH (
      'bootstrap.servers' = 'localhost:9092', 'topic' = 'gold',
      'format' = 'upsert', 'key' = 'category');
    SELECT * FROM orders VERSION AS OF 3;  DESCRIBE HISTORY orders;
    SHOW TABLES; SHOW STREAMS; SHOW SINKS; DESCRIBE orders;
    SELECT to_json(struct(*)), named_struct('a', 1), current_timestamp(), coalesce(a, 0),
           CASE WHEN a > 1 THEN 'x' END, CAST(a AS STRING), count(DISTINCT b)
      FROM t LEFT JOIN u ON t.id = u.id WHERE stream_has_data('s') OR SYSTEM$STREAM_HAS_DATA('s');
  )sql";
  auto statements = Parser::Parse(script);
  EXPECT_EQ(statements.size(), 23u);
  auto& stream = static_cast<CreateStreamStatement&>(*statements[9]);
  EXPECT_EQ(stream.properties.at(0), (std::pair<std::string, std::string>{"TABLE_STREAM_MODE", "STANDARD"}));
  auto& snow = static_cast<CreateStreamStatement&>(*statements[10]);
  EXPECT_EQ(snow.properties.at(0), (std::pair<std::string, std::string>{"TABLE_STREAM_MODE", "APPEND_ONLY"}));
  EXPECT_EQ(statements[7]->text.substr(0, 10), "MERGE INTO");
  EXPECT_EQ(statements[7]->text.back(), '*');  // trailing comment and ';' are not part of the text
}

TEST(ParserMisc, NamesThatLookLikeKeywords) {
  auto q = Select("SELECT timestamp, date, version, comment, key, value FROM t");
  EXPECT_EQ(q->select_list.size(), 6u);
  EXPECT_EQ(q->select_list[0]->names, std::vector<std::string>{"timestamp"});
  auto table = ParseAs<CreateTableStatement>("CREATE TABLE stream (a INT)", StatementType::CREATE_TABLE);
  EXPECT_EQ(table->name.ToString(), "stream");
  auto ctas = ParseAs<CreateTableStatement>("CREATE TABLE stream AS SELECT 1", StatementType::CREATE_TABLE);
  ASSERT_TRUE(ctas->as_query);
  EXPECT_EQ(Parser::ParseExpression("CAST(x AS STRUCT<key: STRING, value: INT>)")->cast_type.children().size(), 2u);
  EXPECT_EQ(Select("SELECT count(*) AS count FROM t")->select_list[0]->alias, "count");
}
