// What reading a file's metadata cost, reported with it (SourceMetadata::bytesRead
// and requests), so that `--profile` counts the footers the resolver reads. Issue
// 9: a query answered from statistics "reads exactly one range per file and no
// data page" (tests/differential/engine/pushdown_io.mjs checks the query end to end).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "quarry/engine/source/orc_format_reader.h"
#include "quarry/engine/source/parquet_format_reader.h"
#include "quarry/formats/parquet/footer.h"
#include "tests/engine/source/source_test_support.h"
#include "tests/support/testdata.h"

namespace quarry::engine {
namespace {

using testing::fixture;

TEST(FooterIo, ParquetMetadataCostsOneTailReadAndNothingOnceCached) {
  ParquetFormatReader reader;  // a reader's footer cache is its own: the first read misses
  for (const char* name : {"multi_row_groups.parquet", "big_row_group.parquet"}) {
    const std::string uri = fixture(name);
    const uint64_t size = std::filesystem::file_size(uri);
    const SourceMetadata first = reader.metadata(uri);
    EXPECT_EQ(first.requests, 1u) << name;
    EXPECT_EQ(first.bytesRead, std::min<uint64_t>(size, parquet::kFooterTailReadSize)) << name;
    const SourceMetadata again = reader.metadata(uri);
    EXPECT_EQ(again.requests, 0u) << name;
    EXPECT_EQ(again.bytesRead, 0u) << name;
  }
}

TEST(FooterIo, OrcMetadataCountsItsTailReads) {
  QUARRY_SKIP_WITHOUT_TESTDATA();
  OrcFormatReader reader;
  const std::string uri = (quarry::testing::testdataDir() / "orc" / "examples" / "TestOrcFile.test1.orc").string();
  const SourceMetadata m = reader.metadata(uri);
  EXPECT_GE(m.requests, 1u);
  EXPECT_GT(m.bytesRead, 0u);
  EXPECT_LE(m.bytesRead, std::filesystem::file_size(uri));
  // The tail is read once per reader and file: again, and by the file's splits,
  // it costs nothing.
  const SourceMetadata again = reader.metadata(uri);
  EXPECT_EQ(again.requests, 0u);
  EXPECT_EQ(again.bytesRead, 0u);
  const auto readAll = [&](const OrcFormatReader& r) {
    ScanMetrics metrics;
    ReadRequest request;
    request.columns = {"int1"};
    request.metrics = &metrics;
    for (const FileSplit& split : m.splits) {
      LocalSupplier next = r.read(split, request);
      while (next()) {
      }
    }
    return metrics.bytesRead.load();
  };
  const uint64_t warm = readAll(reader);
  OrcFormatReader cold;  // its own cache: each split reads the tail
  EXPECT_EQ(readAll(cold), warm + m.bytesRead * m.splits.size());
  ASSERT_EQ(m.splits.size(), 1u);
  EXPECT_EQ(m.splits[0].fileSize, std::filesystem::file_size(uri));
}

}  // namespace
}  // namespace quarry::engine
