#include "quarry/formats/parquet/encoding/delta_length_byte_array_decoder.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/parquet/encoding/test_encoders.h"

namespace quarry::parquet {
namespace {

using testing::Bytes;
using testing::encodeDeltaBinaryPacked;
using testing::encodeDeltaLengthByteArray;

std::vector<std::string> decodeAll(std::span<const uint8_t> data) {
  DeltaLengthByteArrayDecoder decoder(data);
  std::vector<std::string_view> views(decoder.valueCount());
  views.resize(decoder.getBatch(views.data(), views.size()));
  return std::vector<std::string>(views.begin(), views.end());
}

TEST(DeltaLengthByteArrayDecoderTest, DecodesTheSpecExample) {
  const std::vector<std::string> values = {"Hello", "World", "Foobar", "ABCDEF"};
  Bytes data = encodeDeltaBinaryPacked(std::vector<int32_t>{5, 5, 6, 6});
  const std::string bytes = "HelloWorldFoobarABCDEF";
  data.insert(data.end(), bytes.begin(), bytes.end());
  EXPECT_EQ(decodeAll(data), values);
}

TEST(DeltaLengthByteArrayDecoderTest, ViewsPointIntoThePage) {
  const Bytes data = encodeDeltaLengthByteArray({"ab", "", "cde"});
  DeltaLengthByteArrayDecoder decoder(data);
  std::string_view views[3];
  ASSERT_EQ(decoder.getBatch(views, 3), 3u);
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(views[2].data()), data.data() + data.size() - 3);
  EXPECT_EQ(decoder.offset(), data.size());
}

TEST(DeltaLengthByteArrayDecoderTest, RoundTripsInBatchesAndSkips) {
  std::mt19937 random(9);
  std::vector<std::string> values(1500);
  for (auto& v : values) v = std::string(random() % 30, static_cast<char>('a' + random() % 26));
  const Bytes data = encodeDeltaLengthByteArray(values);
  DeltaLengthByteArrayDecoder decoder(data);
  std::vector<std::string_view> out(values.size());
  size_t pos = 0;
  while (pos < values.size()) {
    const size_t n = std::min<size_t>(values.size() - pos, 1 + random() % 400);
    if (random() % 3 == 0) {
      ASSERT_EQ(decoder.skip(n), n);
    } else {
      ASSERT_EQ(decoder.getBatch(out.data() + pos, n), n);
      for (size_t i = pos; i < pos + n; ++i) ASSERT_EQ(out[i], values[i]) << i;
    }
    pos += n;
  }
  EXPECT_EQ(decoder.remaining(), 0u);
}

TEST(DeltaLengthByteArrayDecoderTest, EmptyStreamDecodesNothing) {
  const Bytes data = encodeDeltaLengthByteArray({});
  EXPECT_TRUE(decodeAll(data).empty());
}

TEST(DeltaLengthByteArrayDecoderTest, RejectsANegativeLength) {
  Bytes data = encodeDeltaBinaryPacked(std::vector<int32_t>{1, -1});
  data.insert(data.end(), {'x', 'y'});
  try {
    decodeAll(data);
    FAIL() << "expected CorruptFile";
  } catch (const CorruptFile& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("value 1"), std::string::npos) << message;
    EXPECT_NE(message.find("length -1"), std::string::npos) << message;
  }
}

TEST(DeltaLengthByteArrayDecoderTest, RejectsLengthsPastTheBytesAtEveryTruncation) {
  const std::vector<std::string> values = {"alpha", "beta", "", "gamma", "delta"};
  const Bytes full = encodeDeltaLengthByteArray(values);
  for (size_t cut = 0; cut < full.size(); ++cut) {
    const Bytes data(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
    EXPECT_THROW(decodeAll(data), CorruptFile) << "cut at " << cut;
  }
}

}  // namespace
}  // namespace quarry::parquet
