// Scans of ORC files with quarry's OrcFileReader, timed in process: the queries of
// the ORC benchmark (bench/run.sh orc runs them beside chDB on the lineitem files
// of bench/make-lineitem.mjs converted to ORC by chDB, bench/orc_vs_chdb.mjs).
//
// Usage: orc_scan_benchmark --query Q [--threads N] [--runs R] [--warmup W]
//                           [--metadata uncached|cached] FILE...
//   Q: extendedprice  sum(l_extendedprice) over every row (DOUBLE)
//      partkey        count(*) and sum(l_extendedprice) where l_partkey = 100000
//                     (INT, 30 rows of 6M): both columns decoded stripe by stripe
//                     and the predicate written out in the loop over the decoded
//                     vectors, as filter_benchmark's columns mode does for Parquet
//                     (quarry prunes no ORC stripe or row group yet)
//   N: reader threads (default 1). Files are handed out one at a time to N
//      threads, each reading its file's stripes in order.
//   W untimed runs (default 1), then R timed runs (default 1).
//   --metadata: uncached (default) opens every file in the timing, tail read and
//      decoded; cached keeps the tails and schemas the warm-up read
//      (kept_metadata.h), so the timed runs read none.
//
// Prints one JSON object: the result (count as a string, the sum as a double) and
// each timed run's wall and CPU time (user + system of the whole process) in ms.

#include <atomic>
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
#include "quarry/common/error.h"
#include "quarry/formats/orc/orc_file_reader.h"

namespace quarry::orc {
namespace {

constexpr int64_t kPartKey = 100000;

enum class Query { kExtendedPrice, kPartKey };

struct Options {
  Query query = Query::kExtendedPrice;
  std::string queryName;
  int threads = 1;
  int runs = 1;
  int warmup = 1;
  bool cachedMetadata = false;
  std::vector<std::string> files;
};

struct ScanResult {
  int64_t count = 0;
  double sum = 0;
};

/// Returns the root's child holding top-level field `name`.
const ColumnVector& field(const ColumnVector& root, const std::string& name) {
  for (size_t c = 0; c < root.type->children.size(); ++c) {
    if (root.type->children[c]->name == name && root.children[c]) return *root.children[c];
  }
  throw InvalidArgument("orc_scan_benchmark: no projected column " + name);
}

/// Adds one stripe's rows to `result`. Values are dense (one per non-null slot):
/// without nulls a slot is its own value index, as lineitem's columns have none;
/// with nulls the loop goes through valueIndex.
void consumeStripe(Query query, const ColumnVector& root, ScanResult& result) {
  const ColumnVector& price = field(root, "l_extendedprice");
  if (query == Query::kExtendedPrice) {
    double sum = 0;
    for (double v : price.doubles) sum += v;
    result.sum += sum;
    result.count += static_cast<int64_t>(price.valueCount);
    return;
  }
  const ColumnVector& key = field(root, "l_partkey");
  if (key.present.empty() && price.present.empty()) {
    const size_t slots = key.longs.size();
    for (size_t s = 0; s < slots; ++s) {
      if (key.longs[s] != kPartKey) continue;
      ++result.count;
      result.sum += price.doubles[s];
    }
    return;
  }
  for (uint64_t s = 0; s < key.size; ++s) {
    if (key.isNull(s) || key.longs[key.valueIndex(s)] != kPartKey) continue;
    ++result.count;
    if (!price.isNull(s)) result.sum += price.doubles[price.valueIndex(s)];
  }
}

ScanResult runQuery(const Options& options, bench::KeptMetadata& metadata) {
  std::vector<std::string> columns = {"l_extendedprice"};
  if (options.query == Query::kPartKey) columns.emplace_back("l_partkey");
  std::atomic<size_t> nextFile{0};
  std::vector<ScanResult> partial(static_cast<size_t>(options.threads));
  std::vector<std::exception_ptr> errors(static_cast<size_t>(options.threads));
  auto worker = [&](size_t t) {
    try {
      for (size_t f; (f = nextFile.fetch_add(1)) < options.files.size();) {
        auto reader = metadata.openOrc(options.files[f]);
        const std::vector<bool> projected = reader->project(columns);
        for (size_t s = 0; s < reader->stripeCount(); ++s) {
          consumeStripe(options.query, *reader->readStripe(s, projected), partial[t]);
        }
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
  for (const ScanResult& r : partial) {
    total.count += r.count;
    total.sum += r.sum;
  }
  return total;
}

void printJson(const Options& options, const ScanResult& result,
               const std::vector<std::pair<double, double>>& timings) {
  std::printf("{\"query\": \"%s\", \"threads\": %d, \"metadata\": \"%s\", \"files\": %zu,\n",
              options.queryName.c_str(), options.threads,
              options.cachedMetadata ? "cached" : "uncached", options.files.size());
  std::printf(" \"result\": {\"count\": \"%" PRId64 "\", \"sum\": %.17g},\n", result.count,
              result.sum);
  std::printf(" \"runs\": [");
  for (size_t i = 0; i < timings.size(); ++i) {
    std::printf("%s{\"wallMs\": %.3f, \"cpuMs\": %.3f}", i ? ", " : "", timings[i].first,
                timings[i].second);
  }
  std::printf("]}\n");
}

[[noreturn]] void usage(const char* problem) {
  std::fprintf(stderr,
               "orc_scan_benchmark: %s\nusage: orc_scan_benchmark --query extendedprice|partkey "
               "[--threads N] [--runs R] [--warmup W] [--metadata uncached|cached] FILE...\n",
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
      if (value == "extendedprice")
        options.query = Query::kExtendedPrice;
      else if (value == "partkey")
        options.query = Query::kPartKey;
      else
        usage("unknown query");
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
    } else {
      usage("unknown option");
    }
  }
  if (!haveQuery) usage("--query is required");
  if (options.files.empty()) usage("no file given");
  if (options.threads < 1 || options.runs < 1 || options.warmup < 0) {
    usage("--threads and --runs must be at least 1, --warmup at least 0");
  }
  if (options.cachedMetadata && options.warmup < 1) usage("--metadata cached needs a warm-up run to fill it");
  return options;
}

}  // namespace
}  // namespace quarry::orc

int main(int argc, char** argv) {
  using namespace quarry::orc;
  const Options options = parseArgs(argc, argv);
  try {
    quarry::bench::KeptMetadata metadata(options.cachedMetadata);
    const auto [result, timings] = quarry::bench::timeRuns(
        options.warmup, options.runs, [&] { return runQuery(options, metadata); });
    printJson(options, result, timings);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "orc_scan_benchmark: %s\n", e.what());
    return 1;
  }
  return 0;
}
