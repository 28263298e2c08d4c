// The remote-storage latency benchmark: a selective query over files served by
// the project's S3 test server with a fixed latency before every answer, timed
// against the lower bound that latency sets: round trips x latency / concurrency,
// phase by phase, since each phase needs the one before it: the listing (one
// round trip per page), the footers (kRemoteFooterReads in flight), then the data
// reads (`threads` splits in flight).
//
//   remote_latency_benchmark DIR [--latency-ms 20] [--runs 5] [--threads 2] [--query Q]
//
// DIR holds the files (bench/make-remote-files.mjs writes part-NN.parquet); they
// are served as s3://bench/<name>. The default query is a point lookup on the
// sorted `id` of the middle file: the footers prove every other row group empty.
// Prints, per measurement, the median wall time, the requests the server saw, the
// bound and the ratio; docs/PERFORMANCE.md records the figures. Every run's row
// count is checked: the default query's is 1 (ids are unique), a given query's
// must equal the warm-up run's; a difference exits 1.
//
// Cache state: quarry keeps no footer of a remote file between queries (its
// metadata cache holds local files only), so every run lists the files and reads
// their footers again: the uncached case is the only one there is.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "quarry/engine/query_engine.h"
#include "quarry/engine/source/external_source_resolver.h"
#include "tests/io/s3_test_server.h"

namespace {

struct Options {
  std::string dir;
  int latencyMs = 20;
  int runs = 5;
  int threads = 2;
  std::string query;
};

[[noreturn]] void usage(const char* message) {
  std::fprintf(stderr, "remote_latency_benchmark: %s\n"
                       "usage: remote_latency_benchmark DIR [--latency-ms N] [--runs N] [--threads N] [--query Q]\n",
               message);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage((arg + " needs a value").c_str());
      return argv[++i];
    };
    if (arg == "--latency-ms") {
      options.latencyMs = std::stoi(value());
    } else if (arg == "--runs") {
      options.runs = std::stoi(value());
    } else if (arg == "--threads") {
      options.threads = std::stoi(value());
    } else if (arg == "--query") {
      options.query = value();
    } else if (!arg.empty() && arg[0] == '-') {
      usage(("unknown option " + arg).c_str());
    } else {
      options.dir = arg;
    }
  }
  if (options.dir.empty()) usage("DIR is required");
  return options;
}

struct Run {
  double wallMs = 0;
  double prepareMs = 0;
  uint64_t listRequests = 0;
  uint64_t footerRequests = 0;
  uint64_t dataRequests = 0;
  uint64_t rows = 0;

  uint64_t requests() const { return listRequests + footerRequests + dataRequests; }
};

uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(options.dir)) {
    if (entry.path().extension() == ".parquet") files.push_back(entry.path());
  }
  if (files.empty()) usage("DIR holds no .parquet file");
  std::sort(files.begin(), files.end());

  quarry::testing::S3TestServer server;
  server.serveDirectory("bench", options.dir);
  ::setenv("AWS_ENDPOINT_URL", server.endpointUrl().c_str(), 1);
  ::setenv("AWS_ACCESS_KEY_ID", "AKIDQUARRYTEST", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "quarry+test/secret-KEY", 1);
  ::setenv("AWS_REGION", "us-east-1", 1);
  for (const char* name : {"AWS_ENDPOINT_URL_S3", "AWS_SESSION_TOKEN", "AWS_PROFILE"}) ::unsetenv(name);
  quarry::testing::S3TestServerFaults faults;
  faults.latency = std::chrono::milliseconds(options.latencyMs);
  server.setFaults(faults);

  // The middle file's middle id (bench/make-remote-files.mjs: ids sorted across files).
  std::string query = options.query;
  if (query.empty()) {
    query = "FROM \"s3://bench/*.parquet\" | WHERE id == " + std::to_string(files.size() / 2 * 100000 + 50000) +
            " | KEEP id, mode, amount";
  }
  quarry::engine::QueryOptions queryOptions;
  queryOptions.threads = options.threads;

  std::vector<Run> runs;
  uint64_t warmupRows = 0;
  for (int i = 0; i < options.runs + 1; ++i) {  // the first run warms up
    const uint64_t before = server.requestCount();
    const uint64_t listsBefore = server.listPagesServed();
    const auto start = std::chrono::steady_clock::now();
    quarry::engine::PreparedQuery prepared = quarry::engine::prepareQuery(query, queryOptions);
    const auto preparedAt = std::chrono::steady_clock::now();
    Run run;
    run.listRequests = server.listPagesServed() - listsBefore;
    run.footerRequests = server.requestCount() - before - run.listRequests;
    quarry::engine::executeQuery(prepared, [&](const quarry::engine::Page& page) { run.rows += page.positionCount(); });
    const auto end = std::chrono::steady_clock::now();
    run.wallMs = std::chrono::duration<double, std::milli>(end - start).count();
    run.prepareMs = std::chrono::duration<double, std::milli>(preparedAt - start).count();
    run.dataRequests = server.requestCount() - before - run.listRequests - run.footerRequests;
    if (i == 0) warmupRows = run.rows;
    const uint64_t expectedRows = options.query.empty() ? 1 : warmupRows;
    if (run.rows != expectedRows) {
      std::fprintf(stderr, "remote_latency_benchmark: run %d returned %llu rows, expected %llu\n", i,
                   static_cast<unsigned long long>(run.rows), static_cast<unsigned long long>(expectedRows));
      return 1;
    }
    if (i > 0) runs.push_back(run);
  }
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.wallMs < b.wallMs; });
  const Run& median = runs[runs.size() / 2];
  const uint64_t roundTrips = median.listRequests +
                              ceilDiv(median.footerRequests, quarry::engine::kRemoteFooterReads) +
                              ceilDiv(median.dataRequests, static_cast<uint64_t>(options.threads));
  const double bound = static_cast<double>(roundTrips * static_cast<uint64_t>(options.latencyMs));
  std::printf("query: %s\n", query.c_str());
  std::printf("files %zu, latency %d ms, threads %d, runs %d (median)\n", files.size(), options.latencyMs,
              options.threads, options.runs);
  std::printf("requests: %llu list, %llu footer (%zu in flight), %llu data (%d in flight): %llu round trips\n",
              static_cast<unsigned long long>(median.listRequests),
              static_cast<unsigned long long>(median.footerRequests), quarry::engine::kRemoteFooterReads,
              static_cast<unsigned long long>(median.dataRequests), options.threads,
              static_cast<unsigned long long>(roundTrips));
  std::printf("%-20s %10s %10s %10s %12s %8s\n", "measurement", "wall ms", "resolve ms", "requests",
              "bound ms", "ratio");
  std::printf("%-20s %10.1f %10.1f %10llu %12.1f %8.2f\n", "selective query", median.wallMs, median.prepareMs,
              static_cast<unsigned long long>(median.requests()), bound, median.wallMs / bound);
  std::printf("rows returned: %llu in every run (checked)\n", static_cast<unsigned long long>(median.rows));
  return 0;
}
