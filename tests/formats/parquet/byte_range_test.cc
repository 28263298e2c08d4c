#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/parquet/row_limits.h"
#include "tests/formats/parquet/pruning_fixture.h"
#include "tests/support/build_paths.h"

// Byte-range splits: RowReaderBuilder::byteRange(start, end) keeps the row groups
// whose midpoint lies in [start, end), alone, intersected, and with filters,
// statistics pruning and row limits.
//
// query-controls.txt names splits only by reference ("see Predicate Pushdown,
// Projection, Limits, and Splits"); the rules quoted below come from that page of
// the upstream documentation, which row_limits.h follows. The midpoint is the one
// parquet-mr's filterFileMetaDataByMidpoint computes.
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;

std::vector<int64_t> midpointsOf(ParquetFileReader& file) {
  std::vector<int64_t> out;
  for (size_t g = 0; g < file.metadata().row_groups.size(); ++g) {
    out.push_back(rowGroupMidpoint(file.metadata().row_groups[g], g, file.uri()));
  }
  return out;
}

struct Split {
  Ids ids;
  std::vector<int64_t> rowIndexes;
  ReaderMetrics metrics;
};

Split readSplit(ParquetFileReader& file, const std::function<void(RowReaderBuilder&)>& configure) {
  RowReaderBuilder builder = file.buildRowReader();
  builder.projection(ColumnProjection::columns("id"));
  configure(builder);
  auto rows = builder.build();
  Split out;
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

// "A row group is included if and only if its midpoint — the start of its first
// column chunk plus half of its on-disk compressed size — falls in [start, end)."
TEST(ByteRangeTest, MidpointIsTheFirstChunkStartPlusHalfTheCompressedSize) {
  RowGroup group;
  group.columns.resize(2);
  group.columns[0].meta_data.emplace();
  group.columns[0].meta_data->data_page_offset = 1000;
  group.columns[0].meta_data->total_compressed_size = 300;
  group.columns[1].meta_data.emplace();
  group.columns[1].meta_data->data_page_offset = 1300;
  group.columns[1].meta_data->total_compressed_size = 101;
  EXPECT_EQ(rowGroupMidpoint(group, 0, "f"), 1000 + 401 / 2);
  // A dictionary page comes first in its chunk.
  group.columns[0].meta_data->data_page_offset = 1040;
  group.columns[0].meta_data->dictionary_page_offset = 1000;
  EXPECT_EQ(rowGroupMidpoint(group, 0, "f"), 1000 + 401 / 2);
  // Offset 0 is the file's magic, a writer's way of saying "no dictionary".
  group.columns[0].meta_data->dictionary_page_offset = 0;
  EXPECT_EQ(rowGroupMidpoint(group, 0, "f"), 1040 + 401 / 2);
}

TEST(ByteRangeTest, MidpointWithoutColumnMetadataComesFromTheRowGroup) {
  RowGroup group;
  group.columns.resize(1);  // an encrypted footer: no plaintext ColumnMetaData
  group.file_offset = 4;
  group.total_compressed_size = 100;
  EXPECT_EQ(rowGroupMidpoint(group, 2, "f"), 54);
  group.file_offset.reset();
  try {
    rowGroupMidpoint(group, 2, "f.parquet");
    FAIL() << "placed a row group without offsets";
  } catch (const CorruptFile& e) {
    EXPECT_NE(std::string(e.what()).find("f.parquet: row group 2"), std::string::npos) << e.what();
  }
}

TEST(ByteRangeTest, KeepsTheRowGroupsWhoseMidpointIsInTheRange) {
  auto file = openBytes(fourGroups(), true);
  const auto mid = midpointsOf(*file);
  const Split all = readSplit(*file, [](RowReaderBuilder&) {});
  const Split second = readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(mid[1], mid[1] + 1); });
  EXPECT_EQ(second.ids, range(10, 20));
  EXPECT_EQ(second.rowIndexes.front(), 10);  // rowIndex() stays the index in the file
  EXPECT_EQ(second.metrics.rowGroupsOutsideByteRange, 3);
  EXPECT_EQ(second.metrics.rowGroupsRead, 1);
  EXPECT_EQ(second.metrics.bytesFetched * 4, all.metrics.bytesFetched);
  // [start, end): a range ending at a midpoint leaves its row group out.
  EXPECT_EQ(readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(mid[1], mid[2]); }).ids, range(10, 20));
  EXPECT_EQ(readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(mid[1] + 1, mid[2] + 1); }).ids, range(20, 30));
}

// A RowReader accounts for the whole file: the pages of the row groups outside
// its byte range count in pagesTotal and pagesSkipped. ColumnReaders read one
// split of a scan whose other splits read (and count) those row groups: they
// count the pages of their own row groups only.
TEST(ByteRangeTest, PagesOutsideTheRangeCountInARowReaderNotInColumnReaders) {
  auto file = openBytes(fourGroups(), true);
  const auto mid = midpointsOf(*file);
  const Split all = readSplit(*file, [](RowReaderBuilder&) {});
  ASSERT_GT(all.metrics.pagesTotal, 0);
  const int64_t perGroup = all.metrics.pagesTotal / 4;
  const Split second = readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(mid[1], mid[1] + 1); });
  EXPECT_EQ(second.metrics.pagesTotal, all.metrics.pagesTotal);
  EXPECT_EQ(second.metrics.pagesSkipped, 3 * perGroup);

  ColumnReaders columns(*file, ResolvedProjection::resolve(ColumnProjection::columns("id"), file->schema()),
                        std::nullopt, {ByteRange{mid[1], mid[1] + 1}});
  int64_t rows = 0;
  while (columns.nextBatch()) rows += columns.rowCount();
  EXPECT_EQ(rows, 10);
  EXPECT_EQ(columns.metrics().rowGroupsOutsideByteRange, 3);
  EXPECT_EQ(columns.metrics().pagesTotal, perGroup);
  EXPECT_EQ(columns.metrics().pagesSkipped, 0);
}

// "Granularity is row-group, not row. A row group whose midpoint is in [0, 1000)
// is read in full, including any rows whose data extends beyond byte 1000."
TEST(ByteRangeTest, GranularityIsTheRowGroup) {
  auto file = openBytes(fourGroups(), true);
  const auto mid = midpointsOf(*file);
  EXPECT_EQ(readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(0, mid[0] + 1); }).ids, range(0, 10));
  // A range holding the first bytes of a row group but not its midpoint keeps none of it.
  const int64_t firstByte = file->metadata().row_groups[0].columns[0].meta_data->data_page_offset;
  EXPECT_EQ(readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(0, firstByte + 1); }).ids, Ids{});
}

// "across a partitioning of the file into disjoint byte ranges, every row group
// lands in exactly one range, regardless of where the split boundary falls inside
// the row group itself."
TEST(ByteRangeTest, SplitsOfTheFileReadEveryRowExactlyOnce) {
  for (const std::string& path :
       {std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/predicate_row_groups.parquet",
        std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/predicate_types_row_groups.parquet"}) {
    SCOPED_TRACE(path);
    auto file = ParquetFileReader::open(path);
    const auto size = static_cast<int64_t>(std::filesystem::file_size(path));
    const Split all = readSplit(*file, [](RowReaderBuilder&) {});
    for (const int64_t splitSize : {int64_t{7}, int64_t{100}, int64_t{1000}, int64_t{4096}, size / 3 + 1, size}) {
      SCOPED_TRACE("split size " + std::to_string(splitSize));
      Ids ids;
      std::vector<int64_t> indexes;
      int64_t rowGroupsRead = 0;
      for (int64_t start = 0; start < size; start += splitSize) {
        const Split split = readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(start, start + splitSize); });
        ids.insert(ids.end(), split.ids.begin(), split.ids.end());
        indexes.insert(indexes.end(), split.rowIndexes.begin(), split.rowIndexes.end());
        rowGroupsRead += split.metrics.rowGroupsRead;
      }
      EXPECT_EQ(ids, all.ids);
      EXPECT_EQ(indexes, all.rowIndexes);
      EXPECT_EQ(rowGroupsRead, file->numRowGroups());
    }
  }
}

// "RowGroupPredicate.and(...) lets you intersect multiple row-group conditions"
TEST(ByteRangeTest, SeveralRangesIntersect) {
  auto file = openBytes(fourGroups(), true);
  const auto mid = midpointsOf(*file);
  const Split both = readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(0, mid[2] + 1).byteRange(mid[1], mid[3] + 1); });
  EXPECT_EQ(both.ids, range(10, 30));
  EXPECT_EQ(both.metrics.rowGroupsOutsideByteRange, 2);
  // Disjoint ranges intersect to nothing.
  const Split none = readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(0, mid[1]).byteRange(mid[1], mid[3] + 1); });
  EXPECT_EQ(none.ids, Ids{});
  EXPECT_EQ(none.metrics.bytesFetched, 0u);
}

// "byteRange(start, end) where end < start is a documented empty range — the
// reader yields zero rows."
TEST(ByteRangeTest, EndBeforeStartIsAnEmptyRange) {
  auto file = openBytes(fourGroups(), true);
  const Split r = readSplit(*file, [](RowReaderBuilder& b) { b.byteRange(4, -9'223'372'036'854'775'807LL - 1); });
  EXPECT_EQ(r.ids, Ids{});
  EXPECT_EQ(r.metrics.rowGroupsOutsideByteRange, 4);
  EXPECT_EQ(r.metrics.bytesFetched, 0u);
}

// "RowGroupPredicate composes with FilterPredicate via intersection — both apply,
// and a row group is read if and only if it passes both"
TEST(ByteRangeTest, CombinesWithTheFilterAndStatisticsPruning) {
  auto file = openBytes(fourGroups(), true);
  const auto mid = midpointsOf(*file);
  const Split r = readSplit(*file, [&](RowReaderBuilder& b) {
    b.filter(P::or_(P::lt("x", 2), P::and_(P::gtEq("x", 25), P::lt("x", 27)))).byteRange(mid[1], mid[3]);
  });
  EXPECT_EQ(r.ids, (Ids{25, 26}));
  EXPECT_EQ(r.metrics.rowGroupsOutsideByteRange, 2);    // groups 0 and 3
  EXPECT_EQ(r.metrics.rowGroupsPrunedByStatistics, 1);  // group 1: x 10..19
  EXPECT_EQ(r.metrics.rowGroupsRead, 1);
}

// "On RowReaderBuilder, skip(N) and head(N) index over the row-group-filtered
// sequence — skip(N) skips N rows of the kept set, head(N) caps reading at N rows
// of the kept set."
TEST(ByteRangeTest, SkipAndHeadIndexTheKeptRowGroups) {
  auto file = openBytes(fourGroups(), true);
  const auto mid = midpointsOf(*file);
  const Split r = readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(mid[1], mid[2] + 1).skip(5).head(10); });
  EXPECT_EQ(r.ids, range(15, 25));
  EXPECT_EQ(r.rowIndexes.front(), 15);
  EXPECT_EQ(r.metrics.rowGroupsRead, 2);
  // The intersection keeps group 1 alone: skip(8) lands on its row 8, file row 18.
  const Split one = readSplit(*file, [&](RowReaderBuilder& b) {
    b.byteRange(mid[1], mid[3] + 1).byteRange(0, mid[2]).skip(8);
  });
  EXPECT_EQ(one.ids, (Ids{18, 19}));
  EXPECT_EQ(one.rowIndexes, (std::vector<int64_t>{18, 19}));
  EXPECT_EQ(one.metrics.rowGroupsSkippedByLimit, 0);
  EXPECT_EQ(readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(mid[1], mid[2] + 1).skip(20); }).ids, Ids{});
  try {
    readSplit(*file, [&](RowReaderBuilder& b) { b.byteRange(mid[1], mid[2] + 1).skip(21); });
    FAIL() << "skip past the kept rows built";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("past the 20 rows of the byte range's row groups of fixture.parquet: n = 21"),
              std::string::npos)
        << e.what();
  }
}

// "Combining RowGroupPredicate with tail(N) is rejected: tail mode requires a known
// total row count, which row-group filtering invalidates."
TEST(ByteRangeTest, TailWithAByteRangeIsRejectedAtBuild) {
  auto file = openBytes(fourGroups(), true);
  try {
    file->buildRowReader().byteRange(0, 100).tail(5).build();
    FAIL() << "tail with a byte range built";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(std::string(e.what()),
              "RowReader: tail(n) cannot be combined with byteRange(start, end), tail needs the file's total "
              "row count, which a byte range changes: tail = 5, byteRange = [0, 100)");
  }
}

}  // namespace
}  // namespace quarry::parquet
