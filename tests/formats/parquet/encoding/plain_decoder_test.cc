#include "quarry/formats/parquet/encoding/plain_decoder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/parquet/encoding/test_encoders.h"

namespace quarry::parquet {
namespace {

using testing::appendLe32;
using testing::Bytes;

template <typename T>
Bytes plainBytes(const std::vector<T>& values) {
  Bytes out(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

TEST(PlainDecoderTest, DecodesFixedWidthNumbersLittleEndian) {
  const Bytes int32Bytes = {0x01, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x80};
  PlainDecoder int32s(int32Bytes);
  int32_t i32[3];
  int32s.decodeInt32(i32, 3);
  EXPECT_EQ(i32[0], 1);
  EXPECT_EQ(i32[1], -1);
  EXPECT_EQ(i32[2], std::numeric_limits<int32_t>::min());
  EXPECT_TRUE(int32s.atEnd());

  const std::vector<int64_t> longs = {0, std::numeric_limits<int64_t>::max(), -42};
  const Bytes longBytes = plainBytes(longs);
  PlainDecoder int64s(longBytes);
  int64_t i64[3];
  int64s.decodeInt64(i64, 3);
  EXPECT_EQ(std::vector<int64_t>(i64, i64 + 3), longs);

  const std::vector<float> floats = {1.5f, -0.0f, std::numeric_limits<float>::quiet_NaN()};
  const Bytes floatBytes = plainBytes(floats);
  PlainDecoder floatDecoder(floatBytes);
  float f[3];
  floatDecoder.decodeFloat(f, 3);
  EXPECT_EQ(std::memcmp(f, floats.data(), sizeof(f)), 0);  // bit-exact, NaN included

  const std::vector<double> doubles = {3.25, -1e300};
  const Bytes doubleBytes = plainBytes(doubles);
  PlainDecoder doubleDecoder(doubleBytes);
  double d[2];
  doubleDecoder.decodeDouble(d, 2);
  EXPECT_EQ(d[0], 3.25);
  EXPECT_EQ(d[1], -1e300);
}

TEST(PlainDecoderTest, DecodesInt96AsTwelveRawBytes) {
  Bytes data(24);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i);
  PlainDecoder decoder(data);
  Int96 values[2];
  decoder.decodeInt96(values, 2);
  EXPECT_EQ(values[0].bytes[0], 0);
  EXPECT_EQ(values[0].bytes[11], 11);
  EXPECT_EQ(values[1].bytes[0], 12);
  EXPECT_EQ(values[1].bytes[11], 23);
}

TEST(PlainDecoderTest, DecodesBooleansLsbFirstAcrossCalls) {
  // 1 0 1 1 0 0 0 0 | 1 1 0 (then padding)
  const Bytes data = {0b00001101, 0b00000011};
  PlainDecoder decoder(data);
  uint8_t first[3];
  decoder.decodeBooleans(first, 3);
  EXPECT_EQ(first[0], 1);
  EXPECT_EQ(first[1], 0);
  EXPECT_EQ(first[2], 1);
  decoder.skipBooleans(2);
  uint8_t rest[6];
  decoder.decodeBooleans(rest, 6);
  const uint8_t expected[6] = {0, 0, 0, 1, 1, 0};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(rest[i], expected[i]) << i;
  EXPECT_EQ(decoder.offset(), 1u);
  EXPECT_THROW(decoder.decodeBooleans(rest, 6), CorruptFile);  // 5 bits remain
}

TEST(PlainDecoderTest, DecodesByteArraysAsViewsIntoThePage) {
  Bytes data;
  for (std::string s : {"hello", "", "wörld"}) {
    appendLe32(data, static_cast<uint32_t>(s.size()));
    data.insert(data.end(), s.begin(), s.end());
  }
  PlainDecoder decoder(data);
  std::string_view values[3];
  decoder.decodeByteArrays(values, 3);
  EXPECT_EQ(values[0], "hello");
  EXPECT_EQ(values[1], "");
  EXPECT_EQ(values[2], "wörld");
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(values[0].data()), data.data() + 4);  // zero-copy
  EXPECT_TRUE(decoder.atEnd());
}

TEST(PlainDecoderTest, RejectsAByteArrayLengthPastTheDataWithItsOffset) {
  Bytes data;
  appendLe32(data, 2);
  data.insert(data.end(), {'o', 'k'});
  appendLe32(data, 1000);
  data.insert(data.end(), {'x'});
  PlainDecoder decoder(data);
  std::string_view values[2];
  try {
    decoder.decodeByteArrays(values, 2);
    FAIL() << "expected CorruptFile";
  } catch (const CorruptFile& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("offset 6"), std::string::npos) << message;
    EXPECT_NE(message.find("claims 1000 bytes"), std::string::npos) << message;
  }
  EXPECT_EQ(decoder.offset(), 0u);  // nothing consumed on error
  decoder.skipByteArrays(1);
  EXPECT_EQ(decoder.offset(), 6u);
}

TEST(PlainDecoderTest, ReturnsFixedLenByteArraysAsOneView) {
  const Bytes data = {'a', 'b', 'c', 'd', 'e', 'f', 'g'};
  PlainDecoder decoder(data);
  const auto values = decoder.decodeFixedLenByteArrays(2, 3);
  EXPECT_EQ(values.data(), data.data());
  EXPECT_EQ(values.size(), 6u);
  EXPECT_THROW(decoder.decodeFixedLenByteArrays(1, 3), CorruptFile);
  decoder.skipFixed(1, 1);
  EXPECT_TRUE(decoder.atEnd());
}

TEST(PlainDecoderTest, TruncationAtEveryByteThrowsCorruptFileForEveryType) {
  Bytes byteArrays;
  for (std::string s : {"abc", "de", "", "fghij"}) {
    appendLe32(byteArrays, static_cast<uint32_t>(s.size()));
    byteArrays.insert(byteArrays.end(), s.begin(), s.end());
  }
  for (size_t cut = 0; cut < byteArrays.size(); ++cut) {
    const Bytes data(byteArrays.begin(), byteArrays.begin() + static_cast<std::ptrdiff_t>(cut));
    PlainDecoder decoder(data);
    std::string_view values[4];
    EXPECT_THROW(decoder.decodeByteArrays(values, 4), CorruptFile) << cut;
  }
  const Bytes numbers(24, 0x11);
  for (size_t cut = 0; cut < numbers.size(); ++cut) {
    const Bytes data(numbers.begin(), numbers.begin() + static_cast<std::ptrdiff_t>(cut));
    int64_t i64[3];
    int32_t i32[6];
    Int96 i96[2];
    double d[3];
    float f[6];
    EXPECT_THROW(PlainDecoder(data).decodeInt64(i64, 3), CorruptFile);
    EXPECT_THROW(PlainDecoder(data).decodeInt32(i32, 6), CorruptFile);
    EXPECT_THROW(PlainDecoder(data).decodeInt96(i96, 2), CorruptFile);
    EXPECT_THROW(PlainDecoder(data).decodeDouble(d, 3), CorruptFile);
    EXPECT_THROW(PlainDecoder(data).decodeFloat(f, 6), CorruptFile);
    EXPECT_THROW(PlainDecoder(data).decodeFixedLenByteArrays(8, 3), CorruptFile);
  }
}

TEST(PlainDecoderTest, ZeroValuesOfAnEmptyPageDecode) {
  PlainDecoder decoder({});
  int32_t i32[1];
  std::string_view views[1];
  uint8_t bools[1];
  decoder.decodeInt32(i32, 0);
  decoder.decodeByteArrays(views, 0);
  decoder.decodeBooleans(bools, 0);
  EXPECT_TRUE(decoder.atEnd());
}

}  // namespace
}  // namespace quarry::parquet
