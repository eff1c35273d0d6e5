// What a streaming table's query means when it cannot append increments.
//
// A streaming table appends, at each refresh, what its query returns for the
// rows its streaming reads (STREAM(t), read_files, read_kafka) have not seen.
// Two forms written in pipelines cannot mean that (docs/pipelines.md,
// "Streaming tables that are not streams"):
//   * a query with no streaming read (`FROM LIVE.silver`, the old
//     INCREMENTAL LIVE TABLE habit): nothing ever counts as new, so the
//     table would stay empty for ever;
//   * a GROUP BY over STREAM(t): each refresh would append the aggregates of
//     the new rows alone, one partial row per group and run.
// Where the author's intent is unambiguous (every streaming read is of a
// table or view), the statement becomes the maintained aggregate they meant:
// a materialized view of the same query with STREAM removed, with a warning
// naming the modern form. Where it is not (a GROUP BY straight over files or
// Kafka, declared columns, STREAM ... WITH options), an error at plan time
// names the fix. Never silent emptiness.
#pragma once

#include <memory>

namespace lakestream {

class ClientContext;
struct CreateViewStatement;

// The materialized view `stmt` (a streaming table with a query, not a flow)
// stands for, or null when it is a streaming table as written. May drop an
// existing streaming table of that name that holds no rows (an earlier run
// created it empty); throws InvalidInputError / CatalogError naming the fix
// where the intent is ambiguous or rows would be lost. Adds the warning.
std::unique_ptr<CreateViewStatement> IntendedMaterializedView(ClientContext& context, const CreateViewStatement& stmt);

}  // namespace lakestream
