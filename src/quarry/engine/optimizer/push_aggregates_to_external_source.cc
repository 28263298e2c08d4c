#include <algorithm>

#include "quarry/engine/exec/mixed_statistics_supplier.h"
#include "quarry/engine/optimizer/filter_translation.h"
#include "quarry/engine/optimizer/for_each_node.h"
#include "quarry/engine/optimizer/local_optimizer.h"
#include "quarry/engine/source/file_stats_supplier.h"
#include "quarry/engine/source/format_reader.h"

namespace quarry::engine {

using parquet::FilterPredicate;

namespace {

/// The top-level AND operands of `e`.
void conjunctsOf(const BoundExprPtr& e, std::vector<BoundExprPtr>& out) {
  if (e->kind == BoundExpr::Kind::kBinary && e->binaryOp == BinaryOp::kAnd) {
    conjunctsOf(e->children.at(0), out);
    conjunctsOf(e->children.at(1), out);
    return;
  }
  out.push_back(e);
}

/// Whether every column `e` reads is a partition column or `_file.path`.
bool readsOnlyThePath(const BoundExpr& e, const ReadRequest& request) {
  if (e.kind == BoundExpr::Kind::kColumn) {
    const std::string& name = request.columns.at(static_cast<size_t>(e.column));
    return name == kFilePathColumn ||
           std::find(request.partitionColumns.begin(), request.partitionColumns.end(), name) !=
               request.partitionColumns.end();
  }
  return std::all_of(e.children.begin(), e.children.end(),
                     [&](const BoundExprPtr& child) { return readsOnlyThePath(*child, request); });
}

/// The AND of `conjuncts` (null when there is none).
BoundExprPtr allOf(const std::vector<BoundExprPtr>& conjuncts) {
  BoundExprPtr out;
  for (const BoundExprPtr& conjunct : conjuncts) {
    if (!out) {
      out = conjunct;
      continue;
    }
    auto both = std::make_shared<BoundExpr>();
    both->kind = BoundExpr::Kind::kBinary;
    both->binaryOp = BinaryOp::kAnd;
    both->type = DataType::boolean();
    both->children = {out, conjunct};
    out = std::move(both);
  }
  return out;
}

/// The WHERE of `aggregate` (none without a FilterExec below) in `pushdown`:
/// its conjuncts naming only partition columns and `_file.path` as `byPath`,
/// each file's path deciding them, and the others as an exact predicate over
/// the source's columns. False, with `why`, when those have no exact form or
/// are not the predicate the source was handed.
bool exactFilter(const PlanNode& aggregate, StatisticsPushdown& pushdown, std::string& why) {
  const PlanNode& below = *aggregate.input();
  if (below.kind != PlanKind::kFilter) return true;
  const PlanNode& source = *below.input();
  std::vector<BoundExprPtr> conjuncts, byPath, rest;
  conjunctsOf(below.predicate, conjuncts);
  for (const BoundExprPtr& conjunct : conjuncts) {
    (readsOnlyThePath(*conjunct, source.request) ? byPath : rest).push_back(conjunct);
  }
  pushdown.byPath = allOf(byPath);
  const BoundExprPtr columns = allOf(rest);
  if (!columns) {
    if (!source.request.filter) return true;
    why = "the source's predicate is not the WHERE";
    return false;
  }
  std::optional<FilterPredicate> exact =
      toExactFilterPredicate(*columns, source.schema, source.request.partitionColumns);
  if (!exact || hasNullInList(*columns)) {
    why = "the WHERE is not wholly a source predicate (rows are rechecked)";
    return false;
  }
  if (!source.request.filter || source.request.filter->toString() != exact->toString()) {
    why = "the source's predicate is not the WHERE";
    return false;
  }
  pushdown.filter = std::move(exact);
  return true;
}

/// The ExternalSourceExec `aggregate` reads, directly or through a FilterExec; nullptr otherwise.
const PlanNode* aggregatedSource(const PlanNode& aggregate) {
  if (aggregate.kind != PlanKind::kAggregate || aggregate.children.empty()) return nullptr;
  const PlanNode* below = aggregate.input().get();
  if (below->kind == PlanKind::kFilter) below = below->input().get();
  return below->kind == PlanKind::kExternalSource ? below : nullptr;
}

/// Why `aggregate` (over an ExternalSourceExec) cannot be answered from
/// statistics, or "" when it may be.
std::string pushdownObstacle(const PlanNode& aggregate) {
  const PlanNode& source = *aggregatedSource(aggregate);
  if (aggregate.mode != AggregatorMode::kSingle && aggregate.mode != AggregatorMode::kInitial) {
    return "the aggregate merges intermediate values";
  }
  // Grouped by partition columns only, each file's rows are all in one group.
  const std::vector<std::string>& partitions = source.request.partitionColumns;
  for (int channel : aggregate.groupChannels) {
    const std::string& name = source.request.columns.at(static_cast<size_t>(channel));
    if (std::find(partitions.begin(), partitions.end(), name) == partitions.end()) {
      return "the aggregate is grouped by " + name + ", not a partition column";
    }
  }
  if (aggregate.input()->kind != PlanKind::kFilter && source.request.filter)
    return "the source is filtered";
  if (source.request.limit) return "the source is limited";
  for (const AggregateSpec& spec : aggregate.aggregates) {
    if (spec.inputChannel >= 0 &&
        static_cast<size_t>(spec.inputChannel) < source.request.columns.size() &&
        std::find(partitions.begin(), partitions.end(),
                  source.request.columns[spec.inputChannel]) != partitions.end()) {
      return std::string(aggregateName(spec.function)) + " of partition column " +
             source.request.columns[spec.inputChannel] + " is in no file's statistics";
    }
    if (!FileStatsSupplier::supports(spec)) {
      return std::string(aggregateName(spec.function)) + " of " + spec.inputType.toString() +
             " is not answered from statistics";
    }
  }
  for (const SplitTask& task : source.splits) {
    if (task.reader == nullptr ||
        task.reader->aggregatePushdownSupport() != AggregatePushdownSupport::kFromStatistics) {
      return "format " + task.split.format + " does not answer aggregates from statistics";
    }
  }
  return "";
}

/// Phase 2's pages: the answer over `d.answered` in `aggregate`'s mode, computed
/// now; nullopt when some bounds do not merge (those units are then in
/// d.scanned, for the mixed supplier to scan).
std::optional<std::vector<Page>> answerNow(const PlanNode& aggregate, UnitDecisions& d) {
  const std::vector<std::string>& columns = chainBottom(aggregate).request.columns;
  if (aggregate.groupChannels.empty()) {
    std::optional<Page> page =
        FileStatsSupplier(columns, aggregate.aggregates, aggregate.mode).answer(d.answered);
    if (!page) return std::nullopt;
    return std::vector<Page>{std::move(*page)};
  }
  // Grouped: one INITIAL row per group, merged as the plan would merge them.
  auto initial = std::make_shared<std::optional<Page>>(statisticsAnswer(aggregate, d));
  if (!d.scanned.empty()) return std::nullopt;
  OperatorPtr merge = mergeStatistics(
      aggregate,
      [initial]() -> std::optional<Page> {
        std::optional<Page> page = std::move(*initial);
        initial->reset();
        if (page && page->positionCount() == 0) return std::nullopt;
        return page;
      },
      "statistics");
  std::vector<Page> pages;
  while (std::optional<Page> page = merge->next()) pages.push_back(std::move(*page));
  return pages;
}

std::string count(size_t n, const char* what) {
  return std::to_string(n) + " " + what;
}

/// EXPLAIN's account of the decisions made at planning.
std::string describe(const PlanNode& aggregate, const UnitDecisions& d,
                     const StatisticsPushdown& pushdown) {
  const std::optional<FilterPredicate>& filter = pushdown.filter;
  std::vector<std::string> parts;
  if (!aggregate.groupChannels.empty()) {
    std::string keys;
    for (int channel : aggregate.groupChannels) {
      keys += (keys.empty() ? "" : ", ") +
              aggregate.input()->schema.at(static_cast<size_t>(channel)).name;
    }
    parts.push_back("by partition [" + keys + "]");
  }
  const bool mixed = !d.scanned.empty() || !d.undecided.empty();
  if (!d.answered.empty() || !mixed)
    parts.push_back("statistics of " + count(d.answered.size(), "splits"));
  if (d.skippedSplits > 0) parts.push_back(count(d.skippedSplits, "splits skipped by statistics"));
  if (!d.undecided.empty()) {
    parts.push_back(std::string("FileStatsSupplier per row group") + (filter ? " and page" : "") +
                    " over " + count(d.undecided.size(), "splits") + ", else a scan");
  }
  if (!d.scanned.empty()) parts.push_back("scan of " + count(d.scanned.size(), "splits"));
  if (mixed) parts.push_back("mixed");
  if (filter) parts.push_back("filter=" + filter->toString());
  if (pushdown.byPath) parts.push_back("by path=" + pushdown.byPath->toString());
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : ", ") + part;
  return out;
}

}  // namespace

bool pushAggregatesToExternalSource(PlanNode& root, std::string* why) {
  int threads = 1;  // of the nearest exchange above
  return forEachNode(root, [why, &threads](PlanNode& node) {
    if (node.kind == PlanKind::kExchange) threads = node.threads;
    const PlanNode* found = aggregatedSource(node);
    if (found == nullptr) return false;
    std::string obstacle = pushdownObstacle(node);
    StatisticsPushdown pushdown;
    if (obstacle.empty()) exactFilter(node, pushdown, obstacle);
    if (!obstacle.empty()) {
      if (why != nullptr) *why = obstacle;
      return false;
    }
    pushdown.original = std::make_shared<PlanNode>(node);
    pushdown.threads = threads;
    UnitDecisions decisions = decideSplits(pushdown);
    if (decisions.answered.empty() && decisions.skippedSplits == 0 && decisions.undecided.empty()) {
      // Every split is one unit whose statistics cannot answer: the plan stays,
      // its splits back in its source.
      chainBottom(*pushdown.original).splits = std::move(decisions.scanned);
      if (why != nullptr) *why = "a statistic an aggregate needs is unknown in every split";
      return false;
    }
    ScanMetrics* metrics = found->request.metrics;
    node.description = describe(node, decisions, pushdown);
    std::optional<std::vector<Page>> answer;
    if (decisions.scanned.empty() && decisions.undecided.empty()) {
      // Phase 2: the splits' statistics answer now, with no I/O.
      answer = answerNow(*pushdown.original, decisions);
    }
    if (answer) {
      node.answeredAtPlanning = true;
      auto pages = std::make_shared<std::vector<Page>>(std::move(*answer));
      // Pages delivered; the first call counts the splits (a grouped answer may hold no page).
      auto delivered = std::make_shared<std::optional<size_t>>();
      const uint64_t splits = decisions.answered.size() + decisions.skippedSplits,
                     answered = decisions.answeredUnits, skipped = decisions.skippedUnits;
      node.supplier = [pages, delivered, metrics, splits, answered,
                       skipped]() -> std::optional<Page> {
        if (!delivered->has_value()) {
          *delivered = 0;
          if (metrics != nullptr) {
            metrics->splits += splits;
            metrics->rowGroupsTotal += answered + skipped;
            metrics->rowGroupsAnsweredFromStatistics += answered;
            metrics->rowGroupsPrunedByStatistics += skipped;
          }
        }
        if (**delivered == pages->size()) return std::nullopt;
        return (*pages)[(**delivered)++];
      };
    } else {
      // Mixed: footers of the undecided splits are read when the plan runs;
      // units that cannot answer are scanned and merged with the answer.
      auto mixed =
          std::make_shared<MixedStatisticsSupplier>(std::move(pushdown), std::move(decisions));
      node.supplier = [mixed]() { return mixed->next(); };
    }
    node.kind = PlanKind::kLocalSource;
    node.children.clear();
    return true;
  });
}

}  // namespace quarry::engine
