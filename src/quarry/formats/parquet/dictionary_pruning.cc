#include "quarry/formats/parquet/dictionary_pruning.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/codec/compression.h"
#include "quarry/formats/codec/page_crc.h"
#include "quarry/formats/parquet/column_chunk_reader.h"
#include "quarry/formats/parquet/column_keys.h"
#include "quarry/formats/parquet/metadata_decoder.h"

namespace quarry::parquet {
namespace {

using Reader = BoundNode::Reader;
using Compare = BoundNode::Compare;

/// Page headers are small; this many bytes hold most with their statistics.
constexpr uint64_t kHeaderGuess = 256;
constexpr uint64_t kHeaderMax = 64 * 1024;
/// The smallest offset a page can start at (after the leading magic).
constexpr int64_t kFirstPageOffset = 4;

bool isDataPage(PageType t) { return t == PageType::DATA_PAGE || t == PageType::DATA_PAGE_V2; }

void verifyCrc(int32_t expected, std::span<const uint8_t> body) {
  verifyPageCrc(expected, body, "dictionary page");
}

/// Reads and decodes the dictionary page at the start of the chunk's range.
std::optional<Dictionary> readDictionaryPage(io::StorageObject& file, const ColumnMetaData& meta,
                                             const SchemaNode& leaf, bool verifyChecksums,
                                             uint64_t start, uint64_t chunkLength) {
  // The dictionary page ends where the first data page starts, when both are recorded.
  uint64_t first = std::min(kHeaderGuess, chunkLength);
  const auto dictionaryOffset = meta.dictionary_page_offset;
  if (dictionaryOffset && static_cast<uint64_t>(*dictionaryOffset) == start &&
      meta.data_page_offset > *dictionaryOffset &&
      static_cast<uint64_t>(meta.data_page_offset) - start <= chunkLength) {
    first = static_cast<uint64_t>(meta.data_page_offset) - start;
  }
  std::vector<uint8_t> bytes(first);
  file.readAt(start, bytes);
  PageHeader header;
  uint32_t headerSize = 0;
  for (;;) {
    try {
      header = decodePageHeader(bytes, headerSize);
      break;
    } catch (const CorruptFile&) {
      const uint64_t more = std::min(std::max<uint64_t>(bytes.size() * 4, kHeaderGuess),
                                     std::min(kHeaderMax, chunkLength));
      if (more <= bytes.size()) throw;
      const size_t have = bytes.size();
      bytes.resize(more);
      file.readAt(start + have, std::span<uint8_t>(bytes).subspan(have));
    }
  }
  if (header.type != PageType::DICTIONARY_PAGE) return std::nullopt;
  if (!header.dictionary_page_header) throw CorruptFile("a DICTIONARY_PAGE has no dictionary_page_header");
  const auto& dict = *header.dictionary_page_header;
  if (dict.encoding != Encoding::PLAIN && dict.encoding != Encoding::PLAIN_DICTIONARY) {
    throw Unsupported("a dictionary page encoded with " + toString(dict.encoding) +
                      " is not supported");
  }
  if (header.compressed_page_size < 0 ||
      static_cast<uint64_t>(header.compressed_page_size) > chunkLength - headerSize) {
    throw CorruptFile("compressed_page_size " + std::to_string(header.compressed_page_size) +
                      " runs past the end of the column chunk (" +
                      std::to_string(chunkLength - headerSize) + " bytes remain)");
  }
  if (header.uncompressed_page_size < 0) {
    throw CorruptFile("uncompressed_page_size is negative (" +
                      std::to_string(header.uncompressed_page_size) + ")");
  }
  const size_t end = headerSize + static_cast<size_t>(header.compressed_page_size);
  if (bytes.size() < end) {
    const size_t have = bytes.size();
    bytes.resize(end);
    file.readAt(start + have, std::span<uint8_t>(bytes).subspan(have));
  }
  const std::span<const uint8_t> body =
      std::span<const uint8_t>(bytes).subspan(headerSize, static_cast<size_t>(header.compressed_page_size));
  if (header.crc && verifyChecksums) verifyCrc(*header.crc, body);
  if (meta.codec == CompressionCodec::UNCOMPRESSED) {
    if (body.size() != static_cast<size_t>(header.uncompressed_page_size)) {
      throw CorruptFile("an uncompressed dictionary page has " + std::to_string(body.size()) +
                        " bytes, its header says " + std::to_string(header.uncompressed_page_size));
    }
    return decodeDictionary(body, dict.num_values, leaf);
  }
  std::vector<uint8_t> page(static_cast<size_t>(header.uncompressed_page_size));
  decompress(meta.codec, body, page);
  return decodeDictionary(page, dict.num_values, leaf);
}

}  // namespace

bool dictionaryProbeApplies(const BoundNode& node) {
  if (node.kind != BoundNode::Kind::kCompare || node.node == nullptr || !node.node->isLeaf() ||
      (node.compare != Compare::kEq && node.compare != Compare::kIn)) {
    return false;
  }
  const PhysicalType physical = *node.node->physicalType;
  switch (node.reader) {
    case Reader::kBoolean: return false;
    case Reader::kInt96Nanos: return false;  // an Instant on INT96
    case Reader::kDecimalBytes: return physical == PhysicalType::FIXED_LEN_BYTE_ARRAY;
    case Reader::kBytes: return physical != PhysicalType::BOOLEAN;
    default: return true;
  }
}

bool fullyDictionaryEncoded(const ColumnMetaData& meta) {
  if (!meta.encoding_stats) return false;
  int64_t pages = 0;
  for (const PageEncodingStats& s : *meta.encoding_stats) {
    if (!isDataPage(s.page_type)) continue;
    if (s.count <= 0) continue;
    if (s.encoding != Encoding::PLAIN_DICTIONARY && s.encoding != Encoding::RLE_DICTIONARY) return false;
    pages += s.count;
  }
  return pages > 0;
}

std::optional<Dictionary> readChunkDictionary(io::StorageObject& file, int rowGroup,
                                              const ColumnMetaData& meta, const SchemaNode& leaf,
                                              bool verifyChecksums) {
  if (!fullyDictionaryEncoded(meta)) return std::nullopt;
  const std::string context = file.uri() + ": row group " + std::to_string(rowGroup) +
                              ", column '" + leaf.path + "'";
  const ChunkRange range = columnChunkRange(meta);
  if (range.offset < static_cast<uint64_t>(kFirstPageOffset) || range.length == 0 ||
      range.offset > file.size() || range.length > file.size() - range.offset) {
    throw CorruptFile(context + ": the column chunk's range [" + std::to_string(range.offset) +
                      ", +" + std::to_string(range.length) + ") lies outside the file of " +
                      std::to_string(file.size()) + " bytes");
  }
  try {
    return readDictionaryPage(file, meta, leaf, verifyChecksums, range.offset, range.length);
  } catch (const CorruptFile& e) {
    throw CorruptFile(context + ", dictionary page at offset " + std::to_string(range.offset) +
                      ": " + e.what());
  } catch (const Unsupported& e) {
    throw Unsupported(context + ": " + e.what());
  }
}

bool dictionaryExcludes(const BoundNode& node, const Dictionary& dictionary) {
  for (size_t i = 0; i < dictionary.count; ++i) {
    std::string_view plain;
    if (dictionary.width != 0) {
      plain = std::string_view(reinterpret_cast<const char*>(dictionary.fixed.data()) + i * dictionary.width,
                               dictionary.width);
    } else {
      const auto from = static_cast<size_t>(dictionary.offsets[i]);
      const auto to = static_cast<size_t>(dictionary.offsets[i + 1]);
      plain = std::string_view(reinterpret_cast<const char*>(dictionary.bytes.data()) + from, to - from);
    }
    const auto key = plainKey(node.reader, plain);
    if (!key || satisfies(node, *key)) return false;
  }
  return true;
}

}  // namespace quarry::parquet
