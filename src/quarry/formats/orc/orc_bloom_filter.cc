#include "quarry/formats/orc/orc_bloom_filter.h"

#include <cstdio>
#include <cstring>
#include <limits>

#include "quarry/formats/orc/orc_proto.pb.h"

namespace quarry::orc {
namespace {

/// More hash functions than this is not a filter any writer sizes (the default
/// false-positive rate gives 4).
constexpr uint32_t kMaxHashFunctions = 64;
/// A bit count that keeps (int) modulo arithmetic meaningful.
constexpr uint64_t kMaxWords = (uint64_t{1} << 31) / 64;

uint64_t rotateLeft(uint64_t v, int bits) {
  return (v << bits) | (v >> (64 - bits));
}

uint64_t fmix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

}  // namespace

std::vector<OrcBloomFilter> OrcBloomFilter::decodeIndex(std::span<const uint8_t> stream,
                                                        const std::string& context) {
  proto::BloomFilterIndex index;
  parseMessage(index, stream, context + " BLOOM_FILTER_UTF8");
  std::vector<OrcBloomFilter> out(static_cast<size_t>(index.bloomfilter_size()));
  for (int i = 0; i < index.bloomfilter_size(); ++i) {
    const proto::BloomFilter& f = index.bloomfilter(i);
    OrcBloomFilter& filter = out[static_cast<size_t>(i)];
    if (!f.has_numhashfunctions() || f.numhashfunctions() == 0 ||
        f.numhashfunctions() > kMaxHashFunctions)
      continue;
    if (f.has_utf8bitset()) {
      const std::string& bytes = f.utf8bitset();
      if (bytes.size() % 8 != 0 || bytes.size() / 8 > kMaxWords) continue;
      filter.bits_.resize(bytes.size() / 8);
      for (size_t w = 0; w < filter.bits_.size(); ++w) {
        uint64_t word = 0;
        for (int b = 7; b >= 0; --b)
          word = (word << 8) | static_cast<uint8_t>(bytes[w * 8 + static_cast<size_t>(b)]);
        filter.bits_[w] = word;
      }
    } else {
      if (static_cast<uint64_t>(f.bitset_size()) > kMaxWords) continue;
      filter.bits_.assign(f.bitset().begin(), f.bitset().end());
    }
    if (!filter.bits_.empty()) filter.numHashFunctions_ = f.numhashfunctions();
  }
  return out;
}

bool OrcBloomFilter::mightContain(uint64_t hash64) const {
  if (numHashFunctions_ == 0 || bits_.empty()) return true;
  const auto numBits = static_cast<int64_t>(bits_.size() * 64);
  const auto hash1 = static_cast<int32_t>(static_cast<uint32_t>(hash64));
  const auto hash2 = static_cast<int32_t>(static_cast<uint32_t>(hash64 >> 32));
  for (uint32_t i = 1; i <= numHashFunctions_; ++i) {
    // Java int arithmetic: wraps at 32 bits.
    auto combined =
        static_cast<int32_t>(static_cast<uint32_t>(hash1) + i * static_cast<uint32_t>(hash2));
    if (combined < 0) combined = ~combined;
    const int64_t position = combined % numBits;
    if ((bits_[static_cast<size_t>(position >> 6)] & (uint64_t{1} << (position & 63))) == 0)
      return false;
  }
  return true;
}

uint64_t OrcBloomFilter::longHash(int64_t value) {
  // Java long arithmetic: wrapping, with arithmetic (signed) right shifts.
  auto key = static_cast<uint64_t>(value);
  const auto sar = [](uint64_t v, int n) {
    return static_cast<uint64_t>(static_cast<int64_t>(v) >> n);
  };
  key = (~key) + (key << 21);
  key = key ^ sar(key, 24);
  key = (key + (key << 3)) + (key << 8);
  key = key ^ sar(key, 14);
  key = (key + (key << 2)) + (key << 4);
  key = key ^ sar(key, 28);
  key = key + (key << 31);
  return key;
}

uint64_t OrcBloomFilter::bytesHash(std::string_view bytes) {
  constexpr uint64_t c1 = 0x87c37b91114253d5ULL;
  constexpr uint64_t c2 = 0x4cf5ad432745937fULL;
  uint64_t hash = 104729;
  const size_t blocks = bytes.size() / 8;
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k = 0;
    for (int b = 7; b >= 0; --b)
      k = (k << 8) | static_cast<uint8_t>(bytes[i * 8 + static_cast<size_t>(b)]);
    k *= c1;
    k = rotateLeft(k, 31);
    k *= c2;
    hash ^= k;
    hash = rotateLeft(hash, 27) * 5 + 0x52dce729;
  }
  uint64_t k1 = 0;
  const size_t tail = blocks * 8;
  const size_t rest = bytes.size() - tail;
  for (size_t b = rest; b > 0; --b)
    k1 ^= static_cast<uint64_t>(static_cast<uint8_t>(bytes[tail + b - 1])) << (8 * (b - 1));
  if (rest > 0) {
    k1 *= c1;
    k1 = rotateLeft(k1, 31);
    k1 *= c2;
    hash ^= k1;
  }
  hash ^= bytes.size();
  return fmix64(hash);
}

bool bloomProvesAbsent(const OrcBloomFilter& filter, const OrcBoundNode& node) {
  const TypeKind kind = node.column->kind;
  switch (kind) {
    case TypeKind::kByte:
    case TypeKind::kShort:
    case TypeKind::kInt:
    case TypeKind::kLong:
    case TypeKind::kDate:
      for (const Int128 key : node.keys) {
        if (filter.mightContain(OrcBloomFilter::longHash(static_cast<int64_t>(key)))) return false;
      }
      return !node.keys.empty();
    case TypeKind::kFloat:
    case TypeKind::kDouble:
      for (const Int128 key : node.keys) {
        const auto k = static_cast<int64_t>(key);
        if (k == orcTotalOrderKey(std::numeric_limits<double>::quiet_NaN()))
          return false;  // NaN: not used
        // Undo the total-order transform: the key of a negative double has its magnitude bits
        // flipped.
        const int64_t bits = k < 0 ? k ^ std::numeric_limits<int64_t>::max() : k;
        if (filter.mightContain(OrcBloomFilter::longHash(bits))) return false;
      }
      return !node.keys.empty();
    case TypeKind::kString:
    case TypeKind::kVarchar:
    case TypeKind::kBinary:
      for (const std::string& key : node.byteKeys) {
        // Writers have differed on the sign of the trailing bytes (those after
        // the last 8-byte block) of Murmur3: a key with a high byte there is
        // not probed.
        for (size_t b = key.size() / 8 * 8; b < key.size(); ++b) {
          if (static_cast<uint8_t>(key[b]) >= 0x80) return false;
        }
        if (filter.mightContain(OrcBloomFilter::bytesHash(key))) return false;
      }
      return !node.byteKeys.empty();
    default:
      return false;
  }
}

bool bloomFiltersUsable(const OrcTail& tail) {
  const uint32_t writer = tail.footer.has_writer() ? tail.footer.writer() : 0;
  if (writer == 0) return true;   // ORC Java
  if (writer != 1) return false;  // writers whose hashing quarry has not checked
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(tail.footer.softwareversion().c_str(), "%d.%d.%d", &major, &minor, &patch) < 2)
    return false;
  if (major != 1) return major > 1;
  if (minor != 6) return minor > 6;
  return patch >= 12;
}

}  // namespace quarry::orc
