#include "quarry/engine/source/statistics_filter.h"

#include <cstdint>
#include <optional>

namespace quarry::engine {

using parquet::FilterPredicate;
using parquet::PredicateLiteral;

namespace {

/// A set of Kleene truth values, one bit each.
using Outcomes = uint8_t;
constexpr Outcomes kTrue = 1, kFalse = 2, kUnknown = 4, kAny = kTrue | kFalse | kUnknown;

/// The literal as the StatisticValue a bound of its column holds; nullopt for
/// literals no StatisticValue carries.
std::optional<StatisticValue> valueOf(const PredicateLiteral& literal) {
  if (const bool* v = std::get_if<bool>(&literal)) return StatisticValue(*v);
  if (const int32_t* v = std::get_if<int32_t>(&literal)) return StatisticValue(int64_t{*v});
  if (const int64_t* v = std::get_if<int64_t>(&literal)) return StatisticValue(*v);
  if (const float* v = std::get_if<float>(&literal)) return StatisticValue(static_cast<double>(*v));
  if (const double* v = std::get_if<double>(&literal)) return StatisticValue(*v);
  if (const std::string* v = std::get_if<std::string>(&literal)) return StatisticValue(*v);
  if (const Date* v = std::get_if<Date>(&literal)) return StatisticValue(*v);
  if (const Instant* v = std::get_if<Instant>(&literal)) return StatisticValue(*v);
  return std::nullopt;
}

/// What is known of one column over the unit.
struct ColumnFacts {
  bool mayBeNull = true;
  bool mayBeNonNull = true;
  /// Exact bounds of the non-null values, when both are known.
  std::optional<StatisticValue> min, max;
};

std::optional<ColumnFacts> factsOf(const SourceStatistics& stats, const std::string& column) {
  const ColumnStatistics* found = stats.find(column);
  if (found == nullptr) return std::nullopt;
  ColumnFacts facts;
  if (found->nullCount) {
    facts.mayBeNull = *found->nullCount > 0;
    facts.mayBeNonNull = *found->nullCount < stats.rowCount;
  }
  if (found->min && found->max) {
    facts.min = found->min;
    facts.max = found->max;
  }
  return facts;
}

/// -1, 0, 1 as a compares to b; nullopt when they are not comparable.
std::optional<int> order(const StatisticValue& a, const StatisticValue& b) {
  std::optional<std::strong_ordering> c = compareStatisticValues(a, b);
  if (!c) return std::nullopt;
  return *c < 0 ? -1 : (*c > 0 ? 1 : 0);
}

/// The outcomes of a comparison `op` over the non-null values in [min, max].
Outcomes compareOutcomes(FilterPredicate::Op op, const StatisticValue& min,
                         const StatisticValue& max, const StatisticValue& literal) {
  const std::optional<int> lo = order(min, literal);
  const std::optional<int> hi = order(max, literal);
  if (!lo || !hi) return kTrue | kFalse;
  const bool single = *lo == 0 && *hi == 0;  // every value equals the literal
  const bool covers = *lo <= 0 && *hi >= 0;  // the literal lies within the bounds
  Outcomes out = 0;
  switch (op) {
    case FilterPredicate::Op::kEq:
      if (covers) out |= kTrue;
      if (!single) out |= kFalse;
      return out;
    case FilterPredicate::Op::kNotEq:
      if (!single) out |= kTrue;
      if (covers) out |= kFalse;
      return out;
    case FilterPredicate::Op::kLt:
      if (*lo < 0) out |= kTrue;
      if (*hi >= 0) out |= kFalse;
      return out;
    case FilterPredicate::Op::kLtEq:
      if (*lo <= 0) out |= kTrue;
      if (*hi > 0) out |= kFalse;
      return out;
    case FilterPredicate::Op::kGt:
      if (*hi > 0) out |= kTrue;
      if (*lo <= 0) out |= kFalse;
      return out;
    case FilterPredicate::Op::kGtEq:
      if (*hi >= 0) out |= kTrue;
      if (*lo < 0) out |= kFalse;
      return out;
    default:
      return kTrue | kFalse;
  }
}

Outcomes outcomesOf(const FilterPredicate& p, const SourceStatistics& stats) {
  using Op = FilterPredicate::Op;
  switch (p.op()) {
    case Op::kAnd:
    case Op::kOr: {
      // Kleene and: true when every child is true, false when one is false,
      // unknown otherwise; or is its dual.
      const bool isAnd = p.op() == Op::kAnd;
      const Outcomes dominant = isAnd ? kFalse : kTrue;
      const Outcomes neutral = isAnd ? kTrue : kFalse;
      bool allMayBeNeutral = true, oneMayBeDominant = false, oneMayBeUnknown = false,
           allMayBeNeutralOrUnknown = true;
      for (const FilterPredicate& child : p.children()) {
        const Outcomes c = outcomesOf(child, stats);
        allMayBeNeutral &= (c & neutral) != 0;
        oneMayBeDominant |= (c & dominant) != 0;
        oneMayBeUnknown |= (c & kUnknown) != 0;
        allMayBeNeutralOrUnknown &= (c & (neutral | kUnknown)) != 0;
      }
      Outcomes out = 0;
      if (allMayBeNeutral) out |= neutral;
      if (oneMayBeDominant) out |= dominant;
      if (oneMayBeUnknown && allMayBeNeutralOrUnknown) out |= kUnknown;
      return out;
    }
    case Op::kNot: {
      const Outcomes c = outcomesOf(p.children().at(0), stats);
      Outcomes out = c & kUnknown;
      if (c & kTrue) out |= kFalse;
      if (c & kFalse) out |= kTrue;
      return out;
    }
    case Op::kIsNull:
    case Op::kIsNotNull: {
      const std::optional<ColumnFacts> facts = factsOf(stats, p.column());
      if (!facts) return kTrue | kFalse;
      Outcomes out = 0;
      if (facts->mayBeNull) out |= p.op() == Op::kIsNull ? kTrue : kFalse;
      if (facts->mayBeNonNull) out |= p.op() == Op::kIsNull ? kFalse : kTrue;
      return out;
    }
    case Op::kEq:
    case Op::kNotEq:
    case Op::kLt:
    case Op::kLtEq:
    case Op::kGt:
    case Op::kGtEq:
    case Op::kIn: {
      const std::optional<ColumnFacts> facts = factsOf(stats, p.column());
      if (!facts) return kAny;
      Outcomes out = facts->mayBeNull ? kUnknown : 0;
      if (!facts->mayBeNonNull) return out;
      if (!facts->min) return out | kTrue | kFalse;
      if (p.op() != Op::kIn) {
        const std::optional<StatisticValue> literal = valueOf(p.literals().at(0));
        return out | (literal ? compareOutcomes(p.op(), *facts->min, *facts->max, *literal)
                              : (kTrue | kFalse));
      }
      // x IN (v1, v2, ...) is x = v1 OR x = v2 OR ... over the non-null values.
      bool mayBeTrue = false, mayBeFalse = true;
      for (const PredicateLiteral& item : p.literals()) {
        const std::optional<StatisticValue> literal = valueOf(item);
        if (!literal) return out | kTrue | kFalse;
        const Outcomes c = compareOutcomes(Op::kEq, *facts->min, *facts->max, *literal);
        mayBeTrue |= (c & kTrue) != 0;
        if ((c & kFalse) == 0) mayBeFalse = false;  // every value equals this one
      }
      if (mayBeTrue) out |= kTrue;
      if (mayBeFalse) out |= kFalse;
      return out;
    }
    default:
      return kAny;
  }
}

}  // namespace

StatisticsDecision decideFromStatistics(const FilterPredicate& filter,
                                        const SourceStatistics& stats) {
  if (stats.rowCount == 0) return StatisticsDecision::kNoRow;
  const Outcomes root = outcomesOf(filter, stats);
  if ((root & kTrue) == 0) return StatisticsDecision::kNoRow;
  if (root == kTrue) return StatisticsDecision::kEveryRow;
  return StatisticsDecision::kSomeRows;
}

}  // namespace quarry::engine
