#include "quarry/common/growable_bytes.h"

#include <sys/mman.h>

#include "quarry/common/huge_pages.h"

namespace quarry {

void GrowableBytes::resize(size_t capacity) {
  if (capacity < kMapFromBytes) {
    void* grown = std::realloc(data_, capacity);
    if (grown == nullptr) throw std::bad_alloc();
    data_ = static_cast<char*>(grown);
    capacity_ = capacity;
    return;
  }
  void* mapped;
  if (capacity_ >= kMapFromBytes) {
    mapped = mremap(data_, capacity_, capacity, MREMAP_MAYMOVE);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
  } else {
    // Leaving the heap: a copy of at most kMapFromBytes, once.
    mapped = mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    if (size_ > 0) std::memcpy(mapped, data_, size_);
    std::free(data_);
  }
  data_ = static_cast<char*>(mapped);
  capacity_ = capacity;
#ifdef MADV_HUGEPAGE
  // The whole mapping, not only its 2 MiB-aligned part (as adviseHugePages does): advice on
  // part of a mapping splits it in two or three, and mremap refuses to grow a range that is
  // more than one mapping (the query then failed, now and then, as out of memory).
  if (capacity_ >= kHugePageAdviceBytes) (void)madvise(data_, capacity_, MADV_HUGEPAGE);
#endif
}

void GrowableBytes::release() noexcept {
  if (capacity_ >= kMapFromBytes) {
    munmap(data_, capacity_);
  } else {
    std::free(data_);
  }
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
}

}  // namespace quarry
