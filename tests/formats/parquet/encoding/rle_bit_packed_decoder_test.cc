#include "quarry/formats/parquet/encoding/rle_bit_packed_decoder.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "tests/formats/parquet/encoding/test_encoders.h"

namespace quarry::parquet {
namespace {

using testing::appendBitPackedRun;
using testing::appendLe32;
using testing::appendRleRun;
using testing::appendUleb128;
using testing::Bytes;
using testing::encodeHybrid;

std::vector<uint32_t> decodeAll(RleBitPackedDecoder& decoder, size_t n) {
  std::vector<uint32_t> out(n);
  out.resize(decoder.getBatch(out.data(), n));
  return out;
}

template <typename F>
std::string corruptMessage(F&& f) {
  try {
    f();
  } catch (const CorruptFile& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected CorruptFile";
  return "";
}

TEST(RleBitPackedDecoderTest, DecodesTheWorkedExampleOfTheFileComment) {
  const Bytes data = {0x14, 0x04, 0x03, 0x88, 0xC6, 0xFA};
  RleBitPackedDecoder decoder(data, 3);
  const std::vector<uint32_t> expected = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(decodeAll(decoder, 100), expected);
}

TEST(RleBitPackedDecoderTest, BitWidthZeroRunsCarryNoValueBytes) {
  // A run of 44 zeros is its header alone (apache/arrow#3400's page).
  const Bytes data = {0x58};
  RleBitPackedDecoder decoder(data, 0);
  EXPECT_EQ(decodeAll(decoder, 50), std::vector<uint32_t>(44, 0));
}

TEST(RleBitPackedDecoderTest, DictionaryIndicesOfBitWidthZeroRead) {
  // ARROW-GH-43605's shape: width byte 0, then an RLE run with no value bytes.
  Bytes data = {0x00};
  appendRleRun(data, 21186, 0, 0);
  auto decoder = RleBitPackedDecoder::forDictionaryIndices(data);
  EXPECT_EQ(decoder.bitWidth(), 0u);
  EXPECT_EQ(decodeAll(decoder, 21186), std::vector<uint32_t>(21186, 0));
  EXPECT_EQ(decoder.encodedSize(), data.size());
}

TEST(RleBitPackedDecoderTest, DictionaryIndicesReadTheirWidthFromTheFirstByte) {
  Bytes data = {0x0A};
  appendBitPackedRun(data, {1000, 3, 1023, 0, 512, 7, 8, 9}, 10);
  auto decoder = RleBitPackedDecoder::forDictionaryIndices(data);
  EXPECT_EQ(decodeAll(decoder, 8), (std::vector<uint32_t>{1000, 3, 1023, 0, 512, 7, 8, 9}));
}

TEST(RleBitPackedDecoderTest, EmptyDictionaryIndexPageDecodesNoValues) {
  auto decoder = RleBitPackedDecoder::forDictionaryIndices({});
  uint32_t out[4];
  EXPECT_EQ(decoder.getBatch(out, 4), 0u);
}

TEST(RleBitPackedDecoderTest, RejectsADictionaryIndexWidthAbove32) {
  const Bytes data = {33, 0x02, 0x00};
  const std::string message =
      corruptMessage([&] { RleBitPackedDecoder::forDictionaryIndices(data); });
  EXPECT_NE(message.find("bit width 33"), std::string::npos) << message;
}

TEST(RleBitPackedDecoderTest, LengthPrefixedLevelsReportWhereTheValuesStart) {
  // A data page v1: definition levels with their 4-byte length, then values.
  Bytes runs;
  appendRleRun(runs, 5, 1, 1);
  appendBitPackedRun(runs, {0, 1, 1, 0, 1, 0, 0, 1}, 1);
  Bytes page;
  appendLe32(page, static_cast<uint32_t>(runs.size()));
  page.insert(page.end(), runs.begin(), runs.end());
  page.insert(page.end(), {0xAA, 0xBB});  // the values section
  auto decoder = RleBitPackedDecoder::withLengthPrefix(page, 1);
  int16_t levels[13];
  ASSERT_EQ(decoder.getBatch(levels, 13), 13u);
  const int16_t expected[13] = {1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 0, 0, 1};
  for (int i = 0; i < 13; ++i) EXPECT_EQ(levels[i], expected[i]) << i;
  EXPECT_EQ(decoder.encodedSize(), 4 + runs.size());
  EXPECT_EQ(page[decoder.encodedSize()], 0xAA);
}

TEST(RleBitPackedDecoderTest, DecodesRleBooleansAfterTheirLengthPrefix) {
  Bytes runs;
  appendBitPackedRun(runs, {1, 0, 1}, 1);
  appendRleRun(runs, 4, 1, 1);
  Bytes page;
  appendLe32(page, static_cast<uint32_t>(runs.size()));
  page.insert(page.end(), runs.begin(), runs.end());
  auto decoder = RleBitPackedDecoder::withLengthPrefix(page, 1);
  // Only the 3 real values of the padded group are wanted, then the RLE run;
  // the caller knows the count, the padding is skipped.
  uint8_t values[3];
  ASSERT_EQ(decoder.getBatch(values, 3), 3u);
  EXPECT_EQ(values[0], 1);
  EXPECT_EQ(values[1], 0);
  EXPECT_EQ(values[2], 1);
}

TEST(RleBitPackedDecoderTest, RejectsALengthPrefixPastTheData) {
  Bytes page;
  appendLe32(page, 10);
  page.insert(page.end(), {0x02, 0x01});
  const std::string message =
      corruptMessage([&] { RleBitPackedDecoder::withLengthPrefix(page, 1); });
  EXPECT_NE(message.find("claims 10 bytes"), std::string::npos) << message;
  EXPECT_THROW(RleBitPackedDecoder::withLengthPrefix(Bytes{0x01, 0x00}, 1), CorruptFile);
}

TEST(RleBitPackedDecoderTest, ARunLongerThanTheCallerNeedsIsCutByTheCount) {
  Bytes data;
  appendRleRun(data, 1000, 5, 3);
  RleBitPackedDecoder decoder(data, 3);
  uint32_t out[10];
  EXPECT_EQ(decoder.getBatch(out, 10), 10u);
  for (uint32_t v : out) EXPECT_EQ(v, 5u);
}

TEST(RleBitPackedDecoderTest, StopsCleanlyWhenTheRunsEnd) {
  Bytes data;
  appendRleRun(data, 3, 2, 2);
  RleBitPackedDecoder decoder(data, 2);
  uint32_t out[10];
  EXPECT_EQ(decoder.getBatch(out, 10), 3u);
  EXPECT_EQ(decoder.getBatch(out, 10), 0u);
}

TEST(RleBitPackedDecoderTest, ReadsTheValuesPresentInABitPackedRunCutShort) {
  // The header claims 2 groups (16 values of 4 bits, 8 bytes); 3 bytes follow.
  const Bytes data = {0x05, 0x21, 0x43, 0x65};
  RleBitPackedDecoder decoder(data, 4);
  uint32_t out[6];
  ASSERT_EQ(decoder.getBatch(out, 6), 6u);
  for (uint32_t i = 0; i < 6; ++i) EXPECT_EQ(out[i], i + 1);
  const std::string message = corruptMessage([&] { decoder.getBatch(out, 1); });
  EXPECT_NE(message.find("offset 0"), std::string::npos) << message;
  EXPECT_NE(message.find("claims 16 values"), std::string::npos) << message;
}

TEST(RleBitPackedDecoderTest, RejectsRunLengthsOutsideTheSpecRange) {
  const Bytes emptyRle = {0x00, 0x01};
  RleBitPackedDecoder rle(emptyRle, 1);
  EXPECT_THROW(decodeAll(rle, 1), CorruptFile);
  const Bytes emptyBitPacked = {0x01};
  RleBitPackedDecoder bitPacked(emptyBitPacked, 1);
  EXPECT_THROW(decodeAll(bitPacked, 1), CorruptFile);
  Bytes tooLong;
  appendUleb128(tooLong, uint64_t{1} << 32);  // RLE run of 2^31
  tooLong.push_back(0x01);
  RleBitPackedDecoder decoder(tooLong, 1);
  const std::string message = corruptMessage([&] { decodeAll(decoder, 1); });
  EXPECT_NE(message.find("2147483648"), std::string::npos) << message;
  // 2^61 groups: 2^64 values, which must not wrap around to a small count.
  Bytes hugeBitPacked;
  appendUleb128(hugeBitPacked, uint64_t{1} << 62 | 1);
  hugeBitPacked.insert(hugeBitPacked.end(), 64, 0xFF);
  RleBitPackedDecoder huge(hugeBitPacked, 1);
  const std::string hugeMessage = corruptMessage([&] { decodeAll(huge, 1); });
  EXPECT_NE(hugeMessage.find("2305843009213693952 groups of 8"), std::string::npos) << hugeMessage;
  // The largest legal bit-packed run, 268435455 groups, is accepted.
  Bytes largest;
  appendUleb128(largest, uint64_t{268435455} << 1 | 1);
  largest.insert(largest.end(), 16, 0xFF);
  RleBitPackedDecoder legal(largest, 1);
  EXPECT_EQ(decodeAll(legal, 128), std::vector<uint32_t>(128, 1));
}

TEST(RleBitPackedDecoderTest, RejectsAnRleValueWiderThanTheBitWidth) {
  const Bytes data = {0x04, 0x09};  // 2 x 9 at bit width 3
  RleBitPackedDecoder decoder(data, 3);
  EXPECT_THROW(decodeAll(decoder, 2), CorruptFile);
}

TEST(RleBitPackedDecoderTest, DecodesRleValuesOfEveryByteWidth) {
  for (unsigned width : {0u, 1u, 8u, 9u, 16u, 17u, 24u, 25u, 32u}) {
    const uint32_t value = width == 0 ? 0 : static_cast<uint32_t>((uint64_t{1} << width) - 1);
    Bytes data;
    appendRleRun(data, 9, value, width);
    RleBitPackedDecoder decoder(data, width);
    EXPECT_EQ(decodeAll(decoder, 9), std::vector<uint32_t>(9, value)) << width;
  }
}

TEST(RleBitPackedDecoderTest, RoundTripsRandomDataAtEveryWidthInMixedBatchesAndSkips) {
  std::mt19937_64 random(1);
  for (unsigned width = 0; width <= 32; ++width) {
    const uint64_t mask = (uint64_t{1} << width) - 1;
    std::vector<uint64_t> values;
    while (values.size() < 3000) {
      const uint64_t v = random() & mask;
      const size_t repeat = random() % 3 == 0 ? 1 + random() % 40 : 1;
      values.insert(values.end(), repeat, v);
    }
    const Bytes data = encodeHybrid(values, width);
    RleBitPackedDecoder decoder(data, width);
    std::vector<uint32_t> out(values.size());
    size_t pos = 0;
    while (pos < values.size()) {
      const size_t n = std::min<size_t>(values.size() - pos, 1 + random() % 300);
      if (random() % 4 == 0) {
        ASSERT_EQ(decoder.skip(n), n);
      } else {
        ASSERT_EQ(decoder.getBatch(out.data() + pos, n), n);
        for (size_t i = pos; i < pos + n; ++i) {
          ASSERT_EQ(out[i], values[i]) << "width " << width << " value " << i;
        }
      }
      pos += n;
    }
  }
}

TEST(RleBitPackedDecoderTest, DecodesLevelsAsInt16) {
  std::vector<uint64_t> values;
  for (uint64_t i = 0; i < 100; ++i) values.push_back(i % 3 == 0 ? 7 : i % 8);
  const Bytes data = encodeHybrid(values, 3);
  RleBitPackedDecoder decoder(data, 3);
  std::vector<int16_t> out(values.size());
  ASSERT_EQ(decoder.getBatch(out.data(), out.size()), out.size());
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(out[i], static_cast<int16_t>(values[i]));
  RleBitPackedDecoder wide(data, 17);
  EXPECT_THROW(wide.getBatch(out.data(), 1), InvalidArgument);
}

TEST(RleBitPackedDecoderTest, TruncationAtEveryByteIsAnErrorOrAShortBatchNeverAWrongValue) {
  std::vector<uint64_t> values;
  for (uint64_t i = 0; i < 200; ++i) values.push_back(i < 50 ? 300 : (i * 37) % 1000);
  const Bytes full = encodeHybrid(values, 10);
  for (size_t cut = 0; cut < full.size(); ++cut) {
    const Bytes data(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
    RleBitPackedDecoder decoder(data, 10);
    std::vector<uint32_t> out(values.size());
    try {
      // All values may still be there when the cut only drops the last group's padding.
      const size_t got = decoder.getBatch(out.data(), out.size());
      ASSERT_TRUE(got < values.size() || cut >= full.size() - 2) << "cut at " << cut;
      for (size_t i = 0; i < got; ++i) ASSERT_EQ(out[i], values[i]) << "cut at " << cut;
    } catch (const CorruptFile& e) {
      EXPECT_NE(std::string(e.what()).find("offset"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace quarry::parquet
