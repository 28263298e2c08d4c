#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "quarry/common/error.h"
#include "quarry/common/growable_array.h"
#include "quarry/engine/expr/aggregate_families.h"
#include "quarry/engine/expr/aggregator_columns.h"
#include "quarry/engine/expr/decimal_arithmetic.h"

namespace quarry::engine {

namespace {

std::string valueText(int64_t v) {
  return std::to_string(v);
}
std::string valueText(Int128 v) {
  return int128ToString(v);
}

// ---- SUM ----

/// T: the input's storage type; A: the sum's (int64_t, Int128 or double).
template <typename T, typename A>
class SumAggregator final : public Aggregator {
 public:
  explicit SumAggregator(const AggregateSpec& spec)
      : spec_(spec), resultType_(aggregateResultType(spec.function, spec.inputType)) {}

  void resize(size_t groups) override {
    sums_.resize(groups, A{});
    seen_.resize(groups, 0);
  }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& block = page.block(spec_.inputChannel);
    if (block.type().kind == TypeKind::kNull) return;
    const std::span<const T> values = block.values<T>();
    const std::span<const uint8_t> valid = block.validity();  // empty: no nulls
    if (sums_.size() == 1) {  // one group: a running sum in a register
      if (valueCount(block) == 0) return;
      A sum = sums_[0];
      for (size_t r = 0; r < values.size(); ++r) {
        // A null adds zero (its stored value may be anything a producer left there).
        const A v = valid.empty() || valid[r] ? static_cast<A>(values[r]) : A{};
        sum = plus(sum, v);
      }
      sums_[0] = sum;
      seen_[0] = 1;
      return;
    }
    for (size_t r = 0; r < values.size(); ++r) {
      if (!valid.empty() && !valid[r]) continue;
      const uint32_t g = groupIds[r];
      sums_[g] = plus(sums_[g], static_cast<A>(values[r]));
      seen_[g] = 1;
    }
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& sums = page.block(spec_.inputChannel);
    const Block& seen = page.block(spec_.inputChannel + 1);
    for (size_t r = 0; r < page.positionCount(); ++r) {
      if (!flagAt(seen, r) || sums.isNull(r)) continue;
      add(groupIds[r], sums.values<A>()[r]);
    }
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    out.push_back(writeFinal());
    out.push_back(booleanBlock(seen_));
  }

  Block writeFinal() const override {
    Block out(resultType_);
    out.reserve(sums_.size());
    for (size_t g = 0; g < sums_.size(); ++g) {
      if (!seen_[g]) {
        out.appendNull();
        continue;
      }
      if constexpr (std::is_same_v<A, Int128>) {
        static const Int128 kLimit = pow10Int128(38);
        if (sums_[g] >= kLimit || sums_[g] <= -kLimit) {
          throw InvalidArgument(std::string("Overflow in SUM (") + spec_.name + "): the sum " +
                                int128ToString(sums_[g]) + " does not fit in " +
                                resultType_.toString());
        }
      }
      out.append<A>(sums_[g]);
    }
    return out;
  }

 private:
  /// sum + v; an integer sum that overflows A is an InvalidArgument. (A double sum
  /// starts at +0.0 and so never holds -0.0: adding +0.0 for a null changes nothing.)
  A plus(A sum, A v) const {
    if constexpr (std::is_same_v<A, double>) {
      return sum + v;
    } else {
      A result;
      if (__builtin_add_overflow(sum, v, &result)) [[unlikely]]
        throwSumOverflow("SUM", spec_.name, valueText(sum), valueText(v), resultType_.toString());
      return result;
    }
  }

  void add(uint32_t g, A v) {
    sums_[g] = plus(sums_[g], v);
    seen_[g] = 1;
  }

  AggregateSpec spec_;
  DataType resultType_;
  GrowableArray<A> sums_;
  GrowableArray<uint8_t> seen_;
};

// ---- AVG ----

/// T: the input's storage type; A: the sum's (Int128 exact, or double).
template <typename T, typename A>
class AvgAggregator final : public Aggregator {
 public:
  explicit AvgAggregator(const AggregateSpec& spec)
      : spec_(spec), scale_(spec.inputType.kind == TypeKind::kDecimal ? spec.inputType.scale : 0) {}

  void resize(size_t groups) override {
    sums_.resize(groups, A{});
    counts_.resize(groups, 0);
  }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& block = page.block(spec_.inputChannel);
    if (block.type().kind == TypeKind::kNull) return;
    const std::span<const T> values = block.values<T>();
    const std::span<const uint8_t> valid = block.validity();  // empty: no nulls
    if (sums_.size() == 1) {  // one group: a running sum in a register
      const size_t count = valueCount(block);
      if (count == 0) return;
      A sum = sums_[0];
      for (size_t r = 0; r < values.size(); ++r) {
        const A v = valid.empty() || valid[r] ? static_cast<A>(values[r]) : A{};
        sum = plus(sum, v);
      }
      sums_[0] = sum;
      counts_[0] += static_cast<int64_t>(count);
      return;
    }
    for (size_t r = 0; r < values.size(); ++r) {
      if (!valid.empty() && !valid[r]) continue;
      add(groupIds[r], static_cast<A>(values[r]), 1);
    }
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& sums = page.block(spec_.inputChannel);
    const Block& counts = page.block(spec_.inputChannel + 1);
    for (size_t r = 0; r < page.positionCount(); ++r) {
      if (counts.isNull(r) || sums.isNull(r)) continue;
      add(groupIds[r], sums.values<A>()[r], counts.values<int64_t>()[r]);
    }
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    Block sums(std::is_same_v<A, double> ? DataType::float64() : DataType::decimal(38, scale_));
    sums.reserve(sums_.size());
    for (A s : sums_) sums.append<A>(s);
    out.push_back(std::move(sums));
    out.push_back(int64Block(counts_));
  }

  Block writeFinal() const override {
    Block out(DataType::float64());
    out.reserve(sums_.size());
    const long double scaleFactor = std::pow(10.0L, scale_);  // once, not per group
    for (size_t g = 0; g < sums_.size(); ++g) {
      if (counts_[g] == 0) {
        out.appendNull();
      } else if constexpr (std::is_same_v<A, double>) {
        out.append<double>(sums_[g] / static_cast<double>(counts_[g]));
      } else {
        // Exact sum, then one division in long double (as DuckDB's AVG of integers and decimals).
        const long double divisor = static_cast<long double>(counts_[g]) * scaleFactor;
        out.append<double>(static_cast<double>(static_cast<long double>(sums_[g]) / divisor));
      }
    }
    return out;
  }

 private:
  /// sum + v; an exact sum that overflows 128 bits is an InvalidArgument.
  A plus(A sum, A v) const {
    if constexpr (std::is_same_v<A, double>) {
      return sum + v;
    } else {
      A result;
      if (__builtin_add_overflow(sum, v, &result)) [[unlikely]]
        throwSumOverflow("AVG", spec_.name, int128ToString(sum), int128ToString(v), "128 bits");
      return result;
    }
  }

  void add(uint32_t g, A v, int64_t count) {
    sums_[g] = plus(sums_[g], v);
    counts_[g] += count;
  }

  AggregateSpec spec_;
  int scale_;
  GrowableArray<A> sums_;
  GrowableArray<int64_t> counts_;
};

}  // namespace

std::unique_ptr<Aggregator> makeSumAggregator(const AggregateSpec& spec) {
  switch (spec.inputType.kind) {
    case TypeKind::kInt32:
      return std::make_unique<SumAggregator<int32_t, int64_t>>(spec);
    case TypeKind::kInt64:
    case TypeKind::kNull:
      return std::make_unique<SumAggregator<int64_t, int64_t>>(spec);
    case TypeKind::kUInt64:
      return std::make_unique<SumAggregator<uint64_t, Int128>>(spec);
    case TypeKind::kDecimal:
      return std::make_unique<SumAggregator<Int128, Int128>>(spec);
    case TypeKind::kDouble:
      return std::make_unique<SumAggregator<double, double>>(spec);
    default:
      break;
  }
  throw std::logic_error("makeSumAggregator: unchecked type");
}

std::unique_ptr<Aggregator> makeAvgAggregator(const AggregateSpec& spec) {
  switch (spec.inputType.kind) {
    case TypeKind::kInt32:
      return std::make_unique<AvgAggregator<int32_t, Int128>>(spec);
    case TypeKind::kInt64:
    case TypeKind::kNull:
      return std::make_unique<AvgAggregator<int64_t, Int128>>(spec);
    case TypeKind::kUInt64:
      return std::make_unique<AvgAggregator<uint64_t, Int128>>(spec);
    case TypeKind::kDecimal:
      return std::make_unique<AvgAggregator<Int128, Int128>>(spec);
    case TypeKind::kDouble:
      return std::make_unique<AvgAggregator<double, double>>(spec);
    default:
      break;
  }
  throw std::logic_error("makeAvgAggregator: unchecked type");
}

}  // namespace quarry::engine
