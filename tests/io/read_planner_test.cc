#include "quarry/io/read_planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "quarry/io/memory_storage.h"

// The read planner: which ranges share a request, how large one may grow, and
// that every range gets exactly its bytes back whatever the plan.
namespace quarry::io {
namespace {

/// A policy whose gap threshold is `maxGap` bytes (1 byte per microsecond).
CoalescePolicy policyOf(uint64_t maxGap, uint64_t maxRequest) {
  CoalescePolicy policy;
  policy.latency = std::chrono::microseconds(static_cast<int64_t>(maxGap));
  policy.bytesPerSecond = 1'000'000;
  policy.maxRequestBytes = maxRequest;
  return policy;
}

/// Ranges of the given [offset, end) with destinations of their own.
struct Ranges {
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<ReadRange> ranges;

  explicit Ranges(std::initializer_list<std::pair<uint64_t, uint64_t>> spans) {
    buffers.reserve(spans.size());
    for (const auto& [from, to] : spans) {
      buffers.emplace_back(to - from);
      ranges.push_back({from, buffers.back()});
    }
  }
};

struct Expected {
  uint64_t offset;
  uint64_t length;
  std::vector<size_t> ranges;
};

void expectPlan(const std::vector<PlannedRequest>& plan, const std::vector<Expected>& expected) {
  ASSERT_EQ(plan.size(), expected.size());
  for (size_t i = 0; i < plan.size(); ++i) {
    SCOPED_TRACE("request " + std::to_string(i));
    EXPECT_EQ(plan[i].offset, expected[i].offset);
    EXPECT_EQ(plan[i].length, expected[i].length);
    EXPECT_EQ(plan[i].ranges, expected[i].ranges);
  }
}

TEST(CoalescePolicyTest, TheGapThresholdIsLatencyTimesBandwidth) {
  EXPECT_EQ(CoalescePolicy{}.maxGapBytes(), 1'000'000u);  // 10 ms at 100 MB/s
  CoalescePolicy policy;
  policy.latency = std::chrono::microseconds(20'000);
  policy.bytesPerSecond = 50'000'000;
  EXPECT_EQ(policy.maxGapBytes(), 1'000'000u);
  policy.latency = std::chrono::microseconds(0);
  EXPECT_EQ(policy.maxGapBytes(), 0u);
}

TEST(ReadPlannerTest, TheWorkedExampleOfTheFileComment) {
  const Ranges r({{0, 50}, {120, 200}, {150, 300}, {900, 1000}, {1000, 2500}});
  expectPlan(planReads(r.ranges, policyOf(100, 1000)),
             {{0, 300, {0, 1, 2}}, {900, 100, {3}}, {1000, 1000, {4}}, {2000, 500, {4}}});
}

TEST(ReadPlannerTest, MergesGapsUpToTheThresholdAndSplitsAtLongerOnes) {
  const Ranges r({{0, 10}, {110, 120}, {221, 230}});
  // 100 bytes between the first two: read through; 101 before the third: not.
  expectPlan(planReads(r.ranges, policyOf(100, 1 << 20)), {{0, 120, {0, 1}}, {221, 9, {2}}});
}

TEST(ReadPlannerTest, AZeroGapThresholdMergesOnlyAdjacentRanges) {
  const Ranges r({{0, 10}, {10, 20}, {21, 30}});
  expectPlan(planReads(r.ranges, policyOf(0, 1 << 20)), {{0, 20, {0, 1}}, {21, 9, {2}}});
}

TEST(ReadPlannerTest, RequestsAscendWhateverTheOrderOfTheRanges) {
  const Ranges r({{5000, 5100}, {0, 100}, {2000, 2100}, {150, 200}});
  expectPlan(planReads(r.ranges, policyOf(100, 1 << 20)),
             {{0, 200, {1, 3}}, {2000, 100, {2}}, {5000, 100, {0}}});
}

TEST(ReadPlannerTest, ARequestNeverGrowsPastTheCap) {
  const Ranges r({{0, 400}, {400, 800}, {800, 1200}, {1300, 1400}});
  expectPlan(planReads(r.ranges, policyOf(1000, 1000)), {{0, 800, {0, 1}}, {800, 600, {2, 3}}});
}

TEST(ReadPlannerTest, ARangeLongerThanTheCapIsSplitIntoCappedRequests) {
  const Ranges r({{100, 2600}});
  expectPlan(planReads(r.ranges, policyOf(0, 1000)),
             {{100, 1000, {0}}, {1100, 1000, {0}}, {2100, 500, {0}}});
}

TEST(ReadPlannerTest, OverlappingAndRepeatedRangesRequestTheirBytesOnce) {
  const Ranges r({{0, 100}, {50, 150}, {60, 80}, {0, 100}});
  expectPlan(planReads(r.ranges, policyOf(0, 1 << 20)), {{0, 150, {0, 3, 1, 2}}});
  // An overlap the cap keeps apart: the second request starts where the first ends.
  const Ranges capped({{0, 100}, {50, 150}});
  expectPlan(planReads(capped.ranges, policyOf(0, 120)), {{0, 100, {0, 1}}, {100, 50, {1}}});
}

TEST(ReadPlannerTest, ARangeInsideAnEarlierPieceOfASplitRangeTakesItsBytesFromThatPiece) {
  Ranges r({{0, 2500}, {500, 600}, {1900, 2100}});
  const auto plan = planReads(r.ranges, policyOf(0, 1000));
  expectPlan(plan, {{0, 1000, {0, 1}}, {1000, 1000, {0, 2}}, {2000, 500, {0, 2}}});
}

TEST(ReadPlannerTest, EmptyRangesNeedNoRequest) {
  const Ranges r({{10, 10}, {500, 500}});
  EXPECT_TRUE(planReads(r.ranges, policyOf(100, 1000)).empty());
  EXPECT_TRUE(planReads({}, CoalescePolicy{}).empty());
}

/// Serves a plan from `source` as a remote object would and checks every range.
void checkPlanServes(const std::vector<uint8_t>& source, std::span<const ReadRange> ranges,
                     const CoalescePolicy& policy) {
  const std::vector<PlannedRequest> plan = planReads(ranges, policy);
  for (size_t i = 0; i < plan.size(); ++i) {
    EXPECT_GT(plan[i].length, 0u);
    EXPECT_LE(plan[i].length, policy.maxRequestBytes);
    if (i > 0) {
      EXPECT_GE(plan[i].offset, plan[i - 1].offset + plan[i - 1].length);  // disjoint, ascending
    }
    for (const size_t r : plan[i].ranges) {  // only ranges the request holds a part of
      EXPECT_LT(ranges[r].offset, plan[i].offset + plan[i].length);
      EXPECT_GT(ranges[r].offset + ranges[r].out.size(), plan[i].offset);
    }
    scatterRequest(plan[i], std::span(source).subspan(plan[i].offset, plan[i].length), ranges);
  }
  for (const ReadRange& range : ranges) {
    ASSERT_TRUE(std::equal(range.out.begin(), range.out.end(),
                           source.begin() + static_cast<ptrdiff_t>(range.offset)))
        << "range at " << range.offset << " of " << range.out.size() << " bytes";
  }
}

TEST(ReadPlannerTest, EveryRangeGetsItsBytesUnderRandomPlans) {
  std::mt19937_64 random(42);
  std::vector<uint8_t> source(20'000);
  for (auto& b : source) b = static_cast<uint8_t>(random());
  for (int round = 0; round < 500; ++round) {
    std::vector<std::vector<uint8_t>> buffers(1 + random() % 12);
    std::vector<ReadRange> ranges;
    for (auto& buffer : buffers) {
      const uint64_t offset = random() % source.size();
      buffer.resize(random() % std::min<uint64_t>(3000, source.size() - offset + 1));
      ranges.push_back({offset, buffer});
    }
    const CoalescePolicy policy = policyOf(random() % 2000, 1 + random() % 4000);
    SCOPED_TRACE("round " + std::to_string(round));
    checkPlanServes(source, ranges, policy);
  }
}

TEST(FetchConcurrentlyTest, KeepsAtMostTheBoundInFlightAndRunsEveryFetch) {
  std::atomic<int> inFlight{0};
  std::atomic<int> most{0};
  std::vector<std::atomic<int>> runs(40);
  fetchConcurrently(runs.size(), 3, [&](size_t i) {
    const int now = ++inFlight;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ++runs[i];
    --inFlight;
  });
  EXPECT_LE(most.load(), 3);
  EXPECT_GE(most.load(), 2);  // 40 fetches of 2 ms do overlap
  for (const auto& n : runs) EXPECT_EQ(n.load(), 1);
}

TEST(FetchConcurrentlyTest, RethrowsTheFirstErrorAfterAllStop) {
  std::atomic<int> started{0};
  EXPECT_THROW(fetchConcurrently(100, 4,
                                 [&](size_t i) {
                                   ++started;
                                   if (i == 3) throw std::runtime_error("fetch 3 failed");
                                   std::this_thread::sleep_for(std::chrono::milliseconds(1));
                                 }),
               std::runtime_error);
  EXPECT_LT(started.load(), 100);  // the rest were skipped
}

TEST(StorageObjectTest, ReadRangesDefaultsToOneReadAtPerRange) {
  std::vector<uint8_t> bytes(100);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i);
  MemoryObject object("memory", bytes);
  Ranges r({{90, 100}, {0, 5}, {3, 8}});
  object.readRanges(r.ranges);
  EXPECT_EQ(object.requestCount(), 3u);
  EXPECT_EQ(r.buffers[0], (std::vector<uint8_t>{90, 91, 92, 93, 94, 95, 96, 97, 98, 99}));
  EXPECT_EQ(r.buffers[2], (std::vector<uint8_t>{3, 4, 5, 6, 7}));
  Ranges past({{95, 101}});
  EXPECT_THROW(object.readRanges(past.ranges), IoError);
}

}  // namespace
}  // namespace quarry::io
