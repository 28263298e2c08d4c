#include "quarry/engine/expr/aggregator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <unordered_set>

#include "quarry/common/error.h"
#include "quarry/engine/data/value_order.h"
#include "quarry/engine/expr/list_aggregator.h"

namespace quarry::engine {

namespace {

std::string int128ToString(Int128 value) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  // Work on the magnitude as unsigned so the most negative value is handled.
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(value) : value;
  std::string digits;
  while (magnitude > 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

Int128 pow10Int128(int exponent) {
  Int128 result = 1;
  for (int i = 0; i < exponent; ++i) result *= 10;
  return result;
}

std::string valueText(int64_t v) {
  return std::to_string(v);
}
std::string valueText(Int128 v) {
  return int128ToString(v);
}

/// Whether an intermediate flag column says true at `r` (null reads as false).
bool flagAt(const Block& block, size_t r) {
  return !block.isNull(r) && block.values<uint8_t>()[r] != 0;
}

Block booleanBlock(const std::vector<uint8_t>& flags) {
  Block out(DataType::boolean());
  out.reserve(flags.size());
  for (uint8_t f : flags) out.append<uint8_t>(f);
  return out;
}

/// The number of non-null positions of `block`.
size_t valueCount(const Block& block) {
  if (block.type().kind == TypeKind::kNull) return 0;
  const std::span<const uint8_t> valid = block.validity();
  if (valid.empty()) return block.size();
  size_t count = 0;
  for (uint8_t v : valid) count += v;
  return count;
}

[[noreturn]] void throwSumOverflow(const char* function, const std::string& name, const std::string& sum,
                                   const std::string& value, const std::string& limit) {
  throw InvalidArgument(std::string("Overflow in ") + function + " (" + name + "): " + sum + " + " + value +
                        " does not fit in " + limit);
}

Block int64Block(const std::vector<int64_t>& values) {
  Block out(DataType::int64());
  out.reserve(values.size());
  for (int64_t v : values) out.append<int64_t>(v);
  return out;
}

// ---- COUNT(*), COUNT(x) ----

class CountAggregator final : public Aggregator {
 public:
  explicit CountAggregator(const AggregateSpec& spec)
      : star_(spec.function == AggregateFunction::kCountStar), channel_(spec.inputChannel) {}

  void resize(size_t groups) override {
    counts_.resize(groups, 0);
    seen_.resize(groups, 0);
  }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    const size_t n = page.positionCount();
    if (counts_.size() == 1) {  // one group: every row's id is 0
      if (n == 0) return;
      seen_[0] = 1;
      counts_[0] += static_cast<int64_t>(star_ ? n : valueCount(page.block(channel_)));
      return;
    }
    if (star_ || !page.block(channel_).hasNulls()) {
      for (size_t r = 0; r < n; ++r) {
        ++counts_[groupIds[r]];
        seen_[groupIds[r]] = 1;
      }
      return;
    }
    const Block& block = page.block(channel_);
    for (size_t r = 0; r < n; ++r) {
      counts_[groupIds[r]] += block.isNull(r) ? 0 : 1;
      seen_[groupIds[r]] = 1;
    }
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& counts = page.block(channel_);
    const Block& seen = page.block(channel_ + 1);
    for (size_t r = 0; r < page.positionCount(); ++r) {
      if (!counts.isNull(r)) counts_[groupIds[r]] += counts.values<int64_t>()[r];
      if (flagAt(seen, r)) seen_[groupIds[r]] = 1;
    }
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    out.push_back(int64Block(counts_));
    out.push_back(booleanBlock(seen_));
  }

  Block writeFinal() const override { return int64Block(counts_); }

 private:
  bool star_;
  int channel_;
  std::vector<int64_t> counts_;
  std::vector<uint8_t> seen_;
};

// ---- MIN, MAX ----

template <typename T, bool kMax>
class MinMaxAggregator final : public Aggregator {
 public:
  explicit MinMaxAggregator(const AggregateSpec& spec)
      : type_(spec.inputType), channel_(spec.inputChannel) {}

  void resize(size_t groups) override {
    values_.resize(groups);
    seen_.resize(groups, 0);
  }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    addValues(page.block(channel_), groupIds);
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    // The value column is null exactly where seen is false.
    addValues(page.block(channel_), groupIds);
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    out.push_back(writeFinal());
    out.push_back(booleanBlock(seen_));
  }

  Block writeFinal() const override {
    Block out(type_);
    out.reserve(values_.size());
    for (size_t g = 0; g < values_.size(); ++g) {
      if (!seen_[g]) {
        out.appendNull();
      } else if constexpr (std::is_same_v<T, std::string>) {
        out.appendBytes(values_[g]);
      } else {
        out.append<T>(values_[g]);
      }
    }
    return out;
  }

 private:
  void addValues(const Block& block, std::span<const uint32_t> groupIds) {
    if (block.type().kind == TypeKind::kNull) return;
    for (size_t r = 0; r < block.size(); ++r) {
      if (block.isNull(r)) continue;
      const uint32_t g = groupIds[r];
      if constexpr (std::is_same_v<T, std::string>) {
        const std::string_view v = block.bytes(r);
        if (!seen_[g] ||
            (kMax ? compareBytes(v, values_[g]) > 0 : compareBytes(v, values_[g]) < 0)) {
          values_[g].assign(v);
        }
      } else {
        const T v = block.values<T>()[r];
        if (!seen_[g] ||
            (kMax ? compareValues(v, values_[g]) > 0 : compareValues(v, values_[g]) < 0)) {
          values_[g] = v;
        }
      }
      seen_[g] = 1;
    }
  }

  DataType type_;
  int channel_;
  std::vector<T> values_;
  std::vector<uint8_t> seen_;
};

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
  std::vector<A> sums_;
  std::vector<uint8_t> seen_;
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
    for (size_t g = 0; g < sums_.size(); ++g) {
      if (counts_[g] == 0) {
        out.appendNull();
      } else if constexpr (std::is_same_v<A, double>) {
        out.append<double>(sums_[g] / static_cast<double>(counts_[g]));
      } else {
        // Exact sum, then one division in long double (as DuckDB's AVG of integers and decimals).
        const long double divisor = static_cast<long double>(counts_[g]) * std::pow(10.0L, scale_);
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
  std::vector<A> sums_;
  std::vector<int64_t> counts_;
};

// ---- COUNT_DISTINCT ----

template <typename T>
void appendRaw(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

uint32_t readUInt32(std::string_view bytes, size_t& offset, const std::string& name) {
  if (bytes.size() - offset < 4) {
    throw CorruptFile("COUNT_DISTINCT (" + name + "): a truncated intermediate value set at byte " +
                      std::to_string(offset) + " of " + std::to_string(bytes.size()));
  }
  uint32_t v;
  std::memcpy(&v, bytes.data() + offset, 4);
  offset += 4;
  return v;
}

class CountDistinctAggregator final : public Aggregator {
 public:
  explicit CountDistinctAggregator(const AggregateSpec& spec) : spec_(spec) {}

  void resize(size_t groups) override {
    sets_.resize(groups);
    seen_.resize(groups, 0);
  }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& block = page.block(spec_.inputChannel);
    std::string key;
    for (size_t r = 0; r < block.size(); ++r) {
      seen_[groupIds[r]] = 1;
      if (block.isNull(r)) continue;
      key.clear();
      canonicalBytes(block, r, key);
      sets_[groupIds[r]].insert(key);
    }
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& values = page.block(spec_.inputChannel);
    const Block& seen = page.block(spec_.inputChannel + 1);
    for (size_t r = 0; r < page.positionCount(); ++r) {
      if (flagAt(seen, r)) seen_[groupIds[r]] = 1;
      if (values.isNull(r)) continue;
      const std::string_view bytes = values.bytes(r);
      size_t offset = 0;
      const uint32_t count = readUInt32(bytes, offset, spec_.name);
      for (uint32_t k = 0; k < count; ++k) {
        const uint32_t length = readUInt32(bytes, offset, spec_.name);
        if (bytes.size() - offset < length) {
          throw CorruptFile("COUNT_DISTINCT (" + spec_.name + "): a value of " +
                            std::to_string(length) +
                            " bytes past the end of its intermediate set at byte " +
                            std::to_string(offset) + " of " + std::to_string(bytes.size()));
        }
        sets_[groupIds[r]].emplace(bytes.substr(offset, length));
        offset += length;
      }
    }
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    Block values(DataType::binary());
    values.reserve(sets_.size());
    std::string buffer;
    for (const auto& set : sets_) {
      std::vector<const std::string*> sorted;
      sorted.reserve(set.size());
      for (const std::string& v : set) sorted.push_back(&v);
      std::sort(sorted.begin(), sorted.end(),
                [](const std::string* a, const std::string* b) { return *a < *b; });
      buffer.clear();
      appendRaw(buffer, static_cast<uint32_t>(sorted.size()));
      for (const std::string* v : sorted) {
        appendRaw(buffer, static_cast<uint32_t>(v->size()));
        buffer.append(*v);
      }
      values.appendBytes(buffer);
    }
    out.push_back(std::move(values));
    out.push_back(booleanBlock(seen_));
  }

  Block writeFinal() const override {
    Block out(DataType::int64());
    out.reserve(sets_.size());
    for (const auto& set : sets_) out.append<int64_t>(static_cast<int64_t>(set.size()));
    return out;
  }

 private:
  static void canonicalBytes(const Block& block, size_t r, std::string& out) {
    if (block.type().isBytes()) {
      out.append(block.bytes(r));
      return;
    }
    if (block.type().kind == TypeKind::kDouble) {
      double v = block.values<double>()[r];
      if (v == 0.0) v = 0.0;                                            // -0.0 counts as +0.0
      if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();  // every NaN is one value
      appendRaw(out, v);
      return;
    }
    withFixedStorage(block.type().kind, [&](auto zero) {
      using T = decltype(zero);
      appendRaw(out, block.values<T>()[r]);
    });
  }

  AggregateSpec spec_;
  std::vector<std::unordered_set<std::string>> sets_;
  std::vector<uint8_t> seen_;
};

template <bool kMax>
std::unique_ptr<Aggregator> makeMinMax(const AggregateSpec& spec) {
  if (spec.inputType.isBytes()) return std::make_unique<MinMaxAggregator<std::string, kMax>>(spec);
  std::unique_ptr<Aggregator> out;
  withFixedStorage(spec.inputType.kind, [&](auto zero) {
    out = std::make_unique<MinMaxAggregator<decltype(zero), kMax>>(spec);
  });
  if (!out) out = std::make_unique<MinMaxAggregator<uint8_t, kMax>>(spec);  // kNull: always null
  return out;
}

std::unique_ptr<Aggregator> makeSum(const AggregateSpec& spec) {
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
  throw std::logic_error("makeSum: unchecked type");
}

std::unique_ptr<Aggregator> makeAvg(const AggregateSpec& spec) {
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
  throw std::logic_error("makeAvg: unchecked type");
}

}  // namespace

const char* aggregateName(AggregateFunction f) {
  switch (f) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount:
      return "COUNT";
    case AggregateFunction::kCountDistinct:
      return "COUNT_DISTINCT";
    case AggregateFunction::kMin:
      return "MIN";
    case AggregateFunction::kMax:
      return "MAX";
    case AggregateFunction::kSum:
      return "SUM";
    case AggregateFunction::kAvg:
      return "AVG";
  }
  return "?";
}

const char* aggregatorModeName(AggregatorMode mode) {
  switch (mode) {
    case AggregatorMode::kSingle:
      return "SINGLE";
    case AggregatorMode::kInitial:
      return "INITIAL";
    case AggregatorMode::kIntermediate:
      return "INTERMEDIATE";
    case AggregatorMode::kFinal:
      return "FINAL";
  }
  return "?";
}

DataType aggregateResultType(AggregateFunction f, const DataType& input) {
  // A list aggregates its elements (list_aggregator.h).
  if (input.isList()) return aggregateResultType(f, input.elementType());
  switch (f) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount:
    case AggregateFunction::kCountDistinct:
      return DataType::int64();
    case AggregateFunction::kMin:
    case AggregateFunction::kMax:
      return input;
    case AggregateFunction::kSum:
      switch (input.kind) {
        case TypeKind::kNull:
        case TypeKind::kInt32:
        case TypeKind::kInt64:
          return DataType::int64();
        case TypeKind::kUInt64:
          return DataType::decimal(38, 0);
        case TypeKind::kDecimal:
          return DataType::decimal(38, input.scale);
        case TypeKind::kDouble:
          return DataType::float64();
        default:
          break;
      }
      break;
    case AggregateFunction::kAvg:
      if (input.kind == TypeKind::kNull || input.isNumeric()) return DataType::float64();
      break;
  }
  throw InvalidArgument(std::string(aggregateName(f)) + " does not accept an argument of type " +
                        input.toString() + "; it takes a number");
}

std::vector<Field> intermediateFields(const AggregateSpec& spec) {
  if (spec.inputType.isList()) {
    AggregateSpec element = spec;
    element.inputType = spec.inputType.elementType();
    return intermediateFields(element);
  }
  const DataType result = aggregateResultType(spec.function, spec.inputType);
  switch (spec.function) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount:
      return {{spec.name + "$count", DataType::int64()},
              {spec.name + "$seen", DataType::boolean()}};
    case AggregateFunction::kMin:
    case AggregateFunction::kMax:
      return {{spec.name + "$value", spec.inputType}, {spec.name + "$seen", DataType::boolean()}};
    case AggregateFunction::kSum:
      return {{spec.name + "$sum", result}, {spec.name + "$seen", DataType::boolean()}};
    case AggregateFunction::kAvg: {
      const DataType sum =
          spec.inputType.kind == TypeKind::kDouble
              ? DataType::float64()
              : DataType::decimal(
                    38, spec.inputType.kind == TypeKind::kDecimal ? spec.inputType.scale : 0);
      return {{spec.name + "$sum", sum}, {spec.name + "$count", DataType::int64()}};
    }
    case AggregateFunction::kCountDistinct:
      return {{spec.name + "$values", DataType::binary()},
              {spec.name + "$seen", DataType::boolean()}};
  }
  throw std::logic_error("intermediateFields: unknown aggregate function");
}

std::unique_ptr<Aggregator> makeAggregator(const AggregateSpec& spec) {
  aggregateResultType(spec.function, spec.inputType);  // rejects unsupported argument types
  if (spec.inputType.isList()) return makeListAggregator(spec);
  switch (spec.function) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount:
      return std::make_unique<CountAggregator>(spec);
    case AggregateFunction::kCountDistinct:
      return std::make_unique<CountDistinctAggregator>(spec);
    case AggregateFunction::kMin:
      return makeMinMax<false>(spec);
    case AggregateFunction::kMax:
      return makeMinMax<true>(spec);
    case AggregateFunction::kSum:
      return makeSum(spec);
    case AggregateFunction::kAvg:
      return makeAvg(spec);
  }
  throw std::logic_error("makeAggregator: unknown aggregate function");
}

}  // namespace quarry::engine
