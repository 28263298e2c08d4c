#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/engine/data/data_type.h"
#include "quarry/engine/exec/executor.h"
#include "quarry/engine/exec/operator.h"
#include "quarry/engine/optimizer/local_optimizer.h"
#include "quarry/engine/parse/ast.h"
#include "quarry/engine/parse/query_diagnostic.h"
#include "quarry/engine/parse/query_parameters.h"
#include "quarry/engine/plan/plan_node.h"
#include "quarry/engine/source/external_source_resolver.h"
#include "quarry/engine/source/lookup_file.h"
#include "quarry/engine/source/scan_metrics.h"

/// One query from text to pages, in one process: parse, resolve the sources
/// (globs, footers, schemas), plan, optimize, execute. `quarry query` and
/// `quarry explain` are thin layers over it.
namespace quarry::engine {

struct QueryOptions {
  /// Driver threads (exchange) and footer-reading threads.
  int threads = 2;
  /// ResolveOptions::metadataCacheDirectory: empty, no metadata cache.
  std::string metadataCacheDirectory;
  /// ResolveOptions::remoteListingTtlNs: 0, every S3 glob listed again.
  int64_t remoteListingTtlNs = 0;
  /// Keep the plan as planned beside the optimized one (EXPLAIN, a coordinator's
  /// placement); otherwise the optimizer rewrites it in place and `unoptimized`
  /// is null (no copy of every split).
  bool keepUnoptimizedPlan = true;
  /// OptimizerOptions::lateMaterialization: off for a cluster's coordinator,
  /// whose scans run on data nodes.
  bool lateMaterialization = true;
  /// The query's start, which NOW() is (milliseconds since 1970-01-01 UTC);
  /// unset, the wall clock when prepareQuery begins. Tests set it to pin NOW().
  std::optional<int64_t> nowMillis;
  /// The values of the query's `?name` placeholders (parse/query_parameters.h).
  QueryParameters parameters;
  /// The most rows a LOOKUP JOIN's file may hold (source/lookup_file.h).
  uint64_t lookupMaxRows = kDefaultLookupMaxRows;
};

struct PreparedQuery {
  Query ast;
  /// What the query likely does not mean (plan/query_warnings.h), for the
  /// caller to show; the query runs all the same.
  std::vector<QueryWarning> warnings;
  /// The files and schema the FROM clause resolved to; their splits are the plan's.
  ResolvedSource source;
  /// The files of the query's LOOKUP JOINs, read whole, by the name the query
  /// gives them; a coordinator sends their schemas (FragmentSpec::lookupSchemas).
  std::map<std::string, std::shared_ptr<const LookupFile>> lookups;
  /// The plan as the planner made it (null unless QueryOptions::keepUnoptimizedPlan),
  /// and after the local optimizer.
  PlanNodePtr unoptimized;
  PlanNodePtr plan;
  std::vector<RuleOutcome> rules;
  /// What the scans count while the plan runs (the plan's requests point here).
  std::shared_ptr<ScanMetrics> metrics;
  std::chrono::steady_clock::time_point started;
  /// The instant NOW() bound to (QueryOptions::nowMillis or the wall clock),
  /// which a coordinator sends to its data nodes (FragmentSpec::nowMillis).
  int64_t nowMillis = 0;
};

/// Throws QueryError for a bad query, and the resolver's errors for sources.
PreparedQuery prepareQuery(std::string_view text, const QueryOptions& options);

struct QueryProfile {
  double elapsedMs = 0;
  /// Files read (their footers, and their rows unless answered from statistics),
  /// and files the WHERE excluded by their paths, never opened.
  uint64_t files = 0, filesPrunedByPartition = 0;
  uint64_t splits = 0;
  uint64_t rowGroupsTotal = 0, rowGroupsPrunedByStatistics = 0, rowGroupsPrunedByBloom = 0,
           rowGroupsPrunedByDictionary = 0, rowGroupsAnsweredFromStatistics = 0;
  /// pagesAnsweredFromStatistics: runs of rows of a row group answered through
  /// its page index (each within one page of every filter column).
  uint64_t pagesTotal = 0, pagesSkipped = 0, pagesAnsweredFromStatistics = 0;
  uint64_t bytesRead = 0, requests = 0, rowsDecoded = 0, rowsReturned = 0;
  uint64_t footerBytesRead = 0, footerRequests = 0;  // the footers' part of bytesRead and requests
  uint64_t footersFromCache = 0;  // files whose metadata the metadata cache gave (no footer read)
  std::vector<OperatorStats> operators;
  /// The rows the query's expressions failed on, from every driver and data node
  /// (expr/warnings.h: the CLI prints their lines on stderr after the result).
  Warnings warnings;
  /// The result's columns, names and types, as the plan gives them (an empty
  /// result has them too).
  Schema columns;
};

/// Runs the prepared plan, handing every result page to `sink` in order, and
/// returns what the run did. `exchangeBuilder`, when given, builds the plan's
/// ExchangeExec (a cluster's coordinator sends its input to data nodes).
QueryProfile executeQuery(const PreparedQuery& query, const std::function<void(const Page&)>& sink,
                          const ExchangeBuilder* exchangeBuilder = nullptr);

/// As executeQuery, but stops once `sink` returns false: no page is pulled
/// after that one, and the scans still running are stopped (a table that shows
/// its first rows does not read the rest).
QueryProfile executeQueryWhile(const PreparedQuery& query,
                               const std::function<bool(const Page&)>& sink,
                               const ExchangeBuilder* exchangeBuilder = nullptr);

/// The profile as one JSON object (the `--profile` output).
std::string profileJson(const QueryProfile& profile);

/// EXPLAIN's text: the plan before and after the local optimizer, and the rules.
std::string explainQuery(const PreparedQuery& query);

}  // namespace quarry::engine
