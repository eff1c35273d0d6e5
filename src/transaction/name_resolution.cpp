#include "transaction/name_resolution.hpp"

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "transaction/client_context.hpp"
#include "transaction/database_instance.hpp"

namespace lakestream {

std::string DatabaseName(const DatabaseInstance& db) {
  if (db.InMemory()) return "memory";
  std::string path = db.Path();
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string CurrentSchema(ClientContext& context) {
  std::optional<std::string> schema = context.GetCatalog().FindSchema(context.current_schema);
  return schema ? *schema : std::string(kDefaultSchema);
}

[[noreturn]] static void UnknownSchema(ClientContext& context, const std::string& schema, const std::string& written) {
  throw CatalogError("Schema " + schema + " does not exist (in " + written + "); the schemas are " +
                     StringUtil::Join(context.GetCatalog().SchemaNames(), ", ") + ". Create it with CREATE SCHEMA " + schema +
                     ", or name one of those.");
}

static void RequireThisCatalog(ClientContext& context, const std::string& catalog, const std::string& written) {
  std::string name = DatabaseName(context.Database());
  if (!StringUtil::CIEquals(catalog, name)) {
    throw CatalogError("Catalog " + catalog + " does not exist (in " + written + "); the one catalog is this database, " + name +
                       " (its directory's name). Write " + name + ".<schema>.<name>, or leave the catalog out.");
  }
}

std::string ResolveObjectName(ClientContext& context, const QualifiedName& name) {
  Catalog& catalog = context.GetCatalog();
  const auto& parts = name.parts;
  if (parts.empty()) throw InternalError("ResolveObjectName: an empty name");
  if (parts.size() == 1) {
    // A key of a schema other than main (a name already resolved, or a
    // quoted "s.t") stands for itself.
    if (catalog.SchemaOfKey(parts[0]) != kDefaultSchema) return parts[0];
    return catalog.ObjectKey(CurrentSchema(context), parts[0]);
  }
  if (parts.size() == 2) {
    if (std::optional<std::string> schema = catalog.FindSchema(parts[0])) return catalog.ObjectKey(*schema, parts[1]);
    // LIVE.t in a pipeline: the pipeline's schema, the current one.
    if (StringUtil::CIEquals(parts[0], "live")) return catalog.ObjectKey(CurrentSchema(context), parts[1]);
    if (StringUtil::CIEquals(parts[0], DatabaseName(context.Database()))) {
      return catalog.ObjectKey(CurrentSchema(context), parts[1]);
    }
    UnknownSchema(context, parts[0], name.ToString());
  }
  if (parts.size() == 3) {
    RequireThisCatalog(context, parts[0], name.ToString());
    std::optional<std::string> schema = catalog.FindSchema(parts[1]);
    if (!schema) UnknownSchema(context, parts[1], name.ToString());
    return catalog.ObjectKey(*schema, parts[2]);
  }
  throw BinderError("Name " + name.ToString() + " has " + std::to_string(parts.size()) +
                    " parts; a name is name, schema.name or catalog.schema.name");
}

// Splits 's.t', '"a.b"', 'db.s.t' at the dots outside double quotes and backticks
// (a quote opens only at a part's start: 'odd "x"' is one name).
static QualifiedName SplitName(const std::string& text) {
  QualifiedName name;
  std::string part;
  char quote = 0;
  for (size_t i = 0; i < text.size(); i++) {
    char c = text[i];
    if (quote) {
      if (c == quote && i + 1 < text.size() && text[i + 1] == quote) {
        part += c;
        i++;
      } else if (c == quote) {
        quote = 0;
      } else {
        part += c;
      }
    } else if ((c == '"' || c == '`') && part.empty() && (i == 0 || text[i - 1] == '.')) {
      quote = c;  // only a part's first character opens a quote
    } else if (c == '.') {
      name.parts.push_back(std::move(part));
      part.clear();
    } else {
      part += c;
    }
  }
  name.parts.push_back(std::move(part));
  return name;
}

std::string ResolveObjectName(ClientContext& context, const std::string& text) {
  Catalog& catalog = context.GetCatalog();
  std::string key = catalog.ObjectKey(CurrentSchema(context), text);
  for (const std::string& candidate : {text, key}) {
    if (catalog.FindTable(candidate) || catalog.FindStream(candidate) || catalog.FindView(candidate) || catalog.FindSink(candidate)) {
      return candidate;
    }
  }
  QualifiedName name = SplitName(text);
  for (auto& part : name.parts) {
    if (part.empty()) return key;  // not a dotted name ('a..b', '.x'): the object's own name
  }
  return ResolveObjectName(context, name);
}

std::string ResolveSchemaName(ClientContext& context, const QualifiedName& name) {
  const auto& parts = name.parts;
  if (parts.size() == 2) RequireThisCatalog(context, parts[0], name.ToString());
  if (parts.empty() || parts.size() > 2) {
    throw BinderError("Schema name " + name.ToString() + " must be schema or catalog.schema");
  }
  std::optional<std::string> schema = context.GetCatalog().FindSchema(parts.back());
  if (!schema) UnknownSchema(context, parts.back(), name.ToString());
  return *schema;
}

std::string ListedSchema(ClientContext& context, const ShowStatement& show) {
  return show.schema.parts.empty() ? CurrentSchema(context) : ResolveSchemaName(context, show.schema);
}

bool InSchema(ClientContext& context, const std::string& key, const std::string& schema) {
  return StringUtil::CIEquals(context.GetCatalog().SchemaOfKey(key), schema);
}

std::string NameInSchema(ClientContext& context, const std::string& key) { return context.GetCatalog().NameOfKey(key); }

SchemaScope::SchemaScope(ClientContext& context, std::string schema) : context_(context), saved_(context.current_schema) {
  context_.current_schema = std::move(schema);
}

SchemaScope::~SchemaScope() { context_.current_schema = saved_; }

static void Resolve(ClientContext& context, QualifiedName& name) {
  if (name.parts.empty()) return;
  std::string key = ResolveObjectName(context, name);
  name.parts = {key};
}

void ResolveStatementNames(ClientContext& context, SQLStatement& statement) {
  switch (statement.type) {
    case StatementType::EXPLAIN: {
      auto& explain = static_cast<ExplainStatement&>(statement);
      if (explain.statement) ResolveStatementNames(context, *explain.statement);
      return;
    }
    case StatementType::CREATE_TABLE: return Resolve(context, static_cast<CreateTableStatement&>(statement).name);
    case StatementType::CREATE_VIEW: {
      auto& view = static_cast<CreateViewStatement&>(statement);
      if (view.temporary) {
        if (view.name.parts.size() > 1) {
          throw BinderError("Temporary view " + view.name.ToString() + " has a schema: temporary views belong to the "
                            "connection, not to a schema; write CREATE TEMP VIEW " + view.name.Name());
        }
        return;
      }
      return Resolve(context, view.name);
    }
    case StatementType::CREATE_FLOW: return Resolve(context, static_cast<CreateFlowStatement&>(statement).target);
    case StatementType::CREATE_STREAM: {
      auto& stream = static_cast<CreateStreamStatement&>(statement);
      Resolve(context, stream.name);
      return Resolve(context, stream.table);
    }
    case StatementType::CREATE_SINK: {
      auto& sink = static_cast<CreateSinkStatement&>(statement);
      Resolve(context, sink.name);
      return Resolve(context, sink.source);
    }
    case StatementType::DROP: {
      auto& drop = static_cast<DropStatement&>(statement);
      // A temporary view is dropped by its own name.
      if (drop.object_type == ObjectType::VIEW && drop.name.parts.size() == 1 && context.TempViews().Find(drop.name.Name())) return;
      return Resolve(context, drop.name);
    }
    case StatementType::INSERT: return Resolve(context, static_cast<InsertStatement&>(statement).table);
    case StatementType::UPDATE: return Resolve(context, static_cast<UpdateStatement&>(statement).table);
    case StatementType::DELETE: return Resolve(context, static_cast<DeleteStatement&>(statement).table);
    case StatementType::MERGE: return Resolve(context, static_cast<MergeStatement&>(statement).target);
    case StatementType::ALTER_TABLE: {
      auto& alter = static_cast<AlterTableStatement&>(statement);
      Resolve(context, alter.table);
      // RENAME TO u keeps the table in its schema; RENAME TO s.u names the schema.
      if (alter.new_name.parts.size() == 1) {
        alter.new_name.parts = {context.GetCatalog().ObjectKey(context.GetCatalog().SchemaOfKey(alter.table.Name()),
                                                               alter.new_name.parts[0])};
        return;
      }
      return Resolve(context, alter.new_name);
    }
    case StatementType::SHOW: {
      auto& show = static_cast<ShowStatement&>(statement);
      if (show.show_type == ShowType::TBLPROPERTIES || show.show_type == ShowType::COLUMNS) Resolve(context, show.name);
      return;
    }
    case StatementType::DESCRIBE: {
      auto& describe = static_cast<DescribeStatement&>(statement);
      if (describe.describe_type == DescribeType::QUERY) return;
      if (describe.describe_type == DescribeType::TABLE && describe.name.parts.size() == 1 &&
          context.TempViews().Find(describe.name.Name())) {
        return;
      }
      return Resolve(context, describe.name);
    }
    case StatementType::COPY: return Resolve(context, static_cast<CopyStatement&>(statement).table);
    case StatementType::REFRESH: return Resolve(context, static_cast<RefreshStatement&>(statement).name);
    case StatementType::RUN_SINK: return Resolve(context, static_cast<RunSinkStatement&>(statement).name);
    case StatementType::ALTER_SINK: return Resolve(context, static_cast<AlterSinkStatement&>(statement).name);
    case StatementType::OPTIMIZE: return Resolve(context, static_cast<OptimizeStatement&>(statement).table);
    case StatementType::VACUUM: return Resolve(context, static_cast<VacuumStatement&>(statement).table);
    case StatementType::APPLY_CHANGES: {
      auto& apply = static_cast<ApplyChangesStatement&>(statement);
      Resolve(context, apply.target);
      return Resolve(context, apply.source);
    }
    default: return;
  }
}

}  // namespace lakestream
