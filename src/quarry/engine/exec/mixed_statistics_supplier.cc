#include "quarry/engine/exec/mixed_statistics_supplier.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <type_traits>

#include "quarry/common/thread_pool.h"
#include "quarry/engine/exec/aggregate_exec.h"
#include "quarry/engine/exec/executor.h"
#include "quarry/engine/exec/local_source_exec.h"
#include "quarry/engine/expr/evaluator.h"
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

/// The aggregates of a merge over intermediate columns after `keys` group
/// columns: each reads its columns from the first of them.
std::vector<AggregateSpec> mergeSpecs(std::vector<AggregateSpec> aggregates, size_t keys) {
  int channel = static_cast<int>(keys);
  for (AggregateSpec& spec : aggregates) {
    const size_t width = intermediateFields(spec).size();
    spec.inputChannel = channel;
    channel += static_cast<int>(width);
  }
  return aggregates;
}

/// The group columns of `aggregate` (as its input names and types them), then
/// each aggregate's intermediate columns: its INITIAL output.
Schema initialSchema(const PlanNode& aggregate) {
  Schema schema;
  for (int channel : aggregate.groupChannels)
    schema.push_back(aggregate.input()->schema.at(channel));
  for (Field& field : intermediateSchema(aggregate.aggregates)) schema.push_back(std::move(field));
  return schema;
}

/// Whether `unit`'s statistics may answer for its group: each group column of
/// `aggregate` is a partition value of the unit (FileSplit::partition) and not a
/// column of its file, whose values the scan checks against the path's. Always
/// for an ungrouped aggregate.
bool keyedByPartition(const PlanNode& aggregate, const FileSplit& unit) {
  const std::vector<std::string>& columns = chainBottom(aggregate).request.columns;
  for (int channel : aggregate.groupChannels) {
    const std::string& name = columns.at(static_cast<size_t>(channel));
    if (unit.statistics == nullptr || unit.statistics->find(name) != nullptr) return false;
    if (std::none_of(unit.partition.begin(), unit.partition.end(),
                     [&](const PartitionValue& p) { return p.column == name; })) {
      return false;
    }
  }
  return true;
}

/// The group of `split`: its partition values of the group columns, as bytes
/// that differ exactly when the values do (the merge above groups them as the
/// engine does, so -0.0 and 0.0 in two rows still make one group).
std::string groupKey(const std::vector<std::string>& columns, const std::vector<int>& channels,
                     const FileSplit& split) {
  std::string key;
  for (int channel : channels) {
    const std::string& name = columns.at(static_cast<size_t>(channel));
    for (const PartitionValue& p : split.partition) {
      if (p.column != name) continue;
      key.push_back(static_cast<char>(p.value.index()));
      std::visit(
          [&key](const auto& v) {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, std::string>) {
              const uint64_t size = v.size();
              key.append(reinterpret_cast<const char*>(&size), sizeof(size));
              key += v;
            } else if constexpr (!std::is_same_v<V, std::monostate>) {
              key.append(reinterpret_cast<const char*>(&v), sizeof(v));
            }
          },
          p.value);
      break;
    }
  }
  return key;
}

/// Appends `split`'s partition values of the group columns to the first blocks.
void appendKeys(const std::vector<std::string>& columns, const std::vector<int>& channels,
                const FileSplit& split, std::vector<Block>& keys) {
  for (size_t k = 0; k < channels.size(); ++k) {
    const std::string& name = columns.at(static_cast<size_t>(channels[k]));
    for (const PartitionValue& p : split.partition) {
      if (p.column == name) {
        keys[k].appendScalar(p.value);
        break;
      }
    }
  }
}

/// Moves the units of `from` to `scanned`, uncounting them as answered.
void scanInstead(std::vector<SplitTask>& from, UnitDecisions& d) {
  for (SplitTask& task : from) {
    if (task.split.rows.empty()) {
      d.answeredUnits -= unitCount(task.split);
    } else {
      --d.answeredSegments;
    }
    d.scanned.push_back(std::move(task));
  }
  from.clear();
}

/// What `pushdown.byPath` says of every row of `unit`: kEveryRow, kNoRow, or
/// kSomeRows when it cannot be evaluated (left to the scan's FilterExec).
StatisticsDecision decideByPath(const StatisticsPushdown& pushdown, const FileSplit& unit) {
  if (!pushdown.byPath) return StatisticsDecision::kEveryRow;
  // One row of the source's columns: the unit's partition values and path, the others null.
  const PlanNode& source = chainBottom(*pushdown.original);
  std::vector<Block> blocks;
  for (size_t c = 0; c < source.schema.size(); ++c) {
    const std::string& name = source.request.columns.at(c);
    Block block(source.schema[c].type);
    if (name == kFilePathColumn) {
      block.appendBytes(unit.uri);
    } else {
      auto value = std::find_if(unit.partition.begin(), unit.partition.end(),
                                [&](const PartitionValue& p) { return p.column == name; });
      if (value == unit.partition.end()) {
        block.appendNull();
      } else {
        block.appendScalar(value->value);
      }
    }
    blocks.push_back(std::move(block));
  }
  try {
    Warnings failures;
    const Block result = evaluate(*pushdown.byPath, Page(std::move(blocks), 1), failures);
    // A failure (an overflow, a division by zero) is null with a warning: the scan gives both.
    if (!failures.empty()) return StatisticsDecision::kSomeRows;
    if (result.isNull(0) || result.values<uint8_t>()[0] == 0) return StatisticsDecision::kNoRow;
    return StatisticsDecision::kEveryRow;
  } catch (const std::exception&) {
    return StatisticsDecision::kSomeRows;
  }
}

}  // namespace

Page statisticsAnswer(const PlanNode& aggregate, UnitDecisions& d) {
  const std::vector<std::string>& columns = chainBottom(aggregate).request.columns;
  const FileStatsSupplier supplier(columns, aggregate.aggregates, AggregatorMode::kInitial);
  if (aggregate.groupChannels.empty()) {
    if (std::optional<Page> answer = supplier.answer(d.answered)) return std::move(*answer);
    // Each unit answers alone but their bounds do not merge (values of
    // different kinds): scan them too.
    scanInstead(d.answered, d);
    return *supplier.answer(std::span<const SourceStatistics* const>());
  }
  // Grouped by partition columns: the units of one group share its key.
  std::vector<std::string> order;
  std::map<std::string, std::vector<SplitTask>> groups;
  for (SplitTask& task : d.answered) {
    std::string key = groupKey(columns, aggregate.groupChannels, task.split);
    auto [at, added] = groups.try_emplace(key);
    if (added) order.push_back(std::move(key));
    at->second.push_back(std::move(task));
  }
  d.answered.clear();
  const Schema schema = initialSchema(aggregate);
  std::vector<Block> blocks;
  for (const Field& field : schema) blocks.emplace_back(field.type);
  const size_t keys = aggregate.groupChannels.size();
  size_t rows = 0;
  for (const std::string& key : order) {
    std::vector<SplitTask>& group = groups[key];
    std::optional<Page> answer = supplier.answer(group);
    if (!answer) {
      scanInstead(group, d);
      continue;
    }
    int64_t groupRows = 0;
    for (const SplitTask& task : group) groupRows += task.split.statistics->rowCount;
    const FileSplit first = group.front().split;
    for (SplitTask& task : group) d.answered.push_back(std::move(task));
    if (groupRows == 0) continue;  // a group of no row is no group (as a scan finds none)
    appendKeys(columns, aggregate.groupChannels, first, blocks);
    for (size_t c = 0; c < answer->blockCount(); ++c)
      blocks[keys + c].appendFrom(answer->block(c), 0);
    ++rows;
  }
  return Page(std::move(blocks), rows);
}

OperatorPtr mergeStatistics(const PlanNode& aggregate, LocalSupplier partials,
                            std::string description) {
  const AggregatorMode mode = aggregate.mode == AggregatorMode::kSingle
                                  ? AggregatorMode::kFinal
                                  : AggregatorMode::kIntermediate;
  std::vector<int> keys(aggregate.groupChannels.size());
  for (size_t k = 0; k < keys.size(); ++k) keys[k] = static_cast<int>(k);
  return std::make_unique<AggregateExec>(
      std::make_unique<LocalSourceExec>(initialSchema(aggregate), std::move(partials),
                                        std::move(description)),
      mode, std::move(keys), mergeSpecs(aggregate.aggregates, aggregate.groupChannels.size()));
}

UnitOutcome decideUnit(const StatisticsPushdown& pushdown, const FileSplit& unit) {
  switch (decideByPath(pushdown, unit)) {
    case StatisticsDecision::kNoRow:
      return UnitOutcome::kSkipped;
    case StatisticsDecision::kSomeRows:
      return UnitOutcome::kScanned;
    case StatisticsDecision::kEveryRow:
      break;
  }
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
  if (!keyedByPartition(aggregate, unit)) return UnitOutcome::kScanned;
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
  // A unit of a grouped aggregate must say it is keyed by its path alone.
  if (reader != nullptr && keyedByPartition(*pushdown_.original, unit)) {
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

void MixedStatisticsSupplier::decideSplit(const SplitTask& task, UnitDecisions& d) const {
  if (task.split.statistics && task.split.units == 1) {
    // One unit its statistics left partly matched: only its pages may say more.
    decidePages(task.reader, task.split, d);
    return;
  }
  std::vector<FileSplit> units;
  if (task.reader != nullptr) units = task.reader->units(task.split);
  if (units.empty()) {
    d.scanned.push_back(task);
    return;
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

void MixedStatisticsSupplier::start() {
  UnitDecisions d = std::move(decisions_);
  // Splits answered or skipped whole (a split partly scanned is counted by its scan).
  const uint64_t wholeSplits = d.answered.size() + d.skippedSplits;
  // The undecided splits, row group by row group: their footers and page indexes
  // are read `threads` splits at a time (the scan's drivers would otherwise wait
  // for one thread to decode every footer), each split's decisions apart, then
  // taken in the splits' order, as one loop would have made them.
  std::vector<UnitDecisions> parts(d.undecided.size());
  std::optional<ThreadPool> own;
  const size_t threads =
      std::min(static_cast<size_t>(std::max(1, pushdown_.threads)), parts.size());
  const auto decide = [&](size_t i) { decideSplit(d.undecided[i], parts[i]); };
  if (ThreadPool* pool = ThreadPool::forThreads(threads, own)) {
    pool->parallelFor(parts.size(), decide);
  } else {
    for (size_t i = 0; i < parts.size(); ++i) decide(i);
  }
  for (UnitDecisions& part : parts) {
    std::move(part.answered.begin(), part.answered.end(), std::back_inserter(d.answered));
    std::move(part.scanned.begin(), part.scanned.end(), std::back_inserter(d.scanned));
    d.answeredUnits += part.answeredUnits;
    d.skippedUnits += part.skippedUnits;
    d.answeredSegments += part.answeredSegments;
    d.unitsDecidedByPages += part.unitsDecidedByPages;
  }
  const PlanNode& aggregate = *pushdown_.original;
  const PlanNode& source = chainBottom(aggregate);
  // The statistics answer (ungrouped over no unit: count 0, no value seen).
  Page answer = statisticsAnswer(aggregate, d);
  if (ScanMetrics* metrics = source.request.metrics) {
    metrics->splits += wholeSplits;
    metrics->rowGroupsTotal += d.answeredUnits + d.skippedUnits + d.unitsDecidedByPages;
    metrics->rowGroupsAnsweredFromStatistics += d.answeredUnits;
    metrics->rowGroupsPrunedByStatistics += d.skippedUnits;
    metrics->pagesAnsweredFromStatistics += d.answeredSegments;
  }
  // The scan of the rest: the original subtree in INITIAL mode over those units.
  std::shared_ptr<Operator> scan;
  const Schema initial = initialSchema(aggregate);
  if (!d.scanned.empty()) {
    PlanNodePtr partial = aggregate.clone();
    partial->mode = AggregatorMode::kInitial;
    partial->schema = initial;
    chainBottom(*partial).splits = d.scanned;
    if (pushdown_.threads > 1 && d.scanned.size() > 1) {
      PlanNode exchange;
      exchange.kind = PlanKind::kExchange;
      exchange.schema = initial;
      exchange.threads = pushdown_.threads;
      exchange.children.push_back(std::move(partial));
      scan = buildOperators(exchange);
    } else {
      scan = buildOperators(*partial);
    }
  }
  auto page = std::make_shared<std::optional<Page>>(std::move(answer));
  LocalSupplier partials = [page, scan]() -> std::optional<Page> {
    if (page->has_value()) {
      std::optional<Page> first = std::move(*page);
      page->reset();
      if (first->positionCount() > 0) return first;  // a grouped answer may hold no group
    }
    return scan ? scan->next() : std::nullopt;
  };
  merge_ = mergeStatistics(aggregate, std::move(partials), "statistics and scanned row groups");
}

}  // namespace quarry::engine
