#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "quarry/engine/data/data_type.h"

/// A Block is one column of a Page: `size()` positions of one DataType, each a
/// value or null. Values are stored densely by position, in the C++ type the
/// kind names (data_type.h): a null position holds a zero value (or empty bytes)
/// that nothing may read. Bytes kinds (string, binary, uuid) keep one buffer and
/// offsets. A Block owns its memory and is cheap to move.
///
/// A bytes block may instead be in the dictionary form: per position a uint32 id
/// into a ByteDictionary shared (immutable) by every block made from one file
/// dictionary, e.g. the pages of one Parquet row group. Consumers that know the
/// form (take, slice, appendAll of blocks of one dictionary, group-by) read the
/// ids; every other accessor works as on the plain form. byteData() and
/// byteOffsets() build the plain form on first use, so a dictionary block is, as
/// every Block, used by one thread at a time: pages move between threads, they
/// are not shared.
///
/// Example: dictionary ["AIR", "RAIL"], ids [1, 0, 1] is the block
/// ["RAIL", "AIR", "RAIL"]; take([2, 1]) gives ids [1, 0] over the same dictionary.
///
/// A list block (TypeKind::kList) holds no values of its own: per position a
/// range of a child block of the element type (listElements(), whose positions
/// may be null and which may be in the dictionary form), plus the block's own
/// validity for a null list. Position r is the elements [listOffsets()[r],
/// listOffsets()[r + 1]); an empty list is an empty range at a valid position.
/// A null position's range is not read (it is empty in blocks built here).
///
/// Example: offsets [0, 2, 2, 2, 3], validity [1, 0, 1, 1], elements
/// [1, 2, null] is the block [[1, 2], null, [], [null]]; take([3, 0]) gives
/// offsets [0, 1, 3] over elements [null, 1, 2].
namespace quarry::engine {

/// The values a dictionary block's ids index: value k is data[offsets[k], offsets[k + 1]).
/// Values need not be distinct. Immutable once shared.
struct ByteDictionary {
  std::vector<uint64_t> offsets{0};
  std::string data;

  size_t size() const { return offsets.size() - 1; }
  std::string_view at(size_t k) const {
    return std::string_view(data).substr(offsets[k], offsets[k + 1] - offsets[k]);
  }
  void append(std::string_view value) {
    data.append(value);
    offsets.push_back(data.size());
  }
};

/// The C++ type a kind stores per position (bytes kinds excepted).
template <TypeKind K>
struct StorageOf;
template <>
struct StorageOf<TypeKind::kBoolean> {
  using type = uint8_t;
};
template <>
struct StorageOf<TypeKind::kInt32> {
  using type = int32_t;
};
template <>
struct StorageOf<TypeKind::kDate> {
  using type = int32_t;
};
template <>
struct StorageOf<TypeKind::kInt64> {
  using type = int64_t;
};
template <>
struct StorageOf<TypeKind::kTime> {
  using type = int64_t;
};
template <>
struct StorageOf<TypeKind::kTimestamp> {
  using type = int64_t;
};
template <>
struct StorageOf<TypeKind::kUInt64> {
  using type = uint64_t;
};
template <>
struct StorageOf<TypeKind::kDouble> {
  using type = double;
};
template <>
struct StorageOf<TypeKind::kDecimal> {
  using type = Int128;
};

/// Calls f(T{}) with the storage type of a fixed-width kind (StorageOf); returns
/// false, calling nothing, for bytes kinds and kNull.
template <typename F>
bool withFixedStorage(TypeKind kind, F&& f) {
  switch (kind) {
    case TypeKind::kBoolean:
      f(uint8_t{});
      return true;
    case TypeKind::kInt32:
    case TypeKind::kDate:
      f(int32_t{});
      return true;
    case TypeKind::kInt64:
    case TypeKind::kTime:
    case TypeKind::kTimestamp:
      f(int64_t{});
      return true;
    case TypeKind::kUInt64:
      f(uint64_t{});
      return true;
    case TypeKind::kDouble:
      f(double{});
      return true;
    case TypeKind::kDecimal:
      f(Int128{});
      return true;
    default:
      return false;
  }
}

/// One value outside a block: null, or the storage type of its kind (bytes as a string).
using Scalar = std::variant<std::monostate, uint8_t, int32_t, int64_t, uint64_t, double, Int128,
                            std::string>;

class Block {
 public:
  explicit Block(DataType type = DataType::null());
  /// A block of `count` nulls of `type`.
  static Block nulls(DataType type, size_t count);
  /// A block of a fixed-width kind over `values` (its storage type), with
  /// `validity` (one byte per position, 1 = value; empty = no nulls). Null
  /// positions must hold a zero value. Lets vectorized code fill a vector and
  /// hand it over without a per-position append.
  template <typename T>
  static Block fromValues(DataType type, std::vector<T> values, std::vector<uint8_t> validity = {}) {
    Block block(type);
    block.size_ = values.size();
    block.storage_ = std::move(values);
    if (!validity.empty()) block.setValidity(std::move(validity));
    return block;
  }

  /// A block of bytes kind `type` over `offsets` (positions + 1 of them,
  /// ascending from 0, the last data.size()) and `data`: position i is
  /// data[offsets[i], offsets[i + 1]), or null where `validity` (as fromValues')
  /// says so (a null's value is empty). Throws std::logic_error otherwise.
  static Block fromBytes(DataType type, std::vector<uint64_t> offsets, std::string data,
                         std::vector<uint8_t> validity = {});

  /// A block of bytes kind `type` in the dictionary form: position i is
  /// dictionary->at(ids[i]), or null where `validity` (as fromValues') says so.
  /// Every id of a non-null position must be below dictionary->size(); a null
  /// position's id is not read. Throws std::logic_error otherwise.
  static Block fromDictionary(DataType type, std::shared_ptr<const ByteDictionary> dictionary,
                              std::vector<uint32_t> ids, std::vector<uint8_t> validity = {});

  /// A list block of `type` (a list type): position r is the elements
  /// [offsets[r], offsets[r + 1]) of `elements` (of type.elementType()), or null
  /// where `validity` (as fromValues') says so. `offsets` has one entry more than
  /// positions, ascending, the last at most elements.size(); std::logic_error otherwise.
  static Block fromList(DataType type, std::vector<uint64_t> offsets, Block elements,
                        std::vector<uint8_t> validity = {});

  const DataType& type() const { return type_; }
  /// A list block's offsets into listElements(), one more than positions.
  std::span<const uint64_t> listOffsets() const { return listOffsets_; }
  /// A list block's elements (std::logic_error for another kind).
  const Block& listElements() const;
  /// Whether the block is in the dictionary form.
  bool isDictionary() const { return dictionary_ != nullptr; }
  /// The dictionary form's dictionary (null in the plain form).
  const std::shared_ptr<const ByteDictionary>& dictionary() const { return dictionary_; }
  /// The dictionary form's ids, one per position (empty in the plain form).
  std::span<const uint32_t> dictionaryIds() const { return ids_; }
  size_t size() const { return size_; }
  /// Whether position `i` is null.
  bool isNull(size_t i) const { return type_.kind == TypeKind::kNull || (!valid_.empty() && valid_[i] == 0); }
  /// Whether any position is null (cheap: no scan when the block has no validity).
  bool hasNulls() const { return type_.kind == TypeKind::kNull ? size_ > 0 : !valid_.empty(); }
  /// Per position 1 (value) or 0 (null); empty when no position is null.
  std::span<const uint8_t> validity() const { return valid_; }

  /// The values of a fixed-width kind; T must be its storage type.
  template <typename T>
  std::span<const T> values() const {
    return std::get<std::vector<T>>(storage_);
  }
  template <typename T>
  std::span<T> mutableValues() {
    return std::get<std::vector<T>>(storage_);
  }
  /// The bytes at position `i` of a bytes kind (empty when null).
  std::string_view bytes(size_t i) const {
    if (dictionary_) [[unlikely]] return isNull(i) ? std::string_view() : dictionary_->at(ids_[i]);
    const Bytes& b = std::get<Bytes>(storage_);
    return std::string_view(b.data).substr(b.offsets[i], b.offsets[i + 1] - b.offsets[i]);
  }
  /// A bytes kind's storage, for tight loops: value i is
  /// byteData()[byteOffsets()[i], byteOffsets()[i + 1]). A dictionary block builds
  /// this plain form on the first call (see the class comment on threads).
  const char* byteData() const { return plainBytes().data.data(); }
  std::span<const uint64_t> byteOffsets() const { return plainBytes().offsets; }
  /// The value at `i` as a Scalar (monostate when null). For generic, slow paths.
  Scalar scalarAt(size_t i) const;

  void reserve(size_t positions);
  template <typename T>
  void append(T value) {
    std::get<std::vector<T>>(storage_).push_back(value);
    if (!valid_.empty()) valid_.push_back(1);
    ++size_;
  }
  void appendBytes(std::string_view value);
  /// Appends `offsets.size() - 1` values of a bytes kind at once: value k is
  /// data[offsets[k], offsets[k + 1]) (offsets relative to `data`, ascending).
  void appendBytesRun(const char* data, std::span<const int64_t> offsets);
  void appendNull();
  /// Appends a Scalar of this block's storage type (monostate appends null).
  void appendScalar(const Scalar& value);
  /// Appends position `i` of `other`, which has this block's type.
  void appendFrom(const Block& other, size_t i);
  /// Appends all of `other`, which has this block's type.
  void appendAll(const Block& other);
  /// Replaces the validity: one byte per position, 1 = value. An all-ones vector is dropped.
  void setValidity(std::vector<uint8_t> validity);

  /// A new block of the positions `positions` names, in that order.
  Block take(std::span<const uint32_t> positions) const;
  /// A new block of positions [offset, offset + length).
  Block slice(size_t offset, size_t length) const;

 private:
  struct Bytes {
    std::vector<uint64_t> offsets{0};
    std::string data;
  };
  void markNull();
  /// The plain form of a bytes block (built once for a dictionary block).
  const Bytes& plainBytes() const;
  /// Turns a dictionary block into the plain form, before it is appended to.
  void flatten();
  /// take() of a list block: `out`'s offsets and elements.
  void takeLists(std::span<const uint32_t> positions, Block& out) const;

  DataType type_;
  size_t size_ = 0;
  std::vector<uint8_t> valid_;
  std::variant<std::monostate, std::vector<uint8_t>, std::vector<int32_t>, std::vector<int64_t>,
               std::vector<uint64_t>, std::vector<double>, std::vector<Int128>, Bytes>
      storage_;
  /// The dictionary form (storage_ then holds an empty Bytes).
  std::shared_ptr<const ByteDictionary> dictionary_;
  std::vector<uint32_t> ids_;
  /// The dictionary form's plain bytes, once byteData() or byteOffsets() asked.
  mutable std::shared_ptr<const Bytes> plain_;
  /// A list block's offsets (positions + 1 of them) and its one child block of
  /// elements (std::vector: a Block may hold a Block only through an indirection).
  std::vector<uint64_t> listOffsets_;
  std::vector<Block> elements_;
};

/// A batch of rows: one Block per column, all of the same size.
class Page {
 public:
  Page() = default;
  explicit Page(std::vector<Block> blocks, size_t positions);
  size_t positionCount() const { return positions_; }
  size_t blockCount() const { return blocks_.size(); }
  const Block& block(size_t i) const { return blocks_[i]; }
  Block& block(size_t i) { return blocks_[i]; }
  std::vector<Block>& blocks() { return blocks_; }
  const std::vector<Block>& blocks() const { return blocks_; }
  /// A page of the rows `positions` names, every block gathered.
  Page take(std::span<const uint32_t> positions) const;
  Page slice(size_t offset, size_t length) const;

 private:
  std::vector<Block> blocks_;
  size_t positions_ = 0;
};

}  // namespace quarry::engine
