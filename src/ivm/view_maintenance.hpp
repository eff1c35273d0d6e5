// Auto materialized views kept up with their sources around statements
// (docs/views.md, "When auto views refresh"): after a statement that
// committed to a source (or, for DML, from the background maintainer,
// ivm/view_maintainer.hpp), and before a statement that may read a view.
// Each refresh is one view commit under the write lock that records the
// source versions it reflects (ivm/view_refresh.hpp).
#pragma once

#include "parser/ast.hpp"

namespace lakestream {

class ClientContext;

// Called after every statement that succeeded and may have committed to a
// table: brings the views in `auto` refresh mode up to date, each as its own
// commit. Must be cheap when nothing changed. A view whose refresh fails does
// not fail the statement (its own commit stands): the view is marked failed
// with the reason (SHOW MATERIALIZED VIEWS), keeps its last good rows, and the
// statement's result carries a warning. A failed view is tried again only
// once one of its sources moved (or by REFRESH MATERIALIZED VIEW).
void MaintainViewsAfterStatement(ClientContext& context);
// Called before every statement of a writable database: catches up the auto
// views that are behind their sources (see MaintainViewsAfterStatement),
// except the view the statement itself refreshes, replaces or drops.
void CatchUpViewsBeforeStatement(ClientContext& context, SQLStatement& statement);
// Adds a warning for each materialized view the statement read (ViewsRead)
// that is behind its sources: manual mode, failed, or a read-only database.
void WarnAboutStaleViewReads(ClientContext& context);

}  // namespace lakestream
