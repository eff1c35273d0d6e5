// ParquetColumnWriter: the pages and column chunk of one leaf column of a
// Parquet file being written (ParquetWriter, parquet_writer.hpp, assembles
// the file: schema, row groups, footer; nested columns are shredded there
// into level entries that end up here).
//
// A column chunk is built in memory: values go to the current data page
// (RLE_DICTIONARY ids while the chunk's dictionary stays under its limit and
// pays off, PLAIN otherwise), pages end at the target size, and
// FinishChunk() returns the chunk's bytes (dictionary page, then data pages)
// with its footer metadata, then starts the next chunk. Statistics
// (min/max/null count) are kept per chunk.
//
// Internal to storage/parquet; not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/value.hpp"
#include "common/vector.hpp"
#include "storage/parquet/parquet_metadata.hpp"

namespace lakestream {

// What a file's column writers share: its settings and one set of scratch
// buffers (a page is built, compressed and framed in them, one at a time).
struct ParquetColumnSettings {
  parquet::Codec codec = parquet::Codec::ZSTD;
  int compression_level = 0;
  idx_t page_size = 1ULL << 20;       // target uncompressed data page size
  idx_t uncompressed_below = 0;       // ParquetWriterOptions::uncompressed_below
  std::string page_body, page_comp, header;
};

class ParquetColumnWriter {
 public:
  // The physical form of the column's values.
  enum class Kind { BOOL, I32, I64, DOUBLE, DEC32, DEC64, DECFLBA, STR };

  // `path`: the column's path in the schema; `type` its engine type, stored
  // as `kind`/`physical` (`flba_len`: bytes of a FIXED_LEN_BYTE_ARRAY
  // decimal); `max_def`/`max_rep` its levels. `dictionary`: whether its
  // chunks start with a dictionary (of at most `dictionary_max_bytes`).
  ParquetColumnWriter(std::vector<std::string> path, const LogicalType& type, Kind kind, parquet::PhysicalType physical,
                      int flba_len, int max_def, int max_rep, bool dictionary, size_t dictionary_max_bytes,
                      ParquetColumnSettings* settings);

  int MaxDef() const { return max_def_; }
  int MaxRep() const { return max_rep_; }
  // Level entries in the chunk so far.
  int64_t ChunkValues() const { return chunk_values_; }
  // Whether the chunk holds no row (no entry).
  bool ChunkEmpty() const { return chunk_values_ == 0; }
  // Bytes of the chunk so far (pages written plus an estimate of the current page).
  size_t ChunkBytesEstimate() const { return chunk_.size() + PageBytesEstimate(); }
  // The first error (an internal limit broken); "" when none.
  const std::string& Error() const { return error_; }

  // Appends rows [offset, offset + count) of `v`, a top-level flat column
  // (one entry per row, NULL rows as a lower definition level).
  void AppendFlat(const Vector& v, idx_t offset, idx_t count);
  // One entry of a nested column: its levels, then (AddValue) its value when
  // it has one. `value_bytes`: the PLAIN size of that value (0 for none).
  void AddLevels(int rep, int def, size_t value_bytes);
  void AddValue(const Vector& v, idx_t row);
  void AddNull() { chunk_nulls_++; }
  // The PLAIN bytes value `row` of `v` adds to a page (at most, for a dictionary id).
  size_t ValueBytes(const Vector& v, idx_t row) const;
  // Ends the current page once it reached the target size (nested columns
  // end pages between rows).
  void EndPageIfFull() {
    if (PageBytesEstimate() >= settings_->page_size) FlushPage();
  }

  // The chunk's min and max as Values (false when it has none: all NULL, or
  // a DOUBLE column of NaN only).
  bool MinMax(Value& min, Value& max) const;

  // Ends the chunk: `bytes` gets its pages (dictionary page first),
  // `cc` its metadata with offsets from `file_offset` (where `bytes` will
  // be written). The writer then starts an empty chunk. False on an internal
  // error (Error()).
  bool FinishChunk(int64_t file_offset, parquet::ColumnChunk& cc, std::string& bytes);

 private:
  size_t DictCount() const {
    return kind_ == Kind::STR ? keys_str_.size() : (kind_ == Kind::DECFLBA ? keys128_.size() : keys64_.size());
  }
  void ResetDict();
  void Grow();
  uint64_t HashOf(uint32_t idx) const;
  // Dictionary ids (UINT32_MAX once the dictionary is full).
  uint32_t LookupU64(uint64_t key, size_t value_bytes);
  uint32_t LookupU128(hugeint_t key);
  uint32_t LookupStr(std::string_view key);
  void AppendFlba(std::string& out, hugeint_t v) const;
  // Until the chunk's first dictionary page is written, the page may still
  // be rewritten PLAIN (AbandonDictionary): its ids count at that size, so
  // the page meets the target either way.
  size_t PageBytesEstimate() const {
    size_t id_bytes = used_dict_pages_ ? ids_.size() * 2 : std::max(ids_.size() * 2, ids_plain_);
    return plain_.size() + bools_.size() / 8 + id_bytes + defs_.size() / 4 + reps_.size() / 4;
  }
  template <class T>
  void UpdateMinMaxI(T x);
  void UpdateMinMaxD(double d);
  // Appends rows [row, row + count) of a fixed-width column, all valid,
  // that fit the current page (AppendFlat checked).
  template <class T, class Encode>
  void AppendFixedRun(const T* data, idx_t row, idx_t count, size_t width, Encode encode);
  void AppendRun(const Vector& v, idx_t row, idx_t count);
  void FallBack();
  void MakeRoom(size_t incoming, size_t budget);
  bool DictionaryIneffective() const;
  size_t PlainBytesOfIds() const;
  void AbandonDictionary();
  void FlushPage();
  void LevelsRle(const std::vector<uint8_t>& levels, int max_level);
  void WritePage(parquet::PageHeader& ph, const std::string& body);
  bool StatisticsFit() const;
  std::string StatBytes(bool max) const;
  Value StatValue(bool max) const;

  std::vector<std::string> path_;
  LogicalType type_;
  Kind kind_;
  parquet::PhysicalType physical_;
  int flba_len_ = 0;
  int max_def_ = 0, max_rep_ = 0;
  ParquetColumnSettings* settings_;
  std::string error_;
  // The column chunk being flushed is small enough to be stored UNCOMPRESSED
  // (ParquetWriterOptions::uncompressed_below).
  bool uncompressed_ = false;

  // Current page.
  std::vector<uint8_t> defs_, reps_;
  std::string plain_;
  std::vector<uint8_t> bools_;
  std::vector<uint32_t> ids_;
  size_t ids_plain_ = 0;  // PLAIN bytes of the values behind `ids_`
  int64_t page_entries_ = 0;

  // Dictionary of the current column chunk.
  bool dict_enabled_ = true;
  bool dict_active_ = true;
  size_t dict_max_ = 1 << 20;
  std::vector<uint32_t> slots_;  // index + 1; 0 = empty
  std::vector<uint64_t> keys64_;
  std::vector<hugeint_t> keys128_;
  std::vector<std::string_view> keys_str_;
  std::vector<std::unique_ptr<char[]>> arena_;
  size_t arena_used_ = 0, arena_cap_ = 0;
  std::string dict_plain_;
  bool used_dict_pages_ = false;

  // Column chunk.
  std::string chunk_;
  int64_t chunk_values_ = 0;
  int64_t chunk_uncompressed_ = 0;
  int64_t chunk_nulls_ = 0;
  bool has_minmax_ = false;
  int64_t min_i_ = 0, max_i_ = 0;
  double min_d_ = 0, max_d_ = 0;
  hugeint_t min_h_ = 0, max_h_ = 0;
  std::string min_s_, max_s_;
};

}  // namespace lakestream
