#include "quarry/engine/source/file_split.h"

#include <cstdint>

#include "quarry/engine/source/byte_codec.h"

namespace quarry::engine {
namespace {

constexpr uint8_t kVersion = 4;

}  // namespace

std::unique_ptr<io::StorageObject> openSplitFile(const FileSplit& split) {
  if (split.storage) return split.storage->open(split.uri);
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
    unit.storage = split.storage;
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
  ByteWriter w;
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
  if (split.statistics) w.statistics(*split.statistics);
  w.u64(split.rows.size());
  for (const RowSpan& span : split.rows) {
    w.i64(span.first);
    w.i64(span.end);
  }
  return w.take();
}

FileSplit deserializeFileSplit(std::span<const uint8_t> bytes) {
  ByteReader r(bytes, "FileSplit");
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
  if (r.flag("file version flag")) split.fileVersion = r.str("file version");
  if (r.flag("statistics flag")) {
    split.statistics = std::make_shared<const SourceStatistics>(r.statistics());
  }
  const uint64_t spans = r.count("row span count", 16);
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
