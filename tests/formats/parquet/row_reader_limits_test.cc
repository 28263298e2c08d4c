#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/multi_file_row_reader.h"
#include "tests/formats/parquet/pruning_fixture.h"
#include "tests/support/build_paths.h"
#include "tests/support/fixture_file.h"
#include "tests/support/temp_dir.h"

// RowReader with head(n), skip(n) and tail(n): the rows returned, rowIndex(), and
// through ReaderMetrics the row groups and bytes the limits leave unread.
//
// query-controls.txt names these controls only by reference ("For worked examples
// and the I/O behavior of each control, see Predicate Pushdown, Projection,
// Limits, and Splits"); it has no Limits section. The rules quoted below come from
// that page of the upstream documentation, which row_limits.h follows.
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;

struct Limited {
  Ids ids;
  std::vector<int64_t> rowIndexes;
  ReaderMetrics metrics;
};

Limited readWith(const std::vector<uint8_t>& bytes, const std::function<void(RowReaderBuilder&)>& configure) {
  auto file = openBytes(bytes, true);
  RowReaderBuilder builder = file->buildRowReader();
  builder.projection(ColumnProjection::columns("id"));
  configure(builder);
  auto rows = builder.build();
  Limited out;
  while (rows->next()) {
    out.ids.push_back(rows->getInt("id"));
    out.rowIndexes.push_back(rows->rowIndex());
  }
  out.metrics = rows->metrics();
  return out;
}

Ids range(int32_t from, int32_t to) {
  Ids ids;
  for (int32_t i = from; i < to; ++i) ids.push_back(i);
  return ids;
}

uint64_t fullBytes() {
  return readWith(fourGroups(), [](RowReaderBuilder&) {}).metrics.bytesFetched;
}

std::string buildError(const std::function<void(RowReaderBuilder&)>& configure) {
  auto file = openBytes(fourGroups(), true);
  RowReaderBuilder builder = file->buildRowReader();
  try {
    configure(builder);
    builder.build();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(no error)";
}

// "A row limit instructs the reader to stop after the specified number of rows,
// avoiding unnecessary I/O and decoding."
TEST(RowReaderLimitsTest, HeadStopsFetchingOnceNRowsAreReturned) {
  const Limited r = readWith(fourGroups(), [](RowReaderBuilder& b) { b.head(10); });
  EXPECT_EQ(r.ids, range(0, 10));
  EXPECT_EQ(r.metrics.rowGroupsRead, 1);
  EXPECT_EQ(r.metrics.rowGroupsTotal, 1);  // the groups after it are not even considered
  EXPECT_EQ(r.metrics.rowsDecoded, 10);
  EXPECT_EQ(r.metrics.rowsReturned, 10);
  EXPECT_EQ(r.metrics.bytesFetched * 4, fullBytes());
}

TEST(RowReaderLimitsTest, HeadReadsTheRowGroupsUpToItsLastRow) {
  const Limited r = readWith(fourGroups(), [](RowReaderBuilder& b) { b.head(15); });
  EXPECT_EQ(r.ids, range(0, 15));
  EXPECT_EQ(r.metrics.rowGroupsRead, 2);
  // The second group only as far as the head's last row (ColumnChunkReadOptions::rowLimit).
  EXPECT_EQ(r.metrics.rowsDecoded, 15);
  EXPECT_EQ(r.metrics.bytesFetched * 2, fullBytes());
}

TEST(RowReaderLimitsTest, HeadZeroReadsNothing) {
  const Limited r = readWith(fourGroups(), [](RowReaderBuilder& b) { b.head(0); });
  EXPECT_EQ(r.ids, Ids{});
  EXPECT_EQ(r.metrics.rowGroupsRead, 0);
  EXPECT_EQ(r.metrics.bytesFetched, 0u);
}

TEST(RowReaderLimitsTest, HeadPastTheFileReturnsEveryRow) {
  // "At most 100 rows will be returned"
  const Limited r = readWith(fourGroups(), [](RowReaderBuilder& b) { b.head(100); });
  EXPECT_EQ(r.ids, range(0, 40));
  EXPECT_EQ(r.metrics.bytesFetched, fullBytes());
}

// "When combined with a filter, the limit applies to the number of matching rows,
// not the total number of scanned rows."
TEST(RowReaderLimitsTest, HeadWithAFilterCountsMatchingRows) {
  const Limited r = readWith(fourGroups(), [](RowReaderBuilder& b) { b.filter(P::gtEq("x", 5)).head(10); });
  EXPECT_EQ(r.ids, range(5, 15));
  EXPECT_EQ(r.metrics.rowGroupsRead, 2);
  EXPECT_EQ(r.metrics.rowsReturned, 10);
}

TEST(RowReaderLimitsTest, HeadCombinesWithStatisticsPruning) {
  // Group 1 (x 10..19) is pruned by its statistics, group 3 is never reached.
  const Limited r = readWith(fourGroups(), [](RowReaderBuilder& b) {
    b.filter(P::or_(P::lt("x", 3), P::gtEq("x", 20))).head(5);
  });
  EXPECT_EQ(r.ids, (Ids{0, 1, 2, 20, 21}));
  EXPECT_EQ(r.metrics.rowGroupsPrunedByStatistics, 1);
  EXPECT_EQ(r.metrics.rowGroupsRead, 2);
  EXPECT_EQ(r.metrics.rowGroupsTotal, 3);
  EXPECT_EQ(r.metrics.rowGroupsMatchedByStatistics, 1);  // group 2, read without x
  // Without the limit, group 3 (every row matching, so its id chunk only) is read as well.
  const Limited unlimited = readWith(fourGroups(), [](RowReaderBuilder& b) {
    b.filter(P::or_(P::lt("x", 3), P::gtEq("x", 20)));
  });
  EXPECT_EQ(unlimited.metrics.rowGroupsRead, 3);
  EXPECT_EQ(r.metrics.bytesFetched + fullBytes() / 4, unlimited.metrics.bytesFetched);
}

// "The row limit can be combined with column projection and filters": the example's
// projection("id", "name"), filter(gt("age", 21)), head(100) over this file's columns.
TEST(RowReaderLimitsTest, HeadCombinesWithProjectionAndFilter) {
  auto file = openBytes(fourGroups(), true);
  auto rows = file->buildRowReader().projection(ColumnProjection::columns("id")).filter(P::gt("x", 21)).head(100).build();
  Ids ids;
  while (rows->next()) ids.push_back(rows->getInt("id"));
  EXPECT_EQ(ids, range(22, 40));
  EXPECT_EQ(rows->getFieldCount(), 1u);
}

// "Earlier row groups are not opened — their pages are not fetched or decoded"
TEST(RowReaderLimitsTest, SkipSeeksByRowGroupRowCounts) {
  const Limited r = readWith(fourGroups(), [](RowReaderBuilder& b) { b.skip(25); });
  EXPECT_EQ(r.ids, range(25, 40));
  EXPECT_EQ(r.rowIndexes.front(), 25);
  EXPECT_EQ(r.rowIndexes.back(), 39);
  EXPECT_EQ(r.metrics.rowGroupsSkippedByLimit, 2);
  EXPECT_EQ(r.metrics.rowGroupsRead, 2);
  EXPECT_EQ(r.metrics.rowsDecoded, 20);  // the residue rows 20..24 are decoded and passed over
  EXPECT_EQ(r.metrics.rowsReturned, 15);
  EXPECT_EQ(r.metrics.bytesFetched * 2, fullBytes());
}

TEST(RowReaderLimitsTest, SkipOfWholeRowGroupsReadsNoneOfThem) {
  const Limited r = readWith(fourGroups(), [](RowReaderBuilder& b) { b.skip(30); });
  EXPECT_EQ(r.ids, range(30, 40));
  EXPECT_EQ(r.metrics.rowGroupsSkippedByLimit, 3);
  EXPECT_EQ(r.metrics.rowGroupsRead, 1);
  EXPECT_EQ(r.metrics.bytesFetched * 4, fullBytes());
}

// "Compose with head(N) for a bounded [skip, skip + N) window"
TEST(RowReaderLimitsTest, SkipThenHeadReadsAWindow) {
  const Limited r = readWith(fourGroups(), [](RowReaderBuilder& b) { b.skip(12).head(5); });
  EXPECT_EQ(r.ids, range(12, 17));
  EXPECT_EQ(r.rowIndexes, (std::vector<int64_t>{12, 13, 14, 15, 16}));
  EXPECT_EQ(r.metrics.rowGroupsRead, 1);
  EXPECT_EQ(r.metrics.bytesFetched * 4, fullBytes());
}

// "skip == 0 is the no-op default. skip == totalRows produces an empty reader;
// skip > totalRows throws IllegalArgumentException."
TEST(RowReaderLimitsTest, SkipZeroIsTheDefault) {
  EXPECT_EQ(readWith(fourGroups(), [](RowReaderBuilder& b) { b.skip(0); }).ids, range(0, 40));
  // Not a skip, so not rejected beside a filter.
  EXPECT_EQ(readWith(fourGroups(), [](RowReaderBuilder& b) { b.skip(0).filter(P::lt("x", 2)); }).ids, (Ids{0, 1}));
}

TEST(RowReaderLimitsTest, SkipOfEveryRowIsEmptyAndReadsNothing) {
  const Limited r = readWith(fourGroups(), [](RowReaderBuilder& b) { b.skip(40); });
  EXPECT_EQ(r.ids, Ids{});
  EXPECT_EQ(r.metrics.rowGroupsSkippedByLimit, 4);
  EXPECT_EQ(r.metrics.bytesFetched, 0u);
}

TEST(RowReaderLimitsTest, SkipPastTheRowsIsRejectedAtBuild) {
  const std::string error = buildError([](RowReaderBuilder& b) { b.skip(41); });
  EXPECT_NE(error.find("skip(n) is past the 40 rows of fixture.parquet"), std::string::npos) << error;
  EXPECT_NE(error.find("n = 41"), std::string::npos) << error;
}

// "Row groups that do not overlap the tail are skipped entirely, so pages for
// earlier row groups are never fetched or decoded."
TEST(RowReaderLimitsTest, TailReadsOnlyTheLastRowGroupsNeeded) {
  const Limited last5 = readWith(fourGroups(), [](RowReaderBuilder& b) { b.tail(5); });
  EXPECT_EQ(last5.ids, range(35, 40));
  EXPECT_EQ(last5.rowIndexes.front(), 35);
  EXPECT_EQ(last5.metrics.rowGroupsSkippedByLimit, 3);
  EXPECT_EQ(last5.metrics.rowGroupsRead, 1);
  EXPECT_EQ(last5.metrics.bytesFetched * 4, fullBytes());

  const Limited last15 = readWith(fourGroups(), [](RowReaderBuilder& b) { b.tail(15); });
  EXPECT_EQ(last15.ids, range(25, 40));
  EXPECT_EQ(last15.metrics.rowGroupsRead, 2);
  EXPECT_EQ(last15.metrics.bytesFetched * 2, fullBytes());
}

TEST(RowReaderLimitsTest, TailPastTheFileReturnsEveryRowAndTailZeroNone) {
  EXPECT_EQ(readWith(fourGroups(), [](RowReaderBuilder& b) { b.tail(100); }).ids, range(0, 40));
  const Limited none = readWith(fourGroups(), [](RowReaderBuilder& b) { b.tail(0); });
  EXPECT_EQ(none.ids, Ids{});
  EXPECT_EQ(none.metrics.bytesFetched, 0u);
}

TEST(RowReaderLimitsTest, HeadCapsTheTail) {
  EXPECT_EQ(readWith(fourGroups(), [](RowReaderBuilder& b) { b.tail(15).head(3); }).ids, (Ids{25, 26, 27}));
}

// "Tail mode cannot currently be combined with a filter predicate [...] It is also
// mutually exclusive with skip(long)."
TEST(RowReaderLimitsTest, TailWithAFilterOrSkipIsRejectedAtBuild) {
  std::string error = buildError([](RowReaderBuilder& b) { b.tail(5).filter(P::eq("x", 1)); });
  EXPECT_NE(error.find("tail(n) cannot be combined with filter(FilterPredicate)"), std::string::npos) << error;
  EXPECT_NE(error.find("tail = 5"), std::string::npos) << error;
  error = buildError([](RowReaderBuilder& b) { b.tail(5).skip(3); });
  EXPECT_NE(error.find("tail(n) cannot be combined with skip(n): tail = 5, skip = 3"), std::string::npos) << error;
}

// "Mutually exclusive with tail(N) and with filter(FilterPredicate) — a logical
// OFFSET over the filtered relation is not yet supported, so the combination is
// rejected at build() time."
TEST(RowReaderLimitsTest, SkipWithAFilterIsRejectedAtBuild) {
  auto file = openBytes(fourGroups(), true);
  RowReaderBuilder builder = file->buildRowReader();
  builder.skip(7).filter(P::eq("x", 1));  // accepted until build()
  try {
    builder.build();
    FAIL() << "skip with a filter built";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("skip(n) cannot be combined with filter(FilterPredicate)"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("skip = 7"), std::string::npos);
  }
}

TEST(RowReaderLimitsTest, NegativeCountsAreRejectedAtTheCall) {
  auto file = openBytes(fourGroups(), true);
  RowReaderBuilder builder = file->buildRowReader();
  for (const auto& [name, call] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"head", [&] { builder.head(-1); }}, {"skip", [&] { builder.skip(-1); }}, {"tail", [&] { builder.tail(-1); }}}) {
    try {
      call();
      ADD_FAILURE() << name << "(-1) accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(std::string(e.what()), "RowReader: " + name + "(n) needs n >= 0: n = -1");
    }
  }
}

// A file DuckDB wrote (tests/fixtures/make-predicate-fixtures.mjs): three row groups
// of 2048 rows, id 0..6143, compressed, with dictionary pages.
std::string duckdbGroups() { return std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/predicate_row_groups.parquet"; }

TEST(RowReaderLimitsTest, LimitsOnAFileDuckDbWrote) {
  auto read = [](const std::function<void(RowReaderBuilder&)>& configure) {
    auto file = ParquetFileReader::open(duckdbGroups());
    RowReaderBuilder builder = file->buildRowReader();
    builder.projection(ColumnProjection::columns("id"));
    configure(builder);
    auto rows = builder.build();
    Limited out;
    while (rows->next()) {
      out.ids.push_back(rows->getInt("id"));
      EXPECT_EQ(rows->rowIndex(), out.ids.back());
    }
    out.metrics = rows->metrics();
    return out;
  };
  const Limited tail = read([](RowReaderBuilder& b) { b.tail(3); });
  EXPECT_EQ(tail.ids, (Ids{6141, 6142, 6143}));
  EXPECT_EQ(tail.metrics.rowGroupsRead, 1);
  EXPECT_EQ(tail.metrics.rowsDecoded, 2048);
  const Limited window = read([](RowReaderBuilder& b) { b.skip(3000).head(100); });
  EXPECT_EQ(window.ids, range(3000, 3100));
  EXPECT_EQ(window.metrics.rowGroupsSkippedByLimit, 1);
  EXPECT_EQ(window.metrics.rowGroupsRead, 1);
  const Limited head = read([](RowReaderBuilder& b) { b.head(2049); });
  EXPECT_EQ(head.ids, range(0, 2049));
  EXPECT_EQ(head.metrics.rowGroupsRead, 2);
  // A window across a row-group boundary reads both groups.
  const Limited across = read([](RowReaderBuilder& b) { b.skip(4000).head(100); });
  EXPECT_EQ(across.ids, range(4000, 4100));
  EXPECT_EQ(across.metrics.rowGroupsRead, 2);
}

// The limit of a multi-file reader counts the rows of all its files: once head(n)
// rows are returned, no further file is opened (not even its footer).
TEST(RowReaderLimitsTest, MultiFileHeadStopsOpeningFiles) {
  const quarry::testing::TempDir temp("quarry-limits");
  const std::filesystem::path& dir = temp.path();
  const auto a = (dir / "a.parquet").string();
  const auto b = (dir / "b.parquet").string();
  for (const auto& path : {a, b}) quarry::testing::writeFileBytes(path, fourGroups());
  auto read = [&](std::vector<std::string> uris, std::optional<int64_t> head) {
    MultiFileRowReader rows(std::move(uris), ColumnProjection::columns("id"));
    if (head) rows.head(*head);
    Limited out;
    while (rows.next()) out.ids.push_back(rows.field("id").getInt());
    out.metrics = rows.metrics();
    return out;
  };
  const Limited onlyA = read({a}, std::nullopt);
  const Limited first40 = read({a, b}, 40);
  EXPECT_EQ(first40.ids, range(0, 40));
  EXPECT_EQ(first40.metrics.bytesFetched, onlyA.metrics.bytesFetched);  // b's footer unread
  EXPECT_EQ(first40.metrics.requestsFetched, onlyA.metrics.requestsFetched);
  const Limited first45 = read({a, b}, 45);
  Ids expected = range(0, 40);
  for (int32_t i = 0; i < 5; ++i) expected.push_back(i);
  EXPECT_EQ(first45.ids, expected);
  EXPECT_EQ(first45.metrics.rowGroupsRead, 5);
  EXPECT_EQ(first45.metrics.rowsReturned, 45);
  const Limited first3 = read({a, b}, 3);
  EXPECT_EQ(first3.ids, (Ids{0, 1, 2}));
  EXPECT_EQ(first3.metrics.rowGroupsRead, 1);
  EXPECT_EQ(read({a, b}, 0).metrics.bytesFetched, 0u);
  MultiFileRowReader started({a}, ColumnProjection::columns("id"));
  ASSERT_TRUE(started.next());
  EXPECT_THROW(started.head(1), InvalidArgument);
  EXPECT_THROW(MultiFileRowReader({a}).head(-1), InvalidArgument);
}

}  // namespace
}  // namespace quarry::parquet
