#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string_view>

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

  /// Returns how long to wait before retrying: the jittered `backoff`, or what the server
  /// asked for with Retry-After when that is longer, never more than maxDelay.
  std::chrono::milliseconds wait(std::chrono::milliseconds backoff,
                                 std::optional<std::chrono::milliseconds> serverAsked) const;

  /// Sleeps for wait(delay(failedAttempts), serverAsked), the delay drawn from a
  /// thread-local generator.
  void sleepBeforeRetry(int failedAttempts,
                        std::optional<std::chrono::milliseconds> serverAsked = std::nullopt) const;

  /// Parses a Retry-After header value (RFC 9110 10.2.3): delay-seconds, or an HTTP-date
  /// (IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT") taken relative to `now`. A date in
  /// the past is no wait; anything else unparseable is nullopt (the backoff alone applies).
  static std::optional<std::chrono::milliseconds> parseRetryAfter(
      std::string_view value, std::chrono::system_clock::time_point now);
};

}  // namespace quarry::io
