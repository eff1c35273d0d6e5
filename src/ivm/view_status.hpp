// Whether a materialized view is current, behind its sources, or failed, and
// what to tell the user about it.
//
// A refresh that fails (a row its query cannot compute, a source dropped or
// renamed, storage that cannot be opened) leaves the view as it was: its rows
// stay those of its last good refresh, like a Snowflake dynamic table. The
// failure is recorded in the view's catalog state so it survives a restart:
//   "status": "failed", "error": <the refresh's error>,
//   "failed_at": {<source>: <version it had then, -1 when missing>}
// The automatic refresh tries a failed view again only once a source moved
// past "failed_at" (the same input fails the same way); REFRESH MATERIALIZED
// VIEW always tries. A successful refresh erases the record.
#pragma once

#include <string>

namespace lakestream {

class ClientContext;
struct TableCatalogEntry;

// Records that refreshing `view` failed with `error` and saves the catalog;
// a catalog that cannot be saved keeps the record in memory only (the
// refresh is tried again after the next open).
void MarkViewFailed(ClientContext& context, TableCatalogEntry& view, const std::string& error);
// The recorded error of the view's last refresh, "" when it did not fail.
std::string ViewFailure(const TableCatalogEntry& view);
// True when the view failed and no source moved since: retrying now would
// fail the same way.
bool ViewFailedAtCurrentSources(ClientContext& context, TableCatalogEntry& view);

// "failed", "stale" (behind a source), or "current".
std::string ViewStatus(ClientContext& context, TableCatalogEntry& view);
// "" when the view reflects every source's current version; otherwise one
// sentence for a reader: which source it is behind (its version and the
// source's), why (failed with the error, manual mode, read-only database),
// and the fix.
std::string ViewBehindReport(ClientContext& context, TableCatalogEntry& view);

}  // namespace lakestream
