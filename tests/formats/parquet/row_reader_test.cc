#include "quarry/formats/parquet/row_reader.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "tests/support/testdata.h"

namespace quarry::parquet {
namespace {

using quarry::testing::filesUnder;
using quarry::testing::parquetTestingDir;

TEST(RowReaderTest, ReadsAlltypesPlainByNameAndIndex) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto file = ParquetFileReader::open((parquetTestingDir() / "data/alltypes_plain.parquet").string());
  auto rows = file->rowReader(ColumnProjection::columns("id", "string_col", "double_col"));
  ASSERT_EQ(rows->getFieldCount(), 3u);
  std::vector<int32_t> ids;
  std::string strings;
  while (rows->next()) {
    ids.push_back(rows->getInt("id"));
    strings += rows->getString(1);
    EXPECT_EQ(rows->getDouble("double_col"), rows->getInt(0) % 2 == 0 ? 0.0 : 10.1);
  }
  EXPECT_EQ(ids, (std::vector<int32_t>{4, 5, 6, 7, 2, 3, 0, 1}));
  EXPECT_EQ(strings, "01010101");
}

TEST(RowReaderTest, ColumnOutsideTheProjectionIsNotReadable) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto file = ParquetFileReader::open((parquetTestingDir() / "data/alltypes_plain.parquet").string());
  auto rows = file->rowReader(ColumnProjection::columns("id"));
  ASSERT_TRUE(rows->next());
  EXPECT_THROW(rows->getInt("bool_col"), InvalidArgument);
  EXPECT_THROW(rows->getInt(1), std::out_of_range);
}

// Every parquet-testing file reads every row its row groups count; the files
// the test data makes invalid on purpose fail, each with the error that names
// its fault (tests/differential/read_values.mjs lists the same three).
TEST(RowReaderTest, ReadsEveryRowOfEveryValidFile) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::map<std::string, std::string> kInvalid = {
      {"datapage_v1-corrupt-checksum.parquet", "CRC mismatch"},
      {"rle-dict-uncompressed-corrupt-checksum.parquet", "CRC mismatch"},
      {"nation.dict-malformed.parquet", "runs past the end of the column chunk"},
  };
  size_t files = 0;
  size_t invalidSeen = 0;
  for (const auto& path : filesUnder(parquetTestingDir() / "data", ".parquet")) {
    ++files;
    const std::string name = path.filename().string();
    const auto invalid = kInvalid.find(name);
    try {
      auto file = ParquetFileReader::open(path.string());
      auto rows = file->rowReader();
      int64_t count = 0;
      while (rows->next()) ++count;
      int64_t expected = 0;
      for (const auto& g : file->metadata().row_groups) expected += g.num_rows;
      EXPECT_EQ(count, expected) << name;
      EXPECT_EQ(invalid, kInvalid.end()) << name << " reads, but the test data makes it invalid ("
                                         << (invalid == kInvalid.end() ? "" : invalid->second) << ")";
    } catch (const std::exception& e) {
      if (invalid == kInvalid.end()) {
        ADD_FAILURE() << name << ": " << e.what();
      } else {
        ++invalidSeen;
        EXPECT_NE(std::string(e.what()).find(invalid->second), std::string::npos)
            << name << " fails with \"" << e.what() << "\", not \"" << invalid->second << "\"";
      }
    }
  }
  EXPECT_EQ(invalidSeen, kInvalid.size());
  EXPECT_GT(files, 50u);
}

}  // namespace
}  // namespace quarry::parquet

#include "quarry/formats/parquet/column_reader.h"

namespace quarry::parquet {
namespace {

TEST(ColumnReadersTest, RepeatedNamesShareOneDecodedColumn) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  auto file = ParquetFileReader::open((quarry::testing::parquetTestingDir() /
                                       "data/alltypes_plain.parquet").string());
  auto columns = file->columnReaders(ColumnProjection::columns("id", "double_col", "id"));
  ASSERT_EQ(columns->getColumnCount(), 3u);
  int64_t rows = 0;
  while (columns->nextBatch()) {
    const ColumnBatch id = columns->column(0);
    EXPECT_EQ(&id.data(), &columns->column(2).data());
    EXPECT_EQ(id.data().values<int32_t>().size(), static_cast<size_t>(id.rowCount()));
    EXPECT_EQ(columns->column(1).leaf().path, "double_col");
    rows += id.rowCount();
  }
  EXPECT_EQ(rows, 8);
  EXPECT_THROW(columns->column(3), std::out_of_range);
}

}  // namespace
}  // namespace quarry::parquet

#include "quarry/formats/parquet/multi_file_row_reader.h"

namespace quarry::parquet {
namespace {

TEST(MultiFileRowReaderTest, ReadsFilesOneAfterAnother) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto dir = quarry::testing::parquetTestingDir() / "data";
  MultiFileRowReader rows({(dir / "alltypes_plain.parquet").string(),
                           (dir / "alltypes_plain.snappy.parquet").string()},
                          ColumnProjection::columns("id"));
  std::vector<int32_t> ids;
  while (rows.next()) ids.push_back(rows.field("id").getInt());
  EXPECT_EQ(ids, (std::vector<int32_t>{4, 5, 6, 7, 2, 3, 0, 1, 6, 7}));
  EXPECT_NE(rows.currentUri().find("snappy"), std::string::npos);
}

TEST(MultiFileRowReaderTest, MissingColumnNamesTheFile) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto dir = quarry::testing::parquetTestingDir() / "data";
  MultiFileRowReader rows({(dir / "alltypes_plain.parquet").string(),
                           (dir / "binary.parquet").string()},
                          ColumnProjection::columns("id"));
  try {
    while (rows.next()) {
    }
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("binary.parquet"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Column not found: id"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace quarry::parquet

#include "quarry/formats/predicate/filter_predicate.h"

namespace quarry::parquet {
namespace {

TEST(MultiFileRowReaderTest, FilterAppliesToEveryFile) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const auto dir = quarry::testing::parquetTestingDir() / "data";
  MultiFileRowReader rows({(dir / "alltypes_plain.parquet").string(),
                           (dir / "alltypes_plain.snappy.parquet").string()},
                          ColumnProjection::columns("id"), FilterPredicate::gtEq("id", 5));
  std::vector<int32_t> ids;
  while (rows.next()) ids.push_back(rows.field("id").getInt());
  EXPECT_EQ(ids, (std::vector<int32_t>{5, 6, 7, 6, 7}));
}

}  // namespace
}  // namespace quarry::parquet
