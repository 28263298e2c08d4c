#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "quarry/formats/parquet/multi_file_row_reader.h"
#include "tests/formats/parquet/pruning_fixture.h"
#include "tests/support/fixture_file.h"
#include "tests/support/temp_dir.h"

// RowReader and MultiFileRowReader with pruning: a row group no row of which can
// match is skipped without reading any of its bytes, one every row of which
// matches is returned without evaluating the filter (and without its filter-only
// columns), and ReaderMetrics shows both. "Lying statistics" (bounds that do not
// bracket the values) make the skipping visible in the rows returned.
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;

/// Three row groups of x: {1, 2, 3}, {4, 5, 6}, {7, 8, 9}, truthful statistics.
std::vector<uint8_t> threeGroups() {
  return fileOf(leafElement("x", PhysicalType::INT32),
                {{{i32(1), i32(2), i32(3)}, boundsOf(i32(1), i32(3), 0)},
                 {{i32(4), i32(5), i32(6)}, boundsOf(i32(4), i32(6), 0)},
                 {{i32(7), i32(8), i32(9)}, boundsOf(i32(7), i32(9), 0)}});
}

TEST(RowReaderPruningTest, PrunedRowGroupsAreNotRead) {
  const auto file = threeGroups();
  const Read pruned = readIds(file, P::eq("x", 5), true);
  const Read full = readIds(file, P::eq("x", 5), false);
  EXPECT_EQ(pruned.ids, (Ids{4}));
  EXPECT_EQ(full.ids, (Ids{4}));
  EXPECT_EQ(pruned.metrics.rowGroupsTotal, 3);
  EXPECT_EQ(pruned.metrics.rowGroupsPrunedByStatistics, 2);
  EXPECT_EQ(pruned.metrics.rowsDecoded, 3);
  EXPECT_EQ(full.metrics.rowsDecoded, 9);
  EXPECT_EQ(pruned.metrics.rowsReturned, 1);
  // One column chunk of each of the two columns per row group, one page each.
  EXPECT_EQ(pruned.metrics.pagesTotal, 6);
  EXPECT_EQ(pruned.metrics.pagesSkipped, 4);
  EXPECT_EQ(full.metrics.pagesSkipped, 0);
  EXPECT_EQ(pruned.metrics.bytesFetched * 3, full.metrics.bytesFetched);  // equal-sized row groups
  EXPECT_LT(pruned.metrics.requestsFetched, full.metrics.requestsFetched);
  EXPECT_EQ(pruned.metrics.rowGroupsPrunedByBloomFilter, 0);
  EXPECT_EQ(pruned.metrics.rowGroupsPrunedByDictionary, 0);
}

TEST(RowReaderPruningTest, NothingIsReadWhenNoRowGroupCanMatch) {
  const Read pruned = readIds(threeGroups(), P::or_(P::lt("x", 1), P::gt("x", 9)), true);
  EXPECT_EQ(pruned.ids, Ids{});
  EXPECT_EQ(pruned.metrics.rowGroupsPrunedByStatistics, 3);
  EXPECT_EQ(pruned.metrics.bytesFetched, 0u);
  EXPECT_EQ(pruned.metrics.requestsFetched, 0u);
  EXPECT_EQ(pruned.metrics.rowsDecoded, 0);
}

TEST(RowReaderPruningTest, LyingBoundsShowTheRowGroupWasSkippedUnread) {
  // Bounds [100, 200] over the value 5: trusted, they skip the row group.
  const auto file = fileOf(leafElement("x", PhysicalType::INT32), {{{i32(5)}, boundsOf(i32(100), i32(200), 0)}});
  EXPECT_EQ(readIds(file, P::eq("x", 5), true).ids, Ids{});
  EXPECT_EQ(readIds(file, P::eq("x", 5), false).ids, Ids{0});
  EXPECT_EQ(readIds(file, P::eq("x", 5), true).metrics.bytesFetched, 0u);
}

TEST(RowReaderPruningTest, EveryRowMatchingGroupsAreNotFilteredRowByRow) {
  // Bounds [1, 1] without nulls over {1, 2}: the statistics prove every row matches
  // eq(x, 1), so no row is evaluated and x (outside the projection) is not read.
  const auto file = fileOf(leafElement("x", PhysicalType::INT32), {{{i32(1), i32(2)}, boundsOf(i32(1), i32(1), 0)}});
  const Read pruned = readIds(file, P::eq("x", 1), true);
  const Read full = readIds(file, P::eq("x", 1), false);
  EXPECT_EQ(pruned.ids, (Ids{0, 1}));
  EXPECT_EQ(full.ids, (Ids{0}));
  EXPECT_EQ(pruned.metrics.rowGroupsMatchedByStatistics, 1);
  EXPECT_EQ(pruned.metrics.pagesSkipped, 1);  // the x page
  EXPECT_LT(pruned.metrics.bytesFetched, full.metrics.bytesFetched);
  EXPECT_EQ(pruned.metrics.rowsReturned, 2);
}

TEST(RowReaderPruningTest, WithoutAFilterNothingIsPruned) {
  auto file = openBytes(threeGroups(), true);
  auto rows = file->rowReader(ColumnProjection::columns("id"));
  int64_t n = 0;
  while (rows->next()) ++n;
  EXPECT_EQ(n, 9);
  EXPECT_EQ(rows->metrics().rowGroupsTotal, 3);
  EXPECT_EQ(rows->metrics().rowGroupsPrunedByStatistics, 0);
  EXPECT_EQ(rows->metrics().rowsReturned, 9);
  EXPECT_GT(rows->metrics().bytesFetched, 0u);
}

TEST(RowReaderPruningTest, ProjectedFilterColumnsStayReadableInWholeMatches) {
  auto file = openBytes(threeGroups(), true);
  auto rows = file->rowReader(ColumnProjection::columns("x", "id"), P::gtEq("x", 4));
  std::vector<int32_t> xs;
  while (rows->next()) xs.push_back(rows->getInt("x"));
  EXPECT_EQ(xs, (std::vector<int32_t>{4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(rows->metrics().rowGroupsMatchedByStatistics, 2);
}

TEST(RowReaderPruningTest, MultiFileReaderPrunesEachFileAndSumsMetrics) {
  const quarry::testing::TempDir temp("quarry-pruning");
  const std::filesystem::path& dir = temp.path();
  const auto a = (dir / "a.parquet").string();
  const auto b = (dir / "b.parquet").string();
  for (const auto& [path, bytes] : {std::pair{a, threeGroups()},
                                    std::pair{b, fileOf(leafElement("x", PhysicalType::INT32),
                                                        {{{i32(10), i32(20)}, boundsOf(i32(10), i32(20), 0)}})}}) {
    quarry::testing::writeFileBytes(path, bytes);
  }
  auto idsOf = [&](bool pruning, ReaderMetrics& metrics) {
    ReaderOptions options;
    options.metadataPruning = pruning;
    MultiFileRowReader rows({a, b}, ColumnProjection::columns("id"), P::or_(P::eq("x", 8), P::gt("x", 15)), options);
    Ids ids;
    while (rows.next()) ids.push_back(rows.field("id").getInt());
    metrics = rows.metrics();
    return ids;
  };
  ReaderMetrics pruned;
  ReaderMetrics full;
  EXPECT_EQ(idsOf(true, pruned), (Ids{7, 1}));
  EXPECT_EQ(idsOf(false, full), (Ids{7, 1}));
  EXPECT_EQ(pruned.rowGroupsTotal, 4);
  EXPECT_EQ(pruned.rowGroupsPrunedByStatistics, 2);
  EXPECT_EQ(full.rowGroupsPrunedByStatistics, 0);
  EXPECT_EQ(pruned.rowsReturned, 2);
  EXPECT_EQ(pruned.rowsDecoded, 5);
  EXPECT_LT(pruned.bytesFetched, full.bytesFetched);
  // Footers are counted: both files' last bytes were read even where nothing else was.
  EXPECT_GE(pruned.requestsFetched, 2u);
}

}  // namespace
}  // namespace quarry::parquet
