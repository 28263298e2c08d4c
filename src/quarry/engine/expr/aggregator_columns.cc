#include "quarry/engine/expr/aggregator_columns.h"

#include "quarry/common/error.h"
#include "quarry/engine/expr/vector_kernels.h"

namespace quarry::engine {

bool flagAt(const Block& block, size_t r) {
  return !block.isNull(r) && block.values<uint8_t>()[r] != 0;
}

Block booleanBlock(std::span<const uint8_t> flags) {
  Block out(DataType::boolean());
  out.reserve(flags.size());
  for (uint8_t f : flags) out.append<uint8_t>(f);
  return out;
}

Block int64Block(std::span<const int64_t> values) {
  Block out(DataType::int64());
  out.reserve(values.size());
  for (int64_t v : values) out.append<int64_t>(v);
  return out;
}

size_t valueCount(const Block& block) {
  if (block.type().kind == TypeKind::kNull) return 0;
  const std::span<const uint8_t> valid = block.validity();
  if (valid.empty()) return block.size();
  size_t count = 0;
  for (uint8_t v : valid) count += v;
  return count;
}

const Block& doublesOf(const Block& block, Block& scratch) {
  if (block.type().kind == TypeKind::kDouble || block.type().kind == TypeKind::kNull) return block;
  scratch = castBlock(block, DataType::float64());
  return scratch;
}

void throwCorruptValueSet(const char* function, const std::string& name, const std::string& problem,
                          size_t offset, size_t size) {
  throw CorruptFile(std::string(function) + " (" + name + "): " + problem +
                    " in an intermediate value set at byte " + std::to_string(offset) + " of " +
                    std::to_string(size));
}

void throwSumOverflow(const char* function, const std::string& name, const std::string& sum,
                      const std::string& value, const std::string& limit) {
  throw InvalidArgument(std::string("Overflow in ") + function + " (" + name + "): " + sum + " + " +
                        value + " does not fit in " + limit);
}

}  // namespace quarry::engine
