#include "quarry/common/process_memory.h"

#include <mutex>
#include <vector>

#if __has_include(<malloc.h>)
#include <malloc.h>
#endif

namespace quarry {

void keepFreedMemory() {
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
  // glibc refuses an mmap threshold above half its arena heap size (32 MiB on 64 bits).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

void keepUntilExit(std::shared_ptr<const void> state) {
  // Never destroyed, so nothing parked here is freed by the exit-time destructors.
  static auto* mutex = new std::mutex;
  static auto* parked = new std::vector<std::shared_ptr<const void>>;
  const std::lock_guard<std::mutex> lock(*mutex);
  parked->push_back(std::move(state));
}

}  // namespace quarry
