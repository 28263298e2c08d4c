#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "quarry/io/storage.h"

/// Planning a batch of byte-range reads as few, bounded requests: the ranges a
/// row group needs (column chunks, runs of pages) become the requests a remote
/// object sends, and the bytes of each request are copied back to the ranges.
namespace quarry::io {

/// When two ranges are worth one request, how large a request may grow, and how
/// many go out at once. Reading a gap costs gap / bandwidth; a request of its own
/// costs a round trip, so a gap shorter than latency x bandwidth is read through.
struct CoalescePolicy {
  /// One request's round trip, first byte included.
  std::chrono::microseconds latency{10'000};
  /// The bytes per second one request streams.
  uint64_t bytesPerSecond = 100'000'000;
  /// The largest request sent; longer ranges are split, so that one huge chunk
  /// is fetched by several connections at once.
  uint64_t maxRequestBytes = 64ull << 20;
  /// How many requests are in flight at once.
  int maxConcurrentRequests = 8;

  /// Returns the largest gap read through rather than split at: latency x
  /// bandwidth (1 MB with the defaults).
  uint64_t maxGapBytes() const;
};

/// One request of a plan: the bytes [offset, offset + length) and the indices
/// of the ranges (into the planned span) that take a part of them.
struct PlannedRequest {
  uint64_t offset = 0;
  uint64_t length = 0;
  std::vector<size_t> ranges;
};

/// Returns the requests that read every byte of `ranges` (in any order,
/// overlapping or not): ranges sorted by offset, each merged into the request
/// before it when the gap between them is at most policy.maxGapBytes() and the
/// merged request stays within policy.maxRequestBytes; bytes two ranges share
/// are requested once. The requests are disjoint and ascending; empty ranges
/// need none.
std::vector<PlannedRequest> planReads(std::span<const ReadRange> ranges,
                                      const CoalescePolicy& policy);

/// Copies the part of `bytes` (the body of `request`) each of the request's
/// ranges covers into that range's destination.
void scatterRequest(const PlannedRequest& request, std::span<const uint8_t> bytes,
                    std::span<const ReadRange> ranges);

/// Runs `fetch(i)` for each of `n` requests, at most `maxConcurrent` at once
/// (on threads of their own: they wait on the network, not the CPU); the first
/// exception is rethrown once all have stopped, requests not yet started then
/// being skipped.
void fetchConcurrently(size_t n, int maxConcurrent, const std::function<void(size_t)>& fetch);

}  // namespace quarry::io
