#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "quarry/common/error.h"

/// The memory a query may hold in decoded column data, and the accounting that
/// enforces it.
///
/// A file of a few hundred bytes can declare billions of values (one RLE run of
/// nulls, a list of 2^30 elements, a page of 2 GB). Counts that contradict the
/// file are refused where they are decoded; a valid file that is simply too big
/// for the machine meets this budget instead of the kernel's OOM killer. The
/// decoders charge what they are about to allocate, once per page or batch of
/// values (never per value), before allocating it: the levels and values of a
/// column chunk (ColumnChunkData), a decompressed page, a dictionary, the slots
/// record assembly derives from the levels. A charge is held by what owns the
/// memory and returned when that is cleared or destroyed. A charge that would
/// take the process past its limit throws MemoryLimitExceeded, and nothing is
/// allocated.
///
/// The limit is one per process, which runs one query (a data node's concurrent
/// fragments share it). By default it is half the physical memory, and no more
/// than half the address space `ulimit -v` allows.
namespace quarry {

/// Signals that a query needed more memory than its limit: which limit, what was
/// being decoded, and how much it asked for. One of common/error.h's hierarchy,
/// declared here with the budget it enforces.
class MemoryLimitExceeded : public Error {
 public:
  explicit MemoryLimitExceeded(const std::string& message) : Error(message) {}
};

/// Returns the default limit: half of physical memory, at most half of RLIMIT_AS.
uint64_t defaultMemoryLimit();
/// Returns the limit in force (defaultMemoryLimit() until setMemoryLimit is called).
uint64_t memoryLimit();
/// Sets the limit (bytes, above 0), e.g. from --memory-limit.
void setMemoryLimit(uint64_t bytes);
/// Returns the bytes charged now, over all charges.
uint64_t memoryCharged();

/// Parses a size as --memory-limit takes it: a number with an optional unit B,
/// KB, MB, GB or TB (powers of 1024; KiB, MiB, ... also accepted, case and
/// spaces ignored), e.g. "512MB", "2GB", "1.5 GB", "1048576". Throws
/// InvalidArgument naming the text for anything else, or for zero.
uint64_t parseMemorySize(std::string_view text);
/// Formats `bytes` for a message: "2 GB", "512 MB", "1.5 GB", "300 bytes".
std::string formatMemorySize(uint64_t bytes);

/// Bytes charged against the limit on behalf of one owner of memory (a decoded
/// chunk, a page buffer, an assembled row group). Moves carry the charge; a copy
/// starts with none.
class MemoryCharge {
 public:
  MemoryCharge() = default;
  ~MemoryCharge() { release(); }
  MemoryCharge(const MemoryCharge&) noexcept {}
  MemoryCharge& operator=(const MemoryCharge&) noexcept { return *this; }
  MemoryCharge(MemoryCharge&& other) noexcept : bytes_(other.bytes_) { other.bytes_ = 0; }
  MemoryCharge& operator=(MemoryCharge&& other) noexcept;

  /// Charges `bytes` more; throws MemoryLimitExceeded (charging nothing) when
  /// that would take the process past its limit. `what` names the allocation
  /// for the message ("the definition levels of a page").
  void add(uint64_t bytes, const char* what);
  /// Charges up to `bytes` in total: what a reused buffer of that size needs.
  void atLeast(uint64_t bytes, const char* what) {
    if (bytes > bytes_) add(bytes - bytes_, what);
  }
  /// Returns everything charged.
  void release() noexcept;
  uint64_t bytes() const { return bytes_; }

 private:
  uint64_t bytes_ = 0;
};

}  // namespace quarry
