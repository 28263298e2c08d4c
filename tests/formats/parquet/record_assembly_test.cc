#include "quarry/formats/parquet/record_assembly.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

using Rep = FieldRepetitionType;

SchemaElement element(std::string name, std::optional<Rep> rep, std::optional<int32_t> children,
                      std::optional<PhysicalType> type = std::nullopt) {
  SchemaElement e;
  e.name = std::move(name);
  e.repetition_type = rep;
  e.num_children = children;
  e.type = type;
  return e;
}

ColumnChunkData levels(const SchemaNode& leaf, std::vector<int16_t> rep, std::vector<int16_t> def) {
  ColumnChunkData c;
  c.leaf = &leaf;
  c.levelCount = static_cast<int64_t>(def.size());
  c.repetitionLevels.assign(rep.begin(), rep.end());
  c.definitionLevels.assign(def.begin(), def.end());
  for (int16_t d : c.definitionLevels) c.valueCount += d == leaf.maxDefinitionLevel;
  c.valueWidth = 4;
  c.fixedValues.assign(static_cast<size_t>(c.valueCount) * 4, 0);
  return c;
}

TEST(RecordAssemblyTest, ThreeLevelListWorkedExample) {
  // Rows [a, b], null, [], [null] of optional group tags (LIST) { repeated group
  // list { optional element } }: the example at the top of record_assembly.h.
  auto tags = element("tags", Rep::OPTIONAL, 1);
  tags.converted_type = ConvertedType::LIST;
  const auto schema = FileSchema::build({element("schema", std::nullopt, 1), tags,
                                         element("list", Rep::REPEATED, 1),
                                         element("element", Rep::OPTIONAL, std::nullopt,
                                                 PhysicalType::INT32)});
  const SchemaNode& leaf = schema.leaf(0);
  std::vector<ColumnChunkData> columns;
  columns.push_back(levels(leaf, {0, 1, 0, 0, 0}, {3, 3, 0, 1, 2}));
  const auto group = AssembledRowGroup::assemble(std::move(columns), 4);
  EXPECT_EQ(group.slots(schema.find("tags"))->present, (std::vector<uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(group.slots(schema.find("tags.list"))->offsets, (std::vector<int64_t>{0, 2, 2, 2, 3}));
  EXPECT_EQ(group.slots(&leaf)->present, (std::vector<uint8_t>{1, 1, 0}));
  EXPECT_EQ(group.slots(&leaf)->valueIndex, (std::vector<int64_t>{0, 1, -1}));
}

// record_assembly.h: a node's record is found "by the node's elementIndex", and a node whose place
// another holds by its identity: a node copied by hand keeps its original's elementIndex, and a node
// of another file's schema at the same place is not this group's.
TEST(RecordAssemblyTest, NodesAreFoundByIdentityWhenTheirPlacesCollide) {
  const std::vector<SchemaElement> elements{element("schema", std::nullopt, 2),
                                            element("a", Rep::OPTIONAL, std::nullopt, PhysicalType::INT32),
                                            element("b", Rep::OPTIONAL, std::nullopt, PhysicalType::INT32)};
  const auto schema = FileSchema::build(elements);
  const auto other = FileSchema::build(elements);
  const SchemaNode& a = schema.leaf(0);
  const SchemaNode& b = schema.leaf(1);
  SchemaNode copyOfB;  // b's place and shape, another identity
  copyOfB.name = b.name;
  copyOfB.path = b.path;
  copyOfB.repetition = b.repetition;
  copyOfB.physicalType = b.physicalType;
  copyOfB.maxDefinitionLevel = b.maxDefinitionLevel;
  copyOfB.elementIndex = b.elementIndex;
  copyOfB.leafIndex = b.leafIndex;
  copyOfB.parent = b.parent;
  std::vector<ColumnChunkData> columns;
  columns.push_back(levels(a, {}, {1, 0, 1}));
  columns.push_back(levels(copyOfB, {}, {0, 0, 1}));
  columns.push_back(levels(b, {}, {0, 1, 1}));
  const auto group = AssembledRowGroup::assemble(std::move(columns), 3);
  EXPECT_EQ(group.slots(&a)->present, (std::vector<uint8_t>{1, 0, 1}));
  EXPECT_EQ(group.slots(&b)->present, (std::vector<uint8_t>{0, 1, 1}));
  EXPECT_EQ(group.slots(&copyOfB)->present, (std::vector<uint8_t>{0, 0, 1}));
  EXPECT_EQ(group.column(&b)->leaf, &b);
  EXPECT_EQ(group.column(&copyOfB)->leaf, &copyOfB);
  EXPECT_EQ(group.slots(&other.leaf(1)), nullptr);
  EXPECT_EQ(group.column(&other.leaf(0)), nullptr);
}

TEST(RecordAssemblyTest, ListOfListsStartsInnerElementsAtDeeperRepetition) {
  // optional group a (LIST) { repeated group list { optional group element (LIST)
  // { repeated group list { optional int32 element } } } }, rows [[1, 2], [3]], [[]]
  auto outer = element("a", Rep::OPTIONAL, 1);
  outer.converted_type = ConvertedType::LIST;
  auto inner = element("element", Rep::OPTIONAL, 1);
  inner.converted_type = ConvertedType::LIST;
  const auto schema = FileSchema::build(
      {element("schema", std::nullopt, 1), outer, element("list", Rep::REPEATED, 1), inner,
       element("list", Rep::REPEATED, 1),
       element("element", Rep::OPTIONAL, std::nullopt, PhysicalType::INT32)});
  const SchemaNode& leaf = schema.leaf(0);
  ASSERT_EQ(leaf.maxDefinitionLevel, 5);
  ASSERT_EQ(leaf.maxRepetitionLevel, 2);
  std::vector<ColumnChunkData> columns;
  columns.push_back(levels(leaf, {0, 2, 1, 0}, {5, 5, 5, 3}));
  const auto group = AssembledRowGroup::assemble(std::move(columns), 2);
  EXPECT_EQ(group.slots(schema.find("a.list"))->offsets, (std::vector<int64_t>{0, 2, 3}));
  EXPECT_EQ(group.slots(schema.find("a.list.element.list"))->offsets,
            (std::vector<int64_t>{0, 2, 3, 3}));
  EXPECT_EQ(group.slots(&leaf)->valueIndex, (std::vector<int64_t>{0, 1, 2}));
}

TEST(RecordAssemblyTest, RowCountMismatchIsCorrupt) {
  const auto schema = FileSchema::build(
      {element("schema", std::nullopt, 1),
       element("x", Rep::OPTIONAL, std::nullopt, PhysicalType::INT32)});
  std::vector<ColumnChunkData> columns;
  columns.push_back(levels(schema.leaf(0), {}, {1, 0, 1}));
  EXPECT_THROW(AssembledRowGroup::assemble(std::move(columns), 4), CorruptFile);
}

}  // namespace
}  // namespace quarry::parquet
