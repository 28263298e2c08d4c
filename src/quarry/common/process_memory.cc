#include "quarry/common/process_memory.h"

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

}  // namespace quarry
