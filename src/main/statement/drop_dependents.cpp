#include "main/statement/drop_dependents.hpp"

#include "catalog/catalog.hpp"
#include "catalog/object_folder.hpp"
#include "common/crash_point.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "connector/secret_use.hpp"
#include "ivm/aggregate_maintainer.hpp"
#include "parser/ast.hpp"
#include "sink/sink_runner.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

namespace {

struct Dependent {
  std::string kind;  // "materialized view" | "stream" | "sink"
  std::string name;
  std::string Text() const { return kind + " " + name; }
};

// `views`: materialized views count (the object is a materialized view).
std::vector<Dependent> DirectDependents(Catalog& catalog, const std::string& name, bool views) {
  std::vector<Dependent> out;
  std::string key = StringUtil::Lower(name);
  for (auto& view_name : views ? catalog.TableNames(TableKind::MATERIALIZED_VIEW) : std::vector<std::string>()) {
    TableCatalogEntry* view = catalog.FindTable(view_name);
    if (view && !StringUtil::CIEquals(view->name, name) && view->state.sources && view->state.sources->count(key)) {
      out.push_back({"materialized view", view->name});
    }
  }
  for (auto& stream_name : catalog.StreamNames()) {
    StreamCatalogEntry* stream = catalog.FindStream(stream_name);
    if (stream && StringUtil::CIEquals(stream->source, name)) out.push_back({"stream", stream->name});
  }
  for (auto& sink_name : catalog.SinkNames()) {
    SinkCatalogEntry* sink = catalog.FindSink(sink_name);
    if (sink && StringUtil::CIEquals(sink->source, name)) out.push_back({"sink", sink->name});
  }
  return out;
}

void DropOne(ClientContext& context, const Dependent& dependent) {
  Catalog& catalog = context.GetCatalog();
  // Its own readers first: a crash part way leaves nothing that reads a dropped object.
  bool view = dependent.kind == "materialized view";
  for (auto& inner : DirectDependents(catalog, dependent.name, view)) DropOne(context, inner);
  if (dependent.kind == "sink") {
    SinkCatalogEntry* sink = catalog.FindSink(dependent.name);
    if (!sink) return;
    ForgetSinkSession(context, *sink);
    std::string id = sink->Id();
    catalog.DropSink(dependent.name, true);
    context.Database().SaveCatalog();
    DropSinkSecret(context, dependent.name);
    RemoveDroppedSinkLease(context, id);
  } else if (dependent.kind == "stream") {
    catalog.DropStream(dependent.name, true);
    context.Database().SaveCatalog();
  } else if (TableCatalogEntry* view = catalog.FindTable(dependent.name)) {
    RemoveTable(context, *view);
  }
}

}  // namespace

void DropDependentsOrRefuse(ClientContext& context, const DropStatement& stmt, const std::string& what,
                            const std::string& name) {
  std::vector<Dependent> dependents = DirectDependents(context.GetCatalog(), name, what == "materialized view");
  if (dependents.empty()) return;
  if (stmt.cascade) {
    context.Database().RequireWritable("DROP " + StringUtil::Upper(what) + " ... CASCADE");
    for (auto& d : dependents) DropOne(context, d);
    return;
  }
  std::vector<std::string> list, drops;
  for (auto& d : dependents) {
    list.push_back(d.Text());
    drops.push_back("DROP " + StringUtil::Upper(d.kind) + " " + d.name);
  }
  bool one = dependents.size() == 1;
  throw CatalogError("Cannot drop " + what + " " + name + ": " + StringUtil::Join(list, ", ") + (one ? " reads" : " read") +
                     " it, and " + (one ? "its" : "their") + " position in it would be lost (a " + what +
                     " created again under the name is another one). Drop " + (one ? "it" : "them") + " first (" +
                     StringUtil::Join(drops, "; ") + "), or drop " + (one ? "it" : "them") + " together with " + name +
                     " with DROP " + StringUtil::Upper(what) + " " + name + " CASCADE");
}

void RemoveTable(ClientContext& context, TableCatalogEntry& table) {
  DatabaseInstance& db = context.Database();
  TableCatalogEntry doomed;
  doomed.name = table.name;
  doomed.kind = table.kind;
  doomed.location = table.location;
  doomed.managed = table.managed;
  db.MarkUnregistered(doomed);
  context.GetCatalog().DropTable(doomed.name, false);
  db.SaveCatalog();
  CrashPoint("drop.after_catalog_save");
  db.DropTableStorage(doomed);
  if (doomed.kind == TableKind::MATERIALIZED_VIEW) {
    // Best effort, and never through a symlink (object_folder.hpp).
    (void)RemoveOwnedFolder(db.Path(), AggregateMaintainer::StateDirectory(context, doomed.name));
  }
}

}  // namespace lakestream
