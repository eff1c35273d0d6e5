#include "ivm/compiled_view.hpp"

#include "catalog/catalog.hpp"
#include "common/string_util.hpp"
#include "planner/logical_plan.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"

namespace lakestream {

IvmCounters& GetIvmCounters() {
  static IvmCounters counters;
  return counters;
}

ViewRuntime& RuntimeOf(TableCatalogEntry& view) {
  if (!view.runtime) view.runtime = std::make_shared<ViewRuntime>();
  return *std::static_pointer_cast<ViewRuntime>(view.runtime);
}

// What binding read of `table` that a bound plan depends on.
static std::string SchemaStamp(const TableCatalogEntry& table) {
  std::string out = std::to_string(static_cast<int>(table.kind));
  for (auto& c : table.columns) out += "|" + c.name + " " + c.type.ToString() + (c.not_null ? "!" : "");
  out += "|key";
  for (auto& k : table.primary_key) out += " " + k;
  for (auto& [key, value] : table.properties) out += "|" + key + "=" + value;
  return out;
}

// Every plain and temporary view's name and definition: a view's plan holds
// the expansion of those it reads.
static std::string PlainViewsStamp(ClientContext& context) {
  std::string out;
  Catalog& catalog = context.GetCatalog();
  for (auto& name : catalog.ViewNames()) {
    const ViewCatalogEntry* view = catalog.FindView(name);
    if (!view) continue;
    out += name + "=" + view->definition + "(" + StringUtil::Join(view->column_aliases, ",") + ");";
  }
  auto& temp = context.TempViews();
  for (auto& name : temp.Names()) {
    const ViewCatalogEntry* view = temp.Find(name);
    if (!view) continue;
    out += "temp " + name + "=" + view->definition + "(" + StringUtil::Join(view->column_aliases, ",") + ");";
  }
  return out;
}

bool CompiledView::Current(ClientContext& context, const std::string& definition) const {
  if (definition != definition_) return false;
  Catalog& catalog = context.GetCatalog();
  for (auto& source : sources_) {
    // Pointers are compared before anything is read through them: a dropped
    // entry's address is never followed.
    TableCatalogEntry* entry = catalog.FindTable(source.name);
    if (entry != source.entry || !entry || entry->storage.get() != source.storage || SchemaStamp(*entry) != source.schema) {
      return false;
    }
  }
  return PlainViewsStamp(context) == plain_views_;
}

LogicalOperatorPtr CompiledView::Plan(ClientContext& context) const {
  if (plan_) return CopyLogicalPlan(*plan_);
  SchemaScope schema(context, schema_);
  Binder binder(context);
  return BindViewQuery(binder, definition_).plan;
}

std::shared_ptr<const CompiledView> CompileView(ClientContext& context, TableCatalogEntry& view) {
  ViewRuntime& runtime = RuntimeOf(view);
  if (runtime.compiled && runtime.compiled->Current(context, view.definition)) return runtime.compiled;
  GetIvmCounters().compiles++;
  auto compiled = std::make_shared<CompiledView>();
  compiled->definition_ = view.definition;
  compiled->schema_ = context.GetCatalog().SchemaOfKey(view.name);
  SchemaScope schema(context, compiled->schema_);
  compiled->plain_views_ = PlainViewsStamp(context);
  Binder binder(context);
  BoundQuery query = BindViewQuery(binder, view.definition);
  compiled->analysis = AnalyzeBoundView(binder, query.plan);
  std::vector<LogicalOperatorPtr*> scans;
  CollectScans(query.plan, scans);
  for (auto* scan : scans) {
    const LogicalOperator& get = **scan;
    if (!get.table) continue;
    compiled->sources_.push_back({get.table->name, get.table, get.table->storage.get(), SchemaStamp(*get.table)});
  }
  compiled->free_table_index_ = binder.NextTableIndex();
  if (compiled->analysis.kind != MaintenanceKind::RECOMPUTE) compiled->plan_ = std::move(query.plan);
  runtime.compiled = compiled;
  return compiled;
}

}  // namespace lakestream
