#include "quarry/engine/source/file_stats_supplier.h"

#include "quarry/engine/source/format_reader.h"

namespace quarry::engine {

namespace {

/// The column statistics of `column` in `stats`; a column the unit does not
/// have at all (a file without it, under union_by_name) is all null.
ColumnStatistics columnOf(const SourceStatistics& stats, const std::string& column) {
  if (const ColumnStatistics* found = stats.find(column)) return *found;
  ColumnStatistics allNull;
  allNull.nullCount = stats.rowCount;
  return allNull;
}

/// Appends `value` to a block of `type`; false when it is not exactly representable.
bool appendStatistic(const StatisticValue& value, const DataType& type, Block& block) {
  switch (type.kind) {
    case TypeKind::kInt32: {
      const int64_t* v = std::get_if<int64_t>(&value);
      if (v == nullptr || *v < INT32_MIN || *v > INT32_MAX) return false;
      block.append<int32_t>(static_cast<int32_t>(*v));
      return true;
    }
    case TypeKind::kInt64: {
      const int64_t* v = std::get_if<int64_t>(&value);
      if (v == nullptr) return false;
      block.append<int64_t>(*v);
      return true;
    }
    case TypeKind::kUInt64: {
      const int64_t* v = std::get_if<int64_t>(&value);
      if (v == nullptr || *v < 0) return false;
      block.append<uint64_t>(static_cast<uint64_t>(*v));
      return true;
    }
    case TypeKind::kDouble: {
      const double* v = std::get_if<double>(&value);
      if (v == nullptr) return false;
      block.append<double>(*v);
      return true;
    }
    case TypeKind::kBoolean: {
      const bool* v = std::get_if<bool>(&value);
      if (v == nullptr) return false;
      block.append<uint8_t>(*v ? 1 : 0);
      return true;
    }
    case TypeKind::kString:
    case TypeKind::kBinary: {
      const std::string* v = std::get_if<std::string>(&value);
      if (v == nullptr) return false;
      block.appendBytes(*v);
      return true;
    }
    case TypeKind::kDate: {
      const Date* v = std::get_if<Date>(&value);
      if (v == nullptr) return false;
      block.append<int32_t>(v->daysSinceEpoch);
      return true;
    }
    case TypeKind::kTimestamp: {
      const Instant* v = std::get_if<Instant>(&value);
      if (v == nullptr || !type.utcAdjusted) return false;
      const int64_t perSecond = unitsPerSecond(type.unit);
      const int64_t nanosPerUnit = 1'000'000'000 / perSecond;
      if (v->nanos % nanosPerUnit != 0) return false;
      int64_t units;
      if (__builtin_mul_overflow(v->epochSeconds, perSecond, &units) ||
          __builtin_add_overflow(units, v->nanos / nanosPerUnit, &units)) {
        return false;
      }
      block.append<int64_t>(units);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

FileStatsSupplier::FileStatsSupplier(std::vector<SplitTask> splits, std::vector<std::string> columns,
                                     std::vector<AggregateSpec> aggregates, AggregatorMode mode)
    : splits_(std::move(splits)), columns_(std::move(columns)), aggregates_(std::move(aggregates)), mode_(mode) {}

bool FileStatsSupplier::supports(const AggregateSpec& spec) {
  // A list leaf's statistics count its elements, not rows: never an answer.
  if (spec.inputType.isList()) return false;
  switch (spec.function) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount:
      return true;
    case AggregateFunction::kMin:
    case AggregateFunction::kMax:
      switch (spec.inputType.kind) {
        case TypeKind::kInt32:
        case TypeKind::kInt64:
        case TypeKind::kUInt64:
        case TypeKind::kDouble:
        case TypeKind::kBoolean:
        case TypeKind::kString:
        case TypeKind::kBinary:
        case TypeKind::kDate:
          return true;
        case TypeKind::kTimestamp:
          return spec.inputType.utcAdjusted;
        default:
          return false;
      }
    default:
      return false;
  }
}

bool FileStatsSupplier::everySplitHasStatistics() const {
  for (const SplitTask& task : splits_) {
    if (!task.split.statistics) return false;
  }
  return true;
}

const SourceStatistics* FileStatsSupplier::statisticsOf(const SplitTask& task, bool readFooters,
                                                        std::optional<SourceStatistics>& read) const {
  if (task.split.statistics) return &*task.split.statistics;
  if (!readFooters || task.reader == nullptr) return nullptr;
  const SourceMetadata metadata = task.reader->metadata(task.split.uri);
  for (const FileSplit& split : metadata.splits) {
    if (split.start == task.split.start && split.length == task.split.length && split.statistics) {
      read = std::move(split.statistics);
      return &*read;
    }
  }
  return nullptr;
}

std::optional<StatisticsAnswer> FileStatsSupplier::answer(bool readFooters) const {
  // Merge, per aggregate, what each split says.
  const size_t n = aggregates_.size();
  std::vector<int64_t> counts(n, 0);
  std::vector<ColumnStatistics> merged(n);
  std::vector<int64_t> mergedRows(n, 0);
  bool first = true;
  for (const SplitTask& task : splits_) {
    std::optional<SourceStatistics> read;
    const SourceStatistics* stats = statisticsOf(task, readFooters, read);
    if (stats == nullptr) return std::nullopt;
    for (size_t a = 0; a < n; ++a) {
      const AggregateSpec& spec = aggregates_[a];
      if (spec.function == AggregateFunction::kCountStar) {
        counts[a] += stats->rowCount;
        continue;
      }
      const ColumnStatistics column = columnOf(*stats, columns_.at(spec.inputChannel));
      if (spec.function == AggregateFunction::kCount) {
        if (!column.nullCount) return std::nullopt;
        counts[a] += stats->rowCount - *column.nullCount;
        continue;
      }
      // MIN / MAX: an all-null unit contributes nothing; otherwise the bound is needed.
      const bool allNull = column.nullCount && *column.nullCount == stats->rowCount;
      if (!allNull && !(spec.function == AggregateFunction::kMin ? column.min : column.max)) return std::nullopt;
      merged[a] = first ? column : mergeColumn(merged[a], mergedRows[a], column, stats->rowCount);
      mergedRows[a] += stats->rowCount;
    }
    first = false;
  }
  // Build the one-row page.
  std::vector<Block> blocks;
  for (size_t a = 0; a < n; ++a) {
    const AggregateSpec& spec = aggregates_[a];
    const bool intermediate = mode_ == AggregatorMode::kInitial;
    if (spec.function == AggregateFunction::kCountStar || spec.function == AggregateFunction::kCount) {
      Block count(DataType::int64());
      count.append<int64_t>(counts[a]);
      blocks.push_back(std::move(count));
      if (intermediate) {
        Block seen(DataType::boolean());
        seen.append<uint8_t>(1);
        blocks.push_back(std::move(seen));
      }
      continue;
    }
    const ColumnStatistics& column = merged[a];
    const std::optional<StatisticValue>& bound = spec.function == AggregateFunction::kMin ? column.min : column.max;
    const bool allNull = splits_.empty() || (column.nullCount && *column.nullCount == mergedRows[a]);
    Block value(spec.inputType);
    if (allNull || !bound) {
      if (!allNull) return std::nullopt;  // mixed kinds made the merged bound unknown
      value.appendNull();
    } else if (!appendStatistic(*bound, spec.inputType, value)) {
      return std::nullopt;
    }
    const bool seen = !value.isNull(0);
    blocks.push_back(std::move(value));
    if (intermediate) {
      Block seenBlock(DataType::boolean());
      seenBlock.append<uint8_t>(seen ? 1 : 0);
      blocks.push_back(std::move(seenBlock));
    }
  }
  StatisticsAnswer out;
  out.page = Page(std::move(blocks), 1);
  out.splits = splits_.size();
  return out;
}

}  // namespace quarry::engine
