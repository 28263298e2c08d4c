#include "quarry/engine/exec/sample_exec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "page_builder.h"

namespace quarry::engine {
namespace {

using testing::drain;
using testing::Row;
using testing::sourceOf;

const Schema kSchema{{"n", DataType::int64()}};

/// `rows` rows numbered from 0, in pages of `pageRows`.
OperatorPtr numbers(int64_t rows, int64_t pageRows) {
  std::vector<Page> pages;
  for (int64_t first = 0; first < rows; first += pageRows) {
    std::vector<int64_t> values;
    for (int64_t n = first; n < std::min(rows, first + pageRows); ++n) values.push_back(n);
    const size_t count = values.size();
    pages.push_back(Page({Block::fromValues(DataType::int64(), std::move(values))}, count));
  }
  return sourceOf(kSchema, std::move(pages));
}

std::vector<int64_t> keptNumbers(double probability, uint64_t seed, int64_t rows,
                                 int64_t pageRows) {
  SampleExec sample(numbers(rows, pageRows), probability, seed);
  std::vector<int64_t> out;
  for (const Row& row : drain(sample)) out.push_back(std::get<int64_t>(row[0]));
  return out;
}

// ES|QL: "probability - The probability that a row is included in the sample": each
// row independently, so the count kept of n rows is binomial(n, p). With a fixed
// seed the count is fixed; the bound below holds for any seed but one in millions
// (5 standard deviations).
TEST(SampleExec, KeepsAboutTheProbabilityOfTheRows) {
  constexpr int64_t kRows = 200'000;
  for (const double p : {0.01, 0.1, 0.5, 0.9}) {
    const double kept = static_cast<double>(keptNumbers(p, 42, kRows, 4096).size());
    const double mean = p * kRows;
    const double sd = std::sqrt(kRows * p * (1 - p));
    EXPECT_NEAR(kept, mean, 5 * sd) << "p = " << p;
  }
  // Kept rows are spread over the input, not a prefix: both halves hold about half.
  const std::vector<int64_t> kept = keptNumbers(0.1, 7, kRows, 4096);
  const auto firstHalf =
      std::count_if(kept.begin(), kept.end(), [](int64_t n) { return n < kRows / 2; });
  EXPECT_NEAR(static_cast<double>(firstHalf), kept.size() / 2.0, 5 * std::sqrt(kept.size() / 4.0));
}

// "A run is repeatable when a seed is given": the same rows for the same seed,
// whatever the page sizes; other rows for another seed.
TEST(SampleExec, TheSameSeedKeepsTheSameRows) {
  const std::vector<int64_t> once = keptNumbers(0.3, 1234, 50'000, 1000);
  EXPECT_EQ(keptNumbers(0.3, 1234, 50'000, 1000), once);
  EXPECT_EQ(keptNumbers(0.3, 1234, 50'000, 777), once);
  EXPECT_NE(keptNumbers(0.3, 1235, 50'000, 1000), once);
  EXPECT_TRUE(std::is_sorted(once.begin(), once.end()));  // the input's order
  EXPECT_NE(SampleExec::splitSeed(1, "a.parquet", 0), SampleExec::splitSeed(1, "a.parquet", 4));
  EXPECT_NE(SampleExec::splitSeed(1, "a.parquet", 0), SampleExec::splitSeed(1, "b.parquet", 0));
}

TEST(SampleExec, RefusesAProbabilityOutsideZeroToOne) {
  EXPECT_THROW(SampleExec(numbers(1, 1), 0.0, 1), std::invalid_argument);
  EXPECT_THROW(SampleExec(numbers(1, 1), 1.0, 1), std::invalid_argument);
  EXPECT_THROW(SampleExec(numbers(1, 1), std::nan(""), 1), std::invalid_argument);
}

}  // namespace
}  // namespace quarry::engine
