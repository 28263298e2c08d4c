#include "quarry/formats/orc/encoding/decimal_decoder.h"

#include <gtest/gtest.h>

#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/orc/encoding/orc_stream_writer.h"

namespace quarry::orc {
namespace {

using testing::Bytes;

void putDecimal(Bytes& out, Int128 value) {
  UInt128 zigzag = (static_cast<UInt128>(value) << 1) ^ static_cast<UInt128>(value >> 127);
  while (zigzag >= 0x80) {
    out.push_back(static_cast<uint8_t>(zigzag | 0x80));
    zigzag >>= 7;
  }
  out.push_back(static_cast<uint8_t>(zigzag));
}

/// 10^38 - 1, the largest 38-digit value.
Int128 maxDecimal() {
  Int128 value = 1;
  for (int i = 0; i < 38; ++i) value *= 10;
  return value - 1;
}

/// DIRECT_V2 streams of (unscaled, scale) pairs: varints, and scales as RLEv2.
struct Streams {
  Bytes data;
  Bytes secondary;
};

Streams directV2(const std::vector<std::pair<Int128, int64_t>>& values) {
  Streams streams;
  std::vector<uint64_t> scales;
  for (const auto& [unscaled, scale] : values) {
    putDecimal(streams.data, unscaled);
    scales.push_back(testing::zigzag(scale));
  }
  testing::putDirect(streams.secondary, scales, 8);
  return streams;
}

TEST(DecimalDecoderTest, RendersUnscaledValuesExactly) {
  EXPECT_EQ(decimalToString(-1250, 2), "-12.50");
  EXPECT_EQ(decimalToString(5, 3), "0.005");
  EXPECT_EQ(decimalToString(-5, 3), "-0.005");
  EXPECT_EQ(decimalToString(7, 0), "7");
  EXPECT_EQ(decimalToString(0, 2), "0.00");
  EXPECT_EQ(decimalToString(-100050000, 5), "-1000.50000");
  EXPECT_EQ(decimalToString(maxDecimal(), 38), "0.99999999999999999999999999999999999999");
  EXPECT_EQ(decimalToString(-maxDecimal(), 0), "-99999999999999999999999999999999999999");
  EXPECT_EQ(decimalToString(static_cast<Int128>(static_cast<UInt128>(1) << 127), 0),
            "-170141183460469231731687303715884105728");
}

TEST(DecimalDecoderTest, RescalesTruncatingTowardZero) {
  Int128 out = 0;
  // orc-file-11-format.orc's expected output reads 12345678.6547457 at scale 6.
  ASSERT_TRUE(rescaleDecimal(123456786547457, 7, 6, out));
  EXPECT_EQ(decimalToString(out, 6), "12345678.654745");
  ASSERT_TRUE(rescaleDecimal(19, 1, 0, out));
  EXPECT_TRUE(out == 1);
  ASSERT_TRUE(rescaleDecimal(-19, 1, 0, out));
  EXPECT_TRUE(out == -1);
  ASSERT_TRUE(rescaleDecimal(-7, 0, 3, out));
  EXPECT_TRUE(out == -7000);
  EXPECT_FALSE(rescaleDecimal(maxDecimal(), 0, 1, out));
  EXPECT_FALSE(rescaleDecimal(1, 0, 39, out));
  ASSERT_TRUE(rescaleDecimal(maxDecimal(), 38, 0, out));
  EXPECT_TRUE(out == 0);
}

TEST(DecimalDecoderTest, ReadsValuesWithTheirOwnScales) {
  const Streams streams = directV2({{-1250, 2}, {5, 3}, {7, 0}, {maxDecimal(), 2}});
  DecimalDecoder decoder(streams.data, streams.secondary, RleVersion::kV2, 2, "test");
  std::vector<Int128> unscaled(4);
  std::vector<int32_t> scales(4);
  decoder.nextRaw(unscaled, scales);
  EXPECT_TRUE(unscaled[0] == -1250 && unscaled[1] == 5 && unscaled[2] == 7 &&
              unscaled[3] == maxDecimal());
  EXPECT_EQ(scales, (std::vector<int32_t>{2, 3, 0, 2}));
}

TEST(DecimalDecoderTest, BringsValuesToTheColumnScale) {
  const Streams streams = directV2({{-1250, 2}, {5, 3}, {7, 0}, {-1, 1}});
  DecimalDecoder decoder(streams.data, streams.secondary, RleVersion::kV2, 2, "test");
  std::vector<Int128> out(4);
  decoder.next(out);
  EXPECT_EQ(decimalToString(out[0], 2), "-12.50");
  EXPECT_EQ(decimalToString(out[1], 2), "0.00");
  EXPECT_EQ(decimalToString(out[2], 2), "7.00");
  EXPECT_EQ(decimalToString(out[3], 2), "-0.10");
}

TEST(DecimalDecoderTest, ReadsRleV1ScalesAndSkips) {
  Bytes data;
  for (int i = 0; i < 300; ++i) putDecimal(data, Int128{i} * 1000000007);
  // RLEv1: one run of 130 scales of 4, then 127 + 43 more.
  const Bytes secondary = {0x7f, 0x00, 0x08, 0x7f, 0x00, 0x08, 0x25, 0x00, 0x08};
  DecimalDecoder decoder(data, secondary, RleVersion::kV1, 4, "test");
  decoder.skip(129);
  std::vector<Int128> out(171);
  decoder.next(out);
  for (int i = 0; i < 171; ++i) EXPECT_TRUE(out[i] == Int128{129 + i} * 1000000007) << i;
}

TEST(DecimalDecoderTest, ReadsDecimal64AtTheColumnScale) {
  Bytes data;
  testing::putDirect(data, {testing::zigzag(-1250), testing::zigzag(999999999999999999)}, 64);
  DecimalDecoder decoder = DecimalDecoder::decimal64(data, 2, "test");
  std::vector<Int128> out(2);
  decoder.next(out);
  EXPECT_EQ(decimalToString(out[0], 2), "-12.50");
  EXPECT_EQ(decimalToString(out[1], 2), "9999999999999999.99");
}

TEST(DecimalDecoderTest, RejectsScalesOutside0To38AndCutOffValues) {
  const Streams badScale = directV2({{1, 39}});
  DecimalDecoder decoder(badScale.data, badScale.secondary, RleVersion::kV2, 2, "f.orc, col 1");
  std::vector<Int128> out(1);
  EXPECT_THROW(decoder.next(out), CorruptFile);
  const Streams negative = directV2({{1, -1}});
  DecimalDecoder negativeDecoder(negative.data, negative.secondary, RleVersion::kV2, 2, "f");
  EXPECT_THROW(negativeDecoder.next(out), CorruptFile);
  Streams cut = directV2({{1000000, 2}});
  cut.data.pop_back();
  DecimalDecoder cutDecoder(cut.data, cut.secondary, RleVersion::kV2, 2, "f");
  EXPECT_THROW(cutDecoder.next(out), CorruptFile);
  DecimalDecoder cutSkipper(cut.data, cut.secondary, RleVersion::kV2, 2, "f");
  EXPECT_THROW(cutSkipper.skip(1), CorruptFile);
  // A value that overflows 38 digits at the column's scale.
  const Streams overflow = directV2({{maxDecimal(), 0}});
  DecimalDecoder overflowDecoder(overflow.data, overflow.secondary, RleVersion::kV2, 2, "f");
  EXPECT_THROW(overflowDecoder.next(out), CorruptFile);
  EXPECT_THROW(DecimalDecoder(overflow.data, overflow.secondary, RleVersion::kV2, 39, "f"),
               CorruptFile);
}

}  // namespace
}  // namespace quarry::orc
