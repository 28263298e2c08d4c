#include "quarry/formats/parquet/encoding/bit_unpacking.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/parquet/encoding/test_encoders.h"

namespace quarry::parquet {
namespace {

using testing::packBits;

TEST(BitUnpackingTest, UnpacksTheSpecExampleOfZeroToSevenAtWidthThree) {
  // Encodings.md: 0..7 at bit width 3 is 10001000 11000110 11111010.
  const std::vector<uint8_t> packed = {0x88, 0xC6, 0xFA};
  uint32_t out[8];
  unpackBits(packed, 0, 8, 3, out);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
}

TEST(BitUnpackingTest, PackedByteCountRoundsUpThePartialByte) {
  EXPECT_EQ(packedByteCount(0, 7), 0u);
  EXPECT_EQ(packedByteCount(1, 1), 1u);
  EXPECT_EQ(packedByteCount(8, 3), 3u);
  EXPECT_EQ(packedByteCount(9, 3), 4u);
  EXPECT_EQ(packedByteCount(3, 64), 24u);
  EXPECT_EQ(packedByteCount(5, 0), 0u);
}

template <typename Out>
void checkEveryWidthAndRange(unsigned maxWidth) {
  std::mt19937_64 random(42);
  for (unsigned width = 0; width <= maxWidth; ++width) {
    const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    std::vector<uint64_t> values(77);
    for (auto& v : values) v = random() & mask;
    // Widest values too, so the top bit of each is exercised.
    values[5] = mask;
    values[8] = mask;
    for (size_t first : {0, 1, 3, 7, 8, 9, 16, 21}) {
      for (size_t count : {0, 1, 2, 7, 8, 9, 15, 16, 17, 40, 56}) {
        if (first + count > values.size()) continue;
        // Exactly the bytes the range needs, on the heap: a sanitizer build
        // catches any read past them.
        const std::vector<uint64_t> prefix(values.begin(), values.begin() + first + count);
        std::vector<uint8_t> packed = packBits(prefix, width);
        packed.resize(packedByteCount(first + count, width));
        std::vector<Out> out(count + 1, static_cast<Out>(0x5A));
        unpackBits(packed, first, count, width, out.data());
        for (size_t i = 0; i < count; ++i) {
          ASSERT_EQ(out[i], static_cast<Out>(values[first + i]))
              << "width " << width << " first " << first << " count " << count << " i " << i;
        }
        EXPECT_EQ(out[count], static_cast<Out>(0x5A)) << "wrote past the range";
      }
    }
  }
}

TEST(BitUnpackingTest, UnpacksEveryWidthUpTo32AtAnyStartAndCount) {
  checkEveryWidthAndRange<uint32_t>(32);
}

TEST(BitUnpackingTest, UnpacksEveryWidthUpTo64IntoUint64) {
  checkEveryWidthAndRange<uint64_t>(64);
}

TEST(BitUnpackingTest, UnpacksNarrowOutputs) {
  checkEveryWidthAndRange<uint8_t>(8);
  checkEveryWidthAndRange<uint16_t>(16);
}

TEST(BitUnpackingTest, WidthZeroYieldsZerosWithoutReadingBytes) {
  uint64_t out[20];
  std::fill(std::begin(out), std::end(out), 7);
  unpackBits({}, 3, 20, 0, out);
  for (uint64_t v : out) EXPECT_EQ(v, 0u);
}

TEST(BitUnpackingTest, RejectsAWidthWiderThanTheOutput) {
  uint32_t out32[8];
  uint8_t out8[8];
  const uint8_t packed[64] = {};
  EXPECT_THROW(unpackBits(packed, 0, 8, 33, out32), InvalidArgument);
  EXPECT_THROW(unpackBits(packed, 0, 8, 9, out8), InvalidArgument);
}

TEST(BitUnpackingTest, RejectsFewerBytesThanTheValuesNeed) {
  const std::vector<uint8_t> packed(4);
  uint32_t out[8];
  EXPECT_THROW(unpackBits(packed, 0, 8, 5, out), InvalidArgument);  // needs 5 bytes
  EXPECT_THROW(unpackBits(packed, 6, 1, 5, out), InvalidArgument);  // value 6 ends in byte 5
  unpackBits(packed, 5, 1, 5, out);                                 // value 5 ends in byte 4
  EXPECT_EQ(out[0], 0u);
}

TEST(BitUnpackingTest, UsesBytesPastTheRangeOnlyAsSlack) {
  // The same values unpacked from a span holding just their bytes and from one
  // with the rest of a page behind them.
  std::mt19937 random(3);
  for (unsigned width : {3u, 10u, 17u, 31u}) {
    std::vector<uint64_t> values(100);
    for (auto& v : values) v = random() & ((1u << width) - 1);
    std::vector<uint8_t> packed = packBits(values, width);
    const std::vector<uint8_t> exact(packed.begin(), packed.begin() + 40 * width / 8);
    packed.insert(packed.end(), 64, 0xFF);
    uint32_t fromExact[40];
    uint32_t fromPage[40];
    unpackBits(exact, 0, 40, width, fromExact);
    unpackBits(packed, 0, 40, width, fromPage);
    for (size_t i = 0; i < 40; ++i) {
      ASSERT_EQ(fromExact[i], values[i]) << width;
      ASSERT_EQ(fromPage[i], values[i]) << width;
    }
  }
}

TEST(BitUnpackingTest, UnpacksLongRunsInWholeGroups) {
  std::mt19937 random(7);
  std::vector<uint64_t> values(10000);
  for (auto& v : values) v = random() & 0x3FF;
  const auto packed = packBits(values, 10);
  std::vector<uint32_t> out(values.size());
  unpackBits(packed, 0, values.size(), 10, out.data());
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(out[i], values[i]) << i;
}

}  // namespace
}  // namespace quarry::parquet
