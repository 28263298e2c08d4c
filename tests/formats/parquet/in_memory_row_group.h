#pragma once

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "quarry/formats/parquet/bound_predicate.h"
#include "quarry/formats/parquet/record_assembly.h"
#include "quarry/formats/parquet/row_filter.h"
#include "quarry/formats/parquet/schema.h"

/// A row group built in memory for predicate tests: flat optional columns of any
/// physical / logical type, given as their stored bytes (PLAIN's in-memory form),
/// plus optional structs. Lets the tests cover types no writer at hand produces
/// (DECIMAL over BYTE_ARRAY, FLOAT16, INT96, 12-byte timestamps).
namespace quarry::parquet::testing {

using Raw = std::optional<std::string>;  // nullopt: a null row

template <typename T>
std::string le(T v) {
  std::string s(sizeof v, '\0');
  std::memcpy(s.data(), &v, sizeof v);
  return s;
}
inline std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int v : b) s += static_cast<char>(v);
  return s;
}
/// INT96: nanoseconds of the day, then the Julian day.
inline std::string int96(int64_t nanosOfDay, int32_t julianDay) { return le(nanosOfDay) + le(julianDay); }

inline SchemaElement leafElement(std::string name, PhysicalType type, int32_t length = 0) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = FieldRepetitionType::OPTIONAL;
  if (length > 0) e.type_length = length;
  return e;
}
inline SchemaElement withLogical(SchemaElement e, LogicalType t) {
  e.logicalType = t;
  return e;
}
inline LogicalType logical(LogicalType::Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}
inline LogicalType decimalType(int32_t precision, int32_t scale) {
  LogicalType t = logical(LogicalType::Kind::DECIMAL);
  t.precision = precision;
  t.scale = scale;
  return t;
}
inline LogicalType timeType(LogicalType::Kind kind, TimeUnit unit, bool utc) {
  LogicalType t = logical(kind);
  t.unit = unit;
  t.isAdjustedToUTC = utc;
  return t;
}
inline LogicalType intType(int8_t width, bool isSigned) {
  LogicalType t = logical(LogicalType::Kind::INTEGER);
  t.bitWidth = width;
  t.isSigned = isSigned;
  return t;
}

class InMemoryRowGroup {
 public:
  /// Adds a top-level optional leaf with `values` (one per row).
  InMemoryRowGroup& column(SchemaElement element, std::vector<Raw> values) {
    elements_.push_back(std::move(element));
    Spec spec;
    for (auto& v : values) {
      spec.def.push_back(v ? 1 : 0);
      if (v) spec.values.push_back(*v);
    }
    specs_.push_back(std::move(spec));
    rows_ = static_cast<int64_t>(values.size());
    return *this;
  }
  /// Adds `optional group <name> { optional <leaf> }` with definition levels
  /// 0 (group null), 1 (leaf null) or 2 (value) and the values of the level-2 rows.
  InMemoryRowGroup& structColumn(std::string name, SchemaElement leaf, std::vector<int16_t> def,
                                 std::vector<std::string> values) {
    SchemaElement group;
    group.name = std::move(name);
    group.repetition_type = FieldRepetitionType::OPTIONAL;
    group.num_children = 1;
    elements_.push_back(group);
    elements_.push_back(std::move(leaf));
    rows_ = static_cast<int64_t>(def.size());
    specs_.push_back(Spec{std::move(def), std::move(values)});
    return *this;
  }
  /// Adds a raw subtree of elements (first a group) whose leaves are all null.
  InMemoryRowGroup& nullSubtree(std::vector<SchemaElement> elements, size_t leaves) {
    for (auto& e : elements) elements_.push_back(std::move(e));
    for (size_t i = 0; i < leaves; ++i) specs_.push_back(Spec{{}, {}, true});
    return *this;
  }

  const FileSchema& schema() {
    build();
    return *schema_;
  }
  const AssembledRowGroup& group() {
    build();
    return *group_;
  }

  /// Binds `p` and returns the selected rows (decoding every column).
  std::vector<int64_t> select(const FilterPredicate& p) {
    build();
    const BoundPredicate bound = BoundPredicate::bind(p, *schema_);
    const auto rows = selectRows(bound, *group_);
    return std::vector<int64_t>(rows.begin(), rows.end());
  }
  void bindOnly(const FilterPredicate& p) {
    build();
    BoundPredicate::bind(p, *schema_);
  }

 private:
  struct Spec {
    std::vector<int16_t> def;
    std::vector<std::string> values;
    bool allNull = false;
  };

  void build() {
    if (group_) return;
    std::vector<SchemaElement> all;
    SchemaElement root;
    root.name = "schema";
    int32_t topLevel = 0;
    for (size_t i = 0; i < elements_.size(); ++i) {
      ++topLevel;
      // Skip the children of groups (their count is num_children, recursively).
      size_t pending = static_cast<size_t>(elements_[i].num_children.value_or(0));
      while (pending > 0) {
        ++i;
        pending += static_cast<size_t>(elements_[i].num_children.value_or(0));
        --pending;
      }
    }
    root.num_children = topLevel;
    all.push_back(root);
    for (const auto& e : elements_) all.push_back(e);
    schema_ = FileSchema::build(all);
    std::vector<ColumnChunkData> columns;
    for (size_t c = 0; c < schema_->leafCount(); ++c) {
      const SchemaNode& leaf = schema_->leaf(c);
      Spec spec = specs_.at(c);
      if (spec.allNull) {
        spec.def.assign(static_cast<size_t>(rows_), 0);
        spec.values.clear();
      }
      ColumnChunkData data;
      data.leaf = &leaf;
      data.levelCount = static_cast<int64_t>(spec.def.size());
      data.definitionLevels.assign(spec.def.begin(), spec.def.end());
      data.valueCount = static_cast<int64_t>(spec.values.size());
      if (leaf.maxRepetitionLevel > 0) {
        data.repetitionLevels.assign(spec.def.size(), 0);
      }
      const PhysicalType type = *leaf.physicalType;
      if (type == PhysicalType::BYTE_ARRAY) {
        data.offsets.push_back(0);
        for (const auto& v : spec.values) {
          data.byteData.insert(data.byteData.end(), v.begin(), v.end());
          data.offsets.push_back(static_cast<int64_t>(data.byteData.size()));
        }
      } else {
        data.valueWidth = type == PhysicalType::BOOLEAN ? 1
                          : type == PhysicalType::INT32 || type == PhysicalType::FLOAT ? 4
                          : type == PhysicalType::INT64 || type == PhysicalType::DOUBLE ? 8
                          : type == PhysicalType::INT96 ? 12
                                                        : static_cast<size_t>(leaf.typeLength);
        for (const auto& v : spec.values) data.fixedValues.insert(data.fixedValues.end(), v.begin(), v.end());
      }
      columns.push_back(std::move(data));
    }
    group_.emplace(AssembledRowGroup::assemble(std::move(columns), rows_));
  }

  std::vector<SchemaElement> elements_;
  std::vector<Spec> specs_;
  int64_t rows_ = 0;
  std::optional<FileSchema> schema_;
  std::optional<AssembledRowGroup> group_;
};

using Rows = std::vector<int64_t>;

}  // namespace quarry::parquet::testing
