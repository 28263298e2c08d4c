#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quarry/formats/orc/orc_proto.pb.h"

/// The type tree of an ORC file. The footer stores it flattened in pre-order:
/// type 0 is the root struct, and each compound type lists the ids of its
/// children, which are also the column ids of their streams. For
///   struct<a:int,b:map<string,struct<c:double>>>
/// the ids are root 0, a 1, b 2, its key 3, its value 4 and c 5.
namespace quarry::orc {

/// The type kinds (values as the specification's Type.Kind).
enum class TypeKind : uint8_t {
  kBoolean = 0,
  kByte = 1,
  kShort = 2,
  kInt = 3,
  kLong = 4,
  kFloat = 5,
  kDouble = 6,
  kString = 7,
  kBinary = 8,
  kTimestamp = 9,
  kList = 10,
  kMap = 11,
  kStruct = 12,
  kUnion = 13,
  kDecimal = 14,
  kDate = 15,
  kVarchar = 16,
  kChar = 17,
  kTimestampInstant = 18,
};

/// Returns the Hive spelling of a kind ("bigint", "timestamp with local time zone").
std::string toString(TypeKind kind);

/// One node of the type tree; its id is its column id.
struct OrcType {
  TypeKind kind = TypeKind::kStruct;
  uint32_t columnId = 0;
  /// The largest column id in this subtree (ids are contiguous in pre-order).
  uint32_t maximumColumnId = 0;
  /// The field name in the parent struct; "_elem", "_key", "_value" or the union
  /// tag's number ("0", "1") elsewhere; "" for the root.
  std::string name;
  /// Dotted path from the root ("middle.list._elem.int1"); "" for the root.
  std::string path;
  uint32_t maximumLength = 0;  // char / varchar
  uint32_t precision = 0;      // decimal; 0 in files of Hive 0.11 (unbounded)
  uint32_t scale = 0;
  const OrcType* parent = nullptr;
  std::vector<const OrcType*> children;

  bool isCompound() const {
    return kind == TypeKind::kList || kind == TypeKind::kMap || kind == TypeKind::kStruct ||
           kind == TypeKind::kUnion;
  }
  /// Returns the Hive type string ("struct<a:int,b:array<string>>").
  std::string toTypeString() const;
};

/// The validated type tree of a file.
class OrcSchema {
 public:
  /// Builds the tree from the footer's types. Throws CorruptFile naming `uri`
  /// when a type has an unknown kind, children out of pre-order, the wrong
  /// number of children or field names, or nests deeper than kMaxDepth.
  static OrcSchema build(const proto::Footer& footer, const std::string& uri);

  static constexpr int kMaxDepth = 200;

  const OrcType& root() const { return *types_.front(); }
  size_t columnCount() const { return types_.size(); }
  /// Returns the type of column `id` (0 .. columnCount() - 1).
  const OrcType& column(uint32_t id) const { return *types_.at(id); }
  /// Returns the column whose dotted path is `path`, or nullptr.
  const OrcType* find(const std::string& path) const;

 private:
  std::vector<std::unique_ptr<OrcType>> types_;
};

}  // namespace quarry::orc
