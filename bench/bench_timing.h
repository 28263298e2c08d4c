#pragma once

#include <sys/resource.h>

#include <chrono>
#include <utility>
#include <vector>

/// The timing the in-process benchmark binaries share (scan_benchmark,
/// filter_benchmark): untimed warm-up runs, then timed runs measured in wall
/// time (steady_clock) and CPU time (getrusage, user + system).
namespace quarry::bench {

/// Returns this process's CPU time so far, in milliseconds.
inline double cpuMs() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto ms = [](const timeval& tv) { return tv.tv_sec * 1e3 + tv.tv_usec / 1e3; };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

/// The result of the last run and each timed run's (wall ms, CPU ms).
template <typename Result>
struct TimedRuns {
  Result result;
  std::vector<std::pair<double, double>> timings;
};

/// Calls `run` `warmup` times untimed, then `runs` times timed.
template <typename Run>
auto timeRuns(int warmup, int runs, Run&& run) -> TimedRuns<decltype(run())> {
  TimedRuns<decltype(run())> out;
  for (int i = 0; i < warmup; ++i) out.result = run();
  for (int i = 0; i < runs; ++i) {
    const double cpuStart = cpuMs();
    const auto start = std::chrono::steady_clock::now();
    out.result = run();
    const std::chrono::duration<double, std::milli> wall = std::chrono::steady_clock::now() - start;
    out.timings.emplace_back(wall.count(), cpuMs() - cpuStart);
  }
  return out;
}

}  // namespace quarry::bench
