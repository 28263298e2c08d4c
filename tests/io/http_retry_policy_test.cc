#include "quarry/io/retry_policy.h"

#include <gtest/gtest.h>

#include <chrono>

namespace quarry::io {
namespace {

using std::chrono::milliseconds;

TEST(RetryPolicyTest, RetriesServerErrorsAndThrottlingOnly) {
  for (long status : {500L, 502L, 503L, 504L, 599L, 429L}) EXPECT_TRUE(RetryPolicy::isRetriable(status)) << status;
  for (long status : {200L, 206L, 301L, 400L, 403L, 404L, 412L, 416L, 499L, 600L}) {
    EXPECT_FALSE(RetryPolicy::isRetriable(status)) << status;
  }
}

TEST(RetryPolicyTest, BackoffDoublesUntilTheMaximumDelay) {
  RetryPolicy policy;
  policy.baseDelay = milliseconds(10);
  policy.maxDelay = milliseconds(100);
  EXPECT_EQ(policy.backoffCeiling(1), milliseconds(10));
  EXPECT_EQ(policy.backoffCeiling(2), milliseconds(20));
  EXPECT_EQ(policy.backoffCeiling(3), milliseconds(40));
  EXPECT_EQ(policy.backoffCeiling(4), milliseconds(80));
  EXPECT_EQ(policy.backoffCeiling(5), milliseconds(100));
  // However many attempts a policy allows, the ceiling neither overflows nor passes the cap.
  EXPECT_EQ(policy.backoffCeiling(1000), milliseconds(100));
}

TEST(RetryPolicyTest, FullJitterStaysWithinZeroAndTheCeiling) {
  RetryPolicy policy;
  policy.baseDelay = milliseconds(8);
  policy.maxDelay = milliseconds(1000);
  std::mt19937_64 random(42);
  for (int failed = 1; failed <= 6; ++failed) {
    const auto ceiling = policy.backoffCeiling(failed);
    milliseconds smallest = ceiling;
    milliseconds largest{0};
    for (int i = 0; i < 2000; ++i) {
      const auto delay = policy.delay(failed, random);
      ASSERT_GE(delay, milliseconds(0));
      ASSERT_LE(delay, ceiling);
      smallest = std::min(smallest, delay);
      largest = std::max(largest, delay);
    }
    // Full jitter spreads over the whole interval, not just near its top.
    EXPECT_LE(smallest, ceiling / 4) << "after " << failed << " failures";
    EXPECT_GE(largest, ceiling * 3 / 4) << "after " << failed << " failures";
  }
}

TEST(RetryPolicyTest, ZeroDelaysNeverSleep) {
  RetryPolicy policy;
  policy.baseDelay = milliseconds(0);
  policy.maxDelay = milliseconds(0);
  std::mt19937_64 random(1);
  EXPECT_EQ(policy.delay(3, random), milliseconds(0));
  const auto start = std::chrono::steady_clock::now();
  policy.sleepBeforeRetry(10);
  EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(50));
}

}  // namespace
}  // namespace quarry::io
