#include "quarry/common/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace quarry {

void adviseHugePages(void* data, size_t bytes) {
  if (bytes < kHugePageAdviceBytes) return;
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
  if (last <= first) return;
#ifdef MADV_HUGEPAGE
  // Advice only: a kernel without transparent huge pages refuses it, and the
  // buffer is then what it would have been anyway.
  (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
}

}  // namespace quarry
