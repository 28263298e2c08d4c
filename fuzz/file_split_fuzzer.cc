// libFuzzer target for the splits a data node takes off the wire (Execute
// deserializes each FileSplit): the input is decoded with
// engine::deserializeFileSplit. It must end in a FileSplit or a CorruptFile;
// a split decoded must encode to bytes that decode to an equal split (its row
// spans ascending and non-empty, its counts within their rows).
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
  if (!(quarry::engine::deserializeFileSplit(again) == split)) std::abort();
  return 0;
}
