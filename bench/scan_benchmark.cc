// Column scans over a set of Parquet files with quarry's ColumnReaders, timed in
// process: the four queries of the scan benchmark (bench/run.sh scan runs them
// beside DuckDB on the lineitem-like files of bench/make-lineitem.mjs).
//
// Usage: scan_benchmark --query Q [--threads N] [--chunk-threads M] [--runs R]
//                       [--warmup W] [--metadata uncached|cached] FILE...
//   Q: orderkey       sum of l_orderkey (INT64)
//      extendedprice  sum of l_extendedprice (DOUBLE)
//      comment        total length in bytes of l_comment (BYTE_ARRAY)
//      all            every column decoded: its non-null count (from the validity
//                     of every row) and, for string columns, the total byte length
//                     (one length per value), as DuckDB's count(c) x 16 plus
//                     sum(strlen(c)) over the 5 VARCHAR columns
//   N: reader threads (default 1). Files are handed out one at a time to N
//      threads, each reading its file's row groups in order with
//      ReaderOptions::threads = M.
//   M: ReaderOptions::threads, column chunks of a row group decoded in parallel
//      (default 1: the N reader threads are then all the threads that work;
//      0 or >1 uses the shared pool sized to the machine).
//   W untimed runs (default 1), then R timed runs (default 1).
//   --metadata: uncached (default) opens every file in the timing, footer read
//      and decoded, as DuckDB reads them within its query without its
//      parquet_metadata_cache; cached keeps the footers the warm-up decoded
//      (kept_metadata.h), so the timed runs read none.
//
// Prints one JSON object: the query's result (integers as strings, exact) and
// each timed run's wall and CPU time (user + system of the whole process, every
// thread included) in milliseconds. String chunks whose pages
// are all dictionary-encoded are read in dictionary form (ReaderOptions::dictionaryIds),
// each value's length still taken one value at a time.

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench_timing.h"
#include "kept_metadata.h"
#include "quarry/formats/parquet/column_reader.h"
#include "quarry/formats/parquet/parquet_file_reader.h"

namespace quarry::parquet {
namespace {

enum class Query { kOrderKey, kExtendedPrice, kComment, kAll };

struct Options {
  Query query = Query::kOrderKey;
  std::string queryName;
  int threads = 1;
  int chunkThreads = 1;
  int runs = 1;
  int warmup = 1;
  bool cachedMetadata = false;
  std::vector<std::string> files;
};

/// What one query computes; partial results of threads add up.
struct ScanResult {
  int64_t intSum = 0;
  double doubleSum = 0;
  int64_t bytes = 0;
  /// Query kAll: per column, non-null values and (strings) total bytes.
  std::vector<int64_t> counts;
  std::vector<int64_t> stringBytes;

  void add(const ScanResult& other) {
    intSum += other.intSum;
    doubleSum += other.doubleSum;
    bytes += other.bytes;
    if (counts.size() < other.counts.size()) counts.resize(other.counts.size());
    if (stringBytes.size() < other.stringBytes.size()) stringBytes.resize(other.stringBytes.size());
    for (size_t i = 0; i < other.counts.size(); ++i) counts[i] += other.counts[i];
    for (size_t i = 0; i < other.stringBytes.size(); ++i) stringBytes[i] += other.stringBytes[i];
  }
};

ColumnProjection projectionOf(Query query) {
  switch (query) {
    case Query::kOrderKey: return ColumnProjection::columns("l_orderkey");
    case Query::kExtendedPrice: return ColumnProjection::columns("l_extendedprice");
    case Query::kComment: return ColumnProjection::columns("l_comment");
    case Query::kAll: return ColumnProjection::all();
  }
  return ColumnProjection::all();
}

int64_t sumByteLengths(const ColumnChunkData& data) {
  // One length per value, as a consumer of the strings would take them.
  int64_t total = 0;
  for (int64_t i = 0; i < data.valueCount; ++i) total += static_cast<int64_t>(data.bytes(i).size());
  return total;
}

/// Adds one batch (one row group of one file) to `result`.
void consumeBatch(Query query, const ColumnReaders& readers, ScanResult& result) {
  switch (query) {
    case Query::kOrderKey:
      for (int64_t v : readers.column(0).data().values<int64_t>()) result.intSum += v;
      return;
    case Query::kExtendedPrice:
      for (double v : readers.column(0).data().values<double>()) result.doubleSum += v;
      return;
    case Query::kComment: result.bytes += sumByteLengths(readers.column(0).data()); return;
    case Query::kAll: {
      const size_t columns = readers.getColumnCount();
      result.counts.resize(columns);
      result.stringBytes.resize(columns);
      for (size_t c = 0; c < columns; ++c) {
        const ColumnBatch batch = readers.column(c);
        int64_t present = 0;
        for (uint8_t v : batch.validity()) present += v;
        result.counts[c] += present;
        const ColumnChunkData& data = batch.data();
        if (data.valueWidth == 0) result.stringBytes[c] += sumByteLengths(data);
      }
      return;
    }
  }
}

/// Runs the query once over every file with `options.threads` reader threads.
ScanResult runQuery(const Options& options, bench::KeptMetadata& metadata) {
  const ColumnProjection projection = projectionOf(options.query);
  ReaderOptions readerOptions;
  readerOptions.threads = options.chunkThreads;
  // Strings of all-dictionary chunks stay as dictionary + ids, as DuckDB keeps its
  // dictionary vectors; bytes(i) resolves each value through its id.
  readerOptions.dictionaryIds = true;
  std::atomic<size_t> nextFile{0};
  std::vector<ScanResult> partial(static_cast<size_t>(options.threads));
  std::vector<std::exception_ptr> errors(static_cast<size_t>(options.threads));
  auto worker = [&](size_t t) {
    try {
      for (size_t f; (f = nextFile.fetch_add(1)) < options.files.size();) {
        auto file = metadata.openParquet(options.files[f], readerOptions);
        auto readers = file->columnReaders(projection);
        while (readers->nextBatch()) consumeBatch(options.query, *readers, partial[t]);
      }
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (size_t t = 1; t < partial.size(); ++t) threads.emplace_back(worker, t);
  worker(0);
  for (auto& thread : threads) thread.join();
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  ScanResult total;
  for (const ScanResult& r : partial) total.add(r);
  return total;
}

std::string jsonArray(const std::vector<int64_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    out += (i ? ", \"" : "\"") + std::to_string(values[i]) + "\"";
  }
  return out + "]";
}

void printJson(const Options& options, const ScanResult& result,
               const std::vector<std::pair<double, double>>& timings) {
  std::printf("{\"query\": \"%s\", \"threads\": %d, \"chunkThreads\": %d, \"metadata\": \"%s\", "
              "\"files\": %zu,\n",
              options.queryName.c_str(), options.threads, options.chunkThreads,
              options.cachedMetadata ? "cached" : "uncached", options.files.size());
  switch (options.query) {
    case Query::kOrderKey: std::printf(" \"result\": {\"sum\": \"%" PRId64 "\"},\n", result.intSum); break;
    case Query::kExtendedPrice: std::printf(" \"result\": {\"sum\": %.17g},\n", result.doubleSum); break;
    case Query::kComment: std::printf(" \"result\": {\"bytes\": \"%" PRId64 "\"},\n", result.bytes); break;
    case Query::kAll:
      std::printf(" \"result\": {\"counts\": %s, \"stringBytes\": %s},\n",
                  jsonArray(result.counts).c_str(), jsonArray(result.stringBytes).c_str());
      break;
  }
  std::printf(" \"runs\": [");
  for (size_t i = 0; i < timings.size(); ++i) {
    std::printf("%s{\"wallMs\": %.3f, \"cpuMs\": %.3f}", i ? ", " : "", timings[i].first,
                timings[i].second);
  }
  std::printf("]}\n");
}

[[noreturn]] void usage(const char* problem) {
  std::fprintf(stderr,
               "scan_benchmark: %s\nusage: scan_benchmark --query orderkey|extendedprice|comment|all "
               "[--threads N] [--chunk-threads M] [--runs R] [--warmup W] [--metadata uncached|cached] "
               "FILE...\n",
               problem);
  std::exit(2);
}

Options parseArgs(int argc, char** argv) {
  Options options;
  bool haveQuery = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      options.files.emplace_back(arg);
      continue;
    }
    if (i + 1 >= argc) usage("an option lacks its value");
    const std::string value = argv[++i];
    if (arg == "--query") {
      options.queryName = value;
      haveQuery = true;
      if (value == "orderkey") options.query = Query::kOrderKey;
      else if (value == "extendedprice") options.query = Query::kExtendedPrice;
      else if (value == "comment") options.query = Query::kComment;
      else if (value == "all") options.query = Query::kAll;
      else usage("unknown query");
    } else if (arg == "--threads") {
      options.threads = std::atoi(value.c_str());
    } else if (arg == "--chunk-threads") {
      options.chunkThreads = std::atoi(value.c_str());
    } else if (arg == "--runs") {
      options.runs = std::atoi(value.c_str());
    } else if (arg == "--warmup") {
      options.warmup = std::atoi(value.c_str());
    } else if (arg == "--metadata") {
      const std::optional<bool> cached = bench::KeptMetadata::parseState(value);
      if (!cached) usage("--metadata takes uncached or cached");
      options.cachedMetadata = *cached;
    } else {
      usage("unknown option");
    }
  }
  if (!haveQuery) usage("--query is required");
  if (options.files.empty()) usage("no file given");
  if (options.threads < 1 || options.runs < 1 || options.warmup < 0 || options.chunkThreads < 0) {
    usage("--threads and --runs must be at least 1, --warmup and --chunk-threads at least 0");
  }
  if (options.cachedMetadata && options.warmup < 1) usage("--metadata cached needs a warm-up run to fill it");
  return options;
}

}  // namespace
}  // namespace quarry::parquet

int main(int argc, char** argv) {
  using namespace quarry::parquet;
  const Options options = parseArgs(argc, argv);
  try {
    quarry::bench::KeptMetadata metadata(options.cachedMetadata);
    const auto [result, timings] = quarry::bench::timeRuns(
        options.warmup, options.runs, [&] { return runQuery(options, metadata); });
    printJson(options, result, timings);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scan_benchmark: %s\n", e.what());
    return 1;
  }
  return 0;
}
