// Big-endian two's complement integers of 1 to 16 bytes (Parquet decimals over
// FIXED_LEN_BYTE_ARRAY / BYTE_ARRAY), checked against a byte-by-byte reading.
#include "quarry/common/big_endian.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace quarry {
namespace {

/// The reference: sign from the first byte, then one byte at a time.
__int128 byteByByte(const uint8_t* p, size_t width) {
  auto v = static_cast<unsigned __int128>(width > 0 && (p[0] & 0x80) != 0 ? -1 : 0);
  for (size_t i = 0; i < width; ++i) v = (v << 8) | p[i];
  return static_cast<__int128>(v);
}

TEST(BigEndianTest, EveryWidthReadsAsTheByteByByteValue) {
  std::mt19937_64 random(20261201);
  for (size_t width = 1; width <= 16; ++width) {
    SCOPED_TRACE("width " + std::to_string(width));
    std::vector<std::vector<uint8_t>> cases;
    cases.push_back(std::vector<uint8_t>(width, 0x00));  // 0
    cases.push_back(std::vector<uint8_t>(width, 0xFF));  // -1
    std::vector<uint8_t> min(width, 0x00), max(width, 0xFF);
    min[0] = 0x80;
    max[0] = 0x7F;
    cases.push_back(min);
    cases.push_back(max);
    for (int k = 0; k < 200; ++k) {
      std::vector<uint8_t> bytes(width);
      for (uint8_t& b : bytes) b = static_cast<uint8_t>(random());
      cases.push_back(bytes);
    }
    for (const auto& bytes : cases) {
      // Read from a buffer with neighbours on both sides: nothing outside the width counts.
      std::vector<uint8_t> buffer(width + 32, 0xA5);
      std::copy(bytes.begin(), bytes.end(), buffer.begin() + 16);
      EXPECT_TRUE(bigEndianInt128(buffer.data() + 16, width) == byteByByte(bytes.data(), width));
    }
    if (width == 1) {
      EXPECT_TRUE(bigEndianInt128(min.data(), 1) == -128);
    }
    if (width == 16) {
      EXPECT_TRUE(bigEndianInt128(max.data(), 16) ==
                  static_cast<__int128>(~static_cast<unsigned __int128>(0) >> 1));
    }
  }
  const uint8_t none = 0x80;
  EXPECT_TRUE(bigEndianInt128(&none, 0) == 0);
}

TEST(BigEndianTest, WithByteWidthCallsTheWidthsLoaderOnly) {
  const uint8_t bytes[16] = {0xFF, 0xFE, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
                             0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E};
  for (size_t width = 1; width <= 16; ++width) {
    size_t called = 0;
    __int128 value = 0;
    EXPECT_TRUE(withByteWidth(width, [&]<size_t W>() {
      called = W;
      value = bigEndianInt128<W>(bytes);
    }));
    EXPECT_EQ(called, width);
    EXPECT_TRUE(value == bigEndianInt128(bytes, width));
  }
  EXPECT_FALSE(withByteWidth(0, [&]<size_t W>() { ADD_FAILURE() << W; }));
  EXPECT_FALSE(withByteWidth(17, [&]<size_t W>() { ADD_FAILURE() << W; }));
}

}  // namespace
}  // namespace quarry
