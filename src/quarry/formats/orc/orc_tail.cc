#include "quarry/formats/orc/orc_tail.h"

#include <climits>
#include <cstdint>
#include <cstring>

#include "quarry/common/error.h"

namespace quarry::orc {
namespace {

constexpr uint64_t kMagicSize = 3;
/// Larger blocks than this are taken for a corrupt PostScript rather than
/// allocated (writers use 64 KiB .. 1 MiB).
constexpr uint64_t kMaxCompressionBlockSize = uint64_t{64} << 20;

CompressionKind compressionOf(const OrcTail& tail) {
  const auto kind = tail.postscript.compression();
  switch (kind) {
    case proto::NONE:
      return CompressionKind::kNone;
    case proto::ZLIB:
      return CompressionKind::kZlib;
    case proto::SNAPPY:
      return CompressionKind::kSnappy;
    case proto::LZO:
      return CompressionKind::kLzo;
    case proto::LZ4:
      return CompressionKind::kLz4;
    case proto::ZSTD:
      return CompressionKind::kZstd;
  }
  throw CorruptFile(tail.uri + ": the PostScript names an unknown compression kind " +
                    std::to_string(static_cast<int>(kind)));
}

void validateStripes(const OrcTail& tail) {
  const uint64_t tailStart = tail.fileSize - 1 - tail.postscriptLength -
                             tail.postscript.footerlength() - tail.postscript.metadatalength();
  uint64_t rows = 0;
  for (int i = 0; i < tail.footer.stripes_size(); ++i) {
    const auto& s = tail.footer.stripes(i);
    const uint64_t parts[] = {s.indexlength(), s.datalength(), s.footerlength()};
    uint64_t end = s.offset();
    bool overflow = false;
    for (uint64_t part : parts) {
      overflow = overflow || part > tailStart || end > tailStart - part;
      if (!overflow) end += part;
    }
    if (overflow || s.offset() < kMagicSize || s.footerlength() == 0) {
      throw CorruptFile(tail.uri + ": stripe " + std::to_string(i) +
                        " does not lie between the header and the file tail (offset " +
                        std::to_string(s.offset()) + ", index " + std::to_string(s.indexlength()) +
                        ", data " + std::to_string(s.datalength()) + ", footer " +
                        std::to_string(s.footerlength()) + " bytes; tail starts at " +
                        std::to_string(tailStart) + ")");
    }
    rows += s.numberofrows();
  }
  if (tail.footer.has_numberofrows() && rows != tail.footer.numberofrows()) {
    throw CorruptFile(tail.uri + ": the stripes hold " + std::to_string(rows) +
                      " rows but the footer announces " +
                      std::to_string(tail.footer.numberofrows()));
  }
}

}  // namespace

void parseMessage(google::protobuf::MessageLite& message, std::span<const uint8_t> bytes,
                  const std::string& context) {
  if (bytes.size() > INT32_MAX ||
      !message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw CorruptFile(context + ": the protobuf " + message.GetTypeName() + " does not parse (" +
                      std::to_string(bytes.size()) + " bytes)");
  }
}

std::string OrcTail::versionString() const {
  std::string out;
  for (int i = 0; i < postscript.version_size(); ++i) {
    if (i > 0) out += '.';
    out += std::to_string(postscript.version(i));
  }
  return out;
}

OrcTail readOrcTail(io::StorageObject& file) {
  OrcTail tail;
  tail.uri = file.uri();
  tail.fileSize = file.size();
  if (tail.fileSize < kMagicSize + 1) {
    throw CorruptFile(tail.uri + ": not an ORC file: " + std::to_string(tail.fileSize) +
                      " bytes is too small to hold the magic and PostScript");
  }
  const std::vector<uint8_t> bytes = file.readTail(kTailReadSize);
  tail.postscriptLength = bytes.back();
  if (tail.postscriptLength == 0 || tail.postscriptLength + 1 > bytes.size()) {
    throw CorruptFile(tail.uri + ": PostScript length " + std::to_string(tail.postscriptLength) +
                      " (the last byte) does not fit in a file of " +
                      std::to_string(tail.fileSize) + " bytes");
  }
  const uint8_t* psStart = bytes.data() + bytes.size() - 1 - tail.postscriptLength;
  parseMessage(tail.postscript, std::span<const uint8_t>(psStart, tail.postscriptLength),
               tail.uri + ": PostScript");
  if (tail.postscript.has_magic() && tail.postscript.magic() != "ORC") {
    throw CorruptFile(tail.uri + ": not an ORC file: the PostScript's magic is '" +
                      tail.postscript.magic() + "', expected 'ORC'");
  }
  if (!tail.postscript.has_magic()) {
    // Files from Hive 0.11 carry the magic only in the header.
    uint8_t header[kMagicSize];
    file.readAt(0, header);
    if (std::memcmp(header, "ORC", kMagicSize) != 0) {
      throw CorruptFile(tail.uri +
                        ": not an ORC file: no 'ORC' magic in the PostScript or at "
                        "offset 0");
    }
  }
  tail.compression.kind = compressionOf(tail);
  if (tail.postscript.has_compressionblocksize()) {
    tail.compression.blockSize = tail.postscript.compressionblocksize();
  }
  if (tail.compression.blockSize == 0 || tail.compression.blockSize > kMaxCompressionBlockSize) {
    throw CorruptFile(tail.uri + ": the compression block size " +
                      std::to_string(tail.compression.blockSize) + " is out of range (1.." +
                      std::to_string(kMaxCompressionBlockSize) + ")");
  }

  if (tail.fileSize - 1 - tail.postscriptLength < kMagicSize) {
    throw CorruptFile(tail.uri + ": the PostScript of " + std::to_string(tail.postscriptLength) +
                      " bytes leaves no room for the 'ORC' header in a file of " +
                      std::to_string(tail.fileSize) + " bytes");
  }
  const uint64_t footerLength = tail.postscript.footerlength();
  const uint64_t metadataLength = tail.postscript.metadatalength();
  const uint64_t available = tail.fileSize - 1 - tail.postscriptLength - kMagicSize;
  if (footerLength == 0 || footerLength > available || metadataLength > available - footerLength) {
    throw CorruptFile(tail.uri + ": footer length " + std::to_string(footerLength) +
                      " and metadata length " + std::to_string(metadataLength) +
                      " do not fit in a file of " + std::to_string(tail.fileSize) + " bytes");
  }

  // Footer and Metadata sit right before the PostScript; fetch what the first read missed.
  const uint64_t sectionLength = footerLength + metadataLength;
  const uint64_t haveBefore = bytes.size() - 1 - tail.postscriptLength;
  std::vector<uint8_t> large;
  std::span<const uint8_t> sections;
  if (sectionLength <= haveBefore) {
    sections = std::span<const uint8_t>(psStart - sectionLength, sectionLength);
  } else {
    large.resize(sectionLength);
    const uint64_t missing = sectionLength - haveBefore;
    file.readAt(tail.fileSize - 1 - tail.postscriptLength - sectionLength,
                std::span<uint8_t>(large.data(), missing));
    std::memcpy(large.data() + missing, bytes.data(), haveBefore);
    sections = large;
  }
  const std::vector<uint8_t> footer =
      decompressStream(tail.compression, sections.subspan(metadataLength), tail.uri + ": footer");
  parseMessage(tail.footer, footer, tail.uri + ": footer");
  if (tail.footer.has_encryption()) {
    throw Unsupported(tail.uri + ": the file has encrypted columns; encryption is not supported");
  }
  if (metadataLength > 0) {
    const std::vector<uint8_t> metadata =
        decompressStream(tail.compression, sections.first(metadataLength), tail.uri + ": metadata");
    parseMessage(tail.metadata, metadata, tail.uri + ": metadata (stripe statistics)");
  }
  if (tail.footer.types_size() == 0) {
    throw CorruptFile(tail.uri + ": the footer has no types (an ORC file has at least the root)");
  }
  validateStripes(tail);
  return tail;
}

}  // namespace quarry::orc
