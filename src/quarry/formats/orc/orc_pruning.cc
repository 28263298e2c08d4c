#include "quarry/formats/orc/orc_pruning.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace quarry::orc {
namespace {

using Kind = OrcBoundNode::Kind;
using Domain = OrcBoundNode::Domain;
using Compare = OrcBoundNode::Compare;

constexpr Int128 kNanosPerMilli = 1'000'000;
constexpr Int128 kNanosPerDay = Int128{86'400} * 1'000'000'000;

/// The outcomes the rows of a unit may have.
struct Outcomes {
  bool mayTrue = true;
  bool mayFalse = true;
  bool mayUnknown = true;
};

Outcomes combine(const Outcomes& a, const Outcomes& b, bool isAnd) {
  // Every pair of outcomes a row might have under a and b, combined as Kleene logic.
  Outcomes out{false, false, false};
  const bool as[3] = {a.mayFalse, a.mayTrue, a.mayUnknown};
  const bool bs[3] = {b.mayFalse, b.mayTrue, b.mayUnknown};
  for (int x = 0; x < 3; ++x) {
    for (int y = 0; y < 3; ++y) {
      if (!as[x] || !bs[y]) continue;
      int r;  // 0 false, 1 true, 2 unknown
      if (isAnd) {
        r = (x == 0 || y == 0) ? 0 : (x == 1 && y == 1) ? 1 : 2;
      } else {
        r = (x == 1 || y == 1) ? 1 : (x == 0 && y == 0) ? 0 : 2;
      }
      (r == 0 ? out.mayFalse : r == 1 ? out.mayTrue : out.mayUnknown) = true;
    }
  }
  return out;
}

/// A unit's bounds in a comparison's key domain; absent where not usable.
template <typename Key>
struct Bounds {
  std::optional<Key> min;
  std::optional<Key> max;
  /// Whether min and max are values of the unit (not merely bounds).
  bool exact = true;
};

std::optional<Int128> parseDecimal(const std::string& text, uint32_t scale) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  Int128 value = 0;
  int digits = 0;
  int fraction = -1;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && fraction < 0) {
      fraction = 0;
      continue;
    }
    if (c < '0' || c > '9' || ++digits > 38) return std::nullopt;
    value = value * 10 + (c - '0');
    if (fraction >= 0) ++fraction;
  }
  if (digits == 0) return std::nullopt;
  if (fraction < 0) fraction = 0;
  if (fraction > static_cast<int>(scale)) return std::nullopt;
  for (int k = fraction; k < static_cast<int>(scale); ++k) {
    if (__builtin_mul_overflow(value, Int128{10}, &value)) return std::nullopt;
  }
  return negative ? -value : value;
}

Bounds<Int128> integerBounds(const OrcType& type, const OrcColumnStatistics& s) {
  Bounds<Int128> b;
  switch (type.kind) {
    case TypeKind::kBoolean:
      if (s.trueCount && s.valueCount && *s.trueCount <= *s.valueCount) {
        b.min = *s.trueCount == *s.valueCount ? 1 : 0;
        b.max = *s.trueCount > 0 ? 1 : 0;
      }
      break;
    case TypeKind::kByte:
    case TypeKind::kShort:
    case TypeKind::kInt:
    case TypeKind::kLong:
      if (s.intMinimum) b.min = *s.intMinimum;
      if (s.intMaximum) b.max = *s.intMaximum;
      break;
    case TypeKind::kDate:
      if (s.dateMinimum) b.min = s.dateMinimum->daysSinceEpoch;
      if (s.dateMaximum) b.max = s.dateMaximum->daysSinceEpoch;
      break;
    case TypeKind::kDecimal:
      if (s.decimalMinimum) b.min = parseDecimal(*s.decimalMinimum, type.scale);
      if (s.decimalMaximum) b.max = parseDecimal(*s.decimalMaximum, type.scale);
      break;
    default:
      break;
  }
  return b;
}

/// The bounds of a float column's non-NaN values.
Bounds<Int128> floatBounds(const OrcColumnStatistics& s) {
  Bounds<Int128> b;
  if (!s.doubleMinimum || !s.doubleMaximum || std::isnan(*s.doubleMinimum) ||
      std::isnan(*s.doubleMaximum)) {
    return b;  // a NaN first value: the bounds say nothing
  }
  // -0.0 and +0.0 compare equal under `<`: either may hide behind the other.
  const double lo = *s.doubleMinimum == 0.0 ? -0.0 : *s.doubleMinimum;
  const double hi = *s.doubleMaximum == 0.0 ? 0.0 : *s.doubleMaximum;
  b.min = orcTotalOrderKey(lo);
  b.max = orcTotalOrderKey(hi);
  b.exact = lo == hi;
  return b;
}

Bounds<Int128> timestampBounds(const OrcType& type, const OrcColumnStatistics& s) {
  Bounds<Int128> b;
  Int128 widen = kNanosPerMilli;
  if (type.kind == TypeKind::kTimestamp || !s.timestampIsUtc) widen += kNanosPerDay;
  const auto nanos = [](const Instant& i) {
    return Int128{i.epochSeconds} * 1'000'000'000 + i.nanos;
  };
  if (s.timestampMinimum) b.min = nanos(*s.timestampMinimum) - widen;
  if (s.timestampMaximum) b.max = nanos(*s.timestampMaximum) + widen;
  b.exact = false;
  return b;
}

Bounds<std::string> stringBounds(const OrcType& type, const OrcColumnStatistics& s,
                                 const PruningContext& context) {
  Bounds<std::string> b;
  if (!context.stringBoundsUsable || type.kind == TypeKind::kChar || type.kind == TypeKind::kBinary)
    return b;
  b.min = s.stringMinimum;
  b.max = s.stringMaximum;
  b.exact = !s.stringMinimumIsBound && !s.stringMaximumIsBound;
  return b;
}

/// The outcomes a comparison may have over a unit's non-null values within `b`.
template <typename Key>
void compareOutcomes(const OrcBoundNode& node, const std::vector<Key>& keys, const Bounds<Key>& b,
                     Outcomes& o) {
  const auto below = [&](const Key& k) { return b.min && k < *b.min; };  // k below every value
  const auto above = [&](const Key& k) { return b.max && k > *b.max; };
  const auto atMostMin = [&](const Key& k) { return b.min && k <= *b.min; };
  const auto atLeastMax = [&](const Key& k) { return b.max && k >= *b.max; };
  const bool single = b.exact && b.min && b.max && *b.min == *b.max;
  bool mayT = true, mayF = true;
  switch (node.compare) {
    case Compare::kEq:
    case Compare::kNotEq:
    case Compare::kIn: {
      bool anyInside = false;
      bool allEqualSingle = false;
      for (const Key& k : keys) {
        if (!below(k) && !above(k)) anyInside = true;
        if (single && k == *b.min) allEqualSingle = true;
      }
      const bool eqT = anyInside;
      const bool eqF = !allEqualSingle;
      mayT = node.compare == Compare::kNotEq ? eqF : eqT;
      mayF = node.compare == Compare::kNotEq ? eqT : eqF;
      break;
    }
    case Compare::kLt:  // value < k
      mayT = !atMostMin(keys[0]);
      mayF = !above(keys[0]);
      break;
    case Compare::kLtEq:
      mayT = !below(keys[0]);
      mayF = !atLeastMax(keys[0]);
      break;
    case Compare::kGt:
      mayT = !atLeastMax(keys[0]);
      mayF = !below(keys[0]);
      break;
    case Compare::kGtEq:
      mayT = !above(keys[0]);
      mayF = !atMostMin(keys[0]);
      break;
  }
  o.mayTrue = mayT;
  o.mayFalse = mayF;
}

class Decider {
 public:
  Decider(const std::vector<const OrcColumnStatistics*>& statistics, uint64_t rows,
          const PruningContext& context, const MembershipProbe* probe)
      : statistics_(statistics), rows_(rows), context_(context), probe_(probe) {}

  Outcomes decide(const OrcBoundNode& node) const {
    switch (node.kind) {
      case Kind::kAnd:
      case Kind::kOr: {
        Outcomes out = decide(node.children.front());
        for (size_t i = 1; i < node.children.size(); ++i) {
          out = combine(out, decide(node.children[i]), node.kind == Kind::kAnd);
        }
        return out;
      }
      case Kind::kNot: {
        Outcomes out = decide(node.children.front());
        std::swap(out.mayTrue, out.mayFalse);
        return out;
      }
      default:
        break;
    }
    const OrcColumnStatistics* s = statsOf(node.column->columnId);
    // Rows with a value and rows without, as far as the counts tell.
    bool mayNull = true, mayValue = true;
    if (s != nullptr && s->valueCount) {
      mayNull = *s->valueCount < rows_;
      mayValue = *s->valueCount > 0;
    }
    Outcomes out;
    if (node.kind == Kind::kIsNull || node.kind == Kind::kIsNotNull) {
      out = {mayNull, mayValue, false};
      if (node.kind == Kind::kIsNotNull) std::swap(out.mayTrue, out.mayFalse);
      return out;
    }
    out.mayUnknown = mayNull;
    if (node.kind == Kind::kConstant) {
      out.mayTrue = mayValue && node.constant;
      out.mayFalse = mayValue && !node.constant;
      return out;
    }
    if (s != nullptr) compareFromBounds(node, *s, out);
    if (probe_ != nullptr && node.compare != Compare::kLt && node.compare != Compare::kLtEq &&
        node.compare != Compare::kGt && node.compare != Compare::kGtEq &&
        probe_->provesAbsent(node)) {
      (node.compare == Compare::kNotEq ? out.mayFalse : out.mayTrue) = false;
    }
    if (!mayValue) out.mayTrue = out.mayFalse = false;
    return out;
  }

 private:
  const OrcColumnStatistics* statsOf(uint32_t column) const {
    return column < statistics_.size() ? statistics_[column] : nullptr;
  }

  void compareFromBounds(const OrcBoundNode& node, const OrcColumnStatistics& s,
                         Outcomes& out) const {
    const OrcType& type = *node.column;
    switch (node.domain) {
      case Domain::kBytes:
        compareOutcomes(node, node.byteKeys, stringBounds(type, s, context_), out);
        return;
      case Domain::kFloat: {
        compareOutcomes(node, node.keys, floatBounds(s), out);
        // NaN values leave no trace in the bounds; only a sum that is not NaN
        // proves there is none. A NaN row adds the outcome NaN itself has.
        const bool mayNaN = !s.doubleSum || std::isnan(*s.doubleSum);
        if (mayNaN) {
          Bounds<Int128> nan;
          nan.min = nan.max = orcTotalOrderKey(std::numeric_limits<double>::quiet_NaN());
          Outcomes nanOutcome;
          compareOutcomes(node, node.keys, nan, nanOutcome);
          out.mayTrue = out.mayTrue || nanOutcome.mayTrue;
          out.mayFalse = out.mayFalse || nanOutcome.mayFalse;
        }
        return;
      }
      case Domain::kTimestamp:
        compareOutcomes(node, node.keys, timestampBounds(type, s), out);
        return;
      case Domain::kInteger:
        compareOutcomes(node, node.keys, integerBounds(type, s), out);
        return;
    }
  }

  const std::vector<const OrcColumnStatistics*>& statistics_;
  uint64_t rows_;
  const PruningContext& context_;
  const MembershipProbe* probe_;
};

}  // namespace

UnitDecision decideUnit(const OrcBoundPredicate& predicate,
                        const std::vector<const OrcColumnStatistics*>& statistics, uint64_t rows,
                        const PruningContext& context, const MembershipProbe* probe) {
  if (rows == 0) return UnitDecision::kNone;
  const Outcomes o = Decider(statistics, rows, context, probe).decide(predicate.root());
  if (!o.mayTrue) return UnitDecision::kNone;
  if (!o.mayFalse && !o.mayUnknown) return UnitDecision::kAll;
  return UnitDecision::kSome;
}

}  // namespace quarry::orc
