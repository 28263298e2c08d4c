#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/formats/parquet/row_selection.h"
#include "quarry/formats/predicate/filter_predicate.h"
#include "tests/support/build_paths.h"
#include "tests/support/testdata.h"

// ColumnReaders with a FilterPredicate (query-controls.txt: "Exact row filtering
// in RowReader, ColumnReader(s) and the multi-file reader. A filter column outside
// the projection is decoded for the filter and not readable through the row.").
// Each test reads a file twice, through filtered ColumnReaders batches (values
// walked from nesting(), validity(), valueIndex() and data()) and through a
// filtered RowReader (values walked from FieldValue), renders every projected
// leaf of every row the same way, and compares: flat and nested columns, with
// metadata pruning on and off.
namespace quarry::parquet {
namespace {

using P = FilterPredicate;
/// Per row, the rendering of each ColumnReaders position.
using Table = std::vector<std::vector<std::string>>;

std::string fixture(const char* name) {
  return std::string(QUARRY_SOURCE_DIR) + "/tests/fixtures/" + name;
}
std::string testingFile(const char* name) {
  return (quarry::testing::parquetTestingDir() / "data" / name).string();
}

std::vector<const SchemaNode*> pathOf(const SchemaNode* leaf) {
  std::vector<const SchemaNode*> path;
  for (const SchemaNode* n = leaf; !n->isRoot(); n = n->parent) path.insert(path.begin(), n);
  return path;
}

std::string hex(std::string_view bytes) {
  std::string out = "x'";
  char digits[3];
  for (const char c : bytes) {
    std::snprintf(digits, sizeof digits, "%02x", static_cast<unsigned>(static_cast<uint8_t>(c)));
    out += digits;
  }
  return out + "'";
}

std::string renderValue(const ColumnChunkData& data, int64_t index) {
  EXPECT_GE(index, 0);
  EXPECT_LT(index, data.valueCount);
  const auto i = static_cast<size_t>(index);
  switch (*data.leaf->physicalType) {
    case PhysicalType::BOOLEAN: return data.fixedValues[i] != 0 ? "true" : "false";
    case PhysicalType::INT32: return std::to_string(data.values<int32_t>()[i]);
    case PhysicalType::INT64: return std::to_string(data.values<int64_t>()[i]);
    case PhysicalType::FLOAT: return "f" + std::to_string(std::bit_cast<uint32_t>(data.values<float>()[i]));
    case PhysicalType::DOUBLE: return "d" + std::to_string(std::bit_cast<uint64_t>(data.values<double>()[i]));
    default: return hex(data.bytes(index));
  }
}

std::string renderValue(const FieldValue& v) {
  switch (*v.node().physicalType) {
    case PhysicalType::BOOLEAN: return v.getBoolean() ? "true" : "false";
    case PhysicalType::INT32: return std::to_string(v.getInt());
    case PhysicalType::INT64: return std::to_string(v.getLong());
    case PhysicalType::FLOAT: return "f" + std::to_string(std::bit_cast<uint32_t>(v.getFloat()));
    case PhysicalType::DOUBLE: return "d" + std::to_string(std::bit_cast<uint64_t>(v.getDouble()));
    default: return hex(v.rawBytes());
  }
}

/// Renders one leaf of a batch's rows from the batch API alone: the nesting's
/// slots and offsets down to the leaf, whose validity() and valueIndex() point
/// into data()'s dense values.
class BatchLeaf {
 public:
  explicit BatchLeaf(const ColumnBatch& batch)
      : path_(batch.nesting()), validity_(batch.validity()), valueIndex_(batch.valueIndex()),
        data_(batch.data()) {
    EXPECT_EQ(validity_.size(), path_.back()->present.size()) << batch.leaf().path;
    EXPECT_EQ(valueIndex_.size(), validity_.size()) << batch.leaf().path;
    int64_t values = 0;
    for (const int64_t index : valueIndex_) values += index >= 0;
    // The dense values are those of the batch's rows, no more.
    EXPECT_EQ(values, data_.valueCount) << batch.leaf().path;
    if (path_.size() == 1 && path_[0]->node->repetition != FieldRepetitionType::REPEATED) {
      EXPECT_EQ(static_cast<int64_t>(validity_.size()), batch.rowCount()) << batch.leaf().path;
    }
  }

  std::string row(int64_t r) const { return children(0, r); }

 private:
  std::string children(size_t c, int64_t parentSlot) const {
    const NodeSlots& s = *path_[c];
    if (s.node->repetition != FieldRepetitionType::REPEATED) return slot(c, parentSlot);
    std::string out = "[";
    const auto p = static_cast<size_t>(parentSlot);
    for (int64_t e = s.offsets.at(p); e < s.offsets.at(p + 1); ++e) {
      out += (e == s.offsets[p] ? "" : ", ") + slot(c, e);
    }
    return out + "]";
  }

  std::string slot(size_t j, int64_t s) const {
    const auto i = static_cast<size_t>(s);
    if (j + 1 == path_.size()) {
      return validity_[i] != 0 ? renderValue(data_, valueIndex_[i]) : "null";
    }
    if (path_[j]->present.at(i) == 0) return "null";
    return children(j + 1, s);
  }

  std::vector<const NodeSlots*> path_;
  std::span<const uint8_t> validity_;
  std::span<const int64_t> valueIndex_;
  const ColumnChunkData& data_;
};

/// Renders the same leaf path from a row, through FieldValue, getStruct,
/// getList and getMap as a user of RowReader reaches it.
std::string renderField(const FieldValue& v, const std::vector<const SchemaNode*>& path, size_t j);

std::string renderRepeatedField(const FieldValue& f, const std::vector<const SchemaNode*>& path,
                                size_t j) {
  const PqList list = f.getList();
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) out += (i == 0 ? "" : ", ") + renderField(list.get(i), path, j);
  return out + "]";
}

std::string renderField(const FieldValue& v, const std::vector<const SchemaNode*>& path, size_t j) {
  if (v.isNull()) return "null";
  if (j + 1 == path.size()) return renderValue(v);
  const SchemaNode* node = path[j];
  const SchemaNode* child = path[j + 1];
  if (child->repetition != FieldRepetitionType::REPEATED) {
    return renderField(v.getStruct().field(child->name), path, j + 1);
  }
  std::string out = "[";
  if (node->listElement != nullptr) {
    const PqList list = v.getList();
    const size_t element = node->listElement == child ? j + 1 : j + 2;
    for (size_t i = 0; i < list.size(); ++i) out += (i == 0 ? "" : ", ") + renderField(list.get(i), path, element);
  } else if (node->mapKey != nullptr) {
    const PqMap map = v.getMap();
    const bool key = path[j + 2] == node->mapKey;
    for (size_t i = 0; i < map.size(); ++i) {
      out += (i == 0 ? "" : ", ") + renderField(key ? map.key(i) : map.value(i), path, j + 2);
    }
  } else {
    return renderRepeatedField(v.getStruct().field(child->name), path, j + 1);
  }
  return out + "]";
}

std::string renderRow(const RowReader& rows, const SchemaNode* leaf) {
  const auto path = pathOf(leaf);
  const FieldValue top = rows.field(path[0]->name);
  if (path[0]->repetition == FieldRepetitionType::REPEATED) return renderRepeatedField(top, path, 0);
  return renderField(top, path, 0);
}

ReaderOptions withPruning(bool pruning) {
  ReaderOptions options;
  options.metadataPruning = pruning;
  return options;
}

/// With `selectionVector` (ReaderOptions::selectionVector), a batch's columns hold
/// its whole row group and selectedRows() names the rows the filter kept.
Table viaColumnReaders(const std::string& path, const ColumnProjection& projection,
                       const FilterPredicate& filter, bool pruning, ReaderMetrics* metrics = nullptr,
                       bool selectionVector = false) {
  ReaderOptions options = withPruning(pruning);
  options.selectionVector = selectionVector;
  auto file = ParquetFileReader::open(path, options);
  auto readers = file->columnReaders(projection, filter);
  Table out;
  while (readers->nextBatch()) {
    const size_t first = out.size();
    const int64_t rows = readers->rowCount();
    const std::span<const int64_t> selected = readers->selectedRows();
    EXPECT_GT(rows, 0) << path << ": a batch without rows";
    if (!selectionVector) {
      EXPECT_TRUE(selected.empty()) << path;
    }
    if (!selected.empty()) {
      EXPECT_EQ(static_cast<int64_t>(selected.size()), rows) << path;
    }
    out.resize(first + static_cast<size_t>(rows));
    for (size_t c = 0; c < readers->getColumnCount(); ++c) {
      const ColumnBatch batch = readers->column(c);
      if (selected.empty()) {
        EXPECT_EQ(batch.rowCount(), rows) << path;
      } else {
        EXPECT_GT(batch.rowCount(), rows) << path << ": the whole row group, of which some rows are kept";
      }
      const BatchLeaf leaf(batch);
      for (int64_t r = 0; r < rows; ++r) {
        out[first + static_cast<size_t>(r)].push_back(leaf.row(selected.empty() ? r : selected[static_cast<size_t>(r)]));
      }
    }
  }
  if (metrics != nullptr) *metrics = readers->metrics();
  return out;
}

Table viaRowReader(const std::string& path, const ColumnProjection& projection,
                   const FilterPredicate& filter, bool pruning) {
  auto file = ParquetFileReader::open(path, withPruning(pruning));
  auto rows = file->rowReader(projection, filter);
  Table out;
  while (rows->next()) {
    std::vector<std::string> row;
    for (const SchemaNode* leaf : rows->projection().columnOrder()) row.push_back(renderRow(*rows, leaf));
    out.push_back(std::move(row));
  }
  return out;
}

/// Expects ColumnReaders (selected rows copied out, or named by selectedRows())
/// and RowReader to give the same rows, pruning on and off; returns them.
Table expectSameRows(const std::string& path, const ColumnProjection& projection,
                     const FilterPredicate& filter) {
  Table rows;
  for (const bool pruning : {true, false}) {
    rows = viaRowReader(path, projection, filter, pruning);
    for (const bool selectionVector : {false, true}) {
      EXPECT_EQ(viaColumnReaders(path, projection, filter, pruning, nullptr, selectionVector), rows)
          << path << " with metadata pruning " << (pruning ? "on" : "off") << ", selection vector "
          << (selectionVector ? "on" : "off");
    }
  }
  return rows;
}

/// The first column of each row (an id, in the files below).
std::vector<std::string> firstColumn(const Table& rows) {
  std::vector<std::string> out;
  for (const auto& row : rows) out.push_back(row.at(0));
  return out;
}

using Ids = std::vector<std::string>;

TEST(ColumnReaderFilterTest, FlatColumnsOfEveryTypeHoldOnlyTheSelectedRows) {
  // Ten rows in row groups of four, every type, row 9 null in every column but id.
  for (const char* name : {"predicate_types.parquet", "predicate_types_row_groups.parquet"}) {
    const std::string path = fixture(name);
    const auto all = ColumnProjection::all();
    EXPECT_EQ(firstColumn(expectSameRows(path, all, P::lt("i64", int64_t{0}))), (Ids{"1", "3"})) << name;
    EXPECT_EQ(firstColumn(expectSameRows(path, all, P::eq("s", "apple"))), (Ids{"0", "5"})) << name;
    EXPECT_EQ(firstColumn(expectSameRows(path, all, P::isNull("dbl"))), Ids{"9"}) << name;
    EXPECT_EQ(firstColumn(expectSameRows(path, all, P::not_(P::gt("u32", int32_t{7})))),
              (Ids{"0", "3", "5"})) << name;
    EXPECT_EQ(expectSameRows(path, all, P::or_(P::gt("f", 2.0f), P::isNull("address"))).size(), 7u)
        << name;
    EXPECT_EQ(expectSameRows(path, all, P::isNotNull("tags")).size(), 8u) << name;
    EXPECT_EQ(expectSameRows(path, ColumnProjection::columns("s", "id", "tags", "s"),
                             P::in("id", int32_t{1}, int32_t{2}, int32_t{6}, int32_t{9}))
                  .size(),
              4u)
        << name;
  }
}

TEST(ColumnReaderFilterTest, FilterColumnOutsideTheProjectionIsDecodedButNotAPosition) {
  const std::string path = fixture("predicate_types.parquet");
  auto file = ParquetFileReader::open(path);
  auto readers = file->columnReaders(ColumnProjection::columns("id"), P::eq("s", "apple"));
  ASSERT_EQ(readers->getColumnCount(), 1u);
  std::vector<int32_t> ids;
  while (readers->nextBatch()) {
    EXPECT_THROW(readers->column(1), std::out_of_range);
    const ColumnBatch id = readers->column(0);
    EXPECT_EQ(id.data().valueCount, id.rowCount());
    for (const int32_t v : id.data().values<int32_t>()) ids.push_back(v);
  }
  EXPECT_EQ(ids, (std::vector<int32_t>{0, 5}));
  EXPECT_EQ(firstColumn(expectSameRows(path, ColumnProjection::columns("id"), P::eq("address.city", "Oslo"))),
            (Ids{"0", "4"}));
  EXPECT_EQ(expectSameRows(path, ColumnProjection::columns("tags", "d"), P::gt("dbl", 2.0)).size(), 6u);
}

TEST(ColumnReaderFilterTest, NestedListsMapsAndStructsHoldOnlyTheSelectedRows) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto all = ColumnProjection::all();
  // Ids 1..7: lists of lists, maps, lists of maps, structs of lists of structs.
  const std::string impala = testingFile("nullable.impala.parquet");
  EXPECT_EQ(firstColumn(expectSameRows(impala, all, P::in("id", int64_t{2}, int64_t{3}, int64_t{7}))),
            (Ids{"2", "3", "7"}));
  EXPECT_EQ(firstColumn(expectSameRows(impala, all, P::not_(P::eq("id", int64_t{1})))).size(), 6u);
  EXPECT_EQ(firstColumn(expectSameRows(impala, all, P::gtEq("id", int64_t{6}))), (Ids{"6", "7"}));
  EXPECT_EQ(expectSameRows(impala, ColumnProjection::columns("nested_struct", "int_Map_Array"),
                           P::or_(P::eq("id", int64_t{2}), P::eq("id", int64_t{5})))
                .size(),
            2u);
  // A repeated group without LIST annotation inside an optional group.
  const std::string phones = testingFile("repeated_no_annotation.parquet");
  EXPECT_EQ(firstColumn(expectSameRows(phones, all, P::in("id", int32_t{3}, int32_t{4}, int32_t{6}))),
            (Ids{"3", "4", "6"}));
  EXPECT_EQ(expectSameRows(phones, ColumnProjection::columns("phoneNumbers"), P::gt("id", int32_t{4})).size(),
            2u);
  // Maps of maps and lists of lists of lists; every row matches, or none.
  for (const char* name : {"nested_maps.snappy.parquet", "nested_lists.snappy.parquet"}) {
    const std::string path = testingFile(name);
    int64_t rows = 0;
    const auto reader = ParquetFileReader::open(path);
    for (const RowGroup& group : reader->metadata().row_groups) rows += group.num_rows;
    EXPECT_EQ(expectSameRows(path, all, P::eq("b", int32_t{1})).size(), static_cast<size_t>(rows)) << name;
    EXPECT_TRUE(expectSameRows(path, all, P::eq("b", int32_t{2})).empty()) << name;
  }
  const std::string required = testingFile("nonnullable.impala.parquet");
  EXPECT_EQ(expectSameRows(required, all, P::eq("ID", int64_t{8})).size(), 1u);
  EXPECT_TRUE(expectSameRows(required, all, P::lt("ID", int64_t{8})).empty());
}

TEST(ColumnReaderFilterTest, StatisticsSkipRowGroupsAndSpareEveryRowGroupFromFiltering) {
  // Three row groups of 2048 rows: id 0..6143, v = id % 100, null where id % 7 == 0.
  const std::string path = fixture("predicate_row_groups.parquet");
  const auto all = ColumnProjection::all();
  ReaderMetrics metrics;
  // Row group 0 lies wholly below 2048: it is read as it is, without v; the
  // others are skipped unread.
  const Table pruned = viaColumnReaders(path, ColumnProjection::columns("v"), P::lt("id", int32_t{2048}),
                                        true, &metrics);
  EXPECT_EQ(pruned.size(), 2048u);
  EXPECT_EQ(metrics.rowGroupsTotal, 3);
  EXPECT_EQ(metrics.rowGroupsPrunedByStatistics, 2);
  EXPECT_EQ(metrics.rowGroupsMatchedByStatistics, 1);
  EXPECT_EQ(metrics.rowGroupsRead, 1);
  EXPECT_EQ(metrics.rowsReturned, 2048);
  const Table unpruned = viaColumnReaders(path, ColumnProjection::columns("v"), P::lt("id", int32_t{2048}),
                                          false, &metrics);
  EXPECT_EQ(unpruned, pruned);
  EXPECT_EQ(metrics.rowGroupsPrunedByStatistics, 0);
  EXPECT_EQ(metrics.rowGroupsRead, 3);
  EXPECT_EQ(metrics.rowsDecoded, 6144);
  EXPECT_EQ(metrics.rowsReturned, 2048);

  EXPECT_EQ(expectSameRows(path, all, P::lt("id", int32_t{2048})).size(), 2048u);
  size_t above = 0;
  size_t fortyTwo = 0;
  for (int id = 0; id < 6144; ++id) {
    above += id >= 1000 && id % 7 != 0;
    fortyTwo += id % 100 == 42 && id % 7 != 0;
  }
  EXPECT_EQ(expectSameRows(path, all, P::and_(P::gtEq("id", int32_t{1000}), P::isNotNull("v"))).size(),
            above);
  EXPECT_EQ(expectSameRows(path, ColumnProjection::columns("id"), P::eq("v", int32_t{42})).size(), fortyTwo);
}

TEST(ColumnReaderFilterTest, NoRowSelectedGivesNoBatchAndEveryRowSelectedGivesWholeRowGroups) {
  const std::string path = fixture("predicate_row_groups.parquet");
  for (const bool pruning : {true, false}) {
    auto file = ParquetFileReader::open(path, withPruning(pruning));
    auto none = file->columnReaders(ColumnProjection::all(), P::gt("id", int32_t{7000}));
    EXPECT_FALSE(none->nextBatch());
    EXPECT_EQ(none->metrics().rowGroupsRead, pruning ? 0 : 3);
    // Statistics cannot tell that v % 1 == v: every row group is filtered, every
    // row selected, and each batch is the whole row group.
    auto every = file->columnReaders(ColumnProjection::columns("id"), P::or_(P::isNull("v"), P::gtEq("v", int32_t{0})));
    int64_t batches = 0;
    while (every->nextBatch()) {
      ++batches;
      EXPECT_EQ(every->column(0).rowCount(), 2048);
    }
    EXPECT_EQ(batches, 3);
  }
  EXPECT_EQ(expectSameRows(path, ColumnProjection::all(), P::isNotNull("id")).size(), 6144u);
  EXPECT_TRUE(expectSameRows(path, ColumnProjection::all(), P::isNull("id")).empty());
}

TEST(ColumnReaderFilterTest, UnknownFilterColumnIsRejectedWhenTheReaderIsMade) {
  auto file = ParquetFileReader::open(fixture("predicate_types.parquet"));
  EXPECT_THROW(file->columnReaders(ColumnProjection::all(), P::eq("nope", int32_t{1})), InvalidArgument);
  EXPECT_THROW(file->columnReaders(ColumnProjection::all(), P::eq("id", "text")), InvalidArgument);
}

TEST(ColumnReaderFilterTest, KeptChunkHoldsTheSelectedRowsLevelsAndValues) {
  // The example of row_selection.h: a list column over rows [a, b], null, [], [c].
  SchemaNode leaf;
  leaf.path = "tags.list.element";
  leaf.physicalType = PhysicalType::BYTE_ARRAY;
  leaf.maxDefinitionLevel = 3;
  leaf.maxRepetitionLevel = 1;
  ColumnChunkData chunk;
  chunk.leaf = &leaf;
  chunk.levelCount = 5;
  chunk.repetitionLevels = {0, 1, 0, 0, 0};
  chunk.definitionLevels = {3, 3, 0, 1, 3};
  chunk.valueCount = 3;
  chunk.offsets = {0, 1, 2, 3};
  chunk.byteData = {'a', 'b', 'c'};
  const std::vector<int64_t> ends = {0, 3};
  const ColumnChunkData kept = keepRows(chunk, ends);
  EXPECT_EQ(kept.levelCount, 3);
  EXPECT_EQ(kept.repetitionLevels, (RawVector<int16_t>{0, 1, 0}));
  EXPECT_EQ(kept.definitionLevels, (RawVector<int16_t>{3, 3, 3}));
  ASSERT_EQ(kept.valueCount, 3);
  EXPECT_EQ(kept.bytes(0), "a");
  EXPECT_EQ(kept.bytes(2), "c");
  const std::vector<int64_t> middle = {1, 2};
  const ColumnChunkData empty = keepRows(chunk, middle, kept);
  EXPECT_EQ(empty.levelCount, 2);
  EXPECT_EQ(empty.definitionLevels, (RawVector<int16_t>{0, 1}));
  EXPECT_EQ(empty.valueCount, 0);
  EXPECT_EQ(empty.offsets, RawVector<int64_t>{0});
}

TEST(ColumnReaderFilterTest, EveryValidFileFilteredOnItsFirstFlatColumnMatchesRowReader) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  size_t compared = 0;
  for (const auto& file : quarry::testing::filesUnder(quarry::testing::parquetTestingDir() / "data", ".parquet")) {
    const std::string path = file.string();
    std::unique_ptr<ParquetFileReader> reader;
    const SchemaNode* flat = nullptr;
    try {
      reader = ParquetFileReader::open(path);
      const auto resolved = ResolvedProjection::resolve(ColumnProjection::all(), reader->schema());
      for (const SchemaNode* leaf : resolved.leaves()) {
        if (leaf->parent->isRoot() && leaf->maxRepetitionLevel == 0) {
          flat = leaf;
          break;
        }
      }
      if (flat == nullptr) continue;
      viaRowReader(path, ColumnProjection::all(), P::isNotNull(flat->path), true);
    } catch (const std::exception&) {
      continue;  // a file RowReader does not read (bad_data_test and row_reader_test cover those)
    }
    ++compared;
    for (const auto& filter : {P::isNotNull(flat->path), P::isNull(flat->path)}) {
      SCOPED_TRACE(path + " filtered on " + flat->path);
      EXPECT_NO_THROW(expectSameRows(path, ColumnProjection::all(), filter));
    }
  }
  std::printf("[          ] %zu files compared\n", compared);
  EXPECT_GT(compared, 30u);
}

}  // namespace
}  // namespace quarry::parquet
