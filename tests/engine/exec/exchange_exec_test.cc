#include "quarry/engine/exec/exchange_exec.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "page_builder.h"
#include "quarry/engine/exec/aggregate_exec.h"
#include "quarry/engine/exec/limit_exec.h"
#include "quarry/engine/exec/local_source_exec.h"
#include "quarry/engine/exec/project_exec.h"

namespace quarry::engine {
namespace {

using testing::drain;
using testing::i64;
using testing::pageOfRows;
using testing::Row;
using testing::sorted;

const Schema kSchema{{"n", DataType::int64()}};

/// A chain producing `pages` pages of 10 rows numbered chain * 1'000'000 + k (pages < 0: endless),
/// under a ProjectExec so its stats have two entries; it throws `error` before page `failAt`.
PipelineFactory chain(int64_t chainIndex, int64_t pages, int64_t failAt = -1,
                      std::string error = {}, std::chrono::milliseconds delay = {}) {
  return [=]() -> OperatorPtr {
    auto made = std::make_shared<int64_t>(0);
    auto source = std::make_unique<LocalSourceExec>(
        kSchema,
        [=]() -> std::optional<Page> {
          if (*made == failAt) {
            if (delay.count() > 0) std::this_thread::sleep_for(delay);
            throw std::runtime_error(error);
          }
          if (pages >= 0 && *made >= pages) return std::nullopt;
          std::vector<Row> rows;
          for (int64_t i = 0; i < 10; ++i)
            rows.push_back({i64(chainIndex * 1'000'000 + *made * 10 + i)});
          ++*made;
          return pageOfRows(kSchema, rows);
        },
        "chain " + std::to_string(chainIndex));
    return std::make_unique<ProjectExec>(std::move(source), std::vector<int>{0},
                                         std::vector<std::string>{"n"});
  };
}

TEST(ExchangeExec, ReturnsEveryChainsRowsWhateverTheOrder) {
  std::vector<PipelineFactory> pipelines;
  std::vector<Row> expected;
  for (int64_t c = 0; c < 8; ++c) {
    pipelines.push_back(chain(c, c * 3));
    for (int64_t k = 0; k < c * 30; ++k) expected.push_back({i64(c * 1'000'000 + k)});
  }
  for (int threads : {1, 2, 4}) {
    ExchangeExec exchange(kSchema, pipelines, threads, 2);
    EXPECT_EQ(sorted(drain(exchange)), sorted(expected)) << threads << " threads";
    EXPECT_FALSE(exchange.next().has_value());
  }
}

TEST(ExchangeExec, NoPipelinesIsAnEmptyResult) {
  ExchangeExec exchange(kSchema, {}, 2);
  EXPECT_FALSE(exchange.next().has_value());
}

TEST(ExchangeExec, SumsTheChainsStatsPositionByPosition) {
  ExchangeExec exchange(kSchema, {chain(0, 3), chain(1, 4), chain(2, 0)}, 2);
  EXPECT_EQ(drain(exchange).size(), 70u);
  std::vector<OperatorStats> stats;
  exchange.collectStats(stats);
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_EQ(stats[0].name, "ExchangeExec");
  EXPECT_EQ(stats[0].rowsOut, 70u);
  EXPECT_EQ(stats[0].pagesOut, 7u);
  EXPECT_EQ(stats[1].name, "ProjectExec");
  EXPECT_EQ(stats[1].rowsOut, 70u);
  EXPECT_EQ(stats[2].name, "LocalSourceExec");
  EXPECT_EQ(stats[2].pagesOut, 7u);
}

TEST(ExchangeExec, RethrowsTheLowestNumberedFailingChain) {
  // "when a chain throws, next() rethrows the exception of the lowest-numbered failing chain"
  // Chain 5 fails at once, chain 2 soon, chain 1 last (after 40 pages and a delay): chain 1's
  // error must win whatever the schedule; endless chain 4 must be stopped.
  for (int threads : {1, 2, 3, 6}) {
    ExchangeExec exchange(
        kSchema,
        {chain(0, 5), chain(1, -1, 40, "chain 1 failed", std::chrono::milliseconds(30)),
         chain(2, 50, 3, "chain 2 failed"), chain(3, 5), chain(4, -1),
         chain(5, 5, 0, "chain 5 failed")},
        threads, 4);
    try {
      drain(exchange);
      FAIL() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "chain 1 failed") << threads << " threads";
    }
  }
}

TEST(ExchangeExec, EarlyDestructionUnderALimitStopsEndlessProducers) {
  // "early stop with a LimitExec above it (no deadlock, bounded time)"
  const auto start = std::chrono::steady_clock::now();
  for (int round = 0; round < 20; ++round) {
    std::vector<PipelineFactory> pipelines;
    for (int64_t c = 0; c < 6; ++c) pipelines.push_back(chain(c, -1));
    LimitExec limit(std::make_unique<ExchangeExec>(kSchema, std::move(pipelines), 3, 2), 55);
    EXPECT_EQ(drain(limit).size(), 55u);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST(ExchangeExec, DestroyingBeforeReadingOrMidwayDoesNotHang) {
  { ExchangeExec unused(kSchema, {chain(0, -1)}, 2); }
  ExchangeExec exchange(kSchema, {chain(0, -1), chain(1, -1), chain(2, 10)}, 2, 1);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(exchange.next().has_value());
}

// exchange_exec.h: "one chain alone runs on the consumer's thread, in its next()".
TEST(ExchangeExec, OneChainRunsOnTheConsumersThread) {
  const std::thread::id consumer = std::this_thread::get_id();
  auto sawThread = std::make_shared<std::thread::id>();
  PipelineFactory recording = [sawThread]() -> OperatorPtr {
    auto done = std::make_shared<bool>(false);
    return std::make_unique<LocalSourceExec>(
        kSchema,
        [sawThread, done]() -> std::optional<Page> {
          *sawThread = std::this_thread::get_id();
          if (*done) return std::nullopt;
          *done = true;
          return pageOfRows(kSchema, {{i64(7)}});
        },
        "recording");
  };
  ExchangeExec exchange(kSchema, {recording}, 4);
  EXPECT_EQ(drain(exchange).size(), 1u);
  EXPECT_EQ(*sawThread, consumer);
  EXPECT_FALSE(exchange.next().has_value());
}

TEST(ExchangeExec, OneChainKeepsStatsErrorsAndEarlyStops) {
  {
    ExchangeExec exchange(kSchema, {chain(0, 3)}, 2);
    ASSERT_TRUE(exchange.next().has_value());
    std::vector<OperatorStats> midway;  // the chain has not ended: its stats so far
    exchange.collectStats(midway);
    ASSERT_EQ(midway.size(), 3u);
    EXPECT_EQ(midway[1].name, "ProjectExec");
    EXPECT_EQ(midway[1].rowsOut, 10u);
    EXPECT_EQ(drain(exchange).size(), 20u);
    std::vector<OperatorStats> stats;
    exchange.collectStats(stats);
    ASSERT_EQ(stats.size(), 3u);
    EXPECT_EQ(stats[0].rowsOut, 30u);
    EXPECT_EQ(stats[0].pagesOut, 3u);
    EXPECT_EQ(stats[2].name, "LocalSourceExec");
    EXPECT_EQ(stats[2].pagesOut, 3u);
  }
  {
    ExchangeExec exchange(kSchema, {chain(0, 5, 2, "chain 0 failed")}, 2);
    try {
      drain(exchange);
      FAIL() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "chain 0 failed");
    }
  }
  LimitExec limit(
      std::make_unique<ExchangeExec>(kSchema, std::vector<PipelineFactory>{chain(0, -1)}, 2), 25);
  EXPECT_EQ(drain(limit).size(), 25u);
}

// exchange_exec.h: "collectStats does the same first, so that chains a consumer
// stopped reading (a LIMIT reached) report what they did, warnings included".
// Before, a chain still running when a LIMIT was reached reported nothing, and
// the warnings of the rows it had evaluated were lost.
TEST(ExchangeExec, ChainsALimitCutShortReportTheirStats) {
  LimitExec limit(std::make_unique<ExchangeExec>(
                      kSchema, std::vector<PipelineFactory>{chain(0, -1), chain(1, -1)}, 2, 1),
                  25);
  EXPECT_EQ(drain(limit).size(), 25u);
  std::vector<OperatorStats> stats;
  limit.collectStats(stats);
  // LimitExec, ExchangeExec, then the chains' ProjectExec and LocalSourceExec summed.
  ASSERT_EQ(stats.size(), 4u);
  EXPECT_EQ(stats[2].name, "ProjectExec");
  EXPECT_EQ(stats[3].name, "LocalSourceExec");
  // The 3 pages the LIMIT read came from the chains, which may have made more.
  EXPECT_GE(stats[3].pagesOut, 3u);
  EXPECT_GE(stats[2].rowsOut, 30u);
}

/// A driver stage that counts rows by n % 5 (an INITIAL aggregation), and one that passes its
/// chains' pages on (under a ProjectExec).
DriverStage countingStage() {
  return DriverStage{kSchema, [](OperatorPtr chains) -> OperatorPtr {
                       AggregateSpec count;
                       count.function = AggregateFunction::kCountStar;
                       count.name = "c";
                       count.inputType = DataType::null();
                       auto project = std::make_unique<ProjectExec>(
                           std::move(chains), std::vector<int>{0}, std::vector<std::string>{"n"});
                       return std::make_unique<AggregateExec>(
                           std::move(project), AggregatorMode::kInitial, std::vector<int>{0},
                           std::vector<AggregateSpec>{count});
                     }};
}

DriverStage passingStage() {
  return DriverStage{kSchema, [](OperatorPtr chains) -> OperatorPtr {
                       return std::make_unique<ProjectExec>(std::move(chains), std::vector<int>{0},
                                                            std::vector<std::string>{"n"});
                     }};
}

/// Chains whose rows repeat five values: n = k % 5 for the k-th row of chain c.
PipelineFactory fiveValues(int64_t pages) {
  return [=]() -> OperatorPtr {
    auto made = std::make_shared<int64_t>(0);
    return std::make_unique<LocalSourceExec>(
        kSchema,
        [=]() -> std::optional<Page> {
          if (*made >= pages) return std::nullopt;
          ++*made;
          std::vector<Row> rows;
          for (int64_t i = 0; i < 10; ++i) rows.push_back({i64(i % 5)});
          return pageOfRows(kSchema, rows);
        },
        "five values");
  };
}

// exchange_exec.h: "an INITIAL aggregation then keeps one table per driver instead of one per
// split": 8 chains over 5 keys give at most 5 groups per driver, not 5 per chain (40).
TEST(ExchangeExec, ADriverStageRunsOncePerDriverOverAllItsChains) {
  for (int threads : {1, 2, 3}) {
    std::vector<PipelineFactory> pipelines;
    for (int c = 0; c < 8; ++c) pipelines.push_back(fiveValues(c + 1));
    const Schema out{
        {"n", DataType::int64()}, {"c", DataType::int64()}, {"c$seen", DataType::boolean()}};
    ExchangeExec exchange(out, std::move(pipelines), threads, 4, countingStage());
    const std::vector<Row> rows = drain(exchange);
    EXPECT_LE(rows.size(), 5u * static_cast<size_t>(threads)) << threads << " threads";
    EXPECT_GE(rows.size(), 5u);
    int64_t total = 0;
    for (const Row& row : rows) total += std::get<int64_t>(row[1]);
    EXPECT_EQ(total, 10 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8)) << threads << " threads";
    std::vector<OperatorStats> stats;
    exchange.collectStats(stats);
    ASSERT_EQ(stats.size(), 4u);
    EXPECT_EQ(stats[1].name, "AggregateExec[INITIAL]");
    EXPECT_EQ(stats[1].rowsOut, rows.size());
    EXPECT_EQ(stats[2].name, "ProjectExec");
    EXPECT_EQ(stats[3].name, "LocalSourceExec");
    EXPECT_EQ(stats[3].pagesOut, 36u);  // every chain's pages, summed
  }
}

TEST(ExchangeExec, ADriverStageKeepsTheLowestNumberedFailureAndStopsEarly) {
  // A stage's failure is its chain's: chain 1's error wins over chain 2's and chain 5's.
  for (int threads : {1, 2, 3}) {
    ExchangeExec exchange(
        kSchema,
        {chain(0, 5), chain(1, -1, 40, "chain 1 failed", std::chrono::milliseconds(30)),
         chain(2, 50, 3, "chain 2 failed"), chain(3, 5), chain(4, -1),
         chain(5, 5, 0, "chain 5 failed")},
        threads, 4, passingStage());
    try {
      drain(exchange);
      FAIL() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "chain 1 failed") << threads << " threads";
    }
  }
  for (int chains : {1, 4}) {  // one chain runs inline; endless chains stop under a LIMIT
    std::vector<PipelineFactory> pipelines;
    for (int c = 0; c < chains; ++c) pipelines.push_back(chain(c, -1));
    LimitExec limit(
        std::make_unique<ExchangeExec>(kSchema, std::move(pipelines), 2, 2, passingStage()), 55);
    EXPECT_EQ(drain(limit).size(), 55u);
  }
}

}  // namespace
}  // namespace quarry::engine
