#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/metadata_decoder.h"
#include "tests/formats/parquet/thrift_compact_writer.h"
#include "tests/support/testdata.h"

namespace quarry::parquet {
namespace {

using quarry::testing::CompactWriter;
using T = ThriftType;

std::span<const uint8_t> span(const std::vector<uint8_t>& v) {
  return {v.data(), v.size()};
}

template <class E = CorruptFile>
std::string messageOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an exception";
  return "";
}

TEST(MetadataPageDecoder, DecodesPageHeadersOfEveryKind) {
  CompactWriter w;
  w.structBody([&] {  // a v1 data page with statistics holding only deprecated min/max
    w.i32(1, 0), w.i32(2, 200), w.i32(3, 100), w.i32(4, -12345);
    w.structField(5, [&] {
      w.i32(1, 10), w.i32(2, 0), w.i32(3, 3), w.i32(4, 3);
      w.structField(5, [&] { w.bin(1, "z"), w.bin(2, "a"), w.i64(3, 1); });
    });
  });
  const size_t v1Size = w.bytes.size();
  w.bytes.insert(w.bytes.end(), 100, 0xee);  // the page's data follows the header
  uint32_t headerSize = 0;
  PageHeader v1 = decodePageHeader(span(w.bytes), headerSize);
  EXPECT_EQ(headerSize, v1Size);
  EXPECT_EQ(v1.type, PageType::DATA_PAGE);
  EXPECT_EQ(v1.crc, -12345);
  EXPECT_EQ(v1.data_page_header->num_values, 10);
  EXPECT_EQ(v1.data_page_header->definition_level_encoding, Encoding::RLE);
  EXPECT_EQ(v1.data_page_header->statistics->min, "a");
  EXPECT_FALSE(v1.data_page_header->statistics->min_value);

  CompactWriter v2;
  v2.structBody([&] {
    v2.i32(1, 3), v2.i32(2, 50), v2.i32(3, 40);
    v2.structField(8, [&] {
      for (int16_t id = 1; id <= 6; ++id) v2.i32(id, id * 10);
    });
  });
  PageHeader h2 = decodePageHeader(span(v2.bytes), headerSize);
  EXPECT_EQ(h2.type, PageType::DATA_PAGE_V2);
  EXPECT_EQ(h2.data_page_header_v2->num_rows, 30);
  EXPECT_EQ(h2.data_page_header_v2->repetition_levels_byte_length, 60);
  EXPECT_TRUE(h2.data_page_header_v2->is_compressed);  // the spec's default

  CompactWriter dict;
  dict.structBody([&] {
    dict.i32(1, 2), dict.i32(2, 8), dict.i32(3, 8);
    dict.structField(7, [&] { dict.i32(1, 2), dict.i32(2, 0), dict.boolean(3, true); });
  });
  PageHeader hd = decodePageHeader(span(dict.bytes), headerSize);
  EXPECT_EQ(hd.dictionary_page_header->num_values, 2);
  EXPECT_EQ(hd.dictionary_page_header->is_sorted, true);

  CompactWriter index;
  index.structBody(
      [&] { index.i32(1, 1), index.i32(2, 0), index.i32(3, 0), index.structField(6, [] {}); });
  EXPECT_TRUE(decodePageHeader(span(index.bytes), headerSize).has_index_page_header);

  CompactWriter noSize;
  noSize.structBody([&] { noSize.i32(1, 0), noSize.i32(2, 1); });
  EXPECT_NE(messageOf([&] {
              decodePageHeader(span(noSize.bytes), headerSize);
            }).find("PageHeader.compressed_page_size missing"),
            std::string::npos);
  for (size_t n = 0; n < v1Size; ++n)
    EXPECT_THROW(decodePageHeader(std::span<const uint8_t>(w.bytes.data(), n), headerSize),
                 CorruptFile);
}

TEST(MetadataPageDecoder, DecodesThePageIndex) {
  CompactWriter ci;
  ci.structBody([&] {
    ci.field(1, T::LIST), ci.listHeader(T::BOOLEAN_TRUE, 3), ci.byte(2), ci.byte(1), ci.byte(2);
    ci.list(2, T::BINARY, std::vector<std::string>{"a", "", "c"}, [&](auto& s) { ci.binary(s); });
    ci.list(3, T::BINARY, std::vector<std::string>{"b", "", "d"}, [&](auto& s) { ci.binary(s); });
    ci.i32(4, 1);
    ci.i64List(5, {0, 7, 0});
    ci.i64List(7, {1, 2, 3, 4, 5, 6});
  });
  const ColumnIndex c = decodeColumnIndex(span(ci.bytes));
  EXPECT_EQ(c.null_pages, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(c.max_values[2], "d");
  EXPECT_EQ(c.boundary_order, BoundaryOrder::ASCENDING);
  EXPECT_EQ(c.null_counts, (std::vector<int64_t>{0, 7, 0}));
  EXPECT_FALSE(c.nan_counts);
  EXPECT_EQ(c.definition_level_histograms.size(), 6u);

  CompactWriter oi;
  oi.structBody([&] {
    oi.list(1, T::STRUCT, std::vector<int>{0, 1}, [&](int i) {
      oi.structBody([&] { oi.i64(1, 4 + 100 * i), oi.i32(2, 100), oi.i64(3, 50 * i); });
    });
    oi.i64List(2, {10, 20});
  });
  const OffsetIndex o = decodeOffsetIndex(span(oi.bytes));
  ASSERT_EQ(o.page_locations.size(), 2u);
  EXPECT_EQ(o.page_locations[1].offset, 104);
  EXPECT_EQ(o.page_locations[1].first_row_index, 50);
  EXPECT_EQ(o.unencoded_byte_array_data_bytes[1], 20);
  CompactWriter noLocations;
  noLocations.structBody([&] { noLocations.i64List(2, {1}); });
  EXPECT_THROW(decodeOffsetIndex(span(noLocations.bytes)), CorruptFile);
}

TEST(MetadataPageDecoder, DecodesBloomFilterHeaders) {
  CompactWriter w;
  w.structBody([&] {
    w.i32(1, 1024);
    w.structField(2, [&] { w.structField(1, [] {}); });
    w.structField(3, [&] { w.structField(1, [] {}); });
    w.structField(4, [&] { w.structField(9, [] {}); });  // a compression this release does not know
  });
  uint32_t headerSize = 0;
  const BloomFilterHeader h = decodeBloomFilterHeader(span(w.bytes), headerSize);
  EXPECT_EQ(headerSize, w.bytes.size());
  EXPECT_EQ(h.numBytes, 1024);
  EXPECT_EQ(h.algorithm, 1);
  EXPECT_EQ(h.hash, 1);
  EXPECT_EQ(h.compression, 0);
}

/// Returns the footer bytes of a whole file, or nothing for an encrypted footer.
std::optional<std::span<const uint8_t>> footerOf(const std::vector<uint8_t>& file) {
  if (file.size() < 12 || std::memcmp(file.data() + file.size() - 4, "PAR1", 4) != 0) return {};
  const uint8_t* tail = file.data() + file.size() - 8;
  uint32_t length = tail[0] | tail[1] << 8 | tail[2] << 16 | static_cast<uint32_t>(tail[3]) << 24;
  if (length > file.size() - 12) return {};
  return std::span<const uint8_t>(tail - length, length);
}

/// Walks the pages of a column chunk, checking that the headers add up.
void checkPages(const std::vector<uint8_t>& file, const ColumnMetaData& cm, size_t& pages) {
  int64_t start =
      cm.dictionary_page_offset.value_or(0) > 0 ? *cm.dictionary_page_offset : cm.data_page_offset;
  int64_t end = start + cm.total_compressed_size;
  ASSERT_LE(end, static_cast<int64_t>(file.size()));
  int64_t values = 0;
  for (int64_t pos = start; pos < end;) {
    uint32_t headerSize = 0;
    PageHeader h = decodePageHeader(std::span(file).subspan(pos), headerSize);
    if (h.data_page_header) values += h.data_page_header->num_values, ++pages;
    if (h.data_page_header_v2) values += h.data_page_header_v2->num_values, ++pages;
    pos += headerSize + h.compressed_page_size;
  }
  EXPECT_EQ(values, cm.num_values);
}

TEST(MetadataPageRealFiles, DecodesThePageHeadersIndexesAndBloomFiltersOfParquetTesting) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  size_t pagesDecoded = 0, offsetIndexes = 0, columnIndexes = 0, bloomFilters = 0;
  for (const auto& path :
       quarry::testing::filesUnder(quarry::testing::parquetTestingDir() / "data", ".parquet")) {
    const auto file = quarry::testing::readFileBytes(path);
    const auto footer = footerOf(file);
    if (!footer) continue;  // an encrypted footer ("PARE")
    SCOPED_TRACE(path.string());
    const FileMetaData m = decodeFileMetaData(*footer);
    for (const RowGroup& g : m.row_groups) {
      for (const ColumnChunk& c : g.columns) {
        if (!c.meta_data || c.has_crypto_metadata) continue;
        const ColumnMetaData& cm = *c.meta_data;
        if (cm.codec == CompressionCodec::UNCOMPRESSED &&
            path.filename() == "dict-page-offset-zero.parquet")
          continue;  // its offsets are known to be wrong
        size_t pages = 0;
        ASSERT_NO_FATAL_FAILURE(checkPages(file, cm, pages));
        pagesDecoded += pages;
        if (c.offset_index_offset && c.offset_index_length) {
          ++offsetIndexes;
          auto bytes = std::span(file).subspan(*c.offset_index_offset, *c.offset_index_length);
          EXPECT_EQ(decodeOffsetIndex(bytes).page_locations.size(), pages);
        }
        if (c.column_index_offset && c.column_index_length) {
          ++columnIndexes;
          auto ci = decodeColumnIndex(
              std::span(file).subspan(*c.column_index_offset, *c.column_index_length));
          EXPECT_EQ(ci.null_pages.size(), ci.min_values.size());
        }
        if (cm.bloom_filter_offset) {
          ++bloomFilters;
          uint32_t headerSize = 0;
          auto h =
              decodeBloomFilterHeader(std::span(file).subspan(*cm.bloom_filter_offset), headerSize);
          EXPECT_GT(h.numBytes, 0);
          EXPECT_EQ(h.algorithm + h.hash + h.compression, 3);
        }
      }
    }
  }
  EXPECT_GT(pagesDecoded, 1000u);
  EXPECT_GT(offsetIndexes, 10u);
  EXPECT_GT(columnIndexes, 10u);
  EXPECT_GT(bloomFilters, 1u);
  std::printf("[          ] %zu pages, %zu offset indexes, %zu column indexes, %zu Bloom filters\n",
              pagesDecoded, offsetIndexes, columnIndexes, bloomFilters);
}

}  // namespace
}  // namespace quarry::parquet
