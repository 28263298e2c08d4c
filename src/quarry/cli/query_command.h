#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quarry/engine/exec/executor.h"
#include "quarry/engine/source/lookup_file.h"

namespace CLI {
class App;
}

namespace quarry::engine {
struct PreparedQuery;
}

/// `quarry query 'QUERY' [--format table|csv|json|ndjson|arrow] [--max-rows N]
/// [--json-big-numbers-as-strings] [--threads N] [--profile] [--profile-out FILE]
/// [--param [name=]value ...]`
/// runs a query (engine/query_engine.h) and prints its result as it comes, each
/// value as DuckDB renders its type (block_text.h); the table shows the first
/// rows (table_writer.h) and stops the query once it has them; `arrow` writes
/// an Arrow IPC stream (arrow_output.h; refused to a terminal);
/// `--profile` adds one JSON object of what the run read and did on stderr after
/// the result (or in FILE); `--param` gives the values of `?name`, `?` and `?1`
/// placeholders (parameter_arguments.h). `quarry explain 'QUERY'` prints the physical plan
/// before and after the local optimizer. A bad query exits with status 2 and the
/// query shown with a caret under the error; a failure reading exits with 1.
namespace quarry::cli {

enum class QueryFormat { kTable, kCsv, kJson, kNdjson, kArrow };

/// The coordinator's options (`--nodes` or `--cluster` hands the command to
/// quarry-cluster, cli/cluster/cluster_query_command.h, which reads the rest).
struct ClusterOptions {
  std::string nodes;  // host:port,host:port
  std::string tokenFile;
  std::string clusterFile;
  std::string tlsCa;
  int64_t timeoutMs = 0;  // 0: the default (10 minutes)
};

struct QueryOptions {
  std::string query;
  QueryFormat format = QueryFormat::kTable;
  /// Table format: rows shown at most; negative: TableWriter::kDefaultMaxRows; 0: all.
  int64_t maxRows = -1;
  /// JSON formats: big integers and decimals as strings (json_numbers.h).
  bool jsonBigNumbersAsStrings = false;
  int threads = 2;
  bool profile = false;
  std::string profileOut;
  bool noMetadataCache = false;
  /// --listing-ttl: seconds a cached S3 listing answers for a new one (0: never).
  int64_t listingTtlSeconds = 0;
  /// --lookup-max-rows: the most rows a LOOKUP JOIN's file may hold.
  uint64_t lookupMaxRows = engine::kDefaultLookupMaxRows;
  /// `--param` arguments, as written (parameter_arguments.h).
  std::vector<std::string> params;
  ClusterOptions cluster;
};

CLI::App& addQueryCommand(CLI::App& app, QueryOptions& options);
CLI::App& addExplainCommand(CLI::App& app, QueryOptions& options);

/// Where a run places the plan's ExchangeExec. Without one (nullptr), the
/// exchange runs in this process; a cluster's coordinator (cluster/) passes one
/// that sends the exchange's input to data nodes.
class ExchangePlacement {
 public:
  virtual ~ExchangePlacement() = default;
  /// Returns the builder of the prepared query's exchange, or nullptr to run it
  /// in this process (a small query). Called once per run, before it executes.
  virtual const engine::ExchangeBuilder* place(const engine::PreparedQuery& prepared) = 0;
  /// Returns EXPLAIN's line saying where the fragment below the exchange runs.
  virtual std::string explainLine(const engine::PreparedQuery& prepared) = 0;
  /// Returns fields appended to the --profile object, each starting with ','.
  virtual std::string profileFields() const = 0;
};

int runQuery(const QueryOptions& options, ExchangePlacement* placement = nullptr);
int runExplain(const QueryOptions& options, ExchangePlacement* placement = nullptr);

}  // namespace quarry::cli
