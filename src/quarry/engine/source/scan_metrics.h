#pragma once

#include <atomic>
#include <cstdint>

/// What the scans of a query did, counted where the work happens (the readers'
/// own metrics and the storage objects' request and byte counters), never
/// estimated. One ScanMetrics is shared by every concurrent scan of a query.
namespace quarry::engine {

struct ScanMetrics {
  std::atomic<uint64_t> files{0}, splits{0};
  std::atomic<uint64_t> rowGroupsTotal{0}, rowGroupsPrunedByStatistics{0}, rowGroupsPrunedByBloom{0},
      rowGroupsPrunedByDictionary{0}, rowGroupsAnsweredFromStatistics{0};
  std::atomic<uint64_t> pagesTotal{0}, pagesSkipped{0};
  std::atomic<uint64_t> bytesRead{0}, requests{0}, rowsDecoded{0};
  // The part of bytesRead and requests spent on footers (schema resolution's reads).
  std::atomic<uint64_t> footerBytesRead{0}, footerRequests{0};
};

}  // namespace quarry::engine
