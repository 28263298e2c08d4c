#include "quarry/engine/data/block.h"

#include <algorithm>
#include <stdexcept>

namespace quarry::engine {

Block::Block(DataType type) : type_(type) {
  if (type_.isBytes()) {
    storage_ = Bytes{};
  } else if (type_.isList()) {
    listOffsets_.push_back(0);
    elements_.emplace_back(type_.elementType());
  } else {
    withFixedStorage(type_.kind, [&](auto zero) { storage_ = std::vector<decltype(zero)>{}; });
  }
}

Block Block::nulls(DataType type, size_t count) {
  Block block(type);
  if (type.kind == TypeKind::kNull) {  // stores nothing per position
    block.size_ = count;
    return block;
  }
  if (type.isList()) {
    block.listOffsets_.assign(count + 1, 0);
  } else {
    // Zero values, sized at once: a scan's column of nulls costs a fill, not an
    // append per position.
    std::visit(
        [&](auto& values) {
          using V = std::decay_t<decltype(values)>;
          if constexpr (std::is_same_v<V, Bytes>) {
            values.offsets.assign(count + 1, 0);
          } else if constexpr (!std::is_same_v<V, std::monostate>) {
            values.assign(count, {});
          }
        },
        block.storage_);
  }
  block.valid_.assign(count, 0);
  block.size_ = count;
  return block;
}

Block Block::fromBytes(DataType type, std::vector<uint64_t> offsets, std::string data,
                      std::vector<uint8_t> validity) {
  if (!type.isBytes() || offsets.empty() || offsets.front() != 0 || offsets.back() != data.size() ||
      !std::is_sorted(offsets.begin(), offsets.end()) ||
      (!validity.empty() && validity.size() + 1 != offsets.size())) {
    throw std::logic_error("Block::fromBytes: " + std::to_string(offsets.size()) + " offsets over " +
                           std::to_string(data.size()) + " bytes for a " + type.toString() + " block");
  }
  Block block(type);
  block.size_ = offsets.size() - 1;
  block.storage_ = Bytes{std::move(offsets), std::move(data)};
  if (!validity.empty()) block.setValidity(std::move(validity));
  return block;
}

Block Block::fromDictionary(DataType type, std::shared_ptr<const ByteDictionary> dictionary,
                            std::vector<uint32_t> ids, std::vector<uint8_t> validity) {
  if (!type.isBytes() || dictionary == nullptr) {
    throw std::logic_error("Block::fromDictionary: a " + type.toString() + " block");
  }
  if (!validity.empty() && validity.size() != ids.size()) {
    throw std::logic_error("Block::fromDictionary: validity of " + std::to_string(validity.size()) +
                           " positions for " + std::to_string(ids.size()) + " ids");
  }
  // One pass a compiler vectorizes: the highest id at a non-null position.
  uint32_t highest = 0;
  bool any = false;
  if (validity.empty()) {
    for (uint32_t id : ids) highest = std::max(highest, id);
    any = !ids.empty();
  } else {
    for (size_t i = 0; i < ids.size(); ++i) {
      highest = std::max(highest, validity[i] != 0 ? ids[i] : 0);
      any |= validity[i] != 0;
    }
  }
  if (any && highest >= dictionary->size()) {
    throw std::logic_error("Block::fromDictionary: id " + std::to_string(highest) + " is past a dictionary of " +
                           std::to_string(dictionary->size()) + " values");
  }
  Block block(type);
  block.size_ = ids.size();
  block.dictionary_ = std::move(dictionary);
  block.ids_ = std::move(ids);
  if (!validity.empty()) block.setValidity(std::move(validity));
  return block;
}

Block Block::fromList(DataType type, std::vector<uint64_t> offsets, Block elements,
                      std::vector<uint8_t> validity) {
  if (!type.isList() || !(elements.type() == type.elementType())) {
    throw std::logic_error("Block::fromList: " + elements.type().toString() + " elements for a " +
                           type.toString() + " block");
  }
  if (offsets.empty() || !std::is_sorted(offsets.begin(), offsets.end()) ||
      offsets.back() > elements.size()) {
    throw std::logic_error("Block::fromList: offsets that do not range over " +
                           std::to_string(elements.size()) + " elements");
  }
  const size_t positions = offsets.size() - 1;
  if (!validity.empty() && validity.size() != positions) {
    throw std::logic_error("Block::fromList: validity of " + std::to_string(validity.size()) +
                           " positions for " + std::to_string(positions) + " lists");
  }
  Block block(type);
  block.size_ = positions;
  block.listOffsets_ = std::move(offsets);
  block.elements_[0] = std::move(elements);
  if (!validity.empty()) block.setValidity(std::move(validity));
  return block;
}

const Block& Block::listElements() const {
  if (elements_.empty())
    throw std::logic_error("Block::listElements: a " + type_.toString() + " block");
  return elements_[0];
}

const Block::Bytes& Block::plainBytes() const {
  if (!dictionary_) return std::get<Bytes>(storage_);
  if (!plain_) {
    auto plain = std::make_shared<Bytes>();
    plain->offsets.resize(size_ + 1);
    size_t total = 0;
    for (size_t i = 0; i < size_; ++i) total += bytes(i).size();
    plain->data.reserve(total);
    for (size_t i = 0; i < size_; ++i) {
      plain->data.append(bytes(i));
      plain->offsets[i + 1] = plain->data.size();
    }
    plain_ = std::move(plain);
  }
  return *plain_;
}

void Block::flatten() {
  if (!dictionary_) return;
  storage_ = Bytes(plainBytes());
  dictionary_.reset();
  ids_ = {};
  plain_.reset();
}

Scalar Block::scalarAt(size_t i) const {
  if (isNull(i)) return std::monostate{};
  if (type_.isList()) throw std::logic_error("Block::scalarAt: a list is not a Scalar");
  if (type_.isBytes()) return std::string(bytes(i));
  Scalar out;
  std::visit(
      [&](const auto& values) {
        using V = std::decay_t<decltype(values)>;
        if constexpr (!std::is_same_v<V, std::monostate> && !std::is_same_v<V, Bytes>) {
          out = values[i];
        }
      },
      storage_);
  return out;
}

void Block::reserve(size_t positions) {
  if (dictionary_) return;  // a hint: not worth leaving the form for
  if (type_.isList()) listOffsets_.reserve(positions + 1);
  std::visit(
      [&](auto& values) {
        using V = std::decay_t<decltype(values)>;
        if constexpr (std::is_same_v<V, Bytes>) {
          values.offsets.reserve(positions + 1);
        } else if constexpr (!std::is_same_v<V, std::monostate>) {
          values.reserve(positions);
        }
      },
      storage_);
}

void Block::markNull() {
  if (valid_.empty()) valid_.assign(size_, 1);
  valid_.push_back(0);
}

void Block::appendBytes(std::string_view value) {
  flatten();
  Bytes& b = std::get<Bytes>(storage_);
  b.data.append(value);
  b.offsets.push_back(b.data.size());
  if (!valid_.empty()) valid_.push_back(1);
  ++size_;
}

void Block::appendBytesRun(const char* data, std::span<const int64_t> offsets) {
  if (offsets.size() < 2) return;
  flatten();
  Bytes& b = std::get<Bytes>(storage_);
  const int64_t first = offsets.front();
  const uint64_t base = b.data.size();
  b.data.append(data + first, static_cast<size_t>(offsets.back() - first));
  const size_t count = offsets.size() - 1;
  const size_t at = b.offsets.size();
  b.offsets.resize(at + count);
  for (size_t k = 0; k < count; ++k) b.offsets[at + k] = base + static_cast<uint64_t>(offsets[k + 1] - first);
  if (!valid_.empty()) valid_.insert(valid_.end(), count, 1);
  size_ += count;
}

void Block::appendNull() {
  flatten();
  if (type_.isList()) {
    listOffsets_.push_back(listOffsets_.back());
    markNull();
  } else if (type_.kind != TypeKind::kNull) {
    std::visit(
        [&](auto& values) {
          using V = std::decay_t<decltype(values)>;
          if constexpr (std::is_same_v<V, Bytes>) {
            values.offsets.push_back(values.data.size());
          } else if constexpr (!std::is_same_v<V, std::monostate>) {
            values.push_back({});
          }
        },
        storage_);
    markNull();
  }
  ++size_;
}

void Block::appendScalar(const Scalar& value) {
  flatten();
  if (std::holds_alternative<std::monostate>(value)) {
    appendNull();
    return;
  }
  if (type_.isBytes()) {
    appendBytes(std::get<std::string>(value));
    return;
  }
  if (type_.isList()) throw std::logic_error("Block::appendScalar: a Scalar for a list block");
  std::visit(
      [&](auto& values) {
        using V = std::decay_t<decltype(values)>;
        if constexpr (!std::is_same_v<V, std::monostate> && !std::is_same_v<V, Bytes>) {
          using T = typename V::value_type;
          values.push_back(std::get<T>(value));
        } else {
          throw std::logic_error("Block::appendScalar: a value for a " + type_.toString() + " block");
        }
      },
      storage_);
  if (!valid_.empty()) valid_.push_back(1);
  ++size_;
}

void Block::appendFrom(const Block& other, size_t i) {
  flatten();
  if (other.isNull(i)) {
    appendNull();
    return;
  }
  if (type_.isBytes()) {
    appendBytes(other.bytes(i));
    return;
  }
  if (type_.isList()) {
    const Block& from = other.elements_[0];
    for (uint64_t e = other.listOffsets_[i]; e < other.listOffsets_[i + 1]; ++e)
      elements_[0].appendFrom(from, e);
    listOffsets_.push_back(elements_[0].size());
  }
  std::visit(
      [&](auto& values) {
        using V = std::decay_t<decltype(values)>;
        if constexpr (!std::is_same_v<V, std::monostate> && !std::is_same_v<V, Bytes>) {
          values.push_back(std::get<V>(other.storage_)[i]);
        }
      },
      storage_);
  if (!valid_.empty()) valid_.push_back(1);
  ++size_;
}

void Block::appendAll(const Block& other) {
  if (other.size_ == 0) return;
  if (type_.kind == TypeKind::kNull) {
    size_ += other.size_;
    return;
  }
  if (other.dictionary_ && size_ == 0 && !dictionary_) {
    // An empty block takes the other's form (and its dictionary).
    dictionary_ = other.dictionary_;
    ids_ = other.ids_;
    valid_ = other.valid_;
    storage_ = Bytes{};
    size_ = other.size_;
    return;
  }
  if (dictionary_ && other.dictionary_ != dictionary_) flatten();
  if (other.hasNulls()) {
    if (valid_.empty()) valid_.assign(size_, 1);
    valid_.insert(valid_.end(), other.valid_.begin(), other.valid_.end());
  } else if (!valid_.empty()) {
    valid_.insert(valid_.end(), other.size_, 1);
  }
  if (dictionary_) {  // both of one dictionary
    ids_.insert(ids_.end(), other.ids_.begin(), other.ids_.end());
    plain_.reset();
    size_ += other.size_;
    return;
  }
  if (type_.isList()) {
    // The other's ranges, moved past this block's elements.
    const uint64_t base = elements_[0].size();
    elements_[0].appendAll(other.elements_[0]);
    for (size_t k = 1; k < other.listOffsets_.size(); ++k)
      listOffsets_.push_back(base + other.listOffsets_[k]);
    size_ += other.size_;
    return;
  }
  std::visit(
      [&](auto& values) {
        using V = std::decay_t<decltype(values)>;
        if constexpr (std::is_same_v<V, Bytes>) {
          const Bytes& from = other.plainBytes();
          const uint64_t base = values.data.size();
          values.data.append(from.data);
          for (size_t k = 1; k < from.offsets.size(); ++k) values.offsets.push_back(base + from.offsets[k]);
        } else if constexpr (!std::is_same_v<V, std::monostate>) {
          const V& from = std::get<V>(other.storage_);
          values.insert(values.end(), from.begin(), from.end());
        }
      },
      storage_);
  size_ += other.size_;
}

void Block::setValidity(std::vector<uint8_t> validity) {
  if (validity.size() != size_) throw std::logic_error("Block::setValidity: size mismatch");
  bool allValid = true;
  for (uint8_t v : validity) allValid &= v != 0;
  if (allValid) {
    valid_.clear();
  } else {
    valid_ = std::move(validity);
  }
}

void Block::takeLists(std::span<const uint32_t> positions, Block& out) const {
  // One gather of the child: the kept rows' element positions, in row order (a
  // null row's range is not read).
  std::vector<uint32_t> elementPositions;
  out.listOffsets_.resize(positions.size() + 1);
  out.listOffsets_[0] = 0;
  for (size_t k = 0; k < positions.size(); ++k) {
    const uint32_t p = positions[k];
    if (!isNull(p)) {
      for (uint64_t e = listOffsets_[p]; e < listOffsets_[p + 1]; ++e) {
        elementPositions.push_back(static_cast<uint32_t>(e));
      }
    }
    out.listOffsets_[k + 1] = elementPositions.size();
  }
  out.elements_[0] = elements_[0].take(elementPositions);
}

Block Block::take(std::span<const uint32_t> positions) const {
  Block out(type_);
  if (type_.kind == TypeKind::kNull) {
    out.size_ = positions.size();
    return out;
  }
  if (dictionary_) {
    out.dictionary_ = dictionary_;
    out.ids_.resize(positions.size());
    for (size_t k = 0; k < positions.size(); ++k) out.ids_[k] = ids_[positions[k]];
  } else if (type_.isList()) {
    takeLists(positions, out);
  } else {
    std::visit(
        [&](const auto& values) {
          using V = std::decay_t<decltype(values)>;
          if constexpr (std::is_same_v<V, Bytes>) {
            Bytes& to = std::get<Bytes>(out.storage_);
            to.offsets.reserve(positions.size() + 1);
            size_t bytes = 0;  // reserved at once: appending value by value regrew and copied the data
            for (uint32_t p : positions) bytes += values.offsets[p + 1] - values.offsets[p];
            to.data.reserve(bytes);
            for (uint32_t p : positions) {
              to.data.append(values.data, values.offsets[p], values.offsets[p + 1] - values.offsets[p]);
              to.offsets.push_back(to.data.size());
            }
          } else if constexpr (!std::is_same_v<V, std::monostate>) {
            V& to = std::get<V>(out.storage_);
            to.resize(positions.size());
            for (size_t k = 0; k < positions.size(); ++k) to[k] = values[positions[k]];
          }
        },
        storage_);
  }
  if (!valid_.empty()) {
    out.valid_.resize(positions.size());
    bool any = false;
    for (size_t k = 0; k < positions.size(); ++k) {
      out.valid_[k] = valid_[positions[k]];
      any |= out.valid_[k] == 0;
    }
    if (!any) out.valid_.clear();
  }
  out.size_ = positions.size();
  return out;
}

Block Block::slice(size_t offset, size_t length) const {
  std::vector<uint32_t> positions(length);
  for (size_t k = 0; k < length; ++k) positions[k] = static_cast<uint32_t>(offset + k);
  return take(positions);
}

Page::Page(std::vector<Block> blocks, size_t positions) : blocks_(std::move(blocks)), positions_(positions) {
  for (const Block& block : blocks_) {
    if (block.size() != positions_) {
      throw std::logic_error("Page: a block of " + std::to_string(block.size()) + " positions in a page of " +
                             std::to_string(positions_));
    }
  }
}

Page Page::take(std::span<const uint32_t> positions) const {
  std::vector<Block> blocks;
  blocks.reserve(blocks_.size());
  for (const Block& block : blocks_) blocks.push_back(block.take(positions));
  return Page(std::move(blocks), positions.size());
}

Page Page::slice(size_t offset, size_t length) const {
  std::vector<Block> blocks;
  blocks.reserve(blocks_.size());
  for (const Block& block : blocks_) blocks.push_back(block.slice(offset, length));
  return Page(std::move(blocks), length);
}

}  // namespace quarry::engine
