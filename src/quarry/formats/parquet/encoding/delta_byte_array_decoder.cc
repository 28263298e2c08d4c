#include "quarry/formats/parquet/encoding/delta_byte_array_decoder.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "quarry/common/error.h"

namespace quarry::parquet {
namespace {

/// Values decoded per step of skip(), bounding its scratch arrays.
constexpr size_t kSkipChunk = 1024;

}  // namespace

DeltaByteArrayDecoder::DeltaByteArrayDecoder(std::span<const uint8_t> data)
    : prefixLengths_(data), suffixes_(data, prefixLengths_.endOffset()) {
  if (prefixLengths_.valueCount() != suffixes_.valueCount()) {
    throw CorruptFile("DELTA_BYTE_ARRAY data: " + std::to_string(prefixLengths_.valueCount()) +
                      " prefix lengths but " + std::to_string(suffixes_.valueCount()) +
                      " suffixes");
  }
}

void DeltaByteArrayDecoder::readParts(size_t n) {
  const uint64_t first = valueCount() - remaining();
  prefixes_.resize(n);
  suffixViews_.resize(n);
  // Both streams declare the same count, so both deliver all n values.
  prefixLengths_.getBatch(prefixes_.data(), n);
  suffixes_.getBatch(suffixViews_.data(), n);
  size_t previousLength = previous_.size();
  for (size_t i = 0; i < n; ++i) {
    const int32_t prefix = prefixes_[i];
    if (prefix < 0 || static_cast<uint32_t>(prefix) > previousLength) {
      throw CorruptFile("DELTA_BYTE_ARRAY data: value " + std::to_string(first + i) +
                        " has prefix length " + std::to_string(prefix) +
                        ", but the value before it has " + std::to_string(previousLength) +
                        " bytes");
    }
    previousLength = static_cast<size_t>(prefix) + suffixViews_[i].size();
  }
}

size_t DeltaByteArrayDecoder::getBatch(std::string_view* out, size_t n) {
  const size_t count = static_cast<size_t>(std::min<uint64_t>(n, remaining()));
  if (count == 0) return 0;
  readParts(count);
  size_t total = 0;
  for (size_t i = 0; i < count; ++i) {
    total += static_cast<size_t>(prefixes_[i]) + suffixViews_[i].size();
  }
  values_.resize(total);
  uint8_t* const bytes = values_.data();
  const uint8_t* previous = previous_.data();
  size_t pos = 0;
  for (size_t i = 0; i < count; ++i) {
    const size_t prefix = static_cast<size_t>(prefixes_[i]);
    const std::string_view suffix = suffixViews_[i];
    if (prefix > 0) std::memcpy(bytes + pos, previous, prefix);
    if (!suffix.empty()) std::memcpy(bytes + pos + prefix, suffix.data(), suffix.size());
    out[i] = std::string_view(reinterpret_cast<const char*>(bytes + pos), prefix + suffix.size());
    previous = bytes + pos;
    pos += prefix + suffix.size();
  }
  previous_.assign(previous, previous + out[count - 1].size());
  return count;
}

size_t DeltaByteArrayDecoder::skip(size_t n) {
  const size_t count = static_cast<size_t>(std::min<uint64_t>(n, remaining()));
  for (size_t done = 0; done < count;) {
    const size_t chunk = std::min(count - done, kSkipChunk);
    readParts(chunk);
    // Only the last value matters for what follows; rebuild it in place.
    for (size_t i = 0; i < chunk; ++i) {
      previous_.resize(static_cast<size_t>(prefixes_[i]));
      previous_.insert(previous_.end(), suffixViews_[i].begin(), suffixViews_[i].end());
    }
    done += chunk;
  }
  return count;
}

}  // namespace quarry::parquet
