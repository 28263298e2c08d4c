#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/formats/parquet/metadata.h"

/// The schema tree of a Parquet file, built from the flat depth-first list of
/// SchemaElements in the footer. Each node knows its dotted path, its maximum
/// definition and repetition levels, and its logical type resolved from the
/// LogicalType union or, for older writers, from the legacy ConvertedType.
namespace quarry::parquet {

struct SchemaNode {
  std::string name;
  /// Names from the root's child down to this node (the root's own name excluded).
  std::vector<std::string> pathParts;
  /// pathParts joined with '.'.
  std::string path;
  FieldRepetitionType repetition = FieldRepetitionType::REQUIRED;
  /// Present on leaves only.
  std::optional<PhysicalType> physicalType;
  int32_t typeLength = 0;
  /// The logical type in force: the LogicalType field where present and valid,
  /// else the one the ConvertedType implies; Kind::NONE when there is none.
  LogicalType logicalType;
  std::optional<ConvertedType> convertedType;
  /// True when the file named an annotation this release does not recognize or
  /// that the physical type cannot carry; the column is read as its physical
  /// type and its bounds' order is unknown.
  bool annotationDropped = false;
  int16_t maxDefinitionLevel = 0;
  int16_t maxRepetitionLevel = 0;
  /// Index of this node's element in FileMetaData::schema.
  int32_t elementIndex = 0;
  /// For leaves, the column chunk index; -1 for groups.
  int32_t leafIndex = -1;
  /// For a LIST group, the node holding one element, found by the spec's
  /// backward-compatibility rules (two- and three-level lists); for a MAP group,
  /// the key and value nodes under its repeated key_value group.
  const SchemaNode* listElement = nullptr;
  const SchemaNode* mapKey = nullptr;
  const SchemaNode* mapValue = nullptr;
  const SchemaNode* parent = nullptr;
  std::vector<std::unique_ptr<SchemaNode>> children;

  bool isLeaf() const { return physicalType.has_value(); }
  bool isRoot() const { return parent == nullptr; }
};

class FileSchema {
 public:
  /// Builds the tree; throws CorruptFile when the element list is not a valid
  /// depth-first encoding (children counts that overrun, leaves without a type,
  /// groups with a type, nesting deeper than kMaxDepth).
  static FileSchema build(const std::vector<SchemaElement>& elements);

  static constexpr int kMaxDepth = 256;

  const SchemaNode& root() const { return *root_; }
  size_t leafCount() const { return leaves_.size(); }
  const SchemaNode& leaf(size_t i) const { return *leaves_.at(i); }
  const std::vector<const SchemaNode*>& leaves() const { return leaves_; }

  /// Finds the node whose dotted path is exactly `path`, honouring names that
  /// contain dots; nullptr when none. Throws InvalidArgument when two nodes
  /// have that path (a top-level "a.b" beside a struct a with a field b).
  const SchemaNode* find(std::string_view path) const;

 private:
  std::unique_ptr<SchemaNode> root_;
  std::vector<const SchemaNode*> leaves_;
  std::vector<const SchemaNode*> nodes_;  // every node, depth-first
};

}  // namespace quarry::parquet
