// ExternalSourceResolver: glob expansion, format detection and the three
// schema-resolution modes with lossless widening only (type_widening.h).
// Fixtures: tests/fixtures/make-engine-source-fixtures.mjs
//   schema_a  id int32, name string, amount decimal(9,2), ts timestamp(ms, local)
//   schema_a2 the same columns
//   schema_b  id int64, extra string, amount decimal(12,4), name string, ts timestamp(us, local)
//   schema_c  id string
//   schema_d  id int32, name string
#include "quarry/engine/source/external_source_resolver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "quarry/common/error.h"
#include "quarry/engine/exec/external_source_exec.h"
#include "quarry/engine/source/format_reader_registry.h"
#include "quarry/engine/source/type_widening.h"
#include "tests/engine/source/source_test_support.h"

namespace quarry::engine {
namespace {

using testing::fixture;

ResolvedSource resolve(std::vector<std::string> patterns, SchemaResolution mode) {
  ResolveOptions options;
  options.schemaResolution = mode;
  return ExternalSourceResolver::resolve(patterns, options);
}

std::string errorOf(std::vector<std::string> patterns, SchemaResolution mode) {
  try {
    resolve(std::move(patterns), mode);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(no error)";
}

void expectMentions(const std::string& what, std::initializer_list<const char*> parts) {
  for (const char* part : parts) EXPECT_NE(what.find(part), std::string::npos) << part << " in: " << what;
}

TEST(TypeWidening, TheDocumentedTable) {
  EXPECT_EQ(commonType(DataType::int32(), DataType::int64()), DataType::int64());
  EXPECT_EQ(commonType(DataType::float64(), DataType::int32()), DataType::float64());
  EXPECT_EQ(commonType(DataType::decimal(9, 2), DataType::decimal(12, 4)), DataType::decimal(12, 4));
  EXPECT_EQ(commonType(DataType::decimal(10, 0), DataType::decimal(5, 5)), DataType::decimal(15, 5));
  EXPECT_EQ(commonType(DataType::decimal(38, 0), DataType::decimal(38, 1)), std::nullopt);
  EXPECT_EQ(commonType(DataType::timestamp(TimeUnit::kMillis, true), DataType::timestamp(TimeUnit::kNanos, true)),
            DataType::timestamp(TimeUnit::kNanos, true));
  EXPECT_EQ(commonType(DataType::timestamp(TimeUnit::kMillis, true), DataType::timestamp(TimeUnit::kMillis, false)),
            std::nullopt);
  EXPECT_EQ(commonType(DataType::int64(), DataType::float64()), std::nullopt);  // loses digits
  EXPECT_EQ(commonType(DataType::int64(), DataType::uint64()), std::nullopt);
  EXPECT_EQ(commonType(DataType::string(), DataType::binary()), std::nullopt);
  EXPECT_EQ(commonType(DataType::null(), DataType::string()), DataType::string());
}

TEST(TypeWidening, WidenBlockKeepsNullsAndRescales) {
  Block b(DataType::decimal(9, 2));
  b.append<Int128>(125);
  b.appendNull();
  Block w = widenBlock(b, DataType::decimal(12, 4), "f: column c");
  EXPECT_TRUE(w.values<Int128>()[0] == 12500);
  EXPECT_TRUE(w.isNull(1));
  Block t(DataType::timestamp(TimeUnit::kMillis, false));
  t.append<int64_t>(INT64_MAX / 10);
  EXPECT_THROW(widenBlock(t, DataType::timestamp(TimeUnit::kNanos, false), "f: column t"), InvalidArgument);
}

TEST(ExternalSourceResolver, FirstFileWins) {
  // "the first file's schema; later files' extra columns ignored, missing ones null,
  // types must widen losslessly to the first's or error"
  const ResolvedSource source = resolve({fixture("schema_b.parquet"), fixture("schema_a.parquet")},
                                        SchemaResolution::kFirstFileWins);
  EXPECT_EQ(source.schema, (Schema{{"id", DataType::int64()},
                                   {"extra", DataType::string()},
                                   {"amount", DataType::decimal(12, 4)},
                                   {"name", DataType::string()},
                                   {"ts", DataType::timestamp(TimeUnit::kMicros, false)}}));
  ASSERT_EQ(source.files.size(), 2u);
  EXPECT_EQ(source.files[0].reader->name(), "parquet");
  const std::string what =
      errorOf({fixture("schema_a.parquet"), fixture("schema_b.parquet")}, SchemaResolution::kFirstFileWins);
  expectMentions(what, {"\"id\"", "int64", "int32", "schema_a.parquet", "schema_b.parquet"});
  // Issue 26: "a schema clash under first_file_wins does not mention `union_by_name`".
  expectMentions(what, {"WITH {\"schema_resolution\": \"union_by_name\"} reads the column as int64 from both"});
  // int32 and string: union_by_name cannot help, and the message says so.
  expectMentions(errorOf({fixture("schema_a.parquet"), fixture("schema_c.parquet")}, SchemaResolution::kFirstFileWins),
                 {"\"id\"", "schema_a.parquet", "schema_c.parquet", "union_by_name would not merge them either"});
}

TEST(ExternalSourceResolver, Strict) {
  // "every file the same names and types, else an error naming both files and the column"
  const ResolvedSource source =
      resolve({fixture("schema_a*.parquet")}, SchemaResolution::kStrict);
  ASSERT_EQ(source.files.size(), 2u);
  EXPECT_EQ(source.files[0].uri, fixture("schema_a.parquet"));  // sorted within the pattern
  EXPECT_EQ(source.files[1].uri, fixture("schema_a2.parquet"));
  EXPECT_EQ(source.schema.size(), 4u);
  expectMentions(errorOf({fixture("schema_a.parquet"), fixture("schema_d.parquet")}, SchemaResolution::kStrict),
                 {"schema_a.parquet", "schema_d.parquet", "\"amount\""});
  expectMentions(errorOf({fixture("schema_a.parquet"), fixture("schema_b.parquet")}, SchemaResolution::kStrict),
                 {"schema_a.parquet", "schema_b.parquet", "\"id\""});
}

TEST(ExternalSourceResolver, UnionByName) {
  // "all columns by name, in order of first appearance; types widened losslessly"
  const ResolvedSource source = resolve({fixture("schema_a.parquet"), fixture("schema_b.parquet")},
                                        SchemaResolution::kUnionByName);
  EXPECT_EQ(source.schema, (Schema{{"id", DataType::int64()},
                                   {"name", DataType::string()},
                                   {"amount", DataType::decimal(12, 4)},
                                   {"ts", DataType::timestamp(TimeUnit::kMicros, false)},
                                   {"extra", DataType::string()}}));
  expectMentions(errorOf({fixture("schema_a.parquet"), fixture("schema_c.parquet")}, SchemaResolution::kUnionByName),
                 {"\"id\"", "int32", "string", "schema_a.parquet", "schema_c.parquet"});
}

TEST(ExternalSourceResolver, PatternsAndFormats) {
  expectMentions(errorOf({fixture("nothing_*.parquet")}, SchemaResolution::kFirstFileWins),
                 {"nothing_*.parquet", "matches no file"});
  const auto dir = std::filesystem::temp_directory_path() / "quarry_engine_resolver_test";
  std::filesystem::create_directories(dir);
  const auto text = dir / "notes.dat";
  {
    std::ofstream out(text);
    out << "neither format";
  }
  expectMentions(errorOf({text.string()}, SchemaResolution::kFirstFileWins), {"notes.dat", "neither"});
  // Without a known extension, the magic decides.
  const auto copy = dir / "data.bin";
  std::filesystem::copy_file(fixture("schema_a.parquet"), copy, std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(resolve({copy.string()}, SchemaResolution::kFirstFileWins).files[0].reader->name(), "parquet");
  std::filesystem::remove_all(dir);
  ResolveOptions options;
  options.format = "avro";
  EXPECT_THROW(ExternalSourceResolver::resolve({fixture("schema_a.parquet")}, options), InvalidArgument);
  const FormatReaderRegistry& registry = FormatReaderRegistry::instance();
  EXPECT_EQ(registry.findByExtension("s3://b/x.PQ")->name(), "parquet");
  EXPECT_EQ(registry.findByExtension("https://h/x.orc?v=1")->name(), "orc");
  EXPECT_EQ(registry.findByExtension("x.csv"), nullptr);
  EXPECT_EQ(registry.findByName("orc")->name(), "orc");
  EXPECT_EQ(registry.findByName("csv"), nullptr);
}

TEST(ExternalSourceExec, ReadsResolvedFilesWithTheReconciledTypes) {
  const ResolvedSource source = resolve({fixture("schema_a.parquet"), fixture("schema_b.parquet")},
                                        SchemaResolution::kUnionByName);
  std::vector<SplitTask> tasks;
  for (const ResolvedFile& file : source.files) {
    for (const FileSplit& split : file.metadata.splits) tasks.push_back({file.reader, split});
  }
  ScanMetrics metrics;
  ReadRequest request;
  Schema schema = source.schema;
  for (const Field& f : source.schema) request.columns.push_back(f.name);
  request.columns.push_back("_file.path");
  schema.push_back({"_file.path", DataType::string()});
  request.outputSchema = schema;
  request.metrics = &metrics;
  ExternalSourceExec exec(schema, tasks, request);
  Page all = testing::drain([&] { return exec.next(); });
  ASSERT_EQ(all.positionCount(), 2u);
  EXPECT_EQ(all.block(0).values<int64_t>()[0], 1);
  EXPECT_EQ(all.block(0).values<int64_t>()[1], 3000000000);
  EXPECT_TRUE(all.block(2).values<Int128>()[0] == 12500);   // 1.25 at scale 4
  EXPECT_TRUE(all.block(2).values<Int128>()[1] == 31234);   // 3.1234
  EXPECT_EQ(all.block(3).values<int64_t>()[0], 1704067200001000);  // ms widened to us
  EXPECT_TRUE(all.block(4).isNull(0));                      // schema_a has no "extra"
  EXPECT_EQ(all.block(4).bytes(1), "x");
  EXPECT_EQ(all.block(5).bytes(0), fixture("schema_a.parquet"));
  EXPECT_EQ(metrics.splits, 2u);
  std::vector<OperatorStats> stats;
  exec.collectStats(stats);
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].name, "ExternalSourceExec");
  EXPECT_EQ(stats[0].rowsOut, 2u);
  EXPECT_EQ(stats[0].pagesOut, 2u);
}

TEST(ExternalSourceExec, LimitHoldsOverAllSplits) {
  const ResolvedSource source = resolve({fixture("multi_row_groups.parquet"), fixture("multi_row_groups.parquet")},
                                        SchemaResolution::kFirstFileWins);
  std::vector<SplitTask> tasks;
  for (const ResolvedFile& file : source.files) {
    for (const FileSplit& split : file.metadata.splits) tasks.push_back({file.reader, split});
  }
  ReadRequest request;
  request.columns = {"id"};
  request.limit = 12000;
  ScanMetrics metrics;
  request.metrics = &metrics;
  ExternalSourceExec exec({{"id", DataType::int64()}}, tasks, request);
  EXPECT_EQ(testing::drain([&] { return exec.next(); }).positionCount(), 12000u);
  EXPECT_EQ(metrics.splits, 2u);
}

}  // namespace
}  // namespace quarry::engine
