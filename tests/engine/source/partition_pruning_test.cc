// Files pruned by their paths before any is opened (partition_pruning.h): the
// decisions of each kind of conjunct, evaluated by the engine's evaluator.
#include "quarry/engine/source/partition_pruning.h"

#include <gtest/gtest.h>

#include "quarry/engine/parse/query_parser.h"

namespace quarry::engine {
namespace {

std::vector<std::string> kUris = {
    "d/year=2023/month=06/a.parquet", "d/year=2024/month=06/b.parquet",
    "d/year=2024/month=12/c.parquet", "d/year=__HIVE_DEFAULT_PARTITION__/month=06/d.parquet"};

std::vector<bool> keep(const std::string& where,
                       std::optional<std::vector<uint64_t>> sizes = std::nullopt) {
  std::vector<Expr> conjuncts;
  collectConjuncts(parseExpression(where), conjuncts);
  const HivePartitions partitions = readHivePartitions(kUris, std::nullopt, {});
  bool asked = false;
  std::vector<bool> out = keepByPath(conjuncts, kUris, partitions, [&]() {
    asked = true;
    return sizes;
  });
  EXPECT_EQ(asked, where.find("_file.size") != std::string::npos) << where;
  return out;
}

TEST(PartitionPruning, EqualitiesOnPartitionColumns) {
  EXPECT_EQ(keep("year == 2024 AND month == \"06\""),
            (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(keep("year >= 2024"), (std::vector<bool>{false, true, true, false}));  // null: pruned
  EXPECT_EQ(keep("year IS NULL"), (std::vector<bool>{false, false, false, true}));
  EXPECT_EQ(keep("year IN (2023, 2025) OR month == \"12\""),
            (std::vector<bool>{true, false, true, false}));
}

TEST(PartitionPruning, ConjunctsNamingFileColumnsDecideNothing) {
  EXPECT_EQ(keep("v > 1"), (std::vector<bool>{true, true, true, true}));
  EXPECT_EQ(keep("v > 1 AND year == 2023"), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(keep("v > 1 OR year == 2023"),
            (std::vector<bool>{true, true, true, true}));  // one conjunct, a file column
}

TEST(PartitionPruning, FilePathAndSize) {
  EXPECT_EQ(keep("_file.path LIKE \"*month=12*\""), (std::vector<bool>{false, false, true, false}));
  EXPECT_EQ(keep("_file.size > 100", std::vector<uint64_t>{50, 150, 100, 500}),
            (std::vector<bool>{false, true, false, true}));
  // Sizes unknown (a remote file): the conjunct decides nothing.
  EXPECT_EQ(keep("_file.size > 100"), (std::vector<bool>{true, true, true, true}));
}

TEST(PartitionPruning, ErrorsAndNonBooleansDecideNothing) {
  EXPECT_EQ(keep("year + 9223372036854775807 > 0"),
            (std::vector<bool>{true, true, true, true}));  // overflows
  EXPECT_EQ(keep("month == 6"),
            (std::vector<bool>{true, true, true, true}));  // a type error: the planner's to report
}

// Issue 29: "equalities on leading partition keys become a longer
// ListObjectsV2 prefix (`year=2024/` when `WHERE year == 2024`)", only where
// the value's form in a path is not in doubt.
std::string narrowed(const std::string& pattern, const std::string& where,
                     std::vector<HiveType> hiveTypes = {}) {
  std::vector<Expr> conjuncts;
  collectConjuncts(parseExpression(where), conjuncts);
  return narrowByPartitionEqualities(pattern, conjuncts, hiveTypes);
}

constexpr const char* kSales = "s3://b/sales/year=*/month=*/*.parquet";

TEST(ListingNarrowing, EqualitiesOnTheLeadingKeysInOrder) {
  EXPECT_EQ(narrowed(kSales, "year == 2024"), "s3://b/sales/year=2024/month=*/*.parquet");
  EXPECT_EQ(narrowed(kSales, "month == \"06\" AND 2024 == year AND v > 1"),
            "s3://b/sales/year=2024/month=06/*.parquet");
  EXPECT_EQ(narrowed(kSales, "year IN (-3) AND month IN (\"a-b_c.d\")"),
            "s3://b/sales/year=-3/month=a-b_c.d/*.parquet");
  // The first key without an equality stops it; other conjuncts say nothing.
  EXPECT_EQ(narrowed(kSales, "month == \"06\""), kSales);
  EXPECT_EQ(narrowed(kSales, "year >= 2024 OR year == 2024"), kSales);
  EXPECT_EQ(narrowed(kSales, "year IN (2023, 2024)"), kSales);
  EXPECT_EQ(narrowed(kSales, "year NOT IN (2024)"), kSales);
}

TEST(ListingNarrowing, OnlyValuesWhoseFolderNameIsCertain) {
  // Strings that read as another type, need escapes, or are null; dates,
  // doubles, booleans; a key hive_types types (06 would read as 6 there).
  for (const char* where : {"year == \"2024\"", "year == \"2024-01-05\"", "year == \"S\u00e3o Paulo\"",
                            "year == \"a/b\"", "year == \"a%20b\"", "year == \"NULL\"",
                            "year == \"__HIVE_DEFAULT_PARTITION__\"", "year == \"\"",
                            "year == DATE '2024-01-05'", "year == 2024.0", "year == true",
                            "year == 9223372036854775808"}) {
    EXPECT_EQ(narrowed(kSales, where), kSales) << where;
  }
  EXPECT_EQ(narrowed(kSales, "year == -9223372036854775808"),
            "s3://b/sales/year=-9223372036854775808/month=*/*.parquet");
  EXPECT_EQ(narrowed(kSales, "year == -0"), "s3://b/sales/year=0/month=*/*.parquet");
  EXPECT_EQ(narrowed(kSales, "year == 2024", {HiveType{"year", "integer", {}}}), kSales);
}

TEST(ListingNarrowing, OnlyKeyFoldersRightAfterTheLiteralPart) {
  // Not S3, a wildcard before the keys, `**`, a key folder that is not `key=*`,
  // the file name, a key already met on the literal part.
  for (const char* pattern :
       {"sales/year=*/month=*/*.parquet", "https://h/sales/year=*/x.parquet",
        "s3://b/sal*/year=*/x.parquet", "s3://b/sales/**/*.parquet", "s3://b/sales/year=2*/x.parquet",
        "s3://b/sales/year=*", "s3://b/year=2023/year=*/x.parquet", "s3://b/sales/x.parquet"}) {
    EXPECT_EQ(narrowed(pattern, "year == 2024"), pattern) << pattern;
  }
  EXPECT_EQ(narrowed("s3://b/year=*/*.parquet", "year == 2024"), "s3://b/year=2024/*.parquet");
}

}  // namespace
}  // namespace quarry::engine
