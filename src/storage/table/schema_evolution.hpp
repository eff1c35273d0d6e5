// Reading rows written under an older schema of the same table. A table's
// schema evolves by adding top-level columns, adding fields to STRUCT columns
// (at any depth, also inside ARRAY elements and MAP values) and, with Delta
// type widening, widening numeric types; data files keep the schema they were
// written with. These helpers say whether a file's type is an older form of
// the table's type and convert its values: a missing field reads as NULL,
// fields are matched by name, widened numbers are cast.
#pragma once

#include <vector>

#include "common/types.hpp"
#include "common/value.hpp"
#include "common/vector.hpp"
#include "storage/data_table.hpp"

namespace lakestream {

// The index of STRUCT field `name` in `fields`: an exact match first, then a
// case-insensitive one; -1 when there is none.
int64_t FindStructField(const child_list_t& fields, const std::string& name);

// True when values of `older` become values of `newer` by the rules above
// (equal types included).
bool TypeEvolvesTo(const LogicalType& older, const LogicalType& newer);

// Delta type widening (PROTOCOL "Type Widening") in the engine's types, where
// INTEGER stands for byte, short and int and DOUBLE for float: INTEGER ->
// BIGINT, DOUBLE or DECIMAL(10 + k1, k2); BIGINT -> DECIMAL(20 + k1, k2);
// DECIMAL(p, s) -> DECIMAL(p + k1, s + k2); DATE -> TIMESTAMP_NTZ (k1 >= k2
// >= 0). Equal types count. BIGINT -> DOUBLE is not allowed: it loses digits.
bool DeltaAllowsWidening(const LogicalType& from, const LogicalType& to);
// The part of it that schema evolution applies by itself (as Delta and
// Databricks do): INTEGER -> BIGINT, DECIMAL -> a wider DECIMAL, DATE ->
// TIMESTAMP_NTZ. Integers become DOUBLE or DECIMAL only when asked for (ALTER
// COLUMN ... TYPE), so that a stray fraction does not change a column's type.
bool DeltaWidensOnEvolution(const LogicalType& from, const LogicalType& to);

// A leaf (non-nested) type that differs between two forms of a column.
struct TypeChange {
  std::string path;  // "c", "c.field", "c.element", "c.key", "c.value"
  LogicalType from;
  LogicalType to;
};
// Appends the leaves of `older` whose type differs in `newer` (STRUCT fields
// matched by name; fields only `newer` has are additions, not changes) to
// `out`; `path` names `older` itself.
void LeafTypeChanges(const LogicalType& older, const LogicalType& newer, const std::string& path,
                     std::vector<TypeChange>& out);

// `value` (of a type that evolves to `target`) as a value of `target`.
Value ConformValue(const Value& value, const LogicalType& target);
// The same for any pair of types: STRUCT fields matched by name (fields
// `target` lacks are dropped, fields `value` lacks are NULL), leaves cast.
// False when a leaf does not cast.
bool TryConformValue(const Value& value, const LogicalType& target, Value& out);

// Rows [0, count) of `source` conformed into `result` (whose type is the target).
void ConformVector(const Vector& source, Vector& result, idx_t count);

// The columns the commits this thread makes while it lives evolve their table
// to: the same columns in the same order (STRUCTs may gain fields), then new
// ones. DeltaTable::Commit writes them as the commit's metaData action with
// the rows (which are in these columns), so the schema change and the data
// are one Delta version. (A side channel rather than a TableCommit field so
// that storage/data_table.hpp, which nearly every file includes, stays as it is.)
class SchemaEvolutionScope {
 public:
  explicit SchemaEvolutionScope(const std::vector<TableColumn>* columns);
  ~SchemaEvolutionScope();
  SchemaEvolutionScope(const SchemaEvolutionScope&) = delete;
  SchemaEvolutionScope& operator=(const SchemaEvolutionScope&) = delete;
  // nullptr when no scope is active.
  static const std::vector<TableColumn>* Current();

 private:
  const std::vector<TableColumn>* previous_;
};

}  // namespace lakestream
