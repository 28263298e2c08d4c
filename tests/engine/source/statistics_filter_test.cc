// decideFromStatistics: a unit proven to match no row, every row, or neither,
// from its exact SourceStatistics (issue 9: "WHERE-filtered COUNT/MIN/MAX
// answered from statistics where each row group ... is proven all-match or
// none-match, scanning only the undecided ones").

#include "quarry/engine/source/statistics_filter.h"

#include <gtest/gtest.h>

namespace quarry::engine {
namespace {

using P = parquet::FilterPredicate;
using D = StatisticsDecision;

/// A unit of 10 rows: k in [10, 20] without nulls; n in [1, 5] with 3 nulls;
/// z all null; u with unknown bounds and null count; s in ['b', 'd'].
SourceStatistics unit() {
  SourceStatistics stats;
  stats.rowCount = 10;
  stats.columns["k"] =
      ColumnStatistics{int64_t{0}, StatisticValue(int64_t{10}), StatisticValue(int64_t{20})};
  stats.columns["n"] =
      ColumnStatistics{int64_t{3}, StatisticValue(int64_t{1}), StatisticValue(int64_t{5})};
  stats.columns["z"] = ColumnStatistics{int64_t{10}, std::nullopt, std::nullopt};
  stats.columns["u"] = ColumnStatistics{};
  stats.columns["s"] = ColumnStatistics{int64_t{0}, StatisticValue(std::string("b")),
                                        StatisticValue(std::string("d"))};
  return stats;
}

TEST(StatisticsFilter, ComparisonsAgainstExactBounds) {
  const SourceStatistics stats = unit();
  EXPECT_EQ(decideFromStatistics(P::gt("k", int64_t{20}), stats), D::kNoRow);
  EXPECT_EQ(decideFromStatistics(P::gtEq("k", int64_t{20}), stats), D::kSomeRows);
  EXPECT_EQ(decideFromStatistics(P::gtEq("k", int64_t{10}), stats), D::kEveryRow);
  EXPECT_EQ(decideFromStatistics(P::gt("k", int32_t{9}), stats),
            D::kEveryRow);  // int32 literal, int64 bound
  EXPECT_EQ(decideFromStatistics(P::lt("k", int64_t{10}), stats), D::kNoRow);
  EXPECT_EQ(decideFromStatistics(P::ltEq("k", int64_t{20}), stats), D::kEveryRow);
  EXPECT_EQ(decideFromStatistics(P::eq("k", int64_t{21}), stats), D::kNoRow);
  EXPECT_EQ(decideFromStatistics(P::eq("k", int64_t{15}), stats), D::kSomeRows);
  EXPECT_EQ(decideFromStatistics(P::notEq("k", int64_t{21}), stats), D::kEveryRow);
  EXPECT_EQ(decideFromStatistics(P::in("k", int64_t{1}, int64_t{30}), stats), D::kNoRow);
  EXPECT_EQ(decideFromStatistics(P::in("k", int64_t{1}, int64_t{12}), stats), D::kSomeRows);
  EXPECT_EQ(decideFromStatistics(P::lt("s", "e"), stats), D::kEveryRow);
  EXPECT_EQ(decideFromStatistics(P::lt("s", "b"), stats), D::kNoRow);
}

TEST(StatisticsFilter, NullsAreNeverAMatchOfAComparison) {
  const SourceStatistics stats = unit();
  // n's non-null values all pass, but 3 rows are null: not every row matches.
  EXPECT_EQ(decideFromStatistics(P::gt("n", int64_t{0}), stats), D::kSomeRows);
  EXPECT_EQ(decideFromStatistics(P::gt("z", int64_t{0}), stats), D::kNoRow);
  EXPECT_EQ(decideFromStatistics(P::isNull("z"), stats), D::kEveryRow);
  EXPECT_EQ(decideFromStatistics(P::isNotNull("k"), stats), D::kEveryRow);
  EXPECT_EQ(decideFromStatistics(P::isNull("k"), stats), D::kNoRow);
  EXPECT_EQ(decideFromStatistics(P::isNull("n"), stats), D::kSomeRows);
  // NOT of a null comparison stays null: not every row.
  EXPECT_EQ(decideFromStatistics(P::not_(P::gt("n", int64_t{9})), stats), D::kSomeRows);
  EXPECT_EQ(decideFromStatistics(P::not_(P::gt("k", int64_t{30})), stats), D::kEveryRow);
}

TEST(StatisticsFilter, UnknownStatisticsDecideNothing) {
  const SourceStatistics stats = unit();
  EXPECT_EQ(decideFromStatistics(P::gt("u", int64_t{0}), stats), D::kSomeRows);
  EXPECT_EQ(decideFromStatistics(P::isNull("u"), stats), D::kSomeRows);
  EXPECT_EQ(decideFromStatistics(P::gt("absent", int64_t{0}), stats), D::kSomeRows);
  EXPECT_EQ(decideFromStatistics(P::isNull("absent"), stats), D::kSomeRows);
  // A literal of another kind than the bounds is not compared.
  EXPECT_EQ(decideFromStatistics(P::gt("k", 1.5), stats), D::kSomeRows);
}

TEST(StatisticsFilter, AndOrCombineAsKleeneLogic) {
  const SourceStatistics stats = unit();
  const P every = P::gtEq("k", int64_t{10});
  const P none = P::gt("k", int64_t{20});
  const P some = P::eq("k", int64_t{15});
  EXPECT_EQ(decideFromStatistics(P::and_(every, every), stats), D::kEveryRow);
  EXPECT_EQ(decideFromStatistics(P::and_(every, some), stats), D::kSomeRows);
  EXPECT_EQ(decideFromStatistics(P::and_(every, none), stats), D::kNoRow);
  EXPECT_EQ(decideFromStatistics(P::or_(none, every), stats), D::kEveryRow);
  EXPECT_EQ(decideFromStatistics(P::or_(none, none), stats), D::kNoRow);
  EXPECT_EQ(decideFromStatistics(P::or_(none, some), stats), D::kSomeRows);
  // n > 0 is true or null; OR with k >= 10 (always true) is always true.
  EXPECT_EQ(decideFromStatistics(P::or_(P::gt("n", int64_t{0}), every), stats), D::kEveryRow);
  // AND with a null-or-true side is not every row.
  EXPECT_EQ(decideFromStatistics(P::and_(P::gt("n", int64_t{0}), every), stats), D::kSomeRows);
  EXPECT_EQ(decideFromStatistics(P::not_(P::or_(none, none)), stats), D::kEveryRow);
}

TEST(StatisticsFilter, AnEmptyUnitMatchesNoRow) {
  SourceStatistics empty;
  EXPECT_EQ(decideFromStatistics(P::isNull("k"), empty), D::kNoRow);
}

}  // namespace
}  // namespace quarry::engine
