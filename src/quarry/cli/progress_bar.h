#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

/// The progress line `query`, `print` and `convert` draw on stderr during long
/// work. Only on a terminal: it appears after half a second (short commands show
/// nothing; QUARRY_PROGRESS_DELAY_MS=N changes that, 0 draws it at once, which the
/// tests use), is redrawn five times a second in place, and is erased when the
/// work ends, so that nothing of it stays in the terminal or reaches a file.
namespace quarry::cli {

class ProgressBar {
 public:
  /// What the work has done so far, read from the drawing thread (so the
  /// sampler reads atomics). `total` 0: not known, a count without a bar.
  struct Sample {
    uint64_t done = 0;
    uint64_t total = 0;
    uint64_t bytesRead = 0;
  };

  /// Whether a progress line may be drawn: stderr is a terminal, and the
  /// command's output does not stream to a terminal too (rows written there while
  /// the line is redrawn would tear both; a table or a JSON array, written at the
  /// end, does not stream).
  static bool wanted(bool outputStreams);

  /// Starts drawing "[====    ] 3/8 <unit>, 12.5 MiB read" when `enabled`;
  /// otherwise does nothing.
  ProgressBar(bool enabled, std::string unit, std::function<Sample()> sample);
  /// Stops drawing and erases the line.
  ~ProgressBar();
  /// The same, before the end: a command whose output shares the terminal stops
  /// the line before it writes its first row (ResultWriter in query_command.cc),
  /// so that no redraw lands among the rows. Later calls do nothing.
  void stop();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  /// Returns the line drawn for `sample` (without the leading '\r'): a bar of 30
  /// when the total is known.
  static std::string line(const Sample& sample, const std::string& unit);

 private:
  void run(std::chrono::milliseconds delay);
  void draw();

  std::string unit_;
  std::function<Sample()> sample_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool drawn_ = false;
};

/// Counters a command publishes as it goes, for a ProgressBar to sample.
struct ProgressCounters {
  std::atomic<uint64_t> done{0};
  std::atomic<uint64_t> total{0};  // 0: not known
  std::atomic<uint64_t> bytesRead{0};

  ProgressBar::Sample sample() const { return {done.load(), total.load(), bytesRead.load()}; }
};

}  // namespace quarry::cli
