#include "quarry/engine/exec/mixed_statistics_supplier.h"

#include <algorithm>
#include <memory>

#include "quarry/engine/exec/aggregate_exec.h"
#include "quarry/engine/exec/executor.h"
#include "quarry/engine/exec/local_source_exec.h"
#include "quarry/engine/source/file_stats_supplier.h"
#include "quarry/engine/source/statistics_filter.h"

namespace quarry::engine {

namespace {

uint64_t unitCount(const FileSplit& split) {
  return split.units == 0 ? 1 : split.units;
}

/// The intermediate columns of the aggregates, in order.
Schema intermediateSchema(const std::vector<AggregateSpec>& aggregates) {
  Schema schema;
  for (const AggregateSpec& spec : aggregates) {
    for (Field& field : intermediateFields(spec)) schema.push_back(std::move(field));
  }
  return schema;
}

/// The aggregates of a merge over intermediate columns: each reads its columns
/// from the first of them.
std::vector<AggregateSpec> mergeSpecs(std::vector<AggregateSpec> aggregates) {
  int channel = 0;
  for (AggregateSpec& spec : aggregates) {
    const size_t width = intermediateFields(spec).size();
    spec.inputChannel = channel;
    channel += static_cast<int>(width);
  }
  return aggregates;
}

}  // namespace

UnitOutcome decideUnit(const StatisticsPushdown& pushdown, const FileSplit& unit) {
  // A filter its statistics (if any) leave undecided may still be decided page by page.
  const bool narrowed = !unit.rows.empty();
  if (!unit.statistics)
    return pushdown.filter && !narrowed ? UnitOutcome::kPartly : UnitOutcome::kScanned;
  if (pushdown.filter) {
    switch (decideFromStatistics(*pushdown.filter, *unit.statistics)) {
      case StatisticsDecision::kNoRow:
        return UnitOutcome::kSkipped;
      case StatisticsDecision::kSomeRows:
        return narrowed ? UnitOutcome::kScanned : UnitOutcome::kPartly;
      case StatisticsDecision::kEveryRow:
        break;
    }
  }
  const PlanNode& aggregate = *pushdown.original;
  const SourceStatistics* alone = unit.statistics.get();
  const FileStatsSupplier supplier(chainBottom(aggregate).request.columns, aggregate.aggregates,
                                   AggregatorMode::kInitial);
  return supplier.answers(std::span(&alone, 1)) ? UnitOutcome::kAnswered : UnitOutcome::kScanned;
}

UnitDecisions decideSplits(StatisticsPushdown& pushdown) {
  UnitDecisions out;
  std::vector<SplitTask> splits = std::move(chainBottom(*pushdown.original).splits);
  chainBottom(*pushdown.original).splits.clear();
  std::vector<UnitOutcome> outcomes;
  outcomes.reserve(splits.size());
  for (const SplitTask& task : splits) outcomes.push_back(decideUnit(pushdown, task.split));
  const auto answered = [](UnitOutcome o) { return o == UnitOutcome::kAnswered; };
  // Every split answered (COUNT/MIN/MAX over files with statistics): the vector
  // itself moves, not each split.
  if (std::all_of(outcomes.begin(), outcomes.end(), answered)) {
    for (const SplitTask& task : splits) out.answeredUnits += unitCount(task.split);
    out.answered = std::move(splits);
    return out;
  }
  out.answered.reserve(splits.size());
  for (size_t i = 0; i < splits.size(); ++i) {
    SplitTask& task = splits[i];
    switch (outcomes[i]) {
      case UnitOutcome::kSkipped:
        ++out.skippedSplits;
        out.skippedUnits += unitCount(task.split);
        break;
      case UnitOutcome::kAnswered:
        out.answeredUnits += unitCount(task.split);
        out.answered.push_back(std::move(task));
        break;
      case UnitOutcome::kScanned:
        // A single unit with statistics gains nothing from a footer read.
        if (task.split.statistics && task.split.units == 1) {
          out.scanned.push_back(std::move(task));
        } else {
          out.undecided.push_back(std::move(task));
        }
        break;
      case UnitOutcome::kPartly:
        out.undecided.push_back(std::move(task));
        break;
    }
  }
  return out;
}

MixedStatisticsSupplier::MixedStatisticsSupplier(StatisticsPushdown pushdown,
                                                 UnitDecisions decisions)
    : pushdown_(std::move(pushdown)), decisions_(std::move(decisions)) {}

std::optional<Page> MixedStatisticsSupplier::next() {
  if (!started_) {
    started_ = true;
    start();
  }
  return merge_->next();
}

void MixedStatisticsSupplier::decidePages(const FormatReader* reader, FileSplit unit,
                                          UnitDecisions& d) const {
  std::vector<UnitSegment> segments;
  if (reader != nullptr) {
    const ReadRequest& request = chainBottom(*pushdown_.original).request;
    segments = reader->segments(unit, *pushdown_.filter, request.columns, request.metrics);
  }
  if (segments.empty()) {
    d.scanned.push_back({reader, std::move(unit)});
    return;
  }
  const PlanNode& aggregate = *pushdown_.original;
  const FileStatsSupplier supplier(chainBottom(aggregate).request.columns, aggregate.aggregates,
                                   AggregatorMode::kInitial);
  std::vector<RowSpan> scanned;
  std::vector<SplitTask> answered;
  for (UnitSegment& segment : segments) {
    if (segment.decision == StatisticsDecision::kNoRow) continue;
    const SourceStatistics* stats = segment.split.statistics.get();
    if (segment.decision == StatisticsDecision::kEveryRow && stats != nullptr &&
        supplier.answers(std::span(&stats, 1))) {
      answered.push_back({reader, std::move(segment.split)});
      continue;
    }
    const RowSpan span = segment.split.rows.front();
    if (!scanned.empty() && scanned.back().end == span.first) {
      scanned.back().end = span.end;
    } else {
      scanned.push_back(span);
    }
  }
  const bool wholeScan = scanned.size() == 1 && answered.empty() &&
                         scanned.front().first == segments.front().split.rows.front().first &&
                         scanned.front().end == segments.back().split.rows.front().end;
  if (wholeScan) {  // no page decided apart from the others
    d.scanned.push_back({reader, std::move(unit)});
    return;
  }
  d.answeredSegments += answered.size();
  for (SplitTask& task : answered) d.answered.push_back(std::move(task));
  if (scanned.empty()) {
    ++d.unitsDecidedByPages;  // no scan counts it
    return;
  }
  unit.rows = std::move(scanned);
  unit.statistics = nullptr;
  d.scanned.push_back({reader, std::move(unit)});
}

void MixedStatisticsSupplier::start() {
  UnitDecisions d = std::move(decisions_);
  // Splits answered or skipped whole (a split partly scanned is counted by its scan).
  const uint64_t wholeSplits = d.answered.size() + d.skippedSplits;
  // The undecided splits, row group by row group.
  for (const SplitTask& task : d.undecided) {
    if (task.split.statistics && task.split.units == 1) {
      // One unit its statistics left partly matched: only its pages may say more.
      decidePages(task.reader, task.split, d);
      continue;
    }
    std::vector<FileSplit> units;
    if (task.reader != nullptr) units = task.reader->units(task.split);
    if (units.empty()) {
      d.scanned.push_back(task);
      continue;
    }
    for (FileSplit& unit : units) {
      switch (decideUnit(pushdown_, unit)) {
        case UnitOutcome::kSkipped:
          d.skippedUnits += unitCount(unit);
          break;
        case UnitOutcome::kAnswered:
          d.answeredUnits += unitCount(unit);
          d.answered.push_back({task.reader, std::move(unit)});
          break;
        case UnitOutcome::kScanned:
          d.scanned.push_back({task.reader, std::move(unit)});
          break;
        case UnitOutcome::kPartly:
          decidePages(task.reader, std::move(unit), d);
          break;
      }
    }
  }
  const PlanNode& aggregate = *pushdown_.original;
  const PlanNode& source = chainBottom(aggregate);
  // The statistics answer (over no unit: count 0, no value seen).
  const FileStatsSupplier supplier(source.request.columns, aggregate.aggregates, AggregatorMode::kInitial);
  std::optional<Page> answer = supplier.answer(d.answered);
  if (!answer) {
    // Each unit answers alone but their bounds do not merge (values of
    // different kinds): scan them too.
    for (SplitTask& task : d.answered) d.scanned.push_back(std::move(task));
    d.answered.clear();
    d.answeredUnits = 0;
    d.answeredSegments = 0;
    answer = supplier.answer(std::span<const SourceStatistics* const>());
  }
  if (ScanMetrics* metrics = source.request.metrics) {
    metrics->splits += wholeSplits;
    metrics->rowGroupsTotal += d.answeredUnits + d.skippedUnits + d.unitsDecidedByPages;
    metrics->rowGroupsAnsweredFromStatistics += d.answeredUnits;
    metrics->rowGroupsPrunedByStatistics += d.skippedUnits;
    metrics->pagesAnsweredFromStatistics += d.answeredSegments;
  }
  // The scan of the rest: the original subtree in INITIAL mode over those units.
  std::shared_ptr<Operator> scan;
  const Schema intermediate = intermediateSchema(aggregate.aggregates);
  if (!d.scanned.empty()) {
    PlanNodePtr partial = aggregate.clone();
    partial->mode = AggregatorMode::kInitial;
    partial->schema = intermediate;
    chainBottom(*partial).splits = d.scanned;
    if (pushdown_.threads > 1 && d.scanned.size() > 1) {
      PlanNode exchange;
      exchange.kind = PlanKind::kExchange;
      exchange.schema = intermediate;
      exchange.threads = pushdown_.threads;
      exchange.children.push_back(std::move(partial));
      scan = buildOperators(exchange);
    } else {
      scan = buildOperators(*partial);
    }
  }
  auto page = std::make_shared<std::optional<Page>>(std::move(*answer));
  LocalSupplier partials = [page, scan]() -> std::optional<Page> {
    if (page->has_value()) {
      std::optional<Page> first = std::move(*page);
      page->reset();
      return first;
    }
    return scan ? scan->next() : std::nullopt;
  };
  const AggregatorMode mergeMode = aggregate.mode == AggregatorMode::kSingle
                                       ? AggregatorMode::kFinal
                                       : AggregatorMode::kIntermediate;
  merge_ = std::make_unique<AggregateExec>(
      std::make_unique<LocalSourceExec>(intermediate, std::move(partials),
                                        "statistics and scanned row groups"),
      mergeMode, std::vector<int>{}, mergeSpecs(aggregate.aggregates));
}

}  // namespace quarry::engine
