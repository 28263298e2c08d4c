// MEDIAN, PERCENTILE, MEDIAN_ABSOLUTE_DEVIATION (percentile_aggregator.cc),
// STD_DEV, VARIANCE (variance_aggregator.cc), WEIGHTED_AVG
// (weighted_avg_aggregator.cc), VALUES and TOP (values_aggregator.cc): ES|QL's
// semantics with exact percentiles interpolated as DuckDB's quantile_cont; nulls
// skipped, null for a group without a value; and every INITIAL split in two
// merged by FINAL equal to SINGLE (aggregator.h: "Splitting the input among
// several INITIAL aggregations whose outputs one FINAL aggregation merges gives
// what SINGLE gives over all of it").

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/common/memory_budget.h"
#include "quarry/engine/expr/aggregator.h"

namespace quarry::engine {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using D = std::optional<double>;

/// A block of `type` holding `values` (nullopt: null).
template <typename T>
Block blockOf(const DataType& type, const std::vector<std::optional<T>>& values) {
  Block block(type);
  for (const std::optional<T>& v : values) {
    if (v) {
      block.append<T>(*v);
    } else {
      block.appendNull();
    }
  }
  return block;
}

Block doubles(const std::vector<D>& values) {
  return blockOf(DataType::float64(), values);
}

AggregateSpec specOf(AggregateFunction f, const DataType& type) {
  AggregateSpec spec;
  spec.function = f;
  spec.inputChannel = 0;
  spec.inputType = type;
  spec.name = "a";
  return spec;
}

/// SINGLE over `page`, row r in group groups[r] (all in group 0 when empty).
Block single(const AggregateSpec& spec, const Page& page, std::vector<uint32_t> groups = {},
             size_t count = 1) {
  if (groups.empty()) groups.assign(page.positionCount(), 0);
  std::unique_ptr<Aggregator> a = makeAggregator(spec);
  a->resize(count);
  a->addInput(page, groups);
  return a->writeFinal();
}

/// INITIAL over rows [0, cut) and over [cut, n), FINAL over both intermediate pages.
Block split(const AggregateSpec& spec, const Page& page, size_t cut,
            std::vector<uint32_t> groups = {}, size_t count = 1) {
  if (groups.empty()) groups.assign(page.positionCount(), 0);
  AggregateSpec merged = spec;
  merged.inputChannel = 0;
  merged.weightChannel = -1;
  std::unique_ptr<Aggregator> final = makeAggregator(merged);
  final->resize(count);
  std::vector<uint32_t> identity(count);
  std::iota(identity.begin(), identity.end(), 0u);
  const size_t n = page.positionCount();
  for (const auto& [from, to] : {std::pair<size_t, size_t>{0, cut}, {cut, n}}) {
    std::unique_ptr<Aggregator> initial = makeAggregator(spec);
    initial->resize(count);
    initial->addInput(page.slice(from, to - from), std::span(groups).subspan(from, to - from));
    std::vector<Block> blocks;
    initial->writeIntermediate(blocks);
    EXPECT_EQ(blocks.size(), intermediateFields(spec).size());
    final->addIntermediate(Page(std::move(blocks), count), identity);
  }
  return final->writeFinal();
}

/// The doubles of a final block, NaN kept, nullopt for null.
std::vector<D> valuesOf(const Block& block) {
  std::vector<D> out;
  for (size_t i = 0; i < block.size(); ++i)
    out.push_back(block.isNull(i) ? D{} : D{block.values<double>()[i]});
  return out;
}

/// Position `i` of a list block as text: "[1, 2]", or "null".
std::string listAt(const Block& lists, size_t i) {
  if (lists.isNull(i)) return "null";
  std::string out = "[";
  const Block& elements = lists.listElements();
  for (uint64_t e = lists.listOffsets()[i]; e < lists.listOffsets()[i + 1]; ++e) {
    if (e > lists.listOffsets()[i]) out += ", ";
    const Scalar v = elements.scalarAt(e);
    if (const auto* s = std::get_if<std::string>(&v)) {
      out += *s;
    } else if (const auto* d = std::get_if<double>(&v)) {
      out += std::isnan(*d) ? "NaN" : std::to_string(*d);
    } else if (const auto* i64 = std::get_if<int64_t>(&v)) {
      out += std::to_string(*i64);
    } else if (const auto* i32 = std::get_if<int32_t>(&v)) {
      out += std::to_string(*i32);
    }
  }
  return out + "]";
}

Page onePage(Block block) {
  const size_t n = block.size();
  std::vector<Block> blocks;
  blocks.push_back(std::move(block));
  return Page(std::move(blocks), n);
}

/// Equal as doubles, NaN equal to NaN, nulls equal.
void expectSame(const std::vector<D>& got, const std::vector<D>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].has_value(), want[i].has_value()) << i;
    if (!got[i]) continue;
    if (std::isnan(*want[i])) {
      EXPECT_TRUE(std::isnan(*got[i])) << i;
    } else {
      EXPECT_EQ(*got[i], *want[i]) << i;
    }
  }
}

/// Merges one intermediate row: the value set `bytes`, seen; into a fresh aggregator of `spec`.
void mergeSet(const AggregateSpec& spec, std::string_view bytes) {
  std::unique_ptr<Aggregator> a = makeAggregator(spec);
  a->resize(1);
  Block set(DataType::binary());
  set.appendBytes(bytes);
  Block seen(DataType::boolean());
  seen.append<uint8_t>(1);
  std::vector<Block> blocks;
  blocks.push_back(std::move(set));
  blocks.push_back(std::move(seen));
  const std::vector<uint32_t> ids{0};
  a->addIntermediate(Page(std::move(blocks), 1), ids);
}

// ---- MEDIAN, PERCENTILE, MEDIAN_ABSOLUTE_DEVIATION ----

TEST(PercentileAggregator, InterpolatesBetweenTheTwoNearestValuesAsQuantileCont) {
  // quantile_cont: r = (n - 1) * q; lo * (1 - d) + hi * d. 1, 2, 4, 10:
  // PERCENTILE 40 -> r 1.2 -> 2 * 0.8 + 4 * 0.2; MEDIAN -> 3; 0 -> 1; 100 -> 10.
  const Page page = onePage(doubles({10.0, 2.0, std::nullopt, 4.0, 1.0}));
  AggregateSpec p = specOf(AggregateFunction::kPercentile, DataType::float64());
  p.quantile = 0.4;
  const double d = 3 * 0.4 - 1;
  expectSame(valuesOf(single(p, page)), {2.0 * (1.0 - d) + 4.0 * d});
  p.quantile = 0.0;
  expectSame(valuesOf(single(p, page)), {1.0});
  p.quantile = 1.0;
  expectSame(valuesOf(single(p, page)), {10.0});
  expectSame(valuesOf(single(specOf(AggregateFunction::kMedian, DataType::float64()), page)),
             {3.0});
  // DuckDB's formula, not lo + (hi - lo) * d: quantile_cont([0.1, 0.7], 0.3) is
  // 0.27999999999999997.
  p.quantile = 0.3;
  const double got = *valuesOf(single(p, onePage(doubles({0.7, 0.1}))))[0];
  EXPECT_EQ(got, 0.1 * (1.0 - 0.3) + 0.7 * 0.3);
  EXPECT_NE(got, 0.1 + (0.7 - 0.1) * 0.3);
}

TEST(PercentileAggregator, TiesOneValueNaNAndNoValue) {
  const AggregateSpec median = specOf(AggregateFunction::kMedian, DataType::float64());
  // Ties: equal values are interchangeable; the median of 5, 5, 5, 7 is 5.
  expectSame(valuesOf(single(median, onePage(doubles({5.0, 7.0, 5.0, 5.0})))), {5.0});
  expectSame(valuesOf(single(median, onePage(doubles({std::nullopt, 42.0})))), {42.0});
  // NaN sorts last (value_order.h), as in DuckDB: it is the median only when it is in the middle.
  expectSame(valuesOf(single(median, onePage(doubles({kNaN, 1.0, 2.0})))), {2.0});
  expectSame(valuesOf(single(median, onePage(doubles({kNaN, 1.0})))), {kNaN});
  // "all-null / empty group -> null"
  expectSame(valuesOf(single(median, onePage(doubles({std::nullopt, std::nullopt})))),
             {std::nullopt});
  expectSame(valuesOf(single(median, onePage(doubles({})))), {std::nullopt});
}

TEST(PercentileAggregator, MedianAbsoluteDeviationIsTheMedianOfDeviationsFromTheMedian) {
  // ES|QL: "median(|median(X) - X|)"; DuckDB's mad of 1, 2, 4, 10 is 1.5.
  const AggregateSpec mad =
      specOf(AggregateFunction::kMedianAbsoluteDeviation, DataType::float64());
  expectSame(valuesOf(single(mad, onePage(doubles({1.0, 2.0, 4.0, 10.0, std::nullopt})))), {1.5});
  expectSame(valuesOf(single(mad, onePage(doubles({3.0})))), {0.0});
  expectSame(valuesOf(single(mad, onePage(doubles({std::nullopt})))), {std::nullopt});
}

TEST(PercentileAggregator, IntegersAndDecimalsAreReadAsDoubles) {
  Block ints(DataType::int64());
  for (int64_t v : {7, 1, 3, 2}) ints.append<int64_t>(v);
  expectSame(valuesOf(single(specOf(AggregateFunction::kMedian, DataType::int64()),
                             onePage(std::move(ints)))),
             {2.5});
  Block decimals(DataType::decimal(9, 2));
  for (Int128 v : {125, 350}) decimals.append<Int128>(v);  // 1.25, 3.50
  expectSame(valuesOf(single(specOf(AggregateFunction::kMedian, DataType::decimal(9, 2)),
                             onePage(std::move(decimals)))),
             {2.375});
  EXPECT_EQ(aggregateResultType(AggregateFunction::kPercentile, DataType::int32()),
            DataType::float64());
  EXPECT_THROW(aggregateResultType(AggregateFunction::kMedian, DataType::string()),
               InvalidArgument);
}

TEST(PercentileAggregator, CorruptIntermediateValuesAreCorruptFile) {
  // One and a half doubles.
  EXPECT_THROW(
      mergeSet(specOf(AggregateFunction::kMedian, DataType::float64()), std::string(12, 'x')),
      CorruptFile);
}

TEST(PercentileAggregator, ValuesBeyondTheMemoryLimitFailNamingTheAggregate) {
  // "exact percentiles hold the values per group ... fail with a clear error rather than grow
  // without bound": the values are charged against the query's memory limit.
  const uint64_t before = memoryLimit();
  setMemoryLimit(memoryCharged() + 4096);
  std::vector<D> many(1000, 1.0);
  AggregateSpec median = specOf(AggregateFunction::kMedian, DataType::float64());
  median.name = "p50";
  try {
    single(median, onePage(doubles(many)));
    ADD_FAILURE() << "no error";
  } catch (const MemoryLimitExceeded& e) {
    EXPECT_NE(std::string(e.what()).find("MEDIAN (p50)"), std::string::npos) << e.what();
  }
  setMemoryLimit(before);
}

// ---- STD_DEV, VARIANCE ----

TEST(VarianceAggregator, IsThePopulations) {
  // ES|QL: "The population standard deviation"; 2, 4, 4, 4, 5, 5, 7, 9: variance 4, std_dev 2.
  const Page page = onePage(doubles({2.0, 4.0, 4.0, std::nullopt, 4.0, 5.0, 5.0, 7.0, 9.0}));
  expectSame(valuesOf(single(specOf(AggregateFunction::kVariance, DataType::float64()), page)),
             {4.0});
  expectSame(valuesOf(single(specOf(AggregateFunction::kStdDev, DataType::float64()), page)),
             {2.0});
  expectSame(valuesOf(single(specOf(AggregateFunction::kVariance, DataType::float64()),
                             onePage(doubles({3.0})))),
             {0.0});
  expectSame(valuesOf(single(specOf(AggregateFunction::kStdDev, DataType::float64()),
                             onePage(doubles({})))),
             {std::nullopt});
  expectSame(valuesOf(single(specOf(AggregateFunction::kStdDev, DataType::float64()),
                             onePage(doubles({1.0, kNaN})))),
             {kNaN});
}

TEST(VarianceAggregator, StaysExactWhereASumOfSquaresCancels) {
  // 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16: variance 22.5; a naive sum of squares loses it all.
  const Page page = onePage(doubles({1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16}));
  const AggregateSpec variance = specOf(AggregateFunction::kVariance, DataType::float64());
  expectSame(valuesOf(single(variance, page)), {22.5});
  expectSame(valuesOf(split(variance, page, 1)), {22.5});
  expectSame(valuesOf(split(variance, page, 2)), {22.5});
}

// ---- WEIGHTED_AVG ----

TEST(WeightedAvgAggregator, IsSumOfProductsOverSumOfWeights) {
  // ES|QL rewrites WEIGHTED_AVG(x, w) to SUM(x * w) / SUM(w): a null x still weighs.
  std::vector<Block> blocks;
  blocks.push_back(doubles({1.0, 2.0, std::nullopt, 5.0}));
  blocks.push_back(doubles({3.0, 1.0, 4.0, std::nullopt}));
  const Page page(std::move(blocks), 4);
  AggregateSpec spec = specOf(AggregateFunction::kWeightedAvg, DataType::float64());
  spec.weightChannel = 1;
  spec.weightType = DataType::float64();
  expectSame(valuesOf(single(spec, page)), {5.0 / 8.0});
  for (size_t cut = 0; cut <= 4; ++cut) expectSame(valuesOf(split(spec, page, cut)), {5.0 / 8.0});
  // Weights summing to 0 divide by zero: null, as ES|QL's division; so is a group without a pair.
  std::vector<Block> zero;
  zero.push_back(doubles({1.0, 2.0, 3.0}));
  zero.push_back(doubles({1.0, -1.0, std::nullopt}));
  expectSame(valuesOf(single(spec, Page(std::move(zero), 3))), {std::nullopt});
  std::vector<Block> none;
  none.push_back(doubles({std::nullopt, 2.0}));
  none.push_back(doubles({1.0, std::nullopt}));
  expectSame(valuesOf(single(spec, Page(std::move(none), 2))), {std::nullopt});
  EXPECT_THROW(
      aggregateResultType(AggregateFunction::kWeightedAvg, DataType::list(DataType::int64())),
      InvalidArgument);
}

// ---- VALUES, TOP ----

Block int64s(const std::vector<std::optional<int64_t>>& values) {
  return blockOf(DataType::int64(), values);
}

TEST(ValuesAggregator, GivesTheDistinctValuesAscending) {
  // ES|QL: "Returns unique (deduplicated) values"; quarry's order is ascending.
  const AggregateSpec values = specOf(AggregateFunction::kValues, DataType::int64());
  EXPECT_EQ(aggregateResultType(AggregateFunction::kValues, DataType::int64()),
            DataType::list(DataType::int64()));
  const Page page = onePage(int64s({3, 1, std::nullopt, 3, -7, 1}));
  EXPECT_EQ(listAt(single(values, page), 0), "[-7, 1, 3]");
  for (size_t cut = 0; cut <= 6; ++cut)
    EXPECT_EQ(listAt(split(values, page, cut), 0), "[-7, 1, 3]") << cut;
  EXPECT_EQ(listAt(single(values, onePage(int64s({std::nullopt}))), 0), "null");
  EXPECT_EQ(listAt(single(values, onePage(int64s({}))), 0), "null");
  // NaN once and last; the two zeros are one value.
  const Block d = single(specOf(AggregateFunction::kValues, DataType::float64()),
                         onePage(doubles({kNaN, 2.0, kNaN, 0.0, -0.0, 1.0})));
  const std::string text = listAt(d, 0);
  EXPECT_EQ(text.substr(text.size() - 6), ", NaN]") << text;
  EXPECT_EQ(d.listElements().size(), 4u);
}

TEST(ValuesAggregator, StringsOfManyGroupsThroughCompactionAndMerge) {
  // 5,000 rows, 50 groups, 7 distinct strings each: every compaction and both partials agree.
  Block strings(DataType::string());
  std::vector<uint32_t> groups;
  std::mt19937 rng(7);
  for (int r = 0; r < 5000; ++r) {
    const uint32_t g = rng() % 50;
    groups.push_back(g);
    strings.appendBytes("v" + std::to_string((g + rng() % 7) % 100));
  }
  const AggregateSpec values = specOf(AggregateFunction::kValues, DataType::string());
  const Page page = onePage(std::move(strings));
  const Block whole = single(values, page, groups, 50);
  const Block halves = split(values, page, 2500, groups, 50);
  for (size_t g = 0; g < 50; ++g) {
    EXPECT_EQ(listAt(whole, g), listAt(halves, g)) << g;
    EXPECT_EQ(whole.listOffsets()[g + 1] - whole.listOffsets()[g], 7u) << listAt(whole, g);
  }
}

TEST(ValuesAggregator, TopKeepsRepeatsInTheAskedOrder) {
  // ES|QL: "Collects the top values for a field. Includes repeated values."
  AggregateSpec top = specOf(AggregateFunction::kTop, DataType::int64());
  top.limit = 2;
  top.descending = true;
  const Page page = onePage(int64s({3, 1, std::nullopt, 3, -7, 1}));
  EXPECT_EQ(listAt(single(top, page), 0), "[3, 3]");
  top.descending = false;
  top.limit = 3;
  EXPECT_EQ(listAt(single(top, page), 0), "[-7, 1, 1]");
  top.limit = 10;  // more than there are: all of them
  EXPECT_EQ(listAt(single(top, page), 0), "[-7, 1, 1, 3, 3]");
  for (size_t cut = 0; cut <= 6; ++cut)
    EXPECT_EQ(listAt(split(top, page, cut), 0), "[-7, 1, 1, 3, 3]");
  EXPECT_EQ(listAt(single(top, onePage(int64s({std::nullopt}))), 0), "null");
}

TEST(ValuesAggregator, TopOfManyRowsPerGroupEqualsASortedPrefix) {
  std::mt19937 rng(3);
  std::vector<std::optional<int64_t>> values;
  std::vector<uint32_t> groups;
  std::vector<std::vector<int64_t>> byGroup(4);
  for (int r = 0; r < 3000; ++r) {
    const auto v = static_cast<int64_t>(rng() % 500);
    const uint32_t g = static_cast<uint32_t>(r % 4);
    values.push_back(v);
    groups.push_back(g);
    byGroup[g].push_back(v);
  }
  AggregateSpec top = specOf(AggregateFunction::kTop, DataType::int64());
  top.limit = 5;
  top.descending = true;
  const Page page = onePage(int64s(values));
  const Block whole = single(top, page, groups, 4);
  const Block halves = split(top, page, 1234, groups, 4);
  for (size_t g = 0; g < 4; ++g) {
    std::sort(byGroup[g].rbegin(), byGroup[g].rend());
    std::string want = "[";
    for (size_t k = 0; k < 5; ++k) want += (k ? ", " : "") + std::to_string(byGroup[g][k]);
    want += "]";
    EXPECT_EQ(listAt(whole, g), want);
    EXPECT_EQ(listAt(halves, g), want);
  }
}

TEST(ValuesAggregator, CorruptIntermediateSetIsCorruptFile) {
  // Two values, the second's 9 bytes past the end; then a byte after the last value.
  const AggregateSpec values = specOf(AggregateFunction::kValues, DataType::string());
  EXPECT_THROW(
      mergeSet(values, std::string("\x02\x00\x00\x00\x01\x00\x00\x00x\x09\x00\x00\x00", 13)),
      CorruptFile);
  EXPECT_THROW(mergeSet(values, std::string("\x01\x00\x00\x00\x01\x00\x00\x00xy", 10)),
               CorruptFile);
  mergeSet(values, std::string("\x01\x00\x00\x00\x01\x00\x00\x00x", 9));  // well formed
}

// ---- Every new aggregate: INITIAL in two parts merged by FINAL equals SINGLE ----

TEST(StatisticalAggregators, InitialPartsMergedByFinalEqualSingleOverManyGroups) {
  std::mt19937 rng(11);
  std::vector<D> xs;
  std::vector<D> ws;
  std::vector<uint32_t> groups;
  constexpr size_t kGroups = 40;
  for (int r = 0; r < 4000; ++r) {
    const uint32_t g = static_cast<uint32_t>(rng() % kGroups);
    groups.push_back(g);
    // Group 5 has only nulls; small integers keep every sum exact in any order.
    xs.push_back(g == 5 || rng() % 6 == 0 ? D{} : D{static_cast<double>(rng() % 100) - 50});
    ws.push_back(rng() % 7 == 0 ? D{} : D{static_cast<double>(rng() % 9)});
  }
  std::vector<Block> blocks;
  blocks.push_back(doubles(xs));
  blocks.push_back(doubles(ws));
  const Page page(std::move(blocks), xs.size());
  for (AggregateFunction f :
       {AggregateFunction::kMedian, AggregateFunction::kPercentile,
        AggregateFunction::kMedianAbsoluteDeviation, AggregateFunction::kStdDev,
        AggregateFunction::kVariance, AggregateFunction::kWeightedAvg}) {
    AggregateSpec spec = specOf(f, DataType::float64());
    spec.quantile = 0.9;
    if (f == AggregateFunction::kWeightedAvg) {
      spec.weightChannel = 1;
      spec.weightType = DataType::float64();
    }
    const std::vector<D> whole = valuesOf(single(spec, page, groups, kGroups));
    EXPECT_FALSE(whole[5].has_value()) << aggregateName(f);
    for (size_t cut : {size_t{0}, size_t{1}, size_t{1999}, xs.size()}) {
      const std::vector<D> merged = valuesOf(split(spec, page, cut, groups, kGroups));
      ASSERT_EQ(merged.size(), whole.size());
      for (size_t g = 0; g < kGroups; ++g) {
        ASSERT_EQ(merged[g].has_value(), whole[g].has_value())
            << aggregateName(f) << " group " << g;
        if (whole[g]) {
          EXPECT_NEAR(*merged[g], *whole[g], 1e-12 * std::fabs(*whole[g])) << aggregateName(f);
        }
      }
    }
  }
}

}  // namespace
}  // namespace quarry::engine
