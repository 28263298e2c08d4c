#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "quarry/formats/orc/compression_chunks.h"
#include "quarry/formats/orc/orc_proto.pb.h"
#include "quarry/io/storage.h"

/// The tail of an ORC file, read backwards from its last byte:
///
///   ... stripes | Metadata | Footer | PostScript | psLen (1 byte)
///
/// psLen gives the PostScript's length; the PostScript (never compressed) gives
/// the compression, the block size and the lengths of the Footer (schema,
/// stripes, file statistics) and the Metadata (stripe statistics), both
/// compressed in chunks (compression_chunks.h).
namespace quarry::orc {

/// How many bytes the first read takes from the end of the file: the whole tail
/// of nearly every file, as the specification suggests (16 KiB).
inline constexpr uint64_t kTailReadSize = 16 * 1024;

/// The decoded tail.
struct OrcTail {
  std::string uri;
  uint64_t fileSize = 0;
  uint64_t postscriptLength = 0;
  proto::PostScript postscript;
  proto::Footer footer;
  /// Stripe statistics; empty when the file has none (metadataLength 0).
  proto::Metadata metadata;
  CompressionSettings compression;

  /// Returns the file version as "major.minor" ("0.11", "0.12"), or "" when absent.
  std::string versionString() const;
  /// Returns the file's stripe count.
  size_t stripeCount() const { return static_cast<size_t>(footer.stripes_size()); }
};

/// Reads and validates the tail of `file` in one request when it fits in the
/// last kTailReadSize bytes, else in two. Throws CorruptFile naming the file and
/// the inconsistency (lengths that do not fit, a protobuf that does not parse, a
/// magic other than "ORC", stripes outside the file), Unsupported for encrypted
/// files.
OrcTail readOrcTail(io::StorageObject& file);

/// Parses `bytes` as a serialized protobuf message, throwing CorruptFile naming
/// `context` when it does not parse.
void parseMessage(google::protobuf::MessageLite& message, std::span<const uint8_t> bytes,
                  const std::string& context);

}  // namespace quarry::orc
