#include "quarry/formats/parquet/statistics_pruning.h"

#include <gtest/gtest.h>

#include <limits>

#include "tests/formats/parquet/pruning_fixture.h"

// Row-group pruning from statistics, on files written by the test fixture writer
// with exactly the metadata each rule is about. Every case checks the decision per
// row group (N: no row matches, S: some may, E: every row does) and that a read
// with pruning returns the rows a read with metadataPruning = false returns.
namespace quarry::parquet {
namespace {

using namespace quarry::parquet::testing;
using P = FilterPredicate;
using Kind = LogicalType::Kind;

/// Three row groups of an optional INT32: {1, 2, 3}, {4, 5, 6}, {7, null, 9}.
std::vector<uint8_t> int32File() {
  return fileOf(leafElement("x", PhysicalType::INT32),
                {{{i32(1), i32(2), i32(3)}, boundsOf(i32(1), i32(3), 0)},
                 {{i32(4), i32(5), i32(6)}, boundsOf(i32(4), i32(6), 0)},
                 {{i32(7), std::nullopt, i32(9)}, boundsOf(i32(7), i32(9), 1)}});
}

TEST(StatisticsPruningTest, EveryComparisonDecidesFromBoundsAndNullCounts) {
  const auto file = int32File();
  expectPruning(file, P::eq("x", 5), "NSN");
  expectPruning(file, P::notEq("x", 5), "ESS");
  expectPruning(file, P::lt("x", 4), "ENN");
  expectPruning(file, P::ltEq("x", 6), "EEN");
  expectPruning(file, P::gt("x", 6), "NNS");
  expectPruning(file, P::gtEq("x", 1), "EES");
  expectPruning(file, P::in("x", 2, 8), "SNS");
  expectPruning(file, P::in("x", 0, 10), "NNN");
  expectPruning(file, P::isNull("x"), "NNS");
  expectPruning(file, P::isNotNull("x"), "EES");
}

// "All predicates, including those wrapped in not, are pushed down for row-group
// and page skipping." Comparisons never match a null row, not over them neither.
TEST(StatisticsPruningTest, NotAndOrCombineInThreeValuedLogic) {
  const auto file = int32File();
  expectPruning(file, P::not_(P::eq("x", 5)), "ESS");
  expectPruning(file, P::not_(P::lt("x", 4)), "NES");
  // The third group's values all fail eq(x, 8) but its null row is unknown, so
  // not(eq) does not hold for every row.
  expectPruning(file, P::not_(P::eq("x", 8)), "EES");
  expectPruning(file, P::not_(P::isNull("x")), "EES");
  expectPruning(file, P::and_(P::gt("x", 2), P::lt("x", 5)), "SSN");
  expectPruning(file, P::or_(P::lt("x", 2), P::gt("x", 8)), "SNS");
  expectPruning(file, P::and_(P::gtEq("x", 4), P::isNotNull("x")), "NES");
  expectPruning(file, P::or_(P::eq("x", 5), P::isNull("x")), "NSS");
  expectPruning(file, P::not_(P::and_(P::gtEq("x", 1), P::ltEq("x", 3))), "NES");
  expectPruning(file, P::not_(P::or_(P::eq("x", 1), P::eq("x", 9))), "SES");
}

TEST(StatisticsPruningTest, NullCountsDecideNullTestsAndAbsentOnesDecideNothing) {
  const auto file = fileOf(leafElement("x", PhysicalType::INT32),
                           {{{std::nullopt, std::nullopt}, boundsOf(std::nullopt, std::nullopt, 2)},
                            {{i32(1), std::nullopt}, boundsOf(i32(1), i32(1), std::nullopt)},
                            {{i32(1), i32(1)}, Statistics{}},
                            {{i32(1), i32(2)}, std::nullopt}});
  expectPruning(file, P::isNull("x"), "ESSS");
  expectPruning(file, P::isNotNull("x"), "NSSS");
  // A comparison never matches a null row: a group of nulls only holds no match.
  expectPruning(file, P::notEq("x", 7), "NSSS");
  expectPruning(file, P::not_(P::eq("x", 7)), "NSSS");
  expectPruning(file, P::eq("x", 1), "NSSS");
}

TEST(StatisticsPruningTest, ARequiredColumnHasNoNullWhateverItsStatisticsRecord) {
  // Some writers (chDB) record no null count: a required column still holds none,
  // so is-null matches no row and a comparison true on the bounds matches every row.
  const auto file = fileOf(required(leafElement("x", PhysicalType::INT32)),
                           {{{i32(1), i32(2)}, boundsOf(i32(1), i32(2), std::nullopt)},
                            {{i32(3), i32(4)}, std::nullopt}});
  expectPruning(file, P::isNull("x"), "NN");
  expectPruning(file, P::isNotNull("x"), "EE");
  expectPruning(file, P::gtEq("x", 1), "ES");
}

TEST(StatisticsPruningTest, UnsignedColumnsCompareBoundsByMagnitude) {
  const auto u32 = withLogical(leafElement("u", PhysicalType::INT32), intType(32, false));
  const auto file = fileOf(u32, {{{i32(1), i32(-294'967'296)}, boundsOf(i32(1), i32(-294'967'296), 0)},
                                 {{i32(7), i32(9)}, boundsOf(i32(7), i32(9), 0)}});
  expectPruning(file, P::gt("u", 10), "SN");
  expectPruning(file, P::lt("u", -1), "EE");  // -1 is 4294967295, above every value
  expectPruning(file, P::eq("u", -294'967'296), "SN");
  expectPruning(file, P::gtEq("u", 1), "EE");
}

TEST(StatisticsPruningTest, ByteStringBoundsCompareAsUnsignedBytes) {
  const auto s = withLogical(leafElement("s", PhysicalType::BYTE_ARRAY), logical(Kind::STRING));
  const auto file = fileOf(s, {{{"apple", "banana"}, boundsOf("apple", "banana", 0)},
                               {{"caf\xC3\xA9", "zebra"}, boundsOf("caf\xC3\xA9", "zebra", 0)},
                               // Truncated bounds still bracket: "c" <= "cherry" < "d".
                               {{"cherry"}, boundsOf("c", "d", 0)}});
  expectPruning(file, P::eq("s", "cherry"), "NSS");
  expectPruning(file, P::gt("s", "cafe"), "NES");  // 0xC3 sorts above 'e'
  expectPruning(file, P::lt("s", "b"), "SNN");
  expectPruning(file, P::eq("s", "apple"), "SNN");
}

TEST(StatisticsPruningTest, DecimalBoundsCompareAsNumbersAndByteLiteralsIgnoreThem) {
  const auto dec = withLogical(leafElement("dec", PhysicalType::FIXED_LEN_BYTE_ARRAY, 2), decimalType(4, 2));
  // -1.25 is FF 83, 2.00 is 00 C8: as unsigned bytes the order would be reversed.
  const auto file = fileOf(dec, {{{bytes({0xFF, 0x83}), bytes({0x00, 0xC8})}, boundsOf(bytes({0xFF, 0x83}), bytes({0x00, 0xC8}), 0)},
                                 {{bytes({0x01, 0x2C})}, boundsOf(bytes({0x01, 0x2C}), bytes({0x01, 0x2C}), 0)}});
  expectPruning(file, P::gt("dec", decimal(250, 2)), "NE");
  expectPruning(file, P::lt("dec", decimal(0, 0)), "SN");
  expectPruning(file, P::eq("dec", decimal(300, 2)), "NE");
  // "A DECIMAL ... order[s] by the value [its] bytes encode": the bounds say nothing
  // about a byte[] literal's order, so they are not compared against it.
  expectPruning(file, P::eq("dec", Bytes{0x01, 0x2C}), "SS");
}

TEST(StatisticsPruningTest, PastTheCarrierRangeIsDecidedFromTheNullCountAlone) {
  // "A comparison whose literal lies past the range the column's carrier holds is
  // decided from the unit's null count alone."
  const auto ts = withLogical(leafElement("ts", PhysicalType::INT64), timeType(Kind::TIMESTAMP, TimeUnit::MILLIS, true));
  const auto i64 = [](int64_t v) { return le<int64_t>(v); };
  const auto file = fileOf(ts, {{{i64(1), i64(2)}, boundsOf(i64(1), i64(2), 0)},
                                {{i64(1), std::nullopt}, boundsOf(i64(1), i64(1), 1)},
                                {{std::nullopt}, boundsOf(std::nullopt, std::nullopt, 1)},
                                {{i64(5)}, std::nullopt}});
  const Instant far{std::numeric_limits<int64_t>::max() / 2, 0};  // past INT64 milliseconds
  expectPruning(file, P::lt("ts", far), "ESNS");
  expectPruning(file, P::gt("ts", far), "NNNN");
  expectPruning(file, P::not_(P::gt("ts", far)), "ESNS");
}

TEST(StatisticsPruningTest, IntersectsKeepsTheRowGroupsWhoseBoundingBoxOverlaps) {
  const auto geo = withLogical(leafElement("g", PhysicalType::BYTE_ARRAY), logical(Kind::GEOMETRY));
  auto boxOf = [](double low, double high) {
    GeospatialStatistics s;
    BoundingBox& b = s.bbox.emplace();
    b.xmin = b.ymin = low;
    b.xmax = b.ymax = high;
    return s;
  };
  const GeospatialStatistics near = boxOf(0, 10);
  const GeospatialStatistics far = boxOf(100, 110);
  const auto file = fileOf(geo, {{{"wkb1"}, std::nullopt, near}, {{"wkb2"}, std::nullopt, far}, {{"wkb3"}, std::nullopt}});
  expectPruning(file, P::intersects("g", 5, 5, 20, 20), "ENE");
  expectPruning(file, P::and_(P::intersects("g", 5, 5, 20, 20), P::isNotNull("g")), "SNS");
}

}  // namespace
}  // namespace quarry::parquet
