// libFuzzer target for the Variant binary encoding: the input's first byte
// tells where it splits into metadata and value. Validation must end in a
// checked value or CorruptFile; a value that validates is then walked through
// every accessor and rendered as JSON, which must not fail.
#include <cstddef>
#include <cstdint>
#include <span>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/variant.h"
#include "quarry/formats/parquet/variant_encoding.h"

namespace {

using namespace quarry::parquet;

void walk(const VariantValue& v, int depth) {
  switch (v.basicType()) {
    case VariantBasicType::kShortString: (void)v.getString(); return;
    case VariantBasicType::kPrimitive: break;
    case VariantBasicType::kObject:
    case VariantBasicType::kArray:
      for (uint32_t i = 0; i < v.elementCount(); ++i) {
        if (v.basicType() == VariantBasicType::kObject) (void)v.fieldName(i);
        walk(v.element(i), depth + 1);
      }
      return;
  }
  using P = VariantPrimitiveType;
  switch (v.primitiveType()) {
    case P::kDouble: (void)v.getDouble(); break;
    case P::kFloat: (void)v.getFloat(); break;
    case P::kDecimal4:
    case P::kDecimal8:
    case P::kDecimal16: (void)v.getDecimal().toString(); break;
    case P::kString:
    case P::kBinary: (void)v.getString(); break;
    case P::kUuid: (void)v.getUuid(); break;
    case P::kNull:
    case P::kTrue:
    case P::kFalse: break;
    default: (void)v.getLong(); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::span<const uint8_t> input(data + 1, size - 1);
  const size_t split = input.empty() ? 0 : data[0] % (input.size() + 1);
  const std::span<const uint8_t> metadataBytes = input.first(split);
  const std::span<const uint8_t> valueBytes = input.subspan(split);
  try {
    const VariantMetadata metadata = VariantMetadata::parse(metadataBytes);
    for (uint32_t i = 0; i < metadata.size() && i < 64; ++i) (void)metadata.find(metadata.name(i));
    const VariantValue value = VariantValue::parse(metadata, valueBytes);
    walk(value, 0);
    const Variant variant{quarry::Bytes(metadataBytes.begin(), metadataBytes.end()),
                          quarry::Bytes(valueBytes.begin(), valueBytes.end())};
    (void)variant.toJson();
  } catch (const quarry::CorruptFile&) {
  }
  return 0;
}
