// query-controls.txt, "Column projection forms" and "Index order": every example
// and every row of the index-order table, over the spec's schema
// id, address STRUCT<street, city, zip>.
#include "quarry/formats/parquet/column_projection.h"

#include <gtest/gtest.h>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

using Rep = FieldRepetitionType;

SchemaElement group(std::string name, int32_t children, std::optional<Rep> rep = Rep::OPTIONAL) {
  SchemaElement e;
  e.name = std::move(name);
  e.num_children = children;
  e.repetition_type = rep;
  return e;
}

SchemaElement leaf(std::string name, PhysicalType type = PhysicalType::BYTE_ARRAY) {
  SchemaElement e;
  e.name = std::move(name);
  e.type = type;
  e.repetition_type = Rep::OPTIONAL;
  return e;
}

FileSchema specSchema() {
  return FileSchema::build({group("schema", 2, std::nullopt), leaf("id", PhysicalType::INT64),
                            group("address", 3), leaf("street"), leaf("city"), leaf("zip")});
}

std::vector<std::string> columnReadersIndices(const ResolvedProjection& p) {
  std::vector<std::string> out;
  for (const SchemaNode* leaf : p.columnOrder()) out.push_back(leaf->path);
  return out;
}

std::vector<std::string> rowReaderFields(const ResolvedProjection& p) {
  std::vector<std::string> out;
  for (const auto& child : p.root().children) out.push_back(child->node->name);
  return out;
}

std::vector<std::string> addressChildren(const ResolvedProjection& p) {
  std::vector<std::string> out;
  if (const ProjectedNode* address = p.root().child("address")) {
    for (const auto& child : address->children) out.push_back(child->node->name);
  }
  return out;
}

using Names = std::vector<std::string>;

struct IndexOrderRow {
  ColumnProjection projection;
  Names columnReaders;
  Names rowFields;
  Names address;
};

TEST(ColumnProjectionTest, IndexOrderTableRowByRow) {
  const FileSchema schema = specSchema();
  const std::vector<IndexOrderRow> table = {
      {ColumnProjection::all(),
       {"id", "address.street", "address.city", "address.zip"},
       {"id", "address"},
       {"street", "city", "zip"}},
      {ColumnProjection::columns("address", "id"),
       {"address.street", "address.city", "address.zip", "id"},
       {"address", "id"},
       {"street", "city", "zip"}},
      {ColumnProjection::columns("address.zip", "id", "address.city"),
       {"address.zip", "id", "address.city"},
       {"address", "id"},
       {"zip", "city"}},
      {ColumnProjection::columns("address.zip", "address"),
       {"address.zip", "address.street", "address.city", "address.zip"},
       {"address"},
       {"zip", "street", "city"}},
      {ColumnProjection::columns("id", "id"), {"id", "id"}, {"id"}, {}},
  };
  for (const auto& row : table) {
    const auto resolved = ResolvedProjection::resolve(row.projection, schema);
    const std::string label = row.projection.isAll() ? "all()" : row.projection.names()[0];
    EXPECT_EQ(columnReadersIndices(resolved), row.columnReaders) << label;
    EXPECT_EQ(rowReaderFields(resolved), row.rowFields) << label;
    EXPECT_EQ(addressChildren(resolved), row.address) << label;
  }
}

TEST(ColumnProjectionTest, RepeatedAndOverlappingNamesDecodeEachLeafOnce) {
  const FileSchema schema = specSchema();  // the resolved projection points into it
  const auto resolved =
      ResolvedProjection::resolve(ColumnProjection::columns("address.zip", "address"), schema);
  ASSERT_EQ(resolved.leaves().size(), 3u);  // street, city, zip, in schema order
  EXPECT_EQ(resolved.leaves()[0]->path, "address.street");
  EXPECT_EQ(resolved.leaves()[2]->path, "address.zip");
}

TEST(ColumnProjectionTest, NestedFieldIsNotSelectedByItsOwnName) {
  // "over id, address STRUCT<city>, columns("city") fails with Column not found: city"
  try {
    ResolvedProjection::resolve(ColumnProjection::columns("city"), specSchema());
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "Column not found: city");
  }
}

TEST(ColumnProjectionTest, NamesContainingDotsSelectTopLevelAndNestedFields) {
  // columns("sepal.length") selects a top-level column named sepal.length, and
  // columns("acme.info.x.y") the field x.y of a struct named acme.info.
  const FileSchema schema = FileSchema::build({group("schema", 2, std::nullopt),
                                               leaf("sepal.length", PhysicalType::DOUBLE),
                                               group("acme.info", 1), leaf("x.y")});
  auto a = ResolvedProjection::resolve(ColumnProjection::columns("sepal.length"), schema);
  EXPECT_EQ(columnReadersIndices(a), Names{"sepal.length"});
  auto b = ResolvedProjection::resolve(ColumnProjection::columns("acme.info.x.y"), schema);
  EXPECT_EQ(columnReadersIndices(b), Names{"acme.info.x.y"});
  EXPECT_EQ(rowReaderFields(b), Names{"acme.info"});
}

TEST(ColumnProjectionTest, PathOfTwoFieldsFails) {
  // "a top-level a.b beside a struct a with a field b, fails with an error"
  const FileSchema schema = FileSchema::build({group("schema", 2, std::nullopt), leaf("a.b"),
                                               group("a", 1), leaf("b")});
  EXPECT_THROW(ResolvedProjection::resolve(ColumnProjection::columns("a.b"), schema), InvalidArgument);
  // all() still reaches both, by index.
  auto all = ResolvedProjection::resolve(ColumnProjection::all(), schema);
  EXPECT_EQ(all.columnOrder().size(), 2u);
}

TEST(ColumnProjectionTest, EmptyNameListThrows) {
  EXPECT_THROW(ColumnProjection::columns(std::vector<std::string>{}), InvalidArgument);
}

}  // namespace
}  // namespace quarry::parquet
