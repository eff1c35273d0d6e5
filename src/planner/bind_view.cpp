// Plain views (CREATE VIEW): a view is its stored SQL, parsed and bound
// where it is read, like a subquery in FROM. Nothing about the tables it
// reads is remembered, so a view sees their current schema and rows; a
// table dropped (or changed) under it is reported when the view is read,
// naming the view.
#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "parser/parser.hpp"
#include "planner/binder.hpp"
#include "transaction/client_context.hpp"
#include "transaction/name_resolution.hpp"

namespace lakestream {

const ViewCatalogEntry* Binder::FindView(const std::string& name) const {
  if (const ViewCatalogEntry* temp = context_.TempViews().Find(name)) return temp;
  return context_.GetCatalog().FindView(name);
}

// "View v cannot be read: <why>. <fix>" (or, for CREATE VIEW, "Cannot
// create view v: <why>"), keeping the kind of the error.
[[noreturn]] static void ThrowViewError(const ViewCatalogEntry& view, const Exception& e, bool creating) {
  if (creating) {
    throw Exception(e.Type(), "Cannot create view " + view.name + ": " + e.RawMessage() +
                                  (!e.RawMessage().empty() && e.RawMessage().back() == '.' ? "" : ".") + " Fix the view's query and run CREATE VIEW again");
  }
  throw Exception(e.Type(), "View " + view.name + " cannot be read: " + e.RawMessage() +
                                " (the view's query is: " + view.definition +
                                "). Recreate what it reads, or redefine it with CREATE OR REPLACE VIEW " + view.name +
                                " AS ...");
}

LogicalOperatorPtr Binder::BindView(const ViewCatalogEntry& view, const TableRef* ref, BindContext& scope, bool creating) {
  if (ref && (ref->version_as_of || ref->timestamp_as_of)) {
    throw BinderError("Time travel (VERSION/TIMESTAMP AS OF) applies to tables, not to the view " + view.name +
                      "; read the tables of its query AS OF a version instead");
  }
  if (ref && ref->stream_function) {
    throw BinderError("STREAM(" + view.name + "): " + view.name +
                      " is a plain view, which has no change feed of its own; read STREAM() of the tables it reads");
  }
  for (const Binder* b = this; b; b = b->parent_) {
    if (b->binding_view_ && StringUtil::CIEquals(b->binding_view_->name, view.name)) {
      throw BinderError("View " + view.name + " reads itself, directly or through another view; redefine one of them with "
                        "CREATE OR REPLACE VIEW so that no view reads itself");
    }
  }
  Binder* root = this;
  while (root->parent_) root = root->parent_;
  std::unique_ptr<QueryNode> node;
  try {
    node = Parser::ParseQuery(view.definition);
  } catch (const Exception& e) {
    ThrowViewError(view, e, creating);
  }
  const QueryNode& query = *node;
  root->view_queries_.push_back(std::move(node));

  Binder sub(context_, this);
  sub.binding_view_ = &view;
  BoundQuery bound;
  // The view's unqualified names are of the view's schema, whichever is current.
  SchemaScope view_schema(context_, view.temporary ? CurrentSchema(context_) : context_.GetCatalog().SchemaOfKey(view.name));
  try {
    bound = sub.BindQuery(query);
  } catch (const InterruptError&) {
    throw;
  } catch (const Exception& e) {
    // An inner view's error already says which view and what to do.
    if (StringUtil::StartsWith(e.RawMessage(), "View ") && e.RawMessage().find(" cannot be read: ") != std::string::npos) throw;
    ThrowViewError(view, e, creating);
  }
  if (view.column_aliases.size() > bound.names.size()) {
    throw BinderError("View " + view.name + " names " + std::to_string(view.column_aliases.size()) +
                      " columns but its query has " + std::to_string(bound.names.size()) +
                      "; list at most as many names as the query has columns");
  }
  BindEntry entry;
  entry.alias = ref && !ref->alias.empty() ? ref->alias : NameInSchema(context_, view.name);
  entry.names = bound.names;
  for (idx_t i = 0; i < view.column_aliases.size(); i++) entry.names[i] = view.column_aliases[i];
  if (ref) {
    for (idx_t i = 0; i < ref->column_aliases.size() && i < entry.names.size(); i++) entry.names[i] = ref->column_aliases[i];
  }
  entry.types = bound.types;
  entry.bindings = bound.plan->GetBindings();
  scope.Add(std::move(entry));
  return std::move(bound.plan);
}

}  // namespace lakestream
