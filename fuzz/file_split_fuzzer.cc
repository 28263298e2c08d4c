// libFuzzer target for the splits a data node takes off the wire (Execute
// deserializes each FileSplit): the input is decoded with
// engine::deserializeFileSplit. It must end in a FileSplit or a CorruptFile;
// a split decoded must have its row spans ascending and non-empty, and its
// encoding must decode to a split that encodes to the same bytes. (Bytes, not
// FileSplit's ==: a statistic or partition value may be a NaN double, which
// round-trips bit for bit and is never equal to itself;
// fuzz/regressions/file_split_fuzzer/nan-statistic is such an input.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "quarry/common/error.h"
#include "quarry/engine/source/file_split.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  quarry::engine::FileSplit split;
  try {
    split = quarry::engine::deserializeFileSplit(std::span<const uint8_t>(data, size));
  } catch (const quarry::CorruptFile&) {
    return 0;
  }
  for (size_t i = 0; i < split.rows.size(); ++i) {
    const auto& span = split.rows[i];
    if (span.first >= span.end || (i > 0 && span.first < split.rows[i - 1].end)) std::abort();
  }
  const std::vector<uint8_t> again = quarry::engine::serialize(split);
  if (quarry::engine::serialize(quarry::engine::deserializeFileSplit(again)) != again) std::abort();
  return 0;
}
