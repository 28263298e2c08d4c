#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/parquet/page_values.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/io/storage.h"
#include "tests/formats/parquet/membership_fixture.h"

// ReaderOptions::dictionaryIds: ColumnReaders deliver a BYTE_ARRAY chunk whose
// data pages are all dictionary-encoded as indices plus the chunk's dictionary,
// without copying each value's bytes; a chunk that falls back to PLAIN, and every
// read without the option, is decoded plain as before.
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;
using Pages = FixtureChunk::Pages;

std::unique_ptr<ParquetFileReader> openWithIds(const std::vector<uint8_t>& bytes, bool ids) {
  ReaderOptions options;
  options.threads = 1;
  options.dictionaryIds = ids;
  return ParquetFileReader::open(std::make_unique<io::MemoryObject>("fixture.parquet", bytes), options);
}

/// Per row of the batch: x's value, or "NULL".
std::vector<std::string> rowsOf(const ColumnBatch& batch) {
  std::vector<std::string> out;
  const auto index = batch.valueIndex();
  for (int64_t r = 0; r < batch.rowCount(); ++r) {
    const int64_t v = index[static_cast<size_t>(r)];
    out.push_back(v < 0 ? "NULL" : std::string(batch.data().bytes(v)));
  }
  return out;
}

const std::vector<Raw> kValues = {std::string("b"), std::string("a"), std::nullopt, std::string("b"),
                                  std::string("c"), std::string("a")};

TEST(DictionaryIdsTest, DictionaryEncodedChunkComesAsIdsIntoItsDictionary) {
  const auto file = fileOfChunks(leafElement("x", PhysicalType::BYTE_ARRAY), {withDictionary(chunkOf(kValues))});
  auto reader = openWithIds(file, true);
  auto readers = reader->columnReaders(ColumnProjection::columns("x"));
  ASSERT_TRUE(readers->nextBatch());
  const ColumnChunkData& data = readers->column(0).data();
  ASSERT_NE(data.dictionary, nullptr);
  // The fixture's dictionary holds the distinct values in order of appearance: b, a, c.
  EXPECT_EQ(data.dictionary->count, 3u);
  EXPECT_EQ(std::vector<uint32_t>(data.dictionaryIds.begin(), data.dictionaryIds.end()),
            (std::vector<uint32_t>{0, 1, 0, 2, 1}));
  EXPECT_EQ(data.valueCount, 5);
  EXPECT_TRUE(data.byteData.empty());
  EXPECT_EQ(rowsOf(readers->column(0)), (std::vector<std::string>{"b", "a", "NULL", "b", "c", "a"}));
  EXPECT_FALSE(readers->nextBatch());
}

TEST(DictionaryIdsTest, WithoutTheOptionTheChunkIsPlain) {
  const auto file = fileOfChunks(leafElement("x", PhysicalType::BYTE_ARRAY), {withDictionary(chunkOf(kValues))});
  auto reader = openWithIds(file, false);
  auto readers = reader->columnReaders(ColumnProjection::columns("x"));
  ASSERT_TRUE(readers->nextBatch());
  EXPECT_EQ(readers->column(0).data().dictionary, nullptr);
  EXPECT_EQ(rowsOf(readers->column(0)), (std::vector<std::string>{"b", "a", "NULL", "b", "c", "a"}));
}

TEST(DictionaryIdsTest, ChunkFallingBackToPlainIsDecodedPlain) {
  // A dictionary page, an RLE_DICTIONARY page for the first half, a PLAIN page after.
  const std::vector<Raw> values = {std::string("b"), std::string("a"), std::nullopt,
                                   std::string("zz"), std::nullopt, std::string("b")};
  const auto file = fileOfChunks(leafElement("x", PhysicalType::BYTE_ARRAY),
                                 {withDictionary(chunkOf(values), Pages::kDictionaryThenPlain)});
  auto reader = openWithIds(file, true);
  auto readers = reader->columnReaders(ColumnProjection::columns("x"));
  ASSERT_TRUE(readers->nextBatch());
  const ColumnChunkData& data = readers->column(0).data();
  EXPECT_EQ(data.dictionary, nullptr);
  EXPECT_TRUE(data.dictionaryIds.empty());
  EXPECT_EQ(rowsOf(readers->column(0)), (std::vector<std::string>{"b", "a", "NULL", "zz", "NULL", "b"}));
}

TEST(DictionaryIdsTest, RowFilterKeepsTheSelectedRowsIds) {
  // Two row groups, each its own dictionary; the filter on id keeps rows 1, 3, 4 of the first.
  const auto file = fileOfChunks(leafElement("x", PhysicalType::BYTE_ARRAY),
                                 {withDictionary(chunkOf(kValues)),
                                  withDictionary(chunkOf({std::string("q"), std::string("p")}))});
  for (const bool ids : {true, false}) {
    SCOPED_TRACE(ids);
    auto reader = openWithIds(file, ids);
    auto readers = reader->columnReaders(ColumnProjection::columns("x"), P::in("id", 1, 3, 4, 7));
    ASSERT_TRUE(readers->nextBatch());
    EXPECT_EQ(readers->column(0).data().dictionary != nullptr, ids);
    EXPECT_EQ(rowsOf(readers->column(0)), (std::vector<std::string>{"a", "b", "c"}));
    ASSERT_TRUE(readers->nextBatch());
    EXPECT_EQ(rowsOf(readers->column(0)), (std::vector<std::string>{"p"}));
    EXPECT_FALSE(readers->nextBatch());
  }
}

TEST(DictionaryIdsTest, FilterOnTheDictionaryColumnReadsItsIds) {
  const auto file = fileOfChunks(leafElement("x", PhysicalType::BYTE_ARRAY), {withDictionary(chunkOf(kValues))});
  auto reader = openWithIds(file, true);
  auto readers = reader->columnReaders(ColumnProjection::columns("x"), P::eq("x", std::string("b")));
  ASSERT_TRUE(readers->nextBatch());
  EXPECT_EQ(rowsOf(readers->column(0)), (std::vector<std::string>{"b", "b"}));
}

ColumnChunkData chunkWithDictionary(size_t entries) {
  auto dictionary = std::make_shared<Dictionary>();
  dictionary->count = entries;
  dictionary->offsets.push_back(0);
  for (size_t k = 0; k < entries; ++k) {
    dictionary->bytes.push_back(static_cast<uint8_t>('a' + k));
    dictionary->offsets.push_back(static_cast<int64_t>(k + 1));
  }
  ColumnChunkData out;
  out.dictionary = std::move(dictionary);
  return out;
}

TEST(DictionaryIdsTest, IndexOutOfRangeIsCorruptFile) {
  // Bit width 2, then an RLE run of 3 values of index 3: past a dictionary of 3 entries.
  const std::vector<uint8_t> page = {2, 3 << 1, 3};
  ColumnChunkData out = chunkWithDictionary(3);
  EXPECT_THROW(appendDictionaryIds(page, 3, out), CorruptFile);
  EXPECT_EQ(out.valueCount, 0);
  EXPECT_TRUE(out.dictionaryIds.empty());
  // An empty dictionary: index 0 is out of range too.
  const std::vector<uint8_t> zeros = {1, 2 << 1, 0};
  ColumnChunkData empty = chunkWithDictionary(0);
  EXPECT_THROW(appendDictionaryIds(zeros, 2, empty), CorruptFile);
  // Index 2 of 3 is fine, and materializing gives the values' bytes.
  const std::vector<uint8_t> twos = {2, 2 << 1, 2};
  ColumnChunkData fine = chunkWithDictionary(3);
  appendDictionaryIds(twos, 2, fine);
  EXPECT_EQ(fine.valueCount, 2);
  EXPECT_EQ(fine.bytes(1), "c");
  materializeDictionaryIds(fine);
  EXPECT_EQ(fine.dictionary, nullptr);
  EXPECT_EQ(fine.valueCount, 2);
  EXPECT_EQ(fine.bytes(0), "c");
  EXPECT_EQ(fine.bytes(1), "c");
}

TEST(DictionaryIdsTest, ShortIndexStreamIsCorruptFile) {
  const std::vector<uint8_t> page = {2, 2 << 1, 1};  // two values where the page needs five
  ColumnChunkData out = chunkWithDictionary(3);
  EXPECT_THROW(appendDictionaryIds(page, 5, out), CorruptFile);
}

}  // namespace
}  // namespace quarry::parquet
