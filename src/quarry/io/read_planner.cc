#include "quarry/io/read_planner.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>

// Ranges are visited by offset; each either joins the last request (it lies
// within it, or starts at most maxGap bytes past its end and the request stays
// within maxRequest) or starts a request of its own at the first byte not yet
// requested. With maxGap 100 and maxRequest 1000:
//
//   ranges  [0, 50) [120, 200) [150, 300) [900, 1000) [1000, 2500)
//   plan    [0, 300): ranges 0, 1, 2     (gap 70 read through, overlap once)
//           [900, 1000): range 3         (gap 600: a request of its own)
//           [1000, 2000): range 4        (joining would make 1600 bytes: split
//           [2000, 2500): range 4         at the cap)
//
// A range may so take parts of several requests; scatterRequest copies each
// request's part of it.
namespace quarry::io {

uint64_t CoalescePolicy::maxGapBytes() const {
  const auto micros = static_cast<uint64_t>(std::max<int64_t>(latency.count(), 0));
  // bytesPerSecond x seconds without overflow for any sane value.
  return static_cast<uint64_t>(static_cast<long double>(bytesPerSecond) * micros / 1'000'000);
}

std::vector<PlannedRequest> planReads(std::span<const ReadRange> ranges,
                                      const CoalescePolicy& policy) {
  const uint64_t maxGap = policy.maxGapBytes();
  const uint64_t maxRequest = std::max<uint64_t>(policy.maxRequestBytes, 1);
  std::vector<size_t> order(ranges.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return ranges[a].offset < ranges[b].offset; });

  std::vector<PlannedRequest> plan;
  for (const size_t i : order) {
    const ReadRange& range = ranges[i];
    if (range.out.empty()) continue;
    uint64_t from = range.offset;
    const uint64_t end = range.offset + range.out.size();
    if (!plan.empty()) {
      PlannedRequest& last = plan.back();
      const uint64_t lastEnd = last.offset + last.length;
      bool joined = false;
      if (from < lastEnd) {
        // Its first bytes are requested already, by the last request and maybe
        // by earlier ones (pieces of a split range): every range before it starts
        // at or before its offset, so [from, lastEnd) is requested without a hole.
        for (size_t k = plan.size(); k-- > 0 && plan[k].offset + plan[k].length > from;) {
          if (plan[k].offset < end) plan[k].ranges.push_back(i);
        }
        joined = true;
        if (end <= lastEnd) continue;
        from = lastEnd;
      }
      if (from - lastEnd <= maxGap && end - last.offset <= maxRequest) {
        if (!joined) last.ranges.push_back(i);
        last.length = end - last.offset;
        continue;
      }
    }
    while (end - from > maxRequest) {
      plan.push_back(PlannedRequest{from, maxRequest, {i}});
      from += maxRequest;
    }
    plan.push_back(PlannedRequest{from, end - from, {i}});
  }
  return plan;
}

void scatterRequest(const PlannedRequest& request, std::span<const uint8_t> bytes,
                    std::span<const ReadRange> ranges) {
  const uint64_t requestEnd = request.offset + std::min<uint64_t>(request.length, bytes.size());
  for (const size_t i : request.ranges) {
    const ReadRange& range = ranges[i];
    const uint64_t from = std::max(range.offset, request.offset);
    const uint64_t to = std::min<uint64_t>(range.offset + range.out.size(), requestEnd);
    if (from >= to) continue;
    std::memcpy(range.out.data() + (from - range.offset), bytes.data() + (from - request.offset),
                static_cast<size_t>(to - from));
  }
}

void fetchConcurrently(size_t n, int maxConcurrent, const std::function<void(size_t)>& fetch) {
  const size_t threads = std::min(n, static_cast<size_t>(std::max(maxConcurrent, 1)));
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) fetch(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex errorMutex;
  auto work = [&] {
    for (size_t i = next.fetch_add(1); i < n && !failed.load(); i = next.fetch_add(1)) {
      try {
        fetch(i);
      } catch (...) {
        std::lock_guard lock(errorMutex);
        if (!error) error = std::current_exception();
        failed.store(true);
      }
    }
  };
  // The calling thread fetches too; the others are joined before returning, so
  // nothing outlives the destinations.
  std::vector<std::jthread> helpers;
  helpers.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  helpers.clear();
  if (error) std::rethrow_exception(error);
}

}  // namespace quarry::io
