#include "quarry/formats/parquet/variant_builder.h"

#include <algorithm>
#include <string>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

void appendLittleEndian(Bytes& out, uint64_t value, int size) {
  for (int i = 0; i < size; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

uint8_t primitiveHeader(VariantPrimitiveType type) {
  return static_cast<uint8_t>(static_cast<uint8_t>(type) << 2);
}

/// Appends the offsets of values of `sizes` laid end to end, and the end.
void appendOffsets(Bytes& out, const std::vector<size_t>& sizes, int offsetSize) {
  uint64_t offset = 0;
  appendLittleEndian(out, 0, offsetSize);
  for (const size_t size : sizes) {
    offset += size;
    appendLittleEndian(out, offset, offsetSize);
  }
}

/// Returns the offset size for `dataSize` bytes of values; throws when 4 bytes cannot hold it.
int offsetSizeFor(uint64_t dataSize) {
  if (dataSize > UINT32_MAX) {
    throw CorruptFile("a Variant object or array of " + std::to_string(dataSize) +
                      " bytes is past the encoding's 4 GiB limit");
  }
  return variantIntegerSize(static_cast<uint32_t>(dataSize));
}

}  // namespace

int variantIntegerSize(uint32_t maxValue) {
  if (maxValue <= 0xFF) return 1;
  if (maxValue <= 0xFFFF) return 2;
  if (maxValue <= 0xFFFFFF) return 3;
  return 4;
}

void appendVariantEmpty(Bytes& out, VariantPrimitiveType type) { out.push_back(primitiveHeader(type)); }

void appendVariantPrimitive(Bytes& out, VariantPrimitiveType type, std::span<const uint8_t> data) {
  out.push_back(primitiveHeader(type));
  out.insert(out.end(), data.begin(), data.end());
}

void appendVariantInteger(Bytes& out, VariantPrimitiveType type, int64_t value) {
  out.push_back(primitiveHeader(type));
  appendLittleEndian(out, static_cast<uint64_t>(value), variantPrimitiveDataSize(static_cast<uint8_t>(type)));
}

void appendVariantString(Bytes& out, std::string_view text) {
  if (text.size() < 64) {
    out.push_back(static_cast<uint8_t>(text.size() << 2 | 1));
  } else {
    out.push_back(primitiveHeader(VariantPrimitiveType::kString));
    appendLittleEndian(out, text.size(), 4);
  }
  out.insert(out.end(), text.begin(), text.end());
}

void appendVariantBinary(Bytes& out, std::span<const uint8_t> bytes) {
  out.push_back(primitiveHeader(VariantPrimitiveType::kBinary));
  appendLittleEndian(out, bytes.size(), 4);
  out.insert(out.end(), bytes.begin(), bytes.end());
}

void appendVariantDecimal(Bytes& out, VariantPrimitiveType type,
                          std::span<const uint8_t> unscaledBigEndian, int32_t scale) {
  const size_t width = static_cast<size_t>(variantPrimitiveDataSize(static_cast<uint8_t>(type)) - 1);
  const bool negative = !unscaledBigEndian.empty() && (unscaledBigEndian[0] & 0x80) != 0;
  const uint8_t fill = negative ? 0xFF : 0x00;
  // Leading sign bytes beyond the width are redundant; anything else does not fit.
  size_t skip = 0;
  while (unscaledBigEndian.size() - skip > width) {
    if (unscaledBigEndian[skip] != fill ||
        ((unscaledBigEndian[skip + 1] & 0x80) != 0) != negative) {
      throw CorruptFile("a decimal of " + std::to_string(unscaledBigEndian.size()) +
                        " bytes does not fit the Variant's " + std::to_string(width) +
                        "-byte decimal");
    }
    ++skip;
  }
  if (scale < 0 || scale > 38) {
    throw CorruptFile("a Variant decimal's scale must be 0 to 38, not " + std::to_string(scale));
  }
  out.push_back(primitiveHeader(type));
  out.push_back(static_cast<uint8_t>(scale));
  for (size_t i = unscaledBigEndian.size(); i > skip; --i) out.push_back(unscaledBigEndian[i - 1]);
  for (size_t i = unscaledBigEndian.size() - skip; i < width; ++i) out.push_back(fill);
}

void appendVariantObject(Bytes& out, std::vector<VariantObjectField> fields) {
  std::sort(fields.begin(), fields.end(),
            [](const VariantObjectField& a, const VariantObjectField& b) { return a.name < b.name; });
  uint32_t maxId = 0;
  uint64_t dataSize = 0;
  std::vector<size_t> sizes;
  sizes.reserve(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0 && fields[i].name == fields[i - 1].name) {
      throw CorruptFile("the Variant object has two fields named '" + std::string(fields[i].name) +
                        "'");
    }
    maxId = std::max(maxId, fields[i].id);
    dataSize += fields[i].value.size();
    sizes.push_back(fields[i].value.size());
  }
  const int offsetSize = offsetSizeFor(dataSize);
  const int idSize = variantIntegerSize(maxId);
  const bool large = fields.size() > 0xFF;
  out.push_back(static_cast<uint8_t>(static_cast<uint8_t>(VariantBasicType::kObject) |
                                     (offsetSize - 1) << 2 | (idSize - 1) << 4 | large << 6));
  appendLittleEndian(out, fields.size(), large ? 4 : 1);
  for (const VariantObjectField& f : fields) appendLittleEndian(out, f.id, idSize);
  appendOffsets(out, sizes, offsetSize);
  for (const VariantObjectField& f : fields) out.insert(out.end(), f.value.begin(), f.value.end());
}

void appendVariantArray(Bytes& out, const std::vector<std::span<const uint8_t>>& elements) {
  uint64_t dataSize = 0;
  std::vector<size_t> sizes;
  sizes.reserve(elements.size());
  for (const auto& e : elements) {
    dataSize += e.size();
    sizes.push_back(e.size());
  }
  const int offsetSize = offsetSizeFor(dataSize);
  const bool large = elements.size() > 0xFF;
  out.push_back(static_cast<uint8_t>(static_cast<uint8_t>(VariantBasicType::kArray) |
                                     (offsetSize - 1) << 2 | large << 4));
  appendLittleEndian(out, elements.size(), large ? 4 : 1);
  appendOffsets(out, sizes, offsetSize);
  for (const auto& e : elements) out.insert(out.end(), e.begin(), e.end());
}

}  // namespace quarry::parquet
