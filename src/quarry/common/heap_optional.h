#pragma once

#include <memory>
#include <optional>
#include <utility>

/// An optional value kept on the heap: one pointer wide when absent.
///
/// For large parts of a struct that most instances lack. A footer's column chunk
/// holds size and geospatial statistics that few writers record; inline as
/// std::optional they took a quarter of each decoded ColumnChunk, and a footer
/// holds one per column and row group. The interface is std::optional's (the
/// parts of it the code uses), copies are deep, and equality compares values.
namespace quarry {

template <typename T>
class HeapOptional {
 public:
  HeapOptional() = default;
  HeapOptional(std::nullopt_t) {}  // NOLINT(google-explicit-constructor): as std::optional
  HeapOptional(T value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT: as std::optional
  HeapOptional(const HeapOptional& other)
      : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  HeapOptional(HeapOptional&&) noexcept = default;
  HeapOptional& operator=(const HeapOptional& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  HeapOptional& operator=(HeapOptional&&) noexcept = default;
  HeapOptional& operator=(std::nullopt_t) {
    value_.reset();
    return *this;
  }

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }

  T& emplace() {
    value_ = std::make_unique<T>();
    return *value_;
  }
  void reset() { value_.reset(); }

  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }

  friend bool operator==(const HeapOptional& a, const HeapOptional& b) {
    if (!a.has_value() || !b.has_value()) return a.has_value() == b.has_value();
    return *a == *b;
  }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace quarry
