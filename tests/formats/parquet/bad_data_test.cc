// parquet-testing's bad_data/: each file is rejected with a CorruptFile naming
// the column (where the defect lies in one) and the defect, except
// ARROW-GH-43605, whose dictionary indices with bit width 0 are valid and read.
#include <gtest/gtest.h>

#include "quarry/common/error.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/row_reader.h"
#include "tests/support/testdata.h"

namespace quarry::parquet {
namespace {

using quarry::testing::parquetTestingDir;

int64_t readAll(const std::string& name) {
  auto file = ParquetFileReader::open((parquetTestingDir() / "bad_data" / name).string());
  auto rows = file->rowReader();
  int64_t n = 0;
  while (rows->next()) ++n;
  return n;
}

struct BadFile {
  const char* name;
  std::vector<const char*> messageParts;  // each must appear in the error
};

TEST(BadDataTest, EachDefectIsACorruptFileNamingColumnAndDefect) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  const std::vector<BadFile> files = {
      {"PARQUET-1481.parquet", {"PARQUET-1481", "'Handle'", "unknown physical type"}},
      {"ARROW-RS-GH-6229-DICTHEADER.parquet", {"'nation_key'", "num_values"}},
      {"ARROW-RS-GH-6229-LEVELS.parquet", {"'outer.list.item.c'", "values"}},
      {"ARROW-GH-41321.parquet", {"'int64'", "cut off"}},
      {"ARROW-GH-41317.parquet", {"ARROW-GH-41317", "missing"}},
      {"ARROW-GH-45185.parquet", {"'x.list.element'", "first repetition level is 1"}},
      {"ARROW-GH-47662.parquet", {"'flba_field'", "FIXED_LEN_BYTE_ARRAY"}},
  };
  for (const auto& f : files) {
    try {
      readAll(f.name);
      ADD_FAILURE() << f.name << " was read without error";
    } catch (const CorruptFile& e) {
      for (const char* part : f.messageParts) {
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
            << f.name << ": '" << part << "' missing from: " << e.what();
      }
    }
  }
}

TEST(BadDataTest, DictionaryIndicesWithBitWidthZeroRead) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  EXPECT_EQ(readAll("ARROW-GH-43605.parquet"), 21186);
}

TEST(BadDataTest, CorruptChecksumsAreCaughtUnlessVerificationIsOff) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  for (const char* name :
       {"datapage_v1-corrupt-checksum.parquet", "rle-dict-uncompressed-corrupt-checksum.parquet"}) {
    const std::string path = (parquetTestingDir() / "data" / name).string();
    auto checked = ParquetFileReader::open(path);
    auto rows = checked->rowReader();
    try {
      while (rows->next()) {
      }
      ADD_FAILURE() << name << " read despite its corrupt checksum";
    } catch (const CorruptFile& e) {
      EXPECT_NE(std::string(e.what()).find("CRC mismatch"), std::string::npos) << e.what();
    }
    ReaderOptions options;
    options.verifyChecksums = false;
    auto unchecked = ParquetFileReader::open(path, options);
    auto all = unchecked->rowReader();
    int64_t n = 0;
    while (all->next()) ++n;
    EXPECT_EQ(n, unchecked->metadata().num_rows) << name;
  }
}

}  // namespace
}  // namespace quarry::parquet
