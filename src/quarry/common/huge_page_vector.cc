#include "quarry/common/huge_page_vector.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace quarry {

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
