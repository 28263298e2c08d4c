// Issue 26, item 7: "3M rows: ... 24 s before the first line, `| head -1` still
// reads everything". executeQueryWhile stops pulling once its sink says so: a
// fake exchange of 1,000 pages counts the pages asked of it.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "quarry/engine/exec/local_source_exec.h"
#include "quarry/engine/query_engine.h"
#include "tests/support/build_paths.h"

namespace quarry::engine {
namespace {

std::string sample() {
  return std::string(QUARRY_SOURCE_DIR) + "/data/sample/trips.parquet";
}

TEST(ExecuteQueryWhile, StopsPullingPagesOnceTheSinkSaysSo) {
  QueryOptions options;
  const PreparedQuery prepared = prepareQuery("FROM \"" + sample() + "\" | KEEP trip_id", options);
  ASSERT_NE(findExchange(*prepared.plan), nullptr);
  ASSERT_EQ(prepared.plan->schema.size(), 1u);
  ASSERT_TRUE(prepared.plan->schema[0].type.kind == TypeKind::kInt32 ||
              prepared.plan->schema[0].type.kind == TypeKind::kInt64);
  auto pulled = std::make_shared<size_t>(0);
  ExchangeBuilder builder = [pulled](const PlanNode& exchange) -> OperatorPtr {
    const Schema schema = exchange.schema;
    LocalSupplier supplier = [pulled, schema]() -> std::optional<Page> {
      if (*pulled >= 1000) return std::nullopt;
      ++*pulled;
      std::vector<Block> blocks;
      for (const Field& field : schema) {
        if (field.type.kind == TypeKind::kInt32) {
          blocks.push_back(Block::fromValues<int32_t>(field.type, {static_cast<int32_t>(*pulled)}));
        } else {
          blocks.push_back(Block::fromValues<int64_t>(field.type, {static_cast<int64_t>(*pulled)}));
        }
      }
      return Page(std::move(blocks), 1);
    };
    return std::make_unique<LocalSourceExec>(exchange.schema, supplier, "fake pages");
  };
  size_t seen = 0;
  const QueryProfile profile = executeQueryWhile(
      prepared,
      [&](const Page&) {
        ++seen;
        return seen < 3;  // the third page is the last one wanted
      },
      &builder);
  EXPECT_EQ(seen, 3u);
  EXPECT_EQ(*pulled, 3u);  // not one page more than the sink took
  EXPECT_EQ(profile.rowsReturned, 3u);

  // executeQuery takes every page.
  *pulled = 0;
  size_t all = 0;
  executeQuery(
      prepared, [&](const Page&) { ++all; }, &builder);
  EXPECT_EQ(all, 1000u);
}

}  // namespace
}  // namespace quarry::engine
