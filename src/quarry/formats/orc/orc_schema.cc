#include "quarry/formats/orc/orc_schema.h"

#include "quarry/common/error.h"

namespace quarry::orc {
namespace {

class SchemaBuilder {
 public:
  SchemaBuilder(const proto::Footer& footer, const std::string& uri,
                std::vector<std::unique_ptr<OrcType>>& types)
      : footer_(footer), uri_(uri), types_(types) {}

  /// Builds type `id` and its subtree; returns the largest id it used.
  uint32_t build(uint32_t id, const OrcType* parent, std::string name, int depth) {
    if (depth > OrcSchema::kMaxDepth) {
      fail(id, "types nest deeper than " + std::to_string(OrcSchema::kMaxDepth) + " levels");
    }
    const proto::Type& t = footer_.types(static_cast<int>(id));
    if (!t.has_kind()) fail(id, "the type has no (or an unknown) kind");
    auto node = std::make_unique<OrcType>();
    OrcType& type = *node;
    types_[id] = std::move(node);
    type.kind = static_cast<TypeKind>(t.kind());
    type.columnId = id;
    type.parent = parent;
    type.name = std::move(name);
    if (parent != nullptr) {
      type.path = parent->path.empty() ? type.name : parent->path + "." + type.name;
    }
    type.maximumLength = t.maximumlength();
    type.precision = t.precision();
    type.scale = t.scale();
    if (type.kind == TypeKind::kDecimal && type.precision != 0 &&
        (type.precision > 38 || type.scale > type.precision)) {
      fail(id, "decimal(" + std::to_string(type.precision) + "," + std::to_string(type.scale) +
                   ") is out of range");
    }
    const int n = t.subtypes_size();
    int expected = -1;  // any
    switch (type.kind) {
      case TypeKind::kList:
        expected = 1;
        break;
      case TypeKind::kMap:
        expected = 2;
        break;
      case TypeKind::kStruct:
        break;
      case TypeKind::kUnion:
        if (n == 0 || n > 256) fail(id, "a union has " + std::to_string(n) + " variants (1..256)");
        break;
      default:
        expected = 0;
    }
    if (expected >= 0 && n != expected) {
      fail(id, toString(type.kind) + " has " + std::to_string(n) + " children, expected " +
                   std::to_string(expected));
    }
    if (type.kind == TypeKind::kStruct && t.fieldnames_size() != n) {
      fail(id, "a struct has " + std::to_string(n) + " children but " +
                   std::to_string(t.fieldnames_size()) + " field names");
    }
    uint32_t next = id + 1;
    for (int i = 0; i < n; ++i) {
      const uint32_t child = t.subtypes(i);
      if (child != next || child >= types_.size()) {
        fail(id, "child " + std::to_string(i) + " has id " + std::to_string(child) + ", expected " +
                     std::to_string(next) + " (types in pre-order, " +
                     std::to_string(types_.size()) + " types)");
      }
      std::string childName;
      switch (type.kind) {
        case TypeKind::kStruct:
          childName = t.fieldnames(i);
          break;
        case TypeKind::kList:
          childName = "_elem";
          break;
        case TypeKind::kMap:
          childName = i == 0 ? "_key" : "_value";
          break;
        default:
          childName = std::to_string(i);
      }
      next = build(child, &type, std::move(childName), depth + 1) + 1;
      type.children.push_back(types_[child].get());
    }
    type.maximumColumnId = next - 1;
    return type.maximumColumnId;
  }

 private:
  [[noreturn]] void fail(uint32_t id, const std::string& reason) {
    throw CorruptFile(uri_ + ": invalid schema at type " + std::to_string(id) + ": " + reason);
  }

  const proto::Footer& footer_;
  const std::string& uri_;
  std::vector<std::unique_ptr<OrcType>>& types_;
};

}  // namespace

std::string toString(TypeKind kind) {
  switch (kind) {
    case TypeKind::kBoolean:
      return "boolean";
    case TypeKind::kByte:
      return "tinyint";
    case TypeKind::kShort:
      return "smallint";
    case TypeKind::kInt:
      return "int";
    case TypeKind::kLong:
      return "bigint";
    case TypeKind::kFloat:
      return "float";
    case TypeKind::kDouble:
      return "double";
    case TypeKind::kString:
      return "string";
    case TypeKind::kBinary:
      return "binary";
    case TypeKind::kTimestamp:
      return "timestamp";
    case TypeKind::kList:
      return "array";
    case TypeKind::kMap:
      return "map";
    case TypeKind::kStruct:
      return "struct";
    case TypeKind::kUnion:
      return "uniontype";
    case TypeKind::kDecimal:
      return "decimal";
    case TypeKind::kDate:
      return "date";
    case TypeKind::kVarchar:
      return "varchar";
    case TypeKind::kChar:
      return "char";
    case TypeKind::kTimestampInstant:
      return "timestamp with local time zone";
  }
  return "kind " + std::to_string(static_cast<int>(kind));
}

std::string OrcType::toTypeString() const {
  std::string out = toString(kind);
  switch (kind) {
    case TypeKind::kDecimal:
      return out + "(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
    case TypeKind::kVarchar:
    case TypeKind::kChar:
      return out + "(" + std::to_string(maximumLength) + ")";
    case TypeKind::kStruct: {
      out += '<';
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) out += ',';
        out += children[i]->name + ':' + children[i]->toTypeString();
      }
      return out + '>';
    }
    case TypeKind::kList:
    case TypeKind::kMap:
    case TypeKind::kUnion: {
      out += '<';
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) out += ',';
        out += children[i]->toTypeString();
      }
      return out + '>';
    }
    default:
      return out;
  }
}

OrcSchema OrcSchema::build(const proto::Footer& footer, const std::string& uri) {
  OrcSchema schema;
  const auto count = static_cast<uint32_t>(footer.types_size());
  if (count == 0) throw CorruptFile(uri + ": invalid schema: the footer lists no types");
  schema.types_.resize(count);
  SchemaBuilder builder(footer, uri, schema.types_);
  const uint32_t last = builder.build(0, nullptr, "", 0);
  if (last + 1 != count) {
    throw CorruptFile(uri + ": invalid schema: types " + std::to_string(last + 1) + ".." +
                      std::to_string(count - 1) + " are not reachable from the root");
  }
  return schema;
}

const OrcType* OrcSchema::find(const std::string& path) const {
  for (const auto& type : types_) {
    if (type->path == path) return type.get();
  }
  return nullptr;
}

}  // namespace quarry::orc
