#pragma once

#include <cstddef>
#include <span>
#include <type_traits>

#include "quarry/common/growable_bytes.h"

/// An array of trivially copyable values that grows without copying what it
/// holds: GrowableBytes underneath (a mapping of its own past 1 MiB, grown with
/// mremap, in huge pages past 4 MiB). For per-group aggregation states, which
/// grow with every page that makes new groups: std::vector's growth copied each
/// state column into a new buffer and faulted it in 4 KiB at a time (ClickBench's
/// Q33, 2.5M groups: half of its page faults were the states' copies).
namespace quarry {

template <typename T>
class GrowableArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  GrowableArray() = default;
  GrowableArray(size_t count, T value) { resize(count, value); }

  size_t size() const { return bytes_.size() / sizeof(T); }
  bool empty() const { return bytes_.size() == 0; }
  T* data() { return reinterpret_cast<T*>(const_cast<char*>(bytes_.data())); }
  const T* data() const { return reinterpret_cast<const T*>(bytes_.data()); }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + size(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  operator std::span<const T>() const { return {data(), size()}; }

  /// `count` values: the first ones kept, new ones `value`.
  void resize(size_t count, T value = T{}) {
    const size_t old = size();
    if (count <= old) {
      bytes_.truncate(count * sizeof(T));
      return;
    }
    // extend() doubles the capacity as often as needed, so many small growths stay amortized.
    T* fresh = reinterpret_cast<T*>(bytes_.extend((count - old) * sizeof(T)));
    for (size_t i = 0; i < count - old; ++i) fresh[i] = value;
  }
  void push_back(T value) { *reinterpret_cast<T*>(bytes_.extend(sizeof(T))) = value; }

 private:
  GrowableBytes bytes_;
};

}  // namespace quarry
