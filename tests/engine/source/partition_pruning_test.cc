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

}  // namespace
}  // namespace quarry::engine
