#pragma once

#include <atomic>
#include <cstdint>

#include "quarry/io/storage.h"

/// What the scans of a query did, counted where the work happens (the readers'
/// own metrics and the storage objects' request and byte counters), never
/// estimated. One ScanMetrics is shared by every concurrent scan of a query.
namespace quarry::engine {

struct ScanMetrics {
  std::atomic<uint64_t> files{0}, splits{0};
  /// Files the patterns matched that the WHERE excluded by their paths (never opened).
  std::atomic<uint64_t> filesPrunedByPartition{0};
  std::atomic<uint64_t> rowGroupsTotal{0}, rowGroupsPrunedByStatistics{0}, rowGroupsPrunedByBloom{0},
      rowGroupsPrunedByDictionary{0}, rowGroupsAnsweredFromStatistics{0};
  std::atomic<uint64_t> pagesTotal{0}, pagesSkipped{0}, pagesAnsweredFromStatistics{0};
  std::atomic<uint64_t> bytesRead{0}, requests{0}, rowsDecoded{0};
  // The part of bytesRead and requests spent on footers (schema resolution's reads).
  std::atomic<uint64_t> footerBytesRead{0}, footerRequests{0};
  std::atomic<uint64_t> footersFromCache{0};  // metadata recalled from the metadata cache
};

/// Adds to a ScanMetrics what one storage object read since the last call: a
/// scan publishes as it goes, so that progress shows, and the object's
/// counters only grow.
class StorageReadPublisher {
 public:
  void publish(const io::StorageObject& object, ScanMetrics& metrics) {
    const uint64_t bytes = object.bytesRead();
    const uint64_t requests = object.requestCount();
    metrics.bytesRead += bytes - bytes_;
    metrics.requests += requests - requests_;
    bytes_ = bytes;
    requests_ = requests;
  }

 private:
  uint64_t bytes_ = 0;
  uint64_t requests_ = 0;
};

}  // namespace quarry::engine
