// The limits of lakestream's Parquet files, in one place so that the reader
// and the writer cannot drift apart: ParquetReader refuses a file that lies
// past one of them (it guards the reader's memory against hostile files),
// and ParquetWriter never writes one that does. A limit the writer could
// still reach with legal input is honoured by construction (pages are split
// by size and entry count, dictionaries fall back to PLAIN, row groups end
// early); input that no file within the limits can hold (one value, or one
// row of a nested column, too large) is refused by ParquetWriter::Append
// before any of the chunk is written. docs/parquet.md lists them for users.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "common/types.hpp"

namespace lakestream {
class Vector;
}

namespace lakestream::parquet {

// ---- what the reader accepts ----

// Uncompressed bytes of one page (data or dictionary). Bounds what a page
// header can make the reader allocate; the page header's int32 fields hold
// it (and its compressed size, which codecs keep within a few percent).
inline constexpr uint64_t kMaxPageBytes = 256ULL << 20;
// Level entries (values and NULLs) of one data page.
inline constexpr int64_t kMaxPageValues = 1LL << 28;
// Level entries of one leaf of a nested column in one row group: the reader
// holds a nested column chunk's levels in memory at once.
inline constexpr int64_t kMaxNestedEntries = 1LL << 26;
// Depth of the schema tree: a top-level column is at depth 1, a struct's
// field one deeper, a list's element two deeper (list group, element).
inline constexpr int kMaxSchemaDepth = 48;
// FIXED_LEN_BYTE_ARRAY type_length.
inline constexpr int32_t kMaxFixedLength = 1 << 20;
// DECIMAL precision (the engine's DECIMAL holds 38 digits).
inline constexpr int kMaxDecimalPrecision = 38;
// The footer: its length is stored in 4 bytes.
inline constexpr uint64_t kMaxFooterBytes = UINT32_MAX;

// ---- what the writer writes (each within the reader's limits) ----

// The largest single value (the bytes of one string) the writer stores. A
// value cannot span pages; one larger than the target page size gets a page
// of its own, which holds its 4-byte length and its entry's levels (a few
// bytes) besides: 1 KiB below the page limit leaves room for both. So every
// value the reader reads, the writer writes back (an UPDATE may rewrite a
// file of another writer).
inline constexpr uint64_t kValuePageOverheadBytes = 1024;
inline constexpr uint64_t kMaxValueBytes = kMaxPageBytes - kValuePageOverheadBytes;
// The largest target page size a writer option may ask for. A page ends
// before the value that would take it past the target (flat columns), or
// after the row that took it there (nested columns; a nested row that
// would take a page past twice the target spans pages, as data pages v1
// allow).
inline constexpr uint64_t kMaxTargetPageBytes = 64ULL << 20;
// Entries of one written data page. Also bounds the bytes of the page's
// levels and dictionary ids: at most 4 + 4 bytes per entry for both levels
// (an RLE/bit-packed level is at most one byte plus run headers) and 4 for
// an id, i.e. 12 MiB, the slack below.
inline constexpr int64_t kMaxWriterPageValues = 1LL << 20;
inline constexpr uint64_t kPageSlackBytes = 16ULL << 20;
// The largest dictionary page.
inline constexpr uint64_t kMaxDictionaryBytes = 64ULL << 20;
// Row-group statistics keep min/max of strings up to this size; a column
// chunk whose min or max is longer gets none (as parquet-mr): the footer
// stays small and skipping loses little.
inline constexpr size_t kMaxStatisticsValueBytes = 4096;

// A page holds either entries whose PLAIN bytes stay within twice the
// target (a nested row's page; the levels and ids of its entries add at
// most the slack), or one value larger than that, alone.
static_assert(2 * kMaxTargetPageBytes + kPageSlackBytes <= kMaxPageBytes);
static_assert(kMaxDictionaryBytes <= kMaxPageBytes);
static_assert(kMaxWriterPageValues <= kMaxPageValues);
static_assert(kMaxPageBytes + (kMaxPageBytes >> 3) < INT32_MAX, "page sizes must fit the header's int32 fields");

// ---- checks the writer runs on input before writing it ----

// "268,435,456": sizes in error messages.
std::string GroupDigits(uint64_t n);

// Checks rows [0, count) of `v` (a column of type `type`) against the
// per-value limits: InvalidArgument, naming the size and the limit, when a
// string (also inside a struct, list or map) is longer than
// `max_value_bytes` or a row of a nested column adds more than
// `max_row_entries` level entries to one of its leaves. The message starts
// lower-case with what is wrong; the caller prefixes the column. For a
// nested type, `entries` (when not null) receives per row an upper bound on
// the level entries it adds to any one leaf.
Status CheckColumnLimits(const LogicalType& type, const Vector& v, idx_t count, uint64_t max_value_bytes,
                         int64_t max_row_entries, std::vector<int64_t>* entries);

// The schema depth of `type` as a top-level column (1 for a flat column).
int SchemaDepth(const LogicalType& type);

}  // namespace lakestream::parquet
