// Filtered scans over a set of Parquet files with quarry's RowReader and a
// FilterPredicate, timed in process: the queries of the filter benchmark
// (bench/run.sh filter runs them beside DuckDB on the lineitem-like files of
// bench/make-lineitem.mjs). Each query computes count(*) and sum(l_extendedprice)
// over the rows its predicate selects.
//
// Usage: filter_benchmark --query Q [--mode M] [--threads N] [--pruning on|off]
//                         [--runs R] [--warmup W] [--literal S]
//                         [--metadata uncached|cached] FILE...
//   Q: partkey   l_partkey = 100000          (INT32, 30 rows of 6M: selective,
//                                             no row group's statistics exclude it)
//      orderkey  l_orderkey BETWEEN 3000000 AND 3000600   (INT64, about 0.01%,
//                                             sorted: statistics exclude most groups)
//      orderkeyeq l_orderkey = 3000005       (INT64, 6 rows, sorted: statistics
//                                             exclude all groups but one, a page
//                                             index all pages but one or two)
//      quantity  l_quantity < 45             (DECIMAL(15,2) on INT64, about 88%)
//      comment   l_comment = --literal S     (BYTE_ARRAY, unsorted: with a value
//                                             stored once, Bloom filters exclude
//                                             every row group but its own)
//   M: rows      (default) RowReader with the filter, projection l_extendedprice:
//                next() and field(0).getDouble() per selected row, as an
//                application reads
//      count     the same reader, next() only: the filter without the row access
//      columns   no filter: ColumnReaders over the predicate's column and
//                l_extendedprice, the predicate written out in the loop over the
//                batches (the decoding floor a filtered read cannot go below
//                without skipping pages)
//   N: reader threads (default 1). Files are handed out one at a time to N
//      threads, each reading its file's row groups in order with
//      ReaderOptions::threads = 1 (as scan_benchmark).
//   --pruning: ReaderOptions::metadataPruning
//      (default off: the benchmark measures the filter itself). "on" fails
//      with exit code 3 when the reader has no such option.
//   W untimed runs (default 1), then R timed runs (default 1).
//   --metadata: uncached (default) opens every file in the timing, footer read
//      and decoded; cached keeps the footers the warm-up decoded (kept_metadata.h),
//      so the timed runs read none (their storage then counts no footer bytes).
//
// Prints one JSON object: the result (count as a string, the sum as a double),
// each timed run's wall and CPU time (user + system of the whole process) in ms,
// and what the last run read ("metrics": the readers' ReaderMetrics summed over
// the files, and "storage": the bytes and requests of each file's storage object
// including the footer, with the footer's part). Files are opened inside the
// timing (with or without their footers read, as --metadata says).

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
#include "quarry/formats/parquet/reader_metrics.h"
#include "quarry/formats/parquet/row_reader.h"
#include "quarry/formats/predicate/filter_predicate.h"
#include "quarry/io/storage.h"

namespace quarry::parquet {
namespace {

enum class Query { kPartKey, kOrderKey, kOrderKeyEq, kQuantity, kComment };
enum class Mode { kRows, kCount, kColumns };

constexpr int32_t kPartKey = 100'000;
constexpr int64_t kOrderKeyLow = 3'000'000;
constexpr int64_t kOrderKeyHigh = 3'000'600;
/// An order of 6 lines in bench/make-lineitem.mjs's data (keys are sparse: only
/// 1-8 modulo 32 exist).
constexpr int64_t kOrderKeyEq = 3'000'005;
/// l_quantity < 45 on DECIMAL(15,2): unscaled values below 4500.
constexpr int64_t kQuantityUnscaledBound = 4'500;

struct Options {
  Query query = Query::kPartKey;
  std::string queryName;
  /// The comment query's l_comment value.
  std::string literal;
  Mode mode = Mode::kRows;
  std::string modeName = "rows";
  int threads = 1;
  bool pruning = false;
  int runs = 1;
  int warmup = 1;
  bool cachedMetadata = false;
  std::vector<std::string> files;
};

struct FilterResult {
  int64_t count = 0;
  double sum = 0;
  /// What the readers did, summed over the files.
  ReaderMetrics metrics;
  /// Everything the files' storage objects fetched (footers, indexes, Bloom
  /// filters, pages), and the footers' part of it: the readers' bytesFetched
  /// counts what they fetched after the file was opened.
  uint64_t storageBytes = 0;
  uint64_t storageRequests = 0;
  uint64_t footerBytes = 0;
  uint64_t footerRequests = 0;

  FilterResult& operator+=(const FilterResult& other) {
    count += other.count;
    sum += other.sum;
    metrics += other.metrics;
    storageBytes += other.storageBytes;
    storageRequests += other.storageRequests;
    footerBytes += other.footerBytes;
    footerRequests += other.footerRequests;
    return *this;
  }
};

const char* filterColumn(Query query) {
  switch (query) {
    case Query::kPartKey:
      return "l_partkey";
    case Query::kOrderKey:
    case Query::kOrderKeyEq:
      return "l_orderkey";
    case Query::kQuantity:
      return "l_quantity";
    case Query::kComment:
      return "l_comment";
  }
  return "";
}

FilterPredicate predicateOf(const Options& options) {
  switch (options.query) {
    case Query::kPartKey:
      return FilterPredicate::eq("l_partkey", kPartKey);
    case Query::kOrderKey:
      return FilterPredicate::and_(FilterPredicate::gtEq("l_orderkey", kOrderKeyLow),
                                   FilterPredicate::ltEq("l_orderkey", kOrderKeyHigh));
    case Query::kOrderKeyEq:
      return FilterPredicate::eq("l_orderkey", kOrderKeyEq);
    case Query::kQuantity: {
      Decimal bound;
      bound.unscaledBigEndian = {45};
      bound.scale = 0;
      return FilterPredicate::lt("l_quantity", bound);
    }
    case Query::kComment:
      return FilterPredicate::eq("l_comment", options.literal);
  }
  return FilterPredicate::isNotNull("l_extendedprice");
}

/// The predicate written out over one batch's stored values (mode columns), as
/// a hand-written loop over the column API would: straight over the dense values
/// when neither column has a null in the batch (every value is then its row's),
/// through the per-row value indices otherwise.
void filterBatch(const Options& options, const ColumnReaders& readers, FilterResult& result) {
  const ColumnBatch key = readers.column(0);
  const ColumnBatch price = readers.column(1);
  const auto prices = price.data().values<double>();
  const int64_t rows = key.rowCount();
  const bool dense = key.data().valueCount == rows && price.data().valueCount == rows;
  // keep(i): whether dense value i of the key passes.
  auto scan = [&](size_t values, auto keep) {
    if (dense) {
      for (size_t r = 0; r < values; ++r) {
        if (!keep(r)) continue;
        ++result.count;
        result.sum += prices[r];
      }
      return;
    }
    const auto keyIndex = key.valueIndex();
    const auto priceIndex = price.valueIndex();
    for (size_t r = 0; r < keyIndex.size(); ++r) {
      const int64_t k = keyIndex[r];
      if (k < 0 || !keep(static_cast<size_t>(k))) continue;
      ++result.count;
      const int64_t p = priceIndex[r];
      if (p >= 0) result.sum += prices[static_cast<size_t>(p)];
    }
  };
  const auto typed = [&](auto type, auto keep) {
    const auto values = key.data().values<decltype(type)>();
    scan(values.size(), [&](size_t i) { return keep(values[i]); });
  };
  switch (options.query) {
    case Query::kPartKey:
      typed(int32_t{}, [](int32_t v) { return v == kPartKey; });
      break;
    case Query::kOrderKey:
      typed(int64_t{}, [](int64_t v) { return v >= kOrderKeyLow && v <= kOrderKeyHigh; });
      break;
    case Query::kOrderKeyEq:
      typed(int64_t{}, [](int64_t v) { return v == kOrderKeyEq; });
      break;
    case Query::kQuantity:
      typed(int64_t{}, [](int64_t v) { return v < kQuantityUnscaledBound; });
      break;
    case Query::kComment: {
      const ColumnChunkData& data = key.data();
      scan(static_cast<size_t>(data.valueCount),
           [&](size_t i) { return data.bytes(static_cast<int64_t>(i)) == options.literal; });
      break;
    }
  }
}

/// Reads one file into `result`.
void readFile(const Options& options, bench::KeptMetadata& metadata, const std::string& uri,
              const FilterPredicate& filter, FilterResult& result) {
  ReaderOptions readerOptions;
  readerOptions.threads = 1;
  readerOptions.metadataPruning = options.pruning;
  auto file = metadata.openParquet(uri, readerOptions);
  io::StorageObject& storage = file->storage();
  result.footerBytes += storage.bytesRead();
  result.footerRequests += storage.requestCount();
  // Read at the end of every path, when the reader has fetched all it will.
  auto addStorage = [&] {
    result.storageBytes += storage.bytesRead();
    result.storageRequests += storage.requestCount();
  };
  if (options.mode == Mode::kColumns) {
    auto readers = file->columnReaders(
        ColumnProjection::columns(filterColumn(options.query), "l_extendedprice"));
    while (readers->nextBatch()) filterBatch(options, *readers, result);
    result.metrics += readers->metrics();
    addStorage();
    return;
  }
  auto rows = file->rowReader(ColumnProjection::columns("l_extendedprice"), filter);
  if (options.mode == Mode::kCount) {
    while (rows->next()) ++result.count;
  } else {
    while (rows->next()) {
      ++result.count;
      const FieldValue price = rows->field(0);
      if (!price.isNull()) result.sum += price.getDouble();
    }
  }
  result.metrics += rows->metrics();
  addStorage();
}

/// Runs the query once over every file with `options.threads` reader threads.
FilterResult runQuery(const Options& options, bench::KeptMetadata& metadata) {
  const FilterPredicate filter = predicateOf(options);
  std::atomic<size_t> nextFile{0};
  std::vector<FilterResult> partial(static_cast<size_t>(options.threads));
  std::vector<std::exception_ptr> errors(static_cast<size_t>(options.threads));
  auto worker = [&](size_t t) {
    try {
      for (size_t f; (f = nextFile.fetch_add(1)) < options.files.size();) {
        readFile(options, metadata, options.files[f], filter, partial[t]);
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
  FilterResult total;
  for (const FilterResult& r : partial) total += r;
  return total;
}

void printJson(const Options& options, const FilterResult& result,
               const std::vector<std::pair<double, double>>& timings) {
  std::printf(
      "{\"query\": \"%s\", \"mode\": \"%s\", \"threads\": %d, \"pruning\": %s, \"metadata\": \"%s\", "
      "\"files\": %zu,\n",
      options.queryName.c_str(), options.modeName.c_str(), options.threads,
      options.pruning ? "true" : "false", options.cachedMetadata ? "cached" : "uncached",
      options.files.size());
  std::printf(" \"result\": {\"count\": \"%" PRId64 "\", \"sum\": %.17g},\n", result.count,
              result.sum);
  const ReaderMetrics& m = result.metrics;
  std::printf(
      " \"metrics\": {\"bytesFetched\": %" PRIu64 ", \"requestsFetched\": %" PRIu64
      ", \"pagesTotal\": %" PRId64 ", \"pagesSkipped\": %" PRId64 ", \"rowGroupsTotal\": %" PRId64
      ", \"rowGroupsPrunedByStatistics\": %" PRId64 ", \"rowGroupsPrunedByBloomFilter\": %" PRId64
      ", \"rowGroupsPrunedByDictionary\": %" PRId64 ", \"rowGroupsPrunedByPageIndex\": %" PRId64
      ", \"rowGroupsMatchedByStatistics\": %" PRId64 ", \"rowGroupsRead\": %" PRId64
      ", \"rowsDecoded\": %" PRId64 ", \"rowsReturned\": %" PRId64 "},\n",
      m.bytesFetched, m.requestsFetched, m.pagesTotal, m.pagesSkipped, m.rowGroupsTotal,
      m.rowGroupsPrunedByStatistics, m.rowGroupsPrunedByBloomFilter, m.rowGroupsPrunedByDictionary,
      m.rowGroupsPrunedByPageIndex, m.rowGroupsMatchedByStatistics, m.rowGroupsRead, m.rowsDecoded,
      m.rowsReturned);
  std::printf(" \"storage\": {\"bytes\": %" PRIu64 ", \"requests\": %" PRIu64
              ", \"footerBytes\": %" PRIu64 ", \"footerRequests\": %" PRIu64 "},\n",
              result.storageBytes, result.storageRequests, result.footerBytes,
              result.footerRequests);
  std::printf(" \"runs\": [");
  for (size_t i = 0; i < timings.size(); ++i) {
    std::printf("%s{\"wallMs\": %.3f, \"cpuMs\": %.3f}", i ? ", " : "", timings[i].first,
                timings[i].second);
  }
  std::printf("]}\n");
}

[[noreturn]] void usage(const char* problem) {
  std::fprintf(
      stderr,
      "filter_benchmark: %s\nusage: filter_benchmark --query partkey|orderkey|orderkeyeq|quantity|comment "
      "[--mode rows|count|columns] [--threads N] [--pruning on|off] [--runs R] [--warmup W] "
      "[--literal S] [--metadata uncached|cached] FILE...\n",
      problem);
  std::exit(2);
}

Options parseArgs(int argc, char** argv) {
  Options options;
  bool haveQuery = false;
  bool haveLiteral = false;
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
      if (value == "partkey")
        options.query = Query::kPartKey;
      else if (value == "orderkey")
        options.query = Query::kOrderKey;
      else if (value == "orderkeyeq")
        options.query = Query::kOrderKeyEq;
      else if (value == "quantity")
        options.query = Query::kQuantity;
      else if (value == "comment")
        options.query = Query::kComment;
      else
        usage("unknown query");
    } else if (arg == "--mode") {
      options.modeName = value;
      if (value == "rows")
        options.mode = Mode::kRows;
      else if (value == "count")
        options.mode = Mode::kCount;
      else if (value == "columns")
        options.mode = Mode::kColumns;
      else
        usage("unknown mode");
    } else if (arg == "--pruning") {
      if (value != "on" && value != "off") usage("--pruning takes on or off");
      options.pruning = value == "on";
    } else if (arg == "--threads") {
      options.threads = std::atoi(value.c_str());
    } else if (arg == "--runs") {
      options.runs = std::atoi(value.c_str());
    } else if (arg == "--warmup") {
      options.warmup = std::atoi(value.c_str());
    } else if (arg == "--metadata") {
      const std::optional<bool> cached = bench::KeptMetadata::parseState(value);
      if (!cached) usage("--metadata takes uncached or cached");
      options.cachedMetadata = *cached;
    } else if (arg == "--literal") {
      options.literal = value;
      haveLiteral = true;
    } else {
      usage("unknown option");
    }
  }
  if (!haveQuery) usage("--query is required");
  if ((options.query == Query::kComment) != haveLiteral) usage("--literal goes with --query comment, and only with it");
  if (options.files.empty()) usage("no file given");
  if (options.threads < 1 || options.runs < 1 || options.warmup < 0) {
    usage("--threads and --runs must be at least 1, --warmup at least 0");
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
    std::fprintf(stderr, "filter_benchmark: %s\n", e.what());
    return 1;
  }
  return 0;
}
