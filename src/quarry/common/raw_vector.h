#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

/// Vectors for decoded data that a decoder overwrites as soon as it grows them.
///
/// `std::vector::resize` value-initializes every new element, so growing a byte
/// buffer by n bytes costs a memset of n bytes before the decoder writes them, even
/// when the vector's capacity is reused from the previous row group. A `RawVector`
/// default-initializes instead: new elements of a trivial type are left as they
/// are, and growth costs nothing but the bookkeeping. Everything else is
/// std::vector's.
namespace quarry {

template <typename T>
class DefaultInitAllocator : public std::allocator<T> {
 public:
  using std::allocator<T>::allocator;
  DefaultInitAllocator() noexcept = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };

  /// resize(n) and emplace_back() with no arguments: default-initialized.
  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <typename T, typename U>
bool operator==(const DefaultInitAllocator<T>&, const DefaultInitAllocator<U>&) noexcept {
  return true;
}

template <typename T>
using RawVector = std::vector<T, DefaultInitAllocator<T>>;

/// Appends `count` elements from `first` with one memcpy. (`insert` on a vector
/// whose allocator has its own construct() copies element by element.)
template <typename T>
void appendCopy(RawVector<T>& to, const T* first, size_t count) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (count == 0) return;
  const size_t at = to.size();
  to.resize(at + count);
  std::memcpy(to.data() + at, first, count * sizeof(T));
}

}  // namespace quarry
