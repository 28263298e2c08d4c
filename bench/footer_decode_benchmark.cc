// Footer decoding of one Parquet file, stage by stage: the thrift decode of bytes
// already in memory, the schema tree built from it, and the whole readFooter path
// through storage (open, tail read, second read, decode) that `quarry inspect` takes,
// and the open of a file whose footer a repeated query finds in quarry's FooterCache.
//
// Usage: footer_decode_benchmark [benchmark flags] FILE
//    or: QUARRY_BENCH_FILE=FILE footer_decode_benchmark [benchmark flags]
// bench/run.sh generates a wide file (1,000 columns x 100 row groups) and runs this
// beside DuckDB's parquet_metadata() on the same file.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "quarry/formats/parquet/footer.h"
#include "quarry/formats/parquet/footer_cache.h"
#include "quarry/formats/parquet/metadata_decoder.h"
#include "quarry/formats/parquet/parquet_file_reader.h"
#include "quarry/formats/parquet/schema.h"
#include "quarry/io/storage.h"

namespace quarry::parquet {
namespace {

/// Columns whose statistics the projected variants keep: two of the file's columns,
/// as a query touching two columns of a wide table would ask for.
constexpr size_t kProjectedColumns[] = {0, 1};

struct BenchFile {
  std::string path;
  /// The thrift-encoded FileMetaData, without the 8-byte trailer.
  std::vector<uint8_t> metadata;
  size_t columnCount = 0;
  size_t columnChunkCount = 0;
};

BenchFile& benchFile() {
  static BenchFile file;
  return file;
}

std::vector<uint8_t> readMetadataBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error("cannot open " + path);
  const auto size = static_cast<uint64_t>(in.tellg());
  if (size < 12) throw std::runtime_error(path + " is too small to be a Parquet file");
  uint8_t trailer[8];
  in.seekg(static_cast<std::streamoff>(size - 8));
  in.read(reinterpret_cast<char*>(trailer), 8);
  const uint32_t length =
      static_cast<uint32_t>(trailer[0]) | static_cast<uint32_t>(trailer[1]) << 8 |
      static_cast<uint32_t>(trailer[2]) << 16 | static_cast<uint32_t>(trailer[3]) << 24;
  if (length > size - 12) throw std::runtime_error(path + ": footer length past the file");
  std::vector<uint8_t> bytes(length);
  in.seekg(static_cast<std::streamoff>(size - 8 - length));
  in.read(reinterpret_cast<char*>(bytes.data()), length);
  if (!in) throw std::runtime_error("short read of the footer of " + path);
  return bytes;
}

FileMetaDataOptions projectedOptions() {
  FileMetaDataOptions options;
  options.wantColumn.assign(benchFile().columnCount, false);
  for (size_t c : kProjectedColumns) {
    if (c < options.wantColumn.size()) options.wantColumn[c] = true;
  }
  return options;
}

void setCounters(benchmark::State& state) {
  const BenchFile& file = benchFile();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * file.metadata.size()));
  state.counters["chunks/s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * file.columnChunkCount), benchmark::Counter::kIsRate);
}

void decodeFileMetaDataBench(benchmark::State& state, const FileMetaDataOptions& options) {
  const std::vector<uint8_t>& bytes = benchFile().metadata;
  for (auto _ : state) {
    FileMetaData metadata = decodeFileMetaData(bytes, options);
    benchmark::DoNotOptimize(metadata);
  }
  setCounters(state);
}

void BM_DecodeFileMetaData(benchmark::State& state) {
  decodeFileMetaDataBench(state, {});
}

void BM_DecodeFileMetaDataTwoColumnsStats(benchmark::State& state) {
  decodeFileMetaDataBench(state, projectedOptions());
}

void BM_DecodeFileMetaDataNoStatistics(benchmark::State& state) {
  FileMetaDataOptions options;
  options.statistics = false;
  decodeFileMetaDataBench(state, options);
}

void BM_FileSchemaBuild(benchmark::State& state) {
  const FileMetaData metadata = decodeFileMetaData(benchFile().metadata);
  for (auto _ : state) {
    FileSchema schema = FileSchema::build(metadata.schema);
    benchmark::DoNotOptimize(schema);
  }
  state.counters["leaves"] = static_cast<double>(benchFile().columnCount);
}

void readFooterBench(benchmark::State& state, const FileMetaDataOptions& options, bool withSchema) {
  const std::string& path = benchFile().path;
  for (auto _ : state) {
    std::unique_ptr<io::StorageObject> object = io::openObject(path);
    ParquetFooter footer = readFooter(*object, options);
    benchmark::DoNotOptimize(footer);
    if (withSchema) {
      FileSchema schema = FileSchema::build(footer.metadata.schema);
      benchmark::DoNotOptimize(schema);
    }
  }
  setCounters(state);
}

void BM_ReadFooter(benchmark::State& state) {
  readFooterBench(state, {}, false);
}

void BM_ReadFooterWithSchema(benchmark::State& state) {
  readFooterBench(state, {}, true);
}

void BM_ReadFooterTwoColumnsStats(benchmark::State& state) {
  readFooterBench(state, projectedOptions(), true);
}

/// The cached side: open the file and take its footer from a FooterCache that an
/// untimed first open filled (keyed by uri, size and modification time, as the
/// engine keys it), then build the reader and its schema as ParquetFileReader::open
/// does on a hit. No footer byte is read or decoded.
void BM_ReadFooterCached(benchmark::State& state) {
  const std::string& path = benchFile().path;
  FooterCache cache;
  auto open = [&] {
    std::unique_ptr<io::StorageObject> object = io::openObject(path);
    auto footer = cache.read(*object, [&object] { return object->version(); });
    return ParquetFileReader::open(std::move(object), std::move(footer), ReaderOptions{});
  };
  open();
  for (auto _ : state) {
    auto reader = open();
    benchmark::DoNotOptimize(reader);
  }
  if (cache.stats().hits != static_cast<uint64_t>(state.iterations())) {
    state.SkipWithError("the footer cache missed: the file has no version to key it by");
  }
  setCounters(state);
}

/// Loads the footer once and checks the file decodes, so a broken file fails
/// before any timing instead of inside a benchmark loop.
bool loadBenchFile(const std::string& path) {
  BenchFile& file = benchFile();
  file.path = path;
  try {
    file.metadata = readMetadataBytes(path);
    const FileMetaData metadata = decodeFileMetaData(file.metadata);
    file.columnCount = FileSchema::build(metadata.schema).leafCount();
    for (const RowGroup& rowGroup : metadata.row_groups)
      file.columnChunkCount += rowGroup.columns.size();
    std::fprintf(stderr,
                 "footer_decode_benchmark: %s: %zu footer bytes, %zu row groups, %zu columns\n",
                 path.c_str(), file.metadata.size(), metadata.row_groups.size(), file.columnCount);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "footer_decode_benchmark: %s\n", e.what());
    return false;
  }
  return true;
}

}  // namespace
}  // namespace quarry::parquet

int main(int argc, char** argv) {
  using namespace quarry::parquet;
  benchmark::Initialize(&argc, argv);
  std::string path;
  if (argc > 1) {
    path = argv[1];
  } else if (const char* env = std::getenv("QUARRY_BENCH_FILE")) {
    path = env;
  }
  if (path.empty() || argc > 2) {
    std::fprintf(
        stderr,
        "usage: footer_decode_benchmark [--benchmark_...] FILE (or QUARRY_BENCH_FILE=FILE)\n");
    return 2;
  }
  if (!loadBenchFile(path)) return 1;

  for (auto [name, fn] :
       {std::pair{"DecodeFileMetaData", &BM_DecodeFileMetaData},
        std::pair{"DecodeFileMetaData/TwoColumnsStats", &BM_DecodeFileMetaDataTwoColumnsStats},
        std::pair{"DecodeFileMetaData/NoStatistics", &BM_DecodeFileMetaDataNoStatistics},
        std::pair{"FileSchemaBuild", &BM_FileSchemaBuild}, std::pair{"ReadFooter", &BM_ReadFooter},
        std::pair{"ReadFooter/WithSchema", &BM_ReadFooterWithSchema},
        std::pair{"ReadFooter/WithSchema/TwoColumnsStats", &BM_ReadFooterTwoColumnsStats},
        std::pair{"ReadFooter/Cached", &BM_ReadFooterCached}}) {
    benchmark::RegisterBenchmark(name, fn)->Unit(
        fn == &BM_FileSchemaBuild ? benchmark::kMicrosecond : benchmark::kMillisecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
