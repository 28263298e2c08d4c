#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "quarry/engine/data/data_type.h"
#include "quarry/engine/optimizer/local_optimizer.h"
#include "quarry/engine/parse/query_parameters.h"
#include "quarry/engine/plan/plan_node.h"
#include "quarry/engine/source/file_split.h"

/// The data node's side of a distributed query: the part of the plan below the
/// ExchangeExec, planned again from the query text over the splits the
/// coordinator assigned, then rewritten by the same local optimizer the
/// in-process path runs (PushAggregatesToExternalSource included), so that each
/// node decides for itself whether its splits are answered from statistics.
namespace quarry::engine {

struct FragmentSpec {
  /// The query as the user wrote it.
  std::string queryText;
  /// The source schema the coordinator resolved (ResolvedSource::schema): the
  /// node neither expands globs nor reads footers to resolve it.
  Schema schema;
  /// This node's splits (each names its file and format).
  std::vector<FileSplit> splits;
  /// Driver threads for the fragment.
  int threads = 2;
  /// The coordinator's PreparedQuery::nowMillis: the instant NOW() binds to here.
  int64_t nowMillis = 0;
  /// The values of the query's placeholders (QueryOptions::parameters).
  QueryParameters parameters;
  /// The schema of each LOOKUP JOIN's file, by the name the query gives it
  /// (PreparedQuery::lookups). The join runs above the exchange, on the
  /// coordinator: the node plans with the schemas and never opens the files.
  std::map<std::string, Schema> lookupSchemas;
};

struct Fragment {
  /// The exchange's input after the local optimizer: it produces the pages the
  /// coordinator's exchange gathers (intermediate aggregate pages below a
  /// FINAL, partial TopN / Limit pages, or rows).
  PlanNodePtr plan;
  std::vector<RuleOutcome> rules;
  /// Whether `plan` reads through an ExternalSourceExec: then it runs once per
  /// split (buildOperators(*plan, &splits[i])) and each split's output can be
  /// committed on its own. Otherwise (statistics answered every split) it runs
  /// once and its output belongs to all the splits together.
  bool perSplit = false;
  /// The splits as SplitTasks (reader resolved from each split's format), in
  /// the order of FragmentSpec::splits.
  std::vector<SplitTask> splits;
};

/// Throws QueryError for a query that does not plan over `spec.schema`, and
/// InvalidArgument for a split of an unknown format.
Fragment planFragment(const FragmentSpec& spec);

}  // namespace quarry::engine
