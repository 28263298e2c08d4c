#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "quarry/common/error.h"

/// FLOAT and DOUBLE DATA streams: IEEE 754 values of 4 or 8 bytes, little endian,
/// one after another (no run length encoding).
namespace quarry::orc {

static_assert(std::endian::native == std::endian::little,
              "FloatDecoder copies little-endian IEEE values as they are");

/// Decodes a FLOAT (T = float) or DOUBLE (T = double) stream.
template <typename T>
class FloatDecoder {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);

 public:
  FloatDecoder(std::span<const uint8_t> stream, std::string context)
      : stream_(stream), context_(std::move(context)) {}

  /// Writes the next out.size() values; throws CorruptFile when the stream ends
  /// first.
  void next(std::span<T> out) {
    require(out.size());
    if (out.empty()) return;  // memcpy from/to null is undefined even for 0 bytes
    std::memcpy(out.data(), stream_.data() + pos_, out.size() * sizeof(T));
    pos_ += out.size() * sizeof(T);
  }

  /// Skips n values; throws CorruptFile when the stream ends first.
  void skip(uint64_t n) {
    require(n);
    pos_ += static_cast<size_t>(n) * sizeof(T);
  }

  /// Returns how many values the stream still holds.
  uint64_t remaining() const { return (stream_.size() - pos_) / sizeof(T); }

 private:
  void require(uint64_t n) const {
    if (n > remaining()) {
      throw CorruptFile(context_ + ": " + (sizeof(T) == 4 ? "FLOAT" : "DOUBLE") +
                        " stream ends at offset " + std::to_string(stream_.size()) + " with " +
                        std::to_string(remaining()) + " values left, " + std::to_string(n) +
                        " wanted");
    }
  }

  std::span<const uint8_t> stream_;
  std::string context_;
  size_t pos_ = 0;
};

}  // namespace quarry::orc
