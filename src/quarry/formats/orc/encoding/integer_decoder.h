#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

/// The integer streams of ORC columns: lengths, dictionary indices, DATA of the
/// integer, date and timestamp columns, decimal scales. A stream is run length
/// encoded in version 1 (Hive 0.11) or version 2 (every writer since Hive 0.12),
/// as the column encoding (DIRECT / DICTIONARY vs DIRECT_V2 / DICTIONARY_V2) says.
namespace quarry::orc {

/// Decodes one integer stream (already decompressed, contiguous) into int64 values.
class IntegerDecoder {
 public:
  virtual ~IntegerDecoder() = default;
  /// Writes the next out.size() values; throws CorruptFile (naming `context`) when
  /// the stream ends early or is malformed.
  virtual void next(std::span<int64_t> out) = 0;
  /// Skips n values; throws as next() does.
  virtual void skip(uint64_t n) = 0;
};

/// Names the run length encoding of an integer stream.
enum class RleVersion { kV1, kV2 };

/// Makes the decoder of `stream`. Signed streams are zigzag encoded; unsigned
/// values above INT64_MAX come out as their bit pattern (uint64 cast to int64).
std::unique_ptr<IntegerDecoder> makeIntegerDecoder(RleVersion version,
                                                   std::span<const uint8_t> stream, bool isSigned,
                                                   std::string context);

/// Shares the buffering of the RLE decoders: they decode one run at a time (at
/// most kMaxRunValues values) straight into the caller's array when it has room
/// for a whole run, into a small buffer otherwise. The virtual call happens once
/// per run, never per value.
class RunDecoder : public IntegerDecoder {
 public:
  /// The longest run of either version (RLEv2's 9-bit length + 1).
  static constexpr size_t kMaxRunValues = 512;

  void next(std::span<int64_t> out) final;
  void skip(uint64_t n) final;

 protected:
  RunDecoder(std::span<const uint8_t> stream, bool isSigned, std::string context);

  /// Decodes the run starting at pos_ into `dest` (room for kMaxRunValues values)
  /// and returns its length (>= 1). Called only while pos_ < stream_.size().
  virtual size_t decodeRun(int64_t* dest) = 0;

  /// Throws CorruptFile: "<context>: <what> at offset <offset>".
  [[noreturn]] void fail(const std::string& what, size_t offset) const;
  /// Returns the byte at pos_ and moves past it, or fails naming `what`.
  uint8_t readByte(const char* what);
  /// Checks that `n` bytes remain at pos_ for `what` (a run starting at `runStart`).
  void require(uint64_t n, const char* what, size_t runStart) const;

  std::span<const uint8_t> stream_;
  size_t pos_ = 0;
  bool signed_;
  std::string context_;

 private:
  /// Decodes the next run into the buffer, failing when the stream has ended.
  void refill(uint64_t wanted);

  std::array<int64_t, kMaxRunValues> buffer_;
  size_t bufferPos_ = 0;
  size_t bufferSize_ = 0;
};

}  // namespace quarry::orc
