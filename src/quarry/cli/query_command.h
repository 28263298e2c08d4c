#pragma once

#include <string>

namespace CLI {
class App;
}

/// `quarry query 'QUERY' [--format table|csv|json|ndjson] [--threads N]
/// [--profile] [--profile-out FILE]` runs a query (engine/query_engine.h) and
/// prints its result, each value as DuckDB renders its type (block_text.h);
/// `--profile` adds one JSON object of what the run read and did on stderr after
/// the result (or in FILE). `quarry explain 'QUERY'` prints the physical plan
/// before and after the local optimizer. A bad query exits with status 2 and the
/// query shown with a caret under the error; a failure reading exits with 1.
namespace quarry::cli {

enum class QueryFormat { kTable, kCsv, kJson, kNdjson };

struct QueryOptions {
  std::string query;
  QueryFormat format = QueryFormat::kTable;
  int threads = 2;
  bool profile = false;
  std::string profileOut;
};

CLI::App& addQueryCommand(CLI::App& app, QueryOptions& options);
CLI::App& addExplainCommand(CLI::App& app, QueryOptions& options);

int runQuery(const QueryOptions& options);
int runExplain(const QueryOptions& options);

}  // namespace quarry::cli
