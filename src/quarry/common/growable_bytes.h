#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <utility>

/// A byte buffer that only grows, for arenas of unknown final size (a hash
/// table's keys). Up to kMapFromBytes it lives on the heap and grows with
/// realloc; from there on it is a mapping of its own that grows with mremap,
/// which moves the pages rather than copying them: growing a buffer of hundreds
/// of megabytes costs neither a copy of what it holds nor faulting those pages
/// in again, as a std::string's or a std::vector's growth does (allocate, copy,
/// free). (glibc's realloc remaps only above its mmap threshold, which rises to
/// 32 MiB once a large buffer was freed: below it, every doubling copied.) A
/// mapping of kHugePageAdviceBytes or more asks for transparent huge pages
/// (huge_pages.h): an arena is long-lived and filled to the end, so it faults
/// once per 2 MiB instead of once per 4 KiB (ClickBench's Q40 merges 1.1M groups
/// keyed by two URLs: 100k page faults before, 49k after). The first allocation
/// takes at least kMinCapacity bytes, then capacity doubles.
namespace quarry {

class GrowableBytes {
 public:
  GrowableBytes() = default;
  ~GrowableBytes() { release(); }
  GrowableBytes(const GrowableBytes& other) { append(other.data_, other.size_); }
  GrowableBytes& operator=(const GrowableBytes& other) {
    if (this != &other) {
      size_ = 0;
      append(other.data_, other.size_);
    }
    return *this;
  }
  GrowableBytes(GrowableBytes&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  GrowableBytes& operator=(GrowableBytes&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    return *this;
  }

  const char* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }

  std::string_view view() const { return {data_, size_}; }

  void append(const char* bytes, size_t length) {
    if (length == 0) return;
    if (capacity_ - size_ < length) grow(size_ + length);
    std::memcpy(data_ + size_, bytes, length);
    size_ += length;
  }
  void append(std::string_view bytes) { append(bytes.data(), bytes.size()); }
  /// Makes the buffer `length` bytes longer and returns where those bytes (uninitialized) begin.
  char* extend(size_t length) {
    if (capacity_ - size_ < length) grow(size_ + length);
    char* at = data_ + size_;
    size_ += length;
    return at;
  }
  /// Keeps the first `size` bytes (at most size()); the capacity stays.
  void truncate(size_t size) {
    if (size < size_) size_ = size;
  }
  /// Makes room for `capacity` bytes in all (exactly that many when it grows).
  void reserve(size_t capacity) {
    if (capacity > capacity_) resize(capacity);
  }

  static constexpr size_t kMinCapacity = 64;
  static constexpr size_t kMapFromBytes = size_t{1} << 20;

 private:
  void grow(size_t needed) {
    size_t capacity = capacity_ < kMinCapacity ? kMinCapacity : capacity_;
    while (capacity < needed) capacity *= 2;
    resize(capacity);
  }
  /// Capacity becomes `capacity` (more than today's), keeping the bytes held.
  void resize(size_t capacity);
  void release() noexcept;

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace quarry
