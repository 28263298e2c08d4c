#include "quarry/engine/exec/top_n_exec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "page_builder.h"
#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

using testing::drain;
using testing::pageOfRows;
using testing::Row;
using testing::sourceOf;

Scalar i32(int32_t v) {
  return v;
}
Scalar f64(double v) {
  return v;
}
Scalar str(std::string v) {
  return v;
}
const Scalar kNull = std::monostate{};

const Schema kSchema{
    {"k", DataType::int32()}, {"s", DataType::string()}, {"seq", DataType::int32()}};

std::vector<Page> pagesOf(const std::vector<Row>& rows, size_t pageRows) {
  std::vector<Page> pages;
  for (size_t i = 0; i < rows.size(); i += pageRows) {
    pages.push_back(pageOfRows(
        kSchema, {rows.begin() + i, rows.begin() + std::min(rows.size(), i + pageRows)}));
  }
  return pages;
}

TEST(TopNExec, SortsByKeysInTurnWithDirectionAndNullPlacement) {
  const std::vector<Row> rows{{i32(2), str("b"), i32(0)}, {kNull, str("a"), i32(1)},
                              {i32(1), kNull, i32(2)},    {i32(2), str("a"), i32(3)},
                              {i32(1), str("c"), i32(4)}, {kNull, kNull, i32(5)}};
  {
    // k ASC NULLS LAST, s DESC NULLS FIRST
    TopNExec sort(sourceOf(kSchema, pagesOf(rows, 2)), {{0, true, false}, {1, false, true}},
                  std::nullopt);
    std::vector<int32_t> seq;
    for (const Row& row : drain(sort)) seq.push_back(std::get<int32_t>(row[2]));
    EXPECT_EQ(seq, (std::vector<int32_t>{2, 4, 0, 3, 5, 1}));
  }
  {
    // k DESC NULLS FIRST, s ASC NULLS LAST
    TopNExec sort(sourceOf(kSchema, pagesOf(rows, 4)), {{0, false, true}, {1, true, false}},
                  std::nullopt);
    std::vector<int32_t> seq;
    for (const Row& row : drain(sort)) seq.push_back(std::get<int32_t>(row[2]));
    EXPECT_EQ(seq, (std::vector<int32_t>{1, 5, 3, 0, 4, 2}));
  }
}

TEST(TopNExec, TiesKeepTheirInputOrder) {
  std::vector<Row> rows;
  for (int32_t i = 0; i < 10000; ++i) rows.push_back({i32(i % 3), str("x"), i32(i)});
  for (std::optional<int64_t> limit : {std::optional<int64_t>{}, std::optional<int64_t>{2500}}) {
    TopNExec sort(sourceOf(kSchema, pagesOf(rows, 333)), {{0, false, false}}, limit);
    const std::vector<Row> out = drain(sort);
    ASSERT_EQ(out.size(), limit ? 2500u : 10000u);
    for (size_t r = 1; r < out.size(); ++r) {
      if (out[r][0] == out[r - 1][0]) {
        EXPECT_LT(std::get<int32_t>(out[r - 1][2]), std::get<int32_t>(out[r][2])) << "row " << r;
      }
    }
    EXPECT_EQ(out[0], (Row{i32(2), str("x"), i32(2)}));
  }
}

TEST(TopNExec, LimitKeepsTheBestRowsAsAFullSortWould) {
  std::mt19937 rng(42);
  std::vector<Row> rows;
  for (int32_t i = 0; i < 20000; ++i) {
    rows.push_back({rng() % 10 == 0 ? kNull : i32(static_cast<int32_t>(rng() % 5000)),
                    str(std::string(1, static_cast<char>('a' + rng() % 26))), i32(i)});
  }
  const std::vector<SortSpec> keys{{1, true, false}, {0, false, true}};
  TopNExec full(sourceOf(kSchema, pagesOf(rows, 1000)), keys, std::nullopt);
  std::vector<Row> expected = drain(full);
  ASSERT_EQ(expected.size(), rows.size());
  for (int64_t limit : {1, 7, 100, 5000}) {
    TopNExec top(sourceOf(kSchema, pagesOf(rows, 1000)), keys, limit);
    EXPECT_EQ(drain(top), std::vector<Row>(expected.begin(), expected.begin() + limit))
        << "limit " << limit;
  }
}

TEST(TopNExec, DoublesSortWithNaNGreatestAndSignedZerosEqual) {
  // "NaN compares greater than every other double ... -0.0 == +0.0. MIN/MAX/SORT follow the same
  // order."
  const Schema schema{{"d", DataType::float64()}, {"seq", DataType::int32()}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  TopNExec sort(sourceOf(schema, {pageOfRows(schema, {{f64(nan), i32(0)},
                                                      {f64(0.0), i32(1)},
                                                      {f64(INFINITY), i32(2)},
                                                      {f64(-0.0), i32(3)},
                                                      {kNull, i32(4)},
                                                      {f64(-1), i32(5)}})}),
                {{0, true, false}}, std::nullopt);
  std::vector<int32_t> seq;
  for (const Row& row : drain(sort)) seq.push_back(std::get<int32_t>(row[1]));
  EXPECT_EQ(seq, (std::vector<int32_t>{5, 1, 3, 2, 0, 4}));
}

TEST(TopNExec, LimitZeroReturnsNothingAndStatsCount) {
  TopNExec none(sourceOf(kSchema, pagesOf({{i32(1), str("a"), i32(0)}}, 1)), {{0}}, 0);
  EXPECT_TRUE(drain(none).empty());
  std::vector<Row> rows;
  for (int32_t i = 0; i < 9000; ++i) rows.push_back({i32(-i), str("a"), i32(i)});
  TopNExec sort(sourceOf(kSchema, pagesOf(rows, 100)), {{0}}, std::nullopt);
  EXPECT_EQ(drain(sort).size(), 9000u);
  std::vector<OperatorStats> stats;
  sort.collectStats(stats);
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[0].name, "TopNExec");
  EXPECT_EQ(stats[0].rowsOut, 9000u);
  EXPECT_EQ(stats[0].pagesOut, 2u);
  EXPECT_EQ(stats[1].rowsOut, 9000u);
  EXPECT_EQ(stats[1].pagesOut, 90u);
  EXPECT_THROW(TopNExec(sourceOf(kSchema, {}), {{3}}, std::nullopt), InvalidArgument);
}

}  // namespace
}  // namespace quarry::engine
