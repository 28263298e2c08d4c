#include "quarry/arrow/page_arrays.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace quarry::arrow {

namespace {

using engine::Block;
using engine::TypeKind;

// ---- schemas

/// What an exported ArrowSchema owns: its strings and children.
struct SchemaData {
  std::string format;
  std::string name;
  std::vector<std::unique_ptr<ArrowSchema>> children;
  std::vector<ArrowSchema*> childPointers;
  std::unique_ptr<ArrowSchema> dictionary;  // a dictionary-encoded column's values
};

/// Releases an exported ArrowSchema or ArrowArray, the children it still holds
/// and its dictionary: one the consumer moved out is released already (its
/// release is null).
template <typename Object, typename Data>
void releaseExported(Object* object) {
  if (object == nullptr || object->release == nullptr) return;
  auto* data = static_cast<Data*>(object->private_data);
  for (Object* child : data->childPointers) {
    if (child->release != nullptr) child->release(child);
  }
  if (data->dictionary != nullptr && data->dictionary->release != nullptr)
    data->dictionary->release(data->dictionary.get());
  delete data;
  object->release = nullptr;
}

std::string timeUnitLetter(engine::TimeUnit unit) {
  switch (unit) {
    case engine::TimeUnit::kMillis:
      return "m";
    case engine::TimeUnit::kMicros:
      return "u";
    case engine::TimeUnit::kNanos:
      return "n";
  }
  return "u";
}

/// Returns the Arrow format string of a non-list kind.
std::string formatOf(TypeKind kind, const engine::DataType& type) {
  switch (kind) {
    case TypeKind::kNull:
      return "n";
    case TypeKind::kBoolean:
      return "b";
    case TypeKind::kInt32:
      return "i";
    case TypeKind::kInt64:
      return "l";
    case TypeKind::kUInt64:
      return "L";
    case TypeKind::kDouble:
      return "g";
    case TypeKind::kDecimal:
      return "d:" + std::to_string(type.precision) + "," + std::to_string(type.scale);
    case TypeKind::kString:
      return "U";
    case TypeKind::kBinary:
      return "Z";
    case TypeKind::kDate:
      return "tdD";
    case TypeKind::kTime:
      return "tt" + timeUnitLetter(type.unit);
    case TypeKind::kTimestamp:
      return "ts" + timeUnitLetter(type.unit) + (type.utcAdjusted ? ":UTC" : ":");
    case TypeKind::kUuid:
      return "w:16";
    case TypeKind::kList:
      break;
  }
  return "+L";
}

void fillSchema(ArrowSchema* out, std::string format, std::string name, int64_t flags,
                std::vector<std::unique_ptr<ArrowSchema>> children,
                std::unique_ptr<ArrowSchema> dictionary = nullptr) {
  auto data = std::make_unique<SchemaData>();
  data->dictionary = std::move(dictionary);
  data->format = std::move(format);
  data->name = std::move(name);
  data->children = std::move(children);
  for (auto& child : data->children) data->childPointers.push_back(child.get());
  out->format = data->format.c_str();
  out->name = data->name.c_str();
  out->metadata = nullptr;
  out->flags = flags;
  out->n_children = static_cast<int64_t>(data->childPointers.size());
  out->children = data->childPointers.empty() ? nullptr : data->childPointers.data();
  out->dictionary = data->dictionary.get();
  out->release = releaseExported<ArrowSchema, SchemaData>;
  out->private_data = data.release();
}

void fillFieldSchema(ArrowSchema* out, const engine::DataType& type, const std::string& name) {
  std::vector<std::unique_ptr<ArrowSchema>> children;
  if (type.kind == TypeKind::kList) {
    children.push_back(std::make_unique<ArrowSchema>());
    fillFieldSchema(children.back().get(), type.elementType(), "item");
  }
  fillSchema(out, formatOf(type.kind, type), name, ARROW_FLAG_NULLABLE, std::move(children));
}

/// A dictionary-encoded column: int32 indices ("i") into values of `type`.
void fillDictionarySchema(ArrowSchema* out, const engine::DataType& type, const std::string& name) {
  auto values = std::make_unique<ArrowSchema>();
  fillSchema(values.get(), formatOf(type.kind, type), "", ARROW_FLAG_NULLABLE, {});
  fillSchema(out, "i", name, ARROW_FLAG_NULLABLE, {}, std::move(values));
}

// ---- arrays

/// What an exported ArrowArray owns: what its buffers point into, the buffers
/// built for it, its children.
struct ArrayData {
  std::shared_ptr<const void> owner;
  std::vector<std::vector<uint8_t>> built;
  std::vector<const void*> buffers;
  std::vector<std::unique_ptr<ArrowArray>> children;
  std::vector<ArrowArray*> childPointers;
  std::unique_ptr<ArrowArray> dictionary;  // a dictionary-encoded column's values
};

/// Fills `out` from `data` (its buffers and children), which it then owns.
void finishArray(ArrowArray* out, std::unique_ptr<ArrayData> data, int64_t length,
                 int64_t nullCount) {
  for (auto& child : data->children) data->childPointers.push_back(child.get());
  out->length = length;
  out->null_count = nullCount;
  out->offset = 0;
  out->n_buffers = static_cast<int64_t>(data->buffers.size());
  out->n_children = static_cast<int64_t>(data->childPointers.size());
  out->buffers = data->buffers.empty() ? nullptr : data->buffers.data();
  out->children = data->childPointers.empty() ? nullptr : data->childPointers.data();
  out->dictionary = data->dictionary.get();
  out->release = releaseExported<ArrowArray, ArrayData>;
  out->private_data = data.release();
}

/// Returns a validity bitmap of `block` (null when no position is null) kept in
/// `data`, and counts its nulls.
const void* validityBitmap(const Block& block, ArrayData& data, int64_t& nullCount) {
  nullCount = 0;
  if (!block.hasNulls()) return nullptr;
  std::vector<uint8_t>& bits = data.built.emplace_back((block.size() + 7) / 8, 0);
  for (size_t i = 0; i < block.size(); ++i) {
    if (block.isNull(i)) {
      ++nullCount;
    } else {
      bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
    }
  }
  return bits.data();
}

template <typename T>
const void* builtBuffer(ArrayData& data, const std::vector<T>& values) {
  std::vector<uint8_t>& bytes = data.built.emplace_back(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes.data();
}

/// Arrow wants a non-null data buffer even for a zero-length array.
const void* nonNull(const void* pointer) {
  static const uint64_t kEmpty = 0;
  return pointer != nullptr ? pointer : &kEmpty;
}

void fillBlockArray(ArrowArray* out, const Block& block, const std::shared_ptr<const void>& owner) {
  auto data = std::make_unique<ArrayData>();
  data->owner = owner;
  const engine::DataType& type = block.type();
  int64_t nullCount = 0;
  const size_t n = block.size();
  if (type.kind == TypeKind::kNull) {
    nullCount = static_cast<int64_t>(n);
  } else {
    data->buffers.push_back(validityBitmap(block, *data, nullCount));
  }
  switch (type.kind) {
    case TypeKind::kNull:
      break;
    case TypeKind::kBoolean: {
      std::vector<uint8_t>& bits = data->built.emplace_back((n + 7) / 8, 0);
      const auto values = block.values<uint8_t>();
      for (size_t i = 0; i < n; ++i) {
        if (values[i] != 0) bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
      }
      data->buffers.push_back(bits.data());
      break;
    }
    case TypeKind::kInt32:
    case TypeKind::kDate:
      data->buffers.push_back(nonNull(block.values<int32_t>().data()));
      break;
    case TypeKind::kInt64:
    case TypeKind::kTimestamp:
      data->buffers.push_back(nonNull(block.values<int64_t>().data()));
      break;
    case TypeKind::kTime:
      if (type.unit == engine::TimeUnit::kMillis) {
        // Arrow's time32[ms] is 32 bits wide; milliseconds of a day fit.
        const auto values = block.values<int64_t>();
        std::vector<int32_t> narrow(values.begin(), values.end());
        data->buffers.push_back(builtBuffer(*data, narrow));
      } else {
        data->buffers.push_back(nonNull(block.values<int64_t>().data()));
      }
      break;
    case TypeKind::kUInt64:
      data->buffers.push_back(nonNull(block.values<uint64_t>().data()));
      break;
    case TypeKind::kDouble:
      data->buffers.push_back(nonNull(block.values<double>().data()));
      break;
    case TypeKind::kDecimal:
      data->buffers.push_back(nonNull(block.values<engine::Int128>().data()));
      break;
    case TypeKind::kString:
    case TypeKind::kBinary:
      // 64-bit offsets as the engine keeps them (a dictionary block in its plain form).
      data->buffers.push_back(block.byteOffsets().data());
      data->buffers.push_back(nonNull(block.byteData()));
      break;
    case TypeKind::kUuid: {
      std::vector<uint8_t>& bytes = data->built.emplace_back(n * 16, 0);
      for (size_t i = 0; i < n; ++i) {
        const std::string_view value = block.bytes(i);
        if (!block.isNull(i))
          std::memcpy(bytes.data() + i * 16, value.data(), std::min<size_t>(16, value.size()));
      }
      data->buffers.push_back(nonNull(bytes.data()));
      break;
    }
    case TypeKind::kList: {
      data->buffers.push_back(block.listOffsets().data());
      data->children.push_back(std::make_unique<ArrowArray>());
      fillBlockArray(data->children.back().get(), block.listElements(), owner);
      break;
    }
  }
  finishArray(out, std::move(data), static_cast<int64_t>(n), nullCount);
}

/// Fills `out` with a bytes block as a dictionary-encoded array: int32 indices
/// and the values they index. A block in the dictionary form exports its ids
/// and its dictionary's offsets and bytes without copies (a null position's id,
/// which the engine never reads, is set to 0 where it is past the dictionary);
/// a plain block is its own dictionary, indexed 0, 1, 2, ...
void fillDictionaryArray(ArrowArray* out, const Block& block,
                         const std::shared_ptr<const void>& owner) {
  auto data = std::make_unique<ArrayData>();
  data->owner = owner;
  int64_t nullCount = 0;
  const size_t n = block.size();
  data->buffers.push_back(validityBitmap(block, *data, nullCount));
  auto values = std::make_unique<ArrayData>();
  values->owner = owner;
  values->buffers.push_back(nullptr);
  int64_t valueCount = 0;
  if (block.isDictionary()) {
    const engine::ByteDictionary& dictionary = *block.dictionary();
    const std::span<const uint32_t> ids = block.dictionaryIds();
    uint32_t highest = 0;
    for (uint32_t id : ids) highest = std::max(highest, id);
    if (n > 0 && highest >= dictionary.size()) {
      std::vector<uint32_t> inRange(ids.begin(), ids.end());
      for (size_t i = 0; i < n; ++i) {
        if (block.isNull(i)) inRange[i] = 0;
      }
      data->buffers.push_back(builtBuffer(*data, inRange));
    } else {
      data->buffers.push_back(nonNull(ids.data()));
    }
    values->buffers.push_back(dictionary.offsets.data());
    values->buffers.push_back(nonNull(dictionary.data.data()));
    valueCount = static_cast<int64_t>(dictionary.size());
  } else {
    std::vector<int32_t> positions(n);
    for (size_t i = 0; i < n; ++i) positions[i] = static_cast<int32_t>(i);
    data->buffers.push_back(nonNull(builtBuffer(*data, positions)));
    values->buffers.push_back(block.byteOffsets().data());
    values->buffers.push_back(nonNull(block.byteData()));
    valueCount = static_cast<int64_t>(n);
  }
  data->dictionary = std::make_unique<ArrowArray>();
  finishArray(data->dictionary.get(), std::move(values), valueCount, 0);
  finishArray(out, std::move(data), static_cast<int64_t>(n), nullCount);
}

bool dictionaryAt(const std::vector<bool>& dictionaryColumns, size_t column) {
  return column < dictionaryColumns.size() && dictionaryColumns[column];
}

}  // namespace

std::vector<bool> dictionaryColumns(const engine::Page& page) {
  std::vector<bool> out(page.blockCount());
  for (size_t c = 0; c < page.blockCount(); ++c) {
    const Block& block = page.block(c);
    out[c] = block.isDictionary() &&
             (block.type().kind == TypeKind::kString || block.type().kind == TypeKind::kBinary);
  }
  return out;
}

void exportSchema(const engine::Schema& schema, ArrowSchema* out,
                  const std::vector<bool>& dictionaryColumns) {
  std::vector<std::unique_ptr<ArrowSchema>> children;
  for (size_t c = 0; c < schema.size(); ++c) {
    const engine::Field& field = schema[c];
    children.push_back(std::make_unique<ArrowSchema>());
    if (dictionaryAt(dictionaryColumns, c)) {
      fillDictionarySchema(children.back().get(), field.type, field.name);
    } else {
      fillFieldSchema(children.back().get(), field.type, field.name);
    }
  }
  fillSchema(out, "+s", "", 0, std::move(children));
}

void exportPage(const engine::Page& page, std::shared_ptr<const void> owner, ArrowArray* out,
                const std::vector<bool>& dictionaryColumns) {
  auto data = std::make_unique<ArrayData>();
  data->owner = owner;
  data->buffers.push_back(nullptr);  // a struct's validity: every row is one
  for (size_t c = 0; c < page.blockCount(); ++c) {
    data->children.push_back(std::make_unique<ArrowArray>());
    if (dictionaryAt(dictionaryColumns, c)) {
      fillDictionaryArray(data->children.back().get(), page.block(c), owner);
    } else {
      fillBlockArray(data->children.back().get(), page.block(c), owner);
    }
  }
  finishArray(out, std::move(data), static_cast<int64_t>(page.positionCount()), 0);
}

}  // namespace quarry::arrow
