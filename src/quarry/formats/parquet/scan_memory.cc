#include "quarry/formats/parquet/scan_memory.h"

#include <cstddef>

namespace quarry::parquet {
namespace {

constexpr size_t kMaxKeptBytes = size_t{256} << 20;

thread_local ScanMemory keptMemory;

size_t bytesOf(const ScanMemory& memory) {
  size_t total = 0;
  for (const auto& b : memory.buffers) {
    total += b.rawCapacity + b.pageCapacity + b.levels.capacity() * 2;
  }
  for (const auto* columns : {&memory.columns, &memory.filterColumns}) {
    for (const auto& c : *columns) {
      total += c.definitionLevels.capacity() * 2 + c.repetitionLevels.capacity() * 2 +
               c.fixedValues.capacity() + c.offsets.capacity() * 8 + c.byteData.capacity() +
               c.dictionaryIds.capacity() * 4;
    }
  }
  return total;
}

}  // namespace

ScanMemory takeScanMemory() {
  ScanMemory memory = std::move(keptMemory);
  keptMemory = ScanMemory{};
  return memory;
}

void keepScanMemory(ScanMemory memory) {
  // Memory kept for a later reader holds nothing of a query: it is charged again
  // when decoding fills it.
  for (auto& b : memory.buffers) {
    b.pageMemory.release();
    b.levelsMemory.release();
    b.dictionary.memory.release();
  }
  for (auto* columns : {&memory.columns, &memory.filterColumns}) {
    for (auto& c : *columns) c.memory.release();
  }
  const size_t bytes = bytesOf(memory);
  if (bytes <= kMaxKeptBytes && bytes >= bytesOf(keptMemory)) keptMemory = std::move(memory);
}

}  // namespace quarry::parquet
