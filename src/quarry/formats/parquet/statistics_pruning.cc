#include "quarry/formats/parquet/statistics_pruning.h"

#include "quarry/formats/parquet/row_filter.h"

namespace quarry::parquet {
namespace {

using Kind = BoundNode::Kind;
using Compare = BoundNode::Compare;

/// The truth values some row of the unit may take (an over-approximation).
struct Possible {
  bool isTrue = false;
  bool isFalse = false;
  bool isUnknown = false;
};

Possible anything() { return {true, true, true}; }

/// The null count, where it is recorded and consistent with the row count.
std::optional<int64_t> nullsOf(const UnitStatistics& s, int64_t rows) {
  if (!s.nullCount || *s.nullCount < 0 || *s.nullCount > rows) return std::nullopt;
  return s.nullCount;
}

/// Orders a bound against literal key k: absent for a missing bound.
std::optional<int> against(const BoundNode& node, const std::optional<ColumnKey>& bound, size_t k) {
  if (!bound) return std::nullopt;
  return compareToLiteral(node, *bound, k);
}

/// Whether a value in [min, max] may satisfy / may fail `node` (a missing bound is unbounded).
std::pair<bool, bool> rangeMay(const BoundNode& node, const KeyBounds& b) {
  auto lo = [&](size_t k) { return against(node, b.min, k); };  // min vs key
  auto hi = [&](size_t k) { return against(node, b.max, k); };  // max vs key
  auto is = [](std::optional<int> c, auto pred) { return c.has_value() && pred(*c); };
  auto pos = [](int c) { return c > 0; };
  auto neg = [](int c) { return c < 0; };
  auto zero = [](int c) { return c == 0; };
  auto nonNeg = [](int c) { return c >= 0; };
  auto nonPos = [](int c) { return c <= 0; };
  auto pinned = [&](size_t k) { return is(lo(k), zero) && is(hi(k), zero); };  // min == max == key
  switch (node.compare) {
    case Compare::kEq: return {!is(lo(0), pos) && !is(hi(0), neg), !pinned(0)};
    case Compare::kNotEq: return {!pinned(0), !is(lo(0), pos) && !is(hi(0), neg)};
    case Compare::kLt: return {!is(lo(0), nonNeg), !is(hi(0), neg)};
    case Compare::kLtEq: return {!is(lo(0), pos), !is(hi(0), nonPos)};
    case Compare::kGt: return {!is(hi(0), nonPos), !is(lo(0), pos)};
    case Compare::kGtEq: return {!is(hi(0), neg), !is(lo(0), nonNeg)};
    case Compare::kIn: break;
  }
  const size_t keys = node.signedKeys.size() + node.unsignedKeys.size() + node.nanoKeys.size() +
                      node.byteKeys.size();
  bool mayTrue = false;
  bool mayFalse = true;
  for (size_t k = 0; k < keys; ++k) {
    mayTrue = mayTrue || (!is(lo(k), pos) && !is(hi(k), neg));
    if (pinned(k)) mayFalse = false;
  }
  return {mayTrue, mayFalse};
}

class UnitDecider {
 public:
  UnitDecider(int64_t rows, const UnitStatisticsLookup& lookup, const MembershipLookup& excluded)
      : rows_(rows), lookup_(lookup), excluded_(excluded) {}

  Possible evaluate(const BoundNode& node) const {
    if (rows_ <= 0) return {};  // no row takes any value
    switch (node.kind) {
      case Kind::kAnd:
      case Kind::kOr: return combine(node);
      case Kind::kNot: {
        Possible c = evaluate(node.children.at(0));
        std::swap(c.isTrue, c.isFalse);
        return c;
      }
      case Kind::kIntersects: {
        // Row filtering keeps or drops the whole unit by the same overlap test.
        const bool overlap = boundingBoxOverlaps(node, lookup_(*node.node).geospatial);
        return {overlap, !overlap, false};
      }
      case Kind::kIsNull:
      case Kind::kIsNotNull: return nullTest(node);
      case Kind::kConstant: {
        const auto nulls = nullsOf(lookup_(*node.node), rows_);
        const bool mayValue = !(nulls && *nulls == rows_);
        return {mayValue && node.constant, mayValue && !node.constant, !(nulls && *nulls == 0)};
      }
      case Kind::kCompare: return comparison(node);
    }
    return anything();
  }

 private:
  Possible combine(const BoundNode& node) const {
    const bool isAnd = node.kind == Kind::kAnd;
    // The identity of and (every row true) / or (every row false).
    Possible acc{isAnd, !isAnd, false};
    for (const auto& child : node.children) {
      const Possible c = evaluate(child);
      Possible next;
      if (isAnd) {
        next.isTrue = acc.isTrue && c.isTrue;
        next.isFalse = acc.isFalse || c.isFalse;
        next.isUnknown = (acc.isUnknown && (c.isTrue || c.isUnknown)) || (c.isUnknown && (acc.isTrue || acc.isUnknown));
      } else {
        next.isTrue = acc.isTrue || c.isTrue;
        next.isFalse = acc.isFalse && c.isFalse;
        next.isUnknown = (acc.isUnknown && (c.isFalse || c.isUnknown)) || (c.isUnknown && (acc.isFalse || acc.isUnknown));
      }
      acc = next;
    }
    return acc;
  }

  Possible nullTest(const BoundNode& node) const {
    // A group's nullness shows in its first leaf's null count only where no
    // repeated node lies between them (a null leaf then means a null leaf or a
    // null ancestor, and a leaf without nulls a group present in every row).
    const SchemaNode* leaf = node.node;
    while (!leaf->isLeaf()) {
      if (leaf->children.empty()) return anything();
      leaf = leaf->children.front().get();
      if (leaf->repetition == FieldRepetitionType::REPEATED) return anything();
    }
    const auto nulls = nullsOf(lookup_(*leaf), rows_);
    const bool mayNull = !(nulls && *nulls == 0);
    // A leaf with only nulls proves its group null only when the group is the leaf.
    const bool mayPresent = !(nulls && *nulls == rows_) || leaf != node.node;
    return node.kind == Kind::kIsNull ? Possible{mayNull, mayPresent, false}
                                      : Possible{mayPresent, mayNull, false};
  }

  Possible comparison(const BoundNode& node) const {
    const UnitStatistics stats = lookup_(*node.node);
    const auto nulls = nullsOf(stats, rows_);
    const bool mayNull = !(nulls && *nulls == 0);
    const bool mayValue = !(nulls && *nulls == rows_);
    bool mayNaN = false;
    bool mayNumber = mayValue;  // a non-NaN value
    if (isFloatingPoint(node.reader)) {
      const auto nans = stats.nanCount;
      mayNaN = mayValue && !(nans && *nans == 0);
      // nan_count and null count together equal to the row count: NaN and nulls only.
      if (nans && nulls && *nans + *nulls == rows_) mayNumber = false;
    }
    Possible out{false, false, mayNull};
    if (mayNumber) {
      const auto [mayTrue, mayFalse] = rangeMay(node, decodeBounds(node, stats));
      out.isTrue = mayTrue;
      out.isFalse = mayFalse;
    }
    if (mayNaN) {
      const bool nanMatches = satisfies(node, ColumnKey{kNaNKey});
      out.isTrue = out.isTrue || nanMatches;
      out.isFalse = out.isFalse || !nanMatches;
    }
    if (excluded_ && (node.compare == Compare::kEq || node.compare == Compare::kIn) &&
        excluded_(node)) {
      // No stored value equals a literal: no row is true. (isFalse stays as the
      // statistics left it, so that excluding a leaf only ever narrows the answer.)
      out.isTrue = false;
    }
    return out;
  }

  int64_t rows_;
  const UnitStatisticsLookup& lookup_;
  const MembershipLookup& excluded_;
};

}  // namespace

std::string toString(PruningDecision decision) {
  switch (decision) {
    case PruningDecision::kNoRowMatches: return "kNoRowMatches";
    case PruningDecision::kSomeMayMatch: return "kSomeMayMatch";
    case PruningDecision::kEveryRowMatches: return "kEveryRowMatches";
  }
  return "?";
}

PruningDecision decideUnit(const BoundPredicate& predicate, int64_t rowCount,
                           const UnitStatisticsLookup& statisticsOf,
                           const MembershipLookup& excluded) {
  const Possible p = UnitDecider(rowCount, statisticsOf, excluded).evaluate(predicate.root());
  if (!p.isTrue) return PruningDecision::kNoRowMatches;
  if (!p.isFalse && !p.isUnknown) return PruningDecision::kEveryRowMatches;
  return PruningDecision::kSomeMayMatch;
}

PruningDecision decideRowGroup(const BoundPredicate& predicate, const FileMetaData& metadata,
                               size_t rowGroup, const MembershipLookup& excluded) {
  const RowGroup& group = metadata.row_groups.at(rowGroup);
  return decideUnit(predicate, group.num_rows, [&](const SchemaNode& leaf) {
    const auto index = static_cast<size_t>(leaf.leafIndex);
    if (leaf.leafIndex < 0 || index >= group.columns.size()) {
      UnitStatistics none;
      none.rowCount = group.num_rows;
      return none;
    }
    return chunkStatistics(metadata, group.columns[index], leaf, group.num_rows);
  }, excluded);
}

}  // namespace quarry::parquet
