#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_set>

#include "quarry/common/error.h"
#include "quarry/engine/expr/aggregate_families.h"
#include "quarry/engine/expr/aggregator_columns.h"

namespace quarry::engine {

namespace {

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

}  // namespace

std::unique_ptr<Aggregator> makeCountDistinctAggregator(const AggregateSpec& spec) {
  return std::make_unique<CountDistinctAggregator>(spec);
}

}  // namespace quarry::engine
