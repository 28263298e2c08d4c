#include "quarry/engine/exec/group_by_hash.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/common/huge_pages.h"
#include "quarry/engine/data/key_hash.h"

namespace quarry::engine {

namespace {

using key_hash::hashBytes;
using key_hash::keysEqual;
using key_hash::mix;

size_t fixedWidth(TypeKind kind) {
  switch (kind) {
    case TypeKind::kNull:
      return 0;
    case TypeKind::kBoolean:
      return 1;
    case TypeKind::kInt32:
    case TypeKind::kDate:
      return 4;
    case TypeKind::kInt64:
    case TypeKind::kTime:
    case TypeKind::kTimestamp:
    case TypeKind::kUInt64:
    case TypeKind::kDouble:
      return 8;
    case TypeKind::kDecimal:
      return 16;
    default:
      return 0;
  }
}

template <typename T>
void writeFixed(const Block& block, char* out, const uint64_t* offsets,
                std::vector<uint64_t>& cursor) {
  const size_t rows = block.size();
  const std::span<const T> values = block.values<T>();
  for (size_t r = 0; r < rows; ++r) {
    char* p = out + offsets[r] + cursor[r];
    const bool null = block.isNull(r);
    p[0] = null ? 1 : 0;
    T v = null ? T{} : values[r];
    if constexpr (std::is_same_v<T, double>) {
      if (v == 0.0) v = 0.0;                                            // -0.0 groups with +0.0
      if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();  // one NaN group
    }
    std::memcpy(p + 1, &v, sizeof(T));
    cursor[r] += 1 + sizeof(T);
  }
}

}  // namespace

GroupByHash::GroupByHash(std::vector<DataType> keyTypes) : keyTypes_(std::move(keyTypes)) {
  for (const DataType& type : keyTypes_) {
    // The planner refuses BY a list; a list key has no one value to hash.
    if (type.isList()) throw std::logic_error("GroupByHash: a " + type.toString() + " key");
  }
  for (const DataType& type : keyTypes_) groupKeys_.emplace_back(type);
  const size_t width = keyTypes_.size() == 1 ? fixedWidth(keyTypes_[0].kind) : 0;
  wordKeys_ = width > 0 && width <= 8;
  bytesKey_ = keyTypes_.size() == 1 && keyTypes_[0].isBytes();
  packedKeys_ = keyTypes_.size() >= 2 && keyTypes_.size() <= 4;
  fixedKeys_ = keyTypes_.size() >= 2 && keyTypes_.size() <= 64;
  size_t fixedBytes = 0;
  for (const DataType& type : keyTypes_) {
    const size_t keyWidth = fixedWidth(type.kind);
    packedKeys_ &= type.isBytes() || (keyWidth > 0 && keyWidth <= 8);
    fixedKeys_ &= keyWidth > 0 && keyWidth <= 8;
    fixedOffsets_.push_back(fixedBytes);
    fixedBytes += keyWidth;
  }
  fixedKeys_ &= fixedBytes <= sizeof(FixedKey::words);
  if (fixedKeys_) packedKeys_ = false;  // one lookup of words does less than per-key codes
  deferredKeys_ =
      bytesKey_ || (!wordKeys_ && !fixedKeys_ &&
                    std::none_of(keyTypes_.begin(), keyTypes_.end(), [](const DataType& type) {
                      return type.kind == TypeKind::kDouble;
                    }));
  if (wordKeys_) {
    words_.reset(1024);
  } else {
    slots_.resize(1024);
    mask_ = slots_.size() - 1;
  }
}

uint32_t GroupByHash::newGroup(const std::vector<const Block*>& keys, size_t row) {
  if (!deferredKeys_) {
    for (size_t c = 0; c < keys.size(); ++c) groupKeys_[c].appendFrom(*keys[c], row);
  }
  return static_cast<uint32_t>(groups_++);
}

const std::vector<Block>& GroupByHash::groupKeys() {
  if (deferredKeys_) groupKeys_ = keysFromArena();
  return groupKeys_;
}

std::vector<Block> GroupByHash::takeGroupKeys() {
  if (deferredKeys_) return keysFromArena();
  return std::move(groupKeys_);
}

namespace {

/// A key column read back from the arena, one group at a time.
struct ArenaColumn {
  TypeKind kind;
  std::vector<uint8_t> validity;
  bool anyNull = false;
  std::variant<std::monostate, std::vector<uint8_t>, std::vector<int32_t>, std::vector<int64_t>,
               std::vector<uint64_t>, std::vector<Int128>>
      values;
  std::vector<uint64_t> offsets{0};
  std::string bytes;

  template <typename T>
  void readFixed(const char*& p, bool null) {
    T v{};
    if (!null) std::memcpy(&v, p, sizeof(T));
    p += sizeof(T);
    std::get<std::vector<T>>(values).push_back(v);
  }
};

}  // namespace

std::vector<Block> GroupByHash::keysFromArena() const {
  const size_t groups = groups_;
  std::vector<ArenaColumn> columns(keyTypes_.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    ArenaColumn& column = columns[c];
    column.kind = keyTypes_[c].kind;
    column.validity.assign(groups, 1);
    switch (column.kind) {
      case TypeKind::kBoolean:
        column.values.emplace<std::vector<uint8_t>>().reserve(groups);
        break;
      case TypeKind::kInt32:
      case TypeKind::kDate:
        column.values.emplace<std::vector<int32_t>>().reserve(groups);
        break;
      case TypeKind::kInt64:
      case TypeKind::kTime:
      case TypeKind::kTimestamp:
        column.values.emplace<std::vector<int64_t>>().reserve(groups);
        break;
      case TypeKind::kUInt64:
        column.values.emplace<std::vector<uint64_t>>().reserve(groups);
        break;
      case TypeKind::kDecimal:
        column.values.emplace<std::vector<Int128>>().reserve(groups);
        break;
      default:
        break;
    }
    // Millions of groups make buffers of many MiB, each written once from start to end: in
    // huge pages, a fault per 2 MiB instead of per 4 KiB (huge_pages.h).
    std::visit(
        [](auto& values) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(values)>, std::monostate>) {
            adviseHugePages(values.data(), values.capacity() * sizeof(values[0]));
          }
        },
        column.values);
    if (keyTypes_[c].isBytes()) {
      column.offsets.reserve(groups + 1);
      adviseHugePages(column.offsets.data(), column.offsets.capacity() * sizeof(uint64_t));
      column.bytes.reserve(groupKeyBytes_.size());
      adviseHugePages(column.bytes.data(), column.bytes.capacity());
    }
  }
  const char* arena = groupKeyBytes_.data();
  for (size_t g = 0; g < groups; ++g) {
    if (bytesKey_) {  // the bytes alone; the null group's are empty
      ArenaColumn& column = columns[0];
      column.bytes.append(arena + groupKeyOffsets_[g],
                          groupKeyOffsets_[g + 1] - groupKeyOffsets_[g]);
      column.offsets.push_back(column.bytes.size());
      if (g == nullGroup_) {
        column.validity[g] = 0;
        column.anyNull = true;
      }
      continue;
    }
    // Per column a null flag, then the value (serialize()'s layout).
    const char* p = arena + groupKeyOffsets_[g];
    for (ArenaColumn& column : columns) {
      const bool null = *p++ != 0;
      if (null) {
        column.validity[g] = 0;
        column.anyNull = true;
      }
      switch (column.kind) {
        case TypeKind::kBoolean:
          column.readFixed<uint8_t>(p, null);
          break;
        case TypeKind::kInt32:
        case TypeKind::kDate:
          column.readFixed<int32_t>(p, null);
          break;
        case TypeKind::kInt64:
        case TypeKind::kTime:
        case TypeKind::kTimestamp:
          column.readFixed<int64_t>(p, null);
          break;
        case TypeKind::kUInt64:
          column.readFixed<uint64_t>(p, null);
          break;
        case TypeKind::kDecimal:
          column.readFixed<Int128>(p, null);
          break;
        case TypeKind::kString:
        case TypeKind::kBinary:
        case TypeKind::kUuid:
          if (!null) {
            uint32_t length;
            std::memcpy(&length, p, 4);
            column.bytes.append(p + 4, length);
            p += 4 + length;
          }
          column.offsets.push_back(column.bytes.size());
          break;
        default:  // kNull: the flag alone; kDouble and kList do not defer
          break;
      }
    }
  }
  std::vector<Block> out;
  out.reserve(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    ArenaColumn& column = columns[c];
    std::vector<uint8_t> validity =
        column.anyNull ? std::move(column.validity) : std::vector<uint8_t>();
    if (column.kind == TypeKind::kNull) {
      out.push_back(Block::nulls(keyTypes_[c], groups));
    } else if (keyTypes_[c].isBytes()) {
      out.push_back(Block::fromBytes(keyTypes_[c], std::move(column.offsets),
                                     std::move(column.bytes), std::move(validity)));
    } else {
      std::visit(
          [&](auto& values) {
            using V = std::decay_t<decltype(values)>;
            if constexpr (!std::is_same_v<V, std::monostate>) {
              out.push_back(
                  Block::fromValues(keyTypes_[c], std::move(values), std::move(validity)));
            }
          },
          column.values);
    }
  }
  return out;
}

namespace {

/// The 64-bit word a fixed-width key value hashes and compares as.
template <typename T>
void keyWords(const Block& block, std::vector<uint64_t>& words) {
  const std::span<const T> values = block.values<T>();
  words.resize(values.size());
  for (size_t r = 0; r < values.size(); ++r) {
    if constexpr (std::is_same_v<T, double>) {
      double v = values[r];
      if (v == 0.0) v = 0.0;                                            // -0.0 groups with +0.0
      if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();  // one NaN group
      std::memcpy(&words[r], &v, 8);
    } else {
      words[r] = static_cast<uint64_t>(values[r]);
    }
  }
}

/// keyWords of a block of a fixed-width kind of at most 8 bytes, by its kind.
void blockWords(const Block& block, std::vector<uint64_t>& words) {
  switch (block.type().kind) {
    case TypeKind::kBoolean:
      keyWords<uint8_t>(block, words);
      break;
    case TypeKind::kInt32:
    case TypeKind::kDate:
      keyWords<int32_t>(block, words);
      break;
    case TypeKind::kUInt64:
      keyWords<uint64_t>(block, words);
      break;
    case TypeKind::kDouble:
      keyWords<double>(block, words);
      break;
    default:  // kInt64, kTime, kTimestamp
      keyWords<int64_t>(block, words);
      break;
  }
}

}  // namespace

void GroupByHash::hashRows(const std::vector<const Block*>& keys, std::vector<uint64_t>& hashes) {
  const size_t rows = keys.empty() ? 0 : keys[0]->size();
  hashes.assign(rows, 0x9E3779B97F4A7C15ULL);
  std::vector<uint64_t> words;
  for (const Block* block : keys) {
    constexpr uint64_t kNullHash = 0x2545F4914F6CDD1DULL;
    const bool nulls = block->hasNulls();
    const TypeKind kind = block->type().kind;
    if (kind == TypeKind::kNull) {
      for (uint64_t& hash : hashes) hash = mix(hash + kNullHash);
      continue;
    }
    if (kind == TypeKind::kDecimal) {
      const std::span<const Int128> values = block->values<Int128>();
      for (size_t r = 0; r < rows; ++r) {
        const bool null = nulls && block->isNull(r);
        hashes[r] =
            mix(hashes[r] +
                (null ? kNullHash : hashBytes(reinterpret_cast<const char*>(&values[r]), 16)));
      }
      continue;
    }
    if (block->type().isBytes()) {
      for (size_t r = 0; r < rows; ++r) {
        const std::string_view v = block->bytes(r);  // empty when null
        const bool null = nulls && block->isNull(r);
        hashes[r] = mix(hashes[r] + (null ? kNullHash : hashBytes(v.data(), v.size())));
      }
      continue;
    }
    if (kind == TypeKind::kList)
      throw std::logic_error("GroupByHash: a list key");  // refused by the constructor
    blockWords(*block, words);
    for (size_t r = 0; r < rows; ++r) {
      hashes[r] = mix(hashes[r] + (nulls && block->isNull(r) ? kNullHash : mix(words[r])));
    }
  }
}

void GroupByHash::WordTable::grow() {
  HugePageVector<WordSlot> old = std::move(slots);
  reset(old.size() * 2);
  for (const WordSlot& filled : old) {
    if (filled.group == kEmpty) continue;
    find(filled.key, mix(filled.key)) = filled;
    ++count;
  }
}

void GroupByHash::addWordKeys(const Block& block, std::vector<uint32_t>& groupIds) {
  const size_t rows = block.size();
  blockWords(block, rowWords_);
  const std::vector<const Block*> keys{&block};
  const bool nulls = block.hasNulls();
  rowHashes_.resize(rows);
  for (size_t r = 0; r < rows; ++r) rowHashes_[r] = mix(rowWords_[r]);
  constexpr size_t kPrefetchDistance = 8;
  for (size_t r = 0; r < rows; ++r) {
    if (r + kPrefetchDistance < rows) words_.prefetch(rowHashes_[r + kPrefetchDistance]);
    if (nulls && block.isNull(r)) {
      if (nullGroup_ == kEmpty) nullGroup_ = newGroup(keys, r);
      groupIds[r] = nullGroup_;
      continue;
    }
    const uint64_t word = rowWords_[r];
    WordSlot& slot = words_.find(word, rowHashes_[r]);
    if (slot.group != kEmpty) {
      groupIds[r] = slot.group;
      continue;
    }
    groupIds[r] = newGroup(keys, r);
    words_.insert(slot, word, groupIds[r]);
  }
}

template <typename SameKey, typename KeepKey>
uint32_t GroupByHash::probe(uint64_t hash, SameKey&& sameKey, KeepKey&& keepKey,
                            const std::vector<const Block*>& keys, size_t row) {
  uint64_t i = hash & mask_;
  const uint32_t tag = tagOf(hash);
  while (true) {
    Slot& slot = slots_[i];
    if (slot.group == kEmpty) {
      const uint32_t group = newGroup(keys, row);
      slot.tag = tag;
      slot.group = group;
      keepKey();
      if (groupCount() * 2 > slots_.size()) grow();
      return group;
    }
    if (slot.tag == tag && sameKey(slot.group)) return slot.group;
    i = (i + 1) & mask_;
  }
}

uint32_t GroupByHash::findOrInsert(uint64_t hash, const char* key, size_t length,
                                   const std::vector<const Block*>& keys, size_t row) {
  return probe(
      hash,
      [&](uint32_t group) {
        const uint64_t begin = groupKeyOffsets_[group];
        const uint64_t end = groupKeyOffsets_[group + 1];
        return end - begin == length && keysEqual(groupKeyBytes_.data() + begin, key, length);
      },
      [&] {
        groupKeyBytes_.append(key, length);
        groupKeyOffsets_.push_back(groupKeyBytes_.size());
      },
      keys, row);
}

void GroupByHash::addBytesKeys(const Block& block, std::vector<uint32_t>& groupIds) {
  const size_t rows = block.size();
  const std::vector<const Block*> keys{&block};
  const bool nulls = block.hasNulls();
  const char* data = block.byteData();
  const std::span<const uint64_t> offsets = block.byteOffsets();  // a null's value is empty
  rowHashes_.resize(rows);
  for (size_t r = 0; r < rows; ++r)
    rowHashes_[r] = hashBytes(data + offsets[r], offsets[r + 1] - offsets[r]);
  for (size_t r = 0; r < rows; ++r) {
    prefetchProbe(rowHashes_.data(), r, rows);
    if (nulls && block.isNull(r)) {
      if (nullGroup_ == kEmpty) {
        nullGroup_ = newGroup(keys, r);
        groupKeyOffsets_.push_back(groupKeyBytes_.size());  // keeps offsets indexed by group
      }
      groupIds[r] = nullGroup_;
      continue;
    }
    const char* key = data + offsets[r];
    const size_t length = offsets[r + 1] - offsets[r];
    groupIds[r] = findOrInsert(rowHashes_[r], key, length, keys, r);
  }
}

void GroupByHash::prefetchProbe(const uint64_t* hashes, size_t i, size_t count) const {
  // Three dependent loads: the slot, the group's key offset, the key's bytes (what the comparison
  // reads); each stage is issued when the previous one has had time to arrive.
  constexpr size_t kSlotDistance = 16;
  constexpr size_t kOffsetDistance = 8;
  constexpr size_t kKeyDistance = 4;
  if (i + kSlotDistance < count) __builtin_prefetch(&slots_[hashes[i + kSlotDistance] & mask_]);
  const auto matching = [&](size_t k) -> const Slot* {
    const Slot& slot = slots_[hashes[k] & mask_];
    return slot.group != kEmpty && slot.tag == tagOf(hashes[k]) ? &slot : nullptr;
  };
  if (i + kOffsetDistance < count) {
    if (const Slot* slot = matching(i + kOffsetDistance))
      __builtin_prefetch(&groupKeyOffsets_[slot->group]);
  }
  if (i + kKeyDistance < count) {
    if (const Slot* slot = matching(i + kKeyDistance))
      __builtin_prefetch(groupKeyBytes_.data() + groupKeyOffsets_[slot->group]);
  }
}

void GroupByHash::addDictionaryKeys(const Block& block, std::vector<uint32_t>& groupIds) {
  const ByteDictionary& dictionary = *block.dictionary();
  if (groupsDictionary_ != block.dictionary()) {
    groupsDictionary_ = block.dictionary();
    entryGroups_.assign(dictionary.size(), kEmpty);
  }
  uint32_t* entryGroups = entryGroups_.data();
  const std::span<const uint32_t> ids = block.dictionaryIds();
  const std::vector<const Block*> keys{&block};
  const size_t rows = block.size();
  if (!block.hasNulls()) {
    // The page's entries without a group yet, each once in the order of their first rows; their
    // groups are then found or made in that order (so in row order, as below), the probes of a
    // few entries ahead prefetched: a dictionary of thousands of new entries probes a table that
    // no longer fits in the caches.
    pendingIds_.clear();
    for (size_t r = 0; r < rows; ++r) {
      const uint32_t id = ids[r];
      if (entryGroups[id] != kEmpty) continue;
      entryGroups[id] = kPending;
      pendingIds_.push_back(id);
    }
    const size_t pending = pendingIds_.size();
    rowHashes_.resize(pending);
    for (size_t i = 0; i < pending; ++i) {
      const std::string_view value = dictionary.at(pendingIds_[i]);
      rowHashes_[i] = hashBytes(value.data(), value.size());
    }
    for (size_t i = 0; i < pending; ++i) {
      prefetchProbe(rowHashes_.data(), i, pending);
      const std::string_view value = dictionary.at(pendingIds_[i]);
      // The row is not read: a single bytes key keeps its groups' keys in the arena alone.
      entryGroups[pendingIds_[i]] =
          findOrInsert(rowHashes_[i], value.data(), value.size(), keys, /*row=*/0);
    }
    for (size_t r = 0; r < rows; ++r) groupIds[r] = entryGroups[ids[r]];
    return;
  }
  for (size_t r = 0; r < rows; ++r) {
    if (block.isNull(r)) {  // a null's id is not read
      if (nullGroup_ == kEmpty) {
        nullGroup_ = newGroup(keys, r);
        groupKeyOffsets_.push_back(groupKeyBytes_.size());  // keeps offsets indexed by group
      }
      groupIds[r] = nullGroup_;
      continue;
    }
    const uint32_t id = ids[r];
    uint32_t group = entryGroups[id];
    if (group == kEmpty) {  // the entry's first row: found or made by its bytes, in row order
      const std::string_view value = dictionary.at(id);
      group =
          findOrInsert(hashBytes(value.data(), value.size()), value.data(), value.size(), keys, r);
      entryGroups[id] = group;
    }
    groupIds[r] = group;
  }
}

bool GroupByHash::addPackedKeys(const std::vector<const Block*>& keys,
                                std::vector<uint32_t>& groupIds) {
  for (size_t c = 0; c < keys.size(); ++c) {
    if (keyTypes_[c].isBytes() && !keys[c]->isDictionary()) return false;
  }
  const size_t rows = keys[0]->size();
  const unsigned bits = static_cast<unsigned>(64 / keys.size());  // 32, 21 or 16
  const uint64_t limit = uint64_t{1} << bits;                     // codes are below it
  if (keyCodes_.empty()) {
    keyCodes_.resize(keys.size());
    for (size_t c = 0; c < keys.size(); ++c) {
      keyCodes_[c].values = std::make_unique<GroupByHash>(std::vector<DataType>{keyTypes_[c]});
    }
    packed_.reset(1024);
  }
  rowWords_.assign(rows, 0);
  for (size_t c = 0; c < keys.size(); ++c) {
    const Block& block = *keys[c];
    KeyCodes& codes = keyCodes_[c];
    const unsigned shift = bits * static_cast<unsigned>(c);
    uint64_t* words = rowWords_.data();
    if (block.isDictionary()) {
      if (codes.dictionary != block.dictionary()) {
        const ByteDictionary& dictionary = *block.dictionary();
        Block entries(keyTypes_[c]);
        for (size_t k = 0; k < dictionary.size(); ++k) entries.appendBytes(dictionary.at(k));
        codes.values->addRows({&entries}, codes.entryCodes);
        codes.dictionary = block.dictionary();
      }
      if (codes.values->groupCount() >= limit) {
        stopPackingKeys();
        return false;
      }
      const uint32_t* entryCodes = codes.entryCodes.data();
      const std::span<const uint32_t> ids = block.dictionaryIds();
      if (!block.hasNulls()) {
        for (size_t r = 0; r < rows; ++r) words[r] |= uint64_t{entryCodes[ids[r]] + 1} << shift;
      } else {
        for (size_t r = 0; r < rows; ++r) {
          if (!block.isNull(r))
            words[r] |= uint64_t{entryCodes[ids[r]] + 1} << shift;  // null: code 0
        }
      }
    } else {
      codes.values->addRows({&block}, columnCodes_);  // a null is a value of its own there
      if (codes.values->groupCount() >= limit) {
        stopPackingKeys();
        return false;
      }
      for (size_t r = 0; r < rows; ++r) words[r] |= uint64_t{columnCodes_[r] + 1} << shift;
    }
  }
  size_t misses = 0;
  bool serialized = false;
  for (size_t r = 0; r < rows; ++r) {
    const uint64_t word = rowWords_[r];
    WordSlot& slot = packed_.find(word, mix(word));
    if (slot.group != kEmpty) {
      groupIds[r] = slot.group;
      continue;
    }
    // A combination the cache has not seen: its group comes from the serialized path.
    if (!serialized) {
      serialize(keys, rows);
      serialized = true;
    }
    const char* key = rowKeyBytes_.data() + rowKeyOffsets_[r];
    const size_t length = rowKeyOffsets_[r + 1] - rowKeyOffsets_[r];
    groupIds[r] = findOrInsert(hashBytes(key, length), key, length, keys, r);
    packed_.insert(slot, word, groupIds[r]);
    ++misses;
  }
  // Mostly new combinations (many groups): the cache only adds work, so later
  // pages take the serialized path alone.
  constexpr size_t kMinMisses = 256;
  if (misses > kMinMisses && misses * 4 > rows) stopPackingKeys();
  return true;
}

void GroupByHash::stopPackingKeys() {
  packedKeys_ = false;
  keyCodes_.clear();
  packed_ = WordTable{};
}

void GroupByHash::serialize(const std::vector<const Block*>& keys, size_t rows) {
  // Row lengths first (constant for fixed-width keys), then columns written one at a time.
  rowKeyOffsets_.assign(rows + 1, 0);
  size_t fixed = 0;
  for (size_t c = 0; c < keys.size(); ++c) fixed += 1 + fixedWidth(keyTypes_[c].kind);
  for (size_t r = 0; r < rows; ++r) rowKeyOffsets_[r + 1] = fixed;
  for (size_t c = 0; c < keys.size(); ++c) {
    if (!keyTypes_[c].isBytes()) continue;
    const Block& block = *keys[c];
    for (size_t r = 0; r < rows; ++r)
      rowKeyOffsets_[r + 1] += block.isNull(r) ? 0 : 4 + block.bytes(r).size();
  }
  for (size_t r = 0; r < rows; ++r) rowKeyOffsets_[r + 1] += rowKeyOffsets_[r];
  rowKeyBytes_.resize(rowKeyOffsets_[rows]);
  char* out = rowKeyBytes_.data();
  std::vector<uint64_t> cursor(rows, 0);
  for (size_t c = 0; c < keys.size(); ++c) {
    const Block& block = *keys[c];
    switch (keyTypes_[c].kind) {
      case TypeKind::kNull:
        for (size_t r = 0; r < rows; ++r) out[rowKeyOffsets_[r] + cursor[r]++] = 1;
        break;
      case TypeKind::kBoolean:
        writeFixed<uint8_t>(block, out, rowKeyOffsets_.data(), cursor);
        break;
      case TypeKind::kInt32:
      case TypeKind::kDate:
        writeFixed<int32_t>(block, out, rowKeyOffsets_.data(), cursor);
        break;
      case TypeKind::kInt64:
      case TypeKind::kTime:
      case TypeKind::kTimestamp:
        writeFixed<int64_t>(block, out, rowKeyOffsets_.data(), cursor);
        break;
      case TypeKind::kUInt64:
        writeFixed<uint64_t>(block, out, rowKeyOffsets_.data(), cursor);
        break;
      case TypeKind::kDouble:
        writeFixed<double>(block, out, rowKeyOffsets_.data(), cursor);
        break;
      case TypeKind::kDecimal:
        writeFixed<Int128>(block, out, rowKeyOffsets_.data(), cursor);
        break;
      case TypeKind::kString:
      case TypeKind::kBinary:
      case TypeKind::kUuid:
        for (size_t r = 0; r < rows; ++r) {
          char* p = out + rowKeyOffsets_[r] + cursor[r];
          if (block.isNull(r)) {
            p[0] = 1;
            cursor[r] += 1;
            continue;
          }
          const std::string_view v = block.bytes(r);
          const uint32_t length = static_cast<uint32_t>(v.size());
          p[0] = 0;
          std::memcpy(p + 1, &length, 4);
          if (length > 0) std::memcpy(p + 5, v.data(), length);
          cursor[r] += 5 + length;
        }
        break;
      case TypeKind::kList:  // refused by the constructor
        throw std::logic_error("GroupByHash: a list key");
    }
  }
}

void GroupByHash::grow() {
  static_assert(sizeof(Slot) == 8, "a slot is a tag and a group id");
  // A slot's tag holds 32 bits of its hash: enough for an index into 2^32 slots, which hold
  // 2^31 groups.
  if (slots_.size() * 2 > (uint64_t{1} << 32)) throw Unsupported("GROUP BY: more than 2^31 groups");
  HugePageVector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{});
  mask_ = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.group == kEmpty) continue;
    uint64_t i = slot.tag & mask_;
    while (slots_[i].group != kEmpty) i = (i + 1) & mask_;
    slots_[i] = slot;
  }
}

void GroupByHash::addRows(const std::vector<const Block*>& keys, std::vector<uint32_t>& groupIds) {
  if (keys.size() != keyTypes_.size())
    throw std::logic_error("GroupByHash: wrong number of key columns");
  const size_t rows = keys.empty() ? 0 : keys[0]->size();
  groupIds.resize(rows);
  if (wordKeys_) {
    addWordKeys(*keys[0], groupIds);
    return;
  }
  if (bytesKey_) {
    if (keys[0]->isDictionary()) {
      addDictionaryKeys(*keys[0], groupIds);
    } else {
      addBytesKeys(*keys[0], groupIds);
    }
    return;
  }
  if (fixedKeys_) {
    addFixedKeys(keys, groupIds);
    return;
  }
  if (packedKeys_ && addPackedKeys(keys, groupIds)) return;
  addSerializedKeys(keys, groupIds);
}

namespace {

/// Writes each row's value of `block` at byte `offset` of its key's words, or its null bit.
template <typename T>
void packFixed(const Block& block, size_t offset, uint64_t nullBit, auto* rowKeys) {
  const std::span<const T> values = block.values<T>();
  const bool nulls = block.hasNulls();
  for (size_t r = 0; r < values.size(); ++r) {
    if (nulls && block.isNull(r)) {
      rowKeys[r].nulls |= nullBit;  // its value bytes stay zero
      continue;
    }
    T v = values[r];
    if constexpr (std::is_same_v<T, double>) {
      if (v == 0.0) v = 0.0;                                            // -0.0 groups with +0.0
      if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();  // one NaN group
    }
    std::memcpy(reinterpret_cast<char*>(rowKeys[r].words) + offset, &v, sizeof(T));
  }
}

}  // namespace

void GroupByHash::addFixedKeys(const std::vector<const Block*>& keys,
                               std::vector<uint32_t>& groupIds) {
  const size_t rows = keys[0]->size();
  rowFixedKeys_.assign(rows, FixedKey{});
  FixedKey* rowKeys = rowFixedKeys_.data();
  for (size_t c = 0; c < keys.size(); ++c) {
    const Block& block = *keys[c];
    const size_t offset = fixedOffsets_[c];
    const uint64_t nullBit = uint64_t{1} << c;
    switch (keyTypes_[c].kind) {
      case TypeKind::kBoolean:
        packFixed<uint8_t>(block, offset, nullBit, rowKeys);
        break;
      case TypeKind::kInt32:
      case TypeKind::kDate:
        packFixed<int32_t>(block, offset, nullBit, rowKeys);
        break;
      case TypeKind::kUInt64:
        packFixed<uint64_t>(block, offset, nullBit, rowKeys);
        break;
      case TypeKind::kDouble:
        packFixed<double>(block, offset, nullBit, rowKeys);
        break;
      default:  // kInt64, kTime, kTimestamp (the constructor admits no other kind)
        packFixed<int64_t>(block, offset, nullBit, rowKeys);
        break;
    }
  }
  rowHashes_.resize(rows);
  for (size_t r = 0; r < rows; ++r) {
    const FixedKey& key = rowKeys[r];
    rowHashes_[r] = mix(key.words[0] ^ mix(key.words[1] ^ (key.nulls * 0x9E3779B97F4A7C15ULL)));
  }
  constexpr size_t kPrefetchDistance = 8;
  for (size_t r = 0; r < rows; ++r) {
    if (r + kPrefetchDistance < rows)
      __builtin_prefetch(&slots_[rowHashes_[r + kPrefetchDistance] & mask_]);
    const FixedKey& key = rowKeys[r];
    groupIds[r] = probe(
        rowHashes_[r], [&](uint32_t group) { return fixedGroupKeys_[group] == key; },
        [&] { fixedGroupKeys_.push_back(key); }, keys, r);
  }
}

void GroupByHash::addSerializedKeys(const std::vector<const Block*>& keys,
                                    std::vector<uint32_t>& groupIds) {
  const size_t rows = keys[0]->size();
  serialize(keys, rows);
  const char* bytes = rowKeyBytes_.data();
  // Hash the page first, then probe with the slot a few rows ahead prefetched: with many groups
  // the table does not fit in cache and the probes' misses then overlap.
  rowHashes_.resize(rows);
  for (size_t r = 0; r < rows; ++r) {
    rowHashes_[r] = hashBytes(bytes + rowKeyOffsets_[r], rowKeyOffsets_[r + 1] - rowKeyOffsets_[r]);
  }
  constexpr size_t kPrefetchDistance = 8;
  for (size_t r = 0; r < rows; ++r) {
    if (r + kPrefetchDistance < rows)
      __builtin_prefetch(&slots_[rowHashes_[r + kPrefetchDistance] & mask_]);
    const char* key = bytes + rowKeyOffsets_[r];
    const size_t length = rowKeyOffsets_[r + 1] - rowKeyOffsets_[r];
    groupIds[r] = findOrInsert(rowHashes_[r], key, length, keys, r);
  }
}

}  // namespace quarry::engine
