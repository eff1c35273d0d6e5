// Type inference for read_files() and how inferred schemas merge, across the
// records of a file, across files, and with the schema a streaming table
// already stores (schema evolution). Pure functions of types and JSON
// values: no I/O, so the rules are tested on their own (test/unit).
//
// Inference (Databricks read_files with inferColumnTypes on):
//   JSON object -> STRUCT (fields in first-seen order), array -> ARRAY of the
//   merged element type, integer -> BIGINT, other number -> DOUBLE (DECIMAL(p,s)
//   of its shortest decimal form with prefersDecimal), true/false -> BOOLEAN, an ISO-8601 date string ->
//   DATE, an ISO-8601 date-time string (with or without an offset) ->
//   TIMESTAMP, other strings -> VARCHAR, null -> NULL (fixes nothing).
// Merging: NULL yields to anything; BIGINT + DOUBLE = DOUBLE; DECIMALs and
//   BIGINT widen to a DECIMAL holding both; DATE + TIMESTAMP = TIMESTAMP;
//   STRUCTs merge field by field (new fields appended); ARRAYs merge their
//   elements; any other pair (a STRUCT and a number, BOOLEAN and BIGINT, ...)
//   is VARCHAR, which holds any JSON value as its text.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "function/table/read_files_options.hpp"

namespace lakestream {

// What a streaming table's read_files() source does with a column or nested
// field that files ingested later have and its stored schema lacks
// (Databricks' schemaEvolutionMode).
enum class SchemaEvolutionMode : uint8_t {
  DEFAULT,              // ADD_NEW_COLUMNS when the schema is inferred, NONE when declared
  ADD_NEW_COLUMNS,      // add it to the schema (and the table) in the same commit as the rows
  RESCUE,               // never change the schema; unknown fields go to the rescue column
  FAIL_ON_NEW_COLUMNS,  // fail the update, naming the file and the column
  NONE                  // ignore it
};

// read_files() options about inference and evolution, beyond ReadFilesOptions:
//   prefersDecimal => true, schemaEvolutionMode => 'addNewColumns' | 'rescue' |
//   'failOnNewColumns' | 'none' (also spelled cloudFiles.schemaEvolutionMode).
struct EvolutionOptions {
  bool prefers_decimal = false;
  SchemaEvolutionMode mode = SchemaEvolutionMode::DEFAULT;
};
// BinderError for a bad value, or addNewColumns with a declared schema.
EvolutionOptions ParseEvolutionOptions(const std::vector<Value>& args, const std::vector<std::string>& names,
                                       const ReadFilesOptions& options);

// schemaHints: a column list whose names may be paths into STRUCT columns
// ('a.b INT, c STRING': field b of column a). HintPath splits a hint's name
// into its path (one element for a plain column).
FileSchema ParseSchemaHints(const std::string& text);
std::vector<std::string> HintPath(const std::string& name);

struct InferOptions {
  bool prefers_decimal = false;  // non-integral numbers as DECIMAL(p,s) instead of DOUBLE
  bool infer_strings = true;     // ISO dates/timestamps in strings as DATE/TIMESTAMP
};

// The type of one JSON value (SQLNULL for null; an empty object is an empty
// STRUCT, resolved by FinishInferredType).
LogicalType InferJsonValueType(const nlohmann::ordered_json& value, const InferOptions& options);
// DATE for "2024-01-31", TIMESTAMP for "2024-01-31T10:00[:00[.123]][Z|+02:00]"
// (a space may stand for the T), VARCHAR for anything else.
LogicalType InferStringType(const std::string& s);
// The common type of two inferred types (rules above).
LogicalType MergeInferredTypes(const LogicalType& a, const LogicalType& b);
// The type a column gets once inference ends: NULL and empty STRUCTs become
// VARCHAR (at any depth); with infer_types false every leaf becomes VARCHAR
// (structs and arrays keep their shape, as Auto Loader does for JSON).
// With resolve_nulls false, NULL and empty STRUCTs stay (for comparing with a
// stored schema, where a field seen only as null must not count as new).
LogicalType FinishInferredType(const LogicalType& type, bool infer_types, bool resolve_nulls = true);

// How a stored schema differs from a newer inferred one.
struct SchemaChange {
  enum class Kind : uint8_t { NEW_COLUMN, NEW_FIELD, TYPE_CHANGE };
  Kind kind;
  std::string path;  // "a" or "a.b.c" ("a.element.b" inside arrays)
  LogicalType stored;    // TYPE_CHANGE: the stored type
  LogicalType incoming;  // the newer type (of the new column or field)
};

// What `incoming` adds to `stored`: new top-level columns, new fields at any
// depth of a STRUCT (also inside arrays and map values), and types that
// differ where the stored one cannot hold the incoming values (VARCHAR holds
// anything; BIGINT cannot hold DOUBLE). Names match case-insensitively.
std::vector<SchemaChange> DiffSchemas(const FileSchema& stored, const FileSchema& incoming);

// `stored` with the new columns and fields of `incoming` appended (stored
// types otherwise kept); with `widen`, stored types also widen where Delta's
// type widening applies on its own (DeltaWidensOnEvolution in
// storage/table/schema_evolution.hpp).
FileSchema AddNewFields(const FileSchema& stored, const FileSchema& incoming, bool widen);
LogicalType AddNewFields(const LogicalType& stored, const LogicalType& incoming, bool widen);

// "a STRUCT<b: BIGINT>" style text for messages.
std::string TypeForMessage(const LogicalType& type);

}  // namespace lakestream
