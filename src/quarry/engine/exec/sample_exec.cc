#include "quarry/engine/exec/sample_exec.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace quarry::engine {

namespace {

/// SplitMix64's finalizer: a bijection of 64-bit values whose outputs pass
/// statistical tests of uniformity for consecutive inputs.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

SampleExec::SampleExec(OperatorPtr input, double probability, uint64_t seed)
    : input_(std::move(input)), seed_(mix(seed)) {
  stats_.name = "SampleExec";
  if (!(probability > 0 && probability < 1)) {
    throw std::invalid_argument("SampleExec: probability " + std::to_string(probability) +
                                " is not between 0 and 1");
  }
  // p * 2^64, which is below 2^64 for p < 1.
  threshold_ = static_cast<uint64_t>(std::ldexp(probability, 64));
}

uint64_t SampleExec::splitSeed(uint64_t seed, std::string_view uri, uint64_t start) {
  uint64_t h = mix(seed);
  for (const char c : uri) h = mix(h ^ static_cast<unsigned char>(c));
  return mix(h ^ start);
}

std::optional<Page> SampleExec::next() {
  const auto start = std::chrono::steady_clock::now();
  std::optional<Page> result;
  std::vector<uint32_t> kept;
  while (std::optional<Page> page = input_->next()) {
    const size_t n = page->positionCount();
    kept.clear();
    for (size_t i = 0; i < n; ++i) {
      if (mix(seed_ ^ (row_ + i)) < threshold_) kept.push_back(static_cast<uint32_t>(i));
    }
    row_ += n;
    if (kept.empty()) continue;
    result = kept.size() == n ? std::move(*page) : page->take(kept);
    break;
  }
  if (result) {
    ++stats_.pagesOut;
    stats_.rowsOut += result->positionCount();
  }
  stats_.nanos +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}

void SampleExec::collectStats(std::vector<OperatorStats>& out) const {
  out.push_back(stats_);
  input_->collectStats(out);
}

}  // namespace quarry::engine
