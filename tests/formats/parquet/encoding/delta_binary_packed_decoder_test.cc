#include "quarry/formats/parquet/encoding/delta_binary_packed_decoder.h"

#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/encoding/rle_bit_packed_decoder.h"
#include "quarry/formats/parquet/footer.h"
#include "quarry/formats/parquet/metadata_decoder.h"
#include "quarry/io/storage.h"
#include "tests/formats/parquet/encoding/test_encoders.h"
#include "tests/support/testdata.h"

namespace quarry::parquet {
namespace {

using testing::appendUleb128;
using testing::Bytes;
using testing::DeltaOptions;
using testing::encodeDeltaBinaryPacked;
using testing::zigzag;

template <typename T>
std::vector<T> decodeAll(std::span<const uint8_t> data) {
  DeltaBinaryPackedDecoder<T> decoder(data);
  std::vector<T> out(decoder.valueCount());
  out.resize(decoder.getBatch(out.data(), out.size()));
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

/// The spec's examples with block size 8 (which it calls invalid) are rejected.
TEST(DeltaBinaryPackedDecoderTest, RejectsTheSpecExamplesBlockSizeOfEight) {
  const Bytes example1 = {8, 1, 5, 2, 2, 0};
  const std::string message = corruptMessage([&] { decodeAll<int32_t>(example1); });
  EXPECT_NE(message.find("block size 8"), std::string::npos) << message;
}

TEST(DeltaBinaryPackedDecoderTest, DecodesSpecExampleOneWithAValidBlockSize) {
  // 1 2 3 4 5: header 128 4 5 zigzag(1); block: min delta zigzag(1), widths 0 0 0 0.
  const Bytes data = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
  EXPECT_EQ(decodeAll<int32_t>(data), (std::vector<int32_t>{1, 2, 3, 4, 5}));
  DeltaBinaryPackedDecoder<int32_t> decoder(data);
  EXPECT_EQ(decoder.endOffset(), data.size());
}

TEST(DeltaBinaryPackedDecoderTest, DecodesSpecExampleTwoWithAValidBlockSize) {
  // 7 5 3 1 2 3 4 5: min delta -2, relative deltas 0 0 0 3 3 3 3 at 2 bits in the
  // first miniblock (padded to 32 values = 8 bytes); the other three are unused.
  Bytes data = {0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0x00, 0x00, 0x00};
  const Bytes miniblock = {0xC0, 0x3F, 0, 0, 0, 0, 0, 0};
  data.insert(data.end(), miniblock.begin(), miniblock.end());
  EXPECT_EQ(decodeAll<int64_t>(data), (std::vector<int64_t>{7, 5, 3, 1, 2, 3, 4, 5}));
  EXPECT_EQ(DeltaBinaryPackedDecoder<int64_t>(data).endOffset(), data.size());
}

template <typename T>
void checkRoundTrip(const std::vector<T>& values, DeltaOptions options = {}) {
  const Bytes data = encodeDeltaBinaryPacked(values, options);
  DeltaBinaryPackedDecoder<T> decoder(data);
  ASSERT_EQ(decoder.valueCount(), values.size());
  EXPECT_EQ(decoder.endOffset(), data.size());
  std::vector<T> out(values.size() + 1);
  ASSERT_EQ(decoder.getBatch(out.data(), out.size()), values.size());
  out.pop_back();
  EXPECT_EQ(out, values);
  EXPECT_EQ(decoder.endOffset(), data.size());
  EXPECT_EQ(decoder.getBatch(out.data(), 1), 0u);
}

TEST(DeltaBinaryPackedDecoderTest, RoundTripsAroundBlockAndMiniblockBoundaries) {
  std::mt19937_64 random(3);
  for (size_t n : {0, 1, 2, 31, 32, 33, 128, 129, 130, 257, 1000}) {
    std::vector<int64_t> longs(n);
    std::vector<int32_t> ints(n);
    for (size_t i = 0; i < n; ++i) {
      longs[i] = static_cast<int64_t>(random() % 100000) - 50000;
      ints[i] = static_cast<int32_t>(random() % 1000);
    }
    checkRoundTrip(longs);
    checkRoundTrip(ints);
    checkRoundTrip(ints, {.blockSize = 256, .miniblocks = 8});
    checkRoundTrip(longs, {.blockSize = 128, .miniblocks = 1});
  }
}

TEST(DeltaBinaryPackedDecoderTest, WrapsAroundAtTheExtremesOfInt64) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  // Deltas of +-(2^64 - 1) need 64-bit miniblocks; min delta is INT64_MIN.
  checkRoundTrip(std::vector<int64_t>{kMin, kMax, kMin, kMax, 0, -1, kMin});
  checkRoundTrip(std::vector<int64_t>{0, kMin, 0, kMin});
  std::mt19937_64 random(5);
  std::vector<int64_t> wild(700);
  for (auto& v : wild) v = static_cast<int64_t>(random());
  checkRoundTrip(wild);
}

TEST(DeltaBinaryPackedDecoderTest, WrapsAroundAtTheExtremesOfInt32) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  checkRoundTrip(std::vector<int32_t>{kMin, kMax, kMin, kMax, 0, -1, kMin});
  std::mt19937 random(5);
  std::vector<int32_t> wild(300);
  for (auto& v : wild) v = static_cast<int32_t>(random());
  checkRoundTrip(wild);
}

TEST(DeltaBinaryPackedDecoderTest, AcceptsGarbageBitWidthsOfUnusedMiniblocks) {
  std::vector<int32_t> values(40);  // 39 deltas: only miniblock 0 and 1 of 4 are used
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>(i * i);
  checkRoundTrip(values, {.unusedBitWidth = 0xFF});
}

TEST(DeltaBinaryPackedDecoderTest, RejectsAUsedMiniblockWiderThan64Bits) {
  // One delta, in miniblock 0, claiming 65 bits.
  Bytes data = {0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 65, 0, 0, 0};
  data.resize(data.size() + 32 * 65 / 8);
  const std::string message = corruptMessage([&] { decodeAll<int64_t>(data); });
  EXPECT_NE(message.find("bit width 65"), std::string::npos) << message;
  EXPECT_NE(message.find("offset 5"), std::string::npos) << message;
  EXPECT_THROW(decodeAll<int32_t>(data), CorruptFile);
}

TEST(DeltaBinaryPackedDecoderTest, ReadsInt32DeltasWiderThan32Bits) {
  // Writers computing INT32 deltas in 64-bit arithmetic (DuckDB does) need 33
  // bits for values spanning the whole range; modulo 2^32 they give the values back.
  const std::vector<int64_t> wide = {INT32_MIN, INT32_MAX, INT32_MIN, 0, INT32_MAX, -1, 7};
  const Bytes data = encodeDeltaBinaryPacked(wide);
  // Header: block size 128 (2 bytes), 4 miniblocks, 7 values, first value
  // zigzag(INT32_MIN) (5 bytes); block: min delta zigzag(-(2^32 - 1)) (5 bytes),
  // then the first miniblock's bit width at offset 14.
  ASSERT_GT(data.size(), 14u);
  EXPECT_EQ(data[14], 33) << "the first miniblock is expected to need 33 bits";
  const std::vector<int32_t> expected(wide.begin(), wide.end());
  EXPECT_EQ(decodeAll<int32_t>(data), expected);
}

TEST(DeltaBinaryPackedDecoderTest, RejectsInvalidHeaders) {
  EXPECT_THROW(decodeAll<int32_t>(Bytes{0x00, 0x01, 0x01, 0x00}), CorruptFile);  // block 0
  EXPECT_THROW(decodeAll<int32_t>(Bytes{0x80, 0x01, 0x00, 0x01, 0x00}), CorruptFile);
  EXPECT_THROW(decodeAll<int32_t>(Bytes{0x80, 0x01, 0x03, 0x01, 0x00}), CorruptFile);
  EXPECT_THROW(decodeAll<int32_t>(Bytes{0x80, 0x01, 0x20, 0x01, 0x00}), CorruptFile);  // 4/mb
  Bytes huge;
  appendUleb128(huge, uint64_t{1} << 40);
  huge.insert(huge.end(), {0x01, 0x01, 0x00});
  EXPECT_THROW(decodeAll<int64_t>(huge), CorruptFile);
  EXPECT_THROW(decodeAll<int64_t>(Bytes{0x80, 0x01, 0x04}), CorruptFile);  // cut off
}

TEST(DeltaBinaryPackedDecoderTest, AHugeDeclaredCountAllocatesNothingAndFailsWhereBytesEnd) {
  Bytes data = {0x80, 0x01, 0x04};
  appendUleb128(data, uint64_t{1} << 62);
  data.push_back(0x00);
  DeltaBinaryPackedDecoder<int64_t> decoder(data);
  EXPECT_EQ(decoder.valueCount(), uint64_t{1} << 62);
  int64_t out[4];
  EXPECT_THROW(decoder.getBatch(out, 4), CorruptFile);  // no block after the first value
  EXPECT_THROW(decoder.endOffset(), CorruptFile);
}

TEST(DeltaBinaryPackedDecoderTest, SkipsAndDecodesInAnyBatchSizes) {
  std::mt19937_64 random(11);
  std::vector<int64_t> values(2000);
  int64_t v = 0;
  for (auto& x : values) x = v += static_cast<int64_t>(random() % 2000) - 1000;
  const Bytes data = encodeDeltaBinaryPacked(values);
  DeltaBinaryPackedDecoder<int64_t> decoder(data);
  std::vector<int64_t> out(values.size());
  size_t pos = 0;
  while (pos < values.size()) {
    const size_t n = std::min<size_t>(values.size() - pos, 1 + random() % 500);
    if (random() % 3 == 0) {
      ASSERT_EQ(decoder.skip(n), n);
    } else {
      ASSERT_EQ(decoder.getBatch(out.data() + pos, n), n);
      for (size_t i = pos; i < pos + n; ++i) ASSERT_EQ(out[i], values[i]) << i;
    }
    pos += n;
    EXPECT_EQ(decoder.endOffset(), data.size());
  }
  EXPECT_EQ(decoder.remaining(), 0u);
}

TEST(DeltaBinaryPackedDecoderTest, ReportsOffsetsFromTheStartOfTheEnclosingSpan) {
  Bytes data = {0xEE, 0xEE, 0xEE};
  const Bytes stream = encodeDeltaBinaryPacked(std::vector<int32_t>{5, 6, 100});
  data.insert(data.end(), stream.begin(), stream.end());
  DeltaBinaryPackedDecoder<int32_t> decoder(data, 3);
  EXPECT_EQ(decoder.endOffset(), data.size());
  int32_t out[3];
  ASSERT_EQ(decoder.getBatch(out, 3), 3u);
  EXPECT_EQ(out[2], 100);
}

TEST(DeltaBinaryPackedDecoderTest, TruncationAtEveryByteThrowsCorruptFile) {
  std::vector<int64_t> values(300);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i * 7919 % 1013);
  const Bytes full = encodeDeltaBinaryPacked(values);
  for (size_t cut = 0; cut < full.size(); ++cut) {
    const Bytes data(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
    try {
      DeltaBinaryPackedDecoder<int64_t> decoder(data);
      std::vector<int64_t> out(values.size());
      decoder.getBatch(out.data(), out.size());
      ADD_FAILURE() << "decoded a stream cut at " << cut << " of " << full.size();
    } catch (const CorruptFile& e) {
      EXPECT_NE(std::string(e.what()).find("offset"), std::string::npos) << e.what();
    }
  }
}

// parquet-testing's delta_binary_packed.parquet: 66 columns, one bit width each
// from 0 to 64 (INT64) plus an INT32 column, 200 values in one v2 data page each,
// two blocks of 4 and 3 miniblocks (the last with garbage-free unused widths).
TEST(DeltaBinaryPackedDecoderTest, DecodesEveryColumnOfParquetTestingsDeltaFile) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto dir = quarry::testing::parquetTestingDir() / "data";
  auto file = io::openObject((dir / "delta_binary_packed.parquet").string());
  const ParquetFooter footer = readFooter(*file);

  std::ifstream csv(dir / "delta_binary_packed_expect.csv");
  std::string line;
  std::getline(csv, line);  // column names
  std::vector<std::vector<int64_t>> expected;
  while (std::getline(csv, line)) {
    std::vector<int64_t> row;
    std::stringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) row.push_back(std::stoll(cell));
    expected.push_back(row);
  }
  ASSERT_EQ(expected.size(), 200u);

  const auto& columns = footer.metadata.row_groups.at(0).columns;
  ASSERT_EQ(columns.size(), 66u);
  for (size_t c = 0; c < columns.size(); ++c) {
    const ColumnMetaData& meta = *columns[c].meta_data;
    ASSERT_EQ(meta.codec, CompressionCodec::UNCOMPRESSED);
    std::vector<uint8_t> chunk(static_cast<size_t>(meta.total_compressed_size));
    file->readAt(static_cast<uint64_t>(meta.data_page_offset), chunk);
    uint32_t headerSize = 0;
    const PageHeader header = decodePageHeader(chunk, headerSize);
    ASSERT_TRUE(header.data_page_header_v2.has_value()) << c;
    const DataPageHeaderV2& v2 = *header.data_page_header_v2;
    ASSERT_EQ(v2.encoding, Encoding::DELTA_BINARY_PACKED);
    const auto page = std::span<const uint8_t>(chunk).subspan(
        headerSize, static_cast<size_t>(header.compressed_page_size));
    // Optional columns: v2 definition levels (bit width 1) come first, uncompressed.
    const size_t levelBytes = static_cast<size_t>(v2.definition_levels_byte_length) +
                              static_cast<size_t>(v2.repetition_levels_byte_length);
    RleBitPackedDecoder levels(
        page.subspan(0, static_cast<size_t>(v2.definition_levels_byte_length)), 1);
    std::vector<int16_t> defs(200);
    ASSERT_EQ(levels.getBatch(defs.data(), defs.size()), 200u);
    ASSERT_EQ(std::count(defs.begin(), defs.end(), 1), 200);
    const auto values = page.subspan(levelBytes);
    if (c == 65) {
      DeltaBinaryPackedDecoder<int32_t> decoder(values);
      std::vector<int32_t> out(200);
      ASSERT_EQ(decoder.getBatch(out.data(), out.size()), 200u);
      EXPECT_EQ(decoder.endOffset(), values.size());
      for (size_t r = 0; r < 200; ++r) ASSERT_EQ(out[r], expected[r][c]) << "row " << r;
    } else {
      DeltaBinaryPackedDecoder<int64_t> decoder(values);
      std::vector<int64_t> out(200);
      ASSERT_EQ(decoder.getBatch(out.data(), out.size()), 200u);
      EXPECT_EQ(decoder.endOffset(), values.size()) << "column " << c;
      for (size_t r = 0; r < 200; ++r) {
        ASSERT_EQ(out[r], expected[r][c]) << "column bitwidth" << c << " row " << r;
      }
    }
  }
}

}  // namespace
}  // namespace quarry::parquet
