#include "quarry/formats/parquet/bloom_filter.h"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/column_keys.h"
#include "quarry/formats/parquet/metadata_decoder.h"

namespace quarry::parquet {
namespace {

using Reader = BoundNode::Reader;
using Compare = BoundNode::Compare;

constexpr size_t kBlockBytes = 32;
constexpr std::array<uint32_t, 8> kSalt = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                           0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
/// A BloomFilterHeader is four small fields; this many bytes hold it with room to
/// spare for fields a later format version may add.
constexpr uint64_t kHeaderGuess = 64;
constexpr uint64_t kHeaderMax = 4096;

template <typename T>
std::string plainOf(T value) {
  std::string out(sizeof value, '\0');
  std::memcpy(out.data(), &value, sizeof value);  // little endian, as PLAIN stores it
  return out;
}

/// Inverts totalOrderKey for a non-NaN key.
double fromTotalOrderKey(int64_t key) {
  const int64_t bits = key < 0 ? key ^ std::numeric_limits<int64_t>::max() : key;
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// Sign-extends a big-endian two's-complement integer to `width` bytes.
std::optional<std::string> signExtended(const std::string& bytes, size_t width) {
  if (bytes.size() > width) return std::nullopt;
  const bool negative = !bytes.empty() && (static_cast<uint8_t>(bytes[0]) & 0x80);
  return std::string(width - bytes.size(), negative ? '\xff' : '\0') + bytes;
}

}  // namespace

BloomFilter::BloomFilter(std::vector<uint8_t> bitset) : bitset_(std::move(bitset)) {
  if (bitset_.empty() || bitset_.size() % kBlockBytes != 0) {
    throw InvalidArgument("a Bloom filter bitset takes a positive multiple of 32 bytes, not " +
                          std::to_string(bitset_.size()));
  }
}

namespace {

/// The block of `hash` and the bit each of its eight words tests.
struct Probe {
  size_t block;
  std::array<uint32_t, 8> mask;
};

Probe probeOf(uint64_t hash, size_t blocks) {
  Probe p{};
  p.block = static_cast<size_t>(((hash >> 32) * blocks) >> 32);
  const auto key = static_cast<uint32_t>(hash);
  for (size_t i = 0; i < 8; ++i) p.mask[i] = uint32_t{1} << ((key * kSalt[i]) >> 27);
  return p;
}

/// Whether the 32-byte `block` has every bit of `p` set.
bool blockHas(const uint8_t* block, const Probe& p) {
  for (size_t i = 0; i < 8; ++i) {
    if ((loadLittleEndian<uint32_t>(block + 4 * i) & p.mask[i]) == 0) return false;
  }
  return true;
}

}  // namespace

bool BloomFilter::mightContain(uint64_t hash) const {
  const Probe p = probeOf(hash, bitset_.size() / kBlockBytes);
  return blockHas(bitset_.data() + p.block * kBlockBytes, p);
}

void BloomFilter::insert(uint64_t hash) {
  const Probe p = probeOf(hash, bitset_.size() / kBlockBytes);
  uint8_t* block = bitset_.data() + p.block * kBlockBytes;
  for (size_t i = 0; i < 8; ++i) {
    const uint32_t word = loadLittleEndian<uint32_t>(block + 4 * i) | p.mask[i];
    std::memcpy(block + 4 * i, &word, 4);
  }
}

uint64_t bloomHash(std::string_view plain) { return XXH64(plain.data(), plain.size(), 0); }

std::optional<std::vector<std::string>> bloomProbeValues(const BoundNode& node) {
  if (node.kind != BoundNode::Kind::kCompare || node.node == nullptr || !node.node->isLeaf() ||
      (node.compare != Compare::kEq && node.compare != Compare::kIn)) {
    return std::nullopt;
  }
  const PhysicalType physical = *node.node->physicalType;
  std::vector<std::string> out;
  switch (node.reader) {
    case Reader::kInt32:
    case Reader::kInt64:
      for (const int64_t k : node.signedKeys) {
        if (physical == PhysicalType::INT32) out.push_back(plainOf(static_cast<int32_t>(k)));
        else if (physical == PhysicalType::INT64) out.push_back(plainOf(k));
        else return std::nullopt;
      }
      return out;
    case Reader::kUInt32:
    case Reader::kUInt64:
      for (const uint64_t k : node.unsignedKeys) {
        if (physical == PhysicalType::INT32) out.push_back(plainOf(static_cast<uint32_t>(k)));
        else if (physical == PhysicalType::INT64) out.push_back(plainOf(k));
        else return std::nullopt;
      }
      return out;
    case Reader::kFloat:
    case Reader::kDouble:
      for (const int64_t k : node.signedKeys) {
        // A NaN literal matches every NaN encoding; the filter holds only the ones stored.
        if (k == kNaNKey) return std::nullopt;
        const double v = fromTotalOrderKey(k);
        if (physical == PhysicalType::FLOAT) out.push_back(plainOf(static_cast<float>(v)));
        else if (physical == PhysicalType::DOUBLE) out.push_back(plainOf(v));
        else return std::nullopt;
      }
      return out;
    case Reader::kBytes:
      if (physical == PhysicalType::BOOLEAN) return std::nullopt;
      return node.byteKeys;
    case Reader::kDecimalBytes:
      // A Decimal on BYTE_ARRAY matches any padding of the number; a fixed width has one.
      if (physical != PhysicalType::FIXED_LEN_BYTE_ARRAY) return std::nullopt;
      for (const std::string& k : node.byteKeys) {
        auto fixed = signExtended(k, static_cast<size_t>(node.node->typeLength));
        if (!fixed) return std::nullopt;
        out.push_back(std::move(*fixed));
      }
      return out;
    case Reader::kBoolean:
    case Reader::kFloat16:
    case Reader::kInt96Nanos:
    case Reader::kFixed12Nanos: return std::nullopt;
  }
  return std::nullopt;
}

namespace {

/// Where a chunk's filter lies: its offset, and how many bytes it may span (its
/// recorded length, else up to the end of the file).
struct FilterPlace {
  std::string context;
  uint64_t start = 0;
  uint64_t limit = 0;
  bool lengthKnown = false;
};

/// Throws CorruptFile for an offset or a length outside the file.
FilterPlace placeOf(io::StorageObject& file, int rowGroup, const ColumnMetaData& meta,
                    const SchemaNode& leaf) {
  FilterPlace place;
  place.context = file.uri() + ": row group " + std::to_string(rowGroup) + ", column '" +
                  leaf.path + "': Bloom filter";
  const uint64_t size = file.size();
  const int64_t offset = *meta.bloom_filter_offset;
  if (offset < 0 || static_cast<uint64_t>(offset) >= size) {
    throw CorruptFile(place.context + ": bloom_filter_offset lies outside the file of " +
                      std::to_string(size) + " bytes: " + std::to_string(offset));
  }
  place.start = static_cast<uint64_t>(offset);
  place.limit = size - place.start;
  if (meta.bloom_filter_length) {
    const int64_t length = *meta.bloom_filter_length;
    if (length <= 0 || static_cast<uint64_t>(length) > place.limit) {
      throw CorruptFile(place.context + ": bloom_filter_length runs past the end of the file (" +
                        std::to_string(place.limit) + " bytes remain at offset " +
                        std::to_string(offset) + "): " + std::to_string(length));
    }
    place.limit = static_cast<uint64_t>(length);
    place.lengthKnown = true;
  }
  return place;
}

/// Whether `header` describes a filter the spec defines (else the filter is not
/// used); throws CorruptFile for a bitset that is not a positive multiple of 32
/// bytes within the place's span after a header of `headerSize` bytes.
bool usable(const BloomFilterHeader& header, uint32_t headerSize, const FilterPlace& place) {
  if (header.algorithm != 1 || header.hash != 1 || header.compression != 1) return false;
  if (header.numBytes <= 0 || header.numBytes % kBlockBytes != 0 ||
      static_cast<uint64_t>(header.numBytes) > place.limit - headerSize) {
    throw CorruptFile(place.context + " at offset " + std::to_string(place.start) +
                      ": the bitset must be a positive multiple of 32 bytes within the " +
                      std::to_string(place.limit - headerSize) +
                      " bytes after its header, numBytes is " + std::to_string(header.numBytes));
  }
  return true;
}

/// Decodes the header at the start of `bytes` (read from the place's start);
/// without a recorded length, a header longer than `bytes` is read again whole.
BloomFilterHeader readHeader(io::StorageObject& file, const FilterPlace& place,
                             std::vector<uint8_t>& bytes, uint32_t& headerSize) {
  for (;;) {
    try {
      return decodeBloomFilterHeader(bytes, headerSize);
    } catch (const CorruptFile& e) {
      const uint64_t more = std::min(kHeaderMax, place.limit);
      if (place.lengthKnown || bytes.size() >= more) {
        throw CorruptFile(place.context + " header at offset " + std::to_string(place.start) +
                          ": " + e.what());
      }
      bytes.resize(more);
      file.readAt(place.start, bytes);
    }
  }
}

/// The distinct blocks, of `blocks`, that `hashes` fall in.
std::vector<size_t> blocksOf(std::span<const uint64_t> hashes, size_t blocks) {
  std::vector<size_t> out;
  for (const uint64_t h : hashes) out.push_back(probeOf(h, blocks).block);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// A block of a filter as read.
using Block = std::array<uint8_t, kBlockBytes>;

/// Whether any of `hashes` may be in a filter of `blocks` blocks, of which
/// `read[i]` holds block `which[i]`.
bool anyMayBePresent(std::span<const uint64_t> hashes, size_t blocks, const std::vector<size_t>& which,
                     const std::vector<Block>& read) {
  for (const uint64_t h : hashes) {
    const Probe p = probeOf(h, blocks);
    const auto i = std::lower_bound(which.begin(), which.end(), p.block) - which.begin();
    if (blockHas(read[static_cast<size_t>(i)].data(), p)) return true;
  }
  return false;
}

/// Reads blocks `which` of a bitset starting at `bitsetStart`, with the extra
/// ranges `also` in the same batch.
std::vector<Block> readBlocks(io::StorageObject& file, uint64_t bitsetStart, const std::vector<size_t>& which,
                              std::vector<io::ReadRange> also = {}) {
  std::vector<Block> read(which.size());
  for (size_t i = 0; i < which.size(); ++i) {
    also.push_back({bitsetStart + which[i] * kBlockBytes, std::span<uint8_t>(read[i])});
  }
  file.readRanges(also);
  return read;
}

}  // namespace

std::optional<BloomFilter> readBloomFilter(io::StorageObject& file, int rowGroup,
                                           const ColumnMetaData& meta, const SchemaNode& leaf) {
  if (!meta.bloom_filter_offset) return std::nullopt;
  const FilterPlace place = placeOf(file, rowGroup, meta, leaf);
  std::vector<uint8_t> bytes(place.lengthKnown ? place.limit : std::min(kHeaderGuess, place.limit));
  file.readAt(place.start, bytes);
  uint32_t headerSize = 0;
  const BloomFilterHeader header = readHeader(file, place, bytes, headerSize);
  if (!usable(header, headerSize, place)) return std::nullopt;
  const size_t end = headerSize + static_cast<size_t>(header.numBytes);
  if (bytes.size() < end) {
    const size_t have = bytes.size();
    bytes.resize(end);
    file.readAt(place.start + have, std::span<uint8_t>(bytes).subspan(have));
  }
  return BloomFilter(std::vector<uint8_t>(bytes.begin() + headerSize, bytes.begin() + static_cast<std::ptrdiff_t>(end)));
}

uint64_t bloomProbeBytes(const ColumnMetaData& meta, size_t hashes) {
  const uint64_t blocks = kBlockBytes * hashes;
  if (!meta.bloom_filter_length) return kHeaderGuess + blocks;
  const auto length = static_cast<uint64_t>(std::max<int32_t>(*meta.bloom_filter_length, 0));
  return std::min(length, length % kBlockBytes + blocks);
}

std::optional<bool> bloomFilterMayContain(io::StorageObject& file, int rowGroup,
                                          const ColumnMetaData& meta, const SchemaNode& leaf,
                                          std::span<const uint64_t> hashes) {
  if (!meta.bloom_filter_offset) return std::nullopt;
  const auto whole = [&]() -> std::optional<bool> {
    const auto filter = readBloomFilter(file, rowGroup, meta, leaf);
    if (!filter) return std::nullopt;
    return std::any_of(hashes.begin(), hashes.end(), [&](uint64_t h) { return filter->mightContain(h); });
  };
  const FilterPlace place = placeOf(file, rowGroup, meta, leaf);
  if (place.lengthKnown) {
    // Writers put a header of a few bytes before a bitset of 32-byte blocks, so
    // the length's remainder modulo 32 is the header's size: the header and the
    // blocks the hashes fall in go out in one batch, and the header confirms the
    // guess. A filter not much larger than those blocks is read whole.
    const uint64_t headerGuess = place.limit % kBlockBytes;
    const uint64_t blockCount = (place.limit - headerGuess) / kBlockBytes;
    if (headerGuess == 0 || blockCount == 0) return whole();
    const std::vector<size_t> which = blocksOf(hashes, blockCount);
    if (2 * (headerGuess + kBlockBytes * which.size()) >= place.limit) return whole();
    std::vector<uint8_t> bytes(headerGuess);
    const auto read = readBlocks(file, place.start + headerGuess, which, {{place.start, bytes}});
    uint32_t headerSize = 0;
    BloomFilterHeader header;
    try {
      header = decodeBloomFilterHeader(bytes, headerSize);
    } catch (const CorruptFile&) {
      return whole();  // a longer header than guessed (or a corrupt one: reported there)
    }
    if (headerSize != headerGuess || header.numBytes != static_cast<int32_t>(place.limit - headerGuess)) {
      return whole();
    }
    if (!usable(header, headerSize, place)) return std::nullopt;
    return anyMayBePresent(hashes, blockCount, which, read);
  }
  // Without a length: the header (a guess of its size), then the blocks.
  std::vector<uint8_t> bytes(std::min(kHeaderGuess, place.limit));
  file.readAt(place.start, bytes);
  uint32_t headerSize = 0;
  const BloomFilterHeader header = readHeader(file, place, bytes, headerSize);
  if (!usable(header, headerSize, place)) return std::nullopt;
  const size_t blockCount = static_cast<size_t>(header.numBytes) / kBlockBytes;
  const std::vector<size_t> which = blocksOf(hashes, blockCount);
  return anyMayBePresent(hashes, blockCount, which, readBlocks(file, place.start + headerSize, which));
}

}  // namespace quarry::parquet
