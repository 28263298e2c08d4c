// FileSplitProvider: one FileSplit per Parquet row group / ORC stripe, its byte
// range the unit's extent "so the reader's midpoint rule selects it", adjacent
// small units coalesced up to a target size, each carrying its statistics.
#include "quarry/engine/source/file_split_provider.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "quarry/common/error.h"
#include "quarry/engine/source/orc_file_statistics.h"
#include "quarry/engine/source/parquet_file_statistics.h"
#include "quarry/formats/orc/orc_file_reader.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_limits.h"
#include "tests/support/build_paths.h"
#include "tests/support/testdata.h"

namespace quarry::engine {
namespace {

namespace fs = std::filesystem;

TEST(FileSplitProviderTest, CoalescesAdjacentUnitsUpToTheTarget) {
  const std::vector<SplitUnit> units = {{4, 10}, {14, 10}, {24, 30}, {54, 5}, {59, 5}};
  using Runs = std::vector<std::pair<size_t, size_t>>;
  EXPECT_EQ(coalesceUnits(units, 0), (Runs{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}}));
  EXPECT_EQ(coalesceUnits(units, 20), (Runs{{0, 2}, {2, 3}, {3, 5}}));
  // A unit larger than the target is a split of its own.
  EXPECT_EQ(coalesceUnits(units, 25), (Runs{{0, 2}, {2, 3}, {3, 5}}));
  EXPECT_EQ(coalesceUnits(units, 1000), (Runs{{0, 5}}));
  EXPECT_TRUE(coalesceUnits({}, 10).empty());
}

/// A Parquet file of several row groups from the test fixtures.
fs::path multiGroupFile() {
  return fs::path(QUARRY_SOURCE_DIR) / "tests" / "fixtures" / "predicate_row_groups.parquet";
}

TEST(FileSplitProviderTest, ParquetSplitsAreSelectedByTheMidpointRule) {
  auto reader = parquet::ParquetFileReader::open(multiGroupFile().string());
  const auto& metadata = reader->metadata();
  ASSERT_GT(metadata.row_groups.size(), 2u);
  for (uint64_t target : {uint64_t{0}, uint64_t{1} << 12, uint64_t{1} << 40}) {
    SCOPED_TRACE(target);
    const auto splits =
        FileSplitProvider::parquetSplits(reader->uri(), metadata, reader->schema(), {target, true});
    std::vector<int> owner(metadata.row_groups.size(), -1);
    int64_t rows = 0;
    for (size_t i = 0; i < splits.size(); ++i) {
      const FileSplit& split = splits[i];
      EXPECT_EQ(split.format, "parquet");
      EXPECT_EQ(split.uri, reader->uri());
      // "byteRange(start, end) keeps the row groups whose midpoint lies in [start, end)".
      parquet::RowLimits limits;
      limits.byteRanges.push_back(
          {static_cast<int64_t>(split.start), static_cast<int64_t>(split.start + split.length)});
      const auto plan = parquet::planRowGroups(metadata, limits, false, reader->uri());
      size_t first = SIZE_MAX, count = 0;
      for (size_t g = 0; g < plan.inByteRange.size(); ++g) {
        if (!plan.inByteRange[g]) continue;
        EXPECT_EQ(owner[g], -1) << "row group " << g << " in two splits";
        owner[g] = static_cast<int>(i);
        first = std::min(first, g);
        ++count;
      }
      ASSERT_GT(count, 0u);
      if (target == 0 || split.length > target) {
        EXPECT_EQ(count, 1u);
      }
      // The statistics are those of exactly the row groups the range selects.
      ASSERT_TRUE(split.statistics);
      EXPECT_EQ(*split.statistics,
                ParquetFileStatistics::extractRowGroups(metadata, reader->schema(), first, count));
      rows += split.statistics->rowCount;
    }
    for (size_t g = 0; g < owner.size(); ++g) EXPECT_NE(owner[g], -1) << "row group " << g;
    EXPECT_EQ(rows, metadata.num_rows);
    if (target == 0) {
      EXPECT_EQ(splits.size(), metadata.row_groups.size());
    }
    if (target == uint64_t{1} << 40) {
      ASSERT_EQ(splits.size(), 1u);
      EXPECT_EQ(*splits[0].statistics, ParquetFileStatistics::extract(metadata, reader->schema()));
    }
  }
  const auto bare =
      FileSplitProvider::parquetSplits(reader->uri(), metadata, reader->schema(), {0, false});
  EXPECT_FALSE(bare.front().statistics);
}

TEST(FileSplitProviderTest, RefusesOverlappingRowGroups) {
  parquet::FileMetaData metadata;
  for (int64_t offset : {100, 150}) {
    parquet::RowGroup group;
    group.num_rows = 1;
    group.file_offset = offset;
    group.total_compressed_size = 100;
    metadata.row_groups.push_back(group);
  }
  parquet::SchemaElement root;
  root.name = "schema";
  root.num_children = 0;
  const auto schema = parquet::FileSchema::build({root});
  try {
    FileSplitProvider::parquetSplits("f.parquet", metadata, schema);
    ADD_FAILURE() << "expected CorruptFile";
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find("f.parquet: row group 1 starts at byte 150"),
              std::string::npos)
        << e.what();
  }
}

TEST(FileSplitProviderTest, OrcSplitsPerStripe) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const fs::path path =
      quarry::testing::testdataDir() / "orc" / "examples" / "TestOrcFile.testStripeLevelStats.orc";
  if (!fs::exists(path)) GTEST_SKIP() << "SKIPPED LOUDLY: no " << path;
  auto reader = orc::OrcFileReader::open(path.string());
  ASSERT_GT(reader->stripeCount(), 1u);
  const auto splits =
      FileSplitProvider::orcSplits(path.string(), reader->tail(), reader->schema(), {0, true});
  ASSERT_EQ(splits.size(), reader->stripeCount());
  int64_t rows = 0;
  for (size_t s = 0; s < splits.size(); ++s) {
    const auto& stripe = reader->tail().footer.stripes(static_cast<int>(s));
    EXPECT_EQ(splits[s].start, stripe.offset());
    EXPECT_EQ(splits[s].length, stripe.indexlength() + stripe.datalength() + stripe.footerlength());
    EXPECT_EQ(splits[s].format, "orc");
    ASSERT_TRUE(splits[s].statistics);
    EXPECT_EQ(splits[s].statistics->rowCount, static_cast<int64_t>(stripe.numberofrows()));
    rows += splits[s].statistics->rowCount;
  }
  EXPECT_EQ(rows, static_cast<int64_t>(reader->rowCount()));
  const auto one = FileSplitProvider::orcSplits(path.string(), reader->tail(), reader->schema(),
                                                {uint64_t{1} << 40, true});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].statistics->rowCount, rows);
}

}  // namespace
}  // namespace quarry::engine
