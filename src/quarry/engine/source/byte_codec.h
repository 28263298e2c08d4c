#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/engine/source/source_statistics.h"

/// The byte encoding quarry writes for its own records (FileSplit, the metadata
/// cache): integers little-endian in 8 bytes, strings length-prefixed, statistic
/// values tagged by their alternative. A Reader checks every length against the
/// bytes left before allocating, and throws CorruptFile naming the record, the
/// field and the byte offset.
namespace quarry::engine {

class ByteWriter {
 public:
  void u8(uint8_t v) { out_.push_back(v); }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void str(std::string_view s) {
    u64(s.size());
    out_.insert(out_.end(), s.begin(), s.end());
  }
  void bytes(std::span<const uint8_t> b) {
    u64(b.size());
    out_.insert(out_.end(), b.begin(), b.end());
  }
  void value(const StatisticValue& v);
  /// Row count, then each column's name, presence flags and values.
  void statistics(const SourceStatistics& s);

  std::vector<uint8_t>& buffer() { return out_; }
  std::vector<uint8_t> take() { return std::move(out_); }

 private:
  std::vector<uint8_t> out_;
};

class ByteReader {
 public:
  /// `record` names what is read in errors ("FileSplit", "metadata cache").
  ByteReader(std::span<const uint8_t> bytes, const char* record) : bytes_(bytes), record_(record) {}

  [[noreturn]] void fail(const std::string& what) const;
  /// The error of `need`, out of line so that the checks inlined into every read
  /// stay a comparison and a branch.
  [[noreturn]] void failTruncated(const char* field) const;
  void need(uint64_t n, const char* field) const {
    if (n > bytes_.size() - pos_) failTruncated(field);
  }
  uint8_t u8(const char* field) {
    need(1, field);
    return bytes_[pos_++];
  }
  /// A byte that must be 0 or 1.
  bool flag(const char* field) {
    const uint8_t b = u8(field);
    if (b > 1) fail(std::string(field) + " is " + std::to_string(b));
    return b == 1;
  }
  uint64_t u64(const char* field) {
    need(8, field);
    uint64_t v = 0;
    std::memcpy(&v, bytes_.data() + pos_, sizeof v);
    if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
    pos_ += 8;
    return v;
  }
  int64_t i64(const char* field) { return static_cast<int64_t>(u64(field)); }
  /// A count of items each taking at least `minBytes`, checked against the bytes left.
  uint64_t count(const char* field, uint64_t minBytes);
  std::string str(const char* field) {
    const uint64_t n = u64(field);
    need(n, field);  // checked before allocating: a corrupt length cannot allocate
    std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  /// A string as a view into the bytes read: no copy.
  std::string_view view(const char* field) {
    const uint64_t n = u64(field);
    need(n, field);
    std::string_view s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  std::span<const uint8_t> bytes(const char* field) {
    const uint64_t n = u64(field);
    need(n, field);
    std::span<const uint8_t> b = bytes_.subspan(pos_, n);
    pos_ += n;
    return b;
  }
  StatisticValue value(const char* field);
  /// What ByteWriter::statistics wrote; refuses negative counts, a null count
  /// above the row count, unknown flags and duplicate columns.
  SourceStatistics statistics();
  size_t remaining() const { return bytes_.size() - pos_; }

 private:
  std::span<const uint8_t> bytes_;
  const char* record_;
  size_t pos_ = 0;
};

}  // namespace quarry::engine
