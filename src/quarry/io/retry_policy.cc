#include "quarry/io/retry_policy.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <string>
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

std::chrono::milliseconds RetryPolicy::wait(std::chrono::milliseconds backoff,
                                            std::optional<std::chrono::milliseconds> serverAsked) const {
  if (!serverAsked || *serverAsked <= backoff) return backoff;
  return std::min(*serverAsked, std::max(maxDelay, std::chrono::milliseconds(0)));
}

void RetryPolicy::sleepBeforeRetry(int failedAttempts,
                                   std::optional<std::chrono::milliseconds> serverAsked) const {
  thread_local std::mt19937_64 random{std::random_device{}()};
  const auto pause = wait(delay(failedAttempts, random), serverAsked);
  if (pause.count() > 0) std::this_thread::sleep_for(pause);
}

std::optional<std::chrono::milliseconds> RetryPolicy::parseRetryAfter(
    std::string_view value, std::chrono::system_clock::time_point now) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    // delay-seconds; anything past a day is as good as "a long time" (maxDelay caps it).
    if (value.size() > 6) return std::chrono::milliseconds(86'400'000);
    return std::chrono::seconds(std::stol(std::string(value)));
  }
  // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
  std::tm tm{};
  const std::string text(value);
  const char* end = strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  const std::time_t at = timegm(&tm);
  if (at == static_cast<std::time_t>(-1)) return std::nullopt;
  const auto when = std::chrono::system_clock::from_time_t(at);
  if (when <= now) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(when - now);
}

}  // namespace quarry::io
