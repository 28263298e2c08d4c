#include "quarry/formats/parquet/schema.h"

#include <unordered_map>

#include "quarry/common/error.h"

// The footer stores the schema as a depth-first list: each group element says
// how many children follow it. For
//   schema(2) -> id INT64, address(2) -> street BYTE_ARRAY, city BYTE_ARRAY
// the list is [schema nc=2, id, address nc=2, street, city]. Building walks the
// list once with a cursor, recursing per group, and checks every count against
// the elements that remain.
namespace quarry::parquet {
namespace {

using Kind = LogicalType::Kind;

LogicalType fromConvertedType(const SchemaElement& e) {
  LogicalType t;
  auto setInt = [&t](int8_t width, bool isSigned) {
    t.kind = Kind::INTEGER;
    t.bitWidth = width;
    t.isSigned = isSigned;
  };
  auto setTime = [&t](Kind kind, TimeUnit unit) {
    t.kind = kind;
    t.unit = unit;
    t.isAdjustedToUTC = true;  // the legacy types are UTC-normalized
  };
  switch (*e.converted_type) {
    case ConvertedType::UTF8: t.kind = Kind::STRING; break;
    case ConvertedType::MAP: t.kind = Kind::MAP; break;
    case ConvertedType::MAP_KEY_VALUE: break;  // marks the repeated key_value group only
    case ConvertedType::LIST: t.kind = Kind::LIST; break;
    case ConvertedType::ENUM: t.kind = Kind::ENUM; break;
    case ConvertedType::DECIMAL:
      t.kind = Kind::DECIMAL;
      t.scale = e.scale.value_or(0);
      t.precision = e.precision.value_or(0);
      break;
    case ConvertedType::DATE: t.kind = Kind::DATE; break;
    case ConvertedType::TIME_MILLIS: setTime(Kind::TIME, TimeUnit::MILLIS); break;
    case ConvertedType::TIME_MICROS: setTime(Kind::TIME, TimeUnit::MICROS); break;
    case ConvertedType::TIMESTAMP_MILLIS: setTime(Kind::TIMESTAMP, TimeUnit::MILLIS); break;
    case ConvertedType::TIMESTAMP_MICROS: setTime(Kind::TIMESTAMP, TimeUnit::MICROS); break;
    case ConvertedType::UINT_8: setInt(8, false); break;
    case ConvertedType::UINT_16: setInt(16, false); break;
    case ConvertedType::UINT_32: setInt(32, false); break;
    case ConvertedType::UINT_64: setInt(64, false); break;
    case ConvertedType::INT_8: setInt(8, true); break;
    case ConvertedType::INT_16: setInt(16, true); break;
    case ConvertedType::INT_32: setInt(32, true); break;
    case ConvertedType::INT_64: setInt(64, true); break;
    case ConvertedType::JSON: t.kind = Kind::JSON; break;
    case ConvertedType::BSON: t.kind = Kind::BSON; break;
    case ConvertedType::INTERVAL: t.kind = Kind::INTERVAL; break;
    default: t.kind = Kind::UNKNOWN_MEMBER; break;  // a value this release does not know
  }
  return t;
}

/// Returns whether a leaf of this physical type (or a group, when `physical`
/// is empty) may carry the logical type, per LogicalTypes.md.
bool carries(const std::optional<PhysicalType>& physical, int32_t typeLength, const LogicalType& t) {
  const bool group = !physical.has_value();
  const PhysicalType p = physical.value_or(PhysicalType::BOOLEAN);
  const bool byteArray = !group && p == PhysicalType::BYTE_ARRAY;
  const bool fixed = !group && p == PhysicalType::FIXED_LEN_BYTE_ARRAY;
  switch (t.kind) {
    case Kind::NONE: return true;
    case Kind::STRING:
    case Kind::ENUM:
    case Kind::JSON:
    case Kind::BSON:
    case Kind::GEOMETRY:
    case Kind::GEOGRAPHY: return byteArray;
    case Kind::MAP:
    case Kind::LIST:
    case Kind::VARIANT:
    case Kind::FILE: return group;
    case Kind::DECIMAL: {
      if (t.precision <= 0 || t.scale < 0 || t.scale > t.precision) return false;
      if (group) return false;
      if (p == PhysicalType::INT32) return t.precision <= 9;
      if (p == PhysicalType::INT64) return t.precision <= 18;
      return byteArray || fixed;
    }
    case Kind::DATE: return !group && p == PhysicalType::INT32;
    case Kind::TIME:
      if (group) return false;
      return t.unit == TimeUnit::MILLIS ? p == PhysicalType::INT32 : p == PhysicalType::INT64;
    case Kind::TIMESTAMP:
      return !group && (p == PhysicalType::INT64 || (fixed && typeLength == 12));
    case Kind::INTEGER:
      if (group) return false;
      if (t.bitWidth == 64) return p == PhysicalType::INT64;
      if (t.bitWidth == 8 || t.bitWidth == 16 || t.bitWidth == 32) return p == PhysicalType::INT32;
      return false;
    case Kind::UNKNOWN: return true;  // the NULL type annotates any column
    case Kind::UUID: return fixed && typeLength == 16;
    case Kind::FLOAT16: return fixed && typeLength == 2;
    case Kind::INTERVAL: return fixed && typeLength == 12;
    case Kind::UNKNOWN_MEMBER: return false;
  }
  return false;
}

void resolveLogicalType(const SchemaElement& e, SchemaNode& node) {
  node.convertedType = e.converted_type;
  LogicalType t;
  if (e.logicalType && e.logicalType->kind != Kind::UNKNOWN_MEMBER) {
    t = *e.logicalType;
  } else if (e.converted_type) {
    t = fromConvertedType(e);
  }
  // An unrecognized LogicalType member drops the annotation even where a legacy
  // ConvertedType is present: the bounds were written in the unknown type's order.
  bool dropped = e.logicalType && e.logicalType->kind == Kind::UNKNOWN_MEMBER;
  if (!carries(node.physicalType, node.typeLength, t)) {
    dropped = true;
    t = LogicalType{};
  }
  node.logicalType = t;
  node.annotationDropped = dropped;
}

bool isMapAnnotated(const SchemaNode& n) {
  return n.logicalType.kind == Kind::MAP ||
         n.convertedType == ConvertedType::MAP_KEY_VALUE;
}

// LogicalTypes.md, "Lists", backward-compatibility rules: the repeated child of
// a LIST group is the element itself (two-level list) when it is a primitive,
// when it is a group of several fields, or when its single-field group is named
// "array" or "<list>_tuple"; otherwise its single child is the element.
void resolveListAndMap(SchemaNode& node) {
  if (node.isLeaf() || node.children.size() != 1) return;
  const SchemaNode& repeated = *node.children[0];
  if (repeated.repetition != FieldRepetitionType::REPEATED) return;
  if (node.logicalType.kind == Kind::LIST) {
    const bool twoLevel = repeated.isLeaf() || repeated.children.size() != 1 ||
                          repeated.name == "array" || repeated.name == node.name + "_tuple";
    node.listElement = twoLevel ? &repeated : repeated.children[0].get();
  } else if (isMapAnnotated(node) && !repeated.isLeaf() && !repeated.children.empty()) {
    node.mapKey = repeated.children[0].get();
    if (repeated.children.size() > 1) node.mapValue = repeated.children[1].get();
  }
}

class Builder {
 public:
  Builder(const std::vector<SchemaElement>& elements, std::vector<const SchemaNode*>& leaves,
          std::vector<const SchemaNode*>& nodes)
      : elements_(elements), leaves_(leaves), nodes_(nodes) {}

  std::unique_ptr<SchemaNode> buildRoot() {
    if (elements_.empty()) throw CorruptFile("schema: the element list is empty");
    const SchemaElement& e = elements_[0];
    auto root = std::make_unique<SchemaNode>();
    root->name = e.name;
    root->elementIndex = 0;
    cursor_ = 1;
    const int32_t count = e.num_children.value_or(0);
    if (count < 0) throw CorruptFile("schema: root has a negative num_children " +
                                     std::to_string(count));
    addChildren(*root, count, 1);
    if (cursor_ != elements_.size()) {
      throw CorruptFile("schema: " + std::to_string(elements_.size() - cursor_) +
                        " elements follow the last child of the root");
    }
    return root;
  }

 private:
  void addChildren(SchemaNode& parent, int32_t count, int depth) {
    if (depth > FileSchema::kMaxDepth) {
      throw CorruptFile("schema: nesting deeper than " + std::to_string(FileSchema::kMaxDepth) +
                        " at element " + std::to_string(cursor_));
    }
    if (static_cast<uint64_t>(count) > elements_.size() - cursor_) {
      throw CorruptFile("schema: element " + std::to_string(parent.elementIndex) + " ('" +
                        parent.name + "') claims " + std::to_string(count) +
                        " children but only " + std::to_string(elements_.size() - cursor_) +
                        " elements follow");
    }
    parent.children.reserve(count);
    for (int32_t i = 0; i < count; ++i) parent.children.push_back(buildNode(parent, depth));
    resolveListAndMap(parent);
  }

  std::unique_ptr<SchemaNode> buildNode(const SchemaNode& parent, int depth) {
    // The count check in addChildren cannot see what earlier siblings' subtrees
    // consume, so every step checks again.
    if (cursor_ >= elements_.size()) {
      throw CorruptFile("schema: element " + std::to_string(parent.elementIndex) + " ('" +
                        parent.name + "') claims more children than the " +
                        std::to_string(elements_.size()) + " elements hold");
    }
    const int32_t index = static_cast<int32_t>(cursor_++);
    const SchemaElement& e = elements_[index];
    auto node = std::make_unique<SchemaNode>();
    node->name = e.name;
    node->elementIndex = index;
    node->parent = &parent;
    node->pathParts = parent.pathParts;
    node->pathParts.push_back(e.name);
    node->path = parent.path.empty() ? e.name : parent.path + "." + e.name;
    if (!e.repetition_type) {
      throw CorruptFile("schema: element " + std::to_string(index) + " ('" + e.name +
                        "') has no repetition_type");
    }
    node->repetition = *e.repetition_type;
    if (node->repetition != FieldRepetitionType::REQUIRED &&
        node->repetition != FieldRepetitionType::OPTIONAL &&
        node->repetition != FieldRepetitionType::REPEATED) {
      throw CorruptFile("schema: element " + std::to_string(index) + " ('" + e.name +
                        "') has an unknown repetition_type " +
                        std::to_string(static_cast<int32_t>(node->repetition)));
    }
    node->maxDefinitionLevel = static_cast<int16_t>(
        parent.maxDefinitionLevel + (node->repetition != FieldRepetitionType::REQUIRED));
    node->maxRepetitionLevel = static_cast<int16_t>(
        parent.maxRepetitionLevel + (node->repetition == FieldRepetitionType::REPEATED));
    nodes_.push_back(node.get());

    const bool group = e.num_children.has_value() && *e.num_children > 0;
    if (!group) {
      if (!e.type) {
        // An empty group (num_children 0, no type) holds no column.
        if (e.num_children) {
          resolveLogicalType(e, *node);
          return node;
        }
        throw CorruptFile("schema: element " + std::to_string(index) + " ('" + e.name +
                          "') is neither a group nor typed");
      }
      const auto physical = static_cast<int32_t>(*e.type);
      if (physical < 0 || physical > static_cast<int32_t>(PhysicalType::FIXED_LEN_BYTE_ARRAY)) {
        throw CorruptFile("schema: column '" + node->path + "' has an unknown physical type " +
                          std::to_string(physical));
      }
      node->physicalType = *e.type;
      if (*e.type == PhysicalType::FIXED_LEN_BYTE_ARRAY) {
        if (!e.type_length || *e.type_length < 0) {
          throw CorruptFile("schema: FIXED_LEN_BYTE_ARRAY column '" + node->path +
                            "' has no valid type_length (" +
                            (e.type_length ? std::to_string(*e.type_length) : "absent") + ")");
        }
        node->typeLength = *e.type_length;
      }
      node->leafIndex = static_cast<int32_t>(leaves_.size());
      leaves_.push_back(node.get());
      resolveLogicalType(e, *node);
      return node;
    }
    resolveLogicalType(e, *node);
    addChildren(*node, *e.num_children, depth + 1);
    return node;
  }

  const std::vector<SchemaElement>& elements_;
  std::vector<const SchemaNode*>& leaves_;
  std::vector<const SchemaNode*>& nodes_;
  size_t cursor_ = 0;
};

}  // namespace

FileSchema FileSchema::build(const std::vector<SchemaElement>& elements) {
  FileSchema schema;
  Builder builder(elements, schema.leaves_, schema.nodes_);
  schema.root_ = builder.buildRoot();
  return schema;
}

const SchemaNode* FileSchema::find(std::string_view path) const {
  const SchemaNode* found = nullptr;
  for (const SchemaNode* node : nodes_) {
    if (node->path != path) continue;
    if (found != nullptr) {
      throw InvalidArgument("Column path '" + std::string(path) +
                            "' is ambiguous: it names more than one field");
    }
    found = node;
  }
  return found;
}

}  // namespace quarry::parquet
