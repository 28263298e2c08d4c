#pragma once

#include <chrono>
#include <cstdint>
#include <random>

/// When and how long to wait before retrying a failed storage request: exponential
/// backoff with full jitter (the delay before attempt n+1 is uniform in
/// [0, min(maxDelay, baseDelay * 2^n))), bounded by a number of attempts, so that
/// many readers retrying at once spread out instead of hammering a server in step.
namespace quarry::io {

struct RetryPolicy {
  /// How many times a request is sent at most (1 = no retry).
  int maxAttempts = 5;
  std::chrono::milliseconds baseDelay{100};
  std::chrono::milliseconds maxDelay{5000};

  /// Returns whether an HTTP status signals a transient failure worth retrying (5xx, 429).
  static bool isRetriable(long status);

  /// Returns the upper bound of the jittered delay after `failedAttempts` failures
  /// (1 after the first): min(maxDelay, baseDelay * 2^(failedAttempts-1)).
  std::chrono::milliseconds backoffCeiling(int failedAttempts) const;

  /// Returns the delay to wait after `failedAttempts` failures, drawn uniformly in
  /// [0, backoffCeiling(failedAttempts)] from `random`.
  std::chrono::milliseconds delay(int failedAttempts, std::mt19937_64& random) const;

  /// Sleeps for delay(failedAttempts) drawn from a thread-local generator.
  void sleepBeforeRetry(int failedAttempts) const;
};

}  // namespace quarry::io
