#include "quarry/formats/parquet/encoding/delta_byte_array_decoder.h"

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
using testing::encodeDeltaByteArray;
using testing::encodeDeltaLengthByteArray;

std::vector<std::string> decodeAll(std::span<const uint8_t> data) {
  DeltaByteArrayDecoder decoder(data);
  std::vector<std::string_view> views(decoder.valueCount());
  views.resize(decoder.getBatch(views.data(), views.size()));
  return std::vector<std::string>(views.begin(), views.end());
}

TEST(DeltaByteArrayDecoderTest, DecodesTheSpecExample) {
  // "axis" "axle" "babble" "babyhood": prefixes 0 2 0 3, suffixes as DLBA.
  Bytes data = encodeDeltaBinaryPacked(std::vector<int32_t>{0, 2, 0, 3});
  const Bytes suffixes = encodeDeltaLengthByteArray({"axis", "le", "babble", "yhood"});
  data.insert(data.end(), suffixes.begin(), suffixes.end());
  EXPECT_EQ(decodeAll(data), (std::vector<std::string>{"axis", "axle", "babble", "babyhood"}));
}

TEST(DeltaByteArrayDecoderTest, CarriesThePreviousValueAcrossBatchesAndSkips) {
  std::mt19937 random(4);
  std::vector<std::string> values;
  std::string current = "root";
  for (int i = 0; i < 2000; ++i) {
    current.resize(random() % (current.size() + 1));
    current += std::string(random() % 5, static_cast<char>('a' + random() % 26));
    values.push_back(current);
  }
  const Bytes data = encodeDeltaByteArray(values);
  DeltaByteArrayDecoder decoder(data);
  size_t pos = 0;
  while (pos < values.size()) {
    const size_t n = std::min<size_t>(values.size() - pos, 1 + random() % 300);
    if (random() % 3 == 0) {
      ASSERT_EQ(decoder.skip(n), n);
    } else {
      std::vector<std::string_view> out(n);
      ASSERT_EQ(decoder.getBatch(out.data(), n), n);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], values[pos + i]) << pos + i;
    }
    pos += n;
  }
  std::string_view extra;
  EXPECT_EQ(decoder.getBatch(&extra, 1), 0u);
}

TEST(DeltaByteArrayDecoderTest, DecodesFixedLengthValues) {
  const std::vector<std::string> values = {"AAAA", "AAAB", "AABB", "ZZZZ", "ZZZZ"};
  EXPECT_EQ(decodeAll(encodeDeltaByteArray(values)), values);
}

TEST(DeltaByteArrayDecoderTest, DecodesEmptyValuesAndAnEmptyStream) {
  EXPECT_EQ(decodeAll(encodeDeltaByteArray({"", "", "x", ""})),
            (std::vector<std::string>{"", "", "x", ""}));
  EXPECT_TRUE(decodeAll(encodeDeltaByteArray({})).empty());
}

TEST(DeltaByteArrayDecoderTest, RejectsAPrefixLongerThanThePreviousValue) {
  Bytes data = encodeDeltaBinaryPacked(std::vector<int32_t>{0, 3});
  const Bytes suffixes = encodeDeltaLengthByteArray({"ab", "c"});
  data.insert(data.end(), suffixes.begin(), suffixes.end());
  try {
    decodeAll(data);
    FAIL() << "expected CorruptFile";
  } catch (const CorruptFile& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("value 1 has prefix length 3"), std::string::npos) << message;
    EXPECT_NE(message.find("has 2 bytes"), std::string::npos) << message;
  }
}

TEST(DeltaByteArrayDecoderTest, RejectsStreamsOfDifferentCounts) {
  Bytes data = encodeDeltaBinaryPacked(std::vector<int32_t>{0, 0, 0});
  const Bytes suffixes = encodeDeltaLengthByteArray({"a", "b"});
  data.insert(data.end(), suffixes.begin(), suffixes.end());
  EXPECT_THROW(DeltaByteArrayDecoder{data}, CorruptFile);
}

TEST(DeltaByteArrayDecoderTest, TruncationAtEveryByteThrowsCorruptFile) {
  const Bytes full = encodeDeltaByteArray({"prefix-one", "prefix-two", "other", "otherwise"});
  for (size_t cut = 0; cut < full.size(); ++cut) {
    const Bytes data(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
    EXPECT_THROW(decodeAll(data), CorruptFile) << "cut at " << cut;
  }
}

}  // namespace
}  // namespace quarry::parquet
