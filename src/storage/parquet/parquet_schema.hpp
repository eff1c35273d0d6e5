// Maps a Parquet schema (flat list of SchemaElements) to the engine's types,
// and describes how to reassemble nested values from repetition/definition
// levels. Internal to the Parquet reader.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "common/types.hpp"
#include "storage/parquet/parquet_metadata.hpp"

namespace lakestream::parquet {

// How a leaf's physical values become engine values.
enum class Conv : uint8_t {
  BOOL, COPY4, COPY8, I32_TO_I64, U32_TO_I64, FLOAT_TO_DOUBLE, I64_MILLIS_TO_MICROS, I64_NANOS_TO_MICROS,
  I32_MILLIS_TO_MICROS, INT96_TO_TS, I32_DEC, I64_DEC, BIN_DEC, STR,
};

struct LeafDesc {
  std::string path;  // dotted, for messages
  PhysicalType physical = PhysicalType::BOOLEAN;
  int32_t type_length = 0;
  int max_def = 0;
  int max_rep = 0;
  LogicalType type;  // engine type of the decoded values
  Conv conv = Conv::COPY4;
  bool unsigned_int = false;
};

// A node of the engine-side value tree.
struct ENode {
  enum Kind { LEAF, STRUCT, LIST } kind = LEAF;
  LogicalType type;
  std::string name;
  std::optional<int32_t> field_id;  // the element's field_id (Iceberg, Delta column mapping mode id)
  int def_level = 0;  // the value is non-NULL iff def >= def_level
  int rep_def = 0;    // LIST: the list has >= 1 element iff def >= rep_def
  int rep_level = 0;  // LIST: repetition level of its elements
  idx_t leaf = 0;     // LEAF: index into leaves
  idx_t leaf_begin = 0, leaf_end = 0;  // leaves under this node
  std::vector<std::unique_ptr<ENode>> children;  // STRUCT fields or LIST element
};

struct ParquetSchema {
  std::vector<LeafDesc> leaves;
  std::vector<std::unique_ptr<ENode>> columns;  // top-level
};

// Builds the schema; returns Corruption / NotSupported with `file` in the message.
Status BuildSchema(const std::string& file, const std::vector<SchemaElement>& elements, ParquetSchema& out);

}  // namespace lakestream::parquet
