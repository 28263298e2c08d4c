// COUNT_DISTINCT: the distinct (group, value) pairs of every group in one
// open-addressing table, and a count per group that grows when a pair is new.
//
// Values of a fixed width of at most 8 bytes (integers, dates, times, timestamps,
// doubles, booleans) are kept as 64-bit words: their storage bits, zero-extended
// (doubles canonical: -0.0 as +0.0, every NaN as one quiet NaN). Other values
// (string, binary, uuid, decimal) are kept as their canonical bytes in one arena,
// with their hash. A dictionary block hashes each dictionary entry once, not each
// row; consecutive equal rows of one group are inserted once.
//
// Rows are hashed a page at a time, then inserted with the slot of a row a few
// rows ahead prefetched: once the table outgrows the caches (COUNT_DISTINCT of a
// user id over millions of rows), the probes' cache misses overlap instead of
// following one another.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/common/growable_bytes.h"
#include "quarry/common/huge_page_vector.h"
#include "quarry/engine/data/key_hash.h"
#include "quarry/engine/expr/aggregate_families.h"
#include "quarry/engine/expr/aggregator_columns.h"

namespace quarry::engine {

namespace {

using key_hash::hashBytes;
using key_hash::keysEqual;
using key_hash::mix;

constexpr uint32_t kEmpty = UINT32_MAX;
/// How many rows ahead of the insert the probe's slot is prefetched.
constexpr size_t kPrefetchDistance = 16;

template <typename T>
void appendRaw(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

uint32_t readUInt32(std::string_view bytes, size_t& offset, const std::string& name) {
  if (bytes.size() - offset < 4) {
    throw CorruptFile("COUNT_DISTINCT (" + name + "): a truncated intermediate value set at byte " +
                      std::to_string(offset) + " of " + std::to_string(bytes.size()));
  }
  uint32_t v;
  std::memcpy(&v, bytes.data() + offset, 4);
  offset += 4;
  return v;
}

/// The width of a kind kept as a word (1 to 8 bytes; 0 for the null kind, which has
/// no values), or SIZE_MAX for a kind kept as bytes.
size_t wordWidth(const DataType& type) {
  if (type.kind == TypeKind::kNull) return 0;
  if (type.isBytes()) return SIZE_MAX;
  size_t width = SIZE_MAX;
  withFixedStorage(type.kind, [&](auto zero) { width = sizeof(zero); });
  return width <= 8 ? width : SIZE_MAX;
}

/// A group and a value's hash as one probe hash.
inline uint64_t withGroup(uint64_t valueHash, uint32_t group) {
  return group == 0 ? valueHash : mix(valueHash ^ (uint64_t{group} * 0x9E3779B97F4A7C15ULL));
}

/// The words of a fixed-width block's rows: storage bits zero-extended, doubles canonical.
template <typename T>
void wordsOf(const Block& block, std::vector<uint64_t>& words) {
  const std::span<const T> values = block.values<T>();
  words.resize(values.size());
  for (size_t r = 0; r < values.size(); ++r) {
    T v = values[r];
    if constexpr (std::is_same_v<T, double>) {
      if (v == 0.0) v = 0.0;                                            // -0.0 counts as +0.0
      if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();  // every NaN is one value
    }
    uint64_t word = 0;
    if constexpr (sizeof(T) <= 8) std::memcpy(&word, &v, sizeof(T));
    words[r] = word;
  }
}

class CountDistinctAggregator final : public Aggregator {
 public:
  explicit CountDistinctAggregator(const AggregateSpec& spec)
      : spec_(spec), width_(wordWidth(spec.inputType)) {
    if (width_ == SIZE_MAX) {
      bytesSlots_.assign(kInitialSlots, BytesSlot{});
    } else {
      wordSlots_.assign(kInitialSlots, WordSlot{});
    }
    mask_ = kInitialSlots - 1;
  }

  void resize(size_t groups) override {
    counts_.resize(groups, 0);
    seen_.resize(groups, 0);
  }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& block = page.block(spec_.inputChannel);
    const size_t rows = block.size();
    for (size_t r = 0; r < rows; ++r) seen_[groupIds[r]] = 1;
    if (width_ == 0) return;  // the null kind: no values
    if (width_ != SIZE_MAX) {
      addWords(block, groupIds);
    } else if (block.isDictionary()) {
      addDictionary(block, groupIds);
    } else {
      addBytes(block, groupIds);
    }
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& values = page.block(spec_.inputChannel);
    const Block& seen = page.block(spec_.inputChannel + 1);
    words_.clear();
    wordGroups_.clear();
    views_.clear();
    for (size_t r = 0; r < page.positionCount(); ++r) {
      if (flagAt(seen, r)) seen_[groupIds[r]] = 1;
      if (values.isNull(r)) continue;
      const std::string_view bytes = values.bytes(r);
      size_t offset = 0;
      const uint32_t count = readUInt32(bytes, offset, spec_.name);
      for (uint32_t k = 0; k < count; ++k) {
        const uint32_t length = readUInt32(bytes, offset, spec_.name);
        if (bytes.size() - offset < length) {
          throw CorruptFile("COUNT_DISTINCT (" + spec_.name + "): a value of " +
                            std::to_string(length) +
                            " bytes past the end of its intermediate set at byte " +
                            std::to_string(offset) + " of " + std::to_string(bytes.size()));
        }
        const char* value = bytes.data() + offset;
        if (width_ == SIZE_MAX) {
          views_.emplace_back(value, length);
          wordGroups_.push_back(groupIds[r]);
        } else {
          if (length != width_) {
            throw CorruptFile("COUNT_DISTINCT (" + spec_.name + "): a value of " +
                              std::to_string(length) + " bytes in an intermediate set of " +
                              spec_.inputType.toString() + " values, which take " +
                              std::to_string(width_) + " bytes");
          }
          uint64_t word = 0;
          std::memcpy(&word, value, length);
          words_.push_back(word);
          wordGroups_.push_back(groupIds[r]);
        }
        offset += length;
      }
    }
    if (width_ == SIZE_MAX) {
      // The values in one batch: hashed, then inserted with prefetching.
      hashes_.resize(views_.size());
      for (size_t i = 0; i < views_.size(); ++i)
        hashes_[i] = withGroup(hashBytes(views_[i].data(), views_[i].size()), wordGroups_[i]);
      for (size_t i = 0; i < views_.size(); ++i) {
        if (i + kPrefetchDistance < views_.size())
          __builtin_prefetch(&bytesSlots_[hashes_[i + kPrefetchDistance] & mask_]);
        insertBytes(hashes_[i], views_[i].data(), views_[i].size(), wordGroups_[i]);
      }
      return;
    }
    if (words_.empty()) return;
    // The words in one batch: room made once, hashed, then inserted with prefetching.
    size_t slots = wordSlots_.size();
    while ((filled_ + words_.size()) * 2 > slots) slots *= 2;
    if (slots != wordSlots_.size()) growWords(slots);
    hashes_.resize(words_.size());
    for (size_t i = 0; i < words_.size(); ++i)
      hashes_[i] = withGroup(mix(words_[i]), wordGroups_[i]);
    for (size_t i = 0; i < words_.size(); ++i) {
      if (i + kPrefetchDistance < words_.size()) {
        __builtin_prefetch(&wordSlots_[hashes_[i + kPrefetchDistance] & mask_]);
      }
      insertWord(words_[i], wordGroups_[i], hashes_[i]);
    }
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    const size_t groups = counts_.size();
    // The slots of each group together (a counting sort by group), each group's values
    // in the table's order: the merge inserts them into a table again, so no order
    // is owed (sorting them cost Q06's COUNT_DISTINCT(SearchPhrase) half its time).
    std::vector<uint64_t> starts(groups + 1, 0);
    for (size_t g = 0; g < groups; ++g)
      starts[g + 1] = starts[g] + static_cast<uint64_t>(counts_[g]);
    std::vector<uint64_t> cursor(starts.begin(), starts.end() - 1);
    std::vector<uint64_t> order(starts[groups]);
    const size_t slots = width_ == SIZE_MAX ? bytesSlots_.size() : wordSlots_.size();
    for (size_t i = 0; i < slots; ++i) {
      const uint32_t group = width_ == SIZE_MAX ? bytesSlots_[i].group : wordSlots_[i].group;
      if (group != kEmpty) order[cursor[group]++] = i;
    }
    Block values(DataType::binary());
    values.reserve(groups);
    std::string buffer;
    for (size_t g = 0; g < groups; ++g) {
      const auto begin = order.begin() + static_cast<ptrdiff_t>(starts[g]);
      const auto end = order.begin() + static_cast<ptrdiff_t>(starts[g + 1]);
      buffer.clear();
      appendRaw(buffer, static_cast<uint32_t>(end - begin));
      if (width_ == SIZE_MAX) {
        size_t size = 4;
        for (auto it = begin; it != end; ++it) size += 4 + bytesSlots_[*it].length;
        buffer.reserve(size);
        for (auto it = begin; it != end; ++it) {
          const std::string_view v = valueOf(*it);
          appendRaw(buffer, static_cast<uint32_t>(v.size()));
          buffer.append(v);
        }
      } else {
        buffer.reserve(4 + static_cast<size_t>(end - begin) * (4 + width_));
        const uint32_t length = static_cast<uint32_t>(width_);
        for (auto it = begin; it != end; ++it) {
          char bytes[12];
          std::memcpy(bytes, &length, 4);
          std::memcpy(bytes + 4, &wordSlots_[*it].word, 8);
          buffer.append(bytes, 4 + width_);
        }
      }
      values.appendBytes(buffer);
    }
    out.push_back(std::move(values));
    out.push_back(booleanBlock(seen_));
  }

  Block writeFinal() const override {
    Block out(DataType::int64());
    out.reserve(counts_.size());
    for (int64_t count : counts_) out.append<int64_t>(count);
    return out;
  }

 private:
  static constexpr size_t kInitialSlots = 64;

  struct WordSlot {
    uint64_t word = 0;
    uint32_t group = kEmpty;
  };
  struct BytesSlot {
    uint64_t hash = 0;
    uint64_t offset = 0;  // into arena_
    uint32_t length = 0;
    uint32_t group = kEmpty;
  };

  std::string_view valueOf(uint64_t slot) const {
    const BytesSlot& s = bytesSlots_[slot];
    return std::string_view(arena_.data() + s.offset, s.length);
  }

  void addWords(const Block& block, std::span<const uint32_t> groupIds) {
    withFixedStorage(block.type().kind, [&](auto zero) { wordsOf<decltype(zero)>(block, words_); });
    const size_t rows = words_.size();
    hashes_.resize(rows);
    for (size_t r = 0; r < rows; ++r) hashes_[r] = withGroup(mix(words_[r]), groupIds[r]);
    const bool nulls = block.hasNulls();
    uint64_t lastWord = 0;
    uint32_t lastGroup = kEmpty;
    for (size_t r = 0; r < rows; ++r) {
      if (r + kPrefetchDistance < rows)
        __builtin_prefetch(&wordSlots_[hashes_[r + kPrefetchDistance] & mask_]);
      if (nulls && block.isNull(r)) continue;
      if (words_[r] == lastWord && groupIds[r] == lastGroup)
        continue;  // runs of one value (sorted data)
      lastWord = words_[r];
      lastGroup = groupIds[r];
      insertWord(words_[r], groupIds[r], hashes_[r]);
    }
  }

  /// A bytes block's values, or a decimal block's 16-byte storage values, as bytes.
  static std::string_view bytesOf(const Block& block, size_t r) {
    if (block.type().isBytes()) return block.bytes(r);
    const std::span<const Int128> values = block.values<Int128>();
    return std::string_view(reinterpret_cast<const char*>(&values[r]), sizeof(Int128));
  }

  void addBytes(const Block& block, std::span<const uint32_t> groupIds) {
    const size_t rows = block.size();
    hashes_.resize(rows);
    for (size_t r = 0; r < rows; ++r) {
      const std::string_view v = bytesOf(block, r);
      hashes_[r] = withGroup(hashBytes(v.data(), v.size()), groupIds[r]);
    }
    for (size_t r = 0; r < rows; ++r) {
      if (r + kPrefetchDistance < rows)
        __builtin_prefetch(&bytesSlots_[hashes_[r + kPrefetchDistance] & mask_]);
      if (block.isNull(r)) continue;
      const std::string_view v = bytesOf(block, r);
      insertBytes(hashes_[r], v.data(), v.size(), groupIds[r]);
    }
  }

  /// A dictionary block: each entry hashed once per dictionary; without groups each
  /// entry inserted once per dictionary.
  void addDictionary(const Block& block, std::span<const uint32_t> groupIds) {
    const ByteDictionary& dictionary = *block.dictionary();
    if (block.dictionary() != dictionary_) {
      dictionary_ = block.dictionary();
      entryHashes_.resize(dictionary.size());
      for (size_t k = 0; k < dictionary.size(); ++k) {
        const std::string_view v = dictionary.at(k);
        entryHashes_[k] = hashBytes(v.data(), v.size());
      }
      entryInserted_.assign(dictionary.size(), 0);
    }
    const std::span<const uint32_t> ids = block.dictionaryIds();
    const bool nulls = block.hasNulls();
    // The page's (entry, group) pairs to insert, hashed; then inserted with the slot of a pair a
    // few ahead prefetched (Q06's table of 160,000 phrases outgrows the caches). Without groups
    // an entry is inserted once per dictionary.
    const bool oneGroup = counts_.size() == 1;
    pendingIds_.clear();
    wordGroups_.clear();
    hashes_.clear();
    for (size_t r = 0; r < ids.size(); ++r) {
      if (nulls && block.isNull(r)) continue;
      const uint32_t id = ids[r];
      if (oneGroup) {
        if (entryInserted_[id]) continue;
        entryInserted_[id] = 1;
      }
      pendingIds_.push_back(id);
      wordGroups_.push_back(groupIds[r]);
      hashes_.push_back(withGroup(entryHashes_[id], groupIds[r]));
    }
    for (size_t i = 0; i < pendingIds_.size(); ++i) {
      if (i + kPrefetchDistance < pendingIds_.size())
        __builtin_prefetch(&bytesSlots_[hashes_[i + kPrefetchDistance] & mask_]);
      const std::string_view v = dictionary.at(pendingIds_[i]);
      insertBytes(hashes_[i], v.data(), v.size(), wordGroups_[i]);
    }
  }

  void insertWord(uint64_t word, uint32_t group, uint64_t hash) {
    for (uint64_t i = hash & mask_;; i = (i + 1) & mask_) {
      WordSlot& slot = wordSlots_[i];
      if (slot.group == kEmpty) {
        slot.word = word;
        slot.group = group;
        ++counts_[group];
        if (++filled_ * 2 > wordSlots_.size()) growWords(wordSlots_.size() * 2);
        return;
      }
      if (slot.word == word && slot.group == group) return;
    }
  }

  void insertBytes(uint64_t hash, const char* data, size_t length, uint32_t group) {
    for (uint64_t i = hash & mask_;; i = (i + 1) & mask_) {
      BytesSlot& slot = bytesSlots_[i];
      if (slot.group == kEmpty) {
        if (length > UINT32_MAX) {
          throw InvalidArgument("COUNT_DISTINCT (" + spec_.name + "): a value of " +
                                std::to_string(length) + " bytes, more than 4 GiB");
        }
        slot.hash = hash;
        slot.offset = arena_.size();
        slot.length = static_cast<uint32_t>(length);
        slot.group = group;
        arena_.append(data, length);
        ++counts_[group];
        if (++filled_ * 2 > bytesSlots_.size()) growBytes();
        return;
      }
      if (slot.hash == hash && slot.group == group && slot.length == length &&
          keysEqual(arena_.data() + slot.offset, data, length)) {
        return;
      }
    }
  }

  /// Moves the words into a table of `slots` slots (a power of two, larger).
  void growWords(size_t slots) {
    HugePageVector<WordSlot> old = std::move(wordSlots_);
    wordSlots_.assign(slots, WordSlot{});
    mask_ = wordSlots_.size() - 1;
    for (const WordSlot& s : old) {
      if (s.group == kEmpty) continue;
      uint64_t i = withGroup(mix(s.word), s.group) & mask_;
      while (wordSlots_[i].group != kEmpty) i = (i + 1) & mask_;
      wordSlots_[i] = s;
    }
  }

  void growBytes() {
    HugePageVector<BytesSlot> old = std::move(bytesSlots_);
    bytesSlots_.assign(old.size() * 2, BytesSlot{});
    mask_ = bytesSlots_.size() - 1;
    for (const BytesSlot& s : old) {
      if (s.group == kEmpty) continue;
      uint64_t i = s.hash & mask_;
      while (bytesSlots_[i].group != kEmpty) i = (i + 1) & mask_;
      bytesSlots_[i] = s;
    }
  }

  AggregateSpec spec_;
  /// Bytes per value kept as a word; 0 for the null kind; SIZE_MAX for values kept as bytes.
  size_t width_;
  std::vector<int64_t> counts_;
  std::vector<uint8_t> seen_;
  HugePageVector<WordSlot> wordSlots_;
  HugePageVector<BytesSlot> bytesSlots_;
  uint64_t mask_ = 0;
  size_t filled_ = 0;
  /// The bytes of the values kept as bytes; grown without copying what it holds.
  GrowableBytes arena_;
  // Per page scratch.
  std::vector<uint64_t> words_;
  std::vector<uint32_t> wordGroups_;
  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> pendingIds_;
  std::vector<std::string_view> views_;
  // The last dictionary's entries' hashes, and (without groups) which were inserted.
  std::shared_ptr<const ByteDictionary> dictionary_;
  std::vector<uint64_t> entryHashes_;
  std::vector<uint8_t> entryInserted_;
};

}  // namespace

std::unique_ptr<Aggregator> makeCountDistinctAggregator(const AggregateSpec& spec) {
  return std::make_unique<CountDistinctAggregator>(spec);
}

}  // namespace quarry::engine
