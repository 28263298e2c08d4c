#include "quarry/formats/parquet/variant_encoding.h"

#include <cstring>
#include <string>

#include "quarry/common/error.h"
#include "quarry/common/little_endian.h"
#include "quarry/common/utf8.h"

namespace quarry::parquet {
namespace {

constexpr int64_t kMicrosPerDay = 86'400'000'000;

uint32_t readLittleEndian(const uint8_t* p, int size) {
  uint32_t v = 0;
  for (int i = 0; i < size; ++i) v |= static_cast<uint32_t>(p[i]) << (8 * i);
  return v;
}

std::string_view asText(std::span<const uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

[[noreturn]] void corruptMetadata(const std::string& what) {
  throw CorruptFile("Variant metadata: " + what);
}

[[noreturn]] void corruptValue(size_t offset, const std::string& what) {
  throw CorruptFile("Variant value at offset " + std::to_string(offset) + ": " + what);
}

/// The header fields shared by objects and arrays (arrays have no field ids).
struct ContainerHeader {
  int countSize;
  int idSize;  // 0 for arrays
  int offsetSize;
};

ContainerHeader containerHeader(uint8_t first) {
  const int offsetSize = ((first >> 2) & 3) + 1;
  if ((first & 3) == static_cast<uint8_t>(VariantBasicType::kObject)) {
    return {(first >> 6) & 1 ? 4 : 1, ((first >> 4) & 3) + 1, offsetSize};
  }
  return {(first >> 4) & 1 ? 4 : 1, 0, offsetSize};
}

/// Checks the value starting at `bytes[0]`, which may extend at most to the end
/// of `bytes`; returns its size. `base` is its offset in the top-level value.
size_t validateValue(const VariantMetadata& metadata, std::span<const uint8_t> bytes, size_t base,
                     int depth) {
  if (bytes.empty()) corruptValue(base, "expected a value, found the end of the bytes");
  if (depth > kMaxVariantDepth) {
    corruptValue(base, "nesting is deeper than " + std::to_string(kMaxVariantDepth) + " levels");
  }
  const uint8_t first = bytes[0];
  const size_t available = bytes.size() - 1;
  switch (static_cast<VariantBasicType>(first & 3)) {
    case VariantBasicType::kPrimitive: {
      const uint8_t type = first >> 2;
      const int fixed = variantPrimitiveDataSize(type);
      if (fixed == -2) corruptValue(base, "unknown primitive type id " + std::to_string(type));
      if (fixed >= 0) {
        if (static_cast<size_t>(fixed) > available) {
          corruptValue(base, "primitive type " + std::to_string(type) + " needs " +
                                 std::to_string(fixed) + " bytes, " + std::to_string(available) +
                                 " remain");
        }
        const auto t = static_cast<VariantPrimitiveType>(type);
        if ((t == VariantPrimitiveType::kDecimal4 || t == VariantPrimitiveType::kDecimal8 ||
             t == VariantPrimitiveType::kDecimal16) &&
            bytes[1] > 38) {
          corruptValue(base, "decimal scale " + std::to_string(bytes[1]) + " is past 38");
        }
        if (t == VariantPrimitiveType::kTimeNtzMicros) {
          // Microseconds since midnight: a value outside the day is no time at all.
          int64_t micros = 0;
          std::memcpy(&micros, &bytes[1], sizeof micros);
          if (micros < 0 || micros >= kMicrosPerDay) {
            corruptValue(base, "time " + std::to_string(micros) +
                                   " microseconds lies outside the day [0, 86400000000)");
          }
        }
        return 1 + static_cast<size_t>(fixed);
      }
      if (available < 4) corruptValue(base, "a binary or string needs a 4-byte size");
      const uint32_t size = readLittleEndian(&bytes[1], 4);
      if (size > available - 4) {
        corruptValue(base, "a binary or string of " + std::to_string(size) + " bytes overruns the " +
                               std::to_string(available - 4) + " that remain");
      }
      if (static_cast<VariantPrimitiveType>(type) == VariantPrimitiveType::kString &&
          !isValidUtf8(asText(bytes.subspan(5, size)))) {
        corruptValue(base, "a string is not valid UTF-8");
      }
      return 5 + size;
    }
    case VariantBasicType::kShortString: {
      const size_t size = first >> 2;
      if (size > available) {
        corruptValue(base, "a short string of " + std::to_string(size) + " bytes overruns the " +
                               std::to_string(available) + " that remain");
      }
      if (!isValidUtf8(asText(bytes.subspan(1, size)))) {
        corruptValue(base, "a short string is not valid UTF-8");
      }
      return 1 + size;
    }
    case VariantBasicType::kObject:
    case VariantBasicType::kArray: break;
  }
  const bool isObject = (first & 3) == static_cast<uint8_t>(VariantBasicType::kObject);
  const char* what = isObject ? "an object" : "an array";
  const ContainerHeader h = containerHeader(first);
  if (static_cast<size_t>(h.countSize) > available) {
    corruptValue(base, std::string(what) + "'s element count is cut short");
  }
  const uint64_t count = readLittleEndian(&bytes[1], h.countSize);
  const uint64_t idsBegin = 1 + static_cast<uint64_t>(h.countSize);
  const uint64_t offsetsBegin = idsBegin + count * static_cast<uint64_t>(h.idSize);
  const uint64_t valuesBegin = offsetsBegin + (count + 1) * static_cast<uint64_t>(h.offsetSize);
  if (valuesBegin > bytes.size()) {
    corruptValue(base, std::string(what) + " of " + std::to_string(count) + " elements needs " +
                           std::to_string(valuesBegin) + " header bytes, " +
                           std::to_string(bytes.size()) + " remain");
  }
  auto offsetAt = [&](uint64_t i) {
    return readLittleEndian(&bytes[offsetsBegin + i * h.offsetSize], h.offsetSize);
  };
  const uint64_t dataSize = offsetAt(count);
  if (dataSize > bytes.size() - valuesBegin) {
    corruptValue(base, std::string(what) + "'s values end at " + std::to_string(dataSize) +
                           ", past the " + std::to_string(bytes.size() - valuesBegin) +
                           " bytes that remain");
  }
  const auto values = bytes.subspan(valuesBegin, dataSize);
  std::string_view previousName;
  for (uint64_t i = 0; i < count; ++i) {
    if (isObject) {
      const uint32_t id = readLittleEndian(&bytes[idsBegin + i * h.idSize], h.idSize);
      if (id >= metadata.size()) {
        corruptValue(base, "object field id " + std::to_string(id) + " is past the metadata's " +
                               std::to_string(metadata.size()) + " names");
      }
      const std::string_view name = metadata.name(id);
      if (i > 0 && !(previousName < name)) {
        corruptValue(base, "object field '" + std::string(name) + "' follows '" +
                               std::string(previousName) +
                               "'; field names must be unique and in ascending order");
      }
      previousName = name;
    }
    const uint32_t offset = offsetAt(i);
    if (offset >= dataSize) {
      corruptValue(base, std::string(what) + "'s element " + std::to_string(i) + " starts at " +
                             std::to_string(offset) + ", at or past its values' end " +
                             std::to_string(dataSize));
    }
    validateValue(metadata, values.subspan(offset), base + valuesBegin + offset, depth + 1);
  }
  return valuesBegin + dataSize;
}

/// Returns the size of the validated value at `p`.
size_t validatedSize(const uint8_t* p) {
  const uint8_t first = p[0];
  switch (static_cast<VariantBasicType>(first & 3)) {
    case VariantBasicType::kPrimitive: {
      const int fixed = variantPrimitiveDataSize(first >> 2);
      return fixed >= 0 ? 1 + static_cast<size_t>(fixed) : 5 + size_t{readLittleEndian(p + 1, 4)};
    }
    case VariantBasicType::kShortString: return 1 + static_cast<size_t>(first >> 2);
    default: break;
  }
  const ContainerHeader h = containerHeader(first);
  const size_t count = readLittleEndian(p + 1, h.countSize);
  const size_t offsetsBegin = 1 + h.countSize + count * h.idSize;
  const size_t valuesBegin = offsetsBegin + (count + 1) * h.offsetSize;
  return valuesBegin + readLittleEndian(p + offsetsBegin + count * h.offsetSize, h.offsetSize);
}

}  // namespace

int variantPrimitiveDataSize(uint8_t typeId) {
  using T = VariantPrimitiveType;
  switch (static_cast<T>(typeId)) {
    case T::kNull:
    case T::kTrue:
    case T::kFalse: return 0;
    case T::kInt8: return 1;
    case T::kInt16: return 2;
    case T::kInt32:
    case T::kDate:
    case T::kFloat: return 4;
    case T::kInt64:
    case T::kDouble:
    case T::kTimestampMicros:
    case T::kTimestampNtzMicros:
    case T::kTimeNtzMicros:
    case T::kTimestampNanos:
    case T::kTimestampNtzNanos: return 8;
    case T::kDecimal4: return 5;
    case T::kDecimal8: return 9;
    case T::kDecimal16: return 17;
    case T::kUuid: return 16;
    case T::kBinary:
    case T::kString: return -1;
  }
  return -2;
}

VariantMetadata VariantMetadata::parse(std::span<const uint8_t> bytes) {
  if (bytes.empty()) corruptMetadata("empty; expected at least the header byte");
  VariantMetadata m;
  m.bytes_ = bytes;
  const uint8_t header = bytes[0];
  if ((header & 0x0F) != 1) {
    corruptMetadata("version " + std::to_string(header & 0x0F) + " is not 1");
  }
  m.sorted_ = (header >> 4) & 1;
  m.offsetSize_ = static_cast<uint8_t>(((header >> 6) & 3) + 1);
  if (bytes.size() < 1u + m.offsetSize_) corruptMetadata("the dictionary size is cut short");
  m.size_ = readLittleEndian(&bytes[1], m.offsetSize_);
  const uint64_t offsetsBegin = 1 + m.offsetSize_;
  const uint64_t stringsBegin = offsetsBegin + (uint64_t{m.size_} + 1) * m.offsetSize_;
  if (stringsBegin > bytes.size()) {
    corruptMetadata("a dictionary of " + std::to_string(m.size_) + " names needs " +
                    std::to_string(stringsBegin) + " bytes of offsets, the metadata has " +
                    std::to_string(bytes.size()));
  }
  m.stringsBegin_ = stringsBegin;
  const uint64_t stringsSize = bytes.size() - stringsBegin;
  if (m.offset(0) != 0) corruptMetadata("the first offset is " + std::to_string(m.offset(0)) + ", not 0");
  if (m.offset(m.size_) != stringsSize) {
    corruptMetadata("the last offset is " + std::to_string(m.offset(m.size_)) +
                    ", the names' bytes are " + std::to_string(stringsSize));
  }
  // Ascending offsets from 0 to the strings' size keep every name in bounds.
  for (uint32_t i = 0; i < m.size_; ++i) {
    if (m.offset(i + 1) < m.offset(i)) {
      corruptMetadata("offset " + std::to_string(i + 1) + " (" + std::to_string(m.offset(i + 1)) +
                      ") is below the one before it (" + std::to_string(m.offset(i)) + ")");
    }
  }
  std::string_view previous;
  for (uint32_t i = 0; i < m.size_; ++i) {
    const std::string_view name = m.name(i);
    if (!isValidUtf8(name)) corruptMetadata("name " + std::to_string(i) + " is not valid UTF-8");
    if (m.sorted_ && i > 0 && !(previous < name)) {
      corruptMetadata("the header says sorted, but name '" + std::string(name) + "' follows '" +
                      std::string(previous) + "'");
    }
    previous = name;
  }
  return m;
}

uint32_t VariantMetadata::offset(uint32_t i) const {
  return readLittleEndian(&bytes_[1 + offsetSize_ + size_t{i} * offsetSize_], offsetSize_);
}

std::string_view VariantMetadata::name(uint32_t id) const {
  const uint32_t begin = offset(id);
  return asText(bytes_.subspan(stringsBegin_ + begin, offset(id + 1) - begin));
}

std::optional<uint32_t> VariantMetadata::find(std::string_view name) const {
  if (sorted_) {
    uint32_t low = 0;
    uint32_t high = size_;
    while (low < high) {
      const uint32_t mid = low + (high - low) / 2;
      const std::string_view candidate = this->name(mid);
      if (candidate == name) return mid;
      if (candidate < name) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return std::nullopt;
  }
  for (uint32_t i = 0; i < size_; ++i) {
    if (this->name(i) == name) return i;
  }
  return std::nullopt;
}

VariantValue VariantValue::parse(const VariantMetadata& metadata, std::span<const uint8_t> bytes) {
  const size_t size = validateValue(metadata, bytes, 0, 0);
  if (size != bytes.size()) {
    corruptValue(size, std::to_string(bytes.size() - size) + " bytes follow the end of the value");
  }
  return VariantValue(metadata, bytes);
}

VariantPrimitiveType VariantValue::primitiveType() const {
  if (basicType() == VariantBasicType::kShortString) return VariantPrimitiveType::kString;
  return static_cast<VariantPrimitiveType>(bytes_[0] >> 2);
}

int64_t VariantValue::getLong() const {
  using T = VariantPrimitiveType;
  const uint8_t* p = data().data();
  switch (primitiveType()) {
    case T::kInt8: return static_cast<int8_t>(p[0]);
    case T::kInt16: return loadLittleEndian<int16_t>(p);
    case T::kInt32:
    case T::kDate: return loadLittleEndian<int32_t>(p);
    case T::kInt64:
    case T::kTimestampMicros:
    case T::kTimestampNtzMicros:
    case T::kTimeNtzMicros:
    case T::kTimestampNanos:
    case T::kTimestampNtzNanos: return loadLittleEndian<int64_t>(p);
    default: break;
  }
  throw InvalidArgument("getLong: the Variant value is not an integer, date, time or timestamp");
}

double VariantValue::getDouble() const {
  if (primitiveType() != VariantPrimitiveType::kDouble) {
    throw InvalidArgument("getDouble: the Variant value is not a double");
  }
  return loadLittleEndian<double>(data().data());
}

float VariantValue::getFloat() const {
  if (primitiveType() != VariantPrimitiveType::kFloat) {
    throw InvalidArgument("getFloat: the Variant value is not a float");
  }
  return loadLittleEndian<float>(data().data());
}

std::string_view VariantValue::getString() const {
  if (basicType() == VariantBasicType::kShortString) return asText(data().first(bytes_[0] >> 2));
  const VariantPrimitiveType t = primitiveType();
  if (t != VariantPrimitiveType::kString && t != VariantPrimitiveType::kBinary) {
    throw InvalidArgument("getString: the Variant value is not a string or binary");
  }
  return asText(data().subspan(4, readLittleEndian(data().data(), 4)));
}

Decimal VariantValue::getDecimal() const {
  const int size = variantPrimitiveDataSize(bytes_[0] >> 2) - 1;
  const VariantPrimitiveType t = primitiveType();
  if (t != VariantPrimitiveType::kDecimal4 && t != VariantPrimitiveType::kDecimal8 &&
      t != VariantPrimitiveType::kDecimal16) {
    throw InvalidArgument("getDecimal: the Variant value is not a decimal");
  }
  Decimal d;
  d.scale = data()[0];
  for (int i = size; i >= 1; --i) d.unscaledBigEndian.push_back(data()[i]);
  return d;
}

Uuid VariantValue::getUuid() const {
  if (primitiveType() != VariantPrimitiveType::kUuid) {
    throw InvalidArgument("getUuid: the Variant value is not a UUID");
  }
  Uuid u;
  std::memcpy(u.bytes.data(), data().data(), 16);
  return u;
}

struct VariantValue::Layout {
  ContainerHeader header;
  uint32_t count;
  size_t idsBegin;
  size_t offsetsBegin;
  size_t valuesBegin;
};

VariantValue::Layout VariantValue::layout() const {
  const VariantBasicType type = basicType();
  if (type != VariantBasicType::kObject && type != VariantBasicType::kArray) {
    throw InvalidArgument("the Variant value is not an object or an array");
  }
  Layout l{containerHeader(bytes_[0]), 0, 0, 0, 0};
  l.count = readLittleEndian(&bytes_[1], l.header.countSize);
  l.idsBegin = 1 + l.header.countSize;
  l.offsetsBegin = l.idsBegin + size_t{l.count} * l.header.idSize;
  l.valuesBegin = l.offsetsBegin + (size_t{l.count} + 1) * l.header.offsetSize;
  return l;
}

uint32_t VariantValue::elementCount() const { return layout().count; }

uint32_t VariantValue::fieldId(uint32_t i) const {
  const Layout l = layout();
  if (basicType() != VariantBasicType::kObject || i >= l.count) {
    throw InvalidArgument("fieldId: no field " + std::to_string(i) + " in this Variant value");
  }
  return readLittleEndian(&bytes_[l.idsBegin + size_t{i} * l.header.idSize], l.header.idSize);
}

VariantValue VariantValue::element(uint32_t i) const {
  const Layout l = layout();
  if (i >= l.count) {
    throw InvalidArgument("element: index " + std::to_string(i) + " is past the " +
                          std::to_string(l.count) + " elements");
  }
  const size_t begin =
      l.valuesBegin + readLittleEndian(&bytes_[l.offsetsBegin + size_t{i} * l.header.offsetSize],
                                       l.header.offsetSize);
  return VariantValue(metadata_, bytes_.subspan(begin, validatedSize(&bytes_[begin])));
}

}  // namespace quarry::parquet
