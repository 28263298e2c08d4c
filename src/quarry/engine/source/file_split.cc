#include "quarry/engine/source/file_split.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "quarry/common/error.h"

namespace quarry::engine {
namespace {

constexpr uint8_t kVersion = 4;

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

class Writer {
 public:
  void u8(uint8_t v) { out_.push_back(v); }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void str(const std::string& s) {
    u64(s.size());
    out_.insert(out_.end(), s.begin(), s.end());
  }
  void value(const StatisticValue& v) {
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
  std::vector<uint8_t> take() { return std::move(out_); }

 private:
  std::vector<uint8_t> out_;
};

class Reader {
 public:
  explicit Reader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw CorruptFile("FileSplit: " + what + " at byte " + std::to_string(pos_) + " of " +
                      std::to_string(bytes_.size()));
  }
  void need(uint64_t n, const char* field) const {
    if (n > bytes_.size() - pos_) fail(std::string("truncated ") + field);
  }
  uint8_t u8(const char* field) {
    need(1, field);
    return bytes_[pos_++];
  }
  uint64_t u64(const char* field) {
    need(8, field);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{bytes_[pos_ + i]} << (8 * i);
    pos_ += 8;
    return v;
  }
  int64_t i64(const char* field) { return static_cast<int64_t>(u64(field)); }
  std::string str(const char* field) {
    const uint64_t n = u64(field);
    need(n, field);  // checked before allocating: a corrupt length cannot allocate
    std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return s;
  }
  StatisticValue value(const char* field) {
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
  size_t remaining() const { return bytes_.size() - pos_; }

 private:
  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<io::StorageObject> openSplitFile(const FileSplit& split) {
  if (split.fileSize == 0) return io::openObject(split.uri);
  return io::openObject(split.uri, io::ObjectIdentity{split.fileSize, split.fileVersion});
}

std::vector<FileSplit> unitsWithin(const FileSplit& split, std::vector<FileSplit> units) {
  const uint64_t end = split.length > UINT64_MAX - split.start ? UINT64_MAX : split.start + split.length;
  std::vector<FileSplit> out;
  for (FileSplit& unit : units) {
    if (unit.start < split.start || unit.start > end || unit.length > end - unit.start) continue;
    unit.uri = split.uri;
    unit.format = split.format;
    unit.fileSize = split.fileSize;
    unit.fileVersion = split.fileVersion;
    out.push_back(std::move(unit));
  }
  return out;
}

bool FileSplit::operator==(const FileSplit& other) const {
  const bool sameStatistics = statistics == nullptr || other.statistics == nullptr
                                  ? statistics == other.statistics
                                  : *statistics == *other.statistics;
  return uri == other.uri && start == other.start && length == other.length &&
         format == other.format && sameStatistics && units == other.units &&
         fileSize == other.fileSize && fileVersion == other.fileVersion && rows == other.rows;
}

std::vector<uint8_t> serialize(const FileSplit& split) {
  Writer w;
  w.u8(kVersion);
  w.str(split.uri);
  w.u64(split.start);
  w.u64(split.length);
  w.str(split.format);
  w.u64(split.units);
  w.u64(split.fileSize);
  w.u8(split.fileVersion ? 1 : 0);
  if (split.fileVersion) w.str(*split.fileVersion);
  w.u8(split.statistics ? 1 : 0);
  if (split.statistics) {
    const SourceStatistics& s = *split.statistics;
    w.i64(s.rowCount);
    w.u64(s.columns.size());
    for (const auto& [name, c] : s.columns) {
      w.str(name);
      w.u8(static_cast<uint8_t>((c.nullCount ? kHasNullCount : 0) | (c.min ? kHasMin : 0) |
                                (c.max ? kHasMax : 0)));
      if (c.nullCount) w.i64(*c.nullCount);
      if (c.min) w.value(*c.min);
      if (c.max) w.value(*c.max);
    }
  }
  w.u64(split.rows.size());
  for (const RowSpan& span : split.rows) {
    w.i64(span.first);
    w.i64(span.end);
  }
  return w.take();
}

FileSplit deserializeFileSplit(std::span<const uint8_t> bytes) {
  Reader r(bytes);
  const uint8_t version = r.u8("version");
  if (version != kVersion) r.fail("unknown version " + std::to_string(version));
  FileSplit split;
  split.uri = r.str("uri");
  split.start = r.u64("start");
  split.length = r.u64("length");
  if (split.length > UINT64_MAX - split.start) {
    r.fail("byte range overflows: start " + std::to_string(split.start) + ", length " +
           std::to_string(split.length));
  }
  split.format = r.str("format");
  split.units = r.u64("unit count");
  split.fileSize = r.u64("file size");
  const uint8_t hasVersion = r.u8("file version flag");
  if (hasVersion > 1) r.fail("file version flag is " + std::to_string(hasVersion));
  if (hasVersion == 1) split.fileVersion = r.str("file version");
  const uint8_t present = r.u8("statistics flag");
  if (present > 1) r.fail("statistics flag is " + std::to_string(present));
  if (present == 1) {
    SourceStatistics s;
    s.rowCount = r.i64("row count");
    if (s.rowCount < 0) r.fail("negative row count " + std::to_string(s.rowCount));
    const uint64_t columns = r.u64("column count");
    // Each column takes at least 9 bytes (an empty name and its flags).
    if (columns > r.remaining() / 9) {
      r.fail("column count " + std::to_string(columns) + " exceeds the remaining bytes");
    }
    for (uint64_t i = 0; i < columns; ++i) {
      std::string name = r.str("column name");
      const uint8_t flags = r.u8("column flags");
      if ((flags & ~(kHasNullCount | kHasMin | kHasMax)) != 0) {
        r.fail("column '" + name + "' has unknown flags " + std::to_string(flags));
      }
      ColumnStatistics c;
      if (flags & kHasNullCount) {
        c.nullCount = r.i64("null count");
        if (*c.nullCount < 0 || *c.nullCount > s.rowCount) {
          r.fail("column '" + name + "' null count " + std::to_string(*c.nullCount) +
                 " outside [0, " + std::to_string(s.rowCount) + "]");
        }
      }
      if (flags & kHasMin) c.min = r.value("minimum");
      if (flags & kHasMax) c.max = r.value("maximum");
      if (!s.columns.emplace(std::move(name), std::move(c)).second) {
        r.fail("duplicate column");
      }
    }
    split.statistics = std::make_shared<const SourceStatistics>(std::move(s));
  }
  const uint64_t spans = r.u64("row span count");
  if (spans > r.remaining() / 16) {
    r.fail("row span count " + std::to_string(spans) + " exceeds the remaining bytes");
  }
  for (uint64_t i = 0; i < spans; ++i) {
    RowSpan span;
    span.first = r.i64("row span start");
    span.end = r.i64("row span end");
    const int64_t previousEnd = split.rows.empty() ? 0 : split.rows.back().end;
    if (span.first < previousEnd || span.end <= span.first) {
      r.fail("row span [" + std::to_string(span.first) + ", " + std::to_string(span.end) +
             ") is empty or does not follow the previous one");
    }
    split.rows.push_back(span);
  }
  if (r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " trailing bytes");
  return split;
}

}  // namespace quarry::engine
