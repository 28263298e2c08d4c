// VALUES(x): the distinct non-null values of a group; TOP(x, n, order): its n
// first non-null values in ascending ("asc") or descending ("desc") order,
// duplicates kept (ES|QL: "includes repeated values"). Both are lists of x's type,
// in the engine's value order (value_order.h: NaN greatest, -0.0 and +0.0 equal),
// ascending for VALUES (ES|QL leaves its order unspecified; sorted, it is the same
// on every run and every plan), and null for a group without a value.
//
// Each group keeps its values in a vector that is compacted when it has doubled
// since the last compaction: VALUES sorts it and drops repeats, TOP keeps only its
// n first values. So VALUES holds at most about twice its distinct values and TOP
// about 2n + 16 per group, whatever the number of rows. What is held is charged
// against the query's memory limit (memory_budget.h) before it is kept.
//
// Example: VALUES of 3, 1, null, 3 is [1, 3]; TOP(x, 2, "desc") of 3, 1, null, 3
// is [3, 3]; TOP(x, 5, "asc") is [1, 3, 3].

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "quarry/common/memory_budget.h"
#include "quarry/engine/data/value_order.h"
#include "quarry/engine/expr/aggregate_families.h"
#include "quarry/engine/expr/aggregator_columns.h"

namespace quarry::engine {

namespace {

/// Compacting TOP's vectors below this size is not worth it.
constexpr size_t kMinCompaction = 16;

template <typename T>
int compareValue(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, std::string>) {
    return compareBytes(a, b);
  } else {
    return compareValues(a, b);
  }
}

/// The bytes a kept value takes.
template <typename T>
uint64_t heldBytes(const T& value) {
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::string_view>) {
    return sizeof(std::string) + value.size();
  } else {
    return sizeof(T);
  }
}

/// T: the storage type of x, std::string for bytes kinds.
template <typename T>
class ValuesAggregator final : public Aggregator {
 public:
  explicit ValuesAggregator(const AggregateSpec& spec)
      : spec_(spec),
        top_(spec.function == AggregateFunction::kTop),
        what_("the values of " + std::string(aggregateName(spec.function)) + " (" + spec.name +
              ")") {}

  void resize(size_t groups) override {
    values_.resize(groups);
    compacted_.resize(groups, 0);
  }

  void addInput(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& block = page.block(spec_.inputChannel);
    if (block.type().kind == TypeKind::kNull) return;
    uint64_t bytes = 0;
    for (size_t r = 0; r < block.size(); ++r) {
      if (block.isNull(r)) continue;
      if constexpr (std::is_same_v<T, std::string>) {
        bytes += heldBytes(block.bytes(r));
      } else {
        bytes += sizeof(T);
      }
    }
    charge(bytes);
    for (size_t r = 0; r < block.size(); ++r) {
      if (block.isNull(r)) continue;
      if constexpr (std::is_same_v<T, std::string>) {
        add(groupIds[r], std::string(block.bytes(r)));
      } else {
        add(groupIds[r], block.values<T>()[r]);
      }
    }
  }

  void addIntermediate(const Page& page, std::span<const uint32_t> groupIds) override {
    const Block& sets = page.block(spec_.inputChannel);
    for (size_t r = 0; r < page.positionCount(); ++r) {
      if (sets.isNull(r)) continue;
      const std::string_view bytes = sets.bytes(r);
      size_t offset = 0;
      const uint32_t count = readUInt32(bytes, offset);
      incoming_.clear();
      uint64_t held = 0;
      for (uint32_t k = 0; k < count; ++k) {
        if constexpr (std::is_same_v<T, std::string>) {
          const uint32_t length = readUInt32(bytes, offset);
          need(bytes, offset, length);
          incoming_.push_back(bytes.substr(offset, length));
          held += heldBytes(incoming_.back());
          offset += length;
        } else {
          need(bytes, offset, sizeof(T));
          T value;
          std::memcpy(&value, bytes.data() + offset, sizeof(T));
          incoming_.push_back(value);
          held += sizeof(T);
          offset += sizeof(T);
        }
      }
      if (offset != bytes.size()) {
        throwCorruptValueSet(aggregateName(spec_.function), spec_.name,
                             "bytes after the last value", offset, bytes.size());
      }
      charge(held);
      for (const auto& value : incoming_) add(groupIds[r], T(value));
    }
  }

  void writeIntermediate(std::vector<Block>& out) const override {
    Block sets(DataType::binary());
    sets.reserve(values_.size());
    std::vector<uint8_t> seen(values_.size());
    std::string buffer;
    for (size_t g = 0; g < values_.size(); ++g) {
      compact(g);
      const std::vector<T>& group = values_[g];
      seen[g] = !group.empty();
      if (group.empty()) {
        sets.appendNull();
        continue;
      }
      buffer.clear();
      appendRaw(buffer, static_cast<uint32_t>(group.size()));
      for (const T& value : group) {
        if constexpr (std::is_same_v<T, std::string>) {
          appendRaw(buffer, static_cast<uint32_t>(value.size()));
          buffer.append(value);
        } else {
          appendRaw(buffer, value);
        }
      }
      sets.appendBytes(buffer);
    }
    out.push_back(std::move(sets));
    out.push_back(booleanBlock(seen));
  }

  Block writeFinal() const override {
    const size_t groups = values_.size();
    std::vector<uint64_t> offsets(groups + 1, 0);
    std::vector<uint8_t> validity(groups, 1);
    Block elements(spec_.inputType);
    for (size_t g = 0; g < groups; ++g) {
      std::vector<T>& group = values_[g];
      compact(g);
      std::sort(group.begin(), group.end(),
                [this](const T& a, const T& b) { return before(a, b); });
      validity[g] = !group.empty();
      for (const T& value : group) {
        if constexpr (std::is_same_v<T, std::string>) {
          elements.appendBytes(value);
        } else {
          elements.append<T>(value);
        }
      }
      offsets[g + 1] = offsets[g] + group.size();
    }
    return Block::fromList(DataType::list(spec_.inputType), std::move(offsets), std::move(elements),
                           std::move(validity));
  }

 private:
  template <typename V>
  static void appendRaw(std::string& out, V value) {
    char bytes[sizeof(V)];
    std::memcpy(bytes, &value, sizeof(V));
    out.append(bytes, sizeof(V));
  }

  void need(std::string_view bytes, size_t offset, size_t length) const {
    if (bytes.size() - offset < length) {
      throwCorruptValueSet(aggregateName(spec_.function), spec_.name,
                           "a value of " + std::to_string(length) + " bytes past the end", offset,
                           bytes.size());
    }
  }

  uint32_t readUInt32(std::string_view bytes, size_t& offset) const {
    need(bytes, offset, 4);
    uint32_t v;
    std::memcpy(&v, bytes.data() + offset, 4);
    offset += 4;
    return v;
  }

  /// Whether `a` comes before `b` in the output's order.
  bool before(const T& a, const T& b) const {
    const int c = compareValue(a, b);
    return spec_.descending ? c > 0 : c < 0;
  }

  void add(uint32_t g, T value) {
    std::vector<T>& group = values_[g];
    group.push_back(std::move(value));
    const size_t limit = top_ ? 2 * static_cast<size_t>(spec_.limit) + kMinCompaction
                              : std::max(kMinCompaction, 2 * compacted_[g]);
    if (group.size() >= limit) compact(g);
  }

  /// VALUES: sorts group `g` and drops repeats; TOP: keeps its n first values.
  void compact(size_t g) const {
    std::vector<T>& group = values_[g];
    const auto order = [this](const T& a, const T& b) { return before(a, b); };
    auto kept = group.end();
    if (top_) {
      const auto limit = static_cast<size_t>(spec_.limit);
      if (group.size() > limit) {
        kept = group.begin() + static_cast<ptrdiff_t>(limit);
        std::nth_element(group.begin(), kept, group.end(), order);
      }
    } else if (group.size() > compacted_[g]) {
      std::sort(group.begin(), group.end(), order);
      kept = std::unique(group.begin(), group.end(),
                         [](const T& a, const T& b) { return compareValue(a, b) == 0; });
    }
    for (auto it = kept; it != group.end(); ++it) held_ -= std::min(held_, heldBytes(*it));
    group.erase(kept, group.end());
    compacted_[g] = group.size();
  }

  /// Charges `bytes` more before they are kept (the peak of what is held).
  void charge(uint64_t bytes) {
    held_ += bytes;
    charge_.atLeast(held_, what_.c_str());
  }

  AggregateSpec spec_;
  bool top_;
  std::string what_;
  /// Per group its values, and their number after its last compaction. Mutable:
  /// compacting changes what is held, never what it means.
  mutable std::vector<std::vector<T>> values_;
  mutable std::vector<size_t> compacted_;
  /// The bytes held now; the charge follows their peak.
  mutable uint64_t held_ = 0;
  MemoryCharge charge_;
  /// Per intermediate row, its values as read (bytes kinds as views into the row).
  std::vector<std::conditional_t<std::is_same_v<T, std::string>, std::string_view, T>> incoming_;
};

}  // namespace

std::unique_ptr<Aggregator> makeValuesAggregator(const AggregateSpec& spec) {
  if (spec.inputType.isBytes()) return std::make_unique<ValuesAggregator<std::string>>(spec);
  std::unique_ptr<Aggregator> out;
  withFixedStorage(spec.inputType.kind, [&](auto zero) {
    out = std::make_unique<ValuesAggregator<decltype(zero)>>(spec);
  });
  if (!out) out = std::make_unique<ValuesAggregator<uint8_t>>(spec);  // kNull: always null
  return out;
}

}  // namespace quarry::engine
