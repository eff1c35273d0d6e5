// CollectionGather: rows picked by position from a ChunkCollection of several
// chunks equal a row-by-row copy of the values (NULLs, strings, a nested
// column), and the strings outlive the collection: through the shared heap
// handle, or copied into the output's own heap (copy_strings).
#include <gtest/gtest.h>

#include <memory>

#include "common/collection_gather.hpp"

namespace lakestream {
namespace {

const idx_t kRows = 5000;  // three chunks, the last one partly filled

std::unique_ptr<ChunkCollection> MakeRows() {
  std::vector<LogicalType> types = {TypeId::INTEGER, TypeId::VARCHAR, LogicalType::List(TypeId::BIGINT)};
  auto rows = std::make_unique<ChunkCollection>(types);
  DataChunk chunk;
  for (idx_t start = 0; start < kRows; start += 1000) {
    chunk.Initialize(types);  // a fresh string heap per appended chunk
    for (idx_t i = 0; i < 1000; i++) {
      const idx_t r = start + i;
      chunk.data[0].SetValue(i, r % 7 == 0 ? Value(LogicalType(TypeId::INTEGER)) : Value::INTEGER(static_cast<int32_t>(r)));
      chunk.data[1].SetValue(i, r % 5 == 0 ? Value(LogicalType(TypeId::VARCHAR)) : Value::VARCHAR("row-" + std::to_string(r)));
      chunk.data[2].SetValue(i, Value::LIST(LogicalType::List(TypeId::BIGINT), {Value::BIGINT(static_cast<int64_t>(r))}));
    }
    chunk.SetCardinality(1000);
    rows->Append(chunk);
  }
  return rows;
}

void ExpectGathered(bool copy_strings) {
  auto rows = MakeRows();
  std::vector<uint64_t> positions;
  for (idx_t i = 0; i < STANDARD_VECTOR_SIZE; i++) positions.push_back((i * 2654435761ULL) % kRows);
  DataChunk out;
  out.Initialize(rows->Types());
  std::vector<std::string> expected(3 * positions.size());
  for (idx_t i = 0; i < positions.size(); i++) {
    for (idx_t c = 0; c < 3; c++) expected[c * positions.size() + i] = rows->GetValue(c, positions[i]).ToString();
  }
  {
    CollectionGather gather(*rows);
    // Column 0 at an offset of 3 rows, the others from row 0.
    gather.Gather(0, positions.data(), positions.size() - 3, out.data[0], 3, copy_strings);
    gather.Gather(1, positions.data(), positions.size(), out.data[1], 0, copy_strings);
    gather.Gather(2, positions.data(), positions.size(), out.data[2], 0, copy_strings);
  }
  rows.reset();  // the gathered strings must not point into freed heaps
  for (idx_t i = 0; i + 3 < positions.size(); i++) EXPECT_EQ(out.data[0].GetValue(i + 3).ToString(), expected[i]);
  for (idx_t i = 0; i < positions.size(); i++) {
    EXPECT_EQ(out.data[1].GetValue(i).ToString(), expected[positions.size() + i]) << i;
    EXPECT_EQ(out.data[2].GetValue(i).ToString(), expected[2 * positions.size() + i]) << i;
  }
}

TEST(CollectionGather, EqualsRowByRowCopyAndKeepsHeapsAlive) { ExpectGathered(false); }

TEST(CollectionGather, CopiedStringsOutliveTheCollection) { ExpectGathered(true); }

}  // namespace
}  // namespace lakestream
