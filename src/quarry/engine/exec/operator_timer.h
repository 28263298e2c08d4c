#pragma once

#include <chrono>
#include <cstdint>

/// Adds the wall time of a scope to an OperatorStats::nanos counter.
namespace quarry::engine {

class OperatorTimer {
 public:
  explicit OperatorTimer(int64_t& nanos)
      : nanos_(nanos), start_(std::chrono::steady_clock::now()) {}
  ~OperatorTimer() {
    nanos_ += std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now() - start_)
                  .count();
  }
  OperatorTimer(const OperatorTimer&) = delete;
  OperatorTimer& operator=(const OperatorTimer&) = delete;

 private:
  int64_t& nanos_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace quarry::engine
