#include "quarry/engine/source/file_stats_supplier.h"

#include "quarry/engine/source/format_reader.h"

namespace quarry::engine {

namespace {

/// The column statistics of `column` in `stats`; a column the unit does not
/// have at all (a file without it, under union_by_name) is all null, made in
/// `absent`. The metadata columns (_file.path, _file.size) are in no file's
/// statistics and never null: no null, bounds unknown.
const ColumnStatistics& columnOf(const SourceStatistics& stats, const std::string& column,
                                 ColumnStatistics& absent) {
  if (const ColumnStatistics* found = stats.find(column)) return *found;
  absent = ColumnStatistics{};
  const bool metadata = column == kFilePathColumn || column == kFileSizeColumn;
  absent.nullCount = metadata ? 0 : stats.rowCount;
  return absent;
}

/// Whether `value` is exactly representable in `type`; appends it to `block` when
/// there is one.
bool appendStatistic(const StatisticValue& value, const DataType& type, Block* block) {
  switch (type.kind) {
    case TypeKind::kInt32: {
      const int64_t* v = std::get_if<int64_t>(&value);
      if (v == nullptr || *v < INT32_MIN || *v > INT32_MAX) return false;
      if (block != nullptr) block->append<int32_t>(static_cast<int32_t>(*v));
      return true;
    }
    case TypeKind::kInt64: {
      const int64_t* v = std::get_if<int64_t>(&value);
      if (v == nullptr) return false;
      if (block != nullptr) block->append<int64_t>(*v);
      return true;
    }
    case TypeKind::kUInt64: {
      const int64_t* v = std::get_if<int64_t>(&value);
      if (v == nullptr || *v < 0) return false;
      if (block != nullptr) block->append<uint64_t>(static_cast<uint64_t>(*v));
      return true;
    }
    case TypeKind::kDouble: {
      const double* v = std::get_if<double>(&value);
      if (v == nullptr) return false;
      if (block != nullptr) block->append<double>(*v);
      return true;
    }
    case TypeKind::kBoolean: {
      const bool* v = std::get_if<bool>(&value);
      if (v == nullptr) return false;
      if (block != nullptr) block->append<uint8_t>(*v ? 1 : 0);
      return true;
    }
    case TypeKind::kString:
    case TypeKind::kBinary: {
      const std::string* v = std::get_if<std::string>(&value);
      if (v == nullptr) return false;
      if (block != nullptr) block->appendBytes(*v);
      return true;
    }
    case TypeKind::kDate: {
      const Date* v = std::get_if<Date>(&value);
      if (v == nullptr) return false;
      if (block != nullptr) block->append<int32_t>(v->daysSinceEpoch);
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
      if (block != nullptr) block->append<int64_t>(units);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

FileStatsSupplier::FileStatsSupplier(const std::vector<std::string>& columns,
                                     const std::vector<AggregateSpec>& aggregates, AggregatorMode mode)
    : columns_(columns), aggregates_(aggregates), mode_(mode) {}

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

std::optional<Page> FileStatsSupplier::answer(const std::vector<SplitTask>& splits) const {
  std::vector<const SourceStatistics*> units;
  units.reserve(splits.size());
  for (const SplitTask& task : splits) {
    if (task.split.statistics == nullptr) return std::nullopt;
    units.push_back(task.split.statistics.get());
  }
  return answer(units);
}

std::optional<Page> FileStatsSupplier::answer(std::span<const SourceStatistics* const> units) const {
  return build(units, true);
}

bool FileStatsSupplier::answers(std::span<const SourceStatistics* const> units) const {
  if (units.size() != 1) return build(units, false).has_value();
  // build() over one unit, which has nothing to merge and so nothing to copy: the
  // optimizer asks this of every split.
  const SourceStatistics& stats = *units[0];
  ColumnStatistics absent;
  for (const AggregateSpec& spec : aggregates_) {
    if (spec.function == AggregateFunction::kCountStar) continue;
    const ColumnStatistics& column = columnOf(stats, columns_.at(spec.inputChannel), absent);
    if (spec.function == AggregateFunction::kCount) {
      if (!column.nullCount) return false;
      continue;
    }
    if (column.nullCount && *column.nullCount == stats.rowCount) continue;  // all null
    const std::optional<StatisticValue>& bound =
        spec.function == AggregateFunction::kMin ? column.min : column.max;
    if (!bound || !appendStatistic(*bound, spec.inputType, nullptr)) return false;
  }
  return true;
}

std::optional<Page> FileStatsSupplier::build(std::span<const SourceStatistics* const> units,
                                             bool materialize) const {
  // Merge, per aggregate, what each split says.
  const size_t n = aggregates_.size();
  std::vector<int64_t> counts(n, 0);
  std::vector<ColumnStatistics> merged(n);
  std::vector<int64_t> mergedRows(n, 0);
  bool first = true;
  ColumnStatistics absent;
  for (const SourceStatistics* stats : units) {
    for (size_t a = 0; a < n; ++a) {
      const AggregateSpec& spec = aggregates_[a];
      if (spec.function == AggregateFunction::kCountStar) {
        counts[a] += stats->rowCount;
        continue;
      }
      const ColumnStatistics& column = columnOf(*stats, columns_.at(spec.inputChannel), absent);
      if (spec.function == AggregateFunction::kCount) {
        if (!column.nullCount) return std::nullopt;
        counts[a] += stats->rowCount - *column.nullCount;
        continue;
      }
      // MIN / MAX: an all-null unit contributes nothing; otherwise the bound is needed.
      const bool allNull = column.nullCount && *column.nullCount == stats->rowCount;
      if (!allNull && !(spec.function == AggregateFunction::kMin ? column.min : column.max)) return std::nullopt;
      if (first) {
        merged[a] = column;
      } else {
        mergeColumnInto(merged[a], mergedRows[a], column, stats->rowCount);
      }
      mergedRows[a] += stats->rowCount;
    }
    first = false;
  }
  // Build the one-row page; not materializing, only check that each bound fits its type.
  const bool intermediate = mode_ == AggregatorMode::kInitial;
  std::vector<Block> blocks;
  for (size_t a = 0; a < n; ++a) {
    const AggregateSpec& spec = aggregates_[a];
    if (spec.function == AggregateFunction::kCountStar || spec.function == AggregateFunction::kCount) {
      if (!materialize) continue;
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
    const bool allNull = units.empty() || (column.nullCount && *column.nullCount == mergedRows[a]);
    // Without a bound the column must be all null (mixed kinds make a merged bound unknown).
    if (!allNull && (!bound || !appendStatistic(*bound, spec.inputType, nullptr))) return std::nullopt;
    if (!materialize) continue;
    Block value(spec.inputType);
    if (allNull) {
      value.appendNull();
    } else {
      appendStatistic(*bound, spec.inputType, &value);
    }
    blocks.push_back(std::move(value));
    if (intermediate) {
      Block seen(DataType::boolean());
      seen.append<uint8_t>(allNull ? 0 : 1);
      blocks.push_back(std::move(seen));
    }
  }
  if (!materialize) return Page();
  return Page(std::move(blocks), 1);
}

}  // namespace quarry::engine
