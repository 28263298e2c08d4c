#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quarry/engine/data/data_type.h"
#include "quarry/engine/data/local_supplier.h"
#include "quarry/engine/data/value_order.h"
#include "quarry/engine/expr/aggregator.h"
#include "quarry/engine/expr/bound_expr.h"
#include "quarry/engine/expr/row_extractor.h"
#include "quarry/engine/source/format_reader.h"
#include "quarry/engine/source/lookup_file.h"
#include "quarry/formats/predicate/filter_predicate.h"

/// The physical plan: a tree of nodes named as the aggregate-pushdown plan names
/// them. The planner (planner.h) builds it from a query, the local optimizer
/// (optimizer/local_optimizer.h) rewrites it, explain() prints it, and
/// buildOperators (executor.h) turns it into running operators.
///
/// Every node has one input (children[0]) except the sources, which have none.
/// Channels are positions in the input's schema.
namespace quarry::engine {

enum class PlanKind : uint8_t {
  kExternalSource,  // read splits of files through their FormatReader
  kLocalSource,     // pages from a LocalSupplier (e.g. aggregates answered from statistics)
  kFilter,
  kEval,
  kProject,
  kAggregate,
  kTopN,
  kLimit,
  kExchange,         // runs its input once per split group on driver threads and gathers the pages
  kLateMaterialize,  // fetches the other columns of its input's rows (a TopN's winners) by position
  kMvExpand,         // one row per element of the list column channels[0] (MV_EXPAND)
  kExtract,          // columns a pattern takes out of the string column channels[0] (DISSECT, GROK)
  kSample,           // keeps each row with sampleProbability (SAMPLE)
  kLookupJoin,  // a left join of its rows with the rows of a lookup file held in memory (LOOKUP
                // JOIN)
};

struct PlanNode;
using PlanNodePtr = std::shared_ptr<PlanNode>;

struct PlanNode {
  PlanKind kind;
  /// The columns this node produces.
  Schema schema;
  std::vector<PlanNodePtr> children;

  // kExternalSource: the splits, the file columns read (request.columns), the
  // pushed filter (request.filter, with its text for EXPLAIN) and limit.
  // kLateMaterialize: the scan's splits, and the columns fetched
  // (request.columns, kRowPositionColumn last); channels = {the input's file
  // path, its row position}; limit: the TopN's; threads: row groups read at once.
  std::vector<SplitTask> splits;
  ReadRequest request;
  /// Files the WHERE excluded by their paths when the source was resolved (EXPLAIN).
  uint64_t filesPrunedByPartition = 0;
  /// The prefixes of the S3 listings the source made (ResolvedSource::listedPrefixes, EXPLAIN).
  std::vector<std::string> listedPrefixes;
  // kLocalSource
  LocalSupplier supplier;
  std::string description;
  /// Whether the supplier's page was computed from statistics when the plan was
  /// optimized: running it reads nothing (the plan's Phase 2).
  bool answeredAtPlanning = false;
  // kFilter
  BoundExprPtr predicate;
  // kEval: columns appended after the input's
  std::vector<std::pair<std::string, BoundExprPtr>> evals;
  // kProject: output i is input channel channels[i], named schema[i].name
  // kMvExpand: channels = {the list column}, which the output holds as its element type
  // kExtract: channels = {the string column}; the extractor's fields appended after the input's
  std::shared_ptr<const RowExtractor> extractor;
  // kSample: the probability and the query's seed (each split's operator mixes in the split)
  double sampleProbability = 0;
  uint64_t sampleSeed = 0;
  std::vector<int> channels;
  // kLookupJoin: channels = the input's key columns, lookupKeys their columns in the file, and
  // lookupColumns the file's columns appended after the input's (the keys not among them)
  std::shared_ptr<const LookupFile> lookup;
  std::vector<int> lookupKeys;
  std::vector<int> lookupColumns;
  // kAggregate
  AggregatorMode mode = AggregatorMode::kSingle;
  std::vector<int> groupChannels;
  std::vector<AggregateSpec> aggregates;
  // kTopN: keys; limit (kTopN optional, kLimit required)
  std::vector<SortSpec> sortKeys;
  std::optional<int64_t> limit;
  // kExchange: its driver threads; kAggregate FINAL: how many tables a merge of many groups is
  // split over (AggregateExec)
  int threads = 1;

  const PlanNodePtr& input() const { return children.at(0); }
  /// A deep copy of this node and every node below it (splits and expressions shared).
  PlanNodePtr clone() const;
};

/// Renders the tree one node per line, the root first, inputs indented below:
///   LimitExec[10]
///     ExchangeExec[threads=2]
///       ExternalSourceExec[files=3, splits=12, columns=[a, b], filter=gt(a, 5)]
std::string explain(const PlanNode& root);

/// The first ExchangeExec at or below `root` (the data-node fragment is its
/// input), or nullptr.
const PlanNode* findExchange(const PlanNode& root);

/// The node at the bottom of `node`'s chain, following first children (the
/// source of a fragment).
const PlanNode& chainBottom(const PlanNode& node);
PlanNode& chainBottom(PlanNode& node);

/// The node's name as EXPLAIN and --profile show it ("AggregateExec[FINAL]").
std::string nodeName(const PlanNode& node);

}  // namespace quarry::engine
