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

TEST(RetryPolicyTest, RetryAfterLengthensTheWaitUpToTheMaximumDelay) {
  RetryPolicy policy;
  policy.maxDelay = milliseconds(5000);
  EXPECT_EQ(policy.wait(milliseconds(200), std::nullopt), milliseconds(200));
  EXPECT_EQ(policy.wait(milliseconds(200), milliseconds(100)), milliseconds(200));
  EXPECT_EQ(policy.wait(milliseconds(200), milliseconds(2000)), milliseconds(2000));
  EXPECT_EQ(policy.wait(milliseconds(200), milliseconds(60000)), milliseconds(5000));
}

TEST(RetryPolicyTest, ParsesRetryAfterSecondsAndHttpDates) {
  // RFC 9110 10.2.3: Retry-After = HTTP-date / delay-seconds.
  const auto now = std::chrono::system_clock::from_time_t(784111777);  // Sun, 06 Nov 1994 08:49:37 GMT
  EXPECT_EQ(RetryPolicy::parseRetryAfter("120", now), milliseconds(120000));
  EXPECT_EQ(RetryPolicy::parseRetryAfter(" 0 ", now), milliseconds(0));
  EXPECT_EQ(RetryPolicy::parseRetryAfter("Sun, 06 Nov 1994 08:49:40 GMT", now), milliseconds(3000));
  EXPECT_EQ(RetryPolicy::parseRetryAfter("Sun, 06 Nov 1994 08:49:00 GMT", now), milliseconds(0));
  EXPECT_EQ(RetryPolicy::parseRetryAfter("99999999999999", now), milliseconds(86400000));
  for (const char* bad : {"", "soon", "-5", "1.5", "Sunday, 06-Nov-94 08:49:37 GMT"}) {
    EXPECT_EQ(RetryPolicy::parseRetryAfter(bad, now), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace quarry::io
