#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "tests/support/build_paths.h"

// RowReader with a FilterPredicate over tests/fixtures/predicate_types.parquet
// (written by DuckDB, see tests/fixtures/make-predicate-fixtures.mjs): ids 0..9,
// row 9 null in every column but id.
namespace quarry::parquet {
namespace {

using P = FilterPredicate;
using Ids = std::vector<int32_t>;

std::string fixture() { return std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/predicate_types.parquet"; }

Ids idsOf(RowReader& rows) {
  Ids ids;
  while (rows.next()) ids.push_back(rows.getInt("id"));
  return ids;
}

Ids select(const FilterPredicate& filter) {
  auto file = ParquetFileReader::open(fixture());
  auto rows = file->rowReader(ColumnProjection::columns("id"), filter);
  return idsOf(*rows);
}

constexpr int64_t kJan2026Seconds = int64_t{20'454} * 86'400;

TEST(RowReaderFilterTest, FilterColumnOutsideTheProjectionIsDecodedButNotReadable) {
  auto file = ParquetFileReader::open(fixture());
  auto rows = file->buildRowReader().projection(ColumnProjection::columns("id")).filter(P::eq("s", "apple")).build();
  ASSERT_EQ(rows->getFieldCount(), 1u);
  ASSERT_TRUE(rows->next());
  EXPECT_EQ(rows->getInt("id"), 0);
  EXPECT_THROW(rows->field("s"), InvalidArgument);
  EXPECT_THROW(rows->field(1), std::out_of_range);
  ASSERT_TRUE(rows->next());
  EXPECT_EQ(rows->getInt(0), 5);
  EXPECT_FALSE(rows->next());
}

TEST(RowReaderFilterTest, NestedFilterColumnIsNotAFieldOfItsProjectedStruct) {
  auto file = ParquetFileReader::open(fixture());
  auto rows = file->rowReader(ColumnProjection::columns("id", "address"), P::eq("address.city", "Oslo"));
  EXPECT_EQ(idsOf(*rows), (Ids{0, 4}));
  auto projectedGroup = file->rowReader(ColumnProjection::columns("id"), P::isNull("address"));
  ASSERT_TRUE(projectedGroup->next());
  EXPECT_THROW(projectedGroup->field("address"), InvalidArgument);
}

TEST(RowReaderFilterTest, EveryRowWithoutAFilterAndNoneWhenNothingMatches) {
  EXPECT_EQ(select(P::isNotNull("id")).size(), 10u);
  EXPECT_EQ(select(P::eq("s", "nothing")), Ids{});
}

TEST(RowReaderFilterTest, IntegersSignedAndUnsigned) {
  EXPECT_EQ(select(P::lt("i64", int64_t{0})), (Ids{1, 3}));
  EXPECT_EQ(select(P::eq("i64", std::numeric_limits<int64_t>::max())), Ids{2});
  // 2147483648, 4000000000 and 4294967295 lie above every positive int.
  EXPECT_EQ(select(P::gt("u32", std::numeric_limits<int32_t>::max())), (Ids{1, 2, 4}));
  EXPECT_EQ(select(P::eq("u32", int32_t{-294'967'296})), Ids{1});
  EXPECT_EQ(select(P::not_(P::gt("u32", int32_t{7}))), (Ids{0, 3, 5}));
}

TEST(RowReaderFilterTest, FloatingPointTotalOrder) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(select(P::eq("f", nan)), Ids{1});
  EXPECT_EQ(select(P::gt("f", 5.0f)), (Ids{1, 8}));
  EXPECT_EQ(select(P::gt("dbl", 1e308)), (Ids{2, 3}));
  EXPECT_EQ(select(P::lt("dbl", 0.0)), (Ids{0, 4}));  // -0.0 sorts below +0.0
  EXPECT_EQ(select(P::eq("dbl", 0.0)), Ids{1});
}

TEST(RowReaderFilterTest, TextAndBytes) {
  EXPECT_EQ(select(P::in("s", "apple", "fig")), (Ids{0, 5, 8}));
  EXPECT_EQ(select(P::gt("s", "cherry")), (Ids{6, 7, 8}));
  EXPECT_EQ(select(P::gt("s", "caf")), (Ids{2, 3, 6, 7, 8}));
  EXPECT_EQ(select(P::eq("bl", Bytes{0x00, 0xC8})), (Ids{0, 5}));
  EXPECT_EQ(select(P::in("bl", Bytes{0x00, 0xC8}, Bytes{0x00, 0xC9})), (Ids{0, 1, 5}));
  EXPECT_EQ(select(P::gtEq("bl", Bytes{0x03})), (Ids{3, 7, 8}));
}

TEST(RowReaderFilterTest, DatesTimestampsAndDecimals) {
  EXPECT_EQ(select(P::eq("d", Date::ofCivil(2026, 1, 1))), (Ids{0, 5}));
  EXPECT_EQ(select(P::lt("d", Date{std::numeric_limits<int32_t>::max()})), (Ids{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(select(P::gt("d", Date{std::numeric_limits<int32_t>::max()})), Ids{});
  EXPECT_EQ(select(P::eq("ts", Instant{kJan2026Seconds, 0})), (Ids{0, 5}));
  EXPECT_EQ(select(P::ltEq("ts", Instant{kJan2026Seconds, 500})), (Ids{0, 2, 3, 4, 5}));
  EXPECT_EQ(select(P::eq("d9", Decimal{{0x7D}, 2})), (Ids{0, 5}));
  EXPECT_EQ(select(P::eq("d38", Decimal{{0x7D}, 2})), (Ids{0, 5}));  // FIXED_LEN_BYTE_ARRAY(16)
  EXPECT_EQ(select(P::lt("d38", Decimal{{0x00}, 0})), (Ids{1, 4}));
  EXPECT_EQ(select(P::gt("d38", Decimal{{0x01}, 0})), (Ids{0, 2, 5, 6, 7, 8}));
}

TEST(RowReaderFilterTest, ListGroupTakesNullTestsAndItsElementsAreRejected) {
  EXPECT_EQ(select(P::isNull("tags")), (Ids{2, 9}));
  auto file = ParquetFileReader::open(fixture());
  EXPECT_THROW(file->rowReader(ColumnProjection::all(), P::eq("tags.list.element", 1)), InvalidArgument);
}

TEST(RowReaderFilterTest, BindingErrorsSurfaceAtReaderCreation) {
  auto file = ParquetFileReader::open(fixture());
  EXPECT_THROW(file->rowReader(ColumnProjection::all(), P::eq("d", int64_t{20454})), InvalidArgument);
  // The spec's example: an equality literal finer than the column's microseconds.
  const Instant literal{int64_t{Date::ofCivil(2024, 5, 1).daysSinceEpoch} * 86'400 + 12 * 3600, 500};
  EXPECT_THROW(file->buildRowReader().filter(P::eq("ts", literal)).build(), InvalidArgument);
  EXPECT_THROW(file->rowReader(ColumnProjection::all(), P::eq("missing", 1)), InvalidArgument);
}

TEST(RowReaderFilterTest, SkipsRowGroupsWithoutASelectedRowAndKeepsRowIndices) {
  // Three row groups of 2048 rows: id 0..6143, v = id % 100, null where id % 7 == 0.
  // The expected counts and sums are DuckDB's for the same WHERE clauses.
  auto file = ParquetFileReader::open(std::string(QUARRY_SOURCE_DIR) +
                                      "/tests/fixtures/predicate_row_groups.parquet");
  ASSERT_EQ(file->numRowGroups(), 3);
  auto sumIds = [&](const FilterPredicate& filter) {
    auto rows = file->rowReader(ColumnProjection::columns("id"), filter);
    std::pair<int64_t, int64_t> countAndSum{0, 0};
    while (rows->next()) {
      EXPECT_EQ(rows->rowIndex(), rows->getInt("id"));
      ++countAndSum.first;
      countAndSum.second += rows->getInt("id");
    }
    return countAndSum;
  };
  EXPECT_EQ(sumIds(P::not_(P::lt("v", 50))), (std::pair<int64_t, int64_t>{2614, 8035822}));
  EXPECT_EQ(sumIds(P::or_(P::eq("v", 5), P::gtEq("id", 6000))), (std::pair<int64_t, int64_t>{195, 1025451}));
  EXPECT_EQ(sumIds(P::gtEq("id", 6140)), (std::pair<int64_t, int64_t>{4, 6140 + 6141 + 6142 + 6143}));
  EXPECT_EQ(sumIds(P::lt("id", 0)), (std::pair<int64_t, int64_t>{0, 0}));
  EXPECT_EQ(sumIds(P::isNull("v")).first, 878);  // ids divisible by 7 in 0..6143
}

}  // namespace
}  // namespace quarry::parquet
