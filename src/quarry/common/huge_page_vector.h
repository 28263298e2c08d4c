#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "quarry/common/huge_pages.h"

/// Vectors in huge pages, for the hash tables of GROUP BY and COUNT_DISTINCT.
///
/// A table lives as long as the query and is probed at random: a table of 10M
/// groups spans 256 MiB, and on 4 KiB pages nearly every probe also misses the
/// TLB (ClickBench's Q33: 55 % of the merging thread's time was one load of a
/// slot). Unlike the short-lived buffers huge_pages.h warns about, such a table
/// repays the kernel's zeroing of whole huge pages many times over.
namespace quarry {

/// `bytes` of zeroed memory in a mapping of its own, aligned to 2 MiB and asking for huge pages
/// (std::bad_alloc when the mapping fails). A mapping rather than the heap: glibc's
/// aligned_alloc of 2 MiB alignment left a gap of up to 2 MiB in its heap per buffer, and the
/// heap kept what the tables' growth freed (ClickBench's Q05: 350 -> 435 MB of RSS).
void* allocateHugePages(size_t bytes);
/// Returns what allocateHugePages(bytes) gave.
void freeHugePages(void* data, size_t bytes) noexcept;

/// An allocator whose allocations of kHugePageAdviceBytes or more are mappings of their own that
/// ask for huge pages (allocateHugePages); smaller ones are std::allocator's.
template <typename T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(size_t n) {
    if (n * sizeof(T) < kHugePageAdviceBytes) return std::allocator<T>().allocate(n);
    return static_cast<T*>(allocateHugePages(n * sizeof(T)));
  }
  void deallocate(T* data, size_t n) noexcept {
    if (n * sizeof(T) < kHugePageAdviceBytes) {
      std::allocator<T>().deallocate(data, n);
    } else {
      freeHugePages(data, n * sizeof(T));
    }
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

/// A vector whose large buffers ask for huge pages (HugePageAllocator).
template <typename T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace quarry
