#include "quarry/formats/parquet/page_pruning.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <span>

#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/predicate/filter_predicate.h"
#include "tests/formats/parquet/pruning_fixture.h"

// Page skipping from the page index (query-controls.txt: "All predicates,
// including those wrapped in not, are pushed down for row-group and page
// skipping"), on files of tests/formats/parquet/parquet_fixture_writer.h whose
// pages and page index say exactly what each test needs. Every test checks the
// rows against a read without metadata pruning.
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;

TEST(RowRangesTest, MergesTouchingRangesAndFindsOverlaps) {
  RowRanges r;
  r.add(0, 10);
  r.add(10, 20);  // touches: merged
  r.add(30, 40);
  r.add(35, 45);  // overlaps: merged
  r.add(50, 50);  // empty: ignored
  ASSERT_EQ(r.ranges().size(), 2u);
  EXPECT_EQ(r.ranges()[0], (RowRanges::Range{0, 20}));
  EXPECT_EQ(r.ranges()[1], (RowRanges::Range{30, 45}));
  EXPECT_EQ(r.rowCount(), 35);
  EXPECT_TRUE(r.overlaps(19, 25));
  EXPECT_FALSE(r.overlaps(20, 30));
  EXPECT_TRUE(r.overlaps(44, 100));
  EXPECT_FALSE(r.overlaps(45, 100));
  EXPECT_EQ(RowRanges::all(3).rows(), (std::vector<int64_t>{0, 1, 2}));
}

/// The example of page_pruning.h: a with pages at rows 0 and 100 (bounds [1, 5]
/// and [6, 9]), b with pages at rows 0, 50 and 150 ([10, 20], [30, 40], [50, 60]),
/// 200 rows, and id 0..199 in one page without a page index.
std::vector<uint8_t> misalignedFile() {
  std::vector<Raw> a, b;
  for (int32_t row = 0; row < 200; ++row) {
    a.push_back(i32(row < 100 ? 1 + row % 5 : 6 + row % 4));
    b.push_back(i32(row < 50 ? 10 + row % 11 : row < 150 ? 30 + row % 11 : 50 + row % 11));
  }
  ParquetFixtureWriter w;
  w.column(required(leafElement("id", PhysicalType::INT32)))
      .column(required(leafElement("a", PhysicalType::INT32)))
      .column(required(leafElement("b", PhysicalType::INT32)));
  w.rowGroup({FixtureChunk{ids(200), std::nullopt, std::nullopt}, pagedInt32(a, {100, 100}),
              pagedInt32(b, {50, 100, 50})});
  return w.bytes();
}

RowRanges rangesOf(const std::vector<uint8_t>& bytes, const FilterPredicate& filter) {
  auto file = openBytes(bytes, true);
  const BoundPredicate bound = BoundPredicate::bind(filter, file->schema());
  const RowGroupPageIndex index =
      readPageIndex(file->storage(), file->metadata(), 0, {}, bound.leaves());
  return selectRowRanges(bound, file->metadata(), 0, index.filterLeaves);
}

std::vector<RowRanges::Range> ranges(std::initializer_list<RowRanges::Range> r) {
  return r;
}

/// Reads the ids `filter` selects with pruning on and off; expects the same rows.
/// (On these tiny files the page index can cost more bytes than the pages it
/// saves; the last test measures the saving on a realistic column.)
Read samePruned(const std::vector<uint8_t>& bytes, const FilterPredicate& filter) {
  SCOPED_TRACE(filter.toString());
  const Read pruned = readIds(bytes, filter, true);
  const Read full = readIds(bytes, filter, false);
  EXPECT_EQ(pruned.ids, full.ids);
  EXPECT_EQ(full.metrics.pagesSkipped, 0);
  EXPECT_LE(pruned.metrics.pagesSkipped, pruned.metrics.pagesTotal);
  EXPECT_EQ(pruned.metrics.pagesTotal, full.metrics.pagesTotal);
  return pruned;
}

TEST(PagePruningTest, AndIntersectsAndOrUnitesRowRangesOfMisalignedPages) {
  const auto file = misalignedFile();
  EXPECT_EQ(rangesOf(file, P::and_(P::gt("a", 5), P::gtEq("b", 50))).ranges(),
            ranges({{150, 200}}));
  EXPECT_EQ(rangesOf(file, P::or_(P::gt("a", 5), P::gtEq("b", 50))).ranges(), ranges({{100, 200}}));
  EXPECT_EQ(rangesOf(file, P::not_(P::ltEq("a", 5))).ranges(), ranges({{100, 200}}));
  EXPECT_EQ(rangesOf(file, P::eq("b", 35)).ranges(), ranges({{50, 150}}));
  EXPECT_EQ(rangesOf(file, P::and_(P::eq("b", 35), P::lt("a", 6))).ranges(), ranges({{50, 100}}));
  EXPECT_TRUE(rangesOf(file, P::and_(P::lt("a", 6), P::gtEq("b", 50))).empty());
  // id has no page index: its chunk statistics (none here) decide nothing.
  EXPECT_EQ(rangesOf(file, P::and_(P::eq("id", 7), P::gt("a", 5))).ranges(), ranges({{100, 200}}));
}

TEST(PagePruningTest, SegmentsAreCutAtEveryFilterAndExtraPageBoundaryAndDecided) {
  auto file = openBytes(misalignedFile(), true);
  const BoundPredicate bound = BoundPredicate::bind(P::gt("a", 5), file->schema());
  const SchemaNode* b = file->schema().find("b");
  const RowGroupPageIndex index =
      readPageIndex(file->storage(), file->metadata(), 0, {},
                    std::vector<const SchemaNode*>{bound.leaves()[0], b});
  const std::span<const ChunkPageIndex> all(index.filterLeaves);
  using D = PruningDecision;
  // a's pages alone: [0, 100) bounds [1, 5], [100, 200) bounds [6, 9] (no null).
  EXPECT_EQ(
      decideSegments(bound, file->metadata(), 0, all.first(1)),
      (std::vector<DecidedSegment>{{0, 100, D::kNoRowMatches}, {100, 200, D::kEveryRowMatches}}));
  // b's pages cut too, at rows 50 and 150; each part keeps its page's decision.
  EXPECT_EQ(decideSegments(bound, file->metadata(), 0, all.first(1), all.subspan(1)),
            (std::vector<DecidedSegment>{{0, 50, D::kNoRowMatches},
                                         {50, 100, D::kNoRowMatches},
                                         {100, 150, D::kEveryRowMatches},
                                         {150, 200, D::kEveryRowMatches}}));
}

TEST(PagePruningTest, ColumnReadersRestrictedToRowsReadOnlyThoseTheFilterKeeps) {
  const auto bytes = misalignedFile();
  auto idsOf = [&](std::optional<FilterPredicate> filter, RowRanges rows) {
    auto file = openBytes(bytes, true);
    auto columns = filter ? file->columnReaders(ColumnProjection::columns({"id"}), *filter)
                          : file->columnReaders(ColumnProjection::columns({"id"}));
    columns->restrictRows(std::move(rows));
    Ids got;
    while (columns->nextBatch()) {
      const auto values = columns->column(0).data().values<int32_t>();
      got.insert(got.end(), values.begin(), values.end());
    }
    return got;
  };
  RowRanges some;
  some.add(95, 105);
  some.add(180, 183);
  Ids expected;
  for (int32_t id : {95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 180, 181, 182})
    expected.push_back(id);
  EXPECT_EQ(idsOf(std::nullopt, some), expected);
  // a > 5 keeps [100, 200): of the restriction, 100..104 and 180..182.
  EXPECT_EQ(idsOf(P::gt("a", 5), some), (Ids{100, 101, 102, 103, 104, 180, 181, 182}));
  // a > 8 keeps rows of [100, 200) whose a is 9 (row % 4 == 3), read within the restriction.
  EXPECT_EQ(idsOf(P::gt("a", 8), some), (Ids{103}));
  // No row of the restriction can match: nothing is read.
  RowRanges early;
  early.add(10, 20);
  EXPECT_TRUE(idsOf(P::gt("a", 5), early).empty());
}

TEST(PagePruningTest, ReadsOnlyThePagesHoldingSelectedRowsAndReturnsTheSameRows) {
  const auto file = misalignedFile();
  for (const auto& filter :
       {P::and_(P::gt("a", 5), P::gtEq("b", 50)), P::or_(P::gt("a", 5), P::gtEq("b", 50)),
        P::not_(P::ltEq("a", 5)), P::eq("b", 35), P::in("b", 12, 55),
        P::and_(P::eq("b", 35), P::lt("a", 6))}) {
    const Read r = samePruned(file, filter);
    EXPECT_GT(r.metrics.pagesSkipped, 0) << filter.toString();
  }
  const Read none = samePruned(file, P::and_(P::lt("a", 6), P::gtEq("b", 50)));
  EXPECT_TRUE(none.ids.empty());
  EXPECT_EQ(none.metrics.rowGroupsPrunedByPageIndex, 1);
  EXPECT_EQ(none.metrics.pagesTotal, 6);  // id 1 (encoding_stats), a 2 and b 3 (offset indexes)
  EXPECT_EQ(none.metrics.pagesSkipped, 6);
  EXPECT_EQ(none.metrics.rowGroupsRead, 0);
}

TEST(PagePruningTest, ProjectedColumnsWithOtherPageBoundariesStayAlignedWithTheRows) {
  // Reading a and b while filtering on b: a's pages start at other rows, id is
  // read whole and trimmed; every returned row must be the row it claims.
  auto file = openBytes(misalignedFile(), true);
  auto rows = file->rowReader(ColumnProjection::columns({"id", "a", "b"}), P::in("b", 12, 55));
  int returned = 0;
  while (rows->next()) {
    const int32_t id = rows->getInt("id");
    EXPECT_EQ(rows->rowIndex(), id);
    EXPECT_EQ(rows->getInt("a"), id < 100 ? 1 + id % 5 : 6 + id % 4);
    EXPECT_EQ(rows->getInt("b"), id < 50 ? 10 + id % 11 : id < 150 ? 30 + id % 11 : 50 + id % 11);
    ++returned;
  }
  EXPECT_GT(returned, 0);
  EXPECT_GT(rows->metrics().pagesSkipped, 0);
}

TEST(PagePruningTest, ColumnReadersSkipThePagesAsTheRowReaderDoes) {
  const auto bytes = misalignedFile();
  const auto filter = P::or_(P::eq("b", 55), P::gt("a", 8));  // rows [100, 200)
  const Read expected = readIds(bytes, filter, false);
  auto file = openBytes(bytes, true);
  auto columns = file->columnReaders(ColumnProjection::columns({"id"}), filter);
  Ids got;
  while (columns->nextBatch()) {
    const auto values =
        columns->column(0).data().values<int32_t>();  // id is REQUIRED: one value per row
    got.insert(got.end(), values.begin(), values.end());
  }
  EXPECT_EQ(got, expected.ids);
  EXPECT_EQ(columns->metrics().pagesTotal, 6);
  EXPECT_EQ(columns->metrics().pagesSkipped, 2);  // a's first page, b's first page
}

TEST(PagePruningTest, NullPagesDecideNullTestsAndHoldNoValue) {
  // "null_pages: ... If true, a page contains only null values": such a page's
  // min / max are placeholders, never bounds.
  std::vector<Raw> x;
  for (int32_t i = 0; i < 10; ++i) x.push_back(std::nullopt);
  for (int32_t i = 0; i < 10; ++i) x.push_back(i32(i));
  ParquetFixtureWriter w;
  w.column(required(leafElement("id", PhysicalType::INT32)))
      .column(leafElement("x", PhysicalType::INT32));
  FixtureChunk paged = pagedInt32(x, {10, 10});
  paged.pageIndex[0].min = i32(0);  // placeholders a writer may leave
  paged.pageIndex[0].max = i32(0);
  w.rowGroup({FixtureChunk{ids(20), std::nullopt, std::nullopt}, paged});
  const auto file = w.bytes();
  EXPECT_EQ(rangesOf(file, P::isNull("x")).ranges(), ranges({{0, 10}}));
  EXPECT_EQ(rangesOf(file, P::isNotNull("x")).ranges(), ranges({{10, 20}}));
  EXPECT_EQ(rangesOf(file, P::eq("x", 0)).ranges(), ranges({{10, 20}}));
  EXPECT_EQ(rangesOf(file, P::not_(P::eq("x", 0))).ranges(), ranges({{10, 20}}));
  for (const auto& f : {P::isNull("x"), P::isNotNull("x"), P::eq("x", 0), P::not_(P::eq("x", 0))})
    samePruned(file, f);
}

TEST(PagePruningTest, ANullPageOfAColumnThatCannotBeNullIsIgnored) {
  // As parquet-testing's datapage_v1-corrupt-checksum.parquet records: every page
  // of a REQUIRED column a null page, null counts of -1. Nothing of such a page
  // is known; it is read.
  std::vector<Raw> x;
  for (int32_t i = 0; i < 20; ++i) x.push_back(i32(i));
  FixtureChunk chunk = pagedInt32(x, {10, 10});
  for (FixturePage& page : chunk.pageIndex) {
    page.nullPage = true;
    page.nullCount = -1;
    page.min = page.max = std::nullopt;
  }
  ParquetFixtureWriter w;
  w.column(required(leafElement("id", PhysicalType::INT32)))
      .column(required(leafElement("x", PhysicalType::INT32)));
  w.rowGroup({FixtureChunk{ids(20), std::nullopt, std::nullopt}, chunk});
  const auto file = w.bytes();
  EXPECT_EQ(rangesOf(file, P::isNotNull("x")).ranges(), ranges({{0, 20}}));
  EXPECT_EQ(rangesOf(file, P::eq("x", 3)).ranges(), ranges({{0, 20}}));
  EXPECT_EQ(samePruned(file, P::eq("x", 3)).ids, Ids{3});
}

/// A DOUBLE column of two pages, [1, 2, NaN, 3] and [10, 11, 12, 13]; the first
/// page's index records bounds [1, 3] and `nanCount`.
std::vector<uint8_t> nanPages(std::optional<int64_t> nanCount) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Raw> x;
  for (double v : {1.0, 2.0, nan, 3.0, 10.0, 11.0, 12.0, 13.0}) x.push_back(f64(v));
  FixtureChunk chunk;
  chunk.values = x;
  chunk.pageIndex = {FixturePage{4, f64(1), f64(3), 0, nanCount},
                     FixturePage{4, f64(10), f64(13), 0, 0}};
  ParquetFixtureWriter w;
  w.column(required(leafElement("id", PhysicalType::INT32)))
      .column(required(leafElement("x", PhysicalType::DOUBLE)));
  w.columnOrders({ParquetFixtureWriter::kTypeOrder, ParquetFixtureWriter::kIeee754TotalOrder});
  w.rowGroup({FixtureChunk{ids(8), std::nullopt, std::nullopt}, chunk});
  return w.bytes();
}

TEST(PagePruningTest, APageMayHoldNaNUnlessItsNanCountIsZero) {
  // NaN sorts above every number: x > 5 holds for a NaN row. Without a recorded
  // nan_count the first page may hold one (it does) and is read.
  const auto unknown = nanPages(std::nullopt);
  EXPECT_EQ(rangesOf(unknown, P::gt("x", 5.0)).ranges(), ranges({{0, 8}}));
  EXPECT_EQ(samePruned(unknown, P::gt("x", 5.0)).ids, (Ids{2, 4, 5, 6, 7}));
  // A nan_count of 1: still read; a page of 4 values with bounds [1, 3] and a
  // nan_count of 0 is skipped for x > 5 (that file lies about row 2, and pruning
  // then trusts it: the differential tests use truthful files).
  EXPECT_EQ(rangesOf(nanPages(1), P::gt("x", 5.0)).ranges(), ranges({{0, 8}}));
  EXPECT_EQ(rangesOf(nanPages(0), P::gt("x", 5.0)).ranges(), ranges({{4, 8}}));
  // x < 5 needs no NaN count: NaN does not satisfy it, and the second page's bounds exclude it.
  EXPECT_EQ(rangesOf(unknown, P::lt("x", 5.0)).ranges(), ranges({{0, 4}}));
  EXPECT_EQ(samePruned(unknown, P::lt("x", 5.0)).ids, (Ids{0, 1, 3}));
}

TEST(PagePruningTest, IgnoredBoundsKeepEveryPage) {
  // "When statistics are ignored": the minimum above the maximum, or a column
  // order quarry does not know, leave the page to its null count alone.
  std::vector<Raw> x;
  for (int32_t i = 0; i < 20; ++i) x.push_back(i32(i));
  auto fileWith = [&](bool reversed, std::optional<int16_t> order) {
    FixtureChunk chunk = pagedInt32(x, {10, 10});
    if (reversed) std::swap(chunk.pageIndex[0].min, chunk.pageIndex[0].max);
    ParquetFixtureWriter w;
    w.column(required(leafElement("id", PhysicalType::INT32)))
        .column(required(leafElement("x", PhysicalType::INT32)));
    if (order) w.columnOrders({ParquetFixtureWriter::kTypeOrder, *order});
    w.rowGroup({FixtureChunk{ids(20), std::nullopt, std::nullopt}, chunk});
    return w.bytes();
  };
  EXPECT_EQ(rangesOf(fileWith(false, std::nullopt), P::gtEq("x", 15)).ranges(), ranges({{10, 20}}));
  EXPECT_EQ(rangesOf(fileWith(true, std::nullopt), P::gtEq("x", 15)).ranges(), ranges({{0, 20}}));
  EXPECT_EQ(rangesOf(fileWith(true, std::nullopt), P::lt("x", 5)).ranges(), ranges({{0, 10}}));
  EXPECT_EQ(rangesOf(fileWith(false, 99), P::gtEq("x", 15)).ranges(), ranges({{0, 20}}));
  for (const auto& f : {P::gtEq("x", 15), P::lt("x", 5)}) {
    samePruned(fileWith(true, std::nullopt), f);
    samePruned(fileWith(false, 99), f);
  }
}

TEST(PagePruningTest, MetadataPruningOffReadsEveryPage) {
  // A page index whose bounds lie: with pruning the lie hides rows; the switch
  // that disables metadata pruning reads them.
  std::vector<Raw> x;
  for (int32_t i = 0; i < 20; ++i) x.push_back(i32(i));
  FixtureChunk chunk = pagedInt32(x, {10, 10});
  chunk.pageIndex[1].min = i32(100);
  chunk.pageIndex[1].max = i32(200);
  ParquetFixtureWriter w;
  w.column(required(leafElement("id", PhysicalType::INT32)))
      .column(required(leafElement("x", PhysicalType::INT32)));
  w.rowGroup({FixtureChunk{ids(20), std::nullopt, std::nullopt}, chunk});
  const auto file = w.bytes();
  EXPECT_TRUE(readIds(file, P::eq("x", 15), true).ids.empty());
  const Read off = readIds(file, P::eq("x", 15), false);
  EXPECT_EQ(off.ids, (Ids{15}));
  EXPECT_EQ(off.metrics.pagesSkipped, 0);
}

TEST(PagePruningTest, ASelectivePredicateOnASortedColumnReadsUnderFivePercentOfIt) {
  // The acceptance bound: at most 5 % of the column's bytes, page index included.
  constexpr int32_t kRows = 100'000;
  constexpr size_t kPageRows = 1'000;
  std::vector<Raw> x;
  for (int32_t i = 0; i < kRows; ++i) x.push_back(i32(i * 3));
  FixtureChunk chunk = pagedInt32(x, std::vector<size_t>(kRows / kPageRows, kPageRows));
  ParquetFixtureWriter w;
  w.column(required(leafElement("x", PhysicalType::INT32)));
  w.rowGroup({chunk});
  const auto bytes = w.bytes();
  auto file = openBytes(bytes, true);
  const int64_t columnBytes =
      file->metadata().row_groups[0].columns[0].meta_data->total_compressed_size;
  auto rows = file->rowReader(ColumnProjection::columns("x"),
                              P::and_(P::gtEq("x", 150'000), P::lt("x", 150'300)));
  int64_t returned = 0;
  while (rows->next()) ++returned;
  EXPECT_EQ(returned, 100);
  const ReaderMetrics& m = rows->metrics();
  EXPECT_LE(static_cast<int64_t>(m.bytesFetched), columnBytes / 20)
      << m.bytesFetched << " bytes fetched of a " << columnBytes << "-byte column";
  EXPECT_EQ(m.pagesTotal, 100);
  EXPECT_EQ(m.pagesSkipped, 99);
  EXPECT_EQ(m.rowsDecoded, 1'000);
}

/// The PLAIN bytes of INT32 `values` (a Bloom filter's entries).
std::vector<std::string> plainInt32(const std::vector<Raw>& values) {
  std::vector<std::string> out;
  for (const Raw& v : values) out.push_back(*v);
  return out;
}

TEST(PagePruningTest, TheBloomFilterIsProbedOnlyWhereItCostsLessThanThePagesLeft) {
  // Issue 5: the page index is consulted before the Bloom filter, which is
  // probed (its header and the 32-byte blocks of the literals) only if the pages
  // it leaves cost more than the probe. x is sorted (0 ten times, 3 ten times,
  // ...): 100 pages of 1,000 rows (4 KB each) and a 64 KiB Bloom filter of its
  // 10,000 values; no chunk statistics, so the row group is always kept by them.
  constexpr int32_t kRows = 100'000;
  constexpr size_t kBloomBytes = 64 * 1024;
  std::vector<Raw> x;
  for (int32_t i = 0; i < kRows; ++i) x.push_back(i32(i / 10 * 3));
  FixtureChunk chunk = pagedInt32(x, std::vector<size_t>(100, 1'000));
  chunk.bloom = plainInt32(x);
  chunk.bloomBytes = kBloomBytes;
  ParquetFixtureWriter w;
  w.column(required(leafElement("x", PhysicalType::INT32)));
  w.rowGroup({chunk});
  const auto bytes = w.bytes();
  auto read = [&](const FilterPredicate& filter) {
    auto file = openBytes(bytes, true);
    auto rows = file->rowReader(ColumnProjection::columns("x"), filter);
    Read out;
    while (rows->next()) out.ids.push_back(rows->getInt("x"));
    out.metrics = rows->metrics();
    return out;
  };
  // One page (4 KB) kept; a probe of one block costs less: read, and the value
  // is there, so the page is read too.
  const Read present = read(P::eq("x", 15'000));
  EXPECT_EQ(present.ids, Ids(10, 15'000));
  EXPECT_LT(present.metrics.bytesFetched, 8 * 1024);
  EXPECT_EQ(present.metrics.pagesSkipped, 99);
  // The value is absent: the probe rules the group out; no data page is read.
  const Read absent = read(P::eq("x", 15'001));
  EXPECT_TRUE(absent.ids.empty());
  EXPECT_EQ(absent.metrics.rowGroupsPrunedByBloomFilter, 1);
  EXPECT_EQ(absent.metrics.rowGroupsRead, 0);
  EXPECT_LT(absent.metrics.bytesFetched, 4 * 1024);  // the page index and a few dozen bytes
  // No page can hold the value: pruned by the page index, no filter read.
  const Read outside = read(P::eq("x", -5));
  EXPECT_TRUE(outside.ids.empty());
  EXPECT_EQ(outside.metrics.rowGroupsPrunedByPageIndex, 1);
  EXPECT_EQ(outside.metrics.rowGroupsPrunedByBloomFilter, 0);
  // 150 absent values within one page's range (page 50: 15,000-15,297): the
  // probe's 150 blocks (4.8 KB) cost more than the one page kept (4 KB), so the
  // filter is not read and the page is.
  std::vector<int32_t> inOnePage;
  for (int32_t v = 15'001; inOnePage.size() < 150; ++v) {
    if (v % 3 != 0) inOnePage.push_back(v);
  }
  const Read costly = read(P::in("x", inOnePage));
  EXPECT_TRUE(costly.ids.empty());
  EXPECT_EQ(costly.metrics.rowGroupsPrunedByBloomFilter, 0);
  EXPECT_EQ(costly.metrics.rowGroupsRead, 1);
  EXPECT_EQ(costly.metrics.pagesSkipped, 99);
  // 30 values absent from the column, one in each of 30 pages: the pages kept
  // (120 KB) cost more than the probe of 30 blocks, which rules the group out;
  // no data page is read, and 1 KB of the 64 KiB filter.
  std::vector<int32_t> absentValues;
  for (int32_t page = 0; page < 30; ++page) absentValues.push_back(page * 300 + 1);
  const auto absentIn = P::in("x", absentValues);
  const Read many = read(absentIn);
  EXPECT_TRUE(many.ids.empty());
  EXPECT_EQ(many.metrics.rowGroupsPrunedByBloomFilter, 1);
  EXPECT_EQ(many.metrics.rowGroupsRead, 0);
  EXPECT_LT(many.metrics.bytesFetched, 8 * 1024);  // the page index and 30 blocks
  for (const auto& f : {P::eq("x", 15'000), P::eq("x", 15'001), P::eq("x", -5), P::in("x", inOnePage), absentIn}) {
    auto file = openBytes(bytes, false);
    auto rows = file->rowReader(ColumnProjection::columns("x"), f);
    Ids all;
    while (rows->next()) all.push_back(rows->getInt("x"));
    EXPECT_EQ(all, read(f).ids) << f.toString();
  }
}

TEST(PagePruningTest, ProjectedColumnsAreReadOnlyWherePagesHoldASelectedRow) {
  // Late materialization (issue 5): x is unsorted (a permutation of 0..9,999, so
  // most pages' bounds span most of it and the page index keeps them); y has
  // an OffsetIndex. The three rows x in (7, 4'242, 9'001) selects
  // lie in three of y's 100 pages: only those are read.
  constexpr int32_t kRows = 10'000;
  std::vector<Raw> x, y;
  for (int32_t i = 0; i < kRows; ++i) {
    x.push_back(i32((i * 37) % kRows));
    y.push_back(i32(-i));
  }
  const std::vector<size_t> pages(100, 100);
  FixtureChunk yChunk = pagedInt32(y, pages);
  yChunk.columnIndex = false;
  ParquetFixtureWriter w;
  w.column(required(leafElement("x", PhysicalType::INT32)))
      .column(required(leafElement("y", PhysicalType::INT32)));
  w.rowGroup({pagedInt32(x, pages), yChunk});
  const auto bytes = w.bytes();
  const auto filter = P::in("x", 7, 4'242, 9'001);
  auto read = [&](bool pruning) {
    auto file = openBytes(bytes, pruning);
    auto rows = file->rowReader(ColumnProjection::columns("y"), filter);
    std::vector<std::pair<int64_t, int32_t>> out;
    while (rows->next()) out.emplace_back(rows->rowIndex(), rows->getInt("y"));
    return std::make_pair(out, rows->metrics());
  };
  const auto [pruned, metrics] = read(true);
  const auto [full, fullMetrics] = read(false);
  EXPECT_EQ(pruned, full);
  ASSERT_EQ(pruned.size(), 3u);
  for (const auto& [row, value] : pruned) EXPECT_EQ(value, -row);
  EXPECT_EQ(metrics.pagesTotal, 200);
  // x's pages whose bounds hold none of the three (a page of x is 100 rows),
  // and y's 97 pages without a selected row.
  EXPECT_EQ(metrics.pagesSkipped, (kRows - metrics.rowsDecoded) / 100 + 97);
  EXPECT_GT(metrics.rowsDecoded, kRows / 2);
  auto file = openBytes(bytes, true);
  const auto& columns = file->metadata().row_groups[0].columns;
  const auto xBytes = static_cast<uint64_t>(columns[0].meta_data->total_compressed_size);
  const auto yBytes = static_cast<uint64_t>(columns[1].meta_data->total_compressed_size);
  EXPECT_LT(metrics.bytesFetched, xBytes + yBytes / 10);
  EXPECT_GE(fullMetrics.bytesFetched, xBytes + yBytes);
}

TEST(PagePruningTest, LateMaterializationWithNoSelectedRowReadsNoProjectedPage) {
  // x's page bounds keep every page, the rows hold no 5: nothing of y is read.
  std::vector<Raw> x, y;
  for (int32_t i = 0; i < 400; ++i) {
    x.push_back(i32(i % 2 == 0 ? 0 : 10));
    y.push_back(i32(i));
  }
  FixtureChunk yChunk = pagedInt32(y, {100, 100, 100, 100});
  yChunk.columnIndex = false;
  ParquetFixtureWriter w;
  w.column(required(leafElement("x", PhysicalType::INT32)))
      .column(required(leafElement("y", PhysicalType::INT32)));
  w.rowGroup({pagedInt32(x, {100, 100, 100, 100}), yChunk});
  auto file = openBytes(w.bytes(), true);
  auto rows = file->rowReader(ColumnProjection::columns("y"), P::eq("x", 5));
  EXPECT_FALSE(rows->next());
  EXPECT_EQ(rows->metrics().pagesSkipped, 4);
  EXPECT_EQ(rows->metrics().rowsDecoded, 400);
}

}  // namespace
}  // namespace quarry::parquet
