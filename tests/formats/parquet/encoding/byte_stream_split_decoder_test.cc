#include "quarry/formats/parquet/encoding/byte_stream_split_decoder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/parquet/encoding/test_encoders.h"

namespace quarry::parquet {
namespace {

using testing::Bytes;
using testing::encodeByteStreamSplit;

TEST(ByteStreamSplitDecoderTest, DecodesTheSpecExample) {
  const Bytes data = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
  ByteStreamSplitDecoder decoder(data, 4);
  EXPECT_EQ(decoder.valueCount(), 3u);
  Bytes out(12);
  ASSERT_EQ(decoder.getBatch(out.data(), 3), 3u);
  EXPECT_EQ(out, (Bytes{0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6}));
}

template <typename T>
void checkRoundTrip(const std::vector<T>& values) {
  Bytes plain(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(plain.data(), values.data(), plain.size());
  const Bytes data = encodeByteStreamSplit(plain, sizeof(T));
  ByteStreamSplitDecoder decoder(data, sizeof(T));
  std::vector<T> out(values.size());
  size_t pos = 0;
  for (size_t n = 1; pos < values.size(); n = n * 2 + 1) {
    pos += decoder.getBatch(out.data() + pos, std::min(n, values.size() - pos));
  }
  if (!values.empty()) {
    ASSERT_EQ(std::memcmp(out.data(), values.data(), plain.size()), 0);
  }
}

TEST(ByteStreamSplitDecoderTest, RoundTripsEveryNumericType) {
  std::mt19937_64 random(2);
  std::vector<float> floats(333);
  std::vector<double> doubles(333);
  std::vector<int32_t> ints(333);
  std::vector<int64_t> longs(333);
  for (size_t i = 0; i < 333; ++i) {
    floats[i] = static_cast<float>(random() % 100000) / 7.0f;
    doubles[i] = static_cast<double>(random()) / 3.0;
    ints[i] = static_cast<int32_t>(random());
    longs[i] = static_cast<int64_t>(random());
  }
  floats[0] = std::numeric_limits<float>::quiet_NaN();
  doubles[0] = -std::numeric_limits<double>::infinity();
  checkRoundTrip(floats);
  checkRoundTrip(doubles);
  checkRoundTrip(ints);
  checkRoundTrip(longs);
  checkRoundTrip(std::vector<int64_t>{});
}

TEST(ByteStreamSplitDecoderTest, DecodesFixedLenByteArraysOfAnyWidth) {
  for (size_t width : {1, 2, 3, 5, 16, 33}) {
    Bytes plain(width * 50);
    for (size_t i = 0; i < plain.size(); ++i) plain[i] = static_cast<uint8_t>(i * 31 + width);
    const Bytes data = encodeByteStreamSplit(plain, width);
    ByteStreamSplitDecoder decoder(data, width);
    Bytes out(plain.size());
    ASSERT_EQ(decoder.skip(7), 7u);
    ASSERT_EQ(decoder.getBatch(out.data(), 50), 43u);
    out.resize(43 * width);
    EXPECT_EQ(out, Bytes(plain.begin() + static_cast<std::ptrdiff_t>(7 * width), plain.end()))
        << width;
  }
}

TEST(ByteStreamSplitDecoderTest, RejectsASizeThatIsNotAMultipleOfTheWidth) {
  const Bytes data(13);
  try {
    ByteStreamSplitDecoder decoder(data, 4);
    FAIL() << "expected CorruptFile";
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find("13 bytes"), std::string::npos) << e.what();
  }
}

TEST(ByteStreamSplitDecoderTest, RejectsAnOutputTypeOfAnotherWidth) {
  const Bytes data(16);
  ByteStreamSplitDecoder decoder(data, 8);
  float out[2];
  EXPECT_THROW(decoder.getBatch(out, 2), InvalidArgument);
}

}  // namespace
}  // namespace quarry::parquet
