#include "quarry/formats/parquet/page_values.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/encoding/byte_stream_split_decoder.h"
#include "quarry/formats/parquet/encoding/delta_binary_packed_decoder.h"
#include "quarry/formats/parquet/encoding/delta_byte_array_decoder.h"
#include "quarry/formats/parquet/encoding/delta_length_byte_array_decoder.h"
#include "quarry/formats/parquet/encoding/dictionary.h"
#include "quarry/formats/parquet/encoding/plain_decoder.h"
#include "quarry/formats/parquet/encoding/rle_bit_packed_decoder.h"

namespace quarry::parquet {
namespace {

constexpr size_t kBatch = 1024;
/// Values a decoder whose count costs no bytes (RLE runs, DELTA headers) appends
/// at a time.
constexpr size_t kGrowBatch = size_t{1} << 16;

/// Charges, before anything is decoded, the room `count` values of `out`'s type
/// take: their width each, or a BYTE_ARRAY's offset (its bytes are charged as
/// they are appended, batch by batch).
void chargeValues(ColumnChunkData& out, size_t count) {
  out.memory.add(static_cast<uint64_t>(count) * (out.valueWidth != 0 ? out.valueWidth : sizeof(int64_t)),
                 "the values of a page");
}

[[noreturn]] void throwUnsupported(Encoding encoding, const SchemaNode& leaf) {
  throw Unsupported("the encoding " + toString(encoding) + " is not supported for " +
                    toString(*leaf.physicalType) + " values");
}

[[noreturn]] void throwShort(const char* what, size_t got, size_t wanted) {
  throw CorruptFile(std::string(what) + " holds " + std::to_string(got) + " values but the page needs " +
                    std::to_string(wanted));
}

[[noreturn]] void throwIndexOutOfRange(uint32_t index, size_t count) {
  throw CorruptFile("dictionary index " + std::to_string(index) + " is out of range for a dictionary of " +
                    std::to_string(count) + " values");
}

/// Grows `out`'s fixed-width value storage by `count` values and returns where they go.
uint8_t* growFixed(ColumnChunkData& out, size_t count) {
  const size_t at = out.fixedValues.size();
  out.fixedValues.resize(at + count * out.valueWidth);
  out.valueCount += static_cast<int64_t>(count);
  return out.fixedValues.data() + at;
}

/// Copies `n` bytes for the short values typical of string columns without a call
/// to memcpy: two fixed-size copies that may overlap cover any n in [4, 32] and
/// compile to plain loads and stores. Reads and writes stay within the n bytes.
inline void copyValue(uint8_t* dst, const char* src, size_t n) {
  if (n >= 16 && n <= 32) {
    std::memcpy(dst, src, 16);
    std::memcpy(dst + n - 16, src + n - 16, 16);
  } else if (n >= 8 && n < 16) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + n - 8, src + n - 8, 8);
  } else if (n >= 4 && n < 8) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + n - 4, src + n - 4, 4);
  } else if (n < 4) {
    for (size_t i = 0; i < n; ++i) dst[i] = static_cast<uint8_t>(src[i]);
  } else {
    std::memcpy(dst, src, n);
  }
}

/// Appends byte-array values given as views (copied: the views point into page
/// buffers or decoder state that do not outlive the page).
void appendViews(const std::string_view* views, size_t n, ColumnChunkData& out) {
  size_t total = 0;
  for (size_t i = 0; i < n; ++i) total += views[i].size();
  out.memory.add(total, "the values of a page");
  const size_t at = out.byteData.size();
  out.byteData.resize(at + total);
  uint8_t* dst = out.byteData.data() + at;
  const size_t firstOffset = out.offsets.size();
  out.offsets.resize(firstOffset + n);
  int64_t* offsets = out.offsets.data() + firstOffset;
  int64_t offset = static_cast<int64_t>(at);
  for (size_t i = 0; i < n; ++i) {
    copyValue(dst, views[i].data(), views[i].size());
    dst += views[i].size();
    offset += static_cast<int64_t>(views[i].size());
    offsets[i] = offset;
  }
  out.valueCount += static_cast<int64_t>(n);
}

/// Appends FIXED_LEN_BYTE_ARRAY values given as views, checking their width.
void appendFixedViews(const std::string_view* views, size_t n, ColumnChunkData& out) {
  uint8_t* dst = growFixed(out, n);
  for (size_t i = 0; i < n; ++i) {
    if (views[i].size() != out.valueWidth) {
      throw CorruptFile("a FIXED_LEN_BYTE_ARRAY(" + std::to_string(out.valueWidth) +
                        ") value has " + std::to_string(views[i].size()) + " bytes");
    }
    std::memcpy(dst, views[i].data(), out.valueWidth);
    dst += out.valueWidth;
  }
}

void appendPlain(std::span<const uint8_t> bytes, size_t count, ColumnChunkData& out) {
  // The fewest bytes `count` PLAIN values take: a bit per BOOLEAN, a 4-byte length
  // per BYTE_ARRAY, the width of any other. A count the bytes cannot hold is
  // refused before anything is allocated for it.
  const PhysicalType type = *out.leaf->physicalType;
  const uint64_t leastBits = type == PhysicalType::BOOLEAN      ? 1
                             : type == PhysicalType::BYTE_ARRAY ? 32
                                                                : 8 * uint64_t{out.valueWidth};
  if (leastBits > 0 && count > bytes.size() * uint64_t{8} / leastBits) {
    throw CorruptFile("PLAIN " + toString(type) + " values: the page declares " +
                      std::to_string(count) + " values, its " + std::to_string(bytes.size()) +
                      " bytes hold at most " + std::to_string(bytes.size() * uint64_t{8} / leastBits));
  }
  chargeValues(out, count);
  PlainDecoder plain(bytes);
  switch (*out.leaf->physicalType) {
    case PhysicalType::BOOLEAN: plain.decodeBooleans(growFixed(out, count), count); return;
    case PhysicalType::BYTE_ARRAY: {
      std::string_view views[kBatch];
      for (size_t done = 0; done < count;) {
        const size_t n = std::min(kBatch, count - done);
        plain.decodeByteArrays(views, n);
        appendViews(views, n, out);
        done += n;
      }
      return;
    }
    default: {
      // Every other type is fixed-width and stored as PLAIN lays it out.
      // Appended from the page in one copy, without zero-filling the room first.
      const auto src = plain.decodeFixedLenByteArrays(count, out.valueWidth);
      appendCopy(out.fixedValues, src.data(), src.size());
      out.valueCount += static_cast<int64_t>(count);
      return;
    }
  }
}

void appendDictionary(std::span<const uint8_t> bytes, size_t count, const Dictionary* dictionary,
                      ColumnChunkData& out) {
  if (dictionary == nullptr) {
    throw CorruptFile("a dictionary-encoded data page comes before any dictionary page");
  }
  RleBitPackedDecoder indices = dictionaryIndexDecoder(bytes);
  uint32_t idx[kBatch];
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kBatch, count - done);
    const size_t got = indices.getBatch(idx, n);
    if (got != n) throwShort("the dictionary index stream", done + got, count);
    if (out.valueWidth == 0) {
      std::string_view views[kBatch];
      for (size_t i = 0; i < n; ++i) {
        if (idx[i] >= dictionary->count) {
          throw CorruptFile("dictionary index " + std::to_string(idx[i]) +
                            " is out of range for a dictionary of " +
                            std::to_string(dictionary->count) + " values");
        }
        const int64_t begin = dictionary->offsets[idx[i]];
        views[i] = std::string_view(reinterpret_cast<const char*>(dictionary->bytes.data()) + begin,
                                    static_cast<size_t>(dictionary->offsets[idx[i] + 1] - begin));
      }
      appendViews(views, n, out);
    } else if (out.valueWidth == 4) {
      gather(reinterpret_cast<const uint32_t*>(dictionary->fixed.data()), dictionary->count, idx, n,
             reinterpret_cast<uint32_t*>(growFixed(out, n)));
    } else if (out.valueWidth == 8) {
      gather(reinterpret_cast<const uint64_t*>(dictionary->fixed.data()), dictionary->count, idx, n,
             reinterpret_cast<uint64_t*>(growFixed(out, n)));
    } else {
      const size_t w = out.valueWidth;
      for (size_t i = 0; i < n; ++i) {
        if (idx[i] >= dictionary->count) {
          throw CorruptFile("dictionary index " + std::to_string(idx[i]) +
                            " is out of range for a dictionary of " +
                            std::to_string(dictionary->count) + " values");
        }
      }
      uint8_t* dst = growFixed(out, n);
      for (size_t i = 0; i < n; ++i) std::memcpy(dst + i * w, dictionary->fixed.data() + idx[i] * w, w);
    }
    done += n;
  }
}

template <typename T>
void appendDeltaBinaryPacked(std::span<const uint8_t> bytes, size_t count, ColumnChunkData& out) {
  DeltaBinaryPackedDecoder<T> decoder(bytes);
  if (decoder.valueCount() < count) throwShort("the DELTA_BINARY_PACKED header", decoder.valueCount(), count);
  // A header's count costs no bytes: grown batch by batch, so a stream that ends
  // early is refused before room is made for the rest.
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kGrowBatch, count - done);
    const size_t got = decoder.getBatch(reinterpret_cast<T*>(growFixed(out, n)), n);
    if (got != n) throwShort("the DELTA_BINARY_PACKED stream", done + got, count);
    done += n;
  }
}

template <typename Decoder>
void appendByteArrays(Decoder& decoder, size_t count, ColumnChunkData& out) {
  if (decoder.valueCount() < count) throwShort("the delta header", decoder.valueCount(), count);
  std::string_view views[kBatch];
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kBatch, count - done);
    const size_t got = decoder.getBatch(views, n);
    if (got != n) throwShort("the delta stream", done + got, count);
    if (out.valueWidth == 0) {
      appendViews(views, n, out);
    } else {
      appendFixedViews(views, n, out);
    }
    done += n;
  }
}

void appendRleBooleans(std::span<const uint8_t> bytes, size_t count, ColumnChunkData& out) {
  auto decoder = RleBitPackedDecoder::withLengthPrefix(bytes, 1);
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kGrowBatch, count - done);
    const size_t got = decoder.getBatch(growFixed(out, n), n);
    if (got != n) throwShort("the RLE boolean stream", done + got, count);
    done += n;
  }
}

void appendByteStreamSplit(std::span<const uint8_t> bytes, size_t count, ColumnChunkData& out) {
  ByteStreamSplitDecoder decoder(bytes, out.valueWidth);
  if (decoder.valueCount() < count) throwShort("the BYTE_STREAM_SPLIT data", decoder.valueCount(), count);
  const size_t got = decoder.getBatch(growFixed(out, count), count);
  if (got != count) throwShort("the BYTE_STREAM_SPLIT data", got, count);
}

}  // namespace

size_t valueWidthOf(const SchemaNode& leaf) {
  switch (*leaf.physicalType) {
    case PhysicalType::BOOLEAN: return 1;
    case PhysicalType::INT32: return 4;
    case PhysicalType::INT64: return 8;
    case PhysicalType::INT96: return 12;
    case PhysicalType::FLOAT: return 4;
    case PhysicalType::DOUBLE: return 8;
    case PhysicalType::BYTE_ARRAY: return 0;
    case PhysicalType::FIXED_LEN_BYTE_ARRAY: return static_cast<size_t>(leaf.typeLength);
  }
  return 0;
}

void decodeDictionary(std::span<const uint8_t> page, int64_t numValues, const SchemaNode& leaf,
                      Dictionary& out) {
  if (numValues < 0) {
    throw CorruptFile("the dictionary page header claims " + std::to_string(numValues) + " values");
  }
  // Every PLAIN value takes at least one byte (a bit for BOOLEAN, which has no
  // dictionary in practice), so a count above the page size cannot be true and
  // must not size an allocation.
  const bool boolean = *leaf.physicalType == PhysicalType::BOOLEAN;
  if (static_cast<uint64_t>(numValues) > (boolean ? page.size() * 8 : page.size()) &&
      !(valueWidthOf(leaf) == 0 && *leaf.physicalType == PhysicalType::FIXED_LEN_BYTE_ARRAY)) {
    throw CorruptFile("the dictionary page header claims " + std::to_string(numValues) +
                      " values, more than its " + std::to_string(page.size()) + " bytes can hold");
  }
  // Decoded as a chunk's values are, into out's vectors (their memory reused).
  ColumnChunkData scratch;
  out.memory.release();
  scratch.leaf = &leaf;
  scratch.valueWidth = valueWidthOf(leaf);
  scratch.fixedValues = std::move(out.fixed);
  scratch.offsets = std::move(out.offsets);
  scratch.byteData = std::move(out.bytes);
  scratch.fixedValues.clear();
  scratch.offsets.clear();
  scratch.byteData.clear();
  if (scratch.valueWidth == 0) scratch.offsets.push_back(0);
  appendPlain(page, static_cast<size_t>(numValues), scratch);
  out.count = static_cast<size_t>(numValues);
  out.width = scratch.valueWidth;
  out.fixed = std::move(scratch.fixedValues);
  out.offsets = std::move(scratch.offsets);
  out.bytes = std::move(scratch.byteData);
  out.memory = std::move(scratch.memory);
}

Dictionary decodeDictionary(std::span<const uint8_t> page, int64_t numValues, const SchemaNode& leaf) {
  Dictionary dictionary;
  decodeDictionary(page, numValues, leaf, dictionary);
  return dictionary;
}

void appendPageValues(Encoding encoding, std::span<const uint8_t> bytes, size_t count,
                      const Dictionary* dictionary, ColumnChunkData& out) {
  const PhysicalType type = *out.leaf->physicalType;
  if (encoding != Encoding::PLAIN) chargeValues(out, count);  // appendPlain checks the count first
  switch (encoding) {
    case Encoding::PLAIN: return appendPlain(bytes, count, out);
    case Encoding::PLAIN_DICTIONARY:
    case Encoding::RLE_DICTIONARY: return appendDictionary(bytes, count, dictionary, out);
    case Encoding::RLE:
      if (type == PhysicalType::BOOLEAN) return appendRleBooleans(bytes, count, out);
      break;
    case Encoding::DELTA_BINARY_PACKED:
      if (type == PhysicalType::INT32) return appendDeltaBinaryPacked<int32_t>(bytes, count, out);
      if (type == PhysicalType::INT64) return appendDeltaBinaryPacked<int64_t>(bytes, count, out);
      break;
    case Encoding::DELTA_LENGTH_BYTE_ARRAY:
      if (type == PhysicalType::BYTE_ARRAY) {
        DeltaLengthByteArrayDecoder decoder(bytes);
        return appendByteArrays(decoder, count, out);
      }
      break;
    case Encoding::DELTA_BYTE_ARRAY:
      if (type == PhysicalType::BYTE_ARRAY || type == PhysicalType::FIXED_LEN_BYTE_ARRAY) {
        DeltaByteArrayDecoder decoder(bytes);
        return appendByteArrays(decoder, count, out);
      }
      break;
    case Encoding::BYTE_STREAM_SPLIT:
      if (type == PhysicalType::FLOAT || type == PhysicalType::DOUBLE || type == PhysicalType::INT32 ||
          type == PhysicalType::INT64 || type == PhysicalType::FIXED_LEN_BYTE_ARRAY) {
        return appendByteStreamSplit(bytes, count, out);
      }
      break;
    default: break;
  }
  throwUnsupported(encoding, *out.leaf);
}

void appendDictionaryIds(std::span<const uint8_t> bytes, size_t count, ColumnChunkData& out) {
  const size_t dictionaryCount = out.dictionary->count;
  RleBitPackedDecoder indices = dictionaryIndexDecoder(bytes);
  out.memory.add(static_cast<uint64_t>(count) * sizeof(uint32_t), "the dictionary indices of a page");
  const size_t at = out.dictionaryIds.size();
  out.dictionaryIds.resize(at + count);
  uint32_t* ids = out.dictionaryIds.data() + at;
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kBatch, count - done);
    const size_t got = indices.getBatch(ids + done, n);
    if (got != n) {
      out.dictionaryIds.resize(at);
      throwShort("the dictionary index stream", done + got, count);
    }
    // Indices are untrusted: one max-reduction per batch (vectorized), before any is used.
    uint32_t highest = 0;
    for (size_t i = 0; i < n; ++i) highest = std::max(highest, ids[done + i]);
    if (n > 0 && highest >= dictionaryCount) {
      out.dictionaryIds.resize(at);
      throwIndexOutOfRange(highest, dictionaryCount);
    }
    done += n;
  }
  out.valueCount += static_cast<int64_t>(count);
}

void materializeDictionaryIds(ColumnChunkData& out) {
  if (!out.dictionary) return;
  const std::shared_ptr<const Dictionary> dictionary = std::move(out.dictionary);
  out.dictionary.reset();
  const RawVector<uint32_t> ids = std::move(out.dictionaryIds);
  out.dictionaryIds.clear();
  out.offsets.clear();
  out.byteData.clear();
  out.offsets.push_back(0);
  out.valueCount = 0;
  std::string_view views[kBatch];
  for (size_t done = 0; done < ids.size();) {
    const size_t n = std::min(kBatch, ids.size() - done);
    for (size_t i = 0; i < n; ++i) views[i] = dictionary->entry(ids[done + i]);  // checked when decoded
    appendViews(views, n, out);
    done += n;
  }
}

}  // namespace quarry::parquet
