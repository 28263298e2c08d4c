#include "quarry/engine/source/file_split.h"

#include <bit>
#include <cstdint>

#include "quarry/engine/source/byte_codec.h"

namespace quarry::engine {
namespace {

/// Version 5 added the partition values; version 4 (without them) is still read.
constexpr uint8_t kVersion = 5;
constexpr uint8_t kVersionWithoutPartition = 4;

enum PartitionTag : uint8_t { kNullTag, kBoolTag, kInt32Tag, kInt64Tag, kDoubleTag, kBytesTag };

void writePartitionValue(ByteWriter& w, const Scalar& value) {
  if (const uint8_t* v = std::get_if<uint8_t>(&value)) {
    w.u8(kBoolTag);
    w.u8(*v);
  } else if (const int32_t* v = std::get_if<int32_t>(&value)) {
    w.u8(kInt32Tag);
    w.i64(*v);
  } else if (const int64_t* v = std::get_if<int64_t>(&value)) {
    w.u8(kInt64Tag);
    w.i64(*v);
  } else if (const double* v = std::get_if<double>(&value)) {
    w.u8(kDoubleTag);
    w.u64(std::bit_cast<uint64_t>(*v));
  } else if (const std::string* v = std::get_if<std::string>(&value)) {
    w.u8(kBytesTag);
    w.str(*v);
  } else {
    w.u8(kNullTag);  // partition values are never of the other storage types
  }
}

Scalar readPartitionValue(ByteReader& r) {
  const uint8_t tag = r.u8("partition value tag");
  switch (tag) {
    case kNullTag:
      return Scalar();
    case kBoolTag:
      return Scalar(r.u8("partition boolean"));
    case kInt32Tag: {
      const int64_t v = r.i64("partition int32");
      if (v < INT32_MIN || v > INT32_MAX) r.fail("partition int32 out of range: " + std::to_string(v));
      return Scalar(static_cast<int32_t>(v));
    }
    case kInt64Tag:
      return Scalar(r.i64("partition int64"));
    case kDoubleTag:
      return Scalar(std::bit_cast<double>(r.u64("partition double")));
    case kBytesTag:
      return Scalar(std::string(r.str("partition bytes")));
    default:
      r.fail("unknown partition value tag " + std::to_string(tag));
  }
  return Scalar();
}

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
    unit.partition = split.partition;
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
         fileSize == other.fileSize && fileVersion == other.fileVersion && rows == other.rows && partition == other.partition;
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
  w.u64(split.partition.size());
  for (const PartitionValue& p : split.partition) {
    w.str(p.column);
    writePartitionValue(w, p.value);
  }
  return w.take();
}

FileSplit deserializeFileSplit(std::span<const uint8_t> bytes) {
  ByteReader r(bytes, "FileSplit");
  const uint8_t version = r.u8("version");
  if (version != kVersion && version != kVersionWithoutPartition) r.fail("unknown version " + std::to_string(version));
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
  if (version == kVersion) {
    const uint64_t values = r.count("partition value count", 2);
    for (uint64_t i = 0; i < values; ++i) {
      PartitionValue p;
      p.column = std::string(r.str("partition column"));
      p.value = readPartitionValue(r);
      split.partition.push_back(std::move(p));
    }
  }
  if (r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " trailing bytes");
  return split;
}

}  // namespace quarry::engine
