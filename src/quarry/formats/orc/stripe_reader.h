#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "quarry/formats/orc/orc_proto.pb.h"
#include "quarry/formats/orc/orc_schema.h"
#include "quarry/formats/orc/orc_tail.h"
#include "quarry/io/storage.h"

/// One stripe of an ORC file: its index streams (ROW_INDEX, BLOOM_FILTER), data
/// streams and footer, in that order. The stripe footer lists every stream as
/// (kind, column, length) in file order, so a stream's offset is the stripe's
/// offset plus the lengths of the streams before it; it also gives each column's
/// encoding and the writer's time zone.
namespace quarry::orc {

using StreamKind = proto::Stream::Kind;

/// Where one stream lies in the file.
struct StreamLocation {
  uint32_t column = 0;
  StreamKind kind = proto::Stream::DATA;
  uint64_t offset = 0;  // absolute file offset
  uint64_t length = 0;
};

/// The decoded footer of one stripe.
struct StripeFooter {
  proto::StripeFooter message;
  std::vector<StreamLocation> streams;
  std::string writerTimezone;  // "" when the writer recorded none (taken as UTC)
  uint64_t rowCount = 0;
  uint64_t stripeIndex = 0;

  /// Returns column `id`'s encoding kind.
  proto::ColumnEncoding::Kind encoding(uint32_t column) const {
    return message.columns(static_cast<int>(column)).kind();
  }
  /// Returns the dictionary size of column `id` (dictionary encodings).
  uint32_t dictionarySize(uint32_t column) const {
    return message.columns(static_cast<int>(column)).dictionarysize();
  }
};

/// Reads and validates the footer of stripe `stripeIndex` (one request). Throws
/// CorruptFile naming the file and stripe when streams overrun the stripe, a
/// column has no encoding, or the footer does not parse.
StripeFooter readStripeFooter(io::StorageObject& file, const OrcTail& tail, const OrcSchema& schema,
                              size_t stripeIndex);

/// Validates a stripe footer given as bytes (decompressed), for the fuzzer.
StripeFooter decodeStripeFooter(std::span<const uint8_t> bytes, const OrcTail& tail,
                                const OrcSchema& schema, size_t stripeIndex,
                                const std::string& context);

/// Bytes of the file already read, [offset, offset + bytes.size()).
struct PreloadedRange {
  uint64_t offset = 0;
  std::span<const uint8_t> bytes;
};

/// The decompressed streams of the projected columns of one stripe.
class StripeStreams {
 public:
  /// Returns the stream's bytes, or an empty span with found=false when absent.
  std::span<const uint8_t> find(uint32_t column, StreamKind kind, bool& found) const;
  /// Returns the stream's bytes; throws CorruptFile naming `context` when absent.
  std::span<const uint8_t> require(uint32_t column, StreamKind kind,
                                   const std::string& context) const;
  /// Returns the total decompressed bytes held.
  uint64_t totalBytes() const { return totalBytes_; }

 private:
  friend StripeStreams readStripeStreams(io::StorageObject&, const OrcTail&, const StripeFooter&,
                                         const std::vector<bool>&, bool, const PreloadedRange*,
                                         bool);
  struct Entry {
    uint32_t column;
    StreamKind kind;
    std::vector<uint8_t> bytes;
  };
  std::vector<Entry> entries_;
  uint64_t totalBytes_ = 0;
};

/// Reads the streams of the columns whose flag is set in `columns` (indexed by
/// column id), merging neighbouring streams into ranges that are fetched in one
/// StorageObject::readRanges call (a stripe whose projected streams are
/// contiguous costs one request on any storage); streams inside
/// `preloaded` are taken from it. Index streams are read only when `withIndex`,
/// and nothing else when `indexOnly`.
StripeStreams readStripeStreams(io::StorageObject& file, const OrcTail& tail,
                                const StripeFooter& footer, const std::vector<bool>& columns,
                                bool withIndex, const PreloadedRange* preloaded = nullptr,
                                bool indexOnly = false);

/// A stripe's footer and the streams of the projected columns.
struct StripeData {
  StripeFooter footer;
  StripeStreams streams;
};

/// Reads stripe `stripeIndex`: when every column is projected, its data and
/// footer in a single request (the footer follows the data); otherwise the
/// footer first, then the projected streams as readStripeStreams does.
StripeData readStripe(io::StorageObject& file, const OrcTail& tail, const OrcSchema& schema,
                      size_t stripeIndex, const std::vector<bool>& columns, bool withIndex);

/// Returns the name of a stream kind ("PRESENT", "DATA", ...).
std::string toString(StreamKind kind);

}  // namespace quarry::orc
