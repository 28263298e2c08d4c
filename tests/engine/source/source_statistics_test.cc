// SourceStatistics merge: the FileStatsSupplier merge of issue 9 — "counts
// summed, min of mins, max of maxes, null counts summed, any unknown makes the
// result unknown".
#include "quarry/engine/source/source_statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

SourceStatistics unit(int64_t rows, std::optional<int64_t> nulls, std::optional<StatisticValue> min,
                      std::optional<StatisticValue> max, const std::string& column = "k") {
  SourceStatistics s;
  s.rowCount = rows;
  s.columns[column] = ColumnStatistics{nulls, std::move(min), std::move(max)};
  return s;
}

TEST(SourceStatisticsTest, MergesThreeFilesCountsMinsAndMaxes) {
  const SourceStatistics merged =
      merge(merge(unit(10, 1, int64_t{5}, int64_t{50}), unit(20, 0, int64_t{-3}, int64_t{7})),
            unit(5, 2, int64_t{9}, int64_t{99}));
  EXPECT_EQ(merged.rowCount, 35);
  const ColumnStatistics& k = merged.columns.at("k");
  EXPECT_EQ(k.nullCount, 3);
  EXPECT_EQ(k.min, StatisticValue{int64_t{-3}});
  EXPECT_EQ(k.max, StatisticValue{int64_t{99}});
}

TEST(SourceStatisticsTest, AnyUnknownMakesTheResultUnknown) {
  const SourceStatistics a = unit(10, 1, int64_t{5}, int64_t{50});
  const ColumnStatistics nullsUnknown =
      merge(a, unit(10, std::nullopt, int64_t{1}, int64_t{2})).columns.at("k");
  EXPECT_FALSE(nullsUnknown.nullCount);
  EXPECT_EQ(nullsUnknown.min, StatisticValue{int64_t{1}});  // bounds stay known
  const ColumnStatistics minUnknown =
      merge(a, unit(10, 0, std::nullopt, int64_t{2})).columns.at("k");
  EXPECT_FALSE(minUnknown.min);
  EXPECT_EQ(minUnknown.max, StatisticValue{int64_t{50}});
  EXPECT_EQ(minUnknown.nullCount, 1);
}

TEST(SourceStatisticsTest, AColumnOnlyOneSideKnowsBecomesUnknown) {
  const SourceStatistics merged =
      merge(unit(10, 0, int64_t{1}, int64_t{2}, "a"), unit(10, 0, int64_t{1}, int64_t{2}, "b"));
  EXPECT_EQ(merged.columns.at("a"), ColumnStatistics{});
  EXPECT_EQ(merged.columns.at("b"), ColumnStatistics{});
}

TEST(SourceStatisticsTest, AnAllNullSideContributesNoBound) {
  // 4 rows, 4 nulls: no bound, and none needed.
  const SourceStatistics allNull = unit(4, 4, std::nullopt, std::nullopt);
  EXPECT_TRUE(allNull.allNull("k"));
  const SourceStatistics merged = merge(allNull, unit(6, 1, std::string("b"), std::string("x")));
  const ColumnStatistics& k = merged.columns.at("k");
  EXPECT_EQ(k.nullCount, 5);
  EXPECT_EQ(k.min, StatisticValue{std::string("b")});
  EXPECT_EQ(k.max, StatisticValue{std::string("x")});
  EXPECT_FALSE(merged.allNull("k"));
  // Two all-null sides stay all-null: "an all-null column gives MIN/MAX null".
  const SourceStatistics both = merge(allNull, allNull);
  EXPECT_TRUE(both.allNull("k"));
}

TEST(SourceStatisticsTest, BytesCompareUnsignedAndZerosBySign) {
  const ColumnStatistics s = merge(unit(1, 0, std::string("\xff"), std::string("\xff")),
                                   unit(1, 0, std::string("a"), std::string("a")))
                                 .columns.at("k");
  EXPECT_EQ(s.min, StatisticValue{std::string("a")});
  EXPECT_EQ(s.max, StatisticValue{std::string("\xff")});
  // "mind -0.0 vs +0.0": the minimum of {-0.0, +0.0} is -0.0.
  const ColumnStatistics z = merge(unit(1, 0, 0.0, 0.0), unit(1, 0, -0.0, -0.0)).columns.at("k");
  ASSERT_TRUE(z.min && z.max);
  EXPECT_TRUE(std::signbit(std::get<double>(*z.min)));
  EXPECT_FALSE(std::signbit(std::get<double>(*z.max)));
}

TEST(SourceStatisticsTest, ValuesOfDifferentKindsGiveUnknownBounds) {
  const ColumnStatistics s =
      merge(unit(1, 0, int64_t{1}, int64_t{1}), unit(1, 0, 1.0, 1.0)).columns.at("k");
  EXPECT_FALSE(s.min);
  EXPECT_FALSE(s.max);
  EXPECT_EQ(s.nullCount, 0);
}

TEST(SourceStatisticsTest, OverflowingCountsAreRefused) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_THROW(
      merge(unit(big, 0, std::nullopt, std::nullopt), unit(1, 0, std::nullopt, std::nullopt)),
      CorruptFile);
}

TEST(SourceStatisticsTest, RendersValues) {
  EXPECT_EQ(toString(StatisticValue{int64_t{-4}}), "-4");
  EXPECT_EQ(toString(StatisticValue{std::string("ab")}), "'ab'");
  EXPECT_EQ(toString(StatisticValue{Date{0}}), "1970-01-01");
  EXPECT_EQ(toString(StatisticValue{true}), "true");
}

}  // namespace
}  // namespace quarry::engine
