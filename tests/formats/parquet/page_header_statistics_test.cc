#include "quarry/formats/parquet/page_header_index.h"

#include <gtest/gtest.h>

#include <limits>

#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/parquet/page_pruning.h"
#include "quarry/formats/predicate/filter_predicate.h"
#include "tests/formats/parquet/pruning_fixture.h"

// Page skipping from inline page-header statistics (issue 5: "inline page-header
// statistics used where there is no column index"), on files of
// parquet_fixture_writer.h whose data page headers carry Statistics and which
// have no page index. query-controls.txt: "All predicates, including those
// wrapped in not, are pushed down for row-group and page skipping", and every
// rule of "When statistics are ignored" applies to a page header's statistics
// as to a chunk's. Every test checks the rows against a read without pruning.
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;

/// `chunk` (pagedInt32) with its pages' index entries written in the page
/// headers instead, and no page index at all.
FixtureChunk inHeadersOnly(FixtureChunk chunk) {
  for (FixturePage& page : chunk.pageIndex) {
    Statistics s;
    if (!page.nullPage) {
      s.min_value = page.min;
      s.max_value = page.max;
    }
    s.null_count = page.nullCount;
    s.nan_count = page.nanCount;
    page.headerStatistics = s;
  }
  chunk.offsetIndex = false;
  return chunk;
}

/// page_pruning.h's example with the bounds in the page headers: a with pages at
/// rows 0 and 100 ([1, 5], [6, 9]), b at rows 0, 50 and 150 ([10, 20], [30, 40],
/// [50, 60]), 200 rows; id 0..199 in one page.
std::vector<uint8_t> misalignedHeadersFile() {
  std::vector<Raw> a, b;
  for (int32_t row = 0; row < 200; ++row) {
    a.push_back(i32(row < 100 ? 1 + row % 5 : 6 + row % 4));
    b.push_back(i32(row < 50 ? 10 + row % 11 : row < 150 ? 30 + row % 11 : 50 + row % 11));
  }
  ParquetFixtureWriter w;
  w.column(required(leafElement("id", PhysicalType::INT32)))
      .column(required(leafElement("a", PhysicalType::INT32)))
      .column(required(leafElement("b", PhysicalType::INT32)));
  w.rowGroup({FixtureChunk{ids(200), std::nullopt, std::nullopt},
              inHeadersOnly(pagedInt32(a, {100, 100})), inHeadersOnly(pagedInt32(b, {50, 100, 50}))});
  return w.bytes();
}

/// Reads the ids `filter` selects with pruning on and off; expects the same rows.
Read samePruned(const std::vector<uint8_t>& bytes, const FilterPredicate& filter) {
  SCOPED_TRACE(filter.toString());
  const Read pruned = readIds(bytes, filter, true);
  const Read full = readIds(bytes, filter, false);
  EXPECT_EQ(pruned.ids, full.ids);
  EXPECT_EQ(full.metrics.pagesSkipped, 0);
  EXPECT_LE(pruned.metrics.pagesSkipped, pruned.metrics.pagesTotal);
  EXPECT_LE(pruned.metrics.bytesFetched, full.metrics.bytesFetched);
  return pruned;
}

/// A file of id and one REQUIRED INT32 column x of 20 rows 0..19 in two pages of
/// ten, whose page headers record `first` and `second` and which has no page index.
std::vector<uint8_t> twoPages(std::optional<Statistics> first, std::optional<Statistics> second,
                              std::optional<std::vector<int16_t>> orders = std::nullopt) {
  FixtureChunk chunk = inHeadersOnly(pagedInt32(ids(20), {10, 10}));
  chunk.pageIndex[0].headerStatistics = std::move(first);
  chunk.pageIndex[1].headerStatistics = std::move(second);
  ParquetFixtureWriter w;
  w.column(required(leafElement("id", PhysicalType::INT32)))
      .column(required(leafElement("x", PhysicalType::INT32)));
  if (orders) w.columnOrders(*orders);
  w.rowGroup({FixtureChunk{ids(20), std::nullopt, std::nullopt}, chunk});
  return w.bytes();
}

TEST(PageHeaderIndexTest, WalksTheDataPagesOfAChunkAndTheirStatistics) {
  const auto bytes = twoPages(boundsOf(i32(0), i32(9), 0), std::nullopt);
  auto file = openBytes(bytes, true);
  const ColumnChunk& chunk = file->metadata().row_groups[0].columns[1];
  const ChunkRange range = columnChunkRange(*chunk.meta_data);
  std::vector<uint8_t> raw(range.length);
  file->storage().readAt(range.offset, raw);
  const SchemaNode& x = *file->schema().leaves()[1];
  const auto index = indexPageHeaders(raw, range.offset, *chunk.meta_data, x, 20);
  ASSERT_TRUE(index);
  const auto& pages = index->offsetIndex.page_locations;
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_EQ(pages[0].offset, static_cast<int64_t>(range.offset));
  EXPECT_EQ(pages[0].first_row_index, 0);
  EXPECT_EQ(pages[1].first_row_index, 10);
  EXPECT_EQ(pages[0].offset + pages[0].compressed_page_size, pages[1].offset);
  EXPECT_EQ(pages[1].offset + pages[1].compressed_page_size,
            static_cast<int64_t>(range.offset + range.length));
  ASSERT_EQ(index->statistics.size(), 2u);
  EXPECT_EQ(index->statistics[0]->min_value, i32(0));
  EXPECT_FALSE(index->statistics[1].has_value());
  // Rows that do not add up to the row group's, or a truncated chunk: nothing.
  EXPECT_FALSE(indexPageHeaders(raw, range.offset, *chunk.meta_data, x, 21));
  EXPECT_FALSE(indexPageHeaders(std::span<const uint8_t>(raw).first(raw.size() - 1), range.offset,
                                *chunk.meta_data, x, 20));
  // No page records statistics: nothing to prune with.
  const auto none = twoPages(std::nullopt, std::nullopt);
  auto noneFile = openBytes(none, true);
  const ColumnChunk& noneChunk = noneFile->metadata().row_groups[0].columns[1];
  const ChunkRange noneRange = columnChunkRange(*noneChunk.meta_data);
  std::vector<uint8_t> noneRaw(noneRange.length);
  noneFile->storage().readAt(noneRange.offset, noneRaw);
  EXPECT_FALSE(indexPageHeaders(noneRaw, noneRange.offset, *noneChunk.meta_data, x, 20));
}

TEST(PageHeaderStatisticsTest, SkipThePagesOfMisalignedColumnsAsAColumnIndexWould) {
  const auto file = misalignedHeadersFile();
  struct Case {
    FilterPredicate filter;
    int64_t total;    // id's 1 page, a's 2 and b's 3 where the filter reads them
    int64_t skipped;  // of a's and b's (id, without any index, is read whole)
  };
  const std::vector<Case> cases = {
      {P::and_(P::gt("a", 5), P::gtEq("b", 50)), 6, 3},  // rows [150, 200)
      {P::or_(P::gt("a", 5), P::gtEq("b", 50)), 6, 2},   // rows [100, 200)
      {P::not_(P::ltEq("a", 5)), 3, 1},                  // rows [100, 200)
      {P::eq("b", 35), 4, 2},                            // rows [50, 150)
      {P::in("b", 12, 55), 4, 1},                        // rows [0, 50) and [150, 200)
      {P::and_(P::eq("b", 35), P::lt("a", 6)), 6, 3},    // rows [50, 100)
  };
  for (const Case& c : cases) {
    const Read r = samePruned(file, c.filter);
    EXPECT_EQ(r.metrics.pagesTotal, c.total) << c.filter.toString();
    EXPECT_EQ(r.metrics.pagesSkipped, c.skipped) << c.filter.toString();
    EXPECT_LT(r.metrics.rowsDecoded, 200) << c.filter.toString();
  }
  // No page can match: the row group is ruled out by its pages.
  const Read none = samePruned(file, P::and_(P::lt("a", 6), P::gtEq("b", 50)));
  EXPECT_TRUE(none.ids.empty());
  EXPECT_EQ(none.metrics.rowGroupsPrunedByPageIndex, 1);
  EXPECT_EQ(none.metrics.rowGroupsRead, 0);
  EXPECT_EQ(none.metrics.pagesSkipped, 6);
}

TEST(PageHeaderStatisticsTest, ProjectedColumnsStayAlignedWithTheRowsKept) {
  auto file = openBytes(misalignedHeadersFile(), true);
  auto rows = file->rowReader(ColumnProjection::columns({"id", "a", "b"}), P::in("b", 12, 55));
  int returned = 0;
  while (rows->next()) {
    const int32_t id = rows->getInt("id");
    EXPECT_EQ(rows->rowIndex(), id);
    EXPECT_EQ(rows->getInt("a"), id < 100 ? 1 + id % 5 : 6 + id % 4);
    EXPECT_EQ(rows->getInt("b"), id < 50 ? 10 + id % 11 : id < 150 ? 30 + id % 11 : 50 + id % 11);
    ++returned;
  }
  EXPECT_EQ(returned, 9);  // b is 12 at rows 2, 13, 24, 35, 46 and 55 at rows 159, 170, 181, 192
  EXPECT_GT(rows->metrics().pagesSkipped, 0);
}

TEST(PageHeaderStatisticsTest, ColumnReadersSkipThePagesAsTheRowReaderDoes) {
  const auto bytes = misalignedHeadersFile();
  const auto filter = P::or_(P::eq("b", 55), P::gt("a", 8));  // rows [100, 200)
  const Read expected = readIds(bytes, filter, false);
  auto file = openBytes(bytes, true);
  auto columns = file->columnReaders(ColumnProjection::columns({"id"}), filter);
  Ids got;
  while (columns->nextBatch()) {
    const auto values = columns->column(0).data().values<int32_t>();
    got.insert(got.end(), values.begin(), values.end());
  }
  EXPECT_EQ(got, expected.ids);
  EXPECT_EQ(columns->metrics().pagesTotal, 6);
  EXPECT_EQ(columns->metrics().pagesSkipped, 2);  // a's first page, b's first page
  EXPECT_EQ(columns->metrics().rowsDecoded, 100);
}

TEST(PageHeaderStatisticsTest, EveryRowKeptReadsTheFilterChunkOnce) {
  // Header bounds that rule nothing out: the filter column's chunk, read for its
  // headers, is decoded from memory, not fetched again.
  const auto bytes = twoPages(boundsOf(i32(0), i32(9), 0), boundsOf(i32(10), i32(19), 0));
  const Read pruned = samePruned(bytes, P::not_(P::eq("x", 100)));
  EXPECT_EQ(pruned.ids.size(), 20u);
  const Read full = readIds(bytes, P::not_(P::eq("x", 100)), false);
  EXPECT_EQ(pruned.metrics.bytesFetched, full.metrics.bytesFetched);
  EXPECT_EQ(pruned.metrics.pagesSkipped, 0);
}

TEST(PageHeaderStatisticsTest, IgnoredHeaderBoundsKeepTheirPage) {
  // "When statistics are ignored": the minimum above the maximum, a NaN bound,
  // only the deprecated min / max fields, a column order quarry does not know
  // (or none): the page is decided from its null count alone, so it is read.
  const Statistics second = boundsOf(i32(10), i32(19), 0);
  const auto truthful = twoPages(boundsOf(i32(0), i32(9), 0), second);
  EXPECT_EQ(samePruned(truthful, P::gtEq("x", 15)).metrics.pagesSkipped, 1);

  const auto reversed = twoPages(boundsOf(i32(9), i32(0), 0), second);
  Statistics deprecated;
  deprecated.min = i32(0);
  deprecated.max = i32(9);
  deprecated.null_count = 0;
  const auto deprecatedOnly = twoPages(deprecated, second);
  const auto unknownOrder = twoPages(boundsOf(i32(0), i32(9), 0), second,
                                     std::vector<int16_t>{ParquetFixtureWriter::kTypeOrder, 99});
  const auto noOrder = twoPages(boundsOf(i32(0), i32(9), 0), second, std::vector<int16_t>{});
  for (const auto* bytes : {&reversed, &deprecatedOnly, &unknownOrder, &noOrder}) {
    const Read r = samePruned(*bytes, P::gtEq("x", 15));
    EXPECT_EQ(r.ids, (Ids{15, 16, 17, 18, 19}));
    EXPECT_EQ(r.metrics.pagesSkipped, 0);
  }
  // The second page's bounds are still used where only the first page's are ignored.
  EXPECT_EQ(samePruned(reversed, P::lt("x", 5)).metrics.pagesSkipped, 1);
  EXPECT_EQ(samePruned(deprecatedOnly, P::lt("x", 5)).metrics.pagesSkipped, 1);
}

TEST(PageHeaderStatisticsTest, NaNHeaderBoundsAreIgnored) {
  // A DOUBLE column [1, 2, 3, 4] [10, 11, 12, 13]; the first page's header
  // records a NaN maximum (TYPE_ORDER forbids it; under IEEE_754_TOTAL_ORDER it
  // marks NaN values only): its bounds bracket nothing, the page is read.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Raw> x;
  for (double v : {1.0, 2.0, 3.0, 4.0, 10.0, 11.0, 12.0, 13.0}) x.push_back(f64(v));
  auto fileWith = [&](std::optional<int64_t> nanCount) {
    FixtureChunk chunk;
    chunk.values = x;
    chunk.pageIndex = {FixturePage{4}, FixturePage{4}};
    chunk.pageIndex[0].headerStatistics = boundsOf(f64(1), f64(nan), 0, nanCount);
    chunk.pageIndex[1].headerStatistics = boundsOf(f64(10), f64(13), 0, 0);
    chunk.offsetIndex = false;
    ParquetFixtureWriter w;
    w.column(required(leafElement("id", PhysicalType::INT32)))
        .column(required(leafElement("x", PhysicalType::DOUBLE)));
    w.columnOrders({ParquetFixtureWriter::kTypeOrder, ParquetFixtureWriter::kIeee754TotalOrder});
    w.rowGroup({FixtureChunk{ids(8), std::nullopt, std::nullopt}, chunk});
    return w.bytes();
  };
  for (const auto nanCount : {std::optional<int64_t>{}, std::optional<int64_t>{0}}) {
    const auto bytes = fileWith(nanCount);
    const Read high = samePruned(bytes, P::gt("x", 5.0));
    EXPECT_EQ(high.ids, (Ids{4, 5, 6, 7}));
    EXPECT_EQ(high.metrics.pagesSkipped, 0);
    // The second page's truthful bounds still rule it out for x < 5.
    const Read low = samePruned(bytes, P::lt("x", 5.0));
    EXPECT_EQ(low.ids, (Ids{0, 1, 2, 3}));
    EXPECT_EQ(low.metrics.pagesSkipped, 1);
  }
}

TEST(PageHeaderStatisticsTest, NullCountsDecideNullTests) {
  std::vector<Raw> x;
  for (int32_t i = 0; i < 10; ++i) x.push_back(std::nullopt);
  for (int32_t i = 0; i < 10; ++i) x.push_back(i32(i));
  ParquetFixtureWriter w;
  w.column(required(leafElement("id", PhysicalType::INT32)))
      .column(leafElement("x", PhysicalType::INT32));
  w.rowGroup({FixtureChunk{ids(20), std::nullopt, std::nullopt},
              inHeadersOnly(pagedInt32(x, {10, 10}))});
  const auto bytes = w.bytes();
  EXPECT_EQ(samePruned(bytes, P::isNull("x")).ids, (Ids{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(samePruned(bytes, P::isNull("x")).metrics.pagesSkipped, 1);
  EXPECT_EQ(samePruned(bytes, P::isNotNull("x")).metrics.pagesSkipped, 1);
  EXPECT_EQ(samePruned(bytes, P::eq("x", 3)).ids, (Ids{13}));
  EXPECT_EQ(samePruned(bytes, P::not_(P::eq("x", 3))).metrics.pagesSkipped, 1);
}

TEST(PageHeaderStatisticsTest, LyingHeaderBoundsHideRowsOnlyWithPruningOn) {
  // The switch that disables metadata pruning covers page headers too.
  Statistics lie = boundsOf(i32(100), i32(200), 0);
  const auto bytes = twoPages(boundsOf(i32(0), i32(9), 0), lie);
  EXPECT_TRUE(readIds(bytes, P::eq("x", 15), true).ids.empty());
  const Read off = readIds(bytes, P::eq("x", 15), false);
  EXPECT_EQ(off.ids, (Ids{15}));
  EXPECT_EQ(off.metrics.pagesSkipped, 0);
}

TEST(PageHeaderStatisticsTest, ProjectedColumnsWithAnOffsetIndexReadOnlyTheKeptPages) {
  // x keeps its statistics in its page headers only; y has an OffsetIndex (no
  // ColumnIndex). x in [150'000, 150'300) keeps one page of x's 100: y is read
  // as that one page, x whole (it had to be, for its headers).
  constexpr int32_t kRows = 100'000;
  constexpr size_t kPageRows = 1'000;
  std::vector<Raw> x, y;
  for (int32_t i = 0; i < kRows; ++i) {
    x.push_back(i32(i * 3));
    y.push_back(i32(-i));
  }
  const std::vector<size_t> pageRows(kRows / kPageRows, kPageRows);
  FixtureChunk yChunk = pagedInt32(y, pageRows);
  yChunk.columnIndex = false;
  ParquetFixtureWriter w;
  w.column(required(leafElement("x", PhysicalType::INT32)))
      .column(required(leafElement("y", PhysicalType::INT32)));
  w.rowGroup({inHeadersOnly(pagedInt32(x, pageRows)), yChunk});
  const auto bytes = w.bytes();
  auto file = openBytes(bytes, true);
  const auto& columns = file->metadata().row_groups[0].columns;
  const int64_t xBytes = columns[0].meta_data->total_compressed_size;
  const int64_t yBytes = columns[1].meta_data->total_compressed_size;
  auto rows = file->rowReader(ColumnProjection::columns("y"),
                              P::and_(P::gtEq("x", 150'000), P::lt("x", 150'300)));
  int64_t returned = 0;
  while (rows->next()) {
    EXPECT_EQ(rows->getInt("y"), -static_cast<int32_t>(rows->rowIndex()));
    ++returned;
  }
  EXPECT_EQ(returned, 100);
  const ReaderMetrics& m = rows->metrics();
  EXPECT_EQ(m.pagesTotal, 200);
  EXPECT_EQ(m.pagesSkipped, 198);
  EXPECT_EQ(m.rowsDecoded, 1'000);
  // x whole, y's offset index and one page of y.
  EXPECT_LT(static_cast<int64_t>(m.bytesFetched), xBytes + yBytes / 20);
  EXPECT_GE(static_cast<int64_t>(m.bytesFetched), xBytes);
}

}  // namespace
}  // namespace quarry::parquet
