#include "quarry/cli/chunk_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/io/memory_storage.h"
#include "tests/formats/parquet/thrift_compact_writer.h"

namespace quarry::cli {
namespace {

using parquet::PageType;

/// Builds a file image: "PAR1", then pages appended one by one.
class ChunkBuilder {
 public:
  ChunkBuilder() { bytes_ = {'P', 'A', 'R', '1'}; }

  /// Appends a v1 data page header (with a min_value of `statisticsBytes`
  /// bytes when non-zero) followed by `dataSize` bytes of page data; returns
  /// the header's offset. `declaredSize` overrides the header's
  /// compressed_page_size.
  uint64_t addDataPage(int32_t dataSize, int32_t numValues, size_t statisticsBytes = 0,
                       std::optional<int32_t> declaredSize = std::nullopt) {
    const uint64_t offset = bytes_.size();
    testing::CompactWriter w;
    w.structBody([&] {
      w.i32(1, static_cast<int>(PageType::DATA_PAGE));
      w.i32(2, dataSize);
      w.i32(3, declaredSize.value_or(dataSize));
      w.structField(5, [&] {
        w.i32(1, numValues);
        w.i32(2, 0);  // PLAIN
        w.i32(3, 3);  // RLE
        w.i32(4, 3);
        if (statisticsBytes > 0) {
          w.structField(5, [&] { w.bin(6, std::string(statisticsBytes, 'm')); });
        }
      });
    });
    bytes_.insert(bytes_.end(), w.bytes.begin(), w.bytes.end());
    bytes_.resize(bytes_.size() + static_cast<size_t>(dataSize), 0x5A);
    return offset;
  }

  void addRaw(const std::vector<uint8_t>& raw) {
    bytes_.insert(bytes_.end(), raw.begin(), raw.end());
  }
  uint64_t size() const { return bytes_.size(); }
  io::MemoryObject object() const { return io::MemoryObject("mem.parquet", bytes_); }

 private:
  std::vector<uint8_t> bytes_;
};

const ChunkLocation kWhere{1, 2, "a.b"};

TEST(ChunkReader, WalksEveryPageUpToTheChunkEnd) {
  ChunkBuilder file;
  const uint64_t first = file.addDataPage(10, 3);
  const uint64_t second = file.addDataPage(0, 0);
  const uint64_t third = file.addDataPage(7, 2);
  auto object = file.object();
  const auto pages = readPageHeaders(object, ChunkRange{4, file.size() - 4}, kWhere);
  ASSERT_EQ(pages.size(), 3u);
  EXPECT_EQ(pages[0].offset, first);
  EXPECT_EQ(pages[1].offset, second);
  EXPECT_EQ(pages[2].offset, third);
  EXPECT_EQ(pages[0].header.compressed_page_size, 10);
  EXPECT_EQ(pages[2].header.data_page_header->num_values, 2);
  EXPECT_EQ(pages[0].headerSize, second - first - 10);
  // A chunk this small is read in one request.
  EXPECT_EQ(object.requestCount(), 1u);
}

TEST(ChunkReader, ReadsOnlyAroundHeadersOfALargeChunk) {
  ChunkBuilder file;
  file.addDataPage(static_cast<int32_t>(kWholeChunkRead), 1);
  file.addDataPage(16, 1);
  auto object = file.object();
  const auto pages = readPageHeaders(object, ChunkRange{4, file.size() - 4}, kWhere);
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_EQ(object.requestCount(), 2u);
  EXPECT_LT(object.bytesRead(), 2 * kPageHeaderRead);
}

TEST(ChunkReader, RereadsAHeaderLargerThanTheFirstRead) {
  ChunkBuilder file;
  file.addDataPage(static_cast<int32_t>(kWholeChunkRead), 1,
                   /*statisticsBytes=*/3 * kPageHeaderRead);
  auto object = file.object();
  const auto pages = readPageHeaders(object, ChunkRange{4, file.size() - 4}, kWhere);
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(pages[0].header.data_page_header->statistics->min_value->size(), 3 * kPageHeaderRead);
}

TEST(ChunkReader, PagePastTheChunkEndIsCorruptNamingColumnAndOffset) {
  ChunkBuilder file;
  file.addDataPage(10, 1);
  const uint64_t bad = file.addDataPage(10, 1, 0, /*declaredSize=*/11);
  auto object = file.object();
  try {
    readPageHeaders(object, ChunkRange{4, file.size() - 4}, kWhere);
    FAIL() << "expected CorruptFile";
  } catch (const CorruptFile& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("mem.parquet: row group 1, column 2 'a.b'"), std::string::npos)
        << message;
    EXPECT_NE(message.find("page at offset " + std::to_string(bad)), std::string::npos) << message;
  }
}

TEST(ChunkReader, HeaderCutByTheChunkEndIsCorrupt) {
  ChunkBuilder file;
  file.addDataPage(10, 1);
  const uint64_t end = file.size();
  file.addDataPage(10, 1);
  auto object = file.object();
  // The chunk claims 3 bytes of the second header.
  EXPECT_THROW(readPageHeaders(object, ChunkRange{4, end - 4 + 3}, kWhere), CorruptFile);
}

TEST(ChunkReader, NegativePageSizeIsCorrupt) {
  ChunkBuilder file;
  file.addDataPage(0, 1, 0, /*declaredSize=*/-5);
  auto object = file.object();
  EXPECT_THROW(readPageHeaders(object, ChunkRange{4, file.size() - 4}, kWhere), CorruptFile);
}

TEST(ChunkReader, ChunkStartsAtTheLowerPlausibleOffset) {
  ChunkBuilder file;
  file.addRaw(std::vector<uint8_t>(100));
  auto object = file.object();
  parquet::ColumnMetaData meta;
  meta.total_compressed_size = 10;
  meta.data_page_offset = 50;
  meta.dictionary_page_offset = 20;
  EXPECT_EQ(columnChunkRange(object, meta, kWhere).start, 20u);
  meta.dictionary_page_offset = 0;  // a placeholder, not a dictionary page
  EXPECT_EQ(columnChunkRange(object, meta, kWhere).start, 50u);
  meta.dictionary_page_offset = 60;  // after the data page: not where the chunk starts
  EXPECT_EQ(columnChunkRange(object, meta, kWhere).start, 50u);
  meta.data_page_offset = 0;  // a chunk holding only its dictionary page
  meta.dictionary_page_offset = 4;
  EXPECT_EQ(columnChunkRange(object, meta, kWhere).start, 4u);
}

TEST(ChunkReader, ChunkOutsideTheFileIsCorrupt) {
  ChunkBuilder file;
  file.addRaw(std::vector<uint8_t>(100));
  auto object = file.object();
  parquet::ColumnMetaData meta;
  meta.data_page_offset = 50;
  meta.total_compressed_size = 55;
  EXPECT_THROW(columnChunkRange(object, meta, kWhere), CorruptFile);
  meta.total_compressed_size = -1;
  EXPECT_THROW(columnChunkRange(object, meta, kWhere), CorruptFile);
  meta.data_page_offset = 0;
  meta.total_compressed_size = 1;
  EXPECT_THROW(columnChunkRange(object, meta, kWhere), CorruptFile);
}

TEST(ChunkReader, PageIndexOutsideTheFileIsCorrupt) {
  ChunkBuilder file;
  file.addRaw(std::vector<uint8_t>(100));
  auto object = file.object();
  parquet::ColumnChunk chunk;
  chunk.offset_index_offset = 90;
  chunk.offset_index_length = 20;
  EXPECT_THROW(readOffsetIndex(object, chunk, kWhere), CorruptFile);
  chunk.column_index_offset = -1;
  chunk.column_index_length = 4;
  EXPECT_THROW(readColumnIndex(object, chunk, kWhere), CorruptFile);
  chunk.column_index_offset = 10;
  chunk.column_index_length = 0;
  EXPECT_THROW(readColumnIndex(object, chunk, kWhere), CorruptFile);
}

}  // namespace
}  // namespace quarry::cli
