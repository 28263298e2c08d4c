#include "quarry/arrow/flat_builder.h"

#include <algorithm>
#include <cstring>

namespace quarry::arrow {

void FlatBuilder::prepend(const void* bytes, size_t n) {
  if (head_ < n) {
    // Grow at the front: the built part moves to the end of a larger buffer.
    const size_t used = bytes_.size() - head_;
    const size_t capacity = std::max<size_t>(64, 2 * (used + n));
    std::vector<uint8_t> grown(capacity);
    if (used > 0) std::memcpy(grown.data() + capacity - used, bytes_.data() + head_, used);
    bytes_ = std::move(grown);
    head_ = capacity - used;
  }
  head_ -= n;
  if (n > 0) std::memcpy(bytes_.data() + head_, bytes, n);
}

void FlatBuilder::align(size_t width, size_t alignment) {
  static const uint8_t kZeros[16] = {};
  const size_t pad = (alignment - (size() + width) % alignment) % alignment;
  prepend(kZeros, pad);
}

void FlatBuilder::patch(Ref at, const void* bytes, size_t n) {
  std::memcpy(bytes_.data() + bytes_.size() - at, bytes, n);
}

FlatBuilder::Ref FlatBuilder::createString(std::string_view text) {
  align(text.size() + 1, 4);
  const uint8_t nul = 0;
  prepend(&nul, 1);
  prepend(text.data(), text.size());
  const auto length = static_cast<uint32_t>(text.size());
  prepend(&length, 4);
  return size();
}

FlatBuilder::Ref FlatBuilder::createStructVector(const void* bytes, size_t count,
                                                 size_t elementSize, size_t alignment) {
  align(count * elementSize, std::max<size_t>(alignment, 4));
  prepend(bytes, count * elementSize);
  const auto length = static_cast<uint32_t>(count);
  prepend(&length, 4);
  return size();
}

FlatBuilder::Ref FlatBuilder::createRefVector(const std::vector<Ref>& refs) {
  align(4 * (refs.size() + 1), 4);
  for (size_t i = refs.size(); i-- > 0;) {
    const uint32_t offset = size() + 4 - refs[i];  // from the element to the object, forward
    prepend(&offset, 4);
  }
  const auto length = static_cast<uint32_t>(refs.size());
  prepend(&length, 4);
  return size();
}

void FlatBuilder::startTable() {
  fields_.clear();
  tableStart_ = size();
}

void FlatBuilder::addScalar(int id, const void* value, size_t n) {
  align(n, n);
  prepend(value, n);
  fields_.push_back({id, size()});
}

void FlatBuilder::addRef(int id, Ref ref) {
  align(4, 4);
  const uint32_t offset = size() + 4 - ref;
  prepend(&offset, 4);
  fields_.push_back({id, size()});
}

FlatBuilder::Ref FlatBuilder::endTable() {
  align(4, 4);
  const int32_t placeholder = 0;
  prepend(&placeholder, 4);
  const Ref table = size();
  int maxId = -1;
  for (const FieldSlot& field : fields_) maxId = std::max(maxId, field.id);
  std::vector<uint16_t> vtable(2 + static_cast<size_t>(maxId + 1), 0);
  vtable[0] = static_cast<uint16_t>(2 * vtable.size());
  vtable[1] = static_cast<uint16_t>(table - tableStart_);
  for (const FieldSlot& field : fields_)
    vtable[2 + field.id] = static_cast<uint16_t>(table - field.at);
  prepend(vtable.data(), 2 * vtable.size());
  // The table's first word leads back to its vtable: vtable = table - soffset.
  const auto soffset = static_cast<int32_t>(size() - table);
  patch(table, &soffset, 4);
  fields_.clear();
  return table;
}

std::vector<uint8_t> FlatBuilder::finish(Ref root) {
  align(4, 8);
  const uint32_t offset = size() + 4 - root;
  prepend(&offset, 4);
  return {bytes_.begin() + static_cast<std::ptrdiff_t>(head_), bytes_.end()};
}

}  // namespace quarry::arrow
