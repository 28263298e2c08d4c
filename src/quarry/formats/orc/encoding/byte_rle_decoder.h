#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

/// ORC byte run length encoding (TINYINT DATA, and underneath the boolean
/// streams). A control byte 0..127 starts a run of control + 3 copies of the next
/// byte (3..130 values); a control byte -128..-1 starts -control literal bytes
/// (1..128). A hundred zeros: [0x61, 0x00]; 0x44, 0x45: [0xfe, 0x44, 0x45].
namespace quarry::orc {

/// Decodes a byte RLE stream.
class ByteRleDecoder {
 public:
  /// Reads `stream`; `context` ("file.orc, column 3 (x), stripe 0, DATA stream")
  /// starts every error message.
  ByteRleDecoder(std::span<const uint8_t> stream, std::string context);

  /// Writes the next out.size() bytes; throws CorruptFile when the stream ends
  /// first or a literal group is cut off.
  void next(std::span<uint8_t> out);
  /// Skips n bytes; throws as next() does.
  void skip(uint64_t n);
  /// Returns the context string errors start with.
  const std::string& context() const { return context_; }

 private:
  /// Reads the next group's control byte, failing with `wanted` values missing.
  void readHeader(uint64_t wanted);

  std::span<const uint8_t> stream_;
  std::string context_;
  size_t pos_ = 0;
  size_t remaining_ = 0;  // values left in the current group
  bool repeat_ = false;
  uint8_t value_ = 0;  // the repeated byte of a run
};

}  // namespace quarry::orc
