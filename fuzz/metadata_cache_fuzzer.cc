// libFuzzer target for the metadata cache's file (engine/source/metadata_cache.h),
// bytes a query reads from disk. The input is decoded twice: as a whole cache file
// (magic, version, length and keyed hash checked), and as the payload behind a valid
// header under a fixed secret, so that the fuzzer reaches every field past the hash. Each file
// entry's metadata is decoded too. Every decode must end in contents or a
// CorruptFile; contents decoded must encode to bytes that decode to the same
// listings and files, and metadata decoded must encode to bytes that decode and
// encode to the same bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "quarry/common/error.h"
#include "quarry/engine/source/metadata_cache.h"

namespace {

using quarry::engine::MetadataCache;

const MetadataCache::Secret& fuzzSecret() {
  static const MetadataCache::Secret secret = [] {
    MetadataCache::Secret s{};
    for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<uint8_t>(i * 131 + 7);
    return s;
  }();
  return secret;
}

void check(std::span<const uint8_t> bytes) {
  MetadataCache::Contents contents;
  try {
    contents = MetadataCache::decode(bytes, fuzzSecret());
  } catch (const quarry::CorruptFile&) {
    return;
  }
  for (const MetadataCache::FileEntry& file : contents.files) {
    try {
      quarry::engine::SourceMetadata metadata = MetadataCache::decodeMetadata(file.metadata);
      const std::vector<uint8_t> again = MetadataCache::encodeMetadata(metadata);
      // Compared as bytes: a NaN statistic is not equal to itself.
      if (MetadataCache::encodeMetadata(MetadataCache::decodeMetadata(again)) != again)
        std::abort();
    } catch (const quarry::CorruptFile&) {
    }
  }
  const std::vector<uint8_t> again = MetadataCache::encode(contents, fuzzSecret());
  const MetadataCache::Contents back = MetadataCache::decode(again, fuzzSecret());
  if (back.key != contents.key || back.files.size() != contents.files.size() ||
      back.listings.size() != contents.listings.size()) {
    std::abort();
  }
  for (size_t i = 0; i < contents.listings.size(); ++i) {
    if (back.listings[i].first != contents.listings[i].first ||
        back.listings[i].second.matches != contents.listings[i].second.matches ||
        back.listings[i].second.directories != contents.listings[i].second.directories) {
      std::abort();
    }
  }
  for (size_t i = 0; i < contents.files.size(); ++i) {
    const MetadataCache::FileEntry& a = contents.files[i];
    const MetadataCache::FileEntry& b = back.files[i];
    if (a.uri != b.uri || !(a.stamp == b.stamp) || a.version != b.version || a.format != b.format ||
        !std::equal(a.metadata.begin(), a.metadata.end(), b.metadata.begin(), b.metadata.end())) {
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> input(data, size);
  check(input);
  check(MetadataCache::frame(input, fuzzSecret()));
  return 0;
}
