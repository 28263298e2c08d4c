#include "quarry/common/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

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

namespace {

constexpr size_t kHugePageBytes = size_t{2} << 20;

size_t mappedBytes(size_t bytes) {
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

}  // namespace

void* allocateHugePages(size_t bytes) {
  const size_t length = mappedBytes(bytes);
  // Map 2 MiB more than needed, then unmap the unaligned head and the tail beyond `length`.
  void* mapped = mmap(nullptr, length + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const auto begin = reinterpret_cast<uintptr_t>(mapped);
  const uintptr_t aligned = (begin + kHugePageBytes - 1) & ~(uintptr_t{kHugePageBytes} - 1);
  if (aligned > begin) munmap(mapped, aligned - begin);
  const uintptr_t end = begin + length + kHugePageBytes;
  if (end > aligned + length) munmap(reinterpret_cast<void*>(aligned + length), end - (aligned + length));
  adviseHugePages(reinterpret_cast<void*>(aligned), length);
  return reinterpret_cast<void*>(aligned);
}

void freeHugePages(void* data, size_t bytes) noexcept {
  munmap(data, mappedBytes(bytes));
}

}  // namespace quarry
