#include "quarry/formats/parquet/column_chunk_reader.h"

#include <algorithm>
#include <memory>
#include <optional>

#include "quarry/common/error.h"
#include "quarry/formats/codec/compression.h"
#include "quarry/formats/codec/page_crc.h"
#include "quarry/formats/parquet/encoding/rle_bit_packed_decoder.h"
#include "quarry/formats/parquet/metadata_decoder.h"
#include "quarry/formats/parquet/page_values.h"

// A column chunk is a run of pages, each a thrift PageHeader followed by its
// body. A data page v1 body is compressed as a whole and holds, in order, the
// repetition levels, the definition levels (each RLE with a 4-byte length
// prefix, or the deprecated BIT_PACKED) and the values. A v2 body keeps both
// level sections uncompressed in front (lengths in the header, no prefix) and
// compresses only the values. The number of values a page holds is the number
// of its level entries whose definition level is the column's maximum.
namespace quarry::parquet {
namespace {

unsigned bitWidthOf(int16_t maxLevel) {
  unsigned width = 0;
  while ((1 << width) <= maxLevel) ++width;
  return width;
}

/// Decodes the deprecated BIT_PACKED level encoding: values packed from the most
/// significant bit of each byte down, with no run headers; returns bytes used.
size_t decodeBitPackedLevels(std::span<const uint8_t> data, unsigned width, int16_t* out,
                             size_t n) {
  const uint64_t bits = static_cast<uint64_t>(n) * width;
  const size_t bytes = static_cast<size_t>((bits + 7) / 8);
  if (bytes > data.size()) {
    throw CorruptFile("BIT_PACKED levels need " + std::to_string(bytes) + " bytes, the page has " +
                      std::to_string(data.size()));
  }
  uint64_t bit = 0;
  for (size_t i = 0; i < n; ++i) {
    int16_t v = 0;
    for (unsigned b = 0; b < width; ++b, ++bit) {
      v = static_cast<int16_t>(v << 1 | ((data[bit / 8] >> (7 - bit % 8)) & 1));
    }
    out[i] = v;
  }
  return bytes;
}

/// Decodes `n` levels of maximum `maxLevel` into `out`; returns the bytes used.
/// `prefixed` selects the v1 layout (a 4-byte length before RLE runs).
size_t decodeLevels(Encoding encoding, std::span<const uint8_t> data, bool prefixed,
                    int16_t maxLevel, int16_t* out, size_t n, const char* kind) {
  const unsigned width = bitWidthOf(maxLevel);
  size_t used = 0;
  size_t got = 0;
  if (encoding == Encoding::RLE) {
    auto decoder = prefixed ? RleBitPackedDecoder::withLengthPrefix(data, width)
                            : RleBitPackedDecoder(data, width);
    got = decoder.getBatch(out, n);
    used = decoder.encodedSize();
  } else if (encoding == Encoding::BIT_PACKED && prefixed) {
    used = decodeBitPackedLevels(data, width, out, n);
    got = n;
  } else {
    throw Unsupported(std::string(kind) + " levels encoded with " + toString(encoding) +
                      " are not supported");
  }
  if (got != n) {
    throw CorruptFile(std::string(kind) + " levels: the page holds " + std::to_string(got) +
                      " of the " + std::to_string(n) + " its header declares");
  }
  // A branch-free maximum vectorizes; the offending entry is looked up only on error.
  int16_t highest = 0;
  for (size_t i = 0; i < n; ++i) highest = std::max(highest, out[i]);
  if (highest > maxLevel) {
    const size_t i = static_cast<size_t>(
        std::find_if(out, out + n, [&](int16_t v) { return v > maxLevel; }) - out);
    throw CorruptFile(std::string(kind) + " level " + std::to_string(out[i]) + " at entry " +
                      std::to_string(i) + " exceeds the column's maximum " +
                      std::to_string(maxLevel));
  }
  return used;
}

/// Returns the bytes an RLE level section takes when its first run is an RLE run
/// of `level` covering all `n` entries (`maxLevel`: the levels of a page without
/// nulls; 0 for a top-level column: a page of nulls only), else 0 (the caller
/// then decodes it in full, with every check). `maxLevel` gives the bit width.
/// `prefixed`: the v1 layout, a 4-byte length first.
size_t singleRunOf(std::span<const uint8_t> data, bool prefixed, int16_t maxLevel, size_t n,
                   int16_t level) {
  size_t pos = 0;
  size_t end = data.size();
  if (prefixed) {
    if (data.size() < 4) return 0;
    const uint32_t length = static_cast<uint32_t>(data[0]) | static_cast<uint32_t>(data[1]) << 8 |
                            static_cast<uint32_t>(data[2]) << 16 | static_cast<uint32_t>(data[3]) << 24;
    if (length > data.size() - 4) return 0;
    pos = 4;
    end = 4 + length;
  }
  uint64_t header = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (pos >= end || shift > 28) return 0;
    const uint8_t b = data[pos++];
    header |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) break;
  }
  if ((header & 1) != 0 || (header >> 1) < n || (header >> 1) > 0x7fffffff) return 0;
  const unsigned valueBytes = (bitWidthOf(maxLevel) + 7) / 8;
  if (end - pos < valueBytes) return 0;
  uint32_t value = 0;
  for (unsigned i = 0; i < valueBytes; ++i) value |= static_cast<uint32_t>(data[pos + i]) << (8 * i);
  if (value != static_cast<uint32_t>(level)) return 0;
  return end;
}

class ChunkDecoder {
 public:
  ChunkDecoder(const ColumnMetaData& meta, const SchemaNode& leaf,
               const ColumnChunkReadOptions& options, ChunkBuffers& buffers, ColumnChunkData& out)
      : meta_(meta), leaf_(leaf), options_(options), buffers_(buffers), out_(out),
        entryLimit_(options.rowLimit >= 0 && leaf.maxRepetitionLevel == 0
                        ? std::min(options.rowLimit, meta.num_values)
                        : meta.num_values),
        topLevelOptional_(leaf.maxRepetitionLevel == 0 && leaf.maxDefinitionLevel == 1 &&
                          leaf.parent != nullptr && leaf.parent->isRoot()) {
    // Emptied, their capacity kept: the previous chunk's memory is reused.
    out_.leaf = &leaf;
    out_.levelCount = 0;
    out_.definitionLevels.clear();
    out_.allNull = false;
    out_.repetitionLevels.clear();
    out_.valueCount = 0;
    out_.valueWidth = valueWidthOf(leaf);
    out_.fixedValues.clear();
    out_.offsets.clear();
    out_.byteData.clear();
    out_.dictionary.reset();
    out_.dictionaryIds.clear();
    out_.memory.release();
    if (out_.valueWidth == 0) out_.offsets.push_back(0);
  }

  /// Decodes the pages `bytes` holds (at `fileOffset` in the file), appending to
  /// what earlier calls decoded; a chunk read whole is one call, one read page by
  /// page (page_pruning) a call per run of adjacent pages.
  void decodePages(std::span<const uint8_t> bytes, uint64_t fileOffset) {
    size_t pos = 0;
    while (pos < bytes.size() && out_.levelCount < entryLimit_) {
      pageOffset_ = fileOffset + pos;
      uint32_t headerSize = 0;
      const PageHeader header = decodePageHeader(bytes.subspan(pos), headerSize);
      pos += headerSize;
      if (header.compressed_page_size < 0 ||
          static_cast<uint64_t>(header.compressed_page_size) > bytes.size() - pos) {
        throw CorruptFile("compressed_page_size " + std::to_string(header.compressed_page_size) +
                          " runs past the end of the column chunk (" +
                          std::to_string(bytes.size() - pos) + " bytes remain)");
      }
      if (header.uncompressed_page_size < 0) {
        throw CorruptFile("uncompressed_page_size is negative (" +
                          std::to_string(header.uncompressed_page_size) + ")");
      }
      const auto body = bytes.subspan(pos, static_cast<size_t>(header.compressed_page_size));
      pos += body.size();
      if (header.crc && options_.verifyChecksums) verifyCrc(*header.crc, body);
      switch (header.type) {
        case PageType::DICTIONARY_PAGE: readDictionaryPage(header, body); break;
        case PageType::DATA_PAGE: readDataPageV1(header, body); break;
        case PageType::DATA_PAGE_V2: readDataPageV2(header, body); break;
        default: break;  // index pages and unknown page types carry no values
      }
    }
  }

  /// Checks that the pages decoded make up the whole chunk.
  void finish() {
    if (out_.levelCount != meta_.num_values) {
      pageOffset_.reset();
      throw CorruptFile("the pages hold " + std::to_string(out_.levelCount) +
                        " values but the column chunk metadata declares " +
                        std::to_string(meta_.num_values));
    }
    if (!out_.repetitionLevels.empty() && out_.repetitionLevels[0] != 0) {
      pageOffset_.reset();
      throw CorruptFile("the first repetition level is " +
                        std::to_string(out_.repetitionLevels[0]) +
                        ", but a column chunk must start a new record (0)");
    }
  }

  std::optional<uint64_t> pageOffset() const { return pageOffset_; }

 private:
  void verifyCrc(int32_t expected, std::span<const uint8_t> body) {
    verifyPageCrc(expected, body, "page");
  }

  /// Decompresses `compressed` into a buffer of `size` bytes (or returns it as is).
  std::span<const uint8_t> decompressed(std::span<const uint8_t> compressed, int32_t size,
                                        bool isCompressed) {
    if (!isCompressed || meta_.codec == CompressionCodec::UNCOMPRESSED) {
      if (static_cast<size_t>(size) != compressed.size() && !isCompressed) {
        throw CorruptFile("an uncompressed page body has " + std::to_string(compressed.size()) +
                          " bytes, its header says " + std::to_string(size));
      }
      return compressed;
    }
    // Grown, never shrunk, across the chunk's pages, and not zero-filled: the
    // codec writes every byte.
    const auto needed = static_cast<size_t>(size);
    buffers_.pageMemory.atLeast(needed, "a decompressed page");
    if (needed > buffers_.pageCapacity) {
      buffers_.pageCapacity = needed + needed / 8;  // the pages of a chunk differ a little in size
      buffers_.page = std::make_unique_for_overwrite<uint8_t[]>(buffers_.pageCapacity +
                                                                ChunkBuffers::kPageSlack);
    }
    const std::span<uint8_t> out(buffers_.page.get(), needed);
    // No buffer yet (an empty page): no slack either.
    decompress(meta_.codec, compressed, out,
               buffers_.page ? buffers_.pageCapacity + ChunkBuffers::kPageSlack - needed : 0);
    return out;
  }

  void readDictionaryPage(const PageHeader& header, std::span<const uint8_t> body) {
    if (!header.dictionary_page_header) {
      throw CorruptFile("a DICTIONARY_PAGE has no dictionary_page_header");
    }
    const auto& dict = *header.dictionary_page_header;
    if (dict.encoding != Encoding::PLAIN && dict.encoding != Encoding::PLAIN_DICTIONARY) {
      throw Unsupported("a dictionary page encoded with " + toString(dict.encoding) +
                        " is not supported");
    }
    const auto page = decompressed(body, header.uncompressed_page_size, true);
    // Ids already kept index the dictionary they were decoded against: a second
    // dictionary page (which writers do not make) turns the chunk plain.
    materializeDictionaryIds(out_);
    decodeDictionary(page, dict.num_values, leaf_, buffers_.dictionary);
    dictionary_ = &buffers_.dictionary;
  }

  /// Appends a data page's `values` non-null values. With
  /// ColumnChunkReadOptions::dictionaryIds, a BYTE_ARRAY chunk whose pages so far
  /// are dictionary-encoded keeps their indices; the first page of another
  /// encoding turns what came before plain, and the chunk stays plain.
  void appendValues(Encoding encoding, std::span<const uint8_t> page, size_t values) {
    const bool dictionaryEncoded = encoding == Encoding::RLE_DICTIONARY || encoding == Encoding::PLAIN_DICTIONARY;
    if (options_.dictionaryIds && out_.valueWidth == 0 && dictionaryEncoded && dictionary_ != nullptr) {
      if (!out_.dictionary && out_.valueCount == 0) {
        out_.dictionary = std::make_shared<const Dictionary>(*dictionary_);
        out_.offsets.clear();
      }
      if (out_.dictionary) {
        appendDictionaryIds(page, values, out_);
        return;
      }
    }
    materializeDictionaryIds(out_);
    appendPageValues(encoding, page, values, dictionary_, out_);
  }

  /// Makes room for `n` more level entries, refusing counts the chunk metadata rules out.
  void checkEntryCount(int64_t n) {
    if (n < 0 || n > meta_.num_values - out_.levelCount) {
      throw CorruptFile("a data page declares " + std::to_string(n) + " values, but only " +
                        std::to_string(meta_.num_values - out_.levelCount) +
                        " of the chunk's " + std::to_string(meta_.num_values) + " remain");
    }
  }

  /// Returns how many of a page's `declared` entries are decoded: all, or those
  /// before ColumnChunkReadOptions::rowLimit.
  size_t entriesWanted(int32_t declared) const {
    return static_cast<size_t>(std::min<int64_t>(declared, entryLimit_ - out_.levelCount));
  }

  /// Decodes both level sections of a page; returns the number of non-null values.
  /// `decodeDef(out)` decodes the page's definition levels into `out`;
  /// `singleRun(level)` tells, from the first run header alone, whether they are
  /// one run of `level` (then they are not expanded at all): of the maximum, a
  /// page without nulls; of 0 in a top-level column, a page of nulls only.
  template <typename DecodeRep, typename DecodeDef, typename SingleRun>
  size_t readLevels(size_t n, DecodeRep&& decodeRep, DecodeDef&& decodeDef, SingleRun&& singleRun) {
    const size_t at = static_cast<size_t>(out_.levelCount);
    const uint64_t levelBytes = uint64_t{n} * sizeof(int16_t);
    if (topLevelOptional_ && n > 0) {
      // Nulls only, so far and in this page: nothing is kept (ColumnChunkData::allNull).
      if ((at == 0 || out_.allNull) && singleRun(int16_t{0})) {
        out_.allNull = true;
        out_.levelCount += static_cast<int64_t>(n);
        return 0;
      }
      if (out_.allNull) {  // a page with values after pages of nulls: keep the levels
        out_.memory.add(uint64_t{at} * sizeof(int16_t), "the definition levels of a page");
        out_.definitionLevels.assign(at, 0);
        out_.allNull = false;
      }
    }
    if (leaf_.maxRepetitionLevel > 0) {
      out_.memory.add(levelBytes, "the repetition levels of a page");
      out_.repetitionLevels.resize(at + n);
      decodeRep(out_.repetitionLevels.data() + at);
    }
    size_t values = n;
    const int16_t maxDef = leaf_.maxDefinitionLevel;
    if (maxDef > 0 && leaf_.maxRepetitionLevel > 0) {
      out_.memory.add(levelBytes, "the definition levels of a page");
      out_.definitionLevels.resize(at + n);
      int16_t* def = out_.definitionLevels.data() + at;
      decodeDef(def);
      values = static_cast<size_t>(std::count(def, def + n, maxDef));
    } else if (maxDef > 0) {
      // A column that is not repeated keeps its levels only once a page has a null
      // (an empty vector means "every entry present", see ColumnChunkData).
      const bool kept = !out_.definitionLevels.empty();
      if (singleRun(maxDef)) {
        if (kept) {
          out_.memory.add(levelBytes, "the definition levels of a page");
          out_.definitionLevels.resize(at + n, maxDef);
        }
      } else {
        RawVector<int16_t>& scratch = buffers_.levels;
        buffers_.levelsMemory.atLeast(levelBytes, "the definition levels of a page");
        scratch.resize(n);
        decodeDef(scratch.data());
        values = static_cast<size_t>(std::count(scratch.data(), scratch.data() + n, maxDef));
        if (kept || values != n) {
          out_.memory.add((kept ? 0 : uint64_t{at} * sizeof(int16_t)) + levelBytes,
                          "the definition levels of a page");
          if (!kept) out_.definitionLevels.assign(at, maxDef);
          appendCopy(out_.definitionLevels, scratch.data(), n);
        }
      }
    }
    out_.levelCount += static_cast<int64_t>(n);
    return values;
  }

  void readDataPageV1(const PageHeader& header, std::span<const uint8_t> body) {
    if (!header.data_page_header) throw CorruptFile("a DATA_PAGE has no data_page_header");
    const auto& h = *header.data_page_header;
    checkEntryCount(h.num_values);
    const auto page = decompressed(body, header.uncompressed_page_size, true);
    size_t pos = 0;
    // BIT_PACKED levels have no length prefix: where the definition levels start
    // depends on every repetition level, so such a page is decoded whole.
    const bool bitPacked = h.repetition_level_encoding == Encoding::BIT_PACKED ||
                           h.definition_level_encoding == Encoding::BIT_PACKED;
    const size_t n = bitPacked ? static_cast<size_t>(h.num_values) : entriesWanted(h.num_values);
    const size_t values = readLevels(
        n,
        [&](int16_t* out) {
          pos += decodeLevels(h.repetition_level_encoding, page.subspan(pos), true,
                              leaf_.maxRepetitionLevel, out, n, "repetition");
        },
        [&](int16_t* out) {
          pos += decodeLevels(h.definition_level_encoding, page.subspan(pos), true,
                              leaf_.maxDefinitionLevel, out, n, "definition");
        },
        [&](int16_t level) {
          if (h.definition_level_encoding != Encoding::RLE) return false;
          const size_t used = singleRunOf(page.subspan(pos), true, leaf_.maxDefinitionLevel, n, level);
          pos += used;
          return used != 0;
        });
    appendValues(h.encoding, page.subspan(pos), values);
  }

  void readDataPageV2(const PageHeader& header, std::span<const uint8_t> body) {
    if (!header.data_page_header_v2) throw CorruptFile("a DATA_PAGE_V2 has no data_page_header_v2");
    const auto& h = *header.data_page_header_v2;
    checkEntryCount(h.num_values);
    const int64_t repBytes = h.repetition_levels_byte_length;
    const int64_t defBytes = h.definition_levels_byte_length;
    if (repBytes < 0 || defBytes < 0 || repBytes + defBytes > static_cast<int64_t>(body.size())) {
      throw CorruptFile("level sections of " + std::to_string(repBytes) + " + " +
                        std::to_string(defBytes) + " bytes do not fit in a page body of " +
                        std::to_string(body.size()) + " bytes");
    }
    const size_t n = entriesWanted(h.num_values);
    const size_t values = readLevels(
        n,
        [&](int16_t* out) {
          decodeLevels(Encoding::RLE, body.subspan(0, repBytes), false, leaf_.maxRepetitionLevel,
                       out, n, "repetition");
        },
        [&](int16_t* out) {
          decodeLevels(Encoding::RLE, body.subspan(repBytes, defBytes), false,
                       leaf_.maxDefinitionLevel, out, n, "definition");
        },
        [&](int16_t level) {
          return singleRunOf(body.subspan(repBytes, defBytes), false, leaf_.maxDefinitionLevel, n,
                             level) != 0;
        });
    if (h.num_nulls >= 0 && static_cast<size_t>(h.num_nulls) != n - values &&
        leaf_.maxRepetitionLevel == 0 && n == static_cast<size_t>(h.num_values)) {
      throw CorruptFile("the page header declares " + std::to_string(h.num_nulls) +
                        " nulls, its definition levels hold " + std::to_string(n - values));
    }
    const int64_t levelsSize = repBytes + defBytes;
    const int64_t valuesSize = header.uncompressed_page_size - levelsSize;
    if (valuesSize < 0) {
      throw CorruptFile("uncompressed_page_size " + std::to_string(header.uncompressed_page_size) +
                        " is smaller than the level sections (" + std::to_string(levelsSize) +
                        " bytes)");
    }
    const auto page = decompressed(body.subspan(static_cast<size_t>(levelsSize)),
                                   static_cast<int32_t>(valuesSize), h.is_compressed);
    appendValues(h.encoding, page, values);
  }

  const ColumnMetaData& meta_;
  const SchemaNode& leaf_;
  const ColumnChunkReadOptions& options_;
  ChunkBuffers& buffers_;
  ColumnChunkData& out_;
  /// The chunk's dictionary (in buffers_), once its page was read.
  const Dictionary* dictionary_ = nullptr;
  std::optional<uint64_t> pageOffset_;
  /// The level entries decoded at most: the chunk's num_values, or rowLimit.
  int64_t entryLimit_;
  /// A top-level optional column: one whose pages of nulls only need not be kept.
  bool topLevelOptional_;
};

/// A decompressed page or dictionary buffer larger than this is freed once its
/// chunk is decoded instead of being kept for the next chunk: a page holding one
/// value of hundreds of megabytes would otherwise stay beside the values decoded
/// from it while they are used (scan_memory does not keep such buffers for a later
/// reader either).
constexpr size_t kKeptBufferBytes = size_t{64} << 20;

void releaseLargeBuffers(ChunkBuffers& buffers) {
  if (buffers.pageCapacity > kKeptBufferBytes) {
    buffers.page.reset();
    buffers.pageCapacity = 0;
    buffers.pageMemory.release();
  }
  Dictionary& dictionary = buffers.dictionary;
  if (dictionary.bytes.capacity() + dictionary.fixed.capacity() > kKeptBufferBytes) {
    dictionary = Dictionary{};
  }
}

}  // namespace

ChunkRange columnChunkRange(const ColumnMetaData& meta) {
  int64_t start = meta.data_page_offset;
  // Some writers record a dictionary_page_offset of 0 for chunks without one,
  // and some a data_page_offset of 0 for chunks that start with their dictionary.
  // An offset inside the leading magic (below 4) is no offset at all.
  constexpr int64_t kFirstPageOffset = 4;
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset >= kFirstPageOffset &&
      (*meta.dictionary_page_offset < start || start < kFirstPageOffset)) {
    start = *meta.dictionary_page_offset;
  }
  return ChunkRange{static_cast<uint64_t>(std::max<int64_t>(start, 0)),
                    static_cast<uint64_t>(std::max<int64_t>(meta.total_compressed_size, 0))};
}

void decodeColumnChunkRuns(std::span<const PageRun> runs, bool whole, const ColumnMetaData& meta,
                           const SchemaNode& leaf, const ColumnChunkReadOptions& options,
                           const std::function<std::string()>& context, ChunkBuffers& buffers,
                           ColumnChunkData& out) {
  ChunkDecoder decoder(meta, leaf, options, buffers, out);
  try {
    for (const PageRun& run : runs) decoder.decodePages(run.bytes, run.fileOffset);
    releaseLargeBuffers(buffers);
    if (whole) decoder.finish();
  } catch (const CorruptFile& e) {
    const auto at = decoder.pageOffset();
    throw CorruptFile(context() + (at ? ", page at offset " + std::to_string(*at) : "") + ": " +
                      e.what());
  } catch (const Unsupported& e) {
    throw Unsupported(context() + ": " + e.what());
  } catch (const MemoryLimitExceeded& e) {
    throw MemoryLimitExceeded(context() + ": " + e.what() + "; use --memory-limit SIZE to raise the limit");
  }
}

void decodeColumnChunk(std::span<const uint8_t> bytes, uint64_t fileOffset,
                       const ColumnMetaData& meta, const SchemaNode& leaf,
                       const ColumnChunkReadOptions& options, const std::string& context,
                       ChunkBuffers& buffers, ColumnChunkData& out) {
  const PageRun run{bytes, fileOffset};
  decodeColumnChunkRuns({&run, 1}, true, meta, leaf, options, [&] { return context; }, buffers,
                        out);
}

ColumnChunkData decodeColumnChunk(std::span<const uint8_t> bytes, uint64_t fileOffset,
                                  const ColumnMetaData& meta, const SchemaNode& leaf,
                                  const ColumnChunkReadOptions& options,
                                  const std::string& context) {
  ChunkBuffers buffers;
  ColumnChunkData out;
  decodeColumnChunk(bytes, fileOffset, meta, leaf, options, context, buffers, out);
  return out;
}

}  // namespace quarry::parquet
