#include "quarry/engine/source/byte_codec.h"

#include <cstring>
#include <type_traits>
#include <variant>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

// Value tags, in StatisticValue's alternative order.
enum class Tag : uint8_t {
  kBool = 0,
  kInt64 = 1,
  kDouble = 2,
  kString = 3,
  kDate = 4,
  kInstant = 5
};

// Column flags.
constexpr uint8_t kHasNullCount = 1;
constexpr uint8_t kHasMin = 2;
constexpr uint8_t kHasMax = 4;

}  // namespace

void ByteWriter::value(const StatisticValue& v) {
  u8(static_cast<uint8_t>(v.index()));
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          u8(x ? 1 : 0);
        } else if constexpr (std::is_same_v<T, int64_t>) {
          i64(x);
        } else if constexpr (std::is_same_v<T, double>) {
          uint64_t bits = 0;
          std::memcpy(&bits, &x, sizeof bits);
          u64(bits);
        } else if constexpr (std::is_same_v<T, std::string>) {
          str(x);
        } else if constexpr (std::is_same_v<T, Date>) {
          i64(x.daysSinceEpoch);
        } else {
          i64(x.epochSeconds);
          i64(x.nanos);
        }
      },
      v);
}

void ByteWriter::statistics(const SourceStatistics& s) {
  i64(s.rowCount);
  u64(s.columns.size());
  for (const auto& [name, c] : s.columns) {
    str(name);
    u8(static_cast<uint8_t>((c.nullCount ? kHasNullCount : 0) | (c.min ? kHasMin : 0) |
                            (c.max ? kHasMax : 0)));
    if (c.nullCount) i64(*c.nullCount);
    if (c.min) value(*c.min);
    if (c.max) value(*c.max);
  }
}

void ByteReader::fail(const std::string& what) const {
  throw CorruptFile(std::string(record_) + ": " + what + " at byte " + std::to_string(pos_) +
                    " of " + std::to_string(bytes_.size()));
}

void ByteReader::failTruncated(const char* field) const { fail(std::string("truncated ") + field); }

uint64_t ByteReader::count(const char* field, uint64_t minBytes) {
  const uint64_t n = u64(field);
  if (minBytes > 0 && n > remaining() / minBytes) {
    fail(std::string(field) + " " + std::to_string(n) + " exceeds the remaining bytes");
  }
  return n;
}

StatisticValue ByteReader::value(const char* field) {
  const uint8_t tag = u8(field);
  switch (static_cast<Tag>(tag)) {
    case Tag::kBool: {
      const uint8_t b = u8(field);
      if (b > 1) fail(std::string("boolean ") + field + " is " + std::to_string(b));
      return b == 1;
    }
    case Tag::kInt64:
      return i64(field);
    case Tag::kDouble: {
      const uint64_t bits = u64(field);
      double d = 0;
      std::memcpy(&d, &bits, sizeof d);
      return d;
    }
    case Tag::kString:
      return str(field);
    case Tag::kDate: {
      const int64_t days = i64(field);
      if (days < INT32_MIN || days > INT32_MAX) {
        fail(std::string("date ") + field + " out of range: " + std::to_string(days));
      }
      return Date{static_cast<int32_t>(days)};
    }
    case Tag::kInstant: {
      Instant t;
      t.epochSeconds = i64(field);
      const int64_t nanos = i64(field);
      if (nanos < 0 || nanos > 999'999'999) {
        fail(std::string("instant ") + field + " nanos out of range: " + std::to_string(nanos));
      }
      t.nanos = static_cast<int32_t>(nanos);
      return t;
    }
  }
  fail(std::string("unknown value tag ") + std::to_string(tag) + " for " + field);
}

SourceStatistics ByteReader::statistics() {
  SourceStatistics s;
  s.rowCount = i64("row count");
  if (s.rowCount < 0) fail("negative row count " + std::to_string(s.rowCount));
  // Each column takes at least 9 bytes (an empty name and its flags).
  const uint64_t columns = count("column count", 9);
  for (uint64_t i = 0; i < columns; ++i) {
    std::string name = str("column name");
    const uint8_t flags = u8("column flags");
    if ((flags & ~(kHasNullCount | kHasMin | kHasMax)) != 0) {
      fail("column '" + name + "' has unknown flags " + std::to_string(flags));
    }
    ColumnStatistics c;
    if (flags & kHasNullCount) {
      c.nullCount = i64("null count");
      if (*c.nullCount < 0 || *c.nullCount > s.rowCount) {
        fail("column '" + name + "' null count " + std::to_string(*c.nullCount) + " outside [0, " +
             std::to_string(s.rowCount) + "]");
      }
    }
    if (flags & kHasMin) c.min = value("minimum");
    if (flags & kHasMax) c.max = value("maximum");
    if (!s.columns.emplace(std::move(name), std::move(c)).second) fail("duplicate column");
  }
  return s;
}

}  // namespace quarry::engine
