#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quarry/common/growable_array.h"
#include "quarry/common/growable_bytes.h"
#include "quarry/common/huge_page_vector.h"
#include "quarry/engine/data/block.h"

/// Assigns rows to groups by the values of their key columns, for hash
/// aggregation. Each row's keys are serialized into a compact byte key (per
/// column a null flag, then the value: fixed-width kinds their storage bytes,
/// doubles with -0.0 as +0.0 and every NaN as one NaN; bytes kinds a length and
/// the bytes), so nulls form one group, NaN one group, and -0.0 and +0.0 one group.
/// The serialization runs column by column over a page; the keys then go through
/// one open-addressing table of (32-bit hash tag, group id) whose keys live in one arena.
/// Memory is proportional to the number of groups. The common case of one
/// fixed-width key of at most 8 bytes (integers, dates, times, timestamps,
/// doubles, booleans) skips the serialization: its values, widened to 64 bits
/// (doubles canonical), are the table's keys, and nulls have a group of their own.
/// So does one bytes key (string, binary, uuid): its bytes are hashed and kept as
/// they are, and nulls have a group of their own. Two or more fixed-width keys of
/// together at most 16 bytes (Q33's WatchID and ClientIP, four int32s) skip it too:
/// a row's values are packed side by side into two words, its nulls into a third,
/// and a group's key is those three words (a comparison of words, not of bytes in an
/// arena reached through an offset).
///
/// Dictionary blocks (block.h) skip the per-row bytes: a single bytes key maps
/// each dictionary entry to its group once per dictionary (kept while consecutive
/// pages share it), then a row's group is that of its id. Two to four keys each a
/// dictionary block or of a fixed width of at most 8 bytes get per key a small
/// code (an id of the value within the column, 0 for null: per dictionary entry
/// once, per row for fixed-width keys) and the codes packed into one word look up
/// the group in a cache. A word the cache does not know goes through the
/// serialized path, which stays the one place groups are made: so pages of
/// either form can follow each other, and groups keep their first-seen order.
///
/// Example: keys (int32 a, string b), row (7, "xy") serializes to
///   00 07 00 00 00 | 00 02 00 00 00 78 79     (flag, value | flag, length, bytes)
/// and row (NULL, "xy") to 01 00 00 00 00 | 00 02 00 00 00 78 79.
namespace quarry::engine {

class GroupByHash {
 public:
  explicit GroupByHash(std::vector<DataType> keyTypes);

  /// Sets groupIds[r] to the group of row r of `keys` (one block per key column),
  /// creating groups in first-seen order and keeping their key values.
  void addRows(const std::vector<const Block*>& keys, std::vector<uint32_t>& groupIds);
  /// A hash of each row's keys that agrees for rows of one group (nulls alike, -0.0 and +0.0
  /// alike, every NaN alike, a dictionary's value as its bytes): what a merge split over several
  /// tables partitions rows by.
  static void hashRows(const std::vector<const Block*>& keys, std::vector<uint64_t>& hashes);
  size_t groupCount() const { return groups_; }
  /// Whether the next page tries the packed-codes path (see above; for tests).
  bool packsKeys() const { return packedKeys_; }
  /// The key values of groups [0, groupCount()), one block per key column.
  const std::vector<Block>& groupKeys();
  std::vector<Block> takeGroupKeys();

 private:
  /// A slot of the bytes / serialized table: 8 bytes, so that a table of many groups takes half
  /// the memory (and half the cache misses) of one keeping the whole 64-bit hash. `tag` keeps
  /// the hash's low 32 bits, which hold the slot's index (hash & mask_) at every size the
  /// table can reach: growing moves the slots in their order, a nearly sequential pass.
  struct Slot {
    uint32_t tag = 0;
    uint32_t group = kEmpty;
  };
  static uint32_t tagOf(uint64_t hash) { return static_cast<uint32_t>(hash); }
  static constexpr uint32_t kEmpty = UINT32_MAX;
  /// A dictionary entry whose group the page is about to find (addDictionaryKeys).
  static constexpr uint32_t kPending = UINT32_MAX - 1;

  struct WordSlot {
    uint64_t key = 0;
    uint32_t group = kEmpty;
  };

  /// Open addressing of 64-bit words to groups (linear probing over a power of
  /// two of slots, at most half full): the single fixed-width key's table and the
  /// packed-codes cache.
  struct WordTable {
    HugePageVector<WordSlot> slots;
    uint64_t mask = 0;
    size_t count = 0;

    void reset(size_t size) {
      slots.assign(size, WordSlot{});
      mask = size - 1;
      count = 0;
    }
    /// The slot of `word` (whose hash is `hash`): its own, or the empty one it would take.
    WordSlot& find(uint64_t word, uint64_t hash) {
      for (uint64_t i = hash & mask;; i = (i + 1) & mask) {
        WordSlot& slot = slots[i];
        if (slot.group == kEmpty || slot.key == word) return slot;
      }
    }
    void prefetch(uint64_t hash) const { __builtin_prefetch(&slots[hash & mask]); }
    /// Fills `slot`, the empty slot find() gave for `word`; doubles the table once
    /// it is more than half full (`slot` then no longer refers into it).
    void insert(WordSlot& slot, uint64_t word, uint32_t group) {
      slot.key = word;
      slot.group = group;
      if (++count * 2 > slots.size()) grow();
    }
    void grow();
  };

  void serialize(const std::vector<const Block*>& keys, size_t rows);
  void grow();
  /// The single fixed-width key path: the key's values as 64-bit words.
  void addWordKeys(const Block& keys, std::vector<uint32_t>& groupIds);
  /// The group of the key `key[0, length)` with `hash`, created (from row `row` of
  /// `keys`) when new; the probe both the bytes and the serialized paths use.
  uint32_t findOrInsert(uint64_t hash, const char* key, size_t length,
                        const std::vector<const Block*>& keys, size_t row);
  /// The probe of the slots: the group whose slot has `hash`'s tag and whose key `sameKey(group)`
  /// says is the row's, else a new group (from row `row` of `keys`), its key kept by `keepKey()`.
  template <typename SameKey, typename KeepKey>
  uint32_t probe(uint64_t hash, SameKey&& sameKey, KeepKey&& keepKey,
                 const std::vector<const Block*>& keys, size_t row);
  /// Prefetches, for the probe of hashes[i], what the probes of a few later hashes (of `count`)
  /// will read: their slots, then their groups' key offsets and key bytes.
  void prefetchProbe(const uint64_t* hashes, size_t i, size_t count) const;
  /// The single bytes key path: the values' bytes as the keys.
  void addBytesKeys(const Block& keys, std::vector<uint32_t>& groupIds);
  uint32_t newGroup(const std::vector<const Block*>& keys, size_t row);
  /// The groups' key blocks read back from the arena (deferredKeys_).
  std::vector<Block> keysFromArena() const;
  /// The single bytes key path for a dictionary block.
  void addDictionaryKeys(const Block& keys, std::vector<uint32_t>& groupIds);
  /// The packed-codes path; false (nothing done) when a page does not suit it.
  bool addPackedKeys(const std::vector<const Block*>& keys, std::vector<uint32_t>& groupIds);
  /// Leaves the packed path for good (a key's values outgrew their codes, which only grow, or
  /// most rows missed the cache) and frees its tables.
  void stopPackingKeys();
  /// Per page: the serialized path's group of each row.
  void addSerializedKeys(const std::vector<const Block*>& keys, std::vector<uint32_t>& groupIds);

  /// The fixed-keys path's key: the values at their offsets (fixedOffsets_) in two words, a null
  /// left zero there and flagged by its column's bit in `nulls`.
  struct FixedKey {
    uint64_t words[2] = {0, 0};
    uint64_t nulls = 0;
    bool operator==(const FixedKey&) const = default;
  };
  /// Per page: the fixed-keys path's group of each row.
  void addFixedKeys(const std::vector<const Block*>& keys, std::vector<uint32_t>& groupIds);

  /// What the packed path keeps per key column: the column's values, each with
  /// an id (a GroupByHash of that key alone), and the last dictionary's entries' ids.
  struct KeyCodes {
    std::unique_ptr<GroupByHash> values;
    std::shared_ptr<const ByteDictionary> dictionary;
    std::vector<uint32_t> entryCodes;
  };

  std::vector<DataType> keyTypes_;
  size_t groups_ = 0;
  bool wordKeys_ = false;
  bool bytesKey_ = false;
  bool fixedKeys_ = false;
  std::vector<size_t> fixedOffsets_;         // per key column, its byte offset in FixedKey::words
  std::vector<FixedKey> rowFixedKeys_;       // per page, each row's
  HugePageVector<FixedKey> fixedGroupKeys_;  // per group
  WordTable words_;
  uint32_t nullGroup_ = kEmpty;
  std::vector<uint64_t> rowWords_;
  /// Whether every group's key is in the arena (groupKeyBytes_), from which
  /// groupKeys() reads the key blocks at the end instead of keeping a second copy
  /// as groups are made: a single bytes key (its bytes) and the serialized path
  /// without a double key (whose arena holds -0.0 as +0.0, where the first row's
  /// value is the group's).
  bool deferredKeys_ = false;
  std::vector<Block> groupKeys_;
  HugePageVector<Slot> slots_;
  uint64_t mask_ = 0;
  GrowableBytes groupKeyBytes_;  // grown without copying what it holds
  GrowableArray<uint64_t> groupKeyOffsets_ = GrowableArray<uint64_t>(1, 0);
  // Per page scratch: the rows' serialized keys.
  std::string rowKeyBytes_;
  std::vector<uint64_t> rowKeyOffsets_;
  std::vector<uint64_t> rowHashes_;
  // The single dictionary key path: the last dictionary and its entries' groups.
  std::shared_ptr<const ByteDictionary> groupsDictionary_;
  std::vector<uint32_t> entryGroups_;
  std::vector<uint32_t> pendingIds_;  // per page, its entries without a group yet
  // The packed-codes path: per key column, then the word -> group cache.
  bool packedKeys_ = false;
  std::vector<KeyCodes> keyCodes_;
  std::vector<uint32_t> columnCodes_;
  WordTable packed_;
};

}  // namespace quarry::engine
