// Parquet LIST columns read by the engine as list<T> columns
// (parquet_list_column.h): 3-level lists written by DuckDB and chDB, the legacy
// spellings of parquet-testing, and what stays out of the schema (lists of lists,
// of structs, maps). A null list, an empty list and a null element stay apart
// across pages, row groups and a pushed filter's selection.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "quarry/engine/source/parquet_format_reader.h"
#include "quarry/engine/source/type_widening.h"
#include "tests/engine/source/source_test_support.h"
#include "tests/support/testdata.h"

namespace quarry::engine {
namespace {

using testing::columns;
using testing::drain;
using testing::fixture;
using testing::wholeFile;

template <typename T>
using Row = std::optional<std::vector<std::optional<T>>>;  // nullopt: a null list

std::string parquetTesting(const std::string& name) {
  return (quarry::testing::parquetTestingDir() / "data" / name).string();
}

template <typename T>
Row<T> rowAt(const Block& block, size_t i) {
  if (block.isNull(i)) return std::nullopt;
  std::vector<std::optional<T>> out;
  const Block& elements = block.listElements();
  for (uint64_t e = block.listOffsets()[i]; e < block.listOffsets()[i + 1]; ++e) {
    if (elements.isNull(e)) {
      out.push_back(std::nullopt);
    } else if constexpr (std::is_same_v<T, std::string>) {
      out.push_back(std::string(elements.bytes(e)));
    } else {
      out.push_back(elements.values<T>()[e]);
    }
  }
  return out;
}

template <typename T>
std::vector<Row<T>> rowsOf(const Block& block) {
  std::vector<Row<T>> out;
  for (size_t i = 0; i < block.size(); ++i) out.push_back(rowAt<T>(block, i));
  return out;
}

/// Row i's `li` in lists.parquet (DuckDB) and, without null lists, lists_small_pages.parquet
/// (chDB).
Row<int32_t> expectedLi(int32_t i, bool nullLists) {
  if (nullLists && i % 7 == 0) return std::nullopt;
  if (i % 7 == 1) return std::vector<std::optional<int32_t>>{};
  if (i % 7 == 2) return std::vector<std::optional<int32_t>>{std::nullopt};
  if (i % 1000 == 999) {
    std::vector<std::optional<int32_t>> out;
    for (int32_t k = 0; k < 3000; ++k) out.push_back(k);
    return out;
  }
  return std::vector<std::optional<int32_t>>{
      i, i + 1, i % 5 == 0 ? std::nullopt : std::optional<int32_t>(i + 2)};
}

Row<std::string> expectedLs(int32_t i, bool nullLists) {
  if (nullLists && i % 11 == 0) return std::nullopt;
  if (i % 11 == 1) return std::vector<std::optional<std::string>>{};
  return std::vector<std::optional<std::string>>{"s" + std::to_string(i % 13), std::nullopt, "x,y"};
}

Page readAll(const std::string& uri, ReadRequest request) {
  ParquetFormatReader reader;
  return drain(reader.read(wholeFile(uri, "parquet"), request));
}

TEST(ParquetListScan, ListsOfPrimitivesAreListColumnsNamedByTheirNode) {
  ParquetFormatReader reader;
  const Schema expected = {
      {"id", DataType::int32()},
      {"li", DataType::list(DataType::int32())},
      {"ld", DataType::list(DataType::float64())},
      {"ls", DataType::list(DataType::string())},
  };
  EXPECT_EQ(reader.metadata(fixture("lists.parquet")).schema, expected);
}

TEST(ParquetListScan, NullEmptyAndNullElementAcrossRowGroups) {
  // Three row groups (2,048 rows each, the last 904), pages of up to kMaxPageRows.
  const Page page = readAll(fixture("lists.parquet"), columns({"li", "id", "ls", "ld"}));
  ASSERT_EQ(page.positionCount(), 5000u);
  const std::vector<Row<int32_t>> li = rowsOf<int32_t>(page.block(0));
  const std::vector<Row<std::string>> ls = rowsOf<std::string>(page.block(2));
  const std::vector<Row<double>> ld = rowsOf<double>(page.block(3));
  for (int32_t i = 0; i < 5000; ++i) {
    ASSERT_EQ(page.block(1).values<int32_t>()[i], i);
    ASSERT_EQ(li[i], expectedLi(i, true)) << "row " << i;
    ASSERT_EQ(ls[i], expectedLs(i, true)) << "row " << i;
    const Row<double> d =
        i % 3 == 0 ? Row<double>() : std::vector<std::optional<double>>{i / 2.0, std::nullopt};
    ASSERT_EQ(ld[i], d) << "row " << i;
  }
}

TEST(ParquetListScan, ListsOverManySmallPagesAndRowGroups) {
  // chDB: 1 KiB pages, two row groups of 2,500 rows, a 3,000-element list per 1,000 rows.
  const Page page = readAll(fixture("lists_small_pages.parquet"), columns({"id", "li", "ls"}));
  ASSERT_EQ(page.positionCount(), 5000u);
  EXPECT_EQ(page.block(1).type(), DataType::list(DataType::int32()));
  for (int32_t i = 0; i < 5000; ++i) {
    ASSERT_EQ(page.block(0).values<int32_t>()[i], i);
    ASSERT_EQ(rowAt<int32_t>(page.block(1), i), expectedLi(i, false)) << "row " << i;
    ASSERT_EQ(rowAt<std::string>(page.block(2), i), expectedLs(i, false)) << "row " << i;
  }
}

TEST(ParquetListScan, PushedFilterSelectsWholeLists) {
  ReadRequest request = columns({"li", "id"});
  request.filter = parquet::FilterPredicate::in("id", int32_t{0}, int32_t{1}, int32_t{2},
                                                int32_t{999}, int32_t{2050}, int32_t{4999});
  const Page page = readAll(fixture("lists.parquet"), request);
  ASSERT_EQ(page.positionCount(), 6u);
  for (size_t k = 0; k < page.positionCount(); ++k) {
    const int32_t id = page.block(1).values<int32_t>()[k];
    EXPECT_EQ(rowAt<int32_t>(page.block(0), k), expectedLi(id, true)) << "id " << id;
  }
}

TEST(ParquetListScan, LimitedReadEndsInsideARowGroup) {
  ReadRequest request = columns({"ls"});
  request.limit = 13;
  const Page page = readAll(fixture("lists.parquet"), request);
  ASSERT_EQ(page.positionCount(), 13u);
  for (int32_t i = 0; i < 13; ++i)
    EXPECT_EQ(rowAt<std::string>(page.block(0), i), expectedLs(i, true));
}

TEST(ParquetListScan, ThreeLevelListsOfParquetTesting) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::string uri = parquetTesting("list_columns.parquet");
  ParquetFormatReader reader;
  const Schema expected = {{"int64_list", DataType::list(DataType::int64())},
                           {"utf8_list", DataType::list(DataType::string())}};
  EXPECT_EQ(reader.metadata(uri).schema, expected);
  const Page page = readAll(uri, columns({"int64_list", "utf8_list"}));
  using I = std::vector<std::optional<int64_t>>;
  using S = std::vector<std::optional<std::string>>;
  EXPECT_EQ(rowsOf<int64_t>(page.block(0)),
            (std::vector<Row<int64_t>>{I{1, 2, 3}, I{std::nullopt, 1}, I{4}}));
  EXPECT_EQ(rowsOf<std::string>(page.block(1)),
            (std::vector<Row<std::string>>{S{"abc", "efg", "hij"}, std::nullopt,
                                           S{"efg", std::nullopt, "hij", "xyz"}}));
}

TEST(ParquetListScan, ImpalaListsWithNullsAndAListInAStruct) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::string uri = parquetTesting("nullable.impala.parquet");
  ParquetFormatReader reader;
  const Schema schema = reader.metadata(uri).schema;
  ASSERT_GE(fieldIndex(schema, "int_array"), 0);
  EXPECT_EQ(schema[static_cast<size_t>(fieldIndex(schema, "int_array"))].type,
            DataType::list(DataType::int32()));
  EXPECT_GE(fieldIndex(schema, "nested_struct.b"), 0);
  EXPECT_LT(fieldIndex(schema, "int_array_Array"), 0);  // a list of lists
  EXPECT_LT(fieldIndex(schema, "int_map"), 0);          // a map
  const Page page = readAll(uri, columns({"int_array", "nested_struct.b"}));
  using I = std::vector<std::optional<int32_t>>;
  const auto n = std::nullopt;
  EXPECT_EQ(rowsOf<int32_t>(page.block(0)),
            (std::vector<Row<int32_t>>{I{1, 2, 3}, I{n, 1, 2, n, 3, n}, I{}, n, n, n, n}));
  EXPECT_EQ(rowsOf<int32_t>(page.block(1)),
            (std::vector<Row<int32_t>>{I{1}, I{n}, n, n, n, n, I{2, 3, n}}));
}

TEST(ParquetListScan, UnannotatedRepeatedPrimitivesAreLists) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::string uri = parquetTesting("repeated_primitive_no_list.parquet");
  ParquetFormatReader reader;
  const Schema expected = {
      {"Int32_list", DataType::list(DataType::int32())},
      {"String_list", DataType::list(DataType::string())},
      {"group_of_lists.Int32_list_in_group", DataType::list(DataType::int32())},
      {"group_of_lists.String_list_in_group", DataType::list(DataType::string())}};
  EXPECT_EQ(reader.metadata(uri).schema, expected);
  const Page page = readAll(uri, columns({"Int32_list", "group_of_lists.String_list_in_group"}));
  using I = std::vector<std::optional<int32_t>>;
  using S = std::vector<std::optional<std::string>>;
  EXPECT_EQ(rowsOf<int32_t>(page.block(0)),
            (std::vector<Row<int32_t>>{I{0, 1, 2, 3}, I{}, I{4}, I{5, 6, 7, 8}}));
  EXPECT_EQ(rowsOf<std::string>(page.block(1)),
            (std::vector<Row<std::string>>{S{"foo", "zero", "one", "two"}, S{"three"}, S{"four"},
                                           S{"five", "six", "seven", "eight"}}));
}

TEST(ParquetListScan, ListsOfListsAndOfStructsStayOut) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  ParquetFormatReader reader;
  EXPECT_TRUE(reader.metadata(parquetTesting("old_list_structure.parquet")).schema.empty());
  const Schema phones = reader.metadata(parquetTesting("repeated_no_annotation.parquet")).schema;
  EXPECT_EQ(phones, (Schema{{"id", DataType::int32()}}));
}

TEST(ParquetListScan, ListTypesWidenByTheirElements) {
  const DataType ints = DataType::list(DataType::int32());
  const DataType longs = DataType::list(DataType::int64());
  EXPECT_EQ(commonType(ints, longs), longs);
  EXPECT_EQ(commonType(ints, DataType::list(DataType::float64())),
            DataType::list(DataType::float64()));
  EXPECT_EQ(commonType(ints, DataType::list(DataType::string())), std::nullopt);
  EXPECT_EQ(commonType(ints, DataType::int32()), std::nullopt);
  const Page page = readAll(fixture("lists.parquet"), columns({"li"}));
  const Block wide = widenBlock(page.block(0).slice(0, 10), longs, "lists.parquet: column li");
  ASSERT_EQ(wide.type(), longs);
  for (int32_t i = 0; i < 10; ++i) {
    const Row<int32_t> narrow = expectedLi(i, true);
    Row<int64_t> expected;
    if (narrow) {
      expected.emplace();
      for (const auto& e : *narrow)
        expected->push_back(e ? std::optional<int64_t>(*e) : std::nullopt);
    }
    EXPECT_EQ(rowAt<int64_t>(wide, i), expected) << i;
  }
}

}  // namespace
}  // namespace quarry::engine
