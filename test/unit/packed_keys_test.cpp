// KeyPacker (execution/operator/packed_keys.hpp): which key types pack into
// 16 bytes, and that packed keys are equal exactly when the keys are (NULL
// apart from '' and 0, -0.0 with 0.0, NaN with NaN), strings up to their
// share of the bytes and not past it.
#include <gtest/gtest.h>

#include <cmath>

#include "common/value.hpp"
#include "execution/operator/packed_keys.hpp"

namespace lakestream {
namespace {

std::vector<PackedKey> PackRows(KeyPacker& packer, DataChunk& chunk, bool& fits) {
  std::vector<PackedKey> keys(chunk.size());
  fits = packer.Pack(chunk, chunk.size(), keys.data());
  return keys;
}

TEST(KeyPackerTest, PlansLayoutsThatFitSixteenBytes) {
  KeyPacker packer;
  EXPECT_TRUE(packer.Plan({TypeId::VARCHAR, TypeId::VARCHAR}));  // TPC-H Q1: 8 bytes each
  EXPECT_TRUE(packer.Plan({TypeId::BIGINT, TypeId::INTEGER, TypeId::DATE}));
  EXPECT_TRUE(packer.Plan({LogicalType::Decimal(18, 2), TypeId::DOUBLE}));
  EXPECT_FALSE(packer.Plan({TypeId::BIGINT, TypeId::BIGINT, TypeId::INTEGER}));  // 20 bytes
  EXPECT_FALSE(packer.Plan({LogicalType::Decimal(38, 2)}));                     // 128-bit values
  EXPECT_FALSE(packer.Plan({TypeId::BIGINT, TypeId::DOUBLE, TypeId::VARCHAR}));  // no byte left for the string
  EXPECT_FALSE(packer.Plan({TypeId::INTERVAL}));
  EXPECT_FALSE(packer.Plan({}));
}

TEST(KeyPackerTest, EqualKeysPackEqualAndOthersDiffer) {
  KeyPacker packer;
  ASSERT_TRUE(packer.Plan({TypeId::VARCHAR, TypeId::INTEGER, TypeId::DOUBLE}));
  DataChunk chunk;
  chunk.Initialize({TypeId::VARCHAR, TypeId::INTEGER, TypeId::DOUBLE});
  const std::vector<std::vector<Value>> rows = {
      {Value::VARCHAR(""), Value::INTEGER(0), Value::DOUBLE(0.0)},     // 0
      {Value(), Value::INTEGER(0), Value::DOUBLE(-0.0)},               // 1: NULL string, -0.0
      {Value::VARCHAR(""), Value(), Value::DOUBLE(0.0)},               // 2: NULL integer
      {Value::VARCHAR(""), Value::INTEGER(0), Value::DOUBLE(-0.0)},    // 3: = row 0
      {Value::VARCHAR("ab"), Value::INTEGER(7), Value::DOUBLE(NAN)},   // 4
      {Value::VARCHAR("ab"), Value::INTEGER(7), Value::DOUBLE(-NAN)},  // 5: = row 4
      {Value::VARCHAR("ba"), Value::INTEGER(7), Value::DOUBLE(NAN)},   // 6
  };
  for (idx_t r = 0; r < rows.size(); r++) {
    for (idx_t c = 0; c < 3; c++) chunk.SetValue(c, r, rows[r][c]);
  }
  chunk.SetCardinality(rows.size());
  bool fits = false;
  auto keys = PackRows(packer, chunk, fits);
  ASSERT_TRUE(fits);
  EXPECT_EQ(keys[0], keys[3]);
  EXPECT_EQ(keys[4], keys[5]);
  EXPECT_EQ(HashPackedKey(keys[4]), HashPackedKey(keys[5]));
  EXPECT_FALSE(keys[0] == keys[1]);
  EXPECT_FALSE(keys[0] == keys[2]);
  EXPECT_FALSE(keys[1] == keys[2]);
  EXPECT_FALSE(keys[4] == keys[6]);
  EXPECT_FALSE(keys[0] == keys[4]);
}

TEST(KeyPackerTest, StringsFitTheirShareAndNoMore) {
  KeyPacker packer;
  ASSERT_TRUE(packer.Plan({TypeId::VARCHAR, TypeId::VARCHAR}));  // 8 bytes each: 7 characters
  DataChunk chunk;
  chunk.Initialize({TypeId::VARCHAR, TypeId::VARCHAR});
  chunk.SetValue(0, 0, Value::VARCHAR("abcdefg"));
  chunk.SetValue(1, 0, Value::VARCHAR("x"));
  chunk.SetValue(0, 1, Value::VARCHAR("abcdef"));
  chunk.SetValue(1, 1, Value::VARCHAR("gx"));
  chunk.SetCardinality(2);
  bool fits = false;
  auto keys = PackRows(packer, chunk, fits);
  ASSERT_TRUE(fits);
  EXPECT_FALSE(keys[0] == keys[1]);  // the split between the columns is part of the key
  chunk.SetValue(0, 1, Value::VARCHAR("abcdefgh"));
  PackRows(packer, chunk, fits);
  EXPECT_FALSE(fits);
}

TEST(KeyPackerTest, GrowingKeepsEveryKeyFindable) {
  std::vector<PackedKeySlot> slots(4);
  uint64_t mask = 3;
  PackedKey a, b;
  a.lo = 1;
  b.hi = 1;
  for (uint32_t id = 1; id <= 2; id++) {
    const PackedKey& key = id == 1 ? a : b;
    uint64_t pos = HashPackedKey(key) & mask;
    while (slots[pos].id) pos = (pos + 1) & mask;
    slots[pos] = PackedKeySlot{key, id};
  }
  GrowPackedKeySlots(slots, mask);
  ASSERT_EQ(slots.size(), 8U);
  EXPECT_EQ(mask, 7U);
  for (uint32_t id = 1; id <= 2; id++) {
    const PackedKey& key = id == 1 ? a : b;
    uint64_t pos = HashPackedKey(key) & mask;
    while (slots[pos].id && !(slots[pos].key == key)) pos = (pos + 1) & mask;
    EXPECT_EQ(slots[pos].id, id);
  }
}

}  // namespace
}  // namespace lakestream
