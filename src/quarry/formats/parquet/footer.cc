#include "quarry/formats/parquet/footer.h"

#include <cstring>

#include "quarry/common/error.h"

// A Parquet file ends with the thrift-encoded FileMetaData, its length as a
// 4-byte little-endian integer, and the magic "PAR1" ("PARE" when the footer
// itself is encrypted). Reading the last kFooterTailReadSize bytes at once gets
// the trailer and, for nearly every file, the whole metadata in one request.
namespace quarry::parquet {
namespace {

constexpr uint64_t kTrailerSize = 8;  // metadata length + magic
constexpr uint64_t kMagicSize = 4;

uint32_t readLittleEndian32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

std::string quote(const uint8_t* p, size_t n) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    if (p[i] >= 0x20 && p[i] < 0x7f) {
      out += static_cast<char>(p[i]);
    } else {
      out += "\\x";
      out += kHex[p[i] >> 4];
      out += kHex[p[i] & 15];
    }
  }
  return out;
}

}  // namespace

ParquetFooter readFooter(io::StorageObject& file, const FileMetaDataOptions& options) {
  const uint64_t size = file.size();
  if (size < kMagicSize + kTrailerSize) {
    throw CorruptFile(file.uri() + ": not a Parquet file: " + std::to_string(size) +
                      " bytes is too small to hold the magic and footer (at least 12)");
  }
  std::vector<uint8_t> tail = file.readTail(kFooterTailReadSize);
  const uint8_t* trailer = tail.data() + tail.size() - kTrailerSize;
  if (std::memcmp(trailer + 4, "PARE", 4) == 0) {
    throw Unsupported(file.uri() +
                      ": the file is encrypted (encrypted footer); encryption is not supported");
  }
  if (std::memcmp(trailer + 4, "PAR1", 4) != 0) {
    throw CorruptFile(file.uri() + ": not a Parquet file: expected the magic 'PAR1' at offset " +
                      std::to_string(size - kMagicSize) + ", found '" +
                      quote(trailer + 4, kMagicSize) + "'");
  }
  const uint32_t length = readLittleEndian32(trailer);
  if (length == 0 || length > size - kTrailerSize - kMagicSize) {
    throw CorruptFile(file.uri() + ": footer length " + std::to_string(length) +
                      " does not fit in a file of " + std::to_string(size) + " bytes");
  }

  std::span<const uint8_t> bytes;
  std::vector<uint8_t> large;
  if (length + kTrailerSize <= tail.size()) {
    bytes = std::span<const uint8_t>(trailer - length, length);
  } else {
    // The metadata is larger than the first read: fetch only the part still missing.
    const uint64_t have = tail.size() - kTrailerSize;
    large.resize(length);
    const uint64_t start = size - kTrailerSize - length;
    file.readAt(start, std::span<uint8_t>(large.data(), length - have));
    std::memcpy(large.data() + (length - have), tail.data(), have);
    bytes = large;
  }

  ParquetFooter footer;
  footer.fileSize = size;
  footer.metadataLength = length;
  try {
    footer.metadata = decodeFileMetaData(bytes, options);
  } catch (const CorruptFile& e) {
    throw CorruptFile(file.uri() + ": invalid footer metadata: " + e.what());
  }
  if (footer.metadata.has_encryption_algorithm) {
    throw Unsupported(file.uri() +
                      ": the file is encrypted (plaintext footer with encrypted columns); "
                      "encryption is not supported");
  }
  return footer;
}

}  // namespace quarry::parquet
