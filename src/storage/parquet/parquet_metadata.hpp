// The subset of the Parquet footer and page-header structures (parquet.thrift)
// that lakestream reads and writes, with compact-protocol (de)serialisation.
// Unknown fields are skipped on read. Field ids follow parquet-format.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/parquet/thrift_compact.hpp"

namespace lakestream::parquet {

enum class PhysicalType : int32_t {
  BOOLEAN = 0, INT32 = 1, INT64 = 2, INT96 = 3, FLOAT = 4, DOUBLE = 5, BYTE_ARRAY = 6, FIXED_LEN_BYTE_ARRAY = 7,
};
enum class ConvertedType : int32_t {
  UTF8 = 0, MAP = 1, MAP_KEY_VALUE = 2, LIST = 3, ENUM = 4, DECIMAL = 5, DATE = 6, TIME_MILLIS = 7,
  TIME_MICROS = 8, TIMESTAMP_MILLIS = 9, TIMESTAMP_MICROS = 10, UINT_8 = 11, UINT_16 = 12, UINT_32 = 13,
  UINT_64 = 14, INT_8 = 15, INT_16 = 16, INT_32 = 17, INT_64 = 18, JSON = 19, BSON = 20, INTERVAL = 21,
};
enum class Repetition : int32_t { REQUIRED = 0, OPTIONAL = 1, REPEATED = 2 };
enum class Encoding : int32_t {
  PLAIN = 0, PLAIN_DICTIONARY = 2, RLE = 3, BIT_PACKED = 4, DELTA_BINARY_PACKED = 5,
  DELTA_LENGTH_BYTE_ARRAY = 6, DELTA_BYTE_ARRAY = 7, RLE_DICTIONARY = 8, BYTE_STREAM_SPLIT = 9,
};
enum class Codec : int32_t {
  UNCOMPRESSED = 0, SNAPPY = 1, GZIP = 2, LZO = 3, BROTLI = 4, LZ4 = 5, ZSTD = 6, LZ4_RAW = 7,
};
enum class PageType : int32_t { DATA_PAGE = 0, INDEX_PAGE = 1, DICTIONARY_PAGE = 2, DATA_PAGE_V2 = 3 };

// LogicalType union, flattened. kind: 0 = none, else the union field id.
struct LogicalTypeAnnotation {
  enum Kind : int16_t {
    NONE = 0, STRING = 1, MAP = 2, LIST = 3, ENUM = 4, DECIMAL = 5, DATE = 6, TIME = 7, TIMESTAMP = 8,
    INTEGER = 10, UNKNOWN = 11, JSON = 12, BSON = 13, UUID = 14, FLOAT16 = 15,
  };
  int16_t kind = NONE;
  int32_t scale = 0, precision = 0;   // DECIMAL
  bool adjusted_to_utc = false;       // TIME, TIMESTAMP
  int16_t unit = 0;                   // TIME, TIMESTAMP: 1 millis, 2 micros, 3 nanos
  int8_t bit_width = 0;               // INTEGER
  bool is_signed = true;              // INTEGER
};

struct SchemaElement {
  std::optional<PhysicalType> type;
  int32_t type_length = 0;
  std::optional<Repetition> repetition;
  std::string name;
  int32_t num_children = 0;
  std::optional<ConvertedType> converted_type;
  int32_t scale = 0, precision = 0;
  std::optional<int32_t> field_id;
  LogicalTypeAnnotation logical;
};

struct Statistics {
  std::optional<std::string> max, min;              // legacy (signed order)
  std::optional<int64_t> null_count, distinct_count;
  std::optional<std::string> max_value, min_value;  // column-order aware
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::BOOLEAN;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  Codec codec = Codec::UNCOMPRESSED;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
};

struct ColumnChunk {
  std::string file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
};

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::string created_by;
  int32_t num_column_orders = 0;  // TYPE_ORDER for each leaf when written
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  Encoding definition_level_encoding = Encoding::RLE;
  Encoding repetition_level_encoding = Encoding::RLE;
  std::optional<Statistics> statistics;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  bool is_sorted = false;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0, num_nulls = 0, num_rows = 0;
  Encoding encoding = Encoding::PLAIN;
  int32_t definition_levels_byte_length = 0, repetition_levels_byte_length = 0;
  bool is_compressed = true;
  std::optional<Statistics> statistics;
};

struct PageHeader {
  PageType type = PageType::DATA_PAGE;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
};

// Readers: return false (with r.error()) on malformed input.
bool ReadFileMetaData(TReader& r, FileMetaData& md);
bool ReadPageHeader(TReader& r, PageHeader& ph);

void WriteFileMetaData(TWriter& w, const FileMetaData& md);
void WritePageHeader(TWriter& w, const PageHeader& ph);

}  // namespace lakestream::parquet
