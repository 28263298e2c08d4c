#include "quarry/formats/parquet/variant_shredding.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/common/utf8.h"
#include "quarry/formats/parquet/variant_builder.h"
#include "quarry/formats/parquet/variant_encoding.h"

namespace quarry::parquet {
namespace {

using Kind = LogicalType::Kind;
using P = VariantPrimitiveType;

std::span<const uint8_t> asBytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

[[noreturn]] void corrupt(const SchemaNode& node, const std::string& what) {
  throw CorruptFile("Variant column '" + node.path + "': " + what);
}

const SchemaNode* schemaChild(const SchemaNode& node, std::string_view name) {
  for (const auto& child : node.children) {
    if (child->name == name) return child.get();
  }
  return nullptr;
}

/// Returns the child `name` of a non-null group, or nullopt when the schema has
/// none; throws InvalidArgument when the schema has it but the projection does not.
std::optional<FieldValue> child(const FieldValue& group, std::string_view name) {
  if (schemaChild(group.node(), name) == nullptr) return std::nullopt;
  if (group.projected().child(name) == nullptr) {
    throw InvalidArgument("getVariant needs the whole Variant column '" + group.node().path +
                          "', but its '" + std::string(name) +
                          "' is not projected; project the Variant column by its name");
  }
  return group.getStruct().field(name);
}

/// A value / typed_value pair: the Variant group itself, a shredded object
/// field or an array element.
struct Shredded {
  std::optional<FieldValue> value;
  std::optional<FieldValue> typedValue;
};

/// Returns the pair of a group checkShreddedGroup accepted.
Shredded shreddedOf(const FieldValue& group) {
  return Shredded{child(group, "value"), child(group, "typed_value")};
}

[[noreturn]] void unsupportedType(const SchemaNode& node) {
  std::string type = node.isLeaf() ? toString(*node.physicalType) : "group";
  if (node.logicalType.kind != Kind::NONE) type += " " + toString(node.logicalType);
  corrupt(node, "Unsupported shredded value type: " + type +
                    " is not among the types VariantShredding.md allows");
}

/// Returns the Variant primitive a shredded leaf holds, by the spec's "Shredded
/// Value Types" table (BOOLEAN reads as kTrue); throws for any other type.
P shreddedType(const SchemaNode& node) {
  const LogicalType& t = node.logicalType;
  switch (*node.physicalType) {
    case PhysicalType::BOOLEAN:
      if (t.kind == Kind::NONE) return P::kTrue;
      break;
    case PhysicalType::INT32:
      if (t.kind == Kind::NONE) return P::kInt32;
      if (t.kind == Kind::INTEGER && t.isSigned) {
        if (t.bitWidth == 8) return P::kInt8;
        if (t.bitWidth == 16) return P::kInt16;
        if (t.bitWidth == 32) return P::kInt32;
      }
      if (t.kind == Kind::DATE) return P::kDate;
      if (t.kind == Kind::DECIMAL) return P::kDecimal4;
      break;
    case PhysicalType::INT64:
      if (t.kind == Kind::NONE || (t.kind == Kind::INTEGER && t.isSigned && t.bitWidth == 64)) {
        return P::kInt64;
      }
      if (t.kind == Kind::DECIMAL) return P::kDecimal8;
      if (t.kind == Kind::TIME && !t.isAdjustedToUTC && t.unit == TimeUnit::MICROS) {
        return P::kTimeNtzMicros;
      }
      if (t.kind == Kind::TIMESTAMP && t.unit == TimeUnit::MICROS) {
        return t.isAdjustedToUTC ? P::kTimestampMicros : P::kTimestampNtzMicros;
      }
      if (t.kind == Kind::TIMESTAMP && t.unit == TimeUnit::NANOS) {
        return t.isAdjustedToUTC ? P::kTimestampNanos : P::kTimestampNtzNanos;
      }
      break;
    case PhysicalType::FLOAT:
      if (t.kind == Kind::NONE) return P::kFloat;
      break;
    case PhysicalType::DOUBLE:
      if (t.kind == Kind::NONE) return P::kDouble;
      break;
    case PhysicalType::BYTE_ARRAY:
      if (t.kind == Kind::NONE) return P::kBinary;
      if (t.kind == Kind::STRING) return P::kString;
      if (t.kind == Kind::DECIMAL) return P::kDecimal16;
      break;
    case PhysicalType::FIXED_LEN_BYTE_ARRAY:
      if (t.kind == Kind::UUID && node.typeLength == 16) return P::kUuid;
      if (t.kind == Kind::DECIMAL) return P::kDecimal16;
      break;
    case PhysicalType::INT96: break;
  }
  unsupportedType(node);
}

/// Checks the shape of a value / typed_value group (the Variant group, an
/// object field or an array element) and of everything shredded below it, so
/// that a type the spec does not allow fails on every row, not only on rows
/// where it holds a value.
void checkShreddedGroup(const SchemaNode& group) {
  if (group.isLeaf()) corrupt(group, "a shredded Variant field or element must be a group");
  const SchemaNode* value = schemaChild(group, "value");
  const SchemaNode* typed = schemaChild(group, "typed_value");
  if (value == nullptr && typed == nullptr) {
    corrupt(group, "a Variant group needs a value or a typed_value field");
  }
  if (value != nullptr && (!value->isLeaf() || value->physicalType != PhysicalType::BYTE_ARRAY ||
                           value->repetition == FieldRepetitionType::REPEATED)) {
    corrupt(*value, "a Variant value must be a binary column that is not repeated");
  }
  if (typed == nullptr) return;
  if (typed->repetition == FieldRepetitionType::REPEATED) {
    corrupt(*typed, "a typed_value must not be repeated; arrays are shredded as a LIST");
  }
  if (typed->isLeaf()) {
    shreddedType(*typed);
  } else if (typed->logicalType.kind == Kind::LIST && typed->listElement != nullptr) {
    checkShreddedGroup(*typed->listElement);
  } else if (typed->logicalType.kind != Kind::NONE) {
    unsupportedType(*typed);
  } else {
    for (const auto& field : typed->children) {
      if (field->repetition == FieldRepetitionType::REPEATED) {
        corrupt(*field, "a shredded object field must not be repeated");
      }
      checkShreddedGroup(*field);
    }
  }
}

template <typename T>
void appendFloatingPoint(Bytes& out, P type, T value) {
  uint8_t bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  appendVariantPrimitive(out, type, bytes);
}

/// Appends the Variant primitive of a non-null shredded leaf.
void appendPrimitive(Bytes& out, const FieldValue& typed) {
  const SchemaNode& node = typed.node();
  const P type = shreddedType(node);
  switch (type) {
    case P::kTrue: appendVariantEmpty(out, typed.getBoolean() ? P::kTrue : P::kFalse); return;
    case P::kInt8:
    case P::kInt16:
    case P::kInt32:
    case P::kDate: appendVariantInteger(out, type, typed.getInt()); return;
    case P::kInt64:
    case P::kTimeNtzMicros:
    case P::kTimestampMicros:
    case P::kTimestampNtzMicros:
    case P::kTimestampNanos:
    case P::kTimestampNtzNanos: appendVariantInteger(out, type, typed.getLong()); return;
    case P::kFloat: appendFloatingPoint(out, type, typed.getFloat()); return;
    case P::kDouble: appendFloatingPoint(out, type, typed.getDouble()); return;
    case P::kDecimal4:
    case P::kDecimal8:
    case P::kDecimal16:
      appendVariantDecimal(out, type, typed.getDecimal().unscaledBigEndian, node.logicalType.scale);
      return;
    case P::kBinary: appendVariantBinary(out, asBytes(typed.rawBytes())); return;
    case P::kString: {
      const std::string_view text = typed.rawBytes();
      if (!isValidUtf8(text)) corrupt(node, "a shredded string is not valid UTF-8");
      appendVariantString(out, text);
      return;
    }
    case P::kUuid: appendVariantPrimitive(out, type, asBytes(typed.rawBytes())); return;
    default: break;
  }
  unsupportedType(node);
}

class Reassembler {
 public:
  explicit Reassembler(const VariantMetadata& metadata) : metadata_(metadata) {}

  /// Appends the value `s` holds in this row; returns false when it is missing
  /// (both value and typed_value null), appending nothing.
  bool append(Bytes& out, const Shredded& s) const {
    const bool hasValue = s.value && !s.value->isNull();
    if (s.typedValue && !s.typedValue->isNull()) {
      const FieldValue& typed = *s.typedValue;
      if (typed.node().isLeaf() || typed.node().listElement != nullptr) {
        if (hasValue) {
          corrupt(typed.node(),
                  "Invalid variant, conflicting value and typed_value: both are set, and only "
                  "an object may be partially shredded");
        }
        if (typed.node().isLeaf()) {
          appendPrimitive(out, typed);
        } else {
          appendArray(out, typed);
        }
      } else {
        appendObject(out, typed, hasValue ? &*s.value : nullptr);
      }
      return true;
    }
    if (!hasValue) return false;
    const std::span<const uint8_t> bytes = asBytes(s.value->rawBytes());
    parse(*s.value, bytes);
    out.insert(out.end(), bytes.begin(), bytes.end());
    return true;
  }

 private:
  VariantValue parse(const FieldValue& column, std::span<const uint8_t> bytes) const {
    try {
      return VariantValue::parse(metadata_, bytes);
    } catch (const CorruptFile& e) {
      corrupt(column.node(), e.what());
    }
  }

  void appendArray(Bytes& out, const FieldValue& typed) const {
    const PqList list = typed.getList();
    std::vector<Bytes> elements(list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      const FieldValue element = list.get(i);
      // A missing element is a Variant null: an array cannot skip a position.
      if (element.isNull() || !append(elements[i], shreddedOf(element))) {
        appendVariantEmpty(elements[i], P::kNull);
      }
    }
    appendVariantArray(out, std::vector<std::span<const uint8_t>>(elements.begin(), elements.end()));
  }

  /// Appends the object of the shredded fields in `typed` and, for a partially
  /// shredded object, the other fields from `value`.
  void appendObject(Bytes& out, const FieldValue& typed, const FieldValue* value) const {
    const SchemaNode& node = typed.node();
    std::vector<Bytes> shreddedValues(node.children.size());
    std::vector<VariantObjectField> fields;
    for (size_t i = 0; i < node.children.size(); ++i) {
      const std::string& name = node.children[i]->name;
      const std::optional<FieldValue> field = child(typed, name);
      if (field->isNull() || !append(shreddedValues[i], shreddedOf(*field))) continue;
      const std::optional<uint32_t> id = metadata_.find(name);
      if (!id) {
        corrupt(field->node(), "the shredded field name '" + name +
                                   "' is not in the Variant's metadata dictionary");
      }
      fields.push_back({*id, name, shreddedValues[i]});
    }
    if (value != nullptr) {
      const VariantValue object = parse(*value, asBytes(value->rawBytes()));
      if (object.basicType() != VariantBasicType::kObject) {
        corrupt(value->node(),
                "Invalid variant, non-object value with shredded fields: typed_value holds "
                "shredded object fields but value is not an object");
      }
      for (uint32_t i = 0; i < object.elementCount(); ++i) {
        const std::string_view name = object.fieldName(i);
        if (schemaChild(node, name) != nullptr) {
          corrupt(value->node(), "Invalid variant, field '" + std::string(name) +
                                     "' is both in value and among the shredded fields of "
                                     "typed_value");
        }
        fields.push_back({object.fieldId(i), name, object.element(i).bytes()});
      }
    }
    appendVariantObject(out, std::move(fields));
  }

  const VariantMetadata& metadata_;
};

}  // namespace

Variant reassembleVariant(const FieldValue& variantGroup) {
  const SchemaNode& node = variantGroup.node();
  const SchemaNode* metadataNode = node.isLeaf() ? nullptr : schemaChild(node, "metadata");
  if (metadataNode == nullptr || !metadataNode->isLeaf() ||
      metadataNode->physicalType != PhysicalType::BYTE_ARRAY) {
    throw InvalidArgument("getVariant does not read column '" + node.path +
                          "'; it reads a VARIANT group of a binary metadata and a value or "
                          "typed_value");
  }
  if (variantGroup.isNull()) {
    throw InvalidArgument("getVariant: column '" + node.path +
                          "' is null in this row; check isNull first");
  }
  const FieldValue metadataField = *child(variantGroup, "metadata");
  if (metadataField.isNull()) corrupt(*metadataNode, "the required metadata is null");
  const std::string_view metadataBytes = metadataField.rawBytes();
  Variant variant;
  variant.metadata.assign(metadataBytes.begin(), metadataBytes.end());
  VariantMetadata metadata;
  try {
    metadata = VariantMetadata::parse(variant.metadata);
  } catch (const CorruptFile& e) {
    corrupt(*metadataNode, e.what());
  }
  checkShreddedGroup(node);
  // A missing top-level Variant reads as a Variant null (VariantShredding.md).
  if (!Reassembler(metadata).append(variant.value, shreddedOf(variantGroup))) {
    appendVariantEmpty(variant.value, P::kNull);
  }
  return variant;
}

}  // namespace quarry::parquet
