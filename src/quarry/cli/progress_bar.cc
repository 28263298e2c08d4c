#include "quarry/cli/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace quarry::cli {

bool ProgressBar::wanted(bool outputStreams) {
  if (isatty(STDERR_FILENO) == 0) return false;
  return !(outputStreams && isatty(STDOUT_FILENO) != 0);
}

namespace {

/// Half a second, or QUARRY_PROGRESS_DELAY_MS.
std::chrono::milliseconds drawDelay() {
  const char* text = std::getenv("QUARRY_PROGRESS_DELAY_MS");
  if (text != nullptr && *text != '\0') {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end == '\0' && value >= 0) return std::chrono::milliseconds(value);
  }
  return std::chrono::milliseconds(500);
}

}  // namespace

ProgressBar::ProgressBar(bool enabled, std::string unit, std::function<Sample()> sample)
    : unit_(std::move(unit)), sample_(std::move(sample)) {
  if (!enabled) return;
  const std::chrono::milliseconds delay = drawDelay();
  if (delay.count() == 0) draw();  // before the work starts, however short it is
  thread_ = std::thread([this, delay] { run(delay); });
}

ProgressBar::~ProgressBar() { stop(); }

void ProgressBar::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (drawn_) {
    std::fputs("\r\033[K", stderr);  // erase the line
    std::fflush(stderr);
    drawn_ = false;
  }
}

std::string ProgressBar::line(const Sample& sample, const std::string& unit) {
  const double mib = static_cast<double>(sample.bytesRead) / (1 << 20);
  char text[200];
  if (sample.total == 0) {
    std::snprintf(text, sizeof(text), "%llu %s, %.1f MiB read ",
                  static_cast<unsigned long long>(sample.done), unit.c_str(), mib);
    return text;
  }
  const uint64_t done = std::min(sample.done, sample.total);
  constexpr int kWidth = 30;
  const auto filled = static_cast<int>(static_cast<double>(kWidth) * static_cast<double>(done) /
                                       static_cast<double>(sample.total));
  std::snprintf(text, sizeof(text), "[%s%s] %llu/%llu %s, %.1f MiB read ",
                std::string(static_cast<size_t>(filled), '=').c_str(),
                std::string(static_cast<size_t>(kWidth - filled), ' ').c_str(),
                static_cast<unsigned long long>(done),
                static_cast<unsigned long long>(sample.total), unit.c_str(), mib);
  return text;
}

void ProgressBar::draw() {
  const std::string text = "\r" + line(sample_(), unit_);
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::run(std::chrono::milliseconds delay) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_for(lock, delay, [this] { return stop_; })) return;
  while (!stop_) {
    draw();
    wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; });
  }
}

}  // namespace quarry::cli
