#include <algorithm>

#include "quarry/engine/optimizer/filter_translation.h"
#include "quarry/engine/optimizer/for_each_node.h"
#include "quarry/engine/optimizer/local_optimizer.h"
#include "quarry/engine/exec/mixed_statistics_supplier.h"
#include "quarry/engine/source/file_stats_supplier.h"
#include "quarry/engine/source/format_reader.h"

namespace quarry::engine {

using parquet::FilterPredicate;

namespace {

/// The WHERE of `aggregate` as an exact predicate over the source's columns
/// (nullopt without a FilterExec below); `why` receives the reason when the
/// WHERE has no exact form or is not the predicate the source was handed.
std::optional<FilterPredicate> exactFilter(const PlanNode& aggregate, std::string& why) {
  const PlanNode& below = *aggregate.input();
  if (below.kind != PlanKind::kFilter) return std::nullopt;
  const PlanNode& source = *below.input();
  std::optional<FilterPredicate> exact = toExactFilterPredicate(*below.predicate, source.schema, source.request.partitionColumns);
  if (!exact || hasNullInList(*below.predicate)) {
    why = "the WHERE is not wholly a source predicate (rows are rechecked)";
    return std::nullopt;
  }
  if (!source.request.filter || source.request.filter->toString() != exact->toString()) {
    why = "the source's predicate is not the WHERE";
    return std::nullopt;
  }
  return exact;
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
  if (!aggregate.groupChannels.empty()) return "the aggregate is grouped";
  if (aggregate.input()->kind != PlanKind::kFilter && source.request.filter) return "the source is filtered";
  if (source.request.limit) return "the source is limited";
  for (const AggregateSpec& spec : aggregate.aggregates) {
    const std::vector<std::string>& partitions = source.request.partitionColumns;
    if (spec.inputChannel >= 0 && static_cast<size_t>(spec.inputChannel) < source.request.columns.size() &&
        std::find(partitions.begin(), partitions.end(), source.request.columns[spec.inputChannel]) !=
            partitions.end()) {
      return std::string(aggregateName(spec.function)) + " of partition column " +
             source.request.columns[spec.inputChannel] + " is in no file's statistics";
    }
    if (!FileStatsSupplier::supports(spec)) {
      return std::string(aggregateName(spec.function)) + " of " + spec.inputType.toString() +
             " is not answered from statistics";
    }
  }
  for (const SplitTask& task : source.splits) {
    if (task.reader == nullptr || task.reader->aggregatePushdownSupport() != AggregatePushdownSupport::kFromStatistics) {
      return "format " + task.split.format + " does not answer aggregates from statistics";
    }
  }
  return "";
}

std::string count(size_t n, const char* what) { return std::to_string(n) + " " + what; }

/// EXPLAIN's account of the decisions made at planning.
std::string describe(const UnitDecisions& d, const std::optional<FilterPredicate>& filter) {
  std::vector<std::string> parts;
  const bool mixed = !d.scanned.empty() || !d.undecided.empty();
  if (!d.answered.empty() || !mixed) parts.push_back("statistics of " + count(d.answered.size(), "splits"));
  if (d.skippedSplits > 0) parts.push_back(count(d.skippedSplits, "splits skipped by statistics"));
  if (!d.undecided.empty()) {
    parts.push_back(std::string("FileStatsSupplier per row group") + (filter ? " and page" : "") +
                    " over " + count(d.undecided.size(), "splits") + ", else a scan");
  }
  if (!d.scanned.empty()) parts.push_back("scan of " + count(d.scanned.size(), "splits"));
  if (mixed) parts.push_back("mixed");
  if (filter) parts.push_back("filter=" + filter->toString());
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
    if (obstacle.empty()) pushdown.filter = exactFilter(node, obstacle);
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
    node.description = describe(decisions, pushdown.filter);
    std::optional<Page> answer;
    if (decisions.scanned.empty() && decisions.undecided.empty()) {
      // Phase 2: the splits' statistics answer now, with no I/O.
      answer = FileStatsSupplier(found->request.columns, node.aggregates, node.mode).answer(decisions.answered);
    }
    if (answer) {
      node.answeredAtPlanning = true;
      auto page = std::make_shared<Page>(std::move(*answer));
      auto delivered = std::make_shared<bool>(false);
      const uint64_t splits = decisions.answered.size() + decisions.skippedSplits, answered = decisions.answeredUnits,
                     skipped = decisions.skippedUnits;
      node.supplier = [page, delivered, metrics, splits, answered, skipped]() -> std::optional<Page> {
        if (*delivered) return std::nullopt;
        *delivered = true;
        if (metrics != nullptr) {
          metrics->splits += splits;
          metrics->rowGroupsTotal += answered + skipped;
          metrics->rowGroupsAnsweredFromStatistics += answered;
          metrics->rowGroupsPrunedByStatistics += skipped;
        }
        return *page;
      };
    } else {
      // Mixed: footers of the undecided splits are read when the plan runs;
      // units that cannot answer are scanned and merged with the answer.
      auto mixed = std::make_shared<MixedStatisticsSupplier>(std::move(pushdown), std::move(decisions));
      node.supplier = [mixed]() { return mixed->next(); };
    }
    node.kind = PlanKind::kLocalSource;
    node.children.clear();
    return true;
  });
}

}  // namespace quarry::engine
