#pragma once

/// An ArrowSchema or ArrowArray (arrow/c_interface.h) that its holder releases
/// at the end of its scope, as the C Data Interface asks of a consumer; a moved
/// or already released one (release null) is left alone.
namespace quarry::arrow {

template <typename T>
struct Released {
  T value{};
  Released() = default;
  Released(const Released&) = delete;
  Released& operator=(const Released&) = delete;
  ~Released() {
    if (value.release != nullptr) value.release(&value);
  }
};

}  // namespace quarry::arrow
