#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "lakestream/progress.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/exception.hpp"
#include "common/chunk_collection.hpp"
#include "common/cast.hpp"
#include "common/write_error.hpp"
#include "common/query_progress.hpp"
#include "common/sql_identifier.hpp"
#include "common/string_util.hpp"
#include "function/scalar/user_function.hpp"
#include "execution/memory/memory_pool.hpp"
#include "main/connection_access.hpp"
#include "main/builtin_table_functions.hpp"
#include "main/public_value.hpp"
#include "main/query_stream.hpp"
#include "main/statement_runner.hpp"
#include "parser/lexer.hpp"
#include "parser/parser.hpp"
#include "transaction/client_context.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {

Database::Database(const std::string& path, DatabaseOptions options) {
  IgnoreFileSizeSignal();  // a full disk or `ulimit -f` fails the statement, not the process
  RegisterBuiltinTableFunctions();
  std::string p = path == ":memory:" ? "" : path;
  if (options.threads < 0 || options.threads > 1024) {
    throw std::runtime_error("Database " + (p.empty() ? std::string(":memory:") : p) + ": threads = " +
                             std::to_string(options.threads) +
                             " is out of range; give 1 to 1024, or 0 for the machine's cores");
  }
  instance_ = std::make_shared<DatabaseInstance>(p, std::move(options));
}

Database::~Database() {
  if (instance_) ForgetMemoryPool(instance_.get());
}

Connection Database::Connect() { return Connection(*this); }

const std::string& Database::Path() const { return instance_->Path(); }

bool Database::ReadOnly() const { return instance_->Options().read_only; }

Connection::Connection(Database& db) {
  // The shared_ptr keeps the instance alive as long as any connection uses it.
  context_ = std::make_unique<ClientContext>(db.instance_);
}

static constexpr const char* kStreamClosedByStatement =
    "this streaming result (Connection::SendQuery) was ended because another statement ran "
    "on its connection before the result was fetched to the end; fetch it to the end first, or use "
    "Connection::Query, which returns every row at once";
static constexpr const char* kStreamClosedByConnection =
    "this streaming result (Connection::SendQuery) was ended because its connection was "
    "closed before the result was fetched to the end; fetch it to the end first, or use Connection::Query, which "
    "returns every row at once";

Connection::~Connection() {
  EndStream(kStreamClosedByConnection);
  if (context_) ReleaseWrites();
  if (context_) ForgetProgress(context_.get());
}
Connection::Connection(Connection&& other) noexcept
    : context_(std::move(other.context_)), stream_(std::move(other.stream_)), holds_writes_(other.holds_writes_) {
  other.holds_writes_ = false;
}
Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    EndStream(kStreamClosedByConnection);
    if (context_) ReleaseWrites();
    if (context_) ForgetProgress(context_.get());
    context_ = std::move(other.context_);
    stream_ = std::move(other.stream_);
    holds_writes_ = other.holds_writes_;
    other.holds_writes_ = false;
  }
  return *this;
}

void Connection::EndStream(const char* reason) {
  if (auto stream = stream_.lock()) stream->Invalidate(reason);
  stream_.reset();
}

// The parameters as engine values; throws the conversion's error (a value
// the engine cannot hold).
static std::vector<Value> EngineParameters(const std::vector<SqlValue>& params) {
  std::vector<Value> values;
  values.reserve(params.size());
  for (auto& p : params) values.push_back(ValueConverter::ToEngine(p));
  return values;
}

std::unique_ptr<QueryResult> Connection::SendQuery(const std::string& sql, const std::vector<SqlValue>& params) {
  EndStream(kStreamClosedByStatement);
  auto prepared = Prepare(sql);
  if (prepared->HasError() || prepared->statements_.size() != 1 ||
      prepared->statements_[0]->type != StatementType::SELECT) {
    return prepared->Execute(params);
  }
  context_->ClearInterrupt();
  std::vector<Value> values;
  try {
    values = EngineParameters(params);
  } catch (const Exception& e) {
    return QueryResult::FromError(e.Type(), e.what());
  }
  auto result = StartSelectStream(*context_, std::move(prepared->statements_[0]), values);
  stream_ = result->Stream();
  return result;
}

static std::unique_ptr<QueryResult> Last(std::vector<std::unique_ptr<QueryResult>> results) {
  if (results.empty()) return std::make_unique<QueryResult>(std::vector<std::string>{}, std::vector<LogicalType>{});
  return std::move(results.back());
}

std::unique_ptr<QueryResult> Connection::Query(const std::string& sql) {
  EndStream(kStreamClosedByStatement);
  context_->ClearInterrupt();
  return Last(RunQuery(*context_, sql));
}

std::vector<std::unique_ptr<QueryResult>> Connection::QueryAll(const std::string& sql) {
  EndStream(kStreamClosedByStatement);
  context_->ClearInterrupt();
  return RunQuery(*context_, sql);
}

std::unique_ptr<QueryResult> Connection::Query(const std::string& sql, const std::vector<SqlValue>& params) {
  auto prepared = Prepare(sql);
  return prepared->Execute(params);
}

std::vector<std::unique_ptr<QueryResult>> Connection::Run(std::vector<std::unique_ptr<SQLStatement>>& statements,
                                                          const std::vector<SqlValue>& params) {
  EndStream(kStreamClosedByStatement);
  context_->ClearInterrupt();
  std::vector<Value> values;
  try {
    values = EngineParameters(params);
  } catch (const Exception& e) {
    std::vector<std::unique_ptr<QueryResult>> results;
    results.push_back(QueryResult::FromError(e.Type(), e.what()));
    return results;
  }
  return RunStatements(*context_, statements, values);
}

void Connection::Interrupt() { context_->Interrupt(); }

static QueryProgress& ProgressOf(const Connection& con) {
  return ProgressFor(&ConnectionAccess::Context(const_cast<Connection&>(con)));
}
double GetQueryProgress(const Connection& con) { return ProgressOf(con).Percentage(); }
bool ProgressBarEnabled(const Connection& con) { return ProgressOf(con).bar_enabled.load(); }
int64_t ProgressBarWaitMs(const Connection& con) { return ProgressOf(con).bar_wait_ms.load(); }

bool Connection::HoldWrites(std::string* error) {
  if (holds_writes_) return true;
  EndStream(kStreamClosedByStatement);
  context_->ClearInterrupt();
  try {
    std::lock_guard<StatementMutex> guard(context_->Database().StatementLock());
    context_->Database().HoldWriteLock([&] { context_->CheckInterrupt(); });
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return false;
  }
  holds_writes_ = true;
  return true;
}

void Connection::ReleaseWrites() {
  if (!holds_writes_) return;
  std::lock_guard<StatementMutex> guard(context_->Database().StatementLock());
  context_->Database().UnholdWriteLock();
  holds_writes_ = false;
}

namespace {

// A user function's name, parameter and return types checked and converted
// (std::invalid_argument naming the problem), for both kinds of call.
UserScalarFunction DeclareUserFunction(const std::string& name, bool has_function,
                                       const std::optional<std::vector<ColumnType>>& argument_types,
                                       const ColumnType& return_type, const ScalarFunctionOptions& options) {
  UserScalarFunction user;
  try {
    CheckUserFunctionName(name);
    if (!has_function) throw InvalidInputError("Cannot create function " + name + ": no function was given");
    if (argument_types) {
      user.argument_types.emplace();
      for (auto& type : *argument_types) user.argument_types->push_back(ValueConverter::ToEngine(type));
    }
    user.return_type = ValueConverter::ToEngine(return_type);
  } catch (const Exception& e) {
    throw std::invalid_argument(e.what());
  }
  user.name = name;
  user.deterministic = options.deterministic;
  return user;
}

}  // namespace

void Connection::CreateScalarFunction(const std::string& name, const std::optional<std::vector<ColumnType>>& argument_types,
                                      const ColumnType& return_type, ScalarFunction function,
                                      ScalarFunctionOptions options) {
  UserScalarFunction user = DeclareUserFunction(name, static_cast<bool>(function), argument_types, return_type, options);
  user.handles_nulls = options.handles_nulls;
  user.call = [function = std::move(function)](const std::vector<Value>& arguments) {
    std::vector<SqlValue> values;
    values.reserve(arguments.size());
    for (auto& v : arguments) values.push_back(ValueConverter::ToPublic(v));
    return ValueConverter::ToEngine(function(values));
  };
  context_->user_functions[StringUtil::Lower(name)] = std::move(user);
}

// The batch goes out as a QueryResult of one chunk and comes back as a
// ColumnarTable: the application reads and writes its columns through the
// public API it already uses for results and registered tables.
void Connection::CreateVectorizedScalarFunction(const std::string& name,
                                                const std::optional<std::vector<ColumnType>>& argument_types,
                                                const ColumnType& return_type, VectorizedScalarFunction function,
                                                ScalarFunctionOptions options) {
  UserScalarFunction user = DeclareUserFunction(name, static_cast<bool>(function), argument_types, return_type, options);
  user.handles_nulls = true;
  user.call_batch = [function = std::move(function), name](DataChunk& arguments, idx_t count, Vector& result) {
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    for (idx_t c = 0; c < arguments.ColumnCount(); c++) {
      names.push_back("a" + std::to_string(c));
      types.push_back(arguments.data[c].GetType());
    }
    auto batch = std::make_unique<QueryResult>(names, types);
    auto chunk = std::make_unique<DataChunk>();
    chunk->Initialize(types, count);
    for (idx_t c = 0; c < types.size(); c++) chunk->data[c].Copy(arguments.data[c], nullptr, count, 0, 0);
    chunk->SetCardinality(count);
    batch->Append(std::move(chunk));
    ColumnarTable out = function(std::move(batch));
    if (out.ColumnCount() != 1 || out.RowCount() != count) {
      throw InvalidInputError("User function " + name + " returned " + std::to_string(out.ColumnCount()) +
                              " column(s) of " + std::to_string(out.RowCount()) + " row(s) for a batch of " +
                              std::to_string(count) + " rows; a vectorized function returns one value per row");
    }
    std::shared_ptr<const ConnectionTable> rows = ConnectionAccess::TakeTable(out);
    idx_t offset = 0;
    for (idx_t k = 0; k < rows->rows->ChunkCount(); k++) {
      const DataChunk& part = rows->rows->Chunk(k);
      Vector cast(result.GetType(), part.size());
      try {
        CastVector(part.data[0], cast, part.size());
      } catch (const Exception& e) {
        throw ConversionError("User function " + name + " returned values that are not " +
                              result.GetType().ToString() + " (" + e.what() +
                              "); return that type or declare the function's return type as the one it returns");
      }
      result.Copy(cast, nullptr, part.size(), 0, offset);
      offset += part.size();
    }
  };
  context_->user_functions[StringUtil::Lower(name)] = std::move(user);
}


bool Connection::RemoveScalarFunction(const std::string& name) {
  return context_->user_functions.erase(StringUtil::Lower(name)) > 0;
}

std::unique_ptr<PreparedStatement> Connection::Prepare(const std::string& sql) {
  std::unique_ptr<PreparedStatement> prepared(new PreparedStatement());
  prepared->connection_ = this;
  try {
    prepared->statements_ = Parser::Parse(sql);
  } catch (const Exception& e) {
    prepared->error_ = e.what();
    prepared->error_kind_ = ToErrorKind(e.Type());
    return prepared;
  }
  for (auto& statement : prepared->statements_) {
    prepared->parameter_count_ = std::max<idx_t>(prepared->parameter_count_, statement->parameter_count);
    if (!statement->parameter_names.empty()) prepared->parameter_names_ = statement->parameter_names;
  }
  return prepared;
}

PreparedStatement::~PreparedStatement() = default;

std::unique_ptr<QueryResult> PreparedStatement::Execute(const std::vector<SqlValue>& params) {
  if (HasError()) {
    auto type = error_kind_ == ErrorKind::PARSER ? ExceptionType::PARSER : ExceptionType::INVALID_INPUT;
    return QueryResult::FromError(type, error_);
  }
  return Last(connection_->Run(statements_, params));
}

std::vector<std::string> SplitStatements(const std::string& sql) {
  // The lexer, not the parser: a statement with a syntax error still splits
  // off (and fails when it runs), and ';' inside strings and comments stays.
  std::vector<Token> tokens;
  try {
    tokens = Lexer::Tokenize(sql);
  } catch (const Exception& e) {
    throw std::invalid_argument(e.what());
  }
  std::vector<std::string> texts;
  size_t first = 0;  // first token of the current statement
  for (size_t i = 0; i < tokens.size(); i++) {
    bool end = tokens[i].type == TokenType::END_OF_INPUT ||
               (tokens[i].type == TokenType::OPERATOR && tokens[i].text == ";");
    if (!end) continue;
    if (i > first) texts.push_back(sql.substr(tokens[first].offset, tokens[i - 1].end - tokens[first].offset));
    first = i + 1;
  }
  return texts;
}

bool IsCompleteStatement(const std::string& sql) { return Lexer::IsComplete(sql); }

std::string CheckExpression(const std::string& text, bool select_item) {
  try {
    Parser::ParseExpressionText(text, select_item);
    return "";
  } catch (const Exception& e) {
    return e.RawMessage();
  }
}

std::string QuoteIdentifier(const std::string& name) { return QuoteSqlIdentifier(name); }

}  // namespace lakestream
