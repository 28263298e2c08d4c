#include "quarry/io/retry_policy.h"

#include <algorithm>
#include <thread>

namespace quarry::io {

bool RetryPolicy::isRetriable(long status) { return status == 429 || (status >= 500 && status <= 599); }

std::chrono::milliseconds RetryPolicy::backoffCeiling(int failedAttempts) const {
  const auto cap = std::max(maxDelay, std::chrono::milliseconds(0));
  auto ceiling = std::max(baseDelay, std::chrono::milliseconds(0));
  // Doubling stops at the cap, so no shift can overflow however many attempts are allowed.
  for (int i = 1; i < failedAttempts && ceiling < cap; ++i) ceiling *= 2;
  return std::min(ceiling, cap);
}

std::chrono::milliseconds RetryPolicy::delay(int failedAttempts, std::mt19937_64& random) const {
  const auto ceiling = backoffCeiling(failedAttempts);
  std::uniform_int_distribution<int64_t> uniform(0, ceiling.count());
  return std::chrono::milliseconds(uniform(random));
}

void RetryPolicy::sleepBeforeRetry(int failedAttempts) const {
  thread_local std::mt19937_64 random{std::random_device{}()};
  const auto wait = delay(failedAttempts, random);
  if (wait.count() > 0) std::this_thread::sleep_for(wait);
}

}  // namespace quarry::io
