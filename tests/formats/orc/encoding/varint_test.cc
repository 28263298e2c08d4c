#include "quarry/formats/orc/encoding/varint.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/orc/encoding/orc_stream_writer.h"

namespace quarry::orc {
namespace {

using testing::Bytes;

uint64_t readOne(const Bytes& bytes) {
  size_t pos = 0;
  const uint64_t value = readVarint64(bytes, pos, "test");
  EXPECT_EQ(pos, bytes.size());
  return value;
}

Int128 readDecimal(const Bytes& bytes) {
  size_t pos = 0;
  const Int128 value = readSignedVarint128(bytes, pos, "test");
  EXPECT_EQ(pos, bytes.size());
  return value;
}

/// Writes the zigzag varint of a 128-bit value, as a DECIMAL writer does.
Bytes decimalVarint(Int128 value) {
  UInt128 zigzag = (static_cast<UInt128>(value) << 1) ^ static_cast<UInt128>(value >> 127);
  Bytes out;
  while (zigzag >= 0x80) {
    out.push_back(static_cast<uint8_t>(zigzag | 0x80));
    zigzag >>= 7;
  }
  out.push_back(static_cast<uint8_t>(zigzag));
  return out;
}

TEST(VarintTest, ReadsTheSpecBase128Table) {
  // The spec's "Base 128 Varint" table: unsigned original and serialized bytes.
  EXPECT_EQ(readOne({0x00}), 0u);
  EXPECT_EQ(readOne({0x01}), 1u);
  EXPECT_EQ(readOne({0x7f}), 127u);
  EXPECT_EQ(readOne({0x80, 0x01}), 128u);
  EXPECT_EQ(readOne({0x81, 0x01}), 129u);
  EXPECT_EQ(readOne({0xff, 0x7f}), 16383u);
  EXPECT_EQ(readOne({0x80, 0x80, 0x01}), 16384u);
  EXPECT_EQ(readOne({0x81, 0x80, 0x01}), 16385u);
}

TEST(VarintTest, UnzigzagsTheSpecSignedTable) {
  // "Signed Original | Unsigned": 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, 2 -> 4.
  EXPECT_EQ(unZigZag(0), 0);
  EXPECT_EQ(unZigZag(1), -1);
  EXPECT_EQ(unZigZag(2), 1);
  EXPECT_EQ(unZigZag(3), -2);
  EXPECT_EQ(unZigZag(4), 2);
  EXPECT_EQ(unZigZag(~uint64_t{0}), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(unZigZag(~uint64_t{0} - 1), std::numeric_limits<int64_t>::max());
}

TEST(VarintTest, ReadsTheFull64BitRange) {
  for (const uint64_t value : {uint64_t{0}, uint64_t{1} << 62, ~uint64_t{0}}) {
    Bytes bytes;
    testing::putVarint(bytes, value);
    EXPECT_EQ(readOne(bytes), value);
  }
}

TEST(VarintTest, RejectsVarintsPast64BitsOrCutOff) {
  size_t pos = 0;
  const Bytes tooBig = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x03};
  EXPECT_THROW(readVarint64(tooBig, pos, "test"), CorruptFile);
  pos = 0;
  const Bytes tooLong = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00};
  EXPECT_THROW(readVarint64(tooLong, pos, "test"), CorruptFile);
  pos = 0;
  try {
    readVarint64(Bytes{0x80, 0x80}, pos, "f.orc, column 2, LENGTH stream", "length");
    FAIL();
  } catch (const CorruptFile& e) {
    EXPECT_STREQ(e.what(),
                 "f.orc, column 2, LENGTH stream: length at offset 0 is cut off by the end of "
                 "the stream (2 bytes)");
  }
}

TEST(VarintTest, ReadsDecimalVarintsUpTo128Bits) {
  const Int128 maxDigits = static_cast<Int128>(static_cast<UInt128>(1) << 127) + 0;  // min
  const Int128 big =
      (static_cast<Int128>(0x4B3B4CA85A86C47A) << 64) | 0x098A223FFFFFFFFF;  // 10^38-1
  for (const Int128 value :
       {Int128{0}, Int128{-1}, Int128{12345}, Int128{-1250}, big, -big, maxDigits, ~maxDigits}) {
    EXPECT_TRUE(readDecimal(decimalVarint(value)) == value);
  }
  EXPECT_EQ(decimalVarint(maxDigits).size(), 19u);
}

TEST(VarintTest, RejectsDecimalVarintsPast128Bits) {
  // 19 bytes hold 133 bits; the last may use only its low 2 bits.
  Bytes bytes(18, 0xff);
  bytes.push_back(0x07);
  size_t pos = 0;
  EXPECT_THROW(readSignedVarint128(bytes, pos, "test"), CorruptFile);
  Bytes longer(19, 0x80);
  longer.push_back(0x00);
  pos = 0;
  EXPECT_THROW(readSignedVarint128(longer, pos, "test"), CorruptFile);
  pos = 0;
  EXPECT_THROW(readSignedVarint128(Bytes{0x80}, pos, "test"), CorruptFile);
}

}  // namespace
}  // namespace quarry::orc
