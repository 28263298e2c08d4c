#include "quarry/formats/parquet/encoding/dictionary.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/codec/compression.h"
#include "quarry/formats/parquet/encoding/plain_decoder.h"
#include "quarry/formats/parquet/footer.h"
#include "quarry/formats/parquet/metadata_decoder.h"
#include "quarry/io/storage.h"
#include "tests/formats/parquet/encoding/test_encoders.h"
#include "tests/support/testdata.h"

namespace quarry::parquet {
namespace {

using testing::appendBitPackedRun;
using testing::appendRleRun;
using testing::Bytes;

TEST(DictionaryTest, GathersValuesByIndex) {
  const int64_t dict[] = {10, 20, 30};
  const uint32_t idx[] = {2, 0, 0, 1, 2};
  int64_t out[5];
  gather(dict, 3, idx, 5, out);
  EXPECT_EQ(std::vector<int64_t>(out, out + 5), (std::vector<int64_t>{30, 10, 10, 20, 30}));
}

TEST(DictionaryTest, GathersByteArrayViews) {
  const std::string_view dict[] = {"x", "yy"};
  const uint32_t idx[] = {1, 1, 0};
  std::string_view out[3];
  gather(dict, 2, idx, 3, out);
  EXPECT_EQ(out[0], "yy");
  EXPECT_EQ(out[2], "x");
}

TEST(DictionaryTest, RejectsAnIndexPastTheDictionaryNamingItAndTheSize) {
  const double dict[] = {1.0, 2.0};
  const uint32_t idx[] = {0, 1, 7, 9};
  double out[4] = {-1, -1, -1, -1};
  try {
    gather(dict, 2, idx, 4, out);
    FAIL() << "expected CorruptFile";
  } catch (const CorruptFile& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("index 7"), std::string::npos) << message;
    EXPECT_NE(message.find("dictionary of 2 values"), std::string::npos) << message;
  }
  EXPECT_EQ(out[0], -1);  // nothing written
}

TEST(DictionaryTest, AnEmptyDictionaryAcceptsOnlyAnEmptyBatch) {
  const uint32_t idx[] = {0};
  int32_t out[1];
  gather<int32_t>(nullptr, 0, idx, 0, out);
  EXPECT_THROW(gather<int32_t>(nullptr, 0, idx, 1, out), CorruptFile);
}

TEST(DictionaryTest, DecodesIndicesThenGathers) {
  Bytes page = {0x02};
  appendRleRun(page, 9, 3, 2);
  appendBitPackedRun(page, {0, 1, 2, 3, 3, 2, 1, 0}, 2);
  auto indices = dictionaryIndexDecoder(page);
  uint32_t idx[17];
  ASSERT_EQ(indices.getBatch(idx, 17), 17u);
  const char dict[] = {'a', 'b', 'c', 'd'};
  char out[17];
  gather(dict, 4, idx, 17, out);
  EXPECT_EQ(std::string(out, 17), "dddddddddabcddcba");
}

TEST(DictionaryTest, BitWidthZeroIndicesSelectTheOnlyEntry) {
  Bytes page = {0x00};
  appendRleRun(page, 5, 0, 0);
  auto indices = dictionaryIndexDecoder(page);
  uint32_t idx[5];
  ASSERT_EQ(indices.getBatch(idx, 5), 5u);
  const float dict[] = {2.5f};
  float out[5];
  gather(dict, 1, idx, 5, out);
  for (float v : out) EXPECT_EQ(v, 2.5f);
}

// parquet-testing's bad_data/ARROW-GH-43605.parquet must read: one optional INT32
// column, a one-entry dictionary, and a v2 data page (ZSTD) whose indices have
// bit width 0.
TEST(DictionaryTest, ReadsTheBitWidthZeroIndexPageOfArrowGh43605) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto file = io::openObject(
      (quarry::testing::parquetTestingDir() / "bad_data/ARROW-GH-43605.parquet").string());
  const ParquetFooter footer = readFooter(*file);
  const ColumnMetaData& meta = *footer.metadata.row_groups.at(0).columns.at(0).meta_data;
  std::vector<uint8_t> chunk(static_cast<size_t>(meta.total_compressed_size));
  file->readAt(static_cast<uint64_t>(meta.dictionary_page_offset.value_or(meta.data_page_offset)),
               chunk);
  std::span<const uint8_t> rest(chunk);

  uint32_t headerSize = 0;
  const PageHeader dictHeader = decodePageHeader(rest, headerSize);
  ASSERT_EQ(dictHeader.type, PageType::DICTIONARY_PAGE);
  std::vector<uint8_t> dictBytes(static_cast<size_t>(dictHeader.uncompressed_page_size));
  decompress(meta.codec,
             rest.subspan(headerSize, static_cast<size_t>(dictHeader.compressed_page_size)),
             dictBytes);
  std::vector<int32_t> dict(static_cast<size_t>(dictHeader.dictionary_page_header->num_values));
  PlainDecoder(dictBytes).decodeInt32(dict.data(), dict.size());
  rest = rest.subspan(headerSize + static_cast<size_t>(dictHeader.compressed_page_size));

  const PageHeader dataHeader = decodePageHeader(rest, headerSize);
  ASSERT_TRUE(dataHeader.data_page_header_v2.has_value());
  const DataPageHeaderV2& v2 = *dataHeader.data_page_header_v2;
  ASSERT_EQ(v2.encoding, Encoding::RLE_DICTIONARY);
  const auto page = rest.subspan(headerSize, static_cast<size_t>(dataHeader.compressed_page_size));
  const size_t defBytes = static_cast<size_t>(v2.definition_levels_byte_length);
  const size_t levelBytes = defBytes + static_cast<size_t>(v2.repetition_levels_byte_length);

  RleBitPackedDecoder levels(page.first(defBytes), 1);
  std::vector<int16_t> defs(static_cast<size_t>(v2.num_values));
  ASSERT_EQ(levels.getBatch(defs.data(), defs.size()), defs.size());
  const size_t nonNull = static_cast<size_t>(std::count(defs.begin(), defs.end(), 1));
  EXPECT_EQ(nonNull, static_cast<size_t>(v2.num_values - v2.num_nulls));

  std::vector<uint8_t> values(static_cast<size_t>(dataHeader.uncompressed_page_size) - levelBytes);
  if (v2.is_compressed) {
    decompress(meta.codec, page.subspan(levelBytes), values);
  } else {
    values.assign(page.begin() + static_cast<std::ptrdiff_t>(levelBytes), page.end());
  }
  auto indices = dictionaryIndexDecoder(values);
  EXPECT_EQ(indices.bitWidth(), 0u);
  std::vector<uint32_t> idx(nonNull);
  ASSERT_EQ(indices.getBatch(idx.data(), idx.size()), nonNull);
  std::vector<int32_t> out(nonNull);
  gather(dict.data(), dict.size(), idx.data(), idx.size(), out.data());
  for (int32_t v : out) ASSERT_EQ(v, dict[0]);
}

}  // namespace
}  // namespace quarry::parquet
