#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "quarry/formats/parquet/column_bounds.h"
#include "tests/formats/parquet/pruning_fixture.h"

// query-controls.txt, "When statistics are ignored": "A pair a reader cannot
// compare against is ignored rather than trusted, so the row group or page is kept
// and its rows are read and filtered one by one. Results are the same either way;
// only the I/O saved is lost." Each case below records bounds that, trusted, would
// prune a row group holding a match; the null count still decides null tests.
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;
using Kind = LogicalType::Kind;

/// One row group holding x = `value`, whose statistics claim [min, max] without nulls.
std::vector<uint8_t> claiming(const SchemaElement& x, const std::string& value, Statistics stats,
                              std::optional<std::vector<int16_t>> orders = std::nullopt) {
  return fileOf(x, {{{value}, std::move(stats)}}, std::move(orders));
}

TEST(IgnoredStatisticsTest, MinimumAboveMaximum) {
  // "min and max are the wrong way round in the column's order, so the pair brackets nothing"
  const auto file = claiming(leafElement("x", PhysicalType::INT32), i32(5), boundsOf(i32(9), i32(1), 0));
  expectPruning(file, P::eq("x", 5), "S");
  expectPruning(file, P::gt("x", 10), "S");
  expectPruning(file, P::isNull("x"), "N");
  expectPruning(file, P::isNotNull("x"), "E");
}

TEST(IgnoredStatisticsTest, DeprecatedMinAndMaxFields) {
  // "Superseded by min_value / max_value; the deprecated pair is ordered by signed
  // comparison whatever the column's type is"
  Statistics deprecated;
  deprecated.min = i32(1);
  deprecated.max = i32(2);
  deprecated.null_count = 0;
  const auto file = claiming(leafElement("x", PhysicalType::INT32), i32(100), deprecated);
  expectPruning(file, P::eq("x", 100), "S");
  expectPruning(file, P::isNotNull("x"), "E");
  // An unsigned column, the case the rule is for: the signed pair (-294967296, 1)
  // brackets 4000000000 only in the wrong order.
  Statistics signedPair;
  signedPair.min = i32(-294'967'296);
  signedPair.max = i32(1);
  const auto u32 = withLogical(leafElement("u", PhysicalType::INT32), intType(32, false));
  const auto unsignedFile = fileOf(u32, {{{i32(-294'967'296), i32(1)}, signedPair}});
  expectPruning(unsignedFile, P::gt("u", 2), "S");
}

TEST(IgnoredStatisticsTest, AnnotationsWithoutAnOrder) {
  // "An INTERVAL, GEOMETRY, GEOGRAPHY, VARIANT, LIST or MAP column, for which the
  // Parquet spec defines no sort order, or a NULL column"
  SchemaElement interval = leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, 12);
  interval.converted_type = ConvertedType::INTERVAL;
  const std::string oneMonth = le<uint32_t>(1) + le<uint32_t>(0) + le<uint32_t>(0);
  const std::string zero(12, '\0');
  expectPruning(claiming(interval, oneMonth, boundsOf(zero, zero, 0)), P::eq("x", Interval{1, 0, 0}), "S");

  for (Kind geo : {Kind::GEOMETRY, Kind::GEOGRAPHY}) {
    const auto g = withLogical(leafElement("x", PhysicalType::BYTE_ARRAY), logical(geo));
    expectPruning(claiming(g, "\x01\x02", boundsOf("\x05", "\x06", 0)), P::eq("x", Bytes{0x01, 0x02}), "S");
  }
  const auto nullColumn = withLogical(leafElement("x", PhysicalType::INT32), logical(Kind::UNKNOWN));
  expectPruning(claiming(nullColumn, i32(5), boundsOf(i32(1), i32(2), 0)), P::eq("x", 5), "S");

  // VARIANT, LIST and MAP annotate groups, whose leaves take no comparison; a leaf
  // below a VARIANT is refused bounds all the same.
  std::vector<SchemaElement> elements(3);
  elements[0].name = "schema";
  elements[0].num_children = 1;
  elements[1].name = "v";
  elements[1].num_children = 1;
  elements[1].repetition_type = FieldRepetitionType::OPTIONAL;
  elements[1].logicalType = logical(Kind::VARIANT);
  elements[2] = required(leafElement("metadata", PhysicalType::BYTE_ARRAY));
  const FileSchema schema = FileSchema::build(elements);
  EXPECT_FALSE(boundsOrderKnown(schema.leaf(0), ColumnOrder::TYPE_ORDER));
}

TEST(IgnoredStatisticsTest, Int96) {
  // "The order the Parquet spec gives INT96 bounds compares the day before the
  // nanoseconds of the day, which does not follow the instant when the nanoseconds
  // run past one day": 2 days and 0 ns of day 2440588 is the instant day 2440590.
  const auto x = leafElement("x", PhysicalType::INT96);
  const int64_t twoDays = int64_t{2} * 86'400 * 1'000'000'000;
  const auto value = int96(twoDays, 2'440'588);
  const auto file = claiming(x, value, boundsOf(int96(0, 2'440'589), int96(0, 2'440'589), 0));
  expectPruning(file, P::gt("x", Instant{86'400, 0}), "S");
  expectPruning(file, P::eq("x", Instant{2 * 86'400, 0}), "S");
  Bytes stored(value.begin(), value.end());
  expectPruning(file, P::eq("x", stored), "S");
  expectPruning(file, P::isNull("x"), "N");
  // Declaring INT96_TIMESTAMP_ORDER changes nothing.
  expectPruning(claiming(x, value, boundsOf(int96(0, 2'440'589), int96(0, 2'440'589), 0), std::vector<int16_t>{1, 3}),
                P::gt("x", Instant{86'400, 0}), "S");
}

TEST(IgnoredStatisticsTest, TimestampOverTwelveBytesFollowsInt96) {
  const auto x = withLogical(leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, 12),
                             timeType(Kind::TIMESTAMP, TimeUnit::NANOS, true));
  const int64_t twoDays = int64_t{2} * 86'400 * 1'000'000'000;
  const auto file = claiming(x, int96(twoDays, 2'440'588), boundsOf(int96(0, 2'440'589), int96(0, 2'440'589), 0));
  expectPruning(file, P::gt("x", Instant{86'400, 0}), "S");
}

TEST(IgnoredStatisticsTest, DroppedAnnotations) {
  // "An annotation the column's physical type cannot carry, or one this release does
  // not recognize, so the column is read as its physical type while its bounds were
  // recorded in the annotation's order"
  const auto stringOnInt = withLogical(leafElement("x", PhysicalType::INT32), logical(Kind::STRING));
  expectPruning(claiming(stringOnInt, i32(5), boundsOf(i32(1), i32(2), 0)), P::eq("x", 5), "S");
  LogicalType future;
  future.kind = Kind::UNKNOWN_MEMBER;
  future.unknownFieldId = 40;
  const auto unknown = withLogical(leafElement("x", PhysicalType::INT32), future);
  expectPruning(claiming(unknown, i32(5), boundsOf(i32(1), i32(2), 0)), P::eq("x", 5), "S");
  expectPruning(claiming(unknown, i32(5), boundsOf(i32(1), i32(2), 0)), P::isNull("x"), "N");
}

TEST(IgnoredStatisticsTest, UnknownOrAbsentColumnOrder) {
  // "The Parquet spec directs a reader to ignore min / max under a column order it
  // does not support; this applies to every column type"
  const auto x = leafElement("x", PhysicalType::INT32);
  expectPruning(claiming(x, i32(5), boundsOf(i32(1), i32(2), 0), std::vector<int16_t>{1, 9}), P::eq("x", 5), "S");
  expectPruning(claiming(x, i32(5), boundsOf(i32(1), i32(2), 0), std::vector<int16_t>{1, 9}), P::isNotNull("x"), "E");
  // Without column_orders, parquet.thrift leaves min_value / max_value undefined.
  expectPruning(claiming(x, i32(5), boundsOf(i32(1), i32(2), 0), std::vector<int16_t>{}), P::eq("x", 5), "S");
  // IEEE_754_TOTAL_ORDER is for floating-point columns only.
  expectPruning(claiming(x, i32(5), boundsOf(i32(1), i32(2), 0), std::vector<int16_t>{1, 2}), P::eq("x", 5), "S");
  // The control: TYPE_ORDER trusts the (lying) bounds and skips the row.
  const Read lying = readIds(claiming(x, i32(5), boundsOf(i32(1), i32(2), 0)), P::eq("x", 5), true);
  EXPECT_EQ(lying.ids, Ids{});
  EXPECT_EQ(lying.metrics.rowGroupsPrunedByStatistics, 1);
}

/// Five row groups of a DOUBLE: a {1, 2} nan_count 0; b {1, NaN} nan_count absent;
/// c {1, NaN} nan_count 1; d {NaN, null} with no bounds; e {NaN, 5} with a NaN maximum.
std::vector<uint8_t> nanFile(int16_t order = ParquetFixtureWriter::kTypeOrder) {
  const double nan = std::nan("");
  return fileOf(leafElement("x", PhysicalType::DOUBLE),
                {{{f64(1), f64(2)}, boundsOf(f64(1), f64(2), 0, 0)},
                 {{f64(1), f64(nan)}, boundsOf(f64(1), f64(1), 0)},
                 {{f64(1), f64(nan)}, boundsOf(f64(1), f64(1), 0, 1)},
                 {{f64(nan), std::nullopt}, boundsOf(std::nullopt, std::nullopt, 1, 1)},
                 {{f64(nan), f64(5)}, boundsOf(f64(5), f64(nan), 0, 1)}},
                std::vector<int16_t>{1, order});
}

TEST(IgnoredStatisticsTest, PredicatesANaNValueFailsPruneFromTheBoundsAlone) {
  // "eq, lt and ltEq against a number, and gt against NaN, prune from the bounds alone."
  // "A row group or page whose nan_count and null count together equal its row count
  // holds only NaN and null values; every predicate a NaN value fails skips it, with
  // or without bounds." (d) And a NaN bound is ignored (e).
  const auto file = nanFile();
  const double nan = std::nan("");
  expectPruning(file, P::eq("x", 5.0), "NNNNS");
  expectPruning(file, P::lt("x", 5.0), "ESSNS");
  expectPruning(file, P::ltEq("x", 2.0), "ESSNS");
  expectPruning(file, P::gt("x", nan), "NNNNS");
  expectPruning(file, P::lt("x", nan), "ESSNS");
  expectPruning(file, P::in("x", 7.0, 8.0), "NNNNS");
}

TEST(IgnoredStatisticsTest, PredicatesANaNValueSatisfiesNeedANanCountOfZero) {
  // "A predicate that a NaN value satisfies — notEq, gt or gtEq against a number, or
  // eq, ltEq or gtEq against NaN — prunes a FLOAT, DOUBLE or FLOAT16 row group or page
  // from its bounds only where the unit records a nan_count of zero."
  // "A row group proves every row matches a floating-point predicate from its bounds
  // where it records no nulls and either records a nan_count of zero or the predicate
  // is one a NaN value satisfies."
  const auto file = nanFile();
  const double nan = std::nan("");
  expectPruning(file, P::gt("x", 5.0), "NSSSS");
  expectPruning(file, P::gtEq("x", 1.0), "EEESS");
  expectPruning(file, P::notEq("x", 7.0), "EEESS");
  expectPruning(file, P::eq("x", nan), "NSSSS");
  expectPruning(file, P::gtEq("x", nan), "NSSSS");
  expectPruning(file, P::ltEq("x", nan), "EEESS");
  expectPruning(file, P::in("x", 7.0, nan), "NSSSS");
  expectPruning(file, P::isNull("x"), "NNNSN");
  // The same under IEEE_754_TOTAL_ORDER, where a NaN bound marks NaN values only.
  expectPruning(nanFile(ParquetFixtureWriter::kIeee754TotalOrder), P::gt("x", 5.0), "NSSSS");
  expectPruning(nanFile(ParquetFixtureWriter::kIeee754TotalOrder), P::lt("x", 5.0), "ESSNS");
}

TEST(IgnoredStatisticsTest, AUnitOfNaNValuesOnlyMatchesWhatNaNSatisfies) {
  const double nan = std::nan("");
  const auto file = fileOf(leafElement("x", PhysicalType::DOUBLE),
                           {{{f64(nan), f64(nan)}, boundsOf(std::nullopt, std::nullopt, 0, 2)}});
  expectPruning(file, P::gt("x", 5.0), "E");
  expectPruning(file, P::lt("x", 5.0), "N");
  expectPruning(file, P::eq("x", nan), "E");
}

TEST(IgnoredStatisticsTest, AZeroBoundMayHideTheOtherZero) {
  // parquet.thrift: "If the min is +0, the row group may contain -0 values as well."
  // quarry orders -0.0 below +0.0, so trusting a +0 minimum would skip a -0 row.
  const auto file = fileOf(leafElement("x", PhysicalType::DOUBLE),
                           {{{f64(-0.0), f64(0.0)}, boundsOf(f64(0.0), f64(0.0), 0, 0)},
                            {{f64(-0.0)}, boundsOf(f64(-0.0), f64(-0.0), 0, 0)}});
  expectPruning(file, P::eq("x", -0.0), "SS");
  expectPruning(file, P::eq("x", 0.0), "SS");
  expectPruning(file, P::lt("x", 0.0), "SS");
  expectPruning(file, P::gt("x", 0.0), "NN");  // -0.0 is not above +0.0
}

TEST(IgnoredStatisticsTest, Float16BoundsCompareAsNumbers) {
  const auto x = withLogical(leafElement("x", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2), logical(Kind::FLOAT16));
  const std::string one = bytes({0x00, 0x3C});
  const std::string two = bytes({0x00, 0x40});
  const std::string nan = bytes({0x00, 0x7E});
  const auto file = fileOf(x, {{{one, two}, boundsOf(one, two, 0, 0)}, {{one, nan}, boundsOf(one, nan, 0, 1)}});
  expectPruning(file, P::gt("x", 2.5f), "NS");
  expectPruning(file, P::lt("x", 3.0f), "ES");
  expectPruning(file, P::eq("x", Bytes{0x00, 0x3C}), "SS");  // a byte[] does not order as the value
}

}  // namespace
}  // namespace quarry::parquet
