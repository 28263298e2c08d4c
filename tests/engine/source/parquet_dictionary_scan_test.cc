// The engine's Parquet scan turns a BYTE_ARRAY chunk whose data pages are all
// dictionary-encoded into dictionary blocks (block.h), filtered rows included,
// and a chunk that falls back to PLAIN into plain blocks of the same values.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "quarry/engine/source/parquet_format_reader.h"
#include "tests/engine/source/source_test_support.h"
#include "tests/formats/parquet/membership_fixture.h"
#include "tests/support/fixture_file.h"
#include "tests/support/temp_dir.h"

namespace quarry::engine {
namespace {

using parquet::testing::chunkOf;
using parquet::testing::fileOfChunks;
using parquet::testing::Raw;
using parquet::testing::withDictionary;
using Pages = parquet::testing::FixtureChunk::Pages;
using testing::columns;
using testing::wholeFile;

/// Writes `bytes` to a file of its own, removed when the object goes.
class TempFile {
 public:
  explicit TempFile(const std::vector<uint8_t>& bytes) : path_((dir_.path() / "file.parquet").string()) {
    quarry::testing::writeFileBytes(path_, bytes);
  }
  const std::string& path() const { return path_; }

 private:
  quarry::testing::TempDir dir_{"quarry-dictionary-scan"};
  std::string path_;
};

std::vector<Page> pagesOf(const std::string& path, const ReadRequest& request) {
  ParquetFormatReader reader;
  const LocalSupplier supplier = reader.read(wholeFile(path, "parquet"), request);
  std::vector<Page> pages;
  while (auto page = supplier()) pages.push_back(std::move(*page));
  return pages;
}

std::vector<std::string> valuesOf(const Block& block) {
  std::vector<std::string> out;
  for (size_t i = 0; i < block.size(); ++i) out.push_back(block.isNull(i) ? "NULL" : std::string(block.bytes(i)));
  return out;
}

parquet::SchemaElement stringColumn() {
  return parquet::testing::withLogical(parquet::testing::leafElement("x", parquet::PhysicalType::BYTE_ARRAY),
                                       parquet::testing::logical(parquet::LogicalType::Kind::STRING));
}

const std::vector<Raw> kValues = {std::string("RAIL"), std::string("AIR"), std::nullopt, std::string("RAIL")};

TEST(ParquetDictionaryScan, DictionaryEncodedChunkBecomesDictionaryBlocks) {
  const TempFile file(fileOfChunks(stringColumn(), {withDictionary(chunkOf(kValues)),
                                                    withDictionary(chunkOf({std::string("SHIP")}))}));
  const auto pages = pagesOf(file.path(), columns({"x"}));
  ASSERT_EQ(pages.size(), 2u);  // one a row group
  const Block& first = pages[0].block(0);
  EXPECT_EQ(first.type(), DataType::string());
  ASSERT_TRUE(first.isDictionary());
  EXPECT_EQ(first.dictionary()->size(), 2u);
  EXPECT_EQ(valuesOf(first), (std::vector<std::string>{"RAIL", "AIR", "NULL", "RAIL"}));
  ASSERT_TRUE(pages[1].block(0).isDictionary());
  EXPECT_NE(pages[1].block(0).dictionary(), first.dictionary());
  EXPECT_EQ(valuesOf(pages[1].block(0)), (std::vector<std::string>{"SHIP"}));
}

TEST(ParquetDictionaryScan, PushedFilterKeepsTheSelectedRowsIds) {
  const TempFile file(fileOfChunks(stringColumn(), {withDictionary(chunkOf(kValues))}));
  ReadRequest request = columns({"x", "id"});
  request.filter = parquet::FilterPredicate::in("id", int32_t{1}, int32_t{2}, int32_t{3});
  const auto pages = pagesOf(file.path(), request);
  ASSERT_EQ(pages.size(), 1u);
  ASSERT_TRUE(pages[0].block(0).isDictionary());
  EXPECT_EQ(valuesOf(pages[0].block(0)), (std::vector<std::string>{"AIR", "NULL", "RAIL"}));
  // A filter on the dictionary column itself reads its values through the ids.
  request.filter = parquet::FilterPredicate::eq("x", std::string("RAIL"));
  const auto rail = pagesOf(file.path(), request);
  ASSERT_EQ(rail.size(), 1u);
  EXPECT_EQ(valuesOf(rail[0].block(0)), (std::vector<std::string>{"RAIL", "RAIL"}));
  EXPECT_EQ(rail[0].block(1).values<int32_t>()[1], 3);
}

TEST(ParquetDictionaryScan, ChunkFallingBackToPlainBecomesAPlainBlock) {
  const std::vector<Raw> values = {std::string("a"), std::string("b"), std::string("zz"), std::nullopt};
  const TempFile file(fileOfChunks(stringColumn(), {withDictionary(chunkOf(values), Pages::kDictionaryThenPlain)}));
  const auto pages = pagesOf(file.path(), columns({"x"}));
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_FALSE(pages[0].block(0).isDictionary());
  EXPECT_EQ(valuesOf(pages[0].block(0)), (std::vector<std::string>{"a", "b", "zz", "NULL"}));
}

}  // namespace
}  // namespace quarry::engine
